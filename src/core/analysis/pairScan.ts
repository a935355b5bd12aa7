/**
 * The library's pair findings: near-duplicates and probable SKIP conflicts, for one skill (after
 * an edit) or for the whole library (each skill with its nearest neighbours and its copies, not
 * all pairs). Twins for two stacks or platforms are not interchangeable: they are reported as
 * conflicts, not near-duplicates.
 */
import type { SkillDoc } from '../types';
import { candidatePairs, DEFAULT_CONFLICT, findConflicts, judgeSet, profileText, type ConflictOptions, type SkillProfiles } from './conflicts';
import { DEFAULT_DUPLICATES, findNearDuplicates, type DuplicateOptions } from './duplicates';
import type { PairFinding } from './types';

/** Nearest neighbours per skill checked for near-duplicates and conflicts in a library-wide scan. */
const PAIR_NEIGHBOURS = 30;

export interface PairScanInput {
  /** The library's skills, in id order. */
  docs: readonly SkillDoc[];
  profiles: SkillProfiles;
  /** Analyses text as the engine does. */
  analyser: (text: string) => string[];
  /** A skill's name + description vector (undefined without a model). */
  vectorOf: (id: string) => Float32Array | undefined;
  /** The `k` nearest skills of one skill by its vector (absent without vectors: shared rare terms). */
  neighbours?: (id: string, k: number) => string[];
  duplicates?: Partial<DuplicateOptions>;
  conflicts?: Partial<ConflictOptions>;
}

/** Pair findings of the library; only those involving `skillId` when given. */
export function scanPairs(input: PairScanInput, skillId?: string): PairFinding[] {
  const { docs, profiles, analyser, vectorOf } = input;
  const conflictOptions = { ...DEFAULT_CONFLICT, ...input.conflicts };
  const byId = new Map<string, SkillDoc>();
  const terms = new Map<string, Set<string>>();
  const termsOf = (id: string) => {
    let t = terms.get(id);
    if (!t) {
      if (!byId.size) for (const d of docs) byId.set(d.id, d);
      const doc = byId.get(id);
      t = new Set(doc ? analyser(profileText(doc)) : []);
      terms.set(id, t);
    }
    return t;
  };
  const candidates = skillId ? undefined : candidatePairs(profiles, PAIR_NEIGHBOURS, input.neighbours);
  const duplicates = findNearDuplicates(docs, vectorOf, termsOf, { ...DEFAULT_DUPLICATES, ...input.duplicates }, skillId, candidates).filter((p) => {
    const pair = [profiles.get(p.a), profiles.get(p.b)].filter((x) => x !== undefined);
    return !judgeSet(pair, conflictOptions).pairs[0]?.family;
  });
  const reported = new Set(duplicates.map((p) => `${p.a}\n${p.b}`));
  return [...duplicates, ...findConflicts(profiles, conflictOptions, skillId, reported, candidates)];
}
