/**
 * Trains the dense stage's query adapter (src/core/route/queryAdapter.ts) over the frozen encoder
 * and writes it to the encoder's folder as adapter/ (manifest.json + query-adapter.f32), where
 * openLibrary picks it up; `--no-adapter` then routes without it. Nothing is shipped by default:
 * over the built-in encoder it raises dense-alone Hit@1 but lowers the full pipeline's
 * (docs/retrieval-log.md §16). Training requests are the
 * library's own pseudo-requests (bench/trainingRequests.ts, the reranker's writer, seeds 7-9);
 * skills are their description rows' mean vector. Labelled queries (--dev) are only reported:
 * dense-alone Hit@1 / NDCG@10 before training and after each epoch; they train nothing.
 *
 *   node esbuild.mjs --bench && node out/bench/trainAdapter.js [--library DIR] [--model DIR]
 *        [--out <model>/adapter] [--dev ../shared/queries/dev.jsonl | --no-dev] [--epochs 4] [--check]
 *
 * --model trains an adapter for a user-supplied encoder (its folder's manifest id becomes the
 * adapter's base). --check retrains and compares with the adapter in --out (exit 1 beyond rounding).
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { parseQueries, type EvalQuery } from '../src/core/eval/queries';
import { scoreQuery, summarize } from '../src/core/eval/metrics';
import { adaptQuery, adapterId, DEFAULT_ADAPTER_TRAIN, trainQueryAdapter, type AdapterExample, type QueryAdapter } from '../src/core/route/queryAdapter';
import { dot } from '../src/core/route/denseStore';
import type { RoutingEngine } from '../src/core/route/skillService';
import { defaultModelDir, openLibrary } from '../src/node/library';
import { hasAdapter, readAdapter, writeAdapter } from '../src/node/queryAdapterFile';
import { trainingRequests } from './trainingRequests';

const { values } = parseArgs({
  options: {
    library: { type: 'string', default: path.resolve('../shared/corpus/skills') },
    model: { type: 'string' },
    out: { type: 'string' },
    dev: { type: 'string', default: path.resolve('../shared/queries/dev.jsonl') },
    'no-dev': { type: 'boolean' },
    epochs: { type: 'string', default: String(DEFAULT_ADAPTER_TRAIN.epochs) },
    check: { type: 'boolean' },
  },
});
const log = (msg: string) => process.stderr.write(`${msg}\n`);
const SEEDS = [7, 8, 9];

async function requestVectors(svc: RoutingEngine, queries: readonly string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (const [i, q] of queries.entries()) {
    const { vector } = await svc.pipeline.embed(svc.pipeline.analyse(q));
    if (!vector) throw new Error('the encoder gave no vector');
    out.push(vector);
    if ((i + 1) % 1000 === 0) log(`embedded ${i + 1}/${queries.length} requests`);
  }
  return out;
}

/** Dense-alone Hit@1 and NDCG@10 of labelled queries: every skill by its best row. */
function denseAlone(svc: RoutingEngine, queries: readonly EvalQuery[], vectors: readonly Float32Array[], adapter: QueryAdapter | null): { hit1: number; ndcg10: number } {
  const store = svc.pipeline.denseStore!;
  const ids = svc.skills().map((d) => d.id);
  const scored = queries.map((q, i) => {
    const v = adapter ? adaptQuery(adapter, vectors[i]) : vectors[i];
    const ranked = ids.map((id) => ({ id, s: store.score(id, v)?.score ?? -Infinity })).sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : 1));
    const metrics = scoreQuery(ranked.slice(0, 20).map((r) => r.id), { required: q.skillIds, alsoOk: q.alsoOk });
    return { size: q.skillIds.length, direction: q.direction, metrics };
  });
  const m = summarize(scored).overall;
  return { hit1: m['hit@1'], ndcg10: m['ndcg@10'] };
}

async function main(): Promise<void> {
  values.out ??= path.join(values.model ? path.resolve(values.model) : defaultModelDir(), 'adapter');
  const svc = await openLibrary({ root: values.library!, modelDir: values.model, adapterDir: null });
  try {
    const stats = await svc.index();
    const embedder = svc.pipeline.embedderInfo;
    if (!stats.model || !embedder) throw new Error(`the adapter needs the encoder: ${stats.denseDisabled}`);
    const docs = svc.skills();
    const store = svc.pipeline.denseStore!;
    const skills = docs.map((d) => {
      const rows = store.vectors(d.id);
      const mean = new Float32Array(embedder.dims);
      for (const r of rows) for (let i = 0; i < mean.length; i++) mean[i] += r[i];
      const n = Math.sqrt(dot(mean, mean)) || 1;
      return mean.map((x) => x / n);
    });
    const at = new Map(docs.map((d, i) => [d.id, i]));
    const requests = SEEDS.flatMap((seed) => trainingRequests(docs, seed, log));
    log(`${docs.length} skills, ${requests.length} pseudo-requests (${requests.filter((r) => r.targets.length > 1).length} multi-skill)`);
    const vectors = await requestVectors(svc, requests.map((r) => r.query));
    const examples: AdapterExample[] = requests.map((r, i) => ({ vector: vectors[i], targets: r.targets.map((t) => at.get(t)!) }));
    const dev = !values['no-dev'] && existsSync(values.dev!) ? parseQueries(readFileSync(values.dev!, 'utf8'), values.dev) : [];
    const devVectors = await requestVectors(svc, dev.map((q) => q.query));
    const report = (label: string, a: QueryAdapter | null) => {
      if (!dev.length) return;
      const m = denseAlone(svc, dev, devVectors, a);
      log(`${label}: dev dense alone Hit@1 ${(100 * m.hit1).toFixed(1)}, NDCG@10 ${(100 * m.ndcg10).toFixed(1)}`);
    };
    report('encoder as shipped', null);
    const opts = { ...DEFAULT_ADAPTER_TRAIN, epochs: Number(values.epochs) };
    const t0 = performance.now();
    const matrix = trainQueryAdapter(skills, examples, opts, (epoch, loss, a) => {
      log(`epoch ${epoch + 1}/${opts.epochs}: loss ${loss.toFixed(4)} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
      report(`  after epoch ${epoch + 1}`, { base: embedder.id, dims: embedder.dims, matrix: a });
    });
    const adapter: QueryAdapter = { base: embedder.id, dims: embedder.dims, matrix };
    if (values.check) {
      if (!hasAdapter(values.out!)) throw new Error(`no adapter in ${values.out} to check against`);
      const shipped = readAdapter(values.out!);
      let diff = 0;
      for (let i = 0; i < matrix.length; i++) diff = Math.max(diff, Math.abs(matrix[i] - shipped.matrix[i]));
      log(`largest difference from the adapter in ${values.out}: ${diff.toExponential(2)}`);
      process.exitCode = diff <= 1e-5 && shipped.base === adapter.base ? 0 : 1;
      return;
    }
    const manifest = writeAdapter(values.out!, adapter, adapterId(adapter), {
      trainedBy: 'bench/trainAdapter.ts',
      recipe: { ...opts, seeds: SEEDS, requests: requests.length, skills: docs.length, loss: 'multi-positive InfoNCE + 0.25 sibling term, the library as negatives' },
      source: 'pseudo-requests written from the shared test corpus (2,817 public SKILL.md files); weights only, no text',
      license: 'Apache-2.0',
    });
    log(`wrote ${values.out} (${manifest.id})`);
  } finally {
    await svc.dispose();
  }
}

main().catch((err) => {
  log((err as Error).stack ?? String(err));
  process.exit(1);
});
