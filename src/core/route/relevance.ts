/**
 * Calibrated relevance: the probability that a routed skill is one the request needs, comparable
 * across requests and libraries, and the abstention it allows ("no skill in this library fits").
 *
 * The reranker's scores rank one request's candidates; they say nothing about whether the best of
 * them is any good (a softmax always sums to one: in a .NET library, "Write me a Python Flask REST
 * API" got a .NET skill at 1.000). Relevance adds what does carry across requests: how much of the
 * request the best candidate's own text covers (IDF-weighted), its best passage, its dense cosine,
 * whether the request names it or names another language or platform, how peaked the reranker's
 * distribution is, and how much of the request the library's words hold at all. (Not the request's length: pseudo-requests joining two skills are longer than
 * the single-skill negatives, and the model learnt that long means relevant, which real short
 * requests then paid for.) A logistic model over
 *
 *   relevance_i = σ(w_gap · gap_i + h(best candidate, request))
 *
 * with gap_i = ln(p_i / p_best) ≤ 0 (the reranker's log-odds below the best) and w_gap ≥ 0, so
 * within a request relevance follows the reranker's order: the ranking is the reranker's, and the
 * score shown for it means the same in every request. Weights are fitted by bench/trainReranker.ts
 * on pseudo-requests routed in libraries of 5 to 200 skills cut from the corpus, with negatives
 * (requests written for skills that are not in the library), and ship with the reranker's weights.
 */
import { POINT, type ListFeatures } from './rerankFeatures';

export const RELEVANCE_FEATURES = [
  'gap',
  'bestProbability',
  'bestNameDescription',
  'bestPassage',
  'bestBody',
  'bestHeadings',
  'bestDense',
  'bestNameMention',
  'bestFacetClash',
  'bestFacetAgree',
  'bestTfidf',
  'libraryCoverage',
] as const;

export type RelevanceFeature = (typeof RELEVANCE_FEATURES)[number];

/** Logistic weights of one regime (with or without dense scores) over standardised features. */
export interface RelevanceWeights {
  mean: number[];
  std: number[];
  weights: number[];
  bias: number;
}

export interface RelevanceModel {
  dense: RelevanceWeights;
  lexical: RelevanceWeights;
  /** Relevance at or above which a result is relevant; a request whose best is below it gets `match: "none"`. */
  floor: number;
  /** Relevance of the best result at or above which the match is `strong` (between the two: `weak`). */
  strong: number;
}

/** Features of every candidate for the reranker's probabilities `probs` (one per candidate). */
export function relevanceRows(features: ListFeatures, probs: readonly number[]): number[][] {
  if (!probs.length) return [];
  const best = bestIndex(probs);
  const floor = 1e-12;
  return probs.map((p) => rowOf(features, best, probs[best], Math.log(Math.max(p, floor) / Math.max(probs[best], floor))));
}

/**
 * Each candidate's row as if it were the best one (its own text's features, gap 0, the request's
 * peak probability): how well its own text answers the request, whatever the reranker put above
 * it. A softmax over a few skills gives a twin next to its copy almost nothing (0.01 in a 3-skill
 * library), which says it is the second choice, not that it does not fit; the pair scan asks the
 * second question.
 */
export function aloneRows(features: ListFeatures, probs: readonly number[]): number[][] {
  if (!probs.length) return [];
  const peak = probs[bestIndex(probs)];
  return probs.map((_, i) => rowOf(features, i, peak, 0));
}

function bestIndex(probs: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < probs.length; i++) if (probs[i] > probs[best]) best = i;
  return best;
}

function rowOf(features: ListFeatures, i: number, peak: number, gap: number): number[] {
  const x = features.point[i];
  const row: Record<RelevanceFeature, number> = {
    gap,
    bestProbability: peak,
    bestNameDescription: x[POINT.requestInNameDescription],
    bestPassage: x[POINT.requestInBestPassage],
    bestBody: x[POINT.requestInBody],
    bestHeadings: x[POINT.requestInHeadings],
    bestDense: x[POINT.dense],
    bestNameMention: x[POINT.nameMention],
    bestFacetClash: x[POINT.facetClash],
    bestFacetAgree: x[POINT.facetAgree],
    bestTfidf: x[POINT.tfidfCosine],
    libraryCoverage: features.libraryCoverage,
  };
  return RELEVANCE_FEATURES.map((name) => row[name]);
}

/**
 * Cosine under which a candidate that shares nothing with the request's words is off topic (see
 * `offTopic`). Over the real requests of the tune half of bench/realsuites and dotnet (368 first
 * answers, 22 requests no skill should answer) and the 185 dev requests, no right first answer has
 * no request word in its name, description and headings, no shared term and a cosine under 0.35
 * (under 0.4, one does); two no-skill requests do (a tomato-soup recipe, the weather and a film in
 * Chinese), and "what is the weather in Paris" over 418 skills reached a skill whose code sample
 * defines `get_weather` (cosine -0.03, relevance 0.19, above the floor): docs/retrieval-log.md,
 * section 24.
 */
export const OFF_TOPIC_COSINE = 0.35;

/**
 * Whether a candidate is off topic for the request: none of the request's words in its name,
 * description (or bridged reading) and headings, no term in common (TF-IDF cosine 0), and the
 * encoder's cosine under `OFF_TOPIC_COSINE`. Only a body mention, or nothing, brought it; the
 * reranker's softmax can still give the one skill whose body has a word most of the probability.
 * Never without the encoder's score (`dense` null): words alone cannot tell a paraphrase.
 */
export function offTopic(point: readonly number[], dense: number | null): boolean {
  return dense !== null && dense < OFF_TOPIC_COSINE && point[POINT.requestInNameDescription] === 0 && point[POINT.requestInHeadings] === 0 && point[POINT.tfidfCosine] === 0;
}

/** σ of the linear score of each row. */
export function relevanceOf(w: RelevanceWeights, rows: readonly (readonly number[])[]): number[] {
  return rows.map((x) => {
    let z = w.bias;
    for (let k = 0; k < w.weights.length; k++) z += w.weights[k] * ((x[k] - w.mean[k]) / (w.std[k] || 1));
    return 1 / (1 + Math.exp(-z));
  });
}

/** How well the library answers a request, from its best result's relevance. */
export function matchOf(best: number | undefined, model: Pick<RelevanceModel, 'floor' | 'strong'>): 'strong' | 'weak' | 'none' {
  if (best === undefined || best < model.floor) return 'none';
  return best >= model.strong ? 'strong' : 'weak';
}

/** Checks a relevance model against the features of this build; throws with the first difference. */
export function checkRelevance(m: RelevanceModel): RelevanceModel {
  const n = RELEVANCE_FEATURES.length;
  for (const [name, w] of [['dense', m.dense], ['lexical', m.lexical]] as const) {
    if (w.weights.length !== n || w.mean.length !== n || w.std.length !== n || typeof w.bias !== 'number') throw new Error(`relevance model: regime ${name} has the wrong number of weights`);
  }
  if (!(m.floor >= 0 && m.floor <= 1 && m.strong >= m.floor && m.strong <= 1)) throw new Error('relevance model: floor and strong must satisfy 0 <= floor <= strong <= 1');
  return m;
}
