/**
 * Training and validation lists from libraries of many sizes: pools of 5 to 200 skills cut from
 * one collection of the corpus (authors' libraries are one collection, not a mix), each routed
 * with pseudo-requests written for its own skills (positives) and for skills it does not hold
 * (negatives: half from the same collection, the near misses, half from others). Each list keeps
 * the rerank stage's features of the pool's head, as routing computes them. Deterministic for a
 * seed.
 */
import { folderOf } from '../src/core/analysis/facets';
import type { ListFeatures } from '../src/core/route/rerankFeatures';
import { prng, pseudoRequests, requestFeatures } from '../src/core/route/rerankTraining';
import type { SkillDoc } from '../src/core/types';
import { sample, type PoolFactory } from './pools';

export interface PoolList {
  /** Skills in the library the request was routed in. */
  size: number;
  /** `collection#n`: which pool. */
  pool: string;
  features: ListFeatures;
  /** Skills the request was written from (not in the pool for a negative). */
  targets: string[];
  /** Written for skills the pool does not hold: nothing should be relevant. */
  negative: boolean;
}

export interface PoolOptions {
  seed: number;
  sizes: readonly number[];
  poolsPerSize: number;
  /** Positive requests per pool at most (singles, plus a few multi-skill ones). */
  perPool: number;
  log?: (msg: string) => void;
}

export const DEFAULT_POOLS: PoolOptions = { seed: 11, sizes: [5, 10, 20, 50, 100, 200], poolsPerSize: 8, perPool: 24 };

const collectionOf = (id: string) => (id.includes('/') ? id.slice(0, id.indexOf('/')) : '');

/** Whether candidate `id` serves a request written for `targets` (one of them, or a copy: the same folder name). */
export function serves(id: string, targets: readonly string[]): boolean {
  return targets.some((t) => t === id || folderOf(t).toLowerCase() === folderOf(id).toLowerCase());
}

/** Routes pseudo-requests in pools cut from `factory`'s library and keeps their features. */
export async function poolLists(factory: PoolFactory, opts: PoolOptions = DEFAULT_POOLS): Promise<PoolList[]> {
  const rand = prng(opts.seed);
  const byCollection = new Map<string, SkillDoc[]>();
  for (const d of factory.docs) byCollection.set(collectionOf(d.id), [...(byCollection.get(collectionOf(d.id)) ?? []), d]);
  const collections = [...byCollection.keys()].sort();
  const out: PoolList[] = [];
  for (const size of opts.sizes) {
    const eligible = collections.filter((c) => byCollection.get(c)!.length >= size + 4);
    if (!eligible.length) continue;
    for (let p = 0; p < opts.poolsPerSize; p++) {
      const collection = eligible[Math.floor(rand() * eligible.length)];
      const members = sample(rand, byCollection.get(collection)!, size);
      const inPool = new Set(members.map((d) => d.id));
      const folders = new Set(members.map((d) => folderOf(d.id).toLowerCase()));
      const engine = await factory.open(members.map((d) => d.id));
      try {
        const seed = Math.floor(rand() * 2 ** 31);
        const positives = pseudoRequests(engine.skills(), engine.profiles(), {
          seed,
          singleRate: Math.min(1, opts.perPool / size),
          pairs: size >= 10 ? 3 : 1,
          triples: size >= 20 ? 1 : 0,
        }).slice(0, opts.perPool);
        // Negatives: skills the pool lacks (no copy of them in it either), near and far.
        const outside = (docs: readonly SkillDoc[]) => docs.filter((d) => !inPool.has(d.id) && !folders.has(folderOf(d.id).toLowerCase()));
        const near = sample(rand, outside(byCollection.get(collection)!), Math.ceil(positives.length / 2));
        const far = sample(rand, outside(factory.docs.filter((d) => collectionOf(d.id) !== collection)), Math.floor(positives.length / 2));
        const negatives = pseudoRequests([...near, ...far], engine.profiles(), { seed: seed + 1, singleRate: 1, pairs: 0, triples: 0 });
        for (const [requests, negative] of [[positives, false], [negatives, true]] as const) {
          for (const r of requests) {
            const features = await requestFeatures(engine.pipeline, r.query);
            if (features) out.push({ size, pool: `${collection}#${size}.${p}`, features, targets: r.targets, negative });
          }
        }
      } finally {
        await engine.dispose();
      }
    }
    opts.log?.(`pools of ${size}: ${out.filter((l) => l.size === size).length} lists`);
  }
  return out;
}
