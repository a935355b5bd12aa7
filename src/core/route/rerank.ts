/**
 * The rerank stage over the fused top candidates. One interface, `ListReranker`, with three
 * implementations: the built-in learned reranker (a two-pass linear listwise model whose weights
 * ship in models/reranker/weights.json, trained by scripts/trainReranker.ts), a user-supplied
 * cross-encoder (any `CrossEncoder`, e.g. an ONNX bge-reranker folder), and the earlier
 * hand-weighted heuristic (kept for comparison).
 */
import shipped from '../../../models/reranker/weights.json';
import type { SkillDoc } from '../types';
import { analyze, type Segmenter } from '../text/analyze';
import type { CancelToken, CrossEncoder } from '../types';
import { contextFeatures, CONTEXT_FEATURES, POINT_FEATURES, type ListFeatures, type RerankRequest } from './rerankFeatures';
import type { SetOptions } from './setSelection';

/** Scores the candidates of one request; higher is better, one score per `request.head` entry. */
export interface ListReranker {
  readonly id: string;
  score(request: RerankRequest, features: ListFeatures, token?: CancelToken): Promise<number[]>;
  /** Set-selection thresholds fitted to this reranker's scores, if any. */
  readonly setOptions?: Partial<SetOptions>;
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

/** The file scripts/trainReranker.ts writes. */
export interface RerankerModel {
  id: string;
  pointFeatures: string[];
  contextFeatures: string[];
  regimes: { dense: RegimeWeights; lexical: RegimeWeights };
  /** Set-size estimation thresholds (see setSelection.ts). */
  set: { minShare: number; minNovel: number };
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

const FUSED = POINT_FEATURES.indexOf('fused');

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
  constructor(readonly model: RerankerModel = shippedReranker()) {}

  get id(): string {
    return this.model.id;
  }

  get setOptions(): Partial<SetOptions> {
    return this.model.set;
  }

  async score(request: RerankRequest, features: ListFeatures): Promise<number[]> {
    const dense = request.head.some((c) => c.dense !== null);
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

  async score(request: RerankRequest, _features: ListFeatures, token?: CancelToken): Promise<number[]> {
    const logits = await this.encoder.score(request.query, request.head.map((c) => this.textOf(c.id)), token);
    return logits.map((x) => 1 / (1 + Math.exp(-x)));
  }
}

/** Weights of the earlier hand-set heuristic. */
export const RERANK_WEIGHTS = { fused: 1, nameMention: 0.25, nameCoverage: 0.1, descriptionCoverage: 0.15 };

/**
 * The earlier heuristic reranker: fused score plus rewards for the request naming the skill and
 * covering its name and description words. Kept as a baseline for benchmarks.
 */
export class HeuristicReranker implements ListReranker {
  readonly id = 'heuristic@1';

  constructor(private readonly segmenter?: Segmenter) {}

  async score(request: RerankRequest): Promise<number[]> {
    const scores = builtinRerank([...request.terms], request.head, (id) => request.doc(id), this.segmenter);
    return request.head.map((c) => scores.get(c.id) ?? 0);
  }
}

export interface RerankInput {
  id: string;
  fused: number;
}

/** The heuristic's score of each candidate. */
export function builtinRerank(
  queryTerms: string[],
  head: RerankInput[] | readonly RerankInput[],
  docOf: (id: string) => SkillDoc,
  segmenter?: Segmenter,
): Map<string, number> {
  const q = new Set(queryTerms);
  const out = new Map<string, number>();
  for (const c of head) {
    const doc = docOf(c.id);
    const nameTerms = [...new Set(analyze(doc.name.replace(/[-_]/g, ' '), { segmenter }))];
    const nameHits = nameTerms.filter((t) => q.has(t)).length;
    const nameCoverage = nameTerms.length ? nameHits / nameTerms.length : 0;
    // The whole name (two or more words) appearing in the request is a near-certain signal.
    const nameMention = nameTerms.length >= 2 && nameHits === nameTerms.length ? 1 : 0;
    const descTerms = new Set(analyze(doc.description, { segmenter }));
    let descHits = 0;
    for (const t of descTerms) if (q.has(t)) descHits++;
    const descriptionCoverage = descTerms.size ? descHits / Math.sqrt(descTerms.size * Math.max(q.size, 1)) : 0;
    out.set(
      c.id,
      RERANK_WEIGHTS.fused * c.fused +
        RERANK_WEIGHTS.nameMention * nameMention +
        RERANK_WEIGHTS.nameCoverage * nameCoverage +
        RERANK_WEIGHTS.descriptionCoverage * descriptionCoverage,
    );
  }
  return out;
}
