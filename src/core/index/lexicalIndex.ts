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
/** A document's terms counted per field: what `LexicalIndex` keeps, and what a snapshot stores. */
export interface TermCounts {
  /** Terms per field, in FIELDS order. */
  lengths: number[];
  /** Distinct terms in first-seen order. */
  terms: string[];
  /** FIELDS.length frequencies per entry of `terms`. */
  tf: ArrayLike<number>;
  /**
   * The same terms as indexes into `table`, when the counts come from a snapshot with a shared
   * term table: a batch of such counts is indexed without a string lookup per term.
   */
  ids?: ArrayLike<number>;
  table?: readonly string[];
}

/** Counts analysed terms per field (the first half of `LexicalIndex.upsert`). */
export function countTerms(terms: FieldTerms): TermCounts {
  const F = FIELDS.length;
  const lengths: number[] = [];
  const index = new Map<string, number>();
  const out: string[] = [];
  const tf: number[] = [];
  FIELDS.forEach((field, f) => {
    const list = terms[field] ?? [];
    lengths.push(list.length);
    for (const t of list) {
      let i = index.get(t);
      if (i === undefined) {
        index.set(t, (i = out.length));
        out.push(t);
        for (let g = 0; g < F; g++) tf.push(0);
      }
      tf[i * F + f]++;
    }
  });
  return { lengths, terms: out, tf };
}

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
  /** Typed views into one block when built in a batch; arrays once a single upsert extends them. */
  docs: number[] | Uint32Array;
  /** F term frequencies per entry of `docs`. */
  tf: number[] | Uint32Array;
}

/** A posting that single upserts can push to. */
function growable(p: Posting): { docs: number[]; tf: number[] } {
  if (!Array.isArray(p.docs)) p.docs = Array.from(p.docs);
  if (!Array.isArray(p.tf)) p.tf = Array.from(p.tf);
  return p as { docs: number[]; tf: number[] };
}

/** A zero-filled array of `n` small integers; past V8's pre-sizing limit it grows by push instead. */
function sized(n: number): number[] {
  if (n <= 50_000) return new Array<number>(n).fill(0);
  const a: number[] = [];
  for (let i = 0; i < n; i++) a.push(0);
  return a;
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
    this.upsertCounts(key, countTerms(terms));
  }

  /** Adds or replaces the document `key` from counted terms (see `countTerms`; persisted snapshots). */
  upsertCounts(key: string, counts: TermCounts): void {
    this.remove(key);
    this.dfCache.clear();
    const slot = this.addSlot(key, counts.lengths);
    const { terms, tf } = counts;
    for (let i = 0; i < terms.length; i++) {
      const found = this.postings.get(terms[i]);
      const p = found ? growable(found) : { docs: [] as number[], tf: [] as number[] };
      if (!found) this.postings.set(terms[i], p);
      p.docs.push(slot);
      for (let f = i * F; f < i * F + F; f++) p.tf.push(tf[f]);
    }
  }

  /**
   * `upsertCounts` for many documents at once (a library opened from a snapshot): each posting
   * list grows once to its final size instead of push by push. Same index as one by one.
   */
  upsertManyCounts(batch: readonly (readonly [string, TermCounts])[]): void {
    if (new Set(batch.map(([key]) => key)).size !== batch.length) {
      for (const [key, counts] of batch) this.upsertCounts(key, counts); // the last one wins
      return;
    }
    for (const [key] of batch) this.remove(key);
    this.dfCache.clear();
    const table = batch[0]?.[1].table;
    if (table && batch.every(([, c]) => c.table === table && c.ids)) {
      this.upsertManyIds(batch, table);
      return;
    }
    const grow = new Map<string, number>();
    for (const [, { terms }] of batch) for (const t of terms) grow.set(t, (grow.get(t) ?? 0) + 1);
    const fill = new Map<string, { p: Posting; at: number }>();
    for (const [t, n] of grow) {
      const old = this.postings.get(t);
      const at = old ? old.docs.length : 0;
      const p = { docs: sized(at + n), tf: sized((at + n) * F) };
      if (old) {
        for (let i = 0; i < at; i++) p.docs[i] = old.docs[i];
        for (let i = 0; i < at * F; i++) p.tf[i] = old.tf[i];
      }
      this.postings.set(t, p);
      fill.set(t, { p, at });
    }
    for (const [key, counts] of batch) {
      const slot = this.addSlot(key, counts.lengths);
      const { terms, tf } = counts;
      for (let i = 0; i < terms.length; i++) {
        const w = fill.get(terms[i])!;
        w.p.docs[w.at] = slot;
        for (let f = 0; f < F; f++) w.p.tf[w.at * F + f] = tf[i * F + f];
        w.at++;
      }
    }
  }

  /** `upsertManyCounts` for counts that share one term table: postings found once per term. */
  private upsertManyIds(batch: readonly (readonly [string, TermCounts])[], table: readonly string[]): void {
    const grow = new Uint32Array(table.length);
    for (const [, { ids }] of batch) for (let i = 0; i < ids!.length; i++) grow[ids![i]]++;
    // Every touched posting becomes a slice of two shared blocks (old entries copied first), so
    // filling them writes two arrays instead of allocating and growing one pair per term.
    const start = new Uint32Array(table.length + 1);
    const old: (Posting | undefined)[] = new Array(table.length);
    for (let id = 0; id < table.length; id++) {
      const had = grow[id] ? this.postings.get(table[id]) : undefined;
      old[id] = had;
      start[id + 1] = start[id] + grow[id] + (had ? had.docs.length : 0);
    }
    const docs = new Uint32Array(start[table.length]);
    const tfs = new Uint32Array(start[table.length] * F);
    const at = new Uint32Array(table.length);
    for (let id = 0; id < table.length; id++) {
      if (!grow[id]) continue;
      let w = start[id];
      const had = old[id];
      if (had) {
        for (let i = 0; i < had.docs.length; i++, w++) {
          docs[w] = had.docs[i];
          for (let f = 0; f < F; f++) tfs[w * F + f] = had.tf[i * F + f];
        }
      }
      at[id] = w;
      this.postings.set(table[id], { docs: docs.subarray(start[id], start[id + 1]), tf: tfs.subarray(start[id] * F, start[id + 1] * F) });
    }
    for (const [key, counts] of batch) {
      const slot = this.addSlot(key, counts.lengths);
      const ids = counts.ids!;
      const tf = counts.tf;
      for (let i = 0; i < ids.length; i++) {
        const w = at[ids[i]]++;
        docs[w] = slot;
        for (let f = 0; f < F; f++) tfs[w * F + f] = tf[i * F + f];
      }
    }
  }

  private addSlot(key: string, lengths: readonly number[]): number {
    const slot = this.keyOf.length;
    this.keyOf.push(key);
    this.alive.push(true);
    this.slotOf.set(key, slot);
    for (let f = 0; f < F; f++) {
      this.lengths[f][slot] = lengths[f] ?? 0;
      this.totals[f] += lengths[f] ?? 0;
    }
    return slot;
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
