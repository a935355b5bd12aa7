/**
 * The pair findings `check` reports: the engine's library-wide scan (the same function the editor
 * calls), with the author's routing tests and trigger evals as the first probe requests of the
 * skills they expect, and the scan's results cached beside the index cache, so a second run on
 * an unchanged library reads them instead of routing again.
 */
import type { AuthoredRequest } from '../../core/analysis/types';
import { pairLibraryKey } from '../../core/analysis/pairScan';
import type { PairScanOptions, RouterIdentity } from '../../core/analysis/scanRun';
import type { PairFinding } from '../../core/analysis/types';
import type { SkillService } from '../../core/service';
import type { Logger, SkillDoc } from '../../core/types';
import { readPairCache, writePairCache } from '../../node/pairCacheFile';
import { resolveSkillRef, type SkillRef } from './judge';
import type { RoutingTest } from './routingTests';

/** The requests the author wrote for each skill: tests that expect it, trigger evals that should trigger it. */
export function authoredRequests(tests: readonly RoutingTest[], skills: readonly SkillRef[]): Map<string, AuthoredRequest[]> {
  const out = new Map<string, AuthoredRequest[]>();
  const add = (id: string, r: AuthoredRequest) => {
    const list = out.get(id) ?? [];
    if (!list.some((x) => x.query === r.query)) list.push(r);
    out.set(id, list);
  };
  for (const t of tests) {
    const source = t.kind === 'trigger' ? 'eval' : 'test';
    for (const ref of t.expect) for (const s of resolveSkillRef(ref, skills)) add(s.id, { query: t.query, source });
  }
  return out;
}

/**
 * The library's pair findings as cached in `cacheDir` for these skills, requests, options and
 * router, or null when no scan of exactly that is cached: read without routing or a model.
 */
export async function cachedPairFindings(
  docs: readonly SkillDoc[],
  tests: readonly RoutingTest[],
  router: RouterIdentity,
  options: PairScanOptions,
  cacheDir: string,
  log?: Logger,
): Promise<PairFinding[] | null> {
  const authored = authoredRequests(tests, docs);
  const cache = await readPairCache(cacheDir, log);
  const hit = cache.result(pairLibraryKey(docs, router, options, (id) => authored.get(id) ?? []));
  return hit ? [...hit] : null;
}

/** The library's pair findings, with the scan cache read from and written to `cacheDir`. */
export async function checkPairFindings(
  service: SkillService,
  tests: readonly RoutingTest[],
  options: Partial<PairScanOptions>,
  cacheDir: string,
  log?: Logger,
): Promise<PairFinding[]> {
  const authored = authoredRequests(tests, service.skills());
  const cache = await readPairCache(cacheDir, log);
  const found = await service.pairFindings(undefined, { cache, options, authored: (id) => authored.get(id) ?? [] });
  await writePairCache(cacheDir, cache, log);
  return found;
}
