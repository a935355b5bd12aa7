import { strict as assert } from 'node:assert';
import { TemplateCounts } from '../../src/core/analysis/templateCounts';
import type { SkillDoc } from '../../src/core/types';

/** The count as the scan made it before: every skill in order, a description's first skill only. */
function reference(docs: readonly SkillDoc[], keysOf: (d: SkillDoc) => readonly number[]): Map<number, number> {
  const counts = new Map<number, number>();
  const seen = new Set<string>();
  for (const d of docs) {
    if (seen.has(d.description)) continue;
    seen.add(d.description);
    for (const k of keysOf(d)) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

const sorted = (m: ReadonlyMap<number, number>) => [...m].sort((a, b) => a[0] - b[0]);

/** A small deterministic generator (tests must not depend on Math.random). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('TemplateCounts (template keys per library, updated by edits)', () => {
  const keys = new Map<string, number[]>();
  const keysOf = (d: SkillDoc) => keys.get(d.hash)!;
  let version = 0;
  const make = (id: string, description: string, ks: number[]): SkillDoc => {
    const hash = `${id}@${version++}`;
    keys.set(hash, ks);
    return { id, path: `${id}/SKILL.md`, name: id, description, body: '', frontMatter: {}, keyRanges: {}, bodyStartLine: 3, lang: 'en', hash, findings: [] };
  };
  const byId = (docs: SkillDoc[]) => docs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  it('equals a count of the whole library after every edit, addition and removal', () => {
    const r = rng(7);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
    const descriptions = ['Extract PDF text.', 'Fill PDF forms.', 'Plan a bake.', 'Review code.', 'Deploy apps.'];
    const someKeys = () => Array.from({ length: 1 + Math.floor(r() * 4) }, () => Math.floor(r() * 12));
    let docs = byId(Array.from({ length: 30 }, (_, i) => make(`s${String(i).padStart(2, '0')}`, pick(descriptions), someKeys())));
    const counts = new TemplateCounts();
    assert.deepEqual(sorted(counts.of(docs, keysOf)), sorted(reference(docs, keysOf)));
    for (let step = 0; step < 300; step++) {
      const x = r();
      const next = [...docs];
      if (x < 0.6) {
        const i = Math.floor(r() * next.length);
        next[i] = make(next[i].id, r() < 0.5 ? pick(descriptions) : next[i].description, someKeys());
      } else if (x < 0.8 && next.length > 3) {
        next.splice(Math.floor(r() * next.length), 1);
      } else {
        next.push(make(`s${String(Math.floor(r() * 60)).padStart(2, '0')}x${step}`, pick(descriptions), someKeys()));
      }
      docs = byId(next);
      assert.deepEqual(sorted(counts.of(docs, keysOf)), sorted(reference(docs, keysOf)), `step ${step}`);
    }
  });

  it('the same list asks nothing again; an edit asks for the changed skill only', () => {
    const docs = [make('a', 'Same.', [1, 2]), make('b', 'Same.', [2, 3]), make('c', 'Other.', [2])];
    const counts = new TemplateCounts();
    const asked: string[] = [];
    const spy = (d: SkillDoc) => (asked.push(d.id), keysOf(d));
    assert.deepEqual(sorted(counts.of(docs, spy)), [[1, 1], [2, 2]]);
    asked.length = 0;
    counts.of(docs, spy);
    assert.deepEqual(asked, []);
    // "a" changes its description: "b" now counts for "Same.".
    const edited = [make('a', 'New.', [1]), docs[1], docs[2]];
    assert.deepEqual(sorted(counts.of(edited, spy)), [[1, 1], [2, 2], [3, 1]]);
    assert.deepEqual(asked, ['a']);
  });
});
