/**
 * Which findings of a skill are reported: the one policy behind the editor's diagnostics and
 * `skill-router check`, so a finding the author dismissed in the editor does not fail CI, and a
 * skill with hundreds of probable SKIP partners shows the same closest few in both.
 */
import { pairFindingsFor } from '../analysis/findings';
import type { PairFinding, PairKind } from '../analysis/types';
import type { Finding, SkillDoc } from '../types';
import { isSuppressed, readSuppressions } from './suppression';

/** The limits on reported `skill.conflict` findings (settings `skillRouter.conflict.*`, check config `conflict`). */
export interface FindingPolicy {
  conflict: {
    /** Lowest share of probe requests taken for a conflict to be reported, 0..1. */
    threshold: number;
    /** How many conflicts (the strongest) one skill reports at most. */
    maxPerSkill: number;
  };
}

export const DEFAULT_FINDING_POLICY: FindingPolicy = { conflict: { threshold: 0, maxPerSkill: 5 } };

/** A finding to report; pair findings carry the other skill of the pair. */
export interface ReportedFinding {
  finding: Finding;
  twin?: SkillDoc;
}

/** Which finding a pair keeps when it has several: a copy says the most, a conflict the least. */
const PRIORITY: Record<PairKind, number> = { copy: 0, 'near-duplicate': 1, conflict: 2 };

/** One finding per pair: the one of highest priority (no pair is reported twice). */
export function onePerPair(pairs: readonly PairFinding[]): PairFinding[] {
  const best = new Map<string, PairFinding>();
  for (const p of pairs) {
    const key = `${p.a}\n${p.b}`;
    const held = best.get(key);
    if (!held || PRIORITY[p.kind] < PRIORITY[held.kind]) best.set(key, p);
  }
  return [...best.values()];
}

/**
 * The findings to report on `doc`: its own findings (`own`, usually `doc.findings`) and those of
 * the `pairs` that involve it (pairs of other skills are ignored), one per pair, less what the
 * skill suppresses (`metadata.skill-router.ignore`, `<!-- skill-router-ignore -->`). Conflicts
 * below `policy.conflict.threshold` (the share of probes taken) are dropped and only the
 * strongest `maxPerSkill` are kept (before suppression: a dismissed conflict still takes its
 * place); copies and near-duplicates are all kept. Pairs whose twin `skill` does not know are
 * skipped. Order: own findings, copies and near-duplicates in the order given, then conflicts
 * strongest first.
 */
export function applyFindingPolicy(
  doc: SkillDoc,
  own: readonly Finding[],
  pairs: readonly PairFinding[],
  skill: (id: string) => SkillDoc | undefined,
  policy: FindingPolicy,
): ReportedFinding[] {
  const suppressions = readSuppressions(doc);
  const out: ReportedFinding[] = [];
  for (const finding of own) if (!isSuppressed(suppressions, finding.code)) out.push({ finding });
  const mine = onePerPair(pairs.filter((p) => p.a === doc.id || p.b === doc.id));
  const conflicts = mine
    .filter((p) => p.kind === 'conflict' && p.similarity >= policy.conflict.threshold)
    .sort((x, y) => y.similarity - x.similarity)
    .slice(0, policy.conflict.maxPerSkill);
  for (const p of [...mine.filter((x) => x.kind !== 'conflict'), ...conflicts]) {
    const twin = skill(p.a === doc.id ? p.b : p.a);
    if (!twin) continue;
    const [finding] = pairFindingsFor(doc, [p], skill);
    if (!finding || isSuppressed(suppressions, finding.code, twin)) continue;
    out.push({ finding, twin });
  }
  return out;
}
