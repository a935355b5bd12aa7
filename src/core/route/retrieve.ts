/**
 * The first stage: retrieve a pool of candidates over the whole library by words (BM25F over
 * name, description, headings, body and the bridge's senses) and by meaning (the sentence
 * encoder's rows), then fuse the two min-max normalised scores. The rerank stage reads the head
 * of the fused pool (rerank.ts), set selection its reranked order (setSelection.ts).
 */
import type { LexicalIndex } from '../index/lexicalIndex';
import { hasCjk } from '../text/analyse';
import type { DenseStore } from './denseStore';
import { firstK } from './denseStore';
import { denseShare, type AnalysedRequest } from './request';
import type { FirstStageSettings, RoutingSettings } from './settings';

export interface FusedCandidate {
  id: string;
  /** Min-max normalised lexical score in the pool. */
  lexical: number;
  /** Raw dense score (best-row cosine), null without an embedder. */
  dense: number | null;
  /** Min-max normalised dense score in the pool (0 without an embedder). */
  denseNorm: number;
  /** The lexical weight used for this request. */
  lexicalWeight: number;
  fused: number;
}

/** What the first stage found for one request. */
export interface Pool {
  request: AnalysedRequest;
  /** Every candidate of the pool, best fused score first. */
  candidates: FusedCandidate[];
  /** Whether dense scores entered the fusion (a request vector and skill vectors were there). */
  dense: boolean;
  /** Per candidate with vectors, the row that gave its dense score (see `DenseScore.row`). */
  denseRows: ReadonlyMap<string, number>;
}

/** The dense part of a request: the skills nearest its vector, and exact scores on demand. */
export interface DenseHits {
  /** The nearest skills, up to the pool size. */
  top: readonly string[];
  /** Exact score and row of any skill (undefined when it has no vectors). */
  score(id: string): { score: number; row: number } | undefined;
  /** The share of its fusion weight the dense part keeps for this request, 0..1 (`denseShare`). */
  share: number;
}

/** The first stage over one library's indexes. */
export class FirstStage {
  constructor(
    /** The library's lexical index (benches read its term statistics). */
    readonly lexical: LexicalIndex,
    private readonly dense: DenseStore | null,
    /** Analysed name, description and bridge terms of a skill (pseudo-relevance feedback reads them). */
    private readonly feedback: (id: string) => readonly string[],
  ) {}

  /** Lexical scores of every skill the request's terms reach (with feedback expansion when on). */
  lexicalScores(req: AnalysedRequest, s: RoutingSettings): Map<string, number> {
    const first = this.lexical.search(req.weights, s.bm25, req.translated);
    const expanded = expandByFeedback(req.weights, first, this.feedback, this.lexical, s);
    return expanded ? this.lexical.search(expanded, s.bm25, req.translated) : first;
  }

  /**
   * The dense part for a request vector (null without skill vectors); `read`: the share of the
   * request the encoder read (`readShare`), which scales the dense part's weight (`denseShare`).
   */
  denseHits(vector: Float32Array, s: RoutingSettings, read = 1): DenseHits | null {
    const dense = this.dense;
    if (!dense?.skillCount) return null;
    return { top: [...dense.search(vector, s.poolSize).keys()], score: (id) => dense.score(id, vector, s.bodyPassages), share: denseShare(read) };
  }
}

/**
 * The pool: the `poolSize` best by words and the nearest by meaning, each scored by both parts
 * (exactly, whichever part found it) and fused. `dense` null: words alone decide.
 */
export function fusePool(req: AnalysedRequest, lexical: Map<string, number>, dense: DenseHits | null, s: RoutingSettings): Pool {
  const ids = new Set<string>([...topN(lexical, s.poolSize).keys(), ...(dense?.top ?? [])]);
  const denseScores = new Map<string, number>();
  const denseRows = new Map<string, number>();
  if (dense) {
    for (const id of ids) {
      const hit = dense.score(id);
      if (!hit) continue;
      denseScores.set(id, hit.score);
      denseRows.set(id, hit.row);
    }
  }
  const base = hasCjk(req.query) ? s.lexicalWeightCjk : s.lexicalWeight;
  // What the dense part does not keep of its weight for this request goes to the words.
  const weight = dense ? 1 - (1 - base) * dense.share : base;
  return { request: req, candidates: fuse(ids, lexical, dense ? denseScores : null, weight, s.denseMinSpan, s.lexicalMinShare), dense: dense !== null, denseRows };
}

/**
 * Pseudo-relevance feedback: the request's weights plus terms that the name and description of
 * the top documents share, weighted by document score and rarity; null when off or nothing is added.
 */
export function expandByFeedback(
  weights: ReadonlyMap<string, number>,
  first: Map<string, number>,
  docTerms: (id: string) => readonly string[],
  lexical: LexicalIndex,
  s: Pick<FirstStageSettings, 'prfDocs' | 'prfTerms' | 'prfWeight'>,
): Map<string, number> | null {
  if (s.prfDocs <= 0 || s.prfWeight <= 0 || !first.size) return null;
  const top = [...first].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, s.prfDocs);
  const best = top[0][1] || 1;
  const score = new Map<string, number>();
  for (const [id, sc] of top) {
    const terms = docTerms(id);
    if (!terms.length) continue;
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) score.set(t, (score.get(t) ?? 0) + (sc / best) * (n / terms.length));
  }
  const ranked = [...score]
    .filter(([t]) => !weights.has(t))
    .map(([t, v]) => [t, v * lexical.idf(t)] as const)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, s.prfTerms);
  if (!ranked.length) return null;
  const top1 = ranked[0][1] || 1;
  const out = new Map(weights);
  for (const [t, v] of ranked) out.set(t, s.prfWeight * (v / top1));
  return out;
}

/** Min-max over the candidate pool; missing candidates count as 0. */
export function normalise(pool: Iterable<string>, scores: Map<string, number>, minSpan = 0, minShareOfTop = 0): Map<string, number> {
  const ids = [...pool];
  let lo = Infinity;
  let hi = -Infinity;
  for (const id of ids) {
    const v = scores.get(id);
    if (v === undefined) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const out = new Map<string, number>();
  if (!Number.isFinite(lo)) return out;
  // A span of at least `minShareOfTop` of the best score reaches below the lowest: the best stays 1,
  // and a runner-up close to it stays close (in a pool of three, min-max put a near twin at 0).
  if (minShareOfTop > 0 && hi > 0 && hi - lo < minShareOfTop * hi) lo = hi - minShareOfTop * hi;
  const span = Math.max(hi - lo, minSpan);
  for (const id of ids) {
    const v = scores.get(id);
    out.set(id, v === undefined ? 0 : span > 0 ? (v - lo) / span : 1);
  }
  return out;
}

/**
 * Weighted fusion of min-max normalised stage scores over the pool, best first. Without dense
 * scores the lexical score alone decides. `lexicalWeight` is the share of the lexical part; dense
 * scores are normalised over at least `denseMinSpan` of cosine, lexical ones over at least
 * `lexicalMinShare` of the best (see `FirstStageSettings`).
 */
export function fuse(pool: Iterable<string>, lexical: Map<string, number>, dense: Map<string, number> | null, lexicalWeight: number, denseMinSpan = 0, lexicalMinShare = 0): FusedCandidate[] {
  const ids = [...new Set(pool)];
  const lexNorm = normalise(ids, lexical, 0, lexicalMinShare);
  const denseNorm = dense ? normalise(ids, dense, denseMinSpan) : new Map<string, number>();
  const wL = dense ? lexicalWeight : 1;
  const out = ids.map((id) => {
    const l = lexNorm.get(id) ?? 0;
    const d = denseNorm.get(id) ?? 0;
    return { id, lexical: l, dense: dense ? (dense.get(id) ?? null) : null, denseNorm: d, lexicalWeight: wL, fused: wL * l + (1 - wL) * d };
  });
  out.sort((a, b) => b.fused - a.fused || (a.id < b.id ? -1 : 1));
  return out;
}

/**
 * The `n` best entries, best first (ties by key), kept in a bounded heap: a request's words match
 * thousands of skills, and sorting them all took more time than scoring them.
 */
export function topN(scores: Map<string, number>, n: number): Map<string, number> {
  const entries = [...scores];
  const order = firstK(entries.length, n, (a, b) => entries[a][1] > entries[b][1] || (entries[a][1] === entries[b][1] && entries[a][0] < entries[b][0]));
  return new Map(order.map((i) => entries[i]));
}
