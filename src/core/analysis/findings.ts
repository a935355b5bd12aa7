/** Turns pair findings into per-skill findings (one on each side, pointing at the other). */
import type { SkillDoc } from '../types';
import type { Finding, Severity } from '../types';
import type { PairFinding } from './types';

const CODES = { 'near-duplicate': 'skill.near-duplicate', conflict: 'skill.conflict' } as const;

/** The findings `pairs` put on skill `doc`, given every skill by id. */
export function pairFindingsFor(
  doc: SkillDoc,
  pairs: readonly PairFinding[],
  byId: (id: string) => SkillDoc | undefined,
  severity: Record<PairFinding['kind'], Severity> = { 'near-duplicate': 'warning', conflict: 'info' },
): Finding[] {
  const out: Finding[] = [];
  const anchor = doc.keyRanges.description ?? doc.keyRanges.name ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } };
  for (const p of pairs) {
    if (p.a !== doc.id && p.b !== doc.id) continue;
    const other = byId(p.a === doc.id ? p.b : p.a);
    if (!other) continue;
    const otherRange = other.keyRanges.description ?? other.keyRanges.name ?? anchor;
    const what = p.kind === 'near-duplicate'
      ? `Near-duplicate of "${other.name}" (${other.id}), similarity ${p.similarity.toFixed(2)}: ${p.explanation}`
      : `Probable conflict with "${other.name}" (${other.id}): ${p.reason ?? 'conflict'}. ${p.explanation}${p.exampleRequest ? ` Example request routed to both: "${p.exampleRequest}"` : ''}`;
    out.push({
      code: CODES[p.kind],
      severity: severity[p.kind],
      message: what,
      range: anchor,
      related: [{ skillId: other.id, path: other.path, range: otherRange, message: `${p.kind === 'near-duplicate' ? 'near-duplicate' : 'conflicting'} skill "${other.name}"` }],
    });
  }
  return out;
}
