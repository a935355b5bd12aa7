/**
 * What a user of the CLI waits for on a real library (default: ../shared/corpus/skills): a cold
 * `skill-router index` (a fresh cache folder, a fresh process) and then one-shot `route` runs over
 * the cache it wrote, each a fresh process, with the load average before and after each run (the
 * machine is shared: a figure means little without it). `--stages` also times a cold index in
 * this process by stage (from the engine's progress events), to see where the time goes.
 * Prints a table and writes bench/results/cliTimes.json (or --out). Never pass/fail.
 *
 *   node esbuild.mjs --bench && node out/bench/cliTimes.js [--library DIR] [--routes N] [--stages]
 *        [--skip-cold --cache DIR] [--out FILE.json]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { openLibrary } from '../src/node/library';
import { stageClock } from './stageClock';

const ROOT = path.resolve(__dirname, '../..');
const { values } = parseArgs({
  options: {
    library: { type: 'string', default: path.resolve(ROOT, '../shared/corpus/skills') },
    routes: { type: 'string', default: '5' },
    request: { type: 'string', default: 'extract the tables from a PDF into a spreadsheet' },
    stages: { type: 'boolean' },
    'skip-cold': { type: 'boolean' },
    cache: { type: 'string' },
    out: { type: 'string', default: path.join(ROOT, 'bench/results/cliTimes.json') },
  },
});

const load = () => loadavg().map((l) => Number(l.toFixed(2)));
const s1 = (ms: number) => (ms / 1000).toFixed(2);

interface Run {
  ms: number;
  cpuMs: number;
  loadBefore: number[];
  loadAfter: number[];
}

/** A preload module that reports the process's CPU time on exit (Node has no child rusage). */
function cpuHook(dir: string): string {
  const file = path.join(dir, 'cpu-hook.js');
  writeFileSync(file, "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write(`\\nCPU_MS ${(u.user + u.system) / 1000}\\n`); });\n");
  return file;
}

function cli(hook: string, args: string[]): Run {
  const loadBefore = load();
  const t = performance.now();
  const r = spawnSync(process.execPath, ['-r', hook, path.join(ROOT, 'bin', 'skill-router.js'), ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`skill-router ${args[0]} failed (${r.status}): ${(r.stderr ?? '').slice(-2000)}`);
  const cpu = /CPU_MS ([\d.]+)/.exec(r.stderr ?? '');
  return { ms, cpuMs: cpu ? Number(cpu[1]) : NaN, loadBefore, loadAfter: load() };
}

async function main() {
  const library = path.resolve(values.library!);
  const work = mkdtempSync(path.join(tmpdir(), 'sr-cli-'));
  const hook = cpuHook(work);
  const cacheDir = values['skip-cold'] && values.cache ? path.resolve(values.cache) : path.join(work, 'cache');
  const result: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, memGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
    library,
  };
  const rows: string[] = [];
  try {
    if (values.stages) {
      const stageCache = path.join(work, 'stages');
      const { progress, first, last } = stageClock();
      const loadBefore = load();
      const t0 = performance.now();
      const lib = await openLibrary({ root: library, cacheDir: stageCache, progress });
      const t1 = performance.now();
      const stats = await lib.index({ progress });
      const t2 = performance.now();
      await lib.dispose();
      const spans: Record<string, number> = { open: t1 - t0 };
      for (const [stage, at] of first) spans[stage] = (last.get(stage) ?? at) - Math.max(at, t1);
      spans['index total'] = t2 - t1;
      result.stages = { skills: stats.skills, spans, loadBefore, loadAfter: load() };
      for (const [k, v] of Object.entries(spans)) rows.push(`| in-process ${k} | ${s1(v)} | | ${loadBefore.join(' ')} |`);
    }
    if (!values['skip-cold']) {
      const cold = cli(hook, ['index', '--library', library, '--cache', cacheDir, '--quiet']);
      result.coldIndex = cold;
      rows.push(`| cold \`index\` | ${s1(cold.ms)} | ${s1(cold.cpuMs)} | ${cold.loadBefore.join(' ')} → ${cold.loadAfter.join(' ')} |`);
    }
    if (values.stages) {
      // A warm one-shot route in this process, by step: what a fresh `route` spends its time on.
      const loadBefore = load();
      const t0 = performance.now();
      const lib = await openLibrary({ root: library, cacheDir, lexicalSnapshot: true });
      const t1 = performance.now();
      await lib.index();
      const t2 = performance.now();
      const r = await lib.route(values.request!, { k: 5 });
      const t3 = performance.now();
      await lib.dispose();
      const t4 = performance.now();
      const spans = { open: t1 - t0, index: t2 - t1, route: t3 - t2, dispose: t4 - t3 };
      result.warmStages = { spans, routeTimings: r.timings, loadBefore, loadAfter: load() };
      for (const [k, v] of Object.entries(spans)) rows.push(`| in-process warm ${k} | ${s1(v)} | | ${loadBefore.join(' ')} |`);
    }
    const routes: Run[] = [];
    for (let i = 0; i < Math.max(1, Number(values.routes) || 1); i++) {
      routes.push(cli(hook, ['route', values.request!, '--library', library, '--cache', cacheDir, '--quiet', '--top', '5']));
    }
    result.warmRoute = routes;
    const sorted = routes.map((r) => r.ms).sort((a, b) => a - b);
    result.warmRouteMedianMs = sorted[Math.floor(sorted.length / 2)];
    rows.push(`| warm \`route\` (${routes.length} runs) median / min / max | ${s1(sorted[Math.floor(sorted.length / 2)])} / ${s1(sorted[0])} / ${s1(sorted[sorted.length - 1])} | ${s1(routes[0].cpuMs)} (first) | ${routes[0].loadBefore.join(' ')} → ${routes[routes.length - 1].loadAfter.join(' ')} |`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`### CLI times (${library}, ${cpus().length} cores)\n`);
  console.log('| what | wall s | CPU s | load (1, 5, 15 min) |\n|---|---|---|---|');
  for (const r of rows) console.log(r);
  mkdirSync(path.dirname(values.out!), { recursive: true });
  writeFileSync(values.out!, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(process.cwd(), values.out!)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
