/**
 * Set selection: a routed result is a set of skills that belong together for this request, chosen
 * over the ranking without reordering it. Walking the ranking best first, a candidate that is
 * redundant with a skill already kept, or is for another language ecosystem or platform than the
 * top skill in a family the request names (a request naming both stacks spans them), is set aside
 * for that skill. The set is the leading run of the kept candidates that each carry a fair share of
 * the score and cover part of the request the members before them do not; its size is the estimate
 * of how many skills the request needs. The ranking stays the scores' order: a candidate set aside
 * keeps its place, marked with its partner and the reason, so no result is ever shown below one
 * with a lower score, and the pair findings and every view read the same order.
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
  /** Index of the set member it conflicts with. */
  partner: number;
  reason: SkipReason;
  evidence: string;
}

export interface SetSelection {
  /** Candidate indexes in the ranking's order: by score, best first (ties by index). */
  order: number[];
  /** The set's members, in ranking order (the first is `order[0]`). */
  members: number[];
  /** How many skills the set holds (`members.length`, 1..maxSize). */
  size: number;
  /** Candidates set aside for a conflict with a member, in ranking order. */
  rejected: Rejection[];
}

/**
 * The ranking's order of `scores` (higher is better, comparable across the list: probabilities or
 * sigmoid outputs) and the compatible set chosen over it (indexes into `features.ids`).
 */
export function selectSet(features: ListFeatures, scores: readonly number[], opts: SetOptions = DEFAULT_SET): SetSelection {
  const byScore = scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  if (byScore.length === 0) return { order: [], members: [], size: 0, rejected: [] };
  const top = byScore[0];
  const lead: number[] = [top];
  const conflicts: Rejection[] = [];
  // Every candidate below is read against the lead, not only until the lead is full: a Ruby fuzzer
  // fourth for a Rust request is as much for another ecosystem as the Python one second.
  for (const i of byScore.slice(1)) {
    const conflict = lead
      .map((j) => ({ j, pair: features.pairs[i][j] }))
      .find(({ j, pair }) => pair.reason === 'function_redundant' || (j === top && requestMismatch(features, i, top)));
    if (conflict) conflicts.push({ index: i, partner: conflict.j, reason: conflict.pair.reason!, evidence: conflict.pair.evidence });
    else if (lead.length < opts.maxSize) lead.push(i);
  }
  // Novelty is judged against the members above, not against a set-aside twin that scored between them.
  const novel = contextFeatures(features, [...lead, ...byScore.filter((i) => !lead.includes(i))]).map((c) => c[CONTEXT.novelCoverage]);
  let size = 1;
  while (size < lead.length && scores[lead[size]] >= opts.minShare * scores[top] && novel[lead[size]] >= opts.minNovel) size++;
  const members = lead.slice(0, size);
  const rejected = conflicts.filter((r) => members.includes(r.partner));
  return { order: byScore, members, size, rejected };
}

/**
 * The set as the router answers it, what Set-Compat reads: the members first (in ranking order),
 * then the rest of the ranking in its order, the candidates set aside for a member (which the
 * answer says not to use beside it) last.
 */
export function membersFirst<T>(ranking: readonly T[], isMember: (item: T) => boolean, isSetAside: (item: T) => boolean = () => false): T[] {
  const rest = ranking.filter((x) => !isMember(x));
  return [...ranking.filter(isMember), ...rest.filter((x) => !isSetAside(x)), ...rest.filter(isSetAside)];
}
