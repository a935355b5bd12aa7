/**
 * The rerank stage over the head of the fused pool. One interface, `ListReranker`, with three
 * implementations: the built-in learned reranker (a two-pass linear listwise model whose weights
 * ship in models/reranker/weights.json, trained by bench/trainReranker.ts), a user-supplied
 * cross-encoder (any `CrossEncoder`, e.g. an ONNX bge-reranker folder), and the earlier
 * hand-weighted heuristic (kept for comparison).
 */
import shipped from '../../../models/reranker/weights.json';
import type { CancelToken, CrossEncoder } from '../types';
import type { AnalysedRequest } from './request';
import type { FusedCandidate } from './retrieve';
import { checkRelevance, type RelevanceModel } from './relevance';
import { contextFeatures, CONTEXT_FEATURES, POINT, POINT_FEATURES, type ListFeatures } from './rerankFeatures';
import { contentHash } from '../text/hash';

/** What the rerank stage scores: the head of one request's pool and its features. */
export interface RerankInput {
  request: AnalysedRequest;
  /** The candidates to score, in first-stage order (`features.ids` in the same order). */
  head: readonly FusedCandidate[];
  features: ListFeatures;
}

/** Scores the candidates of one request; higher is better, one score per `head` entry. */
export interface ListReranker {
  readonly id: string;
  score(input: RerankInput, token?: CancelToken): Promise<number[]>;
}

/** Weights of one regime (with or without dense scores) of the learned reranker. */
export interface RegimeWeights {
  /** Standardisation of the point + context features (training means and deviations). */
  mean: number[];
  std: number[];
  /** Linear weights of the first pass over the standardised point features. */
  pass1: number[];
  /** Linear weights of the second pass over point + context features (context for the pass-1 order). */
  pass2: number[];
  /**
   * Weight of the standardised first-stage (fused) score added to the pass-2 score: how much the
   * first stage's own evidence counts on top of what the model learnt from pseudo-requests.
   */
  prior: number;
}

/** The file bench/trainReranker.ts writes. */
export interface RerankerModel {
  id: string;
  pointFeatures: string[];
  contextFeatures: string[];
  regimes: { dense: RegimeWeights; lexical: RegimeWeights };
  /**
   * Set-size thresholds fitted to this model's scores (see setSelection.ts); the routing
   * pipeline's composition passes them to set selection when this model reranks.
   */
  set: { minShare: number; minNovel: number };
  /** Calibrated relevance over this model's scores (relevance.ts); absent in older files. */
  relevance?: RelevanceModel;
  /** How it was trained (seed, counts, loss), for the manifest and the reproduction test. */
  training: Record<string, unknown>;
}

/** Checks that a model file matches the feature code; throws with the first difference. */
export function checkModel(model: RerankerModel): RerankerModel {
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  if (!same(model.pointFeatures, POINT_FEATURES) || !same(model.contextFeatures, CONTEXT_FEATURES)) {
    throw new Error(`reranker ${model.id}: its features do not match this build's; retrain with bench/trainReranker.ts`);
  }
  const n1 = POINT_FEATURES.length;
  const n2 = n1 + CONTEXT_FEATURES.length;
  for (const [name, r] of Object.entries(model.regimes)) {
    if (r.pass1.length !== n1 || r.pass2.length !== n2 || r.mean.length !== n2 || r.std.length !== n2 || typeof r.prior !== 'number') {
      throw new Error(`reranker ${model.id}: regime ${name} has the wrong number of weights`);
    }
  }
  if (model.relevance) checkRelevance(model.relevance);
  return model;
}

let shippedModel: RerankerModel | undefined;

/** The model shipped with the extension (models/reranker/weights.json); throws when it does not fit this build. */
export function shippedReranker(): RerankerModel {
  shippedModel ??= checkModel(shipped as unknown as RerankerModel);
  return shippedModel;
}

function linear(x: readonly number[], w: readonly number[], mean: readonly number[], std: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < w.length; i++) s += w[i] * ((x[i] - mean[i]) / (std[i] || 1));
  return s;
}

/** Candidate indexes sorted by `scores`, best first; ties keep the first-stage order. */
export function orderBy(scores: readonly number[]): number[] {
  return scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
}

/** Softmax over a list (what the listwise loss models), numerically stable. */
export function softmax(scores: readonly number[]): number[] {
  const max = Math.max(...scores);
  const e = scores.map((s) => Math.exp(s - max));
  const z = e.reduce((a, b) => a + b, 0) || 1;
  return e.map((x) => x / z);
}

const FUSED = POINT.fused;

/** Pass-1 and pass-2 (with the first-stage prior) linear scores of the learned model for one list. */
export function modelScores(model: RerankerModel, features: ListFeatures, dense: boolean): { pass1: number[]; pass2: number[] } {
  const r = dense ? model.regimes.dense : model.regimes.lexical;
  const pass1 = features.point.map((x) => linear(x, r.pass1, r.mean, r.std));
  const ctx = contextFeatures(features, orderBy(pass1));
  const pass2 = features.point.map((x, i) => linear([...x, ...ctx[i]], r.pass2, r.mean, r.std) + (r.prior * (x[FUSED] - r.mean[FUSED])) / (r.std[FUSED] || 1));
  return { pass1, pass2 };
}

/** The built-in learned reranker: softmax probabilities of its pass-2 scores. */
export class LearnedReranker implements ListReranker {
  /**
   * The model's name and a hash of its weights: what keys the pair scan's persisted results, so a
   * retrained model (same name, new weights or relevance) never reads findings of the old one.
   */
  readonly id: string;

  constructor(readonly model: RerankerModel = shippedReranker()) {
    this.id = `${model.id}/${contentHash(JSON.stringify([model.regimes, model.set, model.relevance ?? null]))}`;
  }

  async score({ head, features }: RerankInput): Promise<number[]> {
    const dense = head.some((c) => c.dense !== null);
    return softmax(modelScores(this.model, features, dense).pass2);
  }
}

/** A cross-encoder as the rerank stage: the sigmoid of its logit for (request, skill text). */
export class CrossEncoderReranker implements ListReranker {
  constructor(
    private readonly encoder: CrossEncoder,
    /** The passage text the encoder reads for a skill. */
    private readonly textOf: (id: string) => string,
  ) {}

  get id(): string {
    return this.encoder.id;
  }

  async score({ request, head }: RerankInput, token?: CancelToken): Promise<number[]> {
    const logits = await this.encoder.score(request.asked, head.map((c) => this.textOf(c.id)), token);
    return logits.map((x) => 1 / (1 + Math.exp(-x)));
  }
}

/** Weights of the earlier hand-set heuristic, over the point features of the same names. */
export const HEURISTIC_WEIGHTS = { fused: 1, nameMention: 0.25, nameCoverage: 0.1, descriptionCoverage: 0.15 } as const;

/** The earlier heuristic's score of each candidate: its fused score plus rewards for the request naming the skill and covering its name and description words. */
export function heuristicScores(features: ListFeatures): number[] {
  const weights = Object.entries(HEURISTIC_WEIGHTS) as [keyof typeof HEURISTIC_WEIGHTS, number][];
  return features.point.map((x) => weights.reduce((s, [name, w]) => s + w * x[POINT[name]], 0));
}

/** The earlier heuristic reranker (`heuristicScores`), kept as a baseline and as the fallback when the shipped weights do not fit this build. */
export class HeuristicReranker implements ListReranker {
  readonly id = 'heuristic@1';

  async score({ features }: RerankInput): Promise<number[]> {
    return heuristicScores(features);
  }
}

/**
 * The rerank stage a library gets without a cross-encoder: the shipped learned reranker, or the
 * heuristic one (with why) when its weights do not fit this build. One function, so the engine and
 * what tells its identity from the files (`check`'s cached findings) agree.
 */
export function builtInReranker(): { reranker: LearnedReranker; error?: undefined } | { reranker: HeuristicReranker; error: string } {
  try {
    return { reranker: new LearnedReranker() };
  } catch (err) {
    return { reranker: new HeuristicReranker(), error: err instanceof Error ? err.message : String(err) };
  }
}
