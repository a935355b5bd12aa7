/**
 * Field-aware BM25 (BM25F): term frequencies from the name, description, headings and body are
 * length-normalised per field, weighted, summed, then saturated once. Supports incremental
 * add/remove so an edited skill re-indexes alone.
 */

import { blendedIdf, type BackgroundPrior } from './background';
import { FIELDS, countTerms, type FieldTerms, type TermCounts } from './termCounts';

/** BM25's idf of a term held by `df` of `n` documents. */
const bm25Idf = (df: number, n: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

export { FIELDS, countTerms, type Field, type FieldTerms, type TermCounts } from './termCounts';

/** Fields that translated request terms do not match (see `search`). */
const NATIVE_ONLY = FIELDS.indexOf('bridgeBody');
/** Fields before this one hold a skill's own text; from it on, the bridge's senses. */
const BRIDGE = FIELDS.indexOf('bridge');
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

/** A whole index as arrays (`LexicalIndex.state`, `restore`): slot order, term ids, postings by term. */
export interface LexicalState {
  keys: readonly string[];
  /** F term counts per document, by slot. */
  lengths: Uint32Array;
  terms: readonly string[];
  from: Uint32Array;
  docs: Uint32Array;
  /** F frequencies per posting (see `LexicalIndex.blockTf`). */
  tf: Uint8Array;
  /** Terms with a frequency over 255: their postings' F frequencies each. */
  wide: readonly (readonly [number, Uint32Array])[];
}

/** Entries appended to a term's postings since the blocks were last built. */
interface Tail {
  docs: number[];
  /** F term frequencies per entry of `docs`. */
  tf: number[];
}

/** Frequencies up to this fit the one-byte block; a term with a larger one gets its own array. */
const NARROW_MAX = 255;
/** Appended entries below this never trigger a rebuild of the blocks (an edit appends a few hundred). */
const TAIL_FOLD_MIN = 65_536;
/** Batches from this size rebuild the blocks; smaller ones append (an edit is a batch of one). */
const BATCH_REBUILD_MIN = 64;
/** Terms, and documents of a batch, per step of a rebuild (see `rebuildSteps`). */
const STEP_ROWS = 4096;
const STEP_DOCS = 64;

/** Runs a job of steps to its end at once. */
function drain(steps: Iterator<unknown>): void {
  while (!steps.next().done);
}

/**
 * The postings live in a few flat typed arrays rather than one pair of arrays per term: a library
 * of a few thousand skills has over a million (term, skill) entries, and per-term objects and
 * four-byte frequencies (mostly zero) would hold several times the memory.
 */
export class LexicalIndex {
  /** Term → id; the postings of a term are found by its id. */
  private termIds = new Map<string, number>();
  /**
   * Postings as of the last build (a batch or a compaction): term id `t < blockTerms` has the
   * entries `blockFrom[t]` to `blockFrom[t + 1]` of `blockDocs`, with F frequencies each in
   * `blockTf` (at `i * F`), or in `wideTf.get(t)` (at `(i - blockFrom[t]) * F`) for a term with
   * a frequency over NARROW_MAX.
   */
  private blockTerms = 0;
  private blockFrom: Uint32Array = new Uint32Array(1);
  private blockDocs: Uint32Array = new Uint32Array(0);
  private blockTf: Uint8Array = new Uint8Array(0);
  private wideTf = new Map<number, Uint32Array>();
  /** Entries added one by one since the last build, by term id; they follow the block's. */
  private readonly tails = new Map<number, Tail>();
  private tailEntries = 0;
  private readonly lengths: number[][] = FIELDS.map(() => []);
  private readonly totals = new Array<number>(F).fill(0);
  private readonly alive: boolean[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly keyOf: string[] = [];
  private dead = 0;
  /** Document frequencies computed since the last change (query weighting asks for many). */
  private readonly dfCache = new Map<string, number>();
  /** `nativeDocs` results (null: no document) and their counts, since the last change. */
  private readonly nativeDocsCache = new Map<string, { bits: Uint32Array | null; n: number }>();
  private changes = 0;

  constructor(
    readonly params: Bm25Params = DEFAULT_BM25,
    /** Background term statistics that keep a small library's rare terms rare (see background.ts). */
    readonly background: BackgroundPrior | null = null,
  ) {}

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
    this.forgetDf();
    const slot = this.addSlot(key, counts.lengths);
    const { terms, tf } = counts;
    for (let i = 0; i < terms.length; i++) {
      const id = this.idOf(terms[i]);
      let tail = this.tails.get(id);
      if (!tail) this.tails.set(id, (tail = { docs: [], tf: [] }));
      tail.docs.push(slot);
      for (let f = i * F; f < i * F + F; f++) tail.tf.push(tf[f]);
    }
    this.tailEntries += terms.length;
    // Folding the tails in once they outgrow the blocks keeps building one by one linear overall.
    if (this.tailEntries > Math.max(TAIL_FOLD_MIN, this.blockDocs.length)) this.rebuild([]);
  }

  /**
   * `upsertCounts` for many documents at once (a library opened from a snapshot): the postings
   * are rebuilt once, at their final size. Same index as one by one.
   */
  upsertManyCounts(batch: readonly (readonly [string, TermCounts])[]): void {
    if (!this.rebuildsFor(batch)) {
      for (const [key, counts] of batch) this.upsertCounts(key, counts); // the last one wins
      return;
    }
    // Removed without compacting one by one (a branch switch replaces most of a library: each
    // compaction is a rebuild), then compacted once, then rebuilt with the batch.
    drain(this.removeForBatch(batch));
    this.rebuild(batch);
  }

  /**
   * `upsertManyCounts` with `pause()` awaited between steps of about `sliceMs` (a branch switch's
   * 2,000 skills held the language server's loop ~0.4 s in one step, then its compaction and its
   * rebuild ~0.25 s each): the removal's compaction, the batch's term ids and the rebuild run a
   * slice at a time. Only the caller's queue may touch the index until it resolves (between
   * slices the index is the one before the batch, less the batch's keys); the same index results.
   */
  async upsertManyCountsSliced(batch: readonly (readonly [string, TermCounts])[], opts: { sliceMs: number; pause: () => Promise<void> }): Promise<void> {
    if (!this.rebuildsFor(batch)) return this.upsertManyCounts(batch);
    const ids: Uint32Array[] = [];
    const tables = new Map<readonly string[], Int32Array>();
    function* assign(index: LexicalIndex): Generator<void> {
      for (const [, counts] of batch) yield void ids.push(index.idsOf(counts, tables));
    }
    for (const steps of [this.removeForBatch(batch), assign(this), this.rebuildSteps(batch, undefined, ids)]) {
      await opts.pause();
      let start = performance.now();
      for (const _ of steps) {
        if (performance.now() - start < opts.sliceMs) continue;
        await opts.pause();
        start = performance.now();
      }
    }
  }

  /** Whether `batch` is rebuilt in one go (large, each key once) rather than upserted one by one. */
  private rebuildsFor(batch: readonly (readonly [string, TermCounts])[]): boolean {
    return batch.length >= BATCH_REBUILD_MIN && new Set(batch.map(([key]) => key)).size === batch.length;
  }

  /** The batch's keys out of the live documents, compacted once when many are dead (in steps). */
  private *removeForBatch(batch: readonly (readonly [string, TermCounts])[]): Generator<void> {
    for (const [key] of batch) this.markRemoved(key);
    if (this.dead > 64 && this.dead > this.keyOf.length / 4) yield* this.compact();
    this.forgetDf();
  }

  private idOf(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) this.termIds.set(term, (id = this.termIds.size));
    return id;
  }

  /** The term ids of counts; a table shared by many counts is looked up once per table entry. */
  private idsOf(counts: TermCounts, tables: Map<readonly string[], Int32Array>): Uint32Array {
    const { ids, table } = counts;
    if (!ids || !table) return Uint32Array.from(counts.terms, (t) => this.idOf(t));
    let mine = tables.get(table);
    if (!mine) tables.set(table, (mine = new Int32Array(table.length).fill(-1)));
    const out = new Uint32Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const x = ids[i];
      if (mine[x] < 0) mine[x] = this.idOf(table[x]);
      out[i] = mine[x];
    }
    return out;
  }

  /**
   * Writes every posting into fresh blocks: per term its block entries, then its tail, then the
   * entries of `batch` in order (the order appending one by one gives). With `remap`, slots map
   * to new slots and those mapped to -1 are dropped, with the terms left without entries. `ids`:
   * the batch's term ids, when assigned already (`upsertManyCountsSliced`).
   */
  private rebuild(batch: readonly (readonly [string, TermCounts])[], remap?: Int32Array, ids?: readonly Uint32Array[]): void {
    drain(this.rebuildSteps(batch, remap, ids));
  }

  /**
   * `rebuild` in steps of STEP_ROWS terms or documents: the fresh arrays are filled between steps
   * and take over, with the batch's slots, in the last, so the index is the old one until then.
   */
  private *rebuildSteps(batch: readonly (readonly [string, TermCounts])[], remap?: Int32Array, ids?: readonly Uint32Array[]): Generator<void> {
    const tables = new Map<readonly string[], Int32Array>();
    const batchIds = ids ?? batch.map(([, counts]) => this.idsOf(counts, tables));
    const T = this.termIds.size;
    const count = new Uint32Array(T);
    const wide = new Uint8Array(T);
    const keep = (slot: number) => !remap || remap[slot] >= 0;
    for (let t = 0; t < this.blockTerms; t++) {
      for (let i = this.blockFrom[t]; i < this.blockFrom[t + 1]; i++) if (keep(this.blockDocs[i])) count[t]++;
      if (this.wideTf.has(t)) wide[t] = 1;
      if (t % STEP_ROWS === 0) yield;
    }
    for (const [t, tail] of this.tails) {
      for (let i = 0; i < tail.docs.length; i++) if (keep(tail.docs[i])) count[t]++;
      if (tail.tf.some((x) => x > NARROW_MAX)) wide[t] = 1;
    }
    for (let j = 0; j < batch.length; j++) {
      const ids = batchIds[j];
      const { tf } = batch[j][1];
      // One-byte counts (a snapshot's) cannot be wide: only the postings are counted.
      const narrow = tf instanceof Uint8Array;
      for (let i = 0; i < ids.length; i++) {
        count[ids[i]]++;
        if (!narrow) for (let f = i * F; f < i * F + F; f++) if (tf[f] > NARROW_MAX) wide[ids[i]] = 1;
      }
      if (j % STEP_DOCS === 0) yield;
    }
    // Terms left without entries lose their ids (only a compaction drops entries).
    const newId = new Int32Array(T);
    let kept = 0;
    for (let t = 0; t < T; t++) newId[t] = count[t] ? kept++ : -1;
    const from = new Uint32Array(kept + 1);
    for (let t = 0; t < T; t++) if (newId[t] >= 0) from[newId[t] + 1] = count[t];
    for (let t = 0; t < kept; t++) from[t + 1] += from[t];
    const docs = new Uint32Array(from[kept]);
    const tfs = new Uint8Array(from[kept] * F);
    const wides = new Map<number, Uint32Array>();
    const at = from.slice(0, kept);
    const put = (t: number, slot: number, tf: ArrayLike<number>, k: number) => {
      const n = newId[t];
      const w = at[n]++;
      docs[w] = remap ? remap[slot] : slot;
      const own = wide[t] ? wides.get(n) : undefined;
      if (own) for (let f = 0, o = (w - from[n]) * F; f < F; f++) own[o + f] = tf[k + f];
      else for (let f = 0, o = w * F; f < F; f++) tfs[o + f] = tf[k + f];
    };
    for (let t = 0; t < T; t++) {
      const n = newId[t];
      if (n < 0) continue;
      if (wide[t]) wides.set(n, new Uint32Array(count[t] * F));
      if (t < this.blockTerms) {
        const own = this.wideTf.get(t);
        const start = this.blockFrom[t];
        for (let i = start; i < this.blockFrom[t + 1]; i++) {
          if (keep(this.blockDocs[i])) put(t, this.blockDocs[i], own ?? this.blockTf, own ? (i - start) * F : i * F);
        }
      }
      const tail = this.tails.get(t);
      if (tail) for (let i = 0; i < tail.docs.length; i++) if (keep(tail.docs[i])) put(t, tail.docs[i], tail.tf, i * F);
      if (t % STEP_ROWS === 0) yield;
    }
    // The batch's slots follow the present ones (added in the last step, as they are written).
    const firstSlot = this.keyOf.length;
    for (let j = 0; j < batch.length; j++) {
      if (j % STEP_DOCS === 0) yield;
      const slot = firstSlot + j;
      const ids = batchIds[j];
      const tf = batch[j][1].tf;
      const doc = remap ? remap[slot] : slot;
      // `put` inlined for the narrow terms: this loop runs once per posting of the whole library.
      for (let i = 0; i < ids.length; i++) {
        const t = ids[i];
        if (wide[t]) {
          put(t, slot, tf, i * F);
          continue;
        }
        const w = at[newId[t]]++;
        docs[w] = doc;
        for (let f = 0, o = w * F, k = i * F; f < F; f++) tfs[o + f] = tf[k + f];
      }
    }
    for (const [key, counts] of batch) this.addSlot(key, counts.lengths);
    if (kept < T) {
      const ids = new Map<string, number>();
      for (const [term, t] of this.termIds) if (newId[t] >= 0) ids.set(term, newId[t]);
      this.termIds = ids;
    }
    this.blockTerms = kept;
    this.blockFrom = from;
    this.blockDocs = docs;
    this.blockTf = tfs;
    this.wideTf = wides;
    this.tails.clear();
    this.tailEntries = 0;
    // What was read between the steps (document frequencies) is of the index before.
    this.forgetDf();
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
    if (this.markRemoved(key) && this.dead > 64 && this.dead > this.keyOf.length / 4) drain(this.compact());
  }

  /** Takes `key` out of the live documents; its postings stay until the next compaction or rebuild. */
  private markRemoved(key: string): boolean {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return false;
    this.forgetDf();
    this.slotOf.delete(key);
    this.alive[slot] = false;
    for (let f = 0; f < F; f++) this.totals[f] -= this.lengths[f][slot];
    this.dead++;
    return true;
  }

  private forgetDf(): void {
    this.dfCache.clear();
    this.nativeDocsCache.clear();
    this.changes++;
  }

  /** Changes so far (any upsert or removal): what `state` was taken at. */
  get version(): number {
    return this.changes;
  }

  /**
   * The index as arrays, which `restore` makes the same index from (a library's snapshot, see
   * node/lexicalSnapshot.ts); null unless every entry is in the blocks (right after a batch).
   */
  state(): LexicalState | null {
    if (this.dead || this.tails.size || this.termIds.size !== this.blockTerms) return null;
    const terms = new Array<string>(this.blockTerms);
    for (const [term, id] of this.termIds) terms[id] = term;
    const n = this.keyOf.length;
    const lengths = new Uint32Array(n * F);
    for (let slot = 0; slot < n; slot++) for (let f = 0; f < F; f++) lengths[slot * F + f] = this.lengths[f][slot];
    return { keys: [...this.keyOf], lengths, terms, from: this.blockFrom, docs: this.blockDocs, tf: this.blockTf, wide: [...this.wideTf] };
  }

  /** Makes this empty index the one `state` was taken of; throws, leaving it empty, when the arrays do not hold together. */
  restore(st: LexicalState): void {
    if (this.keyOf.length || this.termIds.size) throw new Error('restore needs an empty index');
    const n = st.keys.length;
    const T = st.terms.length;
    const P = st.docs.length;
    const bad = (what: string) => new Error(`lexical state: ${what}`);
    if (st.lengths.length !== n * F || st.from.length !== T + 1 || st.from[0] !== 0 || st.from[T] !== P || st.tf.length !== P * F) throw bad('sizes');
    for (let t = 0; t < T; t++) if (st.from[t + 1] < st.from[t]) throw bad('postings out of order');
    for (let i = 0; i < P; i++) if (st.docs[i] >= n) throw bad('a posting past the documents');
    for (const [t, tf] of st.wide) if (!(t < T) || tf.length !== (st.from[t + 1] - st.from[t]) * F) throw bad('wide frequencies');
    const slots = new Map(st.keys.map((k, i) => [k, i]));
    const ids = new Map(st.terms.map((t, i) => [t, i]));
    if (slots.size !== n || ids.size !== T) throw bad('repeated keys or terms');
    this.termIds = ids;
    this.blockTerms = T;
    this.blockFrom = st.from;
    this.blockDocs = st.docs;
    this.blockTf = st.tf;
    this.wideTf = new Map(st.wide);
    st.keys.forEach((key, slot) => {
      this.keyOf.push(key);
      this.alive.push(true);
      this.slotOf.set(key, slot);
    });
    for (let f = 0; f < F; f++) {
      for (let slot = 0; slot < n; slot++) this.lengths[f][slot] = st.lengths[slot * F + f];
      this.totals[f] = this.lengths[f].reduce((a, b) => a + b, 0);
    }
    this.forgetDf();
  }

  /** Every indexed term with its document frequency among live documents (for background statistics). */
  *frequencies(): IterableIterator<[string, number]> {
    for (const term of this.termIds.keys()) {
      const n = this.df(term);
      if (n > 0) yield [term, n];
    }
  }

  /** Document frequency of a term among live documents. */
  df(term: string): number {
    const cached = this.dfCache.get(term);
    if (cached !== undefined) return cached;
    const t = this.termIds.get(term);
    if (t === undefined) return 0;
    let n = 0;
    if (t < this.blockTerms) for (let i = this.blockFrom[t]; i < this.blockFrom[t + 1]; i++) if (this.alive[this.blockDocs[i]]) n++;
    for (const d of this.tails.get(t)?.docs ?? []) if (this.alive[d]) n++;
    // Bounded: requests with junk tokens must not grow it forever.
    if (this.dfCache.size > 100_000) this.dfCache.clear();
    this.dfCache.set(term, n);
    return n;
  }

  /**
   * Number of live documents whose own text (name, description, headings or body) holds a term:
   * unlike `df`, the bridge's English senses of Chinese skills do not count, so the bridge can ask
   * which English words the library really uses without hearing its own word choices back.
   */
  nativeDf(term: string): number {
    this.nativeDocs(term);
    return this.nativeDocsCache.get(term)?.n ?? 0;
  }

  /**
   * The live documents whose own text holds a term (see `nativeDf`), as a bitset by slot; cached
   * until the index changes. Undefined for a term no document holds that way.
   */
  nativeDocs(term: string): Uint32Array | undefined {
    const cached = this.nativeDocsCache.get(term);
    if (cached) return cached.bits ?? undefined;
    const t = this.termIds.get(term);
    let bits: Uint32Array | null = null;
    let n = 0;
    if (t !== undefined) {
      const set = new Uint32Array((this.keyOf.length + 31) >>> 5);
      const mark = (docs: ArrayLike<number>, tfs: ArrayLike<number>, from: number, to: number, tfAt: number) => {
        for (let i = from, k = tfAt; i < to; i++, k += F) {
          const d = docs[i];
          if (!this.alive[d]) continue;
          for (let f = 0; f < BRIDGE; f++) {
            if (tfs[k + f]) {
              set[d >>> 5] |= 1 << (d & 31);
              n++;
              break;
            }
          }
        }
      };
      if (t < this.blockTerms) {
        const from = this.blockFrom[t];
        const own = this.wideTf.get(t);
        mark(this.blockDocs, own ?? this.blockTf, from, this.blockFrom[t + 1], own ? 0 : from * F);
      }
      const tail = this.tails.get(t);
      if (tail) mark(tail.docs, tail.tf, 0, tail.docs.length, 0);
      if (n) bits = set;
    }
    // Bounded to ~32 MB of bitsets (a bit per skill each): requests with junk tokens, or a very
    // large library, must not grow it without end.
    const limit = Math.min(20_000, Math.max(256, Math.floor((32 << 20) / (4 * ((this.keyOf.length + 31) >>> 5) || 1))));
    if (this.nativeDocsCache.size >= limit) this.nativeDocsCache.clear();
    this.nativeDocsCache.set(term, { bits, n });
    return bits ?? undefined;
  }

  idf(term: string): number {
    return blendedIdf(term, this.df(term), this.size, this.background, bm25Idf);
  }

  /** The largest idf a term held by one skill can have (what query sharpening divides by). */
  maxIdf(): number {
    const own = Math.log(1 + (this.size + 0.5) / 1.5);
    if (!this.background || this.background.weight <= 0) return own;
    const pool = Math.log(1 + (this.background.frequencies.size + 0.5) / 1.5);
    return Math.pow(own, 1 - this.background.weight) * Math.pow(pool, this.background.weight);
  }

  /**
   * Scores every document that shares a term with the query. `queryWeights` maps each query
   * term to its weight (e.g. how often the request repeats it). `params` overrides the index's
   * own (the tuning bench scores one index under many settings). Terms in `translated` came from
   * the bridge, not from the request's own words; they skip `bridgeBody`: a translated request
   * against translated bodies matches every Chinese skill a little.
   */
  search(queryWeights: ReadonlyMap<string, number>, params: Bm25Params = this.params, translated?: ReadonlySet<string>): Map<string, number> {
    const n = this.size;
    if (!n) return new Map();
    // Scores accumulate in an array by slot (a Map's get/set per posting was most of a search's
    // time); `touched` keeps the order slots were first scored in, which the result keeps.
    const acc = new Float64Array(this.keyOf.length);
    const seen = new Uint8Array(this.keyOf.length);
    const touched: number[] = [];
    const avg = this.totals.map((t) => Math.max(t / n, 1));
    const { k1, weights, b } = params;
    /** Adds the entries `from` to `to` of `docs`, whose frequencies start at `tf[tfAt]`. */
    const add = (docs: ArrayLike<number>, tfs: ArrayLike<number>, from: number, to: number, tfAt: number, qw: number, idf: number, skip: number) => {
      for (let i = from, k = tfAt; i < to; i++, k += F) {
        const d = docs[i];
        if (!this.alive[d]) continue;
        let tf = 0;
        for (let f = 0; f < F; f++) {
          const raw = tfs[k + f];
          // Settings written before a field existed give it no weight.
          if (raw && weights[f] && f !== skip) tf += (weights[f] * raw) / (1 - (b[f] ?? 0) + ((b[f] ?? 0) * this.lengths[f][d]) / avg[f]);
        }
        if (tf > 0) {
          if (!seen[d]) {
            seen[d] = 1;
            touched.push(d);
          }
          acc[d] += qw * idf * (tf / (k1 + tf));
        }
      }
    };
    for (const [term, qw] of queryWeights) {
      const t = this.termIds.get(term);
      if (t === undefined) continue;
      const idf = this.idf(term);
      if (idf <= 0) continue;
      const skip = translated?.has(term) ? NATIVE_ONLY : -1;
      if (t < this.blockTerms) {
        const from = this.blockFrom[t];
        const own = this.wideTf.get(t);
        add(this.blockDocs, own ?? this.blockTf, from, this.blockFrom[t + 1], own ? 0 : from * F, qw, idf, skip);
      }
      const tail = this.tails.get(t);
      if (tail) add(tail.docs, tail.tf, 0, tail.docs.length, 0, qw, idf, skip);
    }
    const out = new Map<string, number>();
    for (const d of touched) out.set(this.keyOf[d], acc[d]);
    return out;
  }

  /** Drops removed documents from the postings (in steps: see `rebuildSteps`). */
  private *compact(): Generator<void> {
    const remap = new Int32Array(this.keyOf.length).fill(-1);
    const keys: string[] = [];
    this.keyOf.forEach((k, slot) => {
      if (this.alive[slot]) {
        remap[slot] = keys.length;
        keys.push(k);
      }
    });
    yield* this.rebuildSteps([], remap);
    for (let f = 0; f < F; f++) {
      const next: number[] = [];
      remap.forEach((to, from) => {
        if (to >= 0) next[to] = this.lengths[f][from];
      });
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
