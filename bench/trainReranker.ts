/**
 * Trains the built-in learned reranker from a skill library (default: ../shared/corpus/skills)
 * and writes models/reranker/weights.json and manifest.json. The weights are learnt from the
 * library's own text (pseudo-requests, see src/core/route/rerankTraining.ts), routed in the whole
 * library and in pools of 5-200 of its skills (bench/poolLists.ts), and from the real requests of
 * the tune libraries (bench/realLists.ts), repeated to weigh as much as the pseudo-requests; the
 * relevance model is fitted on the pools, with negatives, and on the real requests
 * (bench/relevanceFit.ts). Labelled queries (--dev, default
 * ../shared/queries/dev.jsonl when present) decide one scalar per regime, the weight of the
 * first-stage score, which --cv reports by nested cross-validation, and cap the relevance floor.
 *
 *   node esbuild.mjs --bench && node out/bench/trainReranker.js [--library DIR] [--seed 7]
 *        [--dev ../shared/queries/dev.jsonl | --no-dev] [--out models/reranker] [--check] [--lists FILE.json]
 *        [--no-pool-train] [--adapter DIR] [--realsuites bench/realsuites] [--dev-library ../shared/realsuites/dotnet] [--no-real]
 *        [--all-tune]   (every tune library of SPLIT.md, not only those the shipped model was fitted on: bench/realLists.ts TRAINED_ON)
 *        [--lists-read-only]   (read --lists, never rewrite it)
 *        [--real-libraries a,b,c]   (exactly these libraries' real requests, held-out ones too, never realLists.ts UNTOUCHED)
 *        [--no-real-train]   (the weights from pseudo-requests alone, the recipe before 2026-12-07: real requests fit the relevance only)
 *   node out/bench/trainReranker.js --cv 5 [--lists FILE.json]
 *   node out/bench/trainReranker.js --lolo [--lists FILE.json]   (leave one library out: see leaveOneLibraryOut)
 *
 * --check retrains and compares with the shipped weights (exit 1 when they differ beyond
 * rounding); --lists caches the recorded feature lists to iterate on training alone.
 * --cv K writes no model: it reports K-fold cross-validated dev metrics (first stage, the earlier
 * heuristic reranker, the learned weights alone, and the shipped recipe with the prior chosen on
 * the other folds), each with and without set selection. Labelled queries never train weights.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { checkModel, heuristicScores, modelScores, orderBy, softmax, type RerankerModel } from '../src/core/route/rerank';
import { CONTEXT_FEATURES, isHardConflict, POINT, POINT_FEATURES } from '../src/core/route/rerankFeatures';
import {
  choosePrior,
  DEFAULT_PSEUDO,
  DEFAULT_TRAIN,
  fitSetThresholds,
  PRIOR_GRID,
  gradeList,
  trainRegime,
  type PseudoRequest,
  type TrainingList,
  requestFeatures,
  withoutCandidates,
} from '../src/core/route/rerankTraining';
import { formatEvalTable } from '../src/cli/eval';
import { scoreQuery, summarize, type ScoredQuery } from '../src/core/eval/metrics';
import { parseQueries } from '../src/core/eval/queries';
import { DEFAULT_SET, membersFirst, selectSet } from '../src/core/route/setSelection';
import { openLibrary } from '../src/node/library';
import { analysisTag } from '../src/core/index/caches';
import { serves, type PoolList } from './poolLists';
import { fitRelevance, isHeldOutPool, recordPools } from './relevanceFit';
import { recordRealLists, tuneLibraries, type RealList } from './realLists';
import { trainingRequests } from './trainingRequests';
import { readAdapter } from '../src/node/queryAdapterFile';

const { values } = parseArgs({
  options: {
    library: { type: 'string', default: path.resolve('../shared/corpus/skills') },
    out: { type: 'string', default: path.resolve('models/reranker') },
    seed: { type: 'string', default: String(DEFAULT_PSEUDO.seed) },
    iterations: { type: 'string', default: String(DEFAULT_TRAIN.iterations) },
    check: { type: 'boolean' },
    lists: { type: 'string' },
    dev: { type: 'string', default: path.resolve('../shared/queries/dev.jsonl') },
    'no-dev': { type: 'boolean' },
    cv: { type: 'string' },
    threads: { type: 'string' },
    adapter: { type: 'string' },
    quiet: { type: 'boolean' },
    'no-pool-train': { type: 'boolean' },
    realsuites: { type: 'string', default: path.resolve('bench/realsuites') },
    'dev-library': { type: 'string', default: path.resolve('../shared/realsuites/dotnet') },
    'no-real': { type: 'boolean' },
    'all-tune': { type: 'boolean' },
    'real-libraries': { type: 'string' },
    'lists-read-only': { type: 'boolean' },
    'no-real-train': { type: 'boolean' },
    lolo: { type: 'boolean' },
  },
});

const log = (msg: string) => {
  if (!values.quiet) process.stderr.write(`${msg}\n`);
};

type Regime = 'dense' | 'lexical';

interface Labelled extends PseudoRequest {
  /** Copies that serve as well (labelled queries); graded as SKIP partners. */
  alsoOk?: string[];
  direction?: string;
}

/** Routes every request once and records the rerank stage's features and graded targets. */
async function collect(regime: Regime, requests: readonly Labelled[]): Promise<TrainingList[]> {
  const threads = values.threads ? Number(values.threads) : undefined;
  const svc = await openLibrary({ root: values.library!, noModel: regime === 'lexical', threads, adapterDir: values.adapter ?? null });
  try {
    const stats = await svc.index();
    if (regime === 'dense' && !stats.model) throw new Error(`the dense regime needs the embedding model: ${stats.denseDisabled}`);
    log(`${regime}: ${stats.skills} skills indexed; routing ${requests.length} pseudo-requests`);
    const lists: TrainingList[] = [];
    const partner = (target: string, candidate: string): boolean => {
      const j = svc.judgeSet([target, candidate]).pairs[0];
      return !!j && isHardConflict(j.reason);
    };
    for (const [n, r] of requests.entries()) {
      const taken = await requestFeatures(svc.pipeline, r.query);
      const features = taken && r.hidden ? withoutCandidates(taken, r.hidden) : taken;
      if (features) {
        const grades = gradeList(features.ids, r.targets, (g, c) => (r.alsoOk?.includes(c) ?? false) || partner(g, c));
        lists.push({ features, grades, size: r.targets.length });
      }
      if ((n + 1) % 500 === 0) log(`${regime}: ${n + 1}/${requests.length}`);
    }
    return lists;
  } finally {
    await svc.dispose();
  }
}

/** Mean Hit@1 of a scoring over lists (a target ranked first). */
function hitAt1(lists: readonly TrainingList[], score: (l: TrainingList) => number[]): number {
  const usable = lists.filter((l) => l.grades.includes(3));
  const hits = usable.filter((l) => l.grades[orderBy(score(l))[0]] === 3).length;
  return usable.length ? hits / usable.length : 0;
}

interface Recorded {
  lists: Record<Regime, TrainingList[]>;
  /** Lists routed in libraries of many sizes, for the relevance model (bench/poolLists.ts). */
  pools?: Record<Regime, PoolList[]>;
  requestCount: number;
  /** Real requests of the tune libraries and dotnet, for the relevance model (bench/realLists.ts). */
  real?: Record<Regime, RealList[]>;
  /** Labelled queries (--dev), recorded the same way; only --cv reads them. */
  dev?: { lists: Record<Regime, TrainingList[]>; queries: { required: string[]; alsoOk: string[]; direction?: string }[] };
}

async function record(seed: number): Promise<Recorded> {
  const probe = await openLibrary({ root: values.library!, noModel: true });
  await probe.index();
  const requests = trainingRequests(probe.skills(), seed, log);
  await probe.dispose();
  log(`${requests.length} pseudo-requests (${requests.filter((r) => r.targets.length > 1).length} multi-skill)`);
  return { lists: { dense: await collect('dense', requests), lexical: await collect('lexical', requests) }, requestCount: requests.length };
}

async function recordDev(file: string): Promise<NonNullable<Recorded['dev']>> {
  const queries = parseQueries(readFileSync(file, 'utf8'), file);
  const labelled: Labelled[] = queries.map((q) => ({ query: q.query, targets: q.skillIds, alsoOk: q.alsoOk, direction: q.direction }));
  return {
    lists: { dense: await collect('dense', labelled), lexical: await collect('lexical', labelled) },
    queries: queries.map((q) => ({ required: q.skillIds, alsoOk: q.alsoOk, direction: q.direction })),
  };
}

async function main(): Promise<void> {
  const seed = Number(values.seed);
  let recorded: Recorded;
  if (values.lists && existsSync(values.lists)) {
    recorded = JSON.parse(readFileSync(values.lists, 'utf8')) as Recorded;
    log(`lists read from ${values.lists}`);
  } else {
    recorded = await record(seed);
  }
  const devFile = values['no-dev'] || !existsSync(values.dev!) ? undefined : values.dev;
  if (devFile && !recorded.dev) recorded.dev = await recordDev(devFile);
  if (!devFile) delete recorded.dev;
  recorded.pools ??= await recordPools(values.library!, log, values.adapter ? readAdapter(values.adapter) : undefined);
  const named = values['real-libraries']?.split(',').map((s) => s.trim()).filter(Boolean);
  const realLibs = values['no-real'] ? [] : tuneLibraries(values.realsuites!, values['dev-library'], values['all-tune'], named);
  if (!values['no-real'] && !realLibs.some((l) => l.name !== path.basename(values['dev-library']!))) {
    throw new Error(`${values.realsuites} holds no tune library: build them with \`node bench/realsuites/convert.mjs\` (from the snapshots their SOURCE.md files name), or pass --no-real to train without real requests (not the shipped recipe)`);
  }
  if (realLibs.length && !recorded.real) recorded.real = await recordRealLists(realLibs, log);
  if (!realLibs.length) delete recorded.real;
  else log(`real requests: ${realLibs.map((l) => l.name).join(', ')} (${recorded.real!.dense.length} + ${recorded.real!.lexical.length} lists)`);
  // --lists-read-only: the file is not rewritten (with many libraries' real lists the JSON passes V8's string limit).
  if (values.lists && !values['lists-read-only'] && (!existsSync(values.lists) || devFile || recorded.real)) writeFileSync(values.lists, JSON.stringify(recorded));
  const { lists, requestCount } = recorded;
  if (values.cv) {
    if (!recorded.dev) throw new Error('--cv needs --dev <queries.jsonl>');
    crossValidate(recorded.lists, recorded.dev, Number(values.cv));
    return;
  }
  if (values.lolo) {
    if (!recorded.dev || !recorded.real) throw new Error('--lolo needs --dev and the tune libraries\' real requests');
    const pooled = !values['no-pool-train'] && recorded.pools ? withPoolLists(recorded.lists, recorded.pools) : recorded.lists;
    leaveOneLibraryOut(pooled, recorded.real, recorded.dev, { ...DEFAULT_TRAIN, iterations: Number(values.iterations) });
    return;
  }

  const opts = { ...DEFAULT_TRAIN, iterations: Number(values.iterations) };
  // Also the positive lists of the training pools (libraries of 5-200 skills cut from one
  // collection): the reranker sees small libraries' feature distributions too (--no-pool-train:
  // the whole library's lists only; docs/retrieval-log.md, section 13, compares the two).
  const trainingLists = !values['no-pool-train'] && recorded.pools ? withPoolLists(lists, recorded.pools) : lists;
  // And the tune libraries' own requests (real requests as their authors test them), weighing as
  // much as the pseudo-request lists together: left out of its training in turn (`--lolo`), the
  // eleven libraries ranked their own requests better than with pseudo-requests alone, Hit@1 mean
  // 80.5 → 82.9 with the model (none worse) and 78.7 → 79.7 words alone (b2c 77.4 → 76.2; the
  // table: bench/results/reranker-lolo.md, docs/retrieval-log.md §37).
  const real = values['no-real-train'] ? undefined : realTrainingLists(recorded.real);
  const { model: trained, report } = trainWeights(trainingLists, opts, real);
  // The first-stage prior: chosen on the labelled queries when given (one scalar per regime,
  // the only thing they decide; --cv reports it nested), together with the tune libraries' own
  // requests when they are recorded (half the weight each: on the 185 labelled queries alone
  // the choice flipped between grid points with a few requests changed; retrieval-log §41),
  // else 1.
  const priors = { dense: 1, lexical: 1 };
  if (recorded.dev) {
    for (const regime of ['dense', 'lexical'] as const) {
      const { lists: chosenOn, score } = priorObjective(recorded.dev, real?.lists[regime] ?? [], regime);
      priors[regime] = choosePrior(trained, regime, chosenOn, score, chosenOn.map((_, i) => i));
    }
  }
  log(`first-stage prior: dense ${priors.dense}, lexical ${priors.lexical}${recorded.dev ? ` (chosen on the labelled queries${real ? ' and the tune libraries\' requests' : ''})` : ' (default)'}`);
  const withPrior = withPriors(trained, priors);
  const setFit = fitSetThresholds(withPrior, [
    ...lists.dense.filter(inTrain).map((list) => ({ list, dense: true })),
    ...lists.lexical.filter(inTrain).map((list) => ({ list, dense: false })),
  ]);
  log(`set size: minShare ${setFit.minShare}, minNovel ${setFit.minNovel} (balanced accuracy ${pct(setFit.accuracy)})`);
  const fitted = fitRelevance({ ...withPrior, set: { minShare: setFit.minShare, minNovel: setFit.minNovel } }, recorded.pools, recorded.dev, withDevLists(recorded.real, recorded.dev));
  log(`relevance: floor ${fitted.relevance.floor}, strong ${fitted.relevance.strong}${fitted.report}`);
  const model: RerankerModel = checkModel({
    ...withPrior,
    relevance: fitted.relevance,
    id: 'skill-router-listwise@2',
    set: { minShare: setFit.minShare, minNovel: setFit.minNovel },
    training: {
      seed,
      pseudoRequests: requestCount,
      loss: 'ListNet softmax cross-entropy, gains 2^g - 1 (g: 3 required, 1 SKIP partner, 0 other)',
      optimiser: `full-batch Adam, ${opts.iterations} iterations, lr ${opts.learningRate}, l2 ${opts.l2}`,
      prior: recorded.dev ? `chosen from ${PRIOR_GRID.join(', ')} by mean Hit@1 + NDCG@10 over ${recorded.dev.queries.length} labelled queries` : 'default',
      report,
      setSizeBalancedAccuracy: setFit.accuracy,
      relevance: fitted.summary,
    },
  });
  const text = `${JSON.stringify(model, null, 1)}\n`;
  const file = path.join(values.out!, 'weights.json');
  if (values.check) {
    const shipped = JSON.parse(readFileSync(file, 'utf8')) as RerankerModel;
    const diff = maxDifference(shipped, model);
    process.stdout.write(`largest weight difference from the shipped model: ${diff}\n`);
    process.exitCode = diff <= 1e-3 ? 0 : 1;
    return;
  }
  mkdirSync(values.out!, { recursive: true });
  writeFileSync(file, text);
  const manifest = {
    id: model.id,
    kind: 'listwise-reranker',
    file: 'weights.json',
    analysis: analysisTag(),
    sha256: createHash('sha256').update(text).digest('hex'),
    bytes: Buffer.byteLength(text),
    pointFeatures: POINT_FEATURES.length,
    contextFeatures: CONTEXT_FEATURES.length,
    parameters: Object.values(model.regimes).reduce((n, r) => n + r.pass1.length + r.pass2.length + r.mean.length + r.std.length + 1, 0),
    trainedBy: 'bench/trainReranker.ts',
    trainingData: `weights and relevance: pseudo-requests generated from the text of the skill library it was trained on, routed in the whole library and in pools of 5-200 of its skills (with negatives for the relevance)${real ? `; the weights also: the real requests of the tune half of bench/realsuites and dotnet that need a skill (${real.lists.dense.length} + ${real.lists.lexical.length} lists, repeated ${real.repeat.dense} and ${real.repeat.lexical} times to weigh as much as the pseudo-requests)` : ''}; the first-stage prior (one scalar per regime) and the relevance floor: labelled dev queries${recorded.real ? "; the relevance model also: real requests of the tune half of bench/realsuites and dotnet and the labelled dev requests (their own, no-skill and other libraries' requests, 80% of the fit, and the floor and strong thresholds; bench/realLists.ts)" : ''}`,
    license: 'Apache-2.0',
  };
  writeFileSync(path.join(values.out!, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  process.stdout.write(`wrote ${file} (${manifest.bytes} bytes)\n`);
}

/**
 * The real lists with the labelled dev requests added (routed in the whole corpus, 2,817 skills):
 * the tune libraries hold 5-95 skills and few requests in another language than their skills, and
 * relevance fitted on them alone abstained on 22 of the 185 dev requests.
 */
function withDevLists(real: Recorded['real'], dev: Recorded['dev']): Recorded['real'] {
  if (!real || !dev) return real;
  const out = { dense: [...real.dense], lexical: [...real.lexical] };
  for (const regime of ['dense', 'lexical'] as const) {
    dev.lists[regime].forEach((l, i) => {
      const q = dev.queries[i];
      out[regime].push({ library: 'dev (corpus)', features: l.features, targets: [...q.required, ...q.alsoOk], kind: 'own' });
    });
  }
  return out;
}

/** `lists` with the positive lists of the training pools appended (targets and their copies graded 3). */
function withPoolLists(lists: Record<Regime, TrainingList[]>, pools: Record<Regime, PoolList[]>): Record<Regime, TrainingList[]> {
  const out = {} as Record<Regime, TrainingList[]>;
  for (const regime of ['dense', 'lexical'] as const) {
    const extra = pools[regime]
      .filter((l) => !l.negative && !isHeldOutPool(l))
      .map((l) => ({ features: l.features, grades: l.features.ids.map((id) => (serves(id, l.targets) ? 3 : 0)), size: l.targets.length }));
    out[regime] = [...lists[regime], ...extra];
  }
  return out;
}

/** Every tenth pseudo-request list is held out to report generalisation to unseen ones. */
const inTrain = (_: unknown, i: number) => i % 10 !== 9;

/**
 * The real requests of the tune libraries that need a skill (`RealList` kind `own`), as training
 * lists graded by their targets, each repeated so that together they weigh as much as the
 * pseudo-request and pool lists trained on in the regime (at least once).
 */
function realTrainingLists(real: Recorded['real']): { lists: Record<Regime, TrainingList[]>; repeat: Record<Regime, number> } | undefined {
  if (!real) return undefined;
  const lists = {} as Record<Regime, TrainingList[]>;
  const repeat = {} as Record<Regime, number>;
  for (const regime of ['dense', 'lexical'] as const) {
    const own = real[regime]
      .filter((l) => l.kind === 'own' && l.targets.length)
      .map((l) => ({ features: l.features, grades: l.features.ids.map((id) => (l.targets.includes(id) ? 3 : 0)), size: 1 }));
    lists[regime] = own;
    repeat[regime] = 0;
  }
  return { lists, repeat };
}

/**
 * Trains both regimes' weights on the pseudo-request lists (prior 0, default set thresholds), every
 * tenth held out to report on, and on `real` lists (all of them, repeated to weigh as much as the
 * pseudo-request lists trained on; the repeat is written into `real.repeat`).
 */
function trainWeights(
  lists: Record<Regime, TrainingList[]>,
  opts: typeof DEFAULT_TRAIN,
  real?: { lists: Record<Regime, TrainingList[]>; repeat: Record<Regime, number> },
): { model: RerankerModel; report: Record<string, unknown> } {
  const regimes = {} as RerankerModel['regimes'];
  const report: Record<string, unknown> = {};
  for (const regime of ['dense', 'lexical'] as const) {
    const pseudo = lists[regime].filter(inTrain);
    const own = real?.lists[regime] ?? [];
    const repeat = own.length ? Math.max(1, Math.round(pseudo.length / own.length)) : 0;
    if (real) real.repeat[regime] = repeat;
    const train = [...pseudo, ...Array.from({ length: repeat }, () => own).flat()];
    const held = lists[regime].filter((l, i) => !inTrain(l, i));
    const t0 = Date.now();
    const { weights, losses } = trainRegime(train, opts);
    regimes[regime] = weights;
    const probe = { pointFeatures: [...POINT_FEATURES], contextFeatures: [...CONTEXT_FEATURES], regimes: { dense: weights, lexical: weights } } as unknown as RerankerModel;
    const first = hitAt1(held, (l) => l.features.point.map((x) => x[POINT.fused]));
    const pass1 = hitAt1(held, (l) => modelScores(probe, l.features, true).pass1);
    const pass2 = hitAt1(held, (l) => modelScores(probe, l.features, true).pass2);
    report[regime] = {
      lists: train.length,
      ...(own.length ? { realLists: own.length, realRepeat: repeat } : {}),
      heldOut: held.length,
      loss: { pass1: round4(losses.pass1.at(-1)!), pass2: round4(losses.pass2.at(-1)!) },
      heldOutHit1: { firstStage: round4(first), pass1: round4(pass1), pass2: round4(pass2) },
    };
    log(`${regime}: trained on ${train.length} lists in ${Date.now() - t0} ms; held-out pseudo Hit@1: first stage ${pct(first)}, pass 1 ${pct(pass1)}, pass 2 ${pct(pass2)}`);
  }
  const model: RerankerModel = { id: 'trained', pointFeatures: [...POINT_FEATURES], contextFeatures: [...CONTEXT_FEATURES], regimes, set: { minShare: DEFAULT_SET.minShare, minNovel: DEFAULT_SET.minNovel }, training: {} };
  return { model, report };
}

function withPriors(model: RerankerModel, priors: Record<Regime, number>): RerankerModel {
  return { ...model, regimes: { dense: { ...model.regimes.dense, prior: priors.dense }, lexical: { ...model.regimes.lexical, prior: priors.lexical } } };
}

/** Hit@1 + NDCG@10 of labelled list `i` (of `regime`) in `order`. */
/**
 * The lists the first-stage prior is chosen on, and their score: the labelled queries' (Hit@1 +
 * NDCG@10) and the tune libraries' own requests' (the same against their authors' skills), each
 * source averaged, the two weighing alike.
 */
function priorObjective(dev: NonNullable<Recorded['dev']>, real: readonly TrainingList[], regime: Regime): { lists: TrainingList[]; score: (order: number[], i: number) => number } {
  const devScore = devObjective(dev, regime);
  const n = dev.queries.length;
  const lists = [...dev.lists[regime], ...real];
  const score = (order: number[], i: number): number => {
    if (i < n) return devScore(order, i) / n;
    const l = real[i - n];
    const ids = l.features.ids;
    const m = scoreQuery(order.map((j) => ids[j]), { required: ids.filter((_, j) => l.grades[j] > 0), alsoOk: [] });
    return (m['hit@1'] + m['ndcg@10']) / real.length;
  };
  return { lists, score: real.length ? score : (order, i) => devScore(order, i) / n };
}

function devObjective(dev: NonNullable<Recorded['dev']>, regime: Regime): (order: number[], i: number) => number {
  return (order, i) => {
    const q = dev.queries[i];
    const ids = dev.lists[regime][i].features.ids;
    const m = scoreQuery(order.map((j) => ids[j]), { required: q.required, alsoOk: q.alsoOk });
    return m['hit@1'] + m['ndcg@10'];
  };
}

/**
 * Leave one library out: for each library whose real requests the recipe trains on, the weights
 * trained without its requests (the other libraries' own requests, repeated as the recipe does,
 * plus the pseudo-request and pool lists; the prior chosen on the labelled queries), against the
 * weights trained without any real request (the recipe before 2026-12-07), both scored on the
 * left-out library's own requests: Hit@1 of the reranker's order (pass 2 and the prior, before
 * relevance and rules), per regime. Writes no model.
 */
function leaveOneLibraryOut(pooled: Record<Regime, TrainingList[]>, real: NonNullable<Recorded['real']>, dev: NonNullable<Recorded['dev']>, opts: typeof DEFAULT_TRAIN): void {
  const fit = (extra: ReturnType<typeof realTrainingLists>): RerankerModel => {
    const { model } = trainWeights(pooled, opts, extra);
    const priors = { dense: 1, lexical: 1 };
    for (const regime of ['dense', 'lexical'] as const) {
      priors[regime] = choosePrior(model, regime, dev.lists[regime], devObjective(dev, regime), dev.queries.map((_, i) => i));
    }
    return withPriors(model, priors);
  };
  const hit = (model: RerankerModel, regime: Regime, lists: readonly RealList[]) =>
    lists.filter((l) => l.targets.includes(l.features.ids[orderBy(modelScores(model, l.features, regime === 'dense').pass2)[0]])).length / Math.max(1, lists.length);
  const own = (regime: Regime, lib: string) => real[regime].filter((l) => l.library === lib && l.kind === 'own' && l.targets.length);
  const libraries = [...new Set(real.dense.map((l) => l.library))].sort();
  const base = fit(undefined);
  const rows: string[] = [];
  const sums = { base: { dense: 0, lexical: 0 }, left: { dense: 0, lexical: 0 } };
  for (const lib of libraries) {
    const others = { dense: real.dense.filter((l) => l.library !== lib), lexical: real.lexical.filter((l) => l.library !== lib) };
    const model = fit(realTrainingLists(others));
    const cells: string[] = [];
    for (const regime of ['dense', 'lexical'] as const) {
      const b = hit(base, regime, own(regime, lib));
      const v = hit(model, regime, own(regime, lib));
      sums.base[regime] += b;
      sums.left[regime] += v;
      cells.push(`${own(regime, lib).length} | ${(b * 100).toFixed(1)} | ${(v * 100).toFixed(1)}`);
    }
    rows.push(`| ${lib} | ${cells.join(' | ')} |`);
    log(`left out ${lib}`);
  }
  const n = libraries.length;
  const mean = (x: number) => (x / n * 100).toFixed(1);
  process.stdout.write(
    [
      'Leave one library out: Hit@1 of the reranker\'s order on the left-out library\'s own requests',
      '',
      '| library | requests (model) | pseudo-requests only | + other libraries\' requests | requests (words alone) | pseudo-requests only | + other libraries\' requests |',
      '|---|--:|--:|--:|--:|--:|--:|',
      ...rows,
      `| **mean over ${n}** | | ${mean(sums.base.dense)} | ${mean(sums.left.dense)} | | ${mean(sums.base.lexical)} | ${mean(sums.left.lexical)} |`,
      '',
    ].join('\n'),
  );
}

/**
 * K-fold cross-validation over the labelled queries: the weights come from pseudo-requests only;
 * the first-stage prior of each fold is chosen on the other folds (nested), as the shipped recipe
 * chooses it on all of them. Prints one table per regime and variant, as `skill-router eval` does.
 */
function crossValidate(pseudo: Record<Regime, TrainingList[]>, dev: NonNullable<Recorded['dev']>, folds: number): void {
  const opts = { ...DEFAULT_TRAIN, iterations: Number(values.iterations) };
  const fold = (i: number) => i % folds;
  const { model: trained } = trainWeights(pseudo, opts);
  for (const regime of ['dense', 'lexical'] as const) {
    const lists = dev.lists[regime];
    const objective = devObjective(dev, regime);
    const variants = new Map<string, ScoredQuery[]>();
    const sizes = new Map<string, number[][]>();
    const add = (name: string, i: number, order: number[]) => {
      const q = dev.queries[i];
      const top = order.map((j) => lists[i].features.ids[j]);
      const rows = variants.get(name) ?? [];
      rows.push({ size: q.required.length, ...(q.direction ? { direction: q.direction } : {}), metrics: scoreQuery(top, { required: q.required, alsoOk: q.alsoOk }) });
      variants.set(name, rows);
    };
    const score = (model: RerankerModel, name: string, i: number) => {
      const lf = lists[i].features;
      const p = softmax(modelScores(model, lf, regime === 'dense').pass2);
      add(`${name}, no set selection`, i, orderBy(p));
      const sel = selectSet(lf, p, { ...DEFAULT_SET, ...model.set });
      add(`${name} + set selection`, i, membersFirst(sel.order, (j) => sel.members.includes(j), (j) => sel.rejected.some((r) => r.index === j)));
      // Estimated set size against |G|: counts[|G| - 1][estimate - 1].
      const counts = sizes.get(name) ?? [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
      counts[Math.min(dev.queries[i].required.length, 3) - 1][sel.size - 1]++;
      sizes.set(name, counts);
    };
    const chosen: number[] = [];
    for (let k = 0; k < folds; k++) {
      const others = lists.map((_, i) => i).filter((i) => fold(i) !== k);
      const prior = choosePrior(trained, regime, lists, objective, others);
      chosen.push(prior);
      const nested = withPriors(trained, { ...{ dense: 0, lexical: 0 }, [regime]: prior });
      lists.forEach((list, i) => {
        if (fold(i) !== k) return;
        add('first stage', i, list.features.ids.map((_, j) => j));
        // The earlier hand-weighted reranker, from the same point features.
        const heuristic = heuristicScores(list.features);
        add('heuristic reranker (before)', i, orderBy(heuristic));
        const hs = selectSet(list.features, heuristic, DEFAULT_SET);
        add('heuristic reranker + set selection (members first)', i, membersFirst(hs.order, (j) => hs.members.includes(j), (j) => hs.rejected.some((r) => r.index === j)));
        score(trained, 'learned, pseudo-requests only (prior 0)', i);
        score(nested, 'learned + first-stage prior (nested CV, shipped recipe)', i);
      });
    }
    process.stdout.write(`\n${regime}: first-stage prior chosen per fold: ${chosen.join(', ')}\n`);
    for (const [name, rows] of variants) {
      process.stdout.write(`\n${regime}: ${name}\n\n${formatEvalTable(summarize(rows))}`);
    }
    for (const [name, counts] of sizes) {
      const right = counts.reduce((a, row, k) => a + row[k], 0);
      const total = counts.flat().reduce((a, b) => a + b, 0);
      process.stdout.write(`\n${regime}: ${name}: set size estimate right for ${right}/${total}; rows |G| = 1..3, columns estimate 1..3: ${JSON.stringify(counts)}\n`);
    }
  }
}

/** Largest absolute difference between two models' weights and standardisation. */
export function maxDifference(a: RerankerModel, b: RerankerModel): number {
  let d = 0;
  for (const regime of ['dense', 'lexical'] as const) {
    for (const key of ['mean', 'std', 'pass1', 'pass2'] as const) {
      const x = a.regimes[regime][key];
      const y = b.regimes[regime][key];
      if (x.length !== y.length) return Infinity;
      for (let i = 0; i < x.length; i++) d = Math.max(d, Math.abs(x[i] - y[i]));
    }
  }
  if (a.set.minShare !== b.set.minShare || a.set.minNovel !== b.set.minNovel) return Infinity;
  if (!a.relevance !== !b.relevance) return Infinity;
  if (a.relevance && b.relevance) {
    if (a.relevance.floor !== b.relevance.floor || a.relevance.strong !== b.relevance.strong) return Infinity;
    for (const regime of ['dense', 'lexical'] as const) {
      const x = a.relevance[regime];
      const y = b.relevance[regime];
      for (const key of ['mean', 'std', 'weights'] as const) for (let i = 0; i < x[key].length; i++) d = Math.max(d, Math.abs(x[key][i] - y[key][i]));
      d = Math.max(d, Math.abs(x.bias - y.bias));
    }
  }
  return d;
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exitCode = 2;
});
