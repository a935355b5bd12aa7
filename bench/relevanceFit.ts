/**
 * Fits the relevance model (src/core/route/relevance.ts) for a trained reranker, on lists routed
 * in libraries of many sizes (bench/poolLists.ts), and reports per library size how the reranker
 * ranks there and how the relevance floor treats positives and negatives. Used by
 * bench/trainReranker.ts, whose --check reproduces the result.
 */
import type { QueryAdapter } from '../src/core/route/queryAdapter';
import { decodeSkillBytes, parseSkill } from '../src/core/parse/skillDoc';
import { applyExclusions } from '../src/core/route/pipeline';
import { modelScores, orderBy, softmax, type RerankerModel } from '../src/core/route/rerank';
import { matchOf, relevanceOf, relevanceRows, type RelevanceModel } from '../src/core/route/relevance';
import { bestRelevance, chooseThresholds, trainRelevance, type RelevanceList } from '../src/core/route/relevanceTraining';
import type { ListFeatures } from '../src/core/route/rerankFeatures';
import type { SkillDoc } from '../src/core/types';
import { FsWorkspace } from '../src/node/fsWorkspace';
import { DEFAULT_POOLS, poolLists, serves, type PoolList } from './poolLists';
import type { RealList } from './realLists';
import { poolFactory } from './pools';

export type Regime = 'dense' | 'lexical';

/** The pool lists of both regimes (the model's and the words-only engine's). */
export async function recordPools(root: string, log: (msg: string) => void, adapter?: QueryAdapter): Promise<Record<Regime, PoolList[]>> {
  const ws = new FsWorkspace(root);
  const docs: SkillDoc[] = [];
  const files = new Map<string, string>();
  for (const ref of (await ws.list()).files) {
    const decoded = decodeSkillBytes(await ws.read(ref));
    const { text } = decoded;
    docs.push(parseSkill(ref, text, ['spec'], decoded));
    files.set(ref.id, text);
  }
  docs.sort((a, b) => (a.id < b.id ? -1 : 1));
  const out = {} as Record<Regime, PoolList[]>;
  for (const regime of ['dense', 'lexical'] as const) {
    const factory = await poolFactory(root, docs, { noModel: regime === 'lexical', files, adapter });
    try {
      out[regime] = await poolLists(factory, { ...DEFAULT_POOLS, log: (m) => log(`${regime}: ${m}`) });
    } finally {
      await factory.dispose();
    }
  }
  return out;
}

/** The share of the relevance fit that real requests (bench/realLists.ts) carry when given. */
export const REAL_SHARE = 0.8;

/** A real request's list: its candidates labelled by the authors' tests (nothing for a negative). */
function realRelevanceList(model: RerankerModel, l: RealList, dense: boolean): RelevanceList & { bestIsNeeded: boolean; library: string; kind: RealList['kind'] } {
  const probs = applyExclusions(softmax(modelScores(model, l.features, dense).pass2), l.features);
  const negative = l.kind !== 'own';
  const labels = l.features.ids.map((id) => !negative && serves(id, l.targets));
  return { rows: relevanceRows(l.features, probs), labels, negative, bestIsNeeded: labels[orderBy(probs)[0]], library: l.library, kind: l.kind };
}

/** Every fifth pool is held out: the thresholds and the report come from pools the weights never saw. */
export const isHeldOutPool = (l: PoolList) => Number(l.pool.slice(l.pool.lastIndexOf('.') + 1)) % 5 === 4;

function toRelevanceList(model: RerankerModel, l: PoolList, dense: boolean): RelevanceList & { bestIsNeeded: boolean; top: string } {
  const probs = applyExclusions(softmax(modelScores(model, l.features, dense).pass2), l.features);
  const labels = l.negative ? l.features.ids.map(() => false) : l.features.ids.map((id) => serves(id, l.targets));
  const best = orderBy(probs)[0];
  return { rows: relevanceRows(l.features, probs), labels, negative: l.negative, bestIsNeeded: labels[best], top: l.features.ids[best] };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}`;

/** Labelled requests routed in the whole library (the training's `--dev` lists). */
export interface DevLists {
  lists: Record<Regime, { features: ListFeatures }[]>;
  queries: { required: string[]; alsoOk: string[] }[];
}

/**
 * Fits both regimes' weights and the shared thresholds; the report is a Markdown table per regime.
 * Pseudo-requests are easier than real ones (written from the skill's own words). Without real
 * lists, with labelled requests (`dev`) the floor is the lower of the two 3% points. With real
 * lists (`real`: bench/realLists.ts, with the dev requests added by bench/trainReranker.ts), they
 * carry REAL_SHARE of the weights' fit and decide the floor and the strong threshold alone.
 */
export function fitRelevance(
  model: RerankerModel,
  pools: Record<Regime, PoolList[]>,
  dev?: DevLists,
  real?: Record<Regime, RealList[]>,
): { relevance: RelevanceModel; report: string; summary: Record<string, unknown> } {
  const weights = {} as Pick<RelevanceModel, 'dense' | 'lexical'>;
  const held = {} as Record<Regime, ReturnType<typeof toRelevanceList>[]>;
  const realLists = {} as Record<Regime, ReturnType<typeof realRelevanceList>[]>;
  for (const regime of ['dense', 'lexical'] as const) {
    const lists = pools[regime].map((l) => ({ pool: l, list: toRelevanceList(model, l, regime === 'dense') }));
    const train: RelevanceList[] = lists.filter((x) => !isHeldOutPool(x.pool)).map((x) => x.list);
    realLists[regime] = (real?.[regime] ?? []).map((l) => realRelevanceList(model, l, regime === 'dense'));
    if (realLists[regime].length) {
      // Real requests carry REAL_SHARE of the fit, the pseudo-requests the rest.
      const w = (REAL_SHARE / (1 - REAL_SHARE)) * (train.length / realLists[regime].length);
      train.push(...realLists[regime].map((l) => ({ ...l, weight: w })));
    }
    weights[regime] = trainRelevance(train);
    held[regime] = lists.filter((x) => isHeldOutPool(x.pool)).map((x) => x.list);
  }
  // One floor and one strong threshold for both regimes: relevance is calibrated in each, so the
  // same number means the same; chosen on the held-out pools of both.
  const allHeld = [...held.dense, ...held.lexical];
  const best = [...bestRelevance(weights.dense, held.dense), ...bestRelevance(weights.lexical, held.lexical)];
  const pseudo = chooseThresholds(best, allHeld, allHeld.map((l) => l.bestIsNeeded), { maxAbstain: 0.03, strongPrecision: 0.9 });
  let floor = pseudo.floor;
  let devFloor: number | null = null;
  if (dev) {
    const devBest = (['dense', 'lexical'] as const).flatMap((regime) =>
      dev.lists[regime].map((l) => Math.max(...relevanceOf(weights[regime], relevanceRows(l.features, applyExclusions(softmax(modelScores(model, l.features, regime === 'dense').pass2), l.features))))),
    );
    devBest.sort((a, b) => a - b);
    devFloor = Math.floor((devBest[Math.floor(0.03 * devBest.length)] ?? 0) * 1000) / 1000;
    floor = Math.min(floor, devFloor);
  }
  // Real requests, when given (the tune libraries, dotnet and the dev requests in the whole
  // corpus), set both: the floor abstains on at most 3% of those a skill of the library serves, and
  // 85% of the real best results at or above `strong` are right (their negatives included). The
  // pseudo-requests' points are easier than real ones (0.15 where real requests need 0.12).
  let realThresholds: { floor: number; strong: number } | null = null;
  const allReal = [...realLists.dense, ...realLists.lexical];
  if (allReal.length) {
    const realBest = [...bestRelevance(weights.dense, realLists.dense), ...bestRelevance(weights.lexical, realLists.lexical)];
    realThresholds = chooseThresholds(realBest, allReal, allReal.map((l) => l.bestIsNeeded), { maxAbstain: 0.03, strongPrecision: 0.85 });
    floor = realThresholds.floor;
  }
  const strong = Math.max(realThresholds ? realThresholds.strong : pseudo.strong, floor);
  const relevance: RelevanceModel = { ...weights, floor, strong };

  const lines: string[] = [];
  const summary: Record<string, unknown> = { floor, strong, pseudoFloor: pseudo.floor, devFloor, real: realThresholds && { ...realThresholds, share: REAL_SHARE } };
  for (const regime of ['dense', 'lexical'] as const) {
    lines.push(`\n${regime} regime, held-out pools (floor ${floor}, strong ${strong}):\n`);
    lines.push('| library size | positives | first-stage Hit@1 | reranker Hit@1 | positives abstained | near negatives rejected | far negatives rejected |');
    lines.push('|--:|--:|--:|--:|--:|--:|--:|');
    const rows: Record<string, unknown>[] = [];
    const lists = pools[regime].filter(isHeldOutPool);
    for (const size of [...new Set(lists.map((l) => l.size))].sort((a, b) => a - b)) {
      const ofSize = lists.filter((l) => l.size === size);
      const pos = ofSize.filter((l) => !l.negative && l.features.ids.some((id) => serves(id, l.targets)));
      const first = pos.filter((l) => serves(l.features.ids[0], l.targets)).length;
      const scored = pos.map((l) => toRelevanceList(model, l, regime === 'dense'));
      const top = scored.filter((l) => l.bestIsNeeded).length;
      const match = (l: PoolList) => matchOf(Math.max(...relevanceOf(weights[regime], toRelevanceList(model, l, regime === 'dense').rows)), relevance);
      const abstained = pos.filter((l) => match(l) === 'none').length;
      const collection = (l: PoolList) => l.pool.slice(0, l.pool.indexOf('#'));
      const negs = ofSize.filter((l) => l.negative);
      const near = negs.filter((l) => l.targets.every((t) => t.startsWith(`${collection(l)}/`)));
      const far = negs.filter((l) => !near.includes(l));
      const rejected = (xs: PoolList[]) => xs.filter((l) => match(l) === 'none').length;
      lines.push(`| ${size} | ${pos.length} | ${pct(first / Math.max(1, pos.length))} | ${pct(top / Math.max(1, pos.length))} | ${pct(abstained / Math.max(1, pos.length))} | ${pct(rejected(near) / Math.max(1, near.length))} (${near.length}) | ${pct(rejected(far) / Math.max(1, far.length))} (${far.length}) |`);
      rows.push({ size, positives: pos.length, firstStageHit1: first / Math.max(1, pos.length), rerankerHit1: top / Math.max(1, pos.length), abstained: abstained / Math.max(1, pos.length), nearRejected: rejected(near) / Math.max(1, near.length), farRejected: rejected(far) / Math.max(1, far.length) });
    }
    summary[regime] = rows;
  }
  if (allReal.length) {
    // In-sample: these lists trained the weights and chose the thresholds.
    lines.push(`\nreal requests (bench/realLists.ts, in-sample), both regimes (floor ${floor}, strong ${strong}):\n`);
    lines.push('| library | right first, strong | right first, abstained | no-skill rejected | off-library rejected |');
    lines.push('|---|--:|--:|--:|--:|');
    const rows: Record<string, unknown>[] = [];
    for (const library of [...new Set(allReal.map((l) => l.library))].sort()) {
      const of = (['dense', 'lexical'] as const).flatMap((regime) => realLists[regime].filter((l) => l.library === library).map((l) => ({ l, m: matchOf(Math.max(...relevanceOf(weights[regime], l.rows)), relevance) })));
      const right = of.filter((x) => x.l.kind === 'own' && x.l.bestIsNeeded);
      const none = of.filter((x) => x.l.kind === 'none');
      const off = of.filter((x) => x.l.kind === 'off');
      const count = (xs: typeof of, m: string) => xs.filter((x) => x.m === m).length;
      lines.push(`| ${library} | ${count(right, 'strong')}/${right.length} | ${count(right, 'none')}/${right.length} | ${count(none, 'none')}/${none.length} | ${count(off, 'none')}/${off.length} |`);
      rows.push({ library, right: right.length, strong: count(right, 'strong'), abstained: count(right, 'none'), noSkill: none.length, noSkillRejected: count(none, 'none'), off: off.length, offRejected: count(off, 'none') });
    }
    summary.realLists = rows;
  }
  return { relevance, report: lines.join('\n'), summary };
}
