/**
 * The routing engine: indexes a library (lexical + dense), routes a request through
 * retrieve → fuse → rerank, and keeps per-stage scores for every candidate.
 */
import { decodeSkillBytes, parseSkill } from '../parse/skillDoc';
import type { ProfileId } from '../parse/validate';
import type { IndexOptions, IndexStats, MatchedPassage, RouteCandidate, RouteOptions, LiveSkillService, RouteResult } from '../service';
import type { SkillDoc } from '../types';
import { analyze, CJK_RUN, hasCjk, type Segmenter } from '../text/analyze';
import { contentHash } from '../text/hash';
import { cleanMarkdown, splitPassages, type Passage } from '../text/passages';
import { countTerms, LexicalIndex, type Bm25Params, type TermCounts } from '../index/lexicalIndex';
import { BRIDGE_VERSION, Translator, type BilingualDictionary } from '../text/translator';
import {
  DEFAULT_FIRST_STAGE,
  aggregateRows,
  bestRow,
  bridgeQuery,
  denseQueryText,
  descriptionRows,
  embedTexts,
  expandByFeedback,
  fuse,
  lexicalFields,
  queryTerms as weightedQueryTerms,
  type FirstStageSettings,
  type TextContext,
} from './firstStage';
import type { CancelToken, CrossEncoder, Embedder, Logger, VectorIndex } from '../types';
import { CancelledError, SILENT_LOGGER, throwIfCancelled } from '../types';
import type { SkillFileRef, SkillWorkspace, VectorCache } from '../workspace';
import { BruteForceIndex, DenseStore, firstK } from './denseStore';
import { CrossEncoderReranker, HeuristicReranker, LearnedReranker, orderBy, type ListReranker } from './rerank';
import { FieldCache, listFeatures, type ListFeatures, type RerankRequest, type SkillFields } from './rerankFeatures';
import { DEFAULT_SET, selectSet, type SetOptions, type SetSelection } from './setSelection';
import { candidatePairs, DEFAULT_CONFLICT, findConflicts, judgeSet, SkillProfiles, type ConflictOptions, type SetJudgement } from '../analysis/conflicts';
import { DEFAULT_DUPLICATES, findNearDuplicates, type DuplicateOptions } from '../analysis/duplicates';
import type { PairFinding } from '../analysis/types';

/**
 * Bump when what gets embedded per skill changes, so cached vectors are not reused.
 * 2: URLs dropped from embedded text; Chinese skills get a bridged-English row.
 */
export const EMBED_LAYOUT_VERSION = 2;

/**
 * Bump when what a skill's lexical analysis produces changes in a way the probe in
 * `analysisFingerprint` would not notice (the dictionary bridge, passage splitting), so persisted
 * analyses are not reused.
 */
export const ANALYSIS_VERSION = 1;

/** The analysed form of one skill: its counted lexical terms and its feedback terms. */
export interface SkillAnalysis {
  counts: TermCounts;
  /** Analysed name, description and bridge terms, in that order. */
  feedback: string[];
  /** Analysed `listingText` (what the conflict profiles read); absent in older snapshots. */
  listing?: string[];
}

/** The text of a skill the conflict profiles analyse (see `SkillProfiles`). */
function listingText(doc: SkillDoc): string {
  return `${doc.name.replace(/[-_]/g, ' ')} ${doc.description}`;
}

/** Persistent analyses by content key: a reopen skips analysing unchanged skills. */
export interface AnalysisCache {
  get(key: string): SkillAnalysis | undefined;
  set(key: string, analysis: SkillAnalysis): void;
  /** Writes pending changes; `keep` lists the keys still in use (others may be dropped). */
  flush(keep: Set<string>): Promise<void>;
}

/**
 * Bump when what `parseSkill` produces for the same bytes changes (new fields, other findings),
 * so persisted parses are not reused.
 */
export const PARSE_VERSION = 1;

/**
 * Persistent parsed skills by file stamp (see `SkillWorkspace.stamp`): a reopen skips reading and
 * parsing unchanged files. Keys hold the file, its stamp, the profiles and `PARSE_VERSION`.
 */
export interface ParseCache {
  get(key: string): SkillDoc | undefined;
  set(key: string, doc: SkillDoc): void;
  /** Writes pending changes; `keep` lists the keys still in use (others may be dropped). */
  flush(keep: Set<string>): Promise<void>;
}

/** Routing settings: the first stage's (see firstStage.ts) plus pool and rerank sizes. */
export interface RoutingSettings extends FirstStageSettings {
  /** Candidates taken from each first stage before fusion. */
  poolSize: number;
  /** Candidates the reranker sees. */
  rerankDepth: number;
  bm25?: Bm25Params;
}

export const DEFAULT_ROUTING: RoutingSettings = {
  ...DEFAULT_FIRST_STAGE,
  poolSize: 100,
  rerankDepth: 20,
};

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
  duplicates?: Partial<DuplicateOptions>;
  /** SKIP-conflict thresholds (see analysis/conflicts.ts). */
  conflicts?: Partial<ConflictOptions>;
  /**
   * The rerank stage; default: `crossEncoder` when given, else the built-in learned reranker.
   * (Training injects a recorder here.)
   */
  reranker?: ListReranker;
  /** Set-selection thresholds (see setSelection.ts). */
  set?: Partial<SetOptions>;
  logger?: Logger;
  /** Called when the service is disposed (close sessions, files). */
  onDispose?: () => Promise<void> | void;
}

class Entry {
  private split: Passage[] | undefined;
  constructor(
    readonly doc: SkillDoc,
    /** Analysed name, description and bridge terms (pseudo-relevance feedback reads them). */
    readonly feedback: string[],
    /** How many of `feedback` come from the name and description (the rest are bridge terms). */
    private readonly ownTerms: number,
  ) {}

  /** The skill's bridge terms, as `lexicalFields` made them. */
  get bridge(): string[] {
    return this.feedback.slice(this.ownTerms);
  }

  /** Body passages, split on first use: a reopen from the snapshot reads few of them. */
  get passages(): Passage[] {
    this.split ??= splitPassages(this.doc.body);
    return this.split;
  }
}

// Large chunks let the embedder sort texts by length across skills, so batches pad little.
const EMBED_BATCH = 256;
const READ_CONCURRENCY = 16;
/** Nearest neighbours per skill checked for near-duplicates and conflicts in a library-wide scan. */
const PAIR_NEIGHBOURS = 30;
/** Passages scanned for the best match of a result; long bodies rarely match past these. */
const MAX_PASSAGES_SCANNED = 40;

/** Creates the engine over injected capabilities. */
export function createSkillService(init: SkillServiceInit): LiveSkillService {
  return new Engine(init);
}

class Engine implements LiveSkillService {
  readonly root: string;
  private readonly settings: RoutingSettings;
  private readonly log: Logger;
  private readonly profiles: readonly ProfileId[];
  private readonly entries = new Map<string, Entry>();
  private readonly lexical: LexicalIndex;
  private readonly text: TextContext;
  private dense: DenseStore | null = null;
  /** Part of every analysis key: changes when the analyser's output for a probe text changes. */
  private readonly analysisTag: string;
  private failed: { path: string; message: string }[] = [];
  private sorted: SkillDoc[] = [];

  constructor(private readonly init: SkillServiceInit) {
    this.root = init.root;
    this.settings = { ...DEFAULT_ROUTING, ...init.settings };
    this.log = init.logger ?? SILENT_LOGGER;
    this.profiles = init.profiles ?? ['spec'];
    this.lexical = new LexicalIndex(this.settings.bm25);
    this.text = {
      segmenter: init.segmenter,
      translator: init.dictionary ? new Translator(init.dictionary) : null,
      encoderReadsChinese: init.embedder?.info.languages?.includes('zh') ?? false,
    };
    this.analysisTag = `${ANALYSIS_VERSION}.${analysisFingerprint()}${init.dictionary ? `:bridge${BRIDGE_VERSION}` : ''}${init.segmenter ? ':seg' : ''}`;
    if (init.embedder) {
      const dims = init.embedder.info.dims;
      this.dense = new DenseStore(init.indexFactory ? init.indexFactory(dims) : new BruteForceIndex());
    }
  }

  skills(): readonly SkillDoc[] {
    return this.sorted;
  }

  failures(): readonly { path: string; message: string }[] {
    return this.failed;
  }

  pairFindings(skillId?: string): PairFinding[] {
    const terms = new Map<string, Set<string>>();
    const termsOf = (id: string) => {
      let t = terms.get(id);
      if (!t) {
        const doc = this.entries.get(id)?.doc;
        t = new Set(doc ? analyze(`${doc.name.replace(/[-_]/g, ' ')} ${doc.description}`, { segmenter: this.init.segmenter }) : []);
        terms.set(id, t);
      }
      return t;
    };
    const vectorOf = (id: string) => this.dense?.first(id);
    const profiles = this.skillProfiles();
    // A library-wide scan looks at each skill's nearest neighbours (and copies), not all pairs.
    const dense = this.dense;
    const neighbours = dense?.skillCount
      ? (id: string, k: number) => {
          const v = vectorOf(id);
          return v ? [...dense.search(v, k + 1).keys()] : profiles.lexicalNeighbours(id, k);
        }
      : undefined;
    const candidates = skillId ? undefined : candidatePairs(profiles, PAIR_NEIGHBOURS, neighbours);
    // Twins for two stacks or platforms are not interchangeable: they are reported as conflicts.
    const duplicates = findNearDuplicates(this.sorted, vectorOf, termsOf, { ...DEFAULT_DUPLICATES, ...this.init.duplicates }, skillId, candidates).filter(
      (p) => !this.judgeSet([p.a, p.b]).pairs[0]?.family,
    );
    const reported = new Set(duplicates.map((p) => `${p.a}\n${p.b}`));
    return [...duplicates, ...findConflicts(profiles, this.conflictOptions, skillId, reported, candidates)];
  }

  judgeSet(ids: readonly string[]): SetJudgement {
    const profiles = this.skillProfiles();
    return judgeSet(ids.flatMap((id) => profiles.get(id) ?? []), this.conflictOptions);
  }

  private get conflictOptions(): ConflictOptions {
    return { ...DEFAULT_CONFLICT, ...this.init.conflicts };
  }

  /** Per-skill compatibility profiles, rebuilt when the skill list changes. */
  private skillProfiles(): SkillProfiles {
    if (this.compat?.docs !== this.sorted) {
      const seg = this.init.segmenter;
      // An edit rebuilds the profiles (term weights are library-wide), but only the edited skill's
      // texts are new: the analyses of the last build are reused while this one builds.
      const last = this.profileTerms;
      const next = new Map<string, string[]>();
      let building = true;
      const analyzer = (text: string) => {
        if (!building) return analyze(text, { segmenter: seg });
        let terms = next.get(text) ?? last.get(text);
        terms ??= analyze(text, { segmenter: seg });
        next.set(text, terms);
        return terms;
      };
      const profiles = new SkillProfiles(this.sorted, analyzer, (id) => this.dense?.first(id));
      building = false;
      this.profileTerms = next;
      this.fieldCache.prune(new Set(this.entries.keys()));
      this.compat = { docs: this.sorted, profiles };
    }
    return this.compat.profiles;
  }

  private compat: { docs: readonly SkillDoc[]; profiles: SkillProfiles } | null = null;
  /** Analysed name + description texts of the last profile build (analyse output is never mutated). */
  private profileTerms = new Map<string, string[]>();
  private readonly fieldCache = new FieldCache(
    (text) => analyze(text, { segmenter: this.init.segmenter }),
    // From the analysis already made (or loaded): re-analysing would load the dictionary again.
    (doc) => {
      const entry = this.entries.get(doc.id);
      if (entry?.doc === doc) return entry.bridge;
      return this.text.translator ? (lexicalFields(doc, this.text).bridge ?? []) : [];
    },
  );
  private rerankStage: ListReranker | null = null;

  private reranker(): ListReranker {
    this.rerankStage ??=
      this.init.reranker ??
      (this.init.crossEncoder ? new CrossEncoderReranker(this.init.crossEncoder, (id) => this.rerankText(id)) : this.learnedReranker());
    return this.rerankStage;
  }

  /** The shipped learned reranker, or the heuristic one when its weights do not fit this build. */
  private learnedReranker(): ListReranker {
    try {
      return new LearnedReranker();
    } catch (err) {
      this.log.warn(`${err instanceof Error ? err.message : err}; using the heuristic reranker`);
      return new HeuristicReranker(this.init.segmenter);
    }
  }

  async index(opts: IndexOptions = {}): Promise<IndexStats> {
    const t0 = Date.now();
    const { token, progress } = opts;
    const listed = await this.init.workspace.list();
    throwIfCancelled(token);
    const failed = [...listed.problems];
    const docs: { ref: SkillFileRef; doc: SkillDoc }[] = [];
    let done = 0;
    const files = listed.files;
    progress?.('read', 0, files.length);
    const queue = [...files];
    const { workspace, parseCache } = this.init;
    const stamps = parseCache && workspace.stamp ? new Set<string>() : undefined;
    const worker = async () => {
      for (let ref = queue.shift(); ref; ref = queue.shift()) {
        throwIfCancelled(token);
        try {
          const stamp = stamps && (await workspace.stamp!(ref));
          const key = stamp && this.parseKey(ref, stamp);
          const hit = key ? parseCache!.get(key) : undefined;
          if (hit) {
            // A copy: the engine replaces findings on entries it keeps.
            docs.push({ ref, doc: { ...hit, findings: [...hit.findings] } });
          } else {
            const bytes = await workspace.read(ref);
            const { text, invalidUtf8 } = decodeSkillBytes(bytes);
            const doc = parseSkill(ref, text, this.profiles, invalidUtf8);
            if (key) parseCache!.set(key, { ...doc, findings: [...doc.findings] });
            docs.push({ ref, doc });
          }
          if (key) stamps!.add(key);
        } catch (err) {
          failed.push({ path: ref.path, message: err instanceof Error ? err.message : String(err) });
        }
        progress?.('read', ++done, files.length);
      }
    };
    await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));

    docs.sort((a, b) => (a.doc.id < b.doc.id ? -1 : a.doc.id > b.doc.id ? 1 : 0));
    const seen = new Set<string>();
    const changed: SkillDoc[] = [];
    for (const { doc } of docs) {
      seen.add(doc.id);
      const prev = this.entries.get(doc.id);
      if (prev && prev.doc.hash === doc.hash) {
        prev.doc.findings = doc.findings;
        continue;
      }
      changed.push(doc);
    }
    // The encoder runs off this thread (the node host puts it in a worker): the lexical analysis
    // runs on this one meanwhile, in slices, so both cores work on a cold index.
    const embedding = this.embedMissing(docs.map((d) => d.doc), opts);
    // Settled at once so a failed analysis does not leave the embedding's rejection unhandled.
    embedding.catch(() => undefined);
    await this.upsertLexicalInSlices(changed, token);
    const { cached, embedded } = await embedding;
    for (const id of [...this.entries.keys()]) {
      if (!seen.has(id)) {
        this.entries.delete(id);
        this.lexical.remove(id);
        this.dense?.remove(id);
        this.embeddedHash.delete(id);
      }
    }
    this.failed = failed;
    this.resort();
    await this.flushAnalyses();
    if (parseCache && stamps) {
      await parseCache.flush(stamps).catch((err) => this.log.warn(`could not write the parsed-skill snapshot: ${err instanceof Error ? err.message : err}`));
    }
    await this.finishDense(opts);
    const stats: IndexStats = {
      skills: this.entries.size,
      cached,
      embedded,
      failed: failed.length,
      ms: Date.now() - t0,
      model: this.init.embedder?.info.id ?? null,
    };
    if (!this.init.embedder) stats.denseDisabled = this.init.embedderError ?? 'no embedding model configured';
    return stats;
  }

  skill(id: string): SkillDoc | undefined {
    return this.entries.get(id)?.doc;
  }

  async updateFile(ref: SkillFileRef, bytes: Uint8Array | null, opts: { token?: CancelToken } = {}): Promise<SkillDoc | null> {
    this.failed = this.failed.filter((f) => f.path !== ref.path);
    let doc: SkillDoc | null = null;
    if (bytes) {
      try {
        const { text, invalidUtf8 } = decodeSkillBytes(bytes);
        doc = parseSkill(ref, text, this.profiles, invalidUtf8);
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
      this.upsertLexical(doc);
      // What is derived from the whole list (the conflict profiles) keys on the list's identity and
      // reads names and descriptions only: an edit that keeps them swaps the skill in place.
      const sameListing = prev && prev.doc.name === doc.name && prev.doc.description === doc.description && prev.doc.lang === doc.lang;
      const at = sameListing ? this.sorted.indexOf(prev.doc) : -1;
      if (at >= 0) this.sorted[at] = doc;
      else this.resort();
    }
    await this.embedOne(doc.id, opts.token);
    return this.entries.get(doc.id)?.doc ?? null;
  }

  warmUp(): void {
    if (!this.sorted.some((d) => d.lang === 'zh')) return;
    analyze('中文技能', { segmenter: this.init.segmenter });
    this.text.translator?.words('中文技能');
  }

  async flushCache(): Promise<void> {
    await this.flushAnalyses();
    const cache = this.init.cache;
    if (!cache) return;
    await cache.flush(new Set([...this.entries.values()].map((e) => this.cacheKey(e.doc))));
  }

  private removeEntry(id: string): void {
    if (!this.entries.delete(id)) return;
    this.lexical.remove(id);
    this.dense?.remove(id);
    this.embeddedHash.delete(id);
    this.resort();
  }

  /** Embeds one skill unless its vectors are current (from the index or the cache). */
  private async embedOne(id: string, token?: CancelToken): Promise<void> {
    const embedder = this.init.embedder;
    const dense = this.dense;
    const entry = this.entries.get(id);
    if (!embedder || !dense || !entry) return;
    if (dense.has(id) && this.embeddedHash.get(id) === entry.doc.hash) return;
    const key = this.cacheKey(entry.doc);
    let vectors = this.init.cache?.get(key);
    if (!vectors?.length || vectors[0].length !== embedder.info.dims) {
      vectors = await embedder.embed(this.embedTexts(entry.doc), 'passage', token);
      this.init.cache?.set(key, vectors);
    }
    // Another update may have replaced the entry while this one was embedding.
    if (this.entries.get(id) !== entry) return;
    dense.upsert(id, vectors);
    this.embeddedHash.set(id, entry.doc.hash);
  }

  private resort(): void {
    this.sorted = [...this.entries.values()].map((e) => e.doc).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** `upsertLexical` in slices of about 50 ms, letting other work (the encoder's batches) in between. */
  private async upsertLexicalInSlices(docs: readonly SkillDoc[], token?: CancelToken): Promise<void> {
    const batch: [string, TermCounts][] = [];
    let start = performance.now();
    for (const doc of docs) {
      this.analyseOne(doc, batch);
      if (performance.now() - start > 50) {
        await new Promise<void>((resolve) => setTimeout(resolve, 0));
        throwIfCancelled(token);
        start = performance.now();
      }
    }
    this.lexical.upsertManyCounts(batch);
  }

  /** Analyses skills (or takes their analyses from the snapshot) and indexes their terms. */
  private upsertLexical(...docs: SkillDoc[]): void {
    const batch: [string, TermCounts][] = [];
    for (const doc of docs) this.analyseOne(doc, batch);
    this.lexical.upsertManyCounts(batch);
  }

  /** Analyses one skill (or takes its analysis from the snapshot), sets its entry, adds its counts to `batch`. */
  private analyseOne(doc: SkillDoc, batch: [string, TermCounts][]): void {
    const cache = this.init.analysisCache;
    const key = this.analysisKey(doc);
    let analysis = cache?.get(key);
    if (!analysis) {
      const fields = lexicalFields(doc, this.text);
      analysis = {
        counts: countTerms(fields),
        feedback: [...fields.name, ...fields.description, ...(fields.bridge ?? [])],
        listing: analyze(listingText(doc), { segmenter: this.init.segmenter }),
      };
      cache?.set(key, analysis);
    }
    this.entries.set(doc.id, new Entry(doc, analysis.feedback, analysis.counts.lengths[0] + analysis.counts.lengths[1]));
    // The conflict profiles look texts up before analysing them; keyed by the exact text, so a
    // change of what they analyse only misses.
    if (analysis.listing) this.profileTerms.set(listingText(doc), analysis.listing);
    batch.push([doc.id, analysis.counts]);
  }

  private parseKey(ref: SkillFileRef, stamp: string): string {
    // The id and folder name enter the parse (name fallback, name-mismatch finding), the profiles its findings.
    return JSON.stringify([ref.path, ref.id, ref.folderName ?? null, this.profiles, PARSE_VERSION, stamp]);
  }

  private analysisKey(doc: SkillDoc): string {
    // The name is analysed too, and without one in the text it is the folder's: the same text in
    // two folders analyses differently.
    return `${doc.hash}:${contentHash(doc.name)}:${this.analysisTag}`;
  }

  private async flushAnalyses(): Promise<void> {
    const cache = this.init.analysisCache;
    if (!cache) return;
    const keep = new Set([...this.entries.values()].map((e) => this.analysisKey(e.doc)));
    await cache.flush(keep).catch((err) => this.log.warn(`could not write the analysis snapshot: ${err instanceof Error ? err.message : err}`));
  }

  /** What gets embedded for one skill (see firstStage.embedTexts). */
  private embedTexts(doc: SkillDoc): string[] {
    // Body passages are split only when some are embedded (none by default).
    const entry = this.entries.get(doc.id);
    const passages = this.settings.bodyPassages ? (entry?.doc.hash === doc.hash ? entry.passages : splitPassages(doc.body)) : [];
    return embedTexts(doc, passages, this.settings, this.text).texts;
  }

  /** Index of the first body-passage row of a skill (rows before it describe the skill). */
  private bodyFrom(entry: Entry): number {
    return descriptionRows(entry.doc, this.text);
  }

  /**
   * For a request without Chinese, the analysed English senses of a Chinese word (so a Chinese
   * passage can show which of its words the request matched through the bridge); else undefined.
   */
  private passageSenses(query: string): ((word: string) => string[]) | undefined {
    const translator = this.text.translator;
    if (!translator || hasCjk(query)) return undefined;
    const seg = this.init.segmenter;
    return (word) => translator.translateWord(word).flatMap((e) => analyze(e.text, { segmenter: seg }));
  }

  private cacheKey(doc: SkillDoc): string {
    // Only a Chinese skill's vectors depend on the bridge (its bridged-English row).
    const bridged = descriptionRows(doc, this.text) === 2 ? String(BRIDGE_VERSION) : '';
    return `${doc.hash}:${EMBED_LAYOUT_VERSION}:${this.settings.bodyPassages}${this.text.translator ? `:bridge${bridged}` : ''}`;
  }

  /**
   * Gives every skill of `docs` its vectors: from the index when current, else from the cache,
   * else from the encoder (in large batches across skills).
   */
  private async embedMissing(docs: readonly SkillDoc[], opts: IndexOptions): Promise<{ cached: number; embedded: number }> {
    const embedder = this.init.embedder;
    const dense = this.dense;
    if (!embedder || !dense) return { cached: 0, embedded: 0 };
    const cache = this.init.cache;
    let cached = 0;
    const todo: { doc: SkillDoc; texts: string[] }[] = [];
    for (const doc of docs) {
      if (dense.has(doc.id) && this.embeddedHash.get(doc.id) === doc.hash) continue;
      const hit = cache?.get(this.cacheKey(doc));
      if (hit && hit.length && hit[0].length === embedder.info.dims) {
        dense.upsert(doc.id, hit);
        this.embeddedHash.set(doc.id, doc.hash);
        cached++;
      } else {
        todo.push({ doc, texts: this.embedTexts(doc) });
      }
    }
    const total = todo.reduce((n, t) => n + t.texts.length, 0);
    let done = 0;
    opts.progress?.('embed', 0, total);
    // Batches span skills so the encoder always sees full batches.
    const flat = todo.flatMap((t, i) => t.texts.map((text) => ({ i, text })));
    const vectors: Float32Array[][] = todo.map(() => []);
    for (let s = 0; s < flat.length; s += EMBED_BATCH) {
      throwIfCancelled(opts.token);
      const batch = flat.slice(s, s + EMBED_BATCH);
      const out = await embedder.embed(batch.map((b) => b.text), 'passage', opts.token);
      batch.forEach((b, j) => vectors[b.i].push(out[j]));
      done += batch.length;
      opts.progress?.('embed', done, total);
    }
    todo.forEach((t, i) => {
      dense.upsert(t.doc.id, vectors[i]);
      this.embeddedHash.set(t.doc.id, t.doc.hash);
      cache?.set(this.cacheKey(t.doc), vectors[i]);
    });
    return { cached, embedded: todo.length };
  }

  /** Builds the vector index over the current skills and writes the vector cache. */
  private async finishDense(opts: IndexOptions): Promise<void> {
    const dense = this.dense;
    if (!this.init.embedder || !dense) return;
    if (dense.index.prepare) {
      opts.progress?.('vector index', 0, 1);
      // Keyed like the vectors themselves, so a graph of vectors from an older layout or bridge is
      // not reused.
      await dense.index.prepare(dense.signature((id) => {
        const entry = this.entries.get(id);
        return entry ? this.cacheKey(entry.doc) : '';
      }));
      opts.progress?.('vector index', 1, 1);
    }
    const cache = this.init.cache;
    if (cache) {
      const keep = new Set([...this.entries.values()].map((e) => this.cacheKey(e.doc)));
      await cache.flush(keep).catch((err) => this.log.warn(`could not write the vector cache: ${err instanceof Error ? err.message : err}`));
    }
  }

  private readonly embeddedHash = new Map<string, string>();
  /** The last encoder failure logged by `route` (each distinct one is logged once). */
  private lastDenseFailure: string | null = null;

  async route(query: string, opts: RouteOptions = {}): Promise<RouteResult> {
    const k = opts.k ?? 10;
    const doRerank = opts.rerank ?? true;
    const t0 = performance.now();
    const timings = { embedMs: 0, denseMs: 0, lexicalMs: 0, fuseMs: 0, rerankMs: 0, totalMs: 0 };
    const seg = this.init.segmenter;

    let t = performance.now();
    const terms = analyze(query, { segmenter: seg });
    const qWeights = weightedQueryTerms(query, this.lexical, this.settings, this.text);
    const translated = new Set<string>();
    const bridged = bridgeQuery(query, qWeights, this.lexical, this.settings, this.text, translated);
    const bridgeMs = performance.now() - t;

    // The request's embedding starts before the lexical search: the node host runs the encoder in
    // a worker thread, so the two overlap and the request waits for the slower of them only.
    const embedding = this.embedQuery(query, bridged, opts.token);
    // Settled at once so that a throw below does not leave a cancellation's rejection unhandled.
    embedding.catch(() => undefined);

    t = performance.now();
    let lexAll = this.lexical.search(qWeights, undefined, translated);
    if (expandByFeedback(qWeights, lexAll, (id) => this.entries.get(id)?.feedback ?? [], this.lexical, this.settings)) {
      lexAll = this.lexical.search(qWeights, undefined, translated);
    }
    const lexTop = topN(lexAll, this.settings.poolSize);
    timings.lexicalMs = bridgeMs + performance.now() - t;

    const { vector: qVec, failed: denseFailed, ms } = await embedding;
    timings.embedMs = ms;
    let denseTop = new Map<string, number>();
    if (qVec && this.dense) {
      t = performance.now();
      denseTop = this.dense.search(qVec, this.settings.poolSize);
      timings.denseMs = performance.now() - t;
    }
    throwIfCancelled(opts.token);

    t = performance.now();
    const pool = new Set<string>([...lexTop.keys(), ...denseTop.keys()]);
    const denseScore = new Map<string, number>();
    const denseRow = new Map<string, number>();
    if (qVec && this.dense) {
      for (const id of pool) {
        const entry = this.entries.get(id);
        const cos = entry && this.dense.cosines(id, qVec);
        if (!entry || !cos?.length) continue;
        const bodyFrom = this.bodyFrom(entry);
        denseScore.set(id, aggregateRows(cos, bodyFrom, this.settings));
        // Row 0 stands for the description in explanations, 1.. for body passages.
        const row = bestRow(cos, bodyFrom, this.settings);
        denseRow.set(id, row < bodyFrom ? 0 : row - bodyFrom + 1);
      }
    }
    const fusionWeight = hasCjk(query) ? this.settings.lexicalWeightCjk : this.settings.lexicalWeight;
    const fused = fuse(pool, lexAll, qVec ? denseScore : null, fusionWeight).map((c) => ({
      id: c.id,
      lexical: c.lexical,
      dense: c.dense,
      fused: c.fused,
      denseNorm: c.denseNorm,
      lexicalWeight: c.lexicalWeight,
    }));
    timings.fuseMs = performance.now() - t;

    // Rerank, then order the leading places as a compatible set (set selection follows the
    // rerank switch unless asked for explicitly).
    t = performance.now();
    const depth = Math.max(this.settings.rerankDepth, k);
    const head = fused.slice(0, depth);
    const doSelect = opts.select ?? doRerank;
    let scores: number[] | null = null;
    let selection: SetSelection | null = null;
    let features: ListFeatures | null = null;
    if ((doRerank || doSelect) && head.length) {
      const request: RerankRequest = {
        query,
        terms,
        bridgedQuery: bridged,
        analyzer: (text) => analyze(text, { segmenter: seg }),
        head,
        profiles: this.skillProfiles(),
        fields: this.fieldCache,
        doc: (id) => this.entries.get(id)!.doc,
        passages: (id) => this.entries.get(id)!.passages,
      };
      features = listFeatures(request);
      if (doRerank) scores = await this.reranker().score(request, features, opts.token);
      throwIfCancelled(opts.token);
      if (doSelect) {
        const fitted = scores ? this.reranker().setOptions : undefined;
        selection = selectSet(features, scores ?? head.map((c) => c.fused), { ...DEFAULT_SET, ...fitted, ...this.init.set });
      }
    }
    timings.rerankMs = performance.now() - t;

    const order = selection?.order ?? (scores ? orderBy(scores) : head.map((_, i) => i));
    const ranked = order.map((i) => ({ ...head[i], rerank: scores ? scores[i] : null }));
    // What explains a match: the request's own terms and, for a Chinese request, the English
    // senses the bridge added (an English skill's passage matches those, not the Chinese words).
    const queryTerms = new Set([...terms, ...translated]);
    const explain: PassageMatcher = { terms: queryTerms, segmenter: seg, senses: this.passageSenses(query) };
    const candidates: RouteCandidate[] = ranked.slice(0, k).map((c, i) => {
      const entry = this.entries.get(c.id)!;
      return {
        skillId: c.id,
        name: entry.doc.name,
        path: entry.doc.path,
        description: entry.doc.description,
        rank: i + 1,
        scores: {
          dense: c.dense,
          lexical: c.lexical,
          fused: c.fused,
          ...(c.dense !== null ? { denseNorm: c.denseNorm } : {}),
          lexicalWeight: c.lexicalWeight,
          rerank: c.rerank,
          final: c.rerank ?? c.fused,
        },
        passage: opts.passages === false ? null : bestPassage(entry, this.fieldCache.get(entry.doc, entry.passages), denseRow.get(c.id), explain),
      };
    });
    timings.totalMs = performance.now() - t0;
    const result: RouteResult = {
      query,
      candidates,
      timings,
      dense: denseFailed
        ? { disabled: denseFailed }
        : this.init.embedder
          ? { model: this.init.embedder.info.id }
          : { disabled: this.init.embedderError ?? 'no embedding model configured' },
    };
    if (scores) result.reranker = this.reranker().id;
    if (bridged) result.readAs = bridged;
    if (selection && features && candidates.length) {
      const ids = features.ids;
      const size = Math.min(selection.size, candidates.length);
      result.set = {
        ids: selection.order.slice(0, size).map((i) => ids[i]),
        size,
        rejected: selection.rejected.map((r) => ({ id: ids[r.index], partnerId: ids[r.partner], reason: r.reason, evidence: r.evidence })),
      };
    }
    return result;
  }

  /**
   * The request's vector, and how long the encoder took. An encoder failure (its worker died, say)
   * is not an error here: the request is still routed, on words, and the failure is reported in
   * the result and logged once. Cancellation still rejects.
   */
  private async embedQuery(
    query: string,
    bridged: string | null,
    token: RouteOptions['token'],
  ): Promise<{ vector: Float32Array | null; failed: string | null; ms: number }> {
    if (!this.init.embedder || !this.dense?.skillCount) return { vector: null, failed: null, ms: 0 };
    const t = performance.now();
    try {
      // A Chinese request reaches the English encoder as its bridged English text.
      const [vector] = await this.init.embedder.embed([denseQueryText(query, bridged, this.text)], 'query', token);
      return { vector, failed: null, ms: performance.now() - t };
    } catch (err) {
      if (err instanceof CancelledError) throw err;
      const failed = `the embedding model failed (${err instanceof Error ? err.message : String(err)}); routed on words only`;
      if (failed !== this.lastDenseFailure) this.log.warn(failed);
      this.lastDenseFailure = failed;
      return { vector: null, failed, ms: performance.now() - t };
    }
  }

  private rerankText(id: string): string {
    const { doc, passages } = this.entries.get(id)!;
    const first = passages[0]?.text ?? '';
    return `${doc.name}: ${doc.description}\n${first}`.slice(0, 2000);
  }

  async dispose(): Promise<void> {
    await this.init.embedder?.dispose?.();
    await this.init.crossEncoder?.dispose?.();
    await this.init.onDispose?.();
  }
}

/**
 * A short hash of what the analyser makes of a probe text (identifiers, stemming, stop words,
 * Markdown), so a snapshot written by a build that analyses differently is not reused.
 */
function analysisFingerprint(): string {
  const probe =
    '# Extracting PDFs\nUse `pdfPlumber.extract_tables()` on scanned invoices; the CLI\'s --json flag, C++ and node.js.\n' +
    '- [docs](https://example.com/a_b) <b>running</b> reports, analyses, e-mails 2024-05-01\n```\nconst x = 1;\n```';
  const text = JSON.stringify([analyze(probe), analyze(cleanMarkdown(probe)), splitPassages(probe)]);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/** Collapses whitespace and drops long pasted lines that are mostly symbols (logs, stack frames). */
export function cleanQuery(query: string): string {
  return query.replace(/\s+/g, ' ').trim();
}

/**
 * The `n` best entries, best first (ties by key), kept in a bounded heap: a request's words match
 * thousands of skills, and sorting them all took more time than scoring them.
 */
export function topN(scores: Map<string, number>, n: number): Map<string, number> {
  const entries = [...scores];
  const order = firstK(entries.length, n, (a, b) => entries[a][1] > entries[b][1] || (entries[a][1] === entries[b][1] && entries[a][0] < entries[b][0]));
  return new Map(order.map((i) => entries[i]));
}

/** What `bestPassage` matches a passage against. */
interface PassageMatcher {
  /** Analysed request terms (with the bridge's English senses for a Chinese request). */
  terms: ReadonlySet<string>;
  segmenter?: Segmenter;
  /** Analysed English senses of a Chinese word, when an English request meets a Chinese skill. */
  senses?: (word: string) => string[];
}

/** The passage that best explains the match: most query terms, the dense winner as tie-break. */
function bestPassage(entry: Entry, fields: SkillFields, denseRow: number | undefined, m: PassageMatcher): MatchedPassage | null {
  const { doc, passages } = entry;
  let best: { field: MatchedPassage['field']; text: string; heading?: string; line?: number; score: number } | undefined;
  // Terms come analysed from the reranker's field cache (heading and text of each passage), so a
  // skill's passages are analysed once, not once per request.
  const consider = (field: MatchedPassage['field'], text: string, terms: ReadonlySet<string>, heading: string | undefined, line: number | undefined, bonus: number) => {
    if (!text) return;
    let hits = 0;
    for (const t of terms) if (m.terms.has(t)) hits++;
    const score = hits + bonus;
    if (!best || score > best.score) best = { field, text, heading, line, score };
  };
  consider('description', doc.description, fields.description, undefined, doc.keyRanges.description?.start.line, denseRow === 0 ? 0.5 : 0);
  passages.slice(0, Math.min(MAX_PASSAGES_SCANNED, fields.passages.length)).forEach((p, i) => consider('body', p.text, fields.passages[i], p.heading || undefined, doc.bodyStartLine + p.line, denseRow === i + 1 ? 0.5 : 0));
  if (!best) return null;
  const { score: _score, ...chosen } = best;
  return { ...chosen, matchedTerms: matchedWords(chosen.text, m) };
}

const SURFACE_WORD = /[\p{L}\p{N}][\p{L}\p{N}_.+#-]*/gu;
const MAX_MATCHED = 24;

/**
 * Surface words of `text` whose analysed form is a request term (for highlighting). A run of
 * Chinese has no spaces, so it is split as the index splits it and only the matching words are
 * given, not the whole clause; with `senses`, a Chinese word also matches through its English
 * senses.
 */
function matchedWords(text: string, m: PassageMatcher): string[] {
  const out = new Set<string>();
  const hit = (word: string) => analyze(word, { segmenter: m.segmenter }).some((t) => m.terms.has(t));
  for (const match of text.matchAll(SURFACE_WORD)) {
    const word = match[0];
    if (!hasCjk(word)) {
      if (hit(word)) out.add(word);
    } else {
      for (const run of word.match(CJK_RUN) ?? []) {
        for (const piece of analyze(run, { segmenter: m.segmenter })) {
          if (m.terms.has(piece) || m.senses?.(piece).some((t) => m.terms.has(t))) out.add(piece);
        }
      }
      for (const latin of word.replace(CJK_RUN, ' ').matchAll(SURFACE_WORD)) if (hit(latin[0])) out.add(latin[0]);
    }
    if (out.size >= MAX_MATCHED) break;
  }
  return [...out].slice(0, MAX_MATCHED);
}
