/**
 * Fitting the relevance model (relevance.ts) from routed pseudo-requests: logistic regression by
 * full-batch Adam with L2, the weight on `gap` kept non-negative (so relevance follows the
 * reranker's order within a request), then the floor and the strong threshold chosen on held-out
 * lists. Deterministic: no sampling, a fixed number of iterations from zero weights.
 */
import { RELEVANCE_FEATURES, relevanceOf, type RelevanceWeights } from './relevance';

/** One routed request: a relevance row per candidate, and which candidates it needs (copies count). */
export interface RelevanceList {
  rows: number[][];
  labels: boolean[];
  /** A request written for a skill that is not in the library: nothing in it is relevant. */
  negative: boolean;
  /** How much the list counts in the fit (default 1): real requests can weigh as much as many more pseudo-requests. */
  weight?: number;
}

export interface RelevanceTrainOptions {
  iterations: number;
  learningRate: number;
  l2: number;
}

export const DEFAULT_RELEVANCE_TRAIN: RelevanceTrainOptions = { iterations: 600, learningRate: 0.05, l2: 1e-3 };

const GAP = RELEVANCE_FEATURES.indexOf('gap');
const round = (x: number): number => Number(x.toPrecision(6));

/**
 * Fits one regime's weights in two steps. First h, on the best candidate of every list: is it
 * one the request needs (negatives: never)? That is the absolute part, what makes a relevance mean
 * the same across requests. Then the weight on `gap` (kept at or above zero) on every candidate
 * with h fixed: how fast relevance falls below the best. `gap` is not standardised, so the best
 * candidate (gap 0) gets h alone.
 */
export function trainRelevance(lists: readonly RelevanceList[], opts: RelevanceTrainOptions = DEFAULT_RELEVANCE_TRAIN): RelevanceWeights {
  const n = RELEVANCE_FEATURES.length;
  const bestRows: number[][] = [];
  const bestLabels: number[] = [];
  const bestWeights: number[] = [];
  for (const l of lists) {
    if (!l.rows.length) continue;
    const best = l.rows.findIndex((r) => r[GAP] === 0);
    bestRows.push(l.rows[best]);
    bestLabels.push(!l.negative && l.labels[best] ? 1 : 0);
    bestWeights.push(l.weight ?? 1);
  }
  const mean = new Array<number>(n).fill(0);
  const std = new Array<number>(n).fill(0);
  for (const r of bestRows) for (let k = 0; k < n; k++) mean[k] += r[k] / bestRows.length;
  for (const r of bestRows) for (let k = 0; k < n; k++) std[k] += (r[k] - mean[k]) ** 2 / bestRows.length;
  for (let k = 0; k < n; k++) {
    mean[k] = k === GAP ? 0 : round(mean[k]);
    std[k] = k === GAP ? 1 : round(Math.sqrt(std[k]) || 1);
  }
  const z = (r: readonly number[]) => r.map((v, k) => (v - mean[k]) / std[k]);
  const h = logistic(bestRows.map(z), bestLabels, bestWeights, opts, GAP);
  // The gap's weight: a one-dimensional fit of every candidate's label with h fixed.
  const scored = lists.flatMap((l) => {
    const best = l.rows.find((r) => r[GAP] === 0);
    if (!best) return [];
    let base = h.bias;
    const zb = z(best);
    for (let k = 0; k < n; k++) if (k !== GAP) base += h.weights[k] * zb[k];
    return l.rows.map((r, i) => ({ base, gap: r[GAP], y: !l.negative && l.labels[i] ? 1 : 0, weight: l.weight ?? 1 }));
  });
  let bestW = 0;
  let bestLoss = Infinity;
  for (let w = 0; w <= 4 + 1e-9; w += 0.05) {
    let loss = 0;
    for (const s of scored) {
      const p = 1 / (1 + Math.exp(-(s.base + w * s.gap)));
      loss -= s.weight * (s.y ? Math.log(Math.max(p, 1e-12)) : Math.log(Math.max(1 - p, 1e-12)));
    }
    if (loss < bestLoss - 1e-9) {
      bestLoss = loss;
      bestW = w;
    }
  }
  const weights = h.weights.map(round);
  weights[GAP] = round(bestW);
  return { mean, std, weights, bias: round(h.bias) };
}

/** Class-balanced, weighted L2 logistic regression by full-batch Adam from zero weights; `skip` stays 0. */
function logistic(x: readonly number[][], y: readonly number[], weight: readonly number[], opts: RelevanceTrainOptions, skip: number): { weights: number[]; bias: number } {
  const n = x[0]?.length ?? 0;
  const total = weight.reduce((a, v) => a + v, 0);
  const positives = y.reduce((a, v, i) => a + v * weight[i], 0);
  const wPos = positives ? total / (2 * positives) : 1;
  const wNeg = total - positives ? total / (2 * (total - positives)) : 1;
  const w = new Float64Array(n + 1); // weights, then the bias
  const m = new Float64Array(n + 1);
  const v = new Float64Array(n + 1);
  const g = new Float64Array(n + 1);
  for (let it = 1; it <= opts.iterations; it++) {
    g.fill(0);
    for (let i = 0; i < x.length; i++) {
      let s = w[n];
      for (let k = 0; k < n; k++) s += w[k] * x[i][k];
      const e = (1 / (1 + Math.exp(-s)) - y[i]) * (y[i] ? wPos : wNeg) * weight[i];
      for (let k = 0; k < n; k++) g[k] += (e * x[i][k]) / total;
      g[n] += e / total;
    }
    for (let k = 0; k < n; k++) g[k] += 2 * opts.l2 * w[k];
    g[skip] = 0;
    for (let k = 0; k <= n; k++) {
      m[k] = 0.9 * m[k] + 0.1 * g[k];
      v[k] = 0.999 * v[k] + 0.001 * g[k] * g[k];
      w[k] -= (opts.learningRate * (m[k] / (1 - 0.9 ** it))) / (Math.sqrt(v[k] / (1 - 0.999 ** it)) + 1e-8);
    }
  }
  return { weights: [...w.slice(0, n)], bias: w[n] };
}

/** The best candidate's relevance of each list (the request's match), under `w`. */
export function bestRelevance(w: RelevanceWeights, lists: readonly RelevanceList[]): number[] {
  return lists.map((l) => Math.max(...relevanceOf(w, l.rows)));
}

/**
 * The floor: the highest relevance that abstains on at most `maxAbstain` of the positive lists
 * (those whose needed skill is among the candidates); `strong`: the relevance above which at
 * least `strongPrecision` of the lists' best results are needed ones. Both rounded down to 0.01.
 */
export function chooseThresholds(
  best: readonly number[],
  lists: readonly RelevanceList[],
  bestIsNeeded: readonly boolean[],
  opts: { maxAbstain: number; strongPrecision: number },
): { floor: number; strong: number } {
  const positives = best.filter((_, i) => !lists[i].negative && lists[i].labels.some(Boolean)).sort((a, b) => a - b);
  const cut = positives[Math.floor(opts.maxAbstain * positives.length)] ?? 0;
  const floor = Math.floor(cut * 100) / 100;
  let strong = 1;
  for (let t = 0.99; t >= floor; t = Math.round((t - 0.01) * 100) / 100) {
    const above = best.map((b, i) => ({ b, ok: bestIsNeeded[i] })).filter((x) => x.b >= t);
    if (above.length >= 20 && above.filter((x) => x.ok).length / above.length >= opts.strongPrecision) strong = t;
    else if (above.length >= 20) break;
  }
  return { floor, strong: Math.max(strong, floor) };
}
