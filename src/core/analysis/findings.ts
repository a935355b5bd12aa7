/** Turns pair findings into per-skill findings (one on each side, pointing at the other). */
import type { SkillDoc } from '../types';
import type { Finding, Severity } from '../types';
import { sideMessage } from './pairText';
import type { PairFinding, PairKind } from './types';

/** The diagnostic code of each kind of pair finding. */
export const PAIR_CODES: Record<PairKind, string> = { copy: 'skill.copy', 'near-duplicate': 'skill.near-duplicate', conflict: 'skill.conflict' };

/** Default severities: a competitor is a warning; a copy or a conflict the author may leave is information. */
export const PAIR_SEVERITY: Record<PairKind, Severity> = { copy: 'info', 'near-duplicate': 'warning', conflict: 'info' };

const RELATED: Record<PairKind, string> = { copy: 'copy of this skill', 'near-duplicate': 'near-duplicate skill', conflict: 'conflicting skill' };

/** The findings `pairs` put on skill `doc`, given every skill by id. */
export function pairFindingsFor(
  doc: SkillDoc,
  pairs: readonly PairFinding[],
  byId: (id: string) => SkillDoc | undefined,
  severity: Record<PairKind, Severity> = PAIR_SEVERITY,
): Finding[] {
  const out: Finding[] = [];
  const anchor = doc.keyRanges.description ?? doc.keyRanges.name ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } };
  for (const p of pairs) {
    if (p.a !== doc.id && p.b !== doc.id) continue;
    const other = byId(p.a === doc.id ? p.b : p.a);
    if (!other) continue;
    const otherRange = other.keyRanges.description ?? other.keyRanges.name ?? anchor;
    const suggestion = p.kind === 'copy' ? undefined : p.suggestions?.[doc.id];
    out.push({
      code: PAIR_CODES[p.kind],
      severity: severity[p.kind],
      message: sideMessage(p, doc, other),
      range: anchor,
      related: [{ skillId: other.id, path: other.path, range: otherRange, message: `${RELATED[p.kind]} "${other.name}"` }],
      ...(p.evidence ? { evidence: p.evidence } : {}),
      ...(suggestion ? { suggestion } : {}),
    });
  }
  return out;
}
