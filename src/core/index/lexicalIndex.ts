/**
 * Field-aware BM25 (BM25F): term frequencies from the name, description, headings and body are
 * length-normalised per field, weighted, summed, then saturated once. Supports incremental
 * add/remove so an edited skill re-indexes alone.
 */

export const FIELDS = ['name', 'description', 'headings', 'body'] as const;
export type Field = (typeof FIELDS)[number];
const F = FIELDS.length;

export interface Bm25Params {
  k1: number;
  /** Field weights, in FIELDS order. */
  weights: readonly number[];
  /** Length normalisation per field, in FIELDS order. */
  b: readonly number[];
}

export const DEFAULT_BM25: Bm25Params = {
  k1: 1.2,
  weights: [3, 2, 1.5, 1],
  b: [0.3, 0.5, 0.5, 0.75],
};

interface Posting {
  docs: number[];
  /** F term frequencies per entry of `docs`. */
  tf: number[];
}

export class LexicalIndex {
  private readonly postings = new Map<string, Posting>();
  private readonly lengths: number[][] = FIELDS.map(() => []);
  private readonly totals = new Array<number>(F).fill(0);
  private readonly alive: boolean[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly keyOf: string[] = [];
  private dead = 0;

  constructor(readonly params: Bm25Params = DEFAULT_BM25) {}

  get size(): number {
    return this.slotOf.size;
  }

  /** Adds or replaces the document `key` from analysed terms per field. */
  upsert(key: string, terms: Record<Field, string[]>): void {
    this.remove(key);
    const slot = this.keyOf.length;
    this.keyOf.push(key);
    this.alive.push(true);
    this.slotOf.set(key, slot);
    const counts = new Map<string, number[]>();
    FIELDS.forEach((field, f) => {
      const list = terms[field];
      this.lengths[f][slot] = list.length;
      this.totals[f] += list.length;
      for (const t of list) {
        let c = counts.get(t);
        if (!c) counts.set(t, (c = new Array<number>(F).fill(0)));
        c[f]++;
      }
    });
    for (const [t, c] of counts) {
      let p = this.postings.get(t);
      if (!p) this.postings.set(t, (p = { docs: [], tf: [] }));
      p.docs.push(slot);
      p.tf.push(...c);
    }
  }

  remove(key: string): void {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return;
    this.slotOf.delete(key);
    this.alive[slot] = false;
    for (let f = 0; f < F; f++) this.totals[f] -= this.lengths[f][slot];
    if (++this.dead > 64 && this.dead > this.keyOf.length / 4) this.compact();
  }

  /** Document frequency of a term among live documents. */
  df(term: string): number {
    const p = this.postings.get(term);
    if (!p) return 0;
    let n = 0;
    for (const d of p.docs) if (this.alive[d]) n++;
    return n;
  }

  idf(term: string): number {
    const n = this.size;
    const df = this.df(term);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /**
   * Scores every document that shares a term with the query. `queryWeights` maps each query
   * term to its weight (e.g. how often the request repeats it).
   */
  search(queryWeights: Map<string, number>): Map<string, number> {
    const scores = new Map<number, number>();
    const n = this.size;
    if (!n) return new Map();
    const avg = this.totals.map((t) => Math.max(t / n, 1));
    const { k1, weights, b } = this.params;
    for (const [term, qw] of queryWeights) {
      const p = this.postings.get(term);
      if (!p) continue;
      const idf = this.idf(term);
      if (idf <= 0) continue;
      for (let i = 0; i < p.docs.length; i++) {
        const d = p.docs[i];
        if (!this.alive[d]) continue;
        let tf = 0;
        for (let f = 0; f < F; f++) {
          const raw = p.tf[i * F + f];
          if (raw) tf += (weights[f] * raw) / (1 - b[f] + (b[f] * this.lengths[f][d]) / avg[f]);
        }
        scores.set(d, (scores.get(d) ?? 0) + qw * idf * (tf / (k1 + tf)));
      }
    }
    const out = new Map<string, number>();
    for (const [d, s] of scores) out.set(this.keyOf[d], s);
    return out;
  }

  /** Drops removed documents from the postings. */
  private compact(): void {
    const remap = new Map<number, number>();
    const keys: string[] = [];
    this.keyOf.forEach((k, slot) => {
      if (this.alive[slot]) {
        remap.set(slot, keys.length);
        keys.push(k);
      }
    });
    for (const [term, p] of this.postings) {
      const docs: number[] = [];
      const tf: number[] = [];
      p.docs.forEach((d, i) => {
        const to = remap.get(d);
        if (to === undefined) return;
        docs.push(to);
        for (let f = 0; f < F; f++) tf.push(p.tf[i * F + f]);
      });
      if (docs.length) this.postings.set(term, { docs, tf });
      else this.postings.delete(term);
    }
    for (let f = 0; f < F; f++) {
      const next: number[] = [];
      for (const [from, to] of remap) next[to] = this.lengths[f][from];
      this.lengths[f] = next;
    }
    this.keyOf.length = 0;
    this.keyOf.push(...keys);
    this.alive.length = 0;
    this.alive.push(...keys.map(() => true));
    this.slotOf.clear();
    keys.forEach((k, i) => this.slotOf.set(k, i));
    this.dead = 0;
  }
}
