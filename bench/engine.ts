/**
 * Speed and memory of the engine on a real library (default: ../shared/corpus/skills):
 * cold index by stage, warm reopen, query latency p50/p95 with and without rerank, peak RSS.
 * Prints a Markdown table and writes bench/results/engine.json. Never pass/fail.
 *
 *   npm run bench -- [--library DIR] [--queries FILE.jsonl] [--no-model]
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { openLibrary } from '../src/node/library';

const { values } = parseArgs({
  options: {
    library: { type: 'string', default: path.resolve('../shared/corpus/skills') },
    queries: { type: 'string', default: path.resolve('../shared/queries/dev.jsonl') },
    'no-model': { type: 'boolean' },
    threads: { type: 'string' },
  },
});

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
}

async function main() {
  const library = values.library!;
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'sr-bench-'));
  const noModel = values['no-model'];
  const threads = values.threads ? Number(values.threads) : undefined;
  const stageStart = new Map<string, number>();
  const stageMs = new Map<string, number>();
  const progress = (stage: string, done: number, total: number) => {
    if (!stageStart.has(stage)) stageStart.set(stage, performance.now());
    if (done >= total) stageMs.set(stage, performance.now() - stageStart.get(stage)!);
  };
  let t = performance.now();
  const cold = await openLibrary({ root: library, cacheDir, noModel, threads, progress });
  const loadMs = performance.now() - t;
  t = performance.now();
  const coldStats = await cold.index({ progress });
  const coldMs = performance.now() - t;
  await cold.dispose();

  t = performance.now();
  const warm = await openLibrary({ root: library, cacheDir, noModel, threads });
  const warmStats = await warm.index();
  const warmMs = performance.now() - t;

  const queries = existsSync(values.queries!)
    ? readFileSync(values.queries!, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).query as string)
    : [];
  const lat: Record<string, number[]> = { total: [], embed: [], dense: [], lexical: [], fuse: [], rerank: [] };
  const latNoRerank: number[] = [];
  for (const q of queries) {
    const a = await warm.route(q, { k: 10, rerank: false });
    latNoRerank.push(a.timings.totalMs);
    const b = await warm.route(q, { k: 10, rerank: true });
    lat.total.push(b.timings.totalMs);
    lat.embed.push(b.timings.embedMs);
    lat.dense.push(b.timings.denseMs);
    lat.lexical.push(b.timings.lexicalMs);
    lat.fuse.push(b.timings.fuseMs);
    lat.rerank.push(b.timings.rerankMs);
  }
  await warm.dispose();
  rmSync(cacheDir, { recursive: true, force: true });
  const rssMb = process.resourceUsage().maxRSS / 1024;

  const result = {
    machine: `${require('node:os').cpus().length} cores, Node ${process.version}`,
    library,
    skills: coldStats.skills,
    model: coldStats.model,
    modelLoadMs: loadMs,
    cold: { ms: coldMs, skillsPerS: coldStats.skills / (coldMs / 1000), stages: Object.fromEntries(stageMs), embedded: coldStats.embedded },
    warm: { ms: warmMs, cached: warmStats.cached },
    query: {
      n: queries.length,
      noRerank: { p50: pct(latNoRerank, 50), p95: pct(latNoRerank, 95) },
      withRerank: { p50: pct(lat.total, 50), p95: pct(lat.total, 95) },
      stagesP50: Object.fromEntries(Object.entries(lat).map(([k, v]) => [k, pct(v, 50)])),
    },
    peakRssMb: rssMb,
  };
  const f = (n: number) => n.toFixed(1);
  console.log(`| measure | value |\n|---|---|`);
  console.log(`| library | ${result.skills} skills (${library}) |`);
  console.log(`| model | ${result.model ?? 'none (lexical only)'}, load ${f(loadMs)} ms |`);
  console.log(`| cold index | ${f(coldMs / 1000)} s (${f(result.cold.skillsPerS)} skills/s; ${Object.entries(result.cold.stages).map(([k, v]) => `${k} ${f(v / 1000)} s`).join(', ')}) |`);
  console.log(`| warm reopen | ${f(warmMs / 1000)} s (${warmStats.cached} skills from cache) |`);
  console.log(`| query, no rerank | p50 ${f(result.query.noRerank.p50)} ms, p95 ${f(result.query.noRerank.p95)} ms (${queries.length} dev requests) |`);
  console.log(`| query, rerank top 20 | p50 ${f(result.query.withRerank.p50)} ms, p95 ${f(result.query.withRerank.p95)} ms |`);
  console.log(`| query stages p50 | ${Object.entries(result.query.stagesP50).map(([k, v]) => `${k} ${f(v)}`).join(', ')} ms |`);
  console.log(`| peak RSS | ${f(rssMb)} MB |`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/engine.json', JSON.stringify(result, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
