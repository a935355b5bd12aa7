/**
 * The pair findings `check` reports: the engine's library-wide scan (the same function the editor
 * calls), with the author's routing tests and trigger evals as the first probe requests of the
 * skills they expect, and the scan's results cached beside the index cache, so a second run on
 * an unchanged library reads them instead of routing again.
 */
import type { AuthoredRequest } from '../../core/analysis/types';
import type { PairScanOptions } from '../../core/analysis/scanRun';
import type { PairFinding } from '../../core/analysis/types';
import type { SkillService } from '../../core/service';
import type { Logger } from '../../core/types';
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
