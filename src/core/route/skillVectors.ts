/**
 * A library's skill vectors: which skills are embedded and current, the vector cache (keyed by
 * what is embedded, so a reopen embeds only what changed), batched embedding of a whole library
 * and of one edited skill, and the vector index's build. The engine (skillService.ts) owns one.
 */
import { BRIDGE_VERSION } from '../text/translator';
import type { Passage } from '../text/passages';
import type { CancelToken, Embedder, Logger, ProgressSink, SkillDoc } from '../types';
import { throwIfCancelled } from '../types';
import type { FlushOptions, VectorCache } from '../workspace';
import type { DenseStore } from './denseStore';
import { descriptionRows, embedTexts, type TextContext } from './skillText';

/**
 * Bump when what gets embedded per skill changes, so cached vectors are not reused.
 * 2: URLs dropped from embedded text; Chinese skills get a bridged-English row.
 */
export const EMBED_LAYOUT_VERSION = 3;

// Large chunks let the embedder sort texts by length across skills, so batches pad little.
const EMBED_BATCH = 256;
/** Passages embedded in one index after which the encoder is asked to give back its batch memory. */
const RECYCLE_AFTER = 2_000;

export interface SkillVectorsInit {
  embedder: Embedder;
  store: DenseStore;
  cache?: VectorCache;
  text: TextContext;
  /** Body passages embedded per skill after its description rows. */
  bodyPassages: number;
  /** A skill's body passages (split once, by the engine's entry when it is current). */
  passagesOf(doc: SkillDoc): readonly Passage[];
  log: Logger;
}

export class SkillVectors {
  /** The document hash each skill's vectors were made for. */
  private readonly embeddedHash = new Map<string, string>();

  constructor(private readonly init: SkillVectorsInit) {}

  get store(): DenseStore {
    return this.init.store;
  }

  /** Whether a skill's vectors are in the store and made from this version of it. */
  isCurrent(doc: SkillDoc): boolean {
    return this.init.store.has(doc.id) && this.embeddedHash.get(doc.id) === doc.hash;
  }

  remove(id: string): void {
    this.init.store.remove(id);
    this.embeddedHash.delete(id);
  }

  /** Keys made, per document object (a warm index asks for each skill's three times). */
  private readonly keys = new WeakMap<SkillDoc, string>();

  /** The vector cache's key of a skill version. */
  keyOf(doc: SkillDoc): string {
    let key = this.keys.get(doc);
    if (key === undefined) this.keys.set(doc, (key = this.makeKey(doc)));
    return key;
  }

  private makeKey(doc: SkillDoc): string {
    // Only a Chinese skill's vectors depend on the bridge (its bridged-English row).
    const bridged = descriptionRows(doc, this.init.text) === 2 ? String(BRIDGE_VERSION) : '';
    return `${doc.hash}:${EMBED_LAYOUT_VERSION}:${this.init.bodyPassages}${this.init.text.translator ? `:bridge${bridged}` : ''}`;
  }

  /** What gets embedded for one skill (see skillText.embedTexts). */
  textsOf(doc: SkillDoc): string[] {
    // Body passages are split only when some are embedded (none by default).
    const passages = this.init.bodyPassages ? this.init.passagesOf(doc) : [];
    return embedTexts(doc, passages, this.init.bodyPassages, this.init.text).texts;
  }

  /**
   * Gives every skill of `docs` its vectors: from the store when current, else from the cache,
   * else from the encoder (in large batches across skills).
   */
  async embedMissing(docs: readonly SkillDoc[], opts: { token?: CancelToken; progress?: ProgressSink }): Promise<{ cached: number; embedded: number }> {
    const { embedder, store, cache, text } = this.init;
    let cached = 0;
    const todo: { doc: SkillDoc; texts: string[] }[] = [];
    for (const doc of docs) {
      if (this.isCurrent(doc)) continue;
      const hit = cache?.get(this.keyOf(doc));
      if (hit && hit.length && hit[0].length === embedder.info.dims) {
        store.upsert(doc.id, hit, descriptionRows(doc, text));
        this.embeddedHash.set(doc.id, doc.hash);
        cached++;
      } else {
        todo.push({ doc, texts: this.textsOf(doc) });
      }
    }
    const total = todo.reduce((n, t) => n + t.texts.length, 0);
    let done = 0;
    opts.progress?.('embed', 0, total);
    // Batches span skills so the encoder always sees full batches.
    const flat = todo.flatMap((t, i) => t.texts.map((s) => ({ i, s })));
    const vectors: Float32Array[][] = todo.map(() => []);
    for (let s = 0; s < flat.length; s += EMBED_BATCH) {
      throwIfCancelled(opts.token);
      const batch = flat.slice(s, s + EMBED_BATCH);
      const out = await embedder.embed(batch.map((b) => b.s), 'passage', opts.token);
      batch.forEach((b, j) => vectors[b.i].push(out[j]));
      done += batch.length;
      opts.progress?.('embed', done, total);
    }
    todo.forEach((t, i) => {
      store.upsert(t.doc.id, vectors[i], descriptionRows(t.doc, text));
      this.embeddedHash.set(t.doc.id, t.doc.hash);
      cache?.set(this.keyOf(t.doc), vectors[i]);
    });
    // Requests are short: what the runtime kept for these batches is not needed again.
    if (total >= RECYCLE_AFTER) embedder.recycle?.().catch((err) => this.init.log.warn(`the encoder could not start afresh: ${err instanceof Error ? err.message : err}`));
    return { cached, embedded: todo.length };
  }

  /**
   * Embeds one skill unless its vectors are current (from the store or the cache). `stillCurrent`
   * says whether the skill is still the library's after the encoder's wait (another update may
   * have replaced it meanwhile).
   */
  async embedOne(doc: SkillDoc, stillCurrent: () => boolean, token?: CancelToken): Promise<void> {
    const { embedder, store, cache, text } = this.init;
    if (this.isCurrent(doc)) return;
    const key = this.keyOf(doc);
    let vectors = cache?.get(key);
    if (!vectors?.length || vectors[0].length !== embedder.info.dims) {
      vectors = await embedder.embed(this.textsOf(doc), 'passage', token);
      cache?.set(key, vectors);
    }
    if (!stillCurrent()) return;
    store.upsert(doc.id, vectors, descriptionRows(doc, text));
    this.embeddedHash.set(doc.id, doc.hash);
  }

  /** Builds the vector index over `docs` (the library's skills) and writes the vector cache. */
  async finish(docs: readonly SkillDoc[], progress?: ProgressSink): Promise<void> {
    const store = this.init.store;
    const keyOf = new Map(docs.map((d) => [d.id, this.keyOf(d)]));
    if (store.index.prepare) {
      progress?.('vector index', 0, 1);
      // Keyed like the vectors themselves, so a graph of vectors from an older layout or bridge is
      // not reused.
      await store.index.prepare(store.signature((id) => keyOf.get(id) ?? ''));
      progress?.('vector index', 1, 1);
    }
    await this.flush(docs).catch((err) => this.init.log.warn(`could not write the vector cache: ${err instanceof Error ? err.message : err}`));
  }

  /** Writes the vector cache, keeping the entries of `docs`; rejects when it cannot. */
  async flush(docs: readonly SkillDoc[], opts?: FlushOptions): Promise<void> {
    await this.init.cache?.flush(new Set(docs.map((d) => this.keyOf(d))), opts);
  }
}
