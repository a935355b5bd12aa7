/**
 * Libraries of many sizes cut from one large library: engines over any subset of its skills,
 * opened in milliseconds because they share the large library's caches (vectors and lexical
 * analyses are keyed by content, so a subset finds them all), its embedder, segmenter and
 * dictionary. For training and validating on "libraries like the ones authors open" (5-200
 * skills, one collection) without embedding anything twice. Bench and training code only.
 */
import { withQueryAdapter, type QueryAdapter } from '../src/core/route/queryAdapter';
import * as path from 'node:path';
import type { AnalysisCache, SkillAnalysis } from '../src/core/index/caches';
import { createSkillService, type RoutingEngine } from '../src/core/route/skillService';
import type { RoutingSettings } from '../src/core/route/settings';
import type { Embedder, SkillDoc } from '../src/core/types';
import type { VectorCache } from '../src/core/workspace';
import { FileAnalysisCache } from '../src/node/analysisSnapshot';
import { cedictDictionary } from '../src/node/cedictDictionary';
import { jiebaSegmenter } from '../src/node/jiebaSegmenter';
import { defaultCacheDir, defaultModelDir } from '../src/node/library';
import { FileVectorCache } from '../src/node/vectorCache';
import { WorkerEmbedder } from '../src/node/workerEmbedder';
import { MemoryWorkspace } from '../test/helpers/fakes';

/** Reads through to a shared cache and keeps its own writes in memory: subsets never evict each other's entries. */
class ReadThrough<T> {
  private readonly mine = new Map<string, T>();
  constructor(private readonly base: { get(key: string): T | undefined } | undefined) {}
  get(key: string): T | undefined {
    return this.mine.get(key) ?? this.base?.get(key);
  }
  set(key: string, value: T): void {
    this.mine.set(key, value);
  }
  async flush(): Promise<void> {}
}

export interface PoolFactory {
  /** The large library's skills, in id order. */
  docs: readonly SkillDoc[];
  /** An engine over the skills `ids` of the large library (indexed). */
  open(ids: readonly string[], opts?: { settings?: Partial<RoutingSettings> }): Promise<RoutingEngine>;
  dispose(): Promise<void>;
}

/**
 * A factory over the library `root`, whose index must have been built once (`skill-router index
 * --library root`, or any run that opened it): its caches are read, never written.
 */
export async function poolFactory(root: string, docs: readonly SkillDoc[], opts: { noModel?: boolean; files: ReadonlyMap<string, string>; adapter?: QueryAdapter }): Promise<PoolFactory> {
  const cacheRoot = defaultCacheDir(path.resolve(root));
  const analyses = await FileAnalysisCache.open(cacheRoot);
  let embedder: Embedder | null = null;
  let vectors: FileVectorCache | undefined;
  if (!opts.noModel) {
    embedder = await WorkerEmbedder.load(defaultModelDir(), {});
    vectors = await FileVectorCache.open(path.join(cacheRoot, embedder.info.id.replace(/[^\w.@-]+/g, '_')), embedder.info.id, embedder.info.dims);
  }
  // Every engine disposes its embedder; the shared one is disposed once, by the factory.
  const own: Embedder | null = embedder && { info: embedder.info, embed: (texts, kind, token) => embedder!.embed(texts, kind, token) };
  const shared = own && opts.adapter ? withQueryAdapter(own, opts.adapter) : own;
  const segmenter = jiebaSegmenter();
  const dictionary = cedictDictionary();
  return {
    docs,
    async open(ids, o = {}) {
      const files = new Map<string, string>();
      for (const id of ids) {
        const text = opts.files.get(id);
        if (text !== undefined) files.set(`${id}/SKILL.md`, text);
      }
      const engine = createSkillService({
        root: `${root}#${ids.length}`,
        workspace: new MemoryWorkspace(files),
        embedder: shared,
        embedderError: shared ? undefined : 'no model',
        cache: new ReadThrough<Float32Array[]>(vectors) as unknown as VectorCache,
        analysisCache: new ReadThrough<SkillAnalysis>(analyses) as unknown as AnalysisCache,
        segmenter,
        dictionary,
        settings: o.settings,
      });
      await engine.index();
      return engine;
    },
    async dispose() {
      await embedder?.dispose?.();
    },
  };
}

/** A small seeded PRNG's sample of `n` of `xs` (without replacement, order kept). */
export function sample<T>(rand: () => number, xs: readonly T[], n: number): T[] {
  if (n >= xs.length) return [...xs];
  const picked = new Set<number>();
  while (picked.size < n) picked.add(Math.floor(rand() * xs.length));
  return [...picked].sort((a, b) => a - b).map((i) => xs[i]);
}
