/**
 * Routing over what an agent sees: the library as a client lists it (name and listed description,
 * nothing of the body), so an author can see where a skill ranks for the agent's own choice, not
 * only for the full text. A view is a second, small index over the same skills: its lexical fields
 * are the name and the listed text, its dense rows the full view's wherever the listed text is
 * the whole description (only cut or dropped descriptions are embedded again), and the same
 * pipeline stages rank over it.
 */
import { SkillProfiles } from '../analysis/conflicts';
import type { BackgroundPrior } from '../index/background';
import { LexicalIndex } from '../index/lexicalIndex';
import { simulateListing, type ClientListing, type ListingClient, type ListingOptions } from '../profiles';
import { analyse } from '../text/analyse';
import { contentHash } from '../text/hash';
import { throwIfCancelled, type CancelToken, type Embedder, type SkillDoc, type VectorIndex } from '../types';
import { BruteForceIndex, DenseStore } from './denseStore';
import { RoutingPipeline, type IndexedLibrary, type PipelineParts } from './pipeline';
import { SkillNames } from './crossRefs';
import { FieldCache } from './rerankFeatures';
import type { RoutingSettings } from './settings';
import { descriptionRows, embedTexts, lexicalFields, type TextContext } from './skillText';

export interface ListingViewInput {
  /** The library's skills (full text). */
  docs: readonly SkillDoc[];
  listing: ClientListing;
  settings: RoutingSettings;
  text: TextContext;
  prior: BackgroundPrior | null;
  /** The full view's vectors of a skill (its description rows first). */
  vectorsOf(id: string): Float32Array[] | undefined;
  embedder: Embedder | null;
  indexFactory?: (dims: number) => VectorIndex;
}

/** A skill as the client lists it: its name, the listed text as its description, no body. */
export function listedDoc(doc: SkillDoc, text: string): SkillDoc {
  // Copied by property descriptors: a spread reads every field, and a skill read from the parse
  // snapshot decodes its body (and keeps it decoded) when read: a listing of 19,909 skills
  // decoded every body of the library (~250 MB of the language server's heap).
  const value = (v: unknown): PropertyDescriptor => ({ value: v, writable: true, enumerable: true, configurable: true });
  return Object.defineProperties({} as SkillDoc, {
    ...Object.getOwnPropertyDescriptors(doc),
    description: value(text),
    body: value(''),
    hash: value(`${doc.hash}~listed:${contentHash(text)}`),
    findings: value([]),
  });
}

/** Builds the index of one client's listing (skills it omits are not in it). */
export async function buildListingView(input: ListingViewInput): Promise<IndexedLibrary> {
  const { text, settings } = input;
  const analyser = (t: string) => analyse(t, { segmenter: text.segmenter });
  const byId = new Map(input.docs.map((d) => [d.id, d]));
  const docs = new Map<string, SkillDoc>();
  const feedback = new Map<string, string[]>();
  const bridges = new Map<string, string[]>();
  const lexical = new LexicalIndex(settings.bm25, input.prior);
  for (const e of input.listing.entries) {
    const doc = byId.get(e.id);
    if (!doc || e.omitted) continue;
    const listed = listedDoc(doc, e.text);
    const fields = lexicalFields(listed, text);
    lexical.upsert(listed.id, fields);
    docs.set(listed.id, listed);
    feedback.set(listed.id, [...fields.name, ...fields.description, ...(fields.bridge ?? [])]);
    bridges.set(listed.id, fields.bridge ?? []);
  }
  let dense: DenseStore | null = null;
  const embedder = input.embedder;
  if (embedder) {
    dense = new DenseStore(input.indexFactory ? input.indexFactory(embedder.info.dims) : new BruteForceIndex(), settings.bodyRowPenalty);
    const todo: { doc: SkillDoc; texts: string[] }[] = [];
    for (const listed of docs.values()) {
      const full = byId.get(listed.id)!;
      const rows = descriptionRows(listed, text);
      const own = input.vectorsOf(listed.id);
      // The listed text is the whole description: the full view's description rows are its rows.
      if (listed.description === full.description && own && own.length >= rows) dense.upsert(listed.id, own.slice(0, rows), rows);
      else todo.push({ doc: listed, texts: embedTexts(listed, [], 0, text).texts });
    }
    const flat = todo.flatMap((t, i) => t.texts.map((s) => ({ i, s })));
    const vectors: Float32Array[][] = todo.map(() => []);
    for (let at = 0; at < flat.length; at += 256) {
      const batch = flat.slice(at, at + 256);
      const out = await embedder.embed(batch.map((b) => b.s), 'passage');
      batch.forEach((b, j) => vectors[b.i].push(out[j]));
    }
    todo.forEach((t, i) => dense!.upsert(t.doc.id, vectors[i], descriptionRows(t.doc, text)));
    if (dense.index.prepare) await dense.index.prepare(dense.signature((id) => docs.get(id)?.hash ?? ''));
  }
  const sorted = [...docs.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let profiles: SkillProfiles | undefined;
  let names: SkillNames | undefined;
  const fields = new FieldCache(analyser, (doc) => bridges.get(doc.id) ?? []);
  return {
    lexical,
    dense,
    doc: (id) => docs.get(id),
    passages: () => [],
    feedback: (id) => feedback.get(id) ?? [],
    profiles: () => (profiles ??= new SkillProfiles(sorted, analyser, (id) => dense?.first(id), input.prior)),
    fields,
    mentions: () => [],
    named: (name) => (names ??= new SkillNames(sorted)).named(name),
  };
}

/**
 * The listings and listing-view pipelines of one engine, kept per skill list (the engine's sorted
 * list: a new list is a new library) and per client and options.
 */
export class ListingViews {
  private readonly listings = new Map<string, { docs: readonly SkillDoc[]; listing: ClientListing }>();
  private readonly views = new Map<string, { docs: readonly SkillDoc[]; pipeline: Promise<RoutingPipeline> }>();

  constructor(
    private readonly input: Omit<ListingViewInput, 'docs' | 'listing'>,
    private readonly parts: PipelineParts,
  ) {}

  listing(docs: readonly SkillDoc[], client: ListingClient, opts: ListingOptions): ClientListing {
    const key = `${client}${JSON.stringify(opts)}`;
    const hit = this.listings.get(key);
    if (hit && hit.docs === docs) return hit.listing;
    const listing = simulateListing(docs, client, opts);
    keepRecent(this.listings, docs);
    this.listings.set(key, { docs, listing });
    return listing;
  }

  pipeline(docs: readonly SkillDoc[], client: ListingClient, token: CancelToken | undefined, opts: ListingOptions): Promise<RoutingPipeline> {
    const key = `${client}${JSON.stringify(opts)}`;
    const hit = this.views.get(key);
    if (hit && hit.docs === docs) return hit.pipeline;
    const pipeline = buildListingView({ ...this.input, docs, listing: this.listing(docs, client, opts) }).then((library) => {
      throwIfCancelled(token);
      return new RoutingPipeline(library, this.parts);
    });
    // A failed or cancelled build is not kept: the next request builds again.
    pipeline.catch(() => this.views.get(key)?.pipeline === pipeline && this.views.delete(key));
    keepRecent(this.views, docs);
    this.views.set(key, { docs, pipeline });
    return pipeline;
  }
}

/**
 * Forgets the listings and views of older skill lists, and all but the newest few of this one:
 * what-if listings (`reach` verifying words) are keyed by their options and would pile up.
 */
function keepRecent(cache: Map<string, { docs: readonly SkillDoc[] }>, docs: readonly SkillDoc[]): void {
  for (const [key, v] of cache) if (v.docs !== docs) cache.delete(key);
  while (cache.size >= 8) cache.delete(cache.keys().next().value!);
}
