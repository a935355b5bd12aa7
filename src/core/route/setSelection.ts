/**
 * Set selection: a routed result is a set of skills that belong together for this request.
 * Walking the reranked list best first, a candidate that is redundant with a skill already kept
 * in the leading places, or is for another language ecosystem or platform than the top skill in
 * a family the request names (a request naming both stacks spans them), is set aside and placed
 * after those leading places. The set is
 * the leading run of compatible candidates that each carry a fair share of the score and cover
 * part of the request the skills before them do not; its size is the estimate of how many skills
 * the request needs. The top candidate never moves, so Hit@1 is what the reranker made it.
 */
import type { SkipReason } from '../analysis/types';
import { CONTEXT, contextFeatures, requestMismatch, type ListFeatures } from './rerankFeatures';

export interface SetOptions {
  /** Most skills a set holds (and the leading places kept free of conflicts). */
  maxSize: number;
  /** A further member needs at least this share of the top candidate's score. */
  minShare: number;
  /** ... and must cover at least this share of the request's term weight that the members above do not. */
  minNovel: number;
}

export const DEFAULT_SET: SetOptions = { maxSize: 3, minShare: 0.25, minNovel: 0.1 };

export interface Rejection {
  /** Index of the set-aside candidate. */
  index: number;
  /** Index of the kept candidate it conflicts with. */
  partner: number;
  reason: SkipReason;
  evidence: string;
}

export interface SetSelection {
  /** Candidate indexes in the final order. */
  order: number[];
  /** How many leading entries of `order` form the set (1..maxSize). */
  size: number;
  /** Candidates set aside for a conflict with a kept one, in score order. */
  rejected: Rejection[];
}

/**
 * Orders candidates (indexes into `features.ids`) from `scores` (higher is better, comparable
 * across the list: probabilities or sigmoid outputs) so the first places form a compatible set.
 */
export function selectSet(features: ListFeatures, scores: readonly number[], opts: SetOptions = DEFAULT_SET): SetSelection {
  const byScore = scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  if (byScore.length === 0) return { order: [], size: 0, rejected: [] };
  const lead: number[] = [byScore[0]];
  const rest: number[] = [];
  const rejected: Rejection[] = [];
  const top = byScore[0];
  for (const i of byScore.slice(1)) {
    if (lead.length >= opts.maxSize) {
      rest.push(i);
      continue;
    }
    const conflict = lead
      .map((j) => ({ j, pair: features.pairs[i][j] }))
      .find(({ j, pair }) => pair.reason === 'function_redundant' || (j === top && requestMismatch(features, i, top)));
    if (conflict) {
      rejected.push({ index: i, partner: conflict.j, reason: conflict.pair.reason!, evidence: conflict.pair.evidence });
      continue;
    }
    lead.push(i);
  }
  // Set-aside candidates follow the leading places, ahead of the rest (they are still relevant).
  const asideSet = new Set(rejected.map((r) => r.index));
  const order = [...lead, ...byScore.filter((i) => asideSet.has(i)), ...rest];

  const novel = contextFeatures(features, order).map((c) => c[CONTEXT.novelCoverage]);
  let size = 1;
  while (
    size < lead.length &&
    scores[lead[size]] >= opts.minShare * scores[top] &&
    novel[lead[size]] >= opts.minNovel
  ) {
    size++;
  }
  return { order, size, rejected };
}
