/**
 * What `reach` and `check`'s reach gate share: each skill's requests (its routing tests, its
 * trigger evals, a labelled query file, else probes written from its body), the router over the
 * engine's two views, and the report, read from the reach cache when nothing it depends on
 * changed. The measuring itself is core's (core/reach/measure.ts).
 */
import * as path from 'node:path';
import { version } from '../../package.json';
import { EVALS_FILE_NAMES, firstExisting } from '../core/configFiles';
import { resolveSkillRef, type SkillRef } from '../core/eval/routingTest';
import type { EvalQuery } from '../core/eval/queries';
import { simulateListing, type ClientListing, type ListingClient, type ListingOptions } from '../core/profiles';
import { measureReach, type ReachOptions, type ReachReport, type ReachRequest, type ReachRouter } from '../core/reach/measure';
import { DEFAULT_PROBES, withProbes, type ProbeOptions } from '../core/reach/probes';
import type { SkillService } from '../core/service';
import { SILENT_LOGGER, type ProgressSink, type SkillDoc } from '../core/types';
import { loadBackground } from '../node/backgroundFile';
import { packageRoot } from '../node/library';
import { reachCacheKey, ReachCache } from '../node/reachCache';
import { SYNC_FILE_ACCESS } from './check/config';
import { parseTriggerEvals, type RoutingTest } from './check/routingTests';
import { readText } from './io';

/** Bump when what a reach report holds or how it is measured changes: older cached reports are not read. */
export const REACH_VERSION = 2;

/** Ranks asked per request: enough to show where a skill that is not first ranks. */
const RANKS = 10;

/** Requests from routing tests that expect skills (tests that expect none are not a skill's requests). */
export function requestsFromTests(tests: readonly RoutingTest[], skills: readonly SkillRef[]): ReachRequest[] {
  const out: ReachRequest[] = [];
  for (const t of tests) {
    const expect = [...new Set(t.expect.flatMap((ref) => resolveSkillRef(ref, skills).map((s) => s.id)))];
    if (expect.length) out.push({ query: t.query, source: t.kind === 'trigger' ? 'eval' : 'test', expect });
  }
  return out;
}

/** Requests from a labelled query file (`eval`'s format): each needs its `skill_ids`. */
export function requestsFromQueries(queries: readonly EvalQuery[], skills: readonly SkillRef[]): ReachRequest[] {
  const ids = new Set(skills.map((s) => s.id));
  return queries
    .filter((q) => q.skillIds.length && q.skillIds.every((id) => ids.has(id)))
    .map((q) => ({ query: q.query, source: 'query' as const, expect: q.skillIds }));
}

/** The trigger evals (should_trigger true) of every skill folder of a folder library. */
export async function triggerEvalRequests(skills: readonly SkillDoc[], root: string, show: (file: string) => string): Promise<RoutingTest[]> {
  const out: RoutingTest[] = [];
  for (const doc of skills) {
    const file = await firstExisting(path.dirname(path.resolve(root, doc.path)), EVALS_FILE_NAMES, SYNC_FILE_ACCESS);
    if (!file) continue;
    out.push(...parseTriggerEvals(await readText(file, 'evals file'), show(file), doc.id).tests.filter((t) => t.expect.length));
  }
  return out;
}

export interface ReachRun {
  service: SkillService;
  client: ListingClient;
  listing: ListingOptions;
  /** Labelled requests; skills without any get probes. */
  labelled: readonly ReachRequest[];
  probes?: ProbeOptions;
  rerank: boolean;
  options?: Partial<ReachOptions>;
  /** Skills to report (default all). */
  targets?: readonly string[];
  /** The library's cache folder; no caching when absent. */
  cacheDir?: string;
  /** The embedding model in use (part of the cache key). */
  model: string | null;
  progress?: ProgressSink;
}

/** A reach report with what it was measured over. */
export interface ReachResult {
  report: ReachReport;
  listing: ClientListing;
  /** Read from the reach cache (nothing it depends on changed). */
  cached: boolean;
  ms: number;
}

/** The router over the engine's two views: its `route` in full text, or over the client's listing with words added. */
export function engineRouter(service: SkillService, client: ListingClient, listing: ListingOptions, rerank: boolean): ReachRouter {
  return {
    async rank(query, view, token) {
      const result = await service.route(query, {
        k: RANKS,
        rerank,
        passages: false,
        token,
        ...(view.kind === 'listing' ? { view: { client, listing: view.added ? { ...listing, added: view.added } : listing } } : {}),
      });
      return result.candidates.map((c) => c.skillId);
    },
  };
}

/** Measures reach (or reads it from the cache). */
export async function runReach(run: ReachRun): Promise<ReachResult> {
  const t0 = performance.now();
  const docs = run.service.skills();
  const probes = run.probes ?? DEFAULT_PROBES;
  const listingOf = (added?: Readonly<Record<string, string>>) => simulateListing(docs, run.client, added ? { ...run.listing, added } : run.listing);
  const listing = listingOf();
  const cache = run.cacheDir ? new ReachCache(run.cacheDir) : undefined;
  // Probes are a function of the skills' text, the options and this build (REACH_VERSION): the
  // key names those, so a warm run does not write them only to look the report up.
  const key = reachCacheKey({
    v: REACH_VERSION,
    version,
    model: run.model,
    rerank: run.rerank,
    client: run.client,
    listing: run.listing,
    options: run.options ?? {},
    targets: run.targets ?? null,
    skills: docs.map((d) => [d.id, d.hash]),
    labelled: run.labelled,
    probes,
  });
  const hit = await cache?.get<ReachReport>(key);
  if (hit) return { report: hit, listing, cached: true, ms: performance.now() - t0 };
  const requests = withProbes(docs, run.labelled, probes);
  const report = await measureReach({
    docs,
    listing: listingOf,
    requests,
    router: engineRouter(run.service, run.client, run.listing, run.rerank),
    targets: run.targets,
    options: run.options,
    stats: run.service.termFrequencies?.(),
    background: loadBackground(path.join(packageRoot(), 'models'), SILENT_LOGGER),
    progress: run.progress,
  });
  await cache?.set(key, report);
  return { report, listing, cached: false, ms: performance.now() - t0 };
}
