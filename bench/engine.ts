/**
 * Speed and memory of the engine on a real library (default: ../shared/corpus/skills):
 * cold index by stage, warm reopen (in this process and as a fresh CLI process, which is what a
 * user waits for), query latency p50/p95 per stage with and without rerank over the dev
 * requests, and the peak RSS of the CLI. Prints Markdown tables and writes
 * bench/results/engine.json (engine-warm.json with `--skip-cold`) with the machine's load
 * average. Never pass/fail.
 *
 *   npm run bench -- [--only engine] [--library DIR] [--queries FILE.jsonl] [--no-model]
 *                    [--threads N] [--skip-cold [--cache DIR]] [--runs N]
 *
 * `--skip-cold` reuses a cache folder (`--cache`, else the library's user cache folder, whatever
 * state it is in) instead of a fresh one: no cold figures, quick warm and query figures.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultCacheDir, openLibrary } from '../src/node/library';
import { stageClock } from './stageClock';

const ROOT = path.resolve(__dirname, '../..');
const { values } = parseArgs({
  options: {
    library: { type: 'string', default: path.resolve(ROOT, '../shared/corpus/skills') },
    queries: { type: 'string', default: path.resolve(ROOT, '../shared/queries/dev.jsonl') },
    'no-model': { type: 'boolean' },
    threads: { type: 'string' },
    'skip-cold': { type: 'boolean' },
    cache: { type: 'string' },
    runs: { type: 'string', default: '3' },
  },
  allowPositionals: true,
  strict: false,
});

const str = (v: unknown): string => String(v);
const flag = (v: unknown): boolean => v === true;

const STAGES = ['embed', 'dense', 'lexical', 'fuse', 'rerank', 'total'] as const;
type Stage = (typeof STAGES)[number];

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
}
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');
const load = () => loadavg().map((l) => Number(l.toFixed(2)));

/** A preload module that reports the process's peak RSS on exit (Node has no child rusage). */
function rssHook(dir: string): string {
  const file = path.join(dir, 'rss-hook.js');
  writeFileSync(
    file,
    "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write(`\\nPEAK_RSS_KB ${process.resourceUsage().maxRSS} CPU_MS ${(u.user + u.system) / 1000}\\n`); });\n",
  );
  return file;
}

/** Runs the CLI in a fresh process; wall time, peak RSS and what it printed. */
function cli(hook: string, args: string[]): { ms: number; cpuMs: number; rssMb: number; code: number | null; stderr: string; stdout: string } {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--max-old-space-size=6144', '-r', hook, path.join(ROOT, 'bin', 'skill-router.js'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const ms = performance.now() - t;
  const m = /PEAK_RSS_KB (\d+) CPU_MS ([\d.]+)/.exec(r.stderr ?? '');
  return { ms, cpuMs: m ? Number(m[2]) : NaN, rssMb: m ? Number(m[1]) / 1024 : NaN, code: r.status, stderr: r.stderr ?? '', stdout: r.stdout ?? '' };
}

async function main() {
  const library = path.resolve(str(values.library));
  const noModel = flag(values['no-model']);
  const threads = typeof values.threads === 'string' ? Number(values.threads) : undefined;
  const runs = Math.max(1, Number(values.runs) || 1);
  const work = mkdtempSync(path.join(tmpdir(), 'sr-bench-'));
  const hook = rssHook(work);
  const skipCold = flag(values['skip-cold']);
  const cacheDir = skipCold ? (typeof values.cache === 'string' ? path.resolve(values.cache) : defaultCacheDir(library)) : path.join(work, 'cache');
  const cliShared = ['--library', library, '--cache', cacheDir, '--quiet', ...(noModel ? ['--no-model'] : []), ...(threads ? ['--threads', String(threads)] : [])];
  const result: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, memGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
    library,
    loadAverageAtStart: load(),
  };

  // Cold: a fresh cache folder; stage times from the progress events.
  if (!skipCold) {
    const { progress, first, last } = stageClock();
    const loadCold = load();
    let t = performance.now();
    const cold = await openLibrary({ root: library, cacheDir, noModel, threads, progress });
    const openMs = performance.now() - t;
    t = performance.now();
    const stats = await cold.index({ progress });
    const end = performance.now();
    const indexMs = end - t;
    await cold.dispose();
    // Parsing ends with the last 'read' event; analysis runs until embedding starts.
    const readEnd = last.get('read') ?? t;
    const embedStart = first.get('embed') ?? first.get('vector index') ?? end;
    const embedEnd = last.get('embed') ?? embedStart;
    const stages: Record<string, number> = {
      'open (model, caches)': openMs,
      'list + read + parse': readEnd - t,
      'lexical analysis + index': embedStart - readEnd,
      embed: embedEnd - embedStart,
      'vector index + cache write': end - embedEnd,
    };
    result.cold = {
      skills: stats.skills,
      embedded: stats.embedded,
      model: stats.model,
      ms: openMs + indexMs,
      skillsPerS: stats.skills / ((openMs + indexMs) / 1000),
      stages,
      loadAverage: loadCold,
    };
    console.log(`### Cold index (${stats.skills} skills, model ${stats.model ?? 'none'}, load ${loadCold.join(' ')})\n`);
    console.log('| stage | s |\n|---|---|');
    for (const [k, v] of Object.entries(stages)) console.log(`| ${k} | ${f1(v / 1000)} |`);
    console.log(`| **total** | **${f1((openMs + indexMs) / 1000)}** (${f1(stats.skills / ((openMs + indexMs) / 1000))} skills/s, ${stats.embedded} embedded) |\n`);
  }

  // Warm: the cache exists. A fresh CLI process is what a user waits for.
  const warmCli: { ms: number; cpuMs: number; rssMb: number; load: number[] }[] = [];
  for (let i = 0; i < runs; i++) {
    const l = load();
    const r = cli(hook, ['index', ...cliShared]);
    if (r.code !== 0) throw new Error(`skill-router index failed (${r.code}): ${r.stderr.slice(-2000)}`);
    warmCli.push({ ms: r.ms, cpuMs: r.cpuMs, rssMb: r.rssMb, load: l });
  }
  const loadWarm = load();
  let t = performance.now();
  const warm = await openLibrary({ root: library, cacheDir, noModel, threads });
  const warmOpenMs = performance.now() - t;
  t = performance.now();
  const warmStats = await warm.index();
  const warmIndexMs = performance.now() - t;
  result.warm = {
    cliProcessMs: warmCli.map((w) => w.ms),
    cliProcessMedianMs: pct(warmCli.map((w) => w.ms), 50),
    // CPU time (all threads) is less skewed by other processes than wall time on a busy machine.
    cliProcessCpuMs: warmCli.map((w) => w.cpuMs),
    cliPeakRssMb: Math.max(...warmCli.map((w) => w.rssMb)),
    loadAverage: warmCli.map((w) => w.load),
    inProcess: { openMs: warmOpenMs, indexMs: warmIndexMs, cached: warmStats.cached, embedded: warmStats.embedded, loadAverage: loadWarm },
  };
  console.log(`### Warm reopen (cache present)\n`);
  console.log('| measure | value |\n|---|---|');
  console.log(`| fresh CLI process (\`skill-router index\`), ${runs} runs | median ${f1(pct(warmCli.map((w) => w.ms), 50) / 1000)} s (${warmCli.map((w) => f1(w.ms / 1000)).join(', ')}); load ${warmCli.map((w) => w.load[0]).join(', ')} |`);
  console.log(`| same, CPU time (user + system, all threads) | ${warmCli.map((w) => f1(w.cpuMs / 1000)).join(', ')} s |`);
  console.log(`| in this process: open + index | ${f1(warmOpenMs / 1000)} + ${f1(warmIndexMs / 1000)} s (${warmStats.cached} vectors from cache, ${warmStats.embedded} embedded) |`);
  console.log(`| CLI peak RSS (warm index) | ${f1(Math.max(...warmCli.map((w) => w.rssMb)))} MB |\n`);

  // Queries over the dev requests, each once without and once with rerank (after one warm-up).
  const queryFile = str(values.queries);
  const queries = existsSync(queryFile)
    ? readFileSync(queryFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).query as string)
    : [];
  const loadQuery = load();
  const lat = { noRerank: new Map<Stage, number[]>(), rerank: new Map<Stage, number[]>() };
  for (const m of Object.values(lat)) for (const s of STAGES) m.set(s, []);
  if (queries.length) await warm.route(queries[0], { k: 10 });
  for (const q of queries) {
    for (const [mode, rerank] of [['noRerank', false], ['rerank', true]] as const) {
      const { timings } = await warm.route(q, { k: 10, rerank });
      const m = lat[mode];
      m.get('embed')!.push(timings.embedMs);
      m.get('dense')!.push(timings.denseMs);
      m.get('lexical')!.push(timings.lexicalMs);
      m.get('fuse')!.push(timings.fuseMs);
      m.get('rerank')!.push(timings.rerankMs);
      m.get('total')!.push(timings.totalMs);
    }
  }
  await warm.dispose();
  const table = (m: Map<Stage, number[]>) => Object.fromEntries(STAGES.map((s) => [s, { p50: pct(m.get(s)!, 50), p95: pct(m.get(s)!, 95) }]));
  result.query = { n: queries.length, noRerank: table(lat.noRerank), rerank: table(lat.rerank), loadAverage: [loadQuery, load()] };
  console.log(`### Query latency, ${queries.length} dev requests, top 10 (ms; load ${loadQuery.join(' ')})\n`);
  console.log(`| mode | ${STAGES.map((s) => `${s} p50 / p95`).join(' | ')} |\n|---|${STAGES.map(() => '---').join('|')}|`);
  for (const [mode, m] of Object.entries(lat)) {
    console.log(`| ${mode === 'rerank' ? 'rerank top 20' : 'no rerank'} | ${STAGES.map((s) => `${f1(pct(m.get(s)!, 50))} / ${f1(pct(m.get(s)!, 95))}`).join(' | ')} |`);
  }

  // The CLI as a user runs it: one request end to end, and its peak RSS.
  if (queries.length) {
    const l = load();
    const r = cli(hook, ['route', queries[0], ...cliShared]);
    result.cliRoute = { ms: r.ms, cpuMs: r.cpuMs, rssMb: r.rssMb, code: r.code, loadAverage: l };
    console.log(`\n| CLI \`route\` (fresh process, cache present, first dev request) | ${f1(r.ms / 1000)} s wall, ${f1(r.cpuMs / 1000)} s CPU, peak RSS ${f1(r.rssMb)} MB, load ${l[0]} |\n|---|---|`);
  }
  result.benchPeakRssMb = process.resourceUsage().maxRSS / 1024;
  result.loadAverageAtEnd = load();
  console.log(`\nbench process peak RSS ${f1(result.benchPeakRssMb as number)} MB; load average at end ${(result.loadAverageAtEnd as number[]).join(' ')} on ${cpus().length} CPUs`);
  if (!skipCold) rmSync(work, { recursive: true, force: true });
  else rmSync(hook, { force: true });
  mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  // A warm-only run does not replace the full figures.
  writeFileSync(path.join(ROOT, 'bench', 'results', skipCold ? 'engine-warm.json' : 'engine.json'), `${JSON.stringify(result, null, 2)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
