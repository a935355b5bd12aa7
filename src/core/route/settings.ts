/** Routing settings: the first stage's weights and the pool and rerank sizes. */
import type { Bm25Params } from '../index/lexicalIndex';

export interface FirstStageSettings {
  /** Query terms are weighted by (idf / max idf) ^ idfPower on top of BM25's own idf. */
  idfPower: number;
  /** Weight of terms seen only on pasted code, log or stack-trace lines of the request. */
  codeLineWeight: number;
  /** Weight of English senses bridged from the request's Chinese words (times their confidence). */
  bridgeWeight: number;
  /** Pseudo-relevance feedback: expansion terms taken from the top `prfDocs` (0 turns it off). */
  prfDocs: number;
  prfTerms: number;
  prfWeight: number;
  /** Dense rows taken from body passages (after name + description). */
  bodyPassages: number;
  /** Subtracted from the cosine of body rows, so a passage must match clearly better to win. */
  bodyRowPenalty: number;
  /** Weight of the normalised lexical score in the fusion (dense gets 1 - this). */
  lexicalWeight: number;
  /** The same for requests written in Chinese (the English encoder sees their bridged text). */
  lexicalWeightCjk: number;
  /**
   * Least cosine spread the dense scores are normalised over. Min-max over a pool of a few skills
   * of one domain (eight Spring skills) stretched cosines 0.05 apart to the whole 0..1 range, so
   * the encoder's noise decided as much as the words; a pool whose cosines spread less than this
   * keeps its differences small. 0.3 leaves the corpus's pools as they were (dev figures the same)
   * and brought the tune split of bench/realsuites to the words-only figure (docs/retrieval-log.md).
   */
  denseMinSpan: number;
  /**
   * Least span the lexical scores are normalised over, as a share of the best: a pool whose scores
   * lie closer than that reaches below its lowest, so the best stays 1 and a runner-up 1% behind
   * stays near it. Min-max over a pool of three put a near twin at 0 (relevance 0.035 for a request
   * both twins match alike; 0.48 with this). Large pools spread wider than this and are unchanged.
   */
  lexicalMinShare: number;
}

/** Tuned by 5-fold cross-validation on the dev queries (bench/tune.ts, docs/retrieval-log.md). */
export const DEFAULT_FIRST_STAGE: FirstStageSettings = {
  idfPower: 1,
  codeLineWeight: 1,
  bridgeWeight: 1.5,
  prfDocs: 0,
  prfTerms: 10,
  prfWeight: 0,
  bodyPassages: 0,
  bodyRowPenalty: 0,
  lexicalWeight: 0.6,
  lexicalWeightCjk: 0.8,
  denseMinSpan: 0.3,
  lexicalMinShare: 0.5,
};

/** The first stage's settings plus pool and rerank sizes. */
export interface RoutingSettings extends FirstStageSettings {
  /** Candidates taken from each first-stage part (words, dense) before fusion. */
  poolSize: number;
  /** Candidates the reranker sees; every ranking reranks this many, whatever is asked for. */
  rerankDepth: number;
  /** BM25F parameters (the lexical index's defaults when absent). */
  bm25?: Bm25Params;
  /**
   * Share of the background term statistics in every idf, 0 (off: the library's own counts) to 1
   * (see index/background.ts): how much a large pool's rarity weighs against the library's.
   */
  backgroundWeight: number;
}

export const DEFAULT_ROUTING: RoutingSettings = {
  ...DEFAULT_FIRST_STAGE,
  poolSize: 100,
  rerankDepth: 20,
  backgroundWeight: 0.25,
};
