/**
 * Skill vectors: several rows per skill (name + description, body passages), searched through
 * an injected `VectorIndex`, with exact scores for any skill on demand: a skill's score is its
 * best row, body rows penalised (the aggregation lives here, with the rows).
 */
import type { VectorIndex } from '../types';
import { contentHash } from '../text/hash';

export function dot(a: Float32Array, b: Float32Array): number {
  // Four running sums: independent additions pipeline (~1.8x faster than one sum on 512 dims).
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const n = a.length - (a.length % 4);
  let i = 0;
  for (; i < n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < a.length; i++) s0 += a[i] * b[i];
  return s0 + s1 + (s2 + s3);
}

/** A skill's dense score for one request and the row it came from. */
export interface DenseScore {
  /** Best-row cosine, body rows lowered by the penalty. */
  score: number;
  /** The row that gave it, for explanations: 0 for the rows describing the skill, i + 1 for body passage i. */
  row: number;
}

export class DenseStore {
  private readonly rows = new Map<number, { skill: string; vector: Float32Array }>();
  private readonly rowsOf = new Map<string, { ids: number[]; bodyFrom: number }>();
  private nextRow = 0;

  /**
   * `bodyRowPenalty` is subtracted from the cosine of body-passage rows, so a passage must match
   * clearly better than the description to give the skill its score.
   */
  constructor(readonly index: VectorIndex, private readonly bodyRowPenalty = 0) {}

  get skillCount(): number {
    return this.rowsOf.size;
  }

  has(skill: string): boolean {
    return this.rowsOf.has(skill);
  }

  /** Sets a skill's rows: `bodyFrom` rows describe it (name + description, its bridged English), the rest are body passages. */
  upsert(skill: string, vectors: Float32Array[], bodyFrom = vectors.length): void {
    this.remove(skill);
    const ids: number[] = [];
    for (const v of vectors) {
      const row = this.nextRow++;
      this.rows.set(row, { skill, vector: v });
      this.index.upsert(row, v);
      ids.push(row);
    }
    this.rowsOf.set(skill, { ids, bodyFrom });
  }

  remove(skill: string): void {
    const entry = this.rowsOf.get(skill);
    if (!entry) return;
    for (const row of entry.ids) {
      this.rows.delete(row);
      this.index.remove(row);
    }
    this.rowsOf.delete(skill);
  }

  /** Best skills by their best row, up to `k` skills (the pool of a request; `score` gives each its exact score). */
  search(query: Float32Array, k: number): Map<string, number> {
    const out = new Map<string, number>();
    if (!this.rows.size) return out;
    let want = Math.min(this.rows.size, k * 3);
    for (;;) {
      for (const hit of this.index.search(query, want)) {
        const row = this.rows.get(hit.key);
        if (row && !out.has(row.skill)) out.set(row.skill, hit.score);
      }
      if (out.size >= k || want >= this.rows.size) break;
      want = Math.min(this.rows.size, want * 4);
      out.clear();
    }
    return out;
  }

  /**
   * A skill's exact dense score: its best row, body rows penalised; `bodyRows` caps the body rows
   * read (all by default). Undefined when the skill has no vectors.
   */
  score(skill: string, query: Float32Array, bodyRows = Infinity): DenseScore | undefined {
    const entry = this.rowsOf.get(skill);
    if (!entry?.ids.length) return undefined;
    const { ids, bodyFrom } = entry;
    const n = Math.min(ids.length, bodyFrom + bodyRows);
    let best = -Infinity;
    let at = 0;
    for (let i = 0; i < n; i++) {
      const cos = dot(query, this.rows.get(ids[i])!.vector);
      const v = i >= bodyFrom ? cos - this.bodyRowPenalty : cos;
      if (v > best) {
        best = v;
        at = i;
      }
    }
    return { score: best, row: at < bodyFrom ? 0 : at - bodyFrom + 1 };
  }

  /** Names the current row set (row ids and the skills they hold) for persisted indexes. */
  signature(hashOf: (skill: string) => string): string {
    const parts: string[] = [];
    for (const [skill, { ids }] of this.rowsOf) parts.push(`${skill}\t${hashOf(skill)}\t${ids.join(',')}`);
    parts.sort();
    return contentHash(parts.join('\n'));
  }

  /** All vectors of one skill (for duplicate analysis). */
  vectors(skill: string): Float32Array[] {
    return (this.rowsOf.get(skill)?.ids ?? []).map((id) => this.rows.get(id)!.vector);
  }

  /** The first vector of one skill, `vectors(skill)[0]` without the array (pair scans ask for thousands). */
  first(skill: string): Float32Array | undefined {
    const ids = this.rowsOf.get(skill)?.ids;
    return ids?.length ? this.rows.get(ids[0])!.vector : undefined;
  }
}

/** Exact cosine search; used below the size where an approximate index pays off. */
export class BruteForceIndex implements VectorIndex {
  private readonly vectors = new Map<number, Float32Array>();

  get size(): number {
    return this.vectors.size;
  }

  upsert(key: number, vector: Float32Array): void {
    this.vectors.set(key, vector);
  }

  remove(key: number): void {
    this.vectors.delete(key);
  }

  search(vector: Float32Array, k: number): { key: number; score: number }[] {
    const keys: number[] = [];
    const scores = new Float64Array(this.vectors.size);
    const a = vector;
    const n = a.length - (a.length % 4);
    for (const [key, b] of this.vectors) {
      // `dot`, inlined with the same operations in the same order (so the same scores): one long
      // loop is optimised within the first search, where ~3,000 calls of `dot` ran unoptimised in
      // a fresh process and boxed every partial sum (~20 MB of garbage per search).
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let i = 0;
      for (; i < n; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
      }
      for (; i < a.length; i++) s0 += a[i] * b[i];
      scores[keys.push(key) - 1] = s0 + s1 + (s2 + s3);
    }
    return bestK(scores, k).map((i) => ({ key: keys[i], score: scores[i] }));
  }
}

/**
 * Indices of the `k` highest scores, highest first, equal scores in index order (what a stable
 * sort of all of them gives): sorting every row was a third of a search.
 */
export function bestK(scores: ArrayLike<number>, k: number): number[] {
  return firstK(scores.length, k, (a, b) => scores[a] > scores[b] || (scores[a] === scores[b] && a < b));
}

/**
 * The `k` first of the indices 0..n-1 in the strict total order `before`, in that order, kept in
 * a bounded heap (O(n log k) instead of sorting all n).
 */
export function firstK(n: number, k: number, before: (a: number, b: number) => boolean): number[] {
  const size = Math.min(k, n);
  if (size <= 0) return [];
  // heap[0] is the last of the kept indices in `before` order.
  const heap: number[] = [];
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j], heap[i]]);
  for (let x = 0; x < n; x++) {
    if (heap.length < size) {
      heap.push(x);
      for (let i = heap.length - 1; i > 0 && before(heap[(i - 1) >> 1], heap[i]); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
    } else if (before(x, heap[0])) {
      heap[0] = x;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        let last = i;
        if (l < heap.length && before(heap[last], heap[l])) last = l;
        if (l + 1 < heap.length && before(heap[last], heap[l + 1])) last = l + 1;
        if (last === i) break;
        swap(i, last);
        i = last;
      }
    }
  }
  return heap.sort((a, b) => (before(a, b) ? -1 : 1));
}
