/**
 * Near-duplicate detection: two skills whose name + description say the same thing. Dense
 * similarity of the name + description vectors when a model is loaded, else word overlap.
 */
import type { SkillDoc } from '../types';
import type { PairFinding } from './types';

export interface DuplicateOptions {
  /** Cosine of name + description vectors at or above which two skills are near-duplicates. */
  denseThreshold: number;
  /** Jaccard of description terms at or above which (lexical fallback). */
  lexicalThreshold: number;
}

export const DEFAULT_DUPLICATES: DuplicateOptions = { denseThreshold: 0.9, lexicalThreshold: 0.6 };

function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (!a.size || !b.size) return 0;
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

/**
 * Finds near-duplicate pairs among `docs` (only pairs involving `focus` when given).
 * `vectorOf` gives a skill's name + description vector (undefined without a model);
 * `termsOf` its description terms; `candidates` (pairs with `a` < `b`), when given, limits a
 * library-wide scan to those pairs.
 */
export function findNearDuplicates(
  docs: readonly SkillDoc[],
  vectorOf: (id: string) => Float32Array | undefined,
  termsOf: (id: string) => Set<string>,
  opts: DuplicateOptions = DEFAULT_DUPLICATES,
  focus?: string,
  candidates?: readonly (readonly [string, string])[],
): PairFinding[] {
  const out: PairFinding[] = [];
  const list = focus ? docs.filter((d) => d.id === focus) : docs;
  // Without a focus, candidate pairs (nearest neighbours) replace the all-pairs scan.
  const partners = new Map<string, SkillDoc[]>();
  if (candidates && !focus) {
    const byId = new Map(docs.map((d) => [d.id, d]));
    for (const [x, y] of candidates) {
      const other = byId.get(y);
      if (other) partners.set(x, [...(partners.get(x) ?? []), other]);
    }
  }
  for (let i = 0; i < list.length; i++) {
    const a = list[i];
    const va = vectorOf(a.id);
    const ta = termsOf(a.id);
    for (const b of candidates && !focus ? (partners.get(a.id) ?? []) : docs) {
      if (b.id === a.id || (!focus && b.id <= a.id)) continue;
      const vb = vectorOf(b.id);
      let similarity: number;
      let dup: boolean;
      if (va && vb) {
        similarity = cosine(va, vb);
        dup = similarity >= opts.denseThreshold;
      } else {
        similarity = jaccard(ta, termsOf(b.id));
        dup = similarity >= opts.lexicalThreshold;
      }
      if (!dup) continue;
      const [x, y] = a.id < b.id ? [a, b] : [b, a];
      out.push({
        kind: 'near-duplicate',
        a: x.id,
        b: y.id,
        similarity,
        explanation: `"${x.name}" and "${y.name}" describe the same job, so an agent cannot tell which to pick. Merge them, or say in each description when to use the other.`,
      });
    }
  }
  return out;
}
