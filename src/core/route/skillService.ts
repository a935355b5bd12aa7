/**
 * The routing engine: the composition root of core. It keeps one library's index current (parsed
 * skills, lexical and dense indexes, per-skill analyses; whole-library `index` and one-file
 * `updateFile`) and composes the routing pipeline over it (pipeline.ts: analyse → retrieve →
 * rerank → select → explain) and the library's pair findings (analysis/pairScan.ts).
 */
import { DEFAULT_CONFLICT, judgeSet, profileText, SkillProfiles, type ConflictOptions, type SetJudgement } from '../analysis/conflicts';
import type { DuplicateOptions } from '../analysis/duplicates';
import { scanPairs } from '../analysis/pairScan';
import type { PairScanRun } from '../analysis/scanRun';
import type { PairFinding } from '../analysis/types';
import type { BackgroundFrequencies, BackgroundPrior } from '../index/background';
import { analysisTag, type AnalysisCache, type FieldStore, type LexicalSnapshotStore, type ParseCache, type ReferenceCache } from '../index/caches';
import { LexicalSnapshots } from '../index/lexicalSnapshots';
import { readSkills, type ReadSkills } from '../index/readSkills';
import { runTimeSliced, SLICE_MS, yieldToLoop } from '../jobs/timeSliced';
import { countTerms, LexicalIndex, type TermCounts } from '../index/lexicalIndex';
import { TermTable } from '../index/termTable';
import { decodeSkillBytes, parseSkill } from '../parse/skillDoc';
import { LISTING_RULES, type ClientListing, type ListingClient, type ListingOptions, type ProfileId } from '../profiles';
import type { IndexOptions, IndexStats, LiveSkillService, RouteCandidate, RouteOptions, RouteResult } from '../service';
import { analyse, type Segmenter } from '../text/analyse';
import { contentHash } from '../text/hash';
import { splitPassages } from '../text/passages';
import { BRIDGE_VERSION, Translator, type BilingualDictionary } from '../text/translator';
import type { CancelToken, CrossEncoder, Embedder, Logger, SkillDoc, VectorIndex } from '../types';
import { SILENT_LOGGER } from '../types';
import type { FlushOptions, SkillFileRef, SkillWorkspace, VectorCache } from '../workspace';
import { BruteForceIndex, DenseStore } from './denseStore';
import { SkillVectors } from './skillVectors';
import { ListingViews } from './listingView';
import { encoderLabel } from './queryAdapter';
import { memoQueryVectors } from './queryMemo';
import { RoutingPipeline, type IndexedLibrary, type PipelineParts } from './pipeline';
import { builtInReranker, CrossEncoderReranker, type ListReranker } from './rerank';
import { FieldCache } from './rerankFeatures';
import { libraryTerms } from './libraryTerms';
import type { TermFrequencies } from '../reach/words';
import type { RelevanceModel } from './relevance';
import { DEFAULT_SET, type SetOptions } from './setSelection';
import { capRequest } from './request';
import { DEFAULT_ROUTING, type RoutingSettings } from './settings';
import { cachedReferenceKeys, nameKeys, referenceKey, SkillNames } from './crossRefs';
import { SkillEntry } from './skillEntry';
import { lexicalFields, type TextContext } from './skillText';

export { EMBED_LAYOUT_VERSION } from './skillVectors';
export { analysisFingerprint } from '../index/caches';

export interface SkillServiceInit {
  /** Shown in results and messages (a folder path or a `.jsonl` library). */
  root: string;
  workspace: SkillWorkspace;
  /** Sentence encoder; null turns semantic routing off (say why in `embedderError`). */
  embedder?: Embedder | null;
  embedderError?: string;
  crossEncoder?: CrossEncoder | null;
  /** Vector cache for the embedder in use. */
  cache?: VectorCache;
  /** Persisted lexical analyses (see `AnalysisCache`). */
  analysisCache?: AnalysisCache;
  /** Persisted parsed skills (see `ParseCache`); used only with a workspace that stamps files. */
  parseCache?: ParseCache;
  /** Persisted reference keys of skill bodies (see `ReferenceCache`). */
  referenceCache?: ReferenceCache;
  /** Persisted reranker fields of skills (see `FieldStore`); written when the engine is disposed or flushed. */
  fieldStore?: FieldStore;
  /** The lexical index as the first index built it (see `LexicalSnapshots`); written with the analyses. */
  lexicalSnapshot?: LexicalSnapshotStore;
  /** Makes the vector index; exact search when absent. */
  indexFactory?: (dims: number) => VectorIndex;
  segmenter?: Segmenter;
  /**
   * Chinese → English dictionary for the cross-language bridge (e.g. CC-CEDICT); without one,
   * Chinese requests match only Chinese text and the encoder sees Chinese as unknown tokens.
   */
  dictionary?: BilingualDictionary | null;
  profiles?: readonly ProfileId[];
  settings?: Partial<RoutingSettings>;
  /** Term statistics of a large reference pool (see index/background.ts), weighed by `settings.backgroundWeight`. */
  background?: BackgroundFrequencies | null;
  duplicates?: Partial<DuplicateOptions>;
  /** SKIP-conflict thresholds (see analysis/conflicts.ts). */
  conflicts?: Partial<ConflictOptions>;
  /** The rerank stage; default: `crossEncoder` when given, else the built-in learned reranker. */
  reranker?: ListReranker;
  /** Set-selection thresholds (see setSelection.ts); override the fitted ones. */
  set?: Partial<SetOptions>;
  logger?: Logger;
  /**
   * Read and validate only (`skill-router validate`): `index` parses the skills (from `parseCache`
   * where it can) and keeps them with their findings; nothing is analysed, embedded or written to
   * the analysis and vector caches, so routing finds nothing.
   */
  parseOnly?: boolean;
  /** Called when the service is disposed (close sessions, files). */
  onDispose?: () => Promise<void> | void;
}

/**
 * The engine as benches, training and tests use it: the service plus its pipeline stages and the
 * library's compatibility profiles.
 */
export interface RoutingEngine extends LiveSkillService {
  /** The routing stages over this library (see pipeline.ts). */
  readonly pipeline: RoutingPipeline;
  /** Per-skill compatibility profiles of the current skill list. */
  profiles(): SkillProfiles;
  /**
   * Whether one request could need all of `ids` together, judged from the skills' own text: the
   * predicted SKIP reason of the set (null when compatible) and the verdict of each pair. Unknown
   * ids are left out.
   */
  judgeSet(ids: readonly string[]): SetJudgement;
  /** The library as `client` lists it (core/profiles.ts `simulateListing`; `opts` for what-ifs). */
  listing(client: ListingClient, opts?: ListingOptions): ClientListing;
  /** The routing stages over `client`'s listing (built on first use, rebuilt when the skills change). */
  listingPipeline(client: ListingClient, token?: CancelToken, opts?: ListingOptions): Promise<RoutingPipeline>;
  /** The lexical index's document frequencies and each skill's own terms (reach's word weights). */
  termFrequencies(): TermFrequencies;
}

/**
 * Skills analysed one at a time (edits) after which an index reads its analysis snapshot back
 * compact (a batch keeps its own compact: `TermTable`); also the fresh parses after which a read
 * takes the parse snapshot's documents.
 */
const COMPACT_AFTER = 500;

/** Creates the engine over injected capabilities. */
export function createSkillService(init: SkillServiceInit): RoutingEngine {
  return new Engine(init);
}

class Engine implements RoutingEngine {
  readonly root: string;
  readonly pipeline: RoutingPipeline;
  private readonly settings: RoutingSettings;
  private readonly log: Logger;
  private readonly profileIds: readonly ProfileId[];
  private readonly entries = new Map<string, SkillEntry>();
  private readonly lexical: LexicalIndex;
  private readonly snapshots: LexicalSnapshots;
  /** The background term statistics and their weight, when given. */
  private readonly prior: BackgroundPrior | null;
  private readonly text: TextContext;
  private readonly dense: DenseStore | null = null;
  /** Part of every analysis key: changes when the analyser's output for a probe text changes. */
  private readonly analysisTag: string;
  private failed: { path: string; message: string }[] = [];
  private sorted: SkillDoc[] = [];
  private compat: { docs: readonly SkillDoc[]; profiles: SkillProfiles } | null = null;
  /** Analysed profile texts of the last profile build (analyse output is never mutated). */
  private profileTerms = new Map<string, string[]>();
  private fresh = 0; // skills analysed one at a time (not compact) since the last compaction
  private readonly fieldCache: FieldCache;
  /** The skills' vectors (null without an embedder). */
  private readonly vectors: SkillVectors | null = null;
  /** Who names whom: the names of the current skills (see crossRefs.ts). */
  private names = new SkillNames([]);
  /** What every pipeline (the full view's, the listings') is composed of. */
  private readonly pipelineParts: PipelineParts;
  /** What the pipelines read of the library. */
  private readonly indexed: IndexedLibrary;
  /** The pipeline of `RouteOptions.wordsOnly`, made on first use. */
  private words: RoutingPipeline | undefined;
  /** Each client's listing and its routing stages, for the skill list they were made from. */
  private readonly listingViews: ListingViews;

  constructor(private readonly init: SkillServiceInit) {
    this.root = init.root;
    this.settings = { ...DEFAULT_ROUTING, ...init.settings };
    this.log = init.logger ?? SILENT_LOGGER;
    this.profileIds = init.profiles ?? ['spec'];
    this.prior = init.background && this.settings.backgroundWeight > 0 ? { frequencies: init.background, weight: this.settings.backgroundWeight } : null;
    this.lexical = new LexicalIndex(this.settings.bm25, this.prior);
    this.snapshots = new LexicalSnapshots(init.lexicalSnapshot, this.log);
    this.text = {
      segmenter: init.segmenter,
      translator: init.dictionary ? new Translator(init.dictionary) : null,
      encoderReadsChinese: init.embedder?.info.languages?.includes('zh') ?? false,
    };
    this.analysisTag = `${analysisTag()}${init.dictionary ? `:bridge${BRIDGE_VERSION}` : ''}${init.segmenter ? ':seg' : ''}`;
    if (init.embedder) {
      const dims = init.embedder.info.dims;
      this.dense = new DenseStore(init.indexFactory ? init.indexFactory(dims) : new BruteForceIndex(), this.settings.bodyRowPenalty);
      this.vectors = new SkillVectors({
        embedder: init.embedder,
        store: this.dense,
        cache: init.cache,
        text: this.text,
        bodyPassages: this.settings.bodyPassages,
        passagesOf: (doc) => (this.entries.get(doc.id)?.doc.hash === doc.hash ? this.entries.get(doc.id)!.passages : splitPassages(doc.body)),
        log: this.log,
      });
    }
    this.fieldCache = new FieldCache(
      (text) => analyse(text, { segmenter: init.segmenter }),
      // From the analysis already made (or loaded): re-analysing would load the dictionary again.
      (doc) => (this.entries.get(doc.id)?.routing === doc ? this.entries.get(doc.id)!.bridge : this.text.translator ? (lexicalFields(doc, this.text).bridge ?? []) : []),
      init.fieldStore ? { fields: init.fieldStore, tag: this.analysisTag } : undefined,
    );
    const entries = this.entries;
    const library: IndexedLibrary = {
      lexical: this.lexical,
      dense: this.dense,
      doc: (id) => entries.get(id)?.routing,
      passages: (id) => entries.get(id)?.passages ?? [],
      feedback: (id) => entries.get(id)?.feedback ?? [],
      profiles: () => this.profiles(),
      fields: this.fieldCache,
      mentions: (id) => entries.get(id)?.mentions ?? [],
      named: (name) => this.names.named(name),
    };
    const { reranker, fitted, relevance } = this.rerankStage();
    this.pipelineParts = {
      settings: this.settings,
      text: this.text,
      // Both views (and reach's re-routings) embed a request once.
      embedder: init.embedder ? memoQueryVectors(init.embedder) : null,
      embedderError: init.embedderError,
      reranker,
      set: { reranked: { ...DEFAULT_SET, ...fitted, ...init.set }, firstStage: { ...DEFAULT_SET, ...init.set } },
      relevance,
      log: this.log,
    };
    this.pipeline = new RoutingPipeline(library, this.pipelineParts);
    this.indexed = library;
    const views = { settings: this.settings, text: this.text, prior: this.prior, embedder: init.embedder ?? null };
    this.listingViews = new ListingViews({ ...views, vectorsOf: (id) => this.dense?.vectors(id) }, this.pipelineParts);
  }

  /**
   * The rerank stage: the injected one, a cross-encoder, or the shipped learned reranker (the
   * heuristic one when its weights do not fit this build), the set thresholds fitted to its
   * scores and the relevance calibrated on them (the learned model's only: others use the default
   * thresholds and report no relevance).
   */
  private rerankStage(): { reranker: ListReranker; fitted?: Partial<SetOptions>; relevance?: RelevanceModel } {
    if (this.init.reranker) return { reranker: this.init.reranker };
    if (this.init.crossEncoder) return { reranker: new CrossEncoderReranker(this.init.crossEncoder, (id) => this.rerankText(id)) };
    const built = builtInReranker();
    if (built.error === undefined) return { reranker: built.reranker, fitted: built.reranker.model.set, relevance: built.reranker.model.relevance };
    this.log.warn(`${built.error}; using the heuristic reranker`);
    return { reranker: built.reranker };
  }

  skills(): readonly SkillDoc[] {
    return this.sorted;
  }

  /**
   * The pipeline without the encoder or the skills' vectors (`RouteOptions.wordsOnly`): the same
   * stages as a library opened without a model, over the same word index.
   */
  private wordsPipeline(): RoutingPipeline {
    if (!this.init.embedder) return this.pipeline;
    this.words ??= new RoutingPipeline(
      { ...this.indexed, dense: null },
      { ...this.pipelineParts, embedder: null, embedderError: 'the skill vectors are still being built' },
    );
    return this.words;
  }

  failures(): readonly { path: string; message: string }[] {
    return this.failed;
  }

  pairFindings(skillId?: string, run?: PairScanRun): Promise<PairFinding[]> {
    // Probes are routed through this engine's own pipeline; the scan caches by content (run.cache).
    return scanPairs({ docs: this.sorted, profiles: this.profiles(), pipeline: this.pipeline, options: this.init.duplicates }, skillId, run);
  }

  judgeSet(ids: readonly string[]): SetJudgement {
    const profiles = this.profiles();
    return judgeSet(ids.flatMap((id) => profiles.get(id) ?? []), { ...DEFAULT_CONFLICT, ...this.init.conflicts });
  }

  /** Per-skill compatibility profiles, rebuilt when the skill list changes. */
  profiles(): SkillProfiles {
    if (this.compat?.docs !== this.sorted) {
      const seg = this.init.segmenter;
      // An edit updates the profiles (weights are library-wide), reusing the last build's analyses.
      const last = this.profileTerms;
      const next = new Map<string, string[]>();
      let building = true;
      const analyser = (text: string) => {
        if (!building) return analyse(text, { segmenter: seg });
        let terms = next.get(text) ?? last.get(text);
        terms ??= analyse(text, { segmenter: seg });
        next.set(text, terms);
        return terms;
      };
      const profiles = new SkillProfiles(this.sorted, analyser, (id) => this.dense?.first(id), this.prior, this.compat?.profiles);
      building = false;
      if (profiles.updated) for (const [text, terms] of next) last.set(text, terms); // the others' texts still hold
      else this.profileTerms = next;
      this.fieldCache.prune(new Set(this.entries.keys()));
      this.compat = { docs: this.sorted, profiles };
    }
    return this.compat.profiles;
  }

  listing(client: ListingClient, opts: ListingOptions = {}): ClientListing {
    return this.listingViews.listing(this.sorted, client, opts);
  }

  listingPipeline(client: ListingClient, token?: CancelToken, opts: ListingOptions = {}): Promise<RoutingPipeline> {
    return this.listingViews.pipeline(this.sorted, client, token, opts);
  }

  async route(full: string, opts: RouteOptions = {}): Promise<RouteResult> {
    const t0 = performance.now();
    // A request is read up to MAX_REQUEST_CHARS characters and MAX_REQUEST_WORDS words.
    const capped = capRequest(full);
    const query = capped.truncated ? capped.text : full;
    const pipeline = opts.view ? await this.listingPipeline(opts.view.client, opts.token, opts.view.listing) : opts.wordsOnly ? this.wordsPipeline() : this.pipeline;
    const ranking = await pipeline.rank(query, { rerank: opts.rerank, select: opts.select, only: opts.only, token: opts.token });
    const explain = opts.passages === false ? null : pipeline.explainer(ranking);
    // The set as far as the shown results reach (a member past `k` is not shown, so not named).
    const shown = new Set(ranking.candidates.slice(0, opts.k ?? 10).map((c) => c.id));
    const set = ranking.set ? { ids: ranking.set.ids.filter((id) => shown.has(id)), rejected: ranking.set.rejected.filter((r) => shown.has(r.partnerId)) } : null;
    const members = new Set(set?.ids);
    const aside = new Map((set?.rejected ?? []).map((r) => [r.id, { id: r.partnerId, reason: r.reason, evidence: r.evidence }]));
    // A candidate set aside because it does the same job as a member is as relevant as that
    // member: a twin behind its copy gets little of the reranker's probability (0.01 in a library
    // of three), which says it is the second choice, not that it does not fit. Not one a rule gave
    // relevance 0: the panel would call it relevant beside the reason it is not.
    const sameJobAsMember = (id: string) => aside.get(id)?.reason === 'function_redundant' && members.has(aside.get(id)!.id);
    const candidates: RouteCandidate[] = ranking.candidates.slice(0, opts.k ?? 10).map((c, i) => {
      const doc = this.entries.get(c.id)!.doc;
      return {
        skillId: c.id,
        name: doc.name,
        path: doc.path,
        description: doc.description,
        rank: i + 1,
        scores: {
          dense: c.dense,
          lexical: c.lexical,
          fused: c.fused,
          ...(c.dense !== null ? { denseNorm: c.denseNorm } : {}),
          lexicalWeight: c.lexicalWeight,
          rerank: c.rerank,
          ...(c.relevance !== null ? { relevance: c.relevance } : {}),
          final: c.relevance ?? c.rerank ?? c.fused,
        },
        passage: explain ? explain(c.id) : null,
        ...(ranking.floor !== null && c.relevance !== null ? { relevant: ranking.match !== 'none' && !c.zeroed && (c.relevance >= ranking.floor || sameJobAsMember(c.id)) } : {}),
        ...(members.has(c.id) ? { inSet: true as const } : {}),
        ...(aside.has(c.id) ? { setAsideFor: aside.get(c.id)! } : {}),
        ...(c.zeroed ? { notRelevant: c.zeroed } : {}),
        ...(c.notFor ? { notFor: c.notFor } : {}),
        ...(c.otherStack ? { otherStack: c.otherStack } : {}),
        ...(c.invoked ? { invoked: c.invoked } : {}),
      };
    });
    const result: RouteResult = { query: full, candidates, timings: { ...ranking.timings, totalMs: performance.now() - t0 }, dense: ranking.dense };
    if (query.length < full.length) result.readChars = query.length;
    if (ranking.reranker) result.reranker = ranking.reranker;
    if (ranking.match) result.match = ranking.match;
    if (opts.view) result.view = { kind: 'listing', client: opts.view.client, label: LISTING_RULES[opts.view.client].label };
    if (ranking.request.readAs) result.readAs = ranking.request.readAs;
    if (ranking.unread) result.unread = ranking.unread;
    if (ranking.request.declined.length) result.declined = ranking.request.declined;
    if (set?.ids.length) result.set = { ids: set.ids, size: set.ids.length, rejected: set.rejected };
    return result;
  }

  async index(opts: IndexOptions = {}): Promise<IndexStats> {
    const t0 = Date.now();
    const { token } = opts;
    let read: ReadSkills | undefined = opts.parsed
      ? { docs: [...opts.parsed.docs], failed: [...opts.parsed.failed], flush: async () => undefined, reopen: async () => new Map<string, SkillDoc>() }
      : await readSkills(this.init.workspace, this.profileIds, { parseCache: this.init.parseCache, token, progress: opts.progress });
    if (this.init.parseOnly) return this.keepParsed(read.docs, read.failed, read.flush, t0);
    const { docs, failed } = await this.snapshotDocs(read);
    read = undefined; // its closures hold the parses
    this.names = new SkillNames(docs);
    const seen = new Set<string>();
    const changed: SkillDoc[] = [];
    for (const doc of docs) {
      seen.add(doc.id);
      const prev = this.entries.get(doc.id);
      if (prev && prev.doc.hash === doc.hash && sameList(prev.mentions, this.names.mentions(doc, prev.refKeys))) {
        prev.doc.findings = doc.findings;
        continue;
      }
      changed.push(doc);
    }
    // The encoder runs off this thread (the node host puts it in a worker): the lexical analysis
    // runs on this one meanwhile, in slices, so both cores work on a cold index.
    const embedding = this.vectors ? this.vectors.embedMissing(docs, opts) : Promise.resolve({ cached: 0, embedded: 0 });
    // Settled at once so a failed analysis does not leave the embedding's rejection unhandled.
    embedding.catch(() => undefined);
    await this.upsertLexicalInSlices(changed, token);
    // Skills gone are dropped before the wait for the vectors, so that a words-only answer
    // meanwhile (`onWords`) lists the library as this index leaves it.
    for (const id of [...this.entries.keys()]) {
      if (!seen.has(id)) {
        this.entries.delete(id);
        this.lexical.remove(id);
        this.vectors?.remove(id);
      }
    }
    this.failed = failed;
    this.resort();
    opts.onWords?.();
    const { cached, embedded } = await embedding;
    await yieldToLoop();
    await this.flushAnalyses();
    if (this.fresh >= COMPACT_AFTER) await this.compactAnalyses();
    await this.vectors?.finish(this.sorted, opts.progress);
    const stats: IndexStats = {
      skills: this.entries.size,
      cached,
      embedded,
      failed: failed.length,
      ms: Date.now() - t0,
      model: this.init.embedder ? encoderLabel(this.init.embedder.info) : null,
    };
    if (!this.init.embedder) stats.denseDisabled = this.init.embedderError ?? 'no embedding model configured';
    return stats;
  }

  /** The parse-only index (`init.parseOnly`): the skills and their findings, nothing derived. */
  private async keepParsed(docs: readonly SkillDoc[], failed: { path: string; message: string }[], flushParses: () => Promise<void>, t0: number): Promise<IndexStats> {
    this.entries.clear();
    for (const doc of docs) this.entries.set(doc.id, new SkillEntry(doc, [], [], [], 0));
    this.failed = failed;
    this.resort();
    await flushParses().catch((err) => this.log.warn(`could not write the parsed-skill snapshot: ${err instanceof Error ? err.message : err}`));
    return { skills: docs.length, cached: 0, embedded: 0, failed: failed.length, ms: Date.now() - t0, model: null, denseDisabled: 'read and validate only' };
  }

  skill(id: string): SkillDoc | undefined { return this.entries.get(id)?.doc; }

  termFrequencies(): TermFrequencies {
    const counts = (e: SkillEntry) => this.init.analysisCache?.get(this.keyOf(e))?.counts ?? countTerms(lexicalFields(e.routing, this.text));
    return libraryTerms(this.lexical, (id) => (this.entries.has(id) ? counts(this.entries.get(id)!) : undefined), (text) => analyse(text, { segmenter: this.init.segmenter }));
  }

  async updateFile(ref: SkillFileRef, bytes: Uint8Array | null, opts: { token?: CancelToken } = {}): Promise<SkillDoc | null> {
    this.failed = this.failed.filter((f) => f.path !== ref.path);
    let doc: SkillDoc | null = null;
    if (bytes) {
      try {
        const { text, invalidUtf8, bom } = decodeSkillBytes(bytes);
        doc = parseSkill(ref, text, this.profileIds, { invalidUtf8, bom });
      } catch (err) {
        this.failed.push({ path: ref.path, message: err instanceof Error ? err.message : String(err) });
        this.removeEntry(ref.id);
        throw err;
      }
    }
    if (!doc) {
      this.removeEntry(ref.id);
      return null;
    }
    const prev = this.entries.get(doc.id);
    if (prev && prev.doc.hash === doc.hash) {
      prev.doc.findings = doc.findings;
    } else {
      const renamed = !prev || !sameList(nameKeys(prev.doc), nameKeys(doc));
      if (renamed) {
        if (prev) this.names.remove(prev.doc);
        this.names.add(doc);
      }
      this.upsertLexical(doc);
      if (renamed) this.refreshMentions(doc.id);
      // What is derived from the whole list (the conflict profiles) keys on the list's identity and
      // reads names and descriptions only: an edit that keeps them swaps the skill in place.
      const sameListing = prev && prev.doc.name === doc.name && prev.doc.description === doc.description && prev.doc.lang === doc.lang;
      const at = sameListing ? this.sorted.indexOf(prev.doc) : -1;
      if (at >= 0) this.sorted[at] = doc;
      else this.resort();
    }
    const entry = this.entries.get(doc.id);
    if (this.vectors && entry) await this.vectors.embedOne(entry.doc, () => this.entries.get(entry.doc.id) === entry, opts.token);
    return this.entries.get(doc.id)?.doc ?? null;
  }

  warmUp(): void {
    if (!this.sorted.some((d) => d.lang === 'zh')) return;
    analyse('中文技能', { segmenter: this.init.segmenter });
    this.text.translator?.words('中文技能');
  }

  async flushCache(opts?: FlushOptions): Promise<void> {
    if (this.init.parseOnly) return;
    await this.flushAnalyses(opts);
    await this.flushFields(opts);
    await this.vectors?.flush(this.sorted, opts);
  }

  private removeEntry(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.lexical.remove(id);
    this.vectors?.remove(id);
    this.names.remove(entry.doc);
    this.refreshMentions(id);
    this.resort();
  }

  /**
   * Re-analyses the skills whose own body changed because a skill's name came or went (`except`:
   * the skill that did, analysed already): their lines naming it are blanked, or no longer.
   */
  private refreshMentions(except: string): void {
    const stale = [...this.entries.values()].filter((e) => e.doc.id !== except && e.refKeys.length && !sameList(e.mentions, this.names.mentions(e.doc, e.refKeys)));
    if (stale.length) this.upsertLexical(...stale.map((e) => e.doc));
  }

  private resort(): void {
    this.sorted = [...this.entries.values()].map((e) => e.doc).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** `upsertLexical` in slices of about 50 ms, letting other work (the encoder's batches) in between. */
  private async upsertLexicalInSlices(docs: readonly SkillDoc[], token?: CancelToken): Promise<void> {
    const batch: [string, TermCounts][] = [];
    const keys: string[] = [];
    const table = new TermTable();
    await runTimeSliced(docs, (doc) => this.analyseOne(doc, batch, keys, table), { token });
    await this.snapshots.fill(this.lexical, batch, keys, () => this.lexical.upsertManyCountsSliced(batch, { sliceMs: SLICE_MS, pause: yieldToLoop }));
  }

  /** Analyses skills (or takes their analyses from the snapshot) and indexes their terms. */
  private upsertLexical(...docs: SkillDoc[]): void {
    const batch: [string, TermCounts][] = [];
    for (const doc of docs) this.analyseOne(doc, batch);
    this.lexical.upsertManyCounts(batch);
  }

  /**
   * Analyses one skill (or takes its analysis from the snapshot), sets its entry, adds its counts
   * to `batch`; with `table`, a fresh analysis is kept over it at once (a batch's analyses are
   * held together: compact, as a reopen reads them).
   */
  private analyseOne(doc: SkillDoc, batch: [string, TermCounts][], keys?: string[], table?: TermTable): void {
    const cache = this.init.analysisCache;
    const prev = this.entries.get(doc.id);
    const refKeys = prev?.doc.hash === doc.hash ? prev.refKeys : cachedReferenceKeys(doc, this.init.referenceCache);
    const mentions = this.names.mentions(doc, refKeys);
    const key = this.analysisKey(doc, mentions);
    const entry = (feedback: string[], ownTerms: number) => new SkillEntry(doc, refKeys, mentions, feedback, ownTerms, key);
    let analysis = cache?.get(key);
    if (!analysis) {
      const fields = lexicalFields(entry([], 0).routing, this.text);
      analysis = {
        counts: countTerms(fields),
        feedback: [...fields.name, ...fields.description, ...(fields.bridge ?? [])],
        profile: analyse(profileText(doc), { segmenter: this.init.segmenter }),
      };
      if (table) analysis = table.compact(analysis);
      else this.fresh++;
      cache?.set(key, analysis);
    }
    this.entries.set(doc.id, entry(analysis.feedback, analysis.counts.lengths[0] + analysis.counts.lengths[1]));
    // The conflict profiles look texts up before analysing them; keyed by the exact text, so a
    // change of what they analyse only misses.
    if (analysis.profile) this.profileTerms.set(profileText(doc), analysis.profile);
    batch.push([doc.id, analysis.counts]);
    keys?.push(key);
  }

  /** The entry's analysis key, made once per entry (a flush asks for every skill's). */
  private keyOf(e: SkillEntry): string {
    return (e.analysisKey ??= this.analysisKey(e.doc, e.mentions));
  }

  private analysisKey(doc: SkillDoc, mentions: readonly string[]): string {
    // The name is analysed too, and without one in the text it is the folder's: the same text in
    // two folders analyses differently. The lines naming other skills are not analysed.
    const named = mentions.length ? `:${contentHash(mentions.join(','))}` : '';
    return `${doc.hash}:${contentHash(doc.name)}${named}:${this.analysisTag}`;
  }

  /**
   * The skills as read, the parse snapshot written at once; after a cold read of many skills, the
   * snapshot's documents in place of the parses (equal, their bodies read from the file when read),
   * so the analysis and the embedding do not hold every body of the library as a string.
   */
  private async snapshotDocs(read: ReadSkills): Promise<{ docs: SkillDoc[]; failed: { path: string; message: string }[] }> {
    await read.flush().catch((err) => this.log.warn(`could not write the parsed-skill snapshot: ${err instanceof Error ? err.message : err}`));
    const lazy = await read.reopen(COMPACT_AFTER);
    const docs = lazy.size ? read.docs.map((d) => (lazy.get(d.id)?.hash === d.hash ? lazy.get(d.id)! : d)) : read.docs;
    return { docs, failed: read.failed };
  }

  /** A cold index's analyses, as written, read back compact (the conflict profiles' terms too). */
  private async compactAnalyses(): Promise<void> {
    const cache = this.init.analysisCache;
    this.fresh = 0;
    if (!cache?.compact) return;
    await cache.compact();
    for (const e of this.entries.values()) {
      const profile = cache.get(this.keyOf(e))?.profile;
      if (profile) this.profileTerms.set(profileText(e.doc), profile);
    }
  }

  private async flushAnalyses(opts?: FlushOptions): Promise<void> {
    const entries = [...this.entries.values()];
    const failed = (what: string) => (err: unknown) => this.log.warn(`could not write the ${what}: ${err instanceof Error ? err.message : err}`);
    await this.init.analysisCache?.flush(new Set(entries.map((e) => this.keyOf(e))), opts).catch(failed('analysis snapshot'));
    await this.init.referenceCache?.flush(new Set(entries.map((e) => referenceKey(e.doc))), opts).catch(failed('reference-key cache'));
    await this.snapshots.flush(this.lexical);
  }

  /** Hands the reranker fields analysed since the last call to the field store, and writes it. */
  private async flushFields(opts?: FlushOptions): Promise<void> {
    const store = this.init.fieldStore;
    if (!store) return;
    while (!this.fieldCache.save(SLICE_MS)) await yieldToLoop();
    const keep = new Set([...this.entries.values()].map((e) => this.fieldCache.storeKey(e.routingHash)!));
    await store.flush(keep, opts).catch((err) => this.log.warn(`could not write the field cache: ${err instanceof Error ? err.message : err}`));
  }

  private rerankText(id: string): string {
    const { doc, passages } = this.entries.get(id)!;
    const first = passages[0]?.text ?? '';
    return `${doc.name}: ${doc.description}\n${first}`.slice(0, 2000);
  }

  async dispose(): Promise<void> {
    await this.flushFields();
    await this.init.embedder?.dispose?.();
    await this.init.crossEncoder?.dispose?.();
    await this.init.onDispose?.();
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
