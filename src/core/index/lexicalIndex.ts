/**
 * Field-aware BM25 (BM25F): term frequencies from the name, description, headings and body are
 * length-normalised per field, weighted, summed, then saturated once. Supports incremental
 * add/remove so an edited skill re-indexes alone.
 */

export const FIELDS = ['name', 'description', 'headings', 'body', 'bridge', 'bridgeBody'] as const;
export type Field = (typeof FIELDS)[number];
/**
 * Analysed terms per field. `bridge` and `bridgeBody` hold English senses of a Chinese skill's
 * description and headings, and of its body (see `Translator`); other skills leave them out.
 */
export type FieldTerms = Record<Exclude<Field, 'bridge' | 'bridgeBody'>, string[]> & { bridge?: string[]; bridgeBody?: string[] };
/** Fields that translated request terms do not match (see `search`). */
const NATIVE_ONLY = FIELDS.indexOf('bridgeBody');
const F = FIELDS.length;

export interface Bm25Params {
  k1: number;
  /** Field weights, in FIELDS order. */
  weights: readonly number[];
  /** Length normalisation per field, in FIELDS order. */
  b: readonly number[];
}

/**
 * Tuned by 5-fold cross-validation on the dev queries (bench/tune.ts, docs/retrieval-log.md):
 * long requests reward a slow-saturating k1 and the name and description over the body.
 */
export const DEFAULT_BM25: Bm25Params = {
  k1: 5,
  weights: [5, 4, 2.5, 0.25, 1, 1],
  b: [0.3, 0.5, 0.5, 1, 0.5, 1],
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
  /** Document frequencies computed since the last change (query weighting asks for many). */
  private readonly dfCache = new Map<string, number>();

  constructor(readonly params: Bm25Params = DEFAULT_BM25) {}

  get size(): number {
    return this.slotOf.size;
  }

  /** Adds or replaces the document `key` from analysed terms per field. */
  upsert(key: string, terms: FieldTerms): void {
    this.remove(key);
    this.dfCache.clear();
    const slot = this.keyOf.length;
    this.keyOf.push(key);
    this.alive.push(true);
    this.slotOf.set(key, slot);
    const counts = new Map<string, number[]>();
    FIELDS.forEach((field, f) => {
      const list = terms[field] ?? [];
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
    this.dfCache.clear();
    this.slotOf.delete(key);
    this.alive[slot] = false;
    for (let f = 0; f < F; f++) this.totals[f] -= this.lengths[f][slot];
    if (++this.dead > 64 && this.dead > this.keyOf.length / 4) this.compact();
  }

  /** Document frequency of a term among live documents. */
  df(term: string): number {
    const cached = this.dfCache.get(term);
    if (cached !== undefined) return cached;
    const p = this.postings.get(term);
    if (!p) return 0;
    let n = 0;
    for (const d of p.docs) if (this.alive[d]) n++;
    // Bounded: requests with junk tokens must not grow it forever.
    if (this.dfCache.size > 100_000) this.dfCache.clear();
    this.dfCache.set(term, n);
    return n;
  }

  idf(term: string): number {
    const n = this.size;
    const df = this.df(term);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /**
   * Scores every document that shares a term with the query. `queryWeights` maps each query
   * term to its weight (e.g. how often the request repeats it). `params` overrides the index's
   * own (the tuning bench scores one index under many settings). Terms in `translated` came from
   * the bridge, not from the request's own words; they skip `bridgeBody`: a translated request
   * against translated bodies matches every Chinese skill a little.
   */
  search(queryWeights: Map<string, number>, params: Bm25Params = this.params, translated?: ReadonlySet<string>): Map<string, number> {
    const scores = new Map<number, number>();
    const n = this.size;
    if (!n) return new Map();
    const avg = this.totals.map((t) => Math.max(t / n, 1));
    const { k1, weights, b } = params;
    for (const [term, qw] of queryWeights) {
      const p = this.postings.get(term);
      if (!p) continue;
      const idf = this.idf(term);
      if (idf <= 0) continue;
      const skip = translated?.has(term) ? NATIVE_ONLY : -1;
      for (let i = 0; i < p.docs.length; i++) {
        const d = p.docs[i];
        if (!this.alive[d]) continue;
        let tf = 0;
        for (let f = 0; f < F; f++) {
          const raw = p.tf[i * F + f];
          // Settings written before a field existed give it no weight.
          if (raw && weights[f] && f !== skip) tf += (weights[f] * raw) / (1 - (b[f] ?? 0) + ((b[f] ?? 0) * this.lengths[f][d]) / avg[f]);
        }
        if (tf > 0) scores.set(d, (scores.get(d) ?? 0) + qw * idf * (tf / (k1 + tf)));
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
