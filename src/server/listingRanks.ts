/**
 * `skillRouter/route` over the ready folders, each on its own queue, the answers merged
 * (routeResponse.ts). With `view`: each folder ranked over a client's listing, and for the skills
 * of `view.of` where they rank there and why lower (what the listing keeps of them, the request's
 * words only their body has; core/reach/listingGap.ts). The query panel shows it beside each
 * result's full-text rank.
 */
import { simulateListing } from '../core/profiles';
import { listingGap } from '../core/reach/listingGap';
import type { LiveSkillService, RouteResult } from '../core/service';
import type { CancelToken } from '../core/types';
import { throwIfCancelled } from '../core/types';
import type { ListingRank, RouteParams, RouteResponse, RouteView } from '../shared/protocol';
import type { FolderLibrary, RequestToken } from './folderLibrary';
import { routeResponse, type FolderRanking } from './routeResponse';

/** How deep the listing's ranking is read for the ranks of `view.of`. */
export const LISTING_RANK_DEPTH = 50;

/** One folder's answer: its ranking (over the listing with a view) and the ranks of `view.of` found in it. */
export async function routeFolder(
  service: LiveSkillService,
  query: string,
  opts: { k: number; rerank: boolean; view?: RouteView; token?: CancelToken },
  uriOf: (relPath: string) => string,
): Promise<{ result: RouteResult; ranks: ListingRank[] }> {
  const { view, k } = opts;
  const of = view?.of;
  const depth = of?.length ? Math.max(k, LISTING_RANK_DEPTH) : k;
  const full = await service.route(query, { k: depth, rerank: opts.rerank, token: opts.token, ...(view ? { view: { client: view.client } } : {}), passages: !of?.length });
  const result = { ...full, candidates: full.candidates.slice(0, k) };
  if (!view || !of?.length) return { result, ranks: [] };
  const wanted = new Set(of);
  const skills = service.skills();
  const entries = new Map(simulateListing(skills, view.client).entries.map((e) => [e.id, e]));
  const ranks: ListingRank[] = [];
  for (const doc of skills) {
    const uri = uriOf(doc.path);
    const entry = entries.get(doc.id);
    if (!wanted.has(uri) || !entry) continue;
    const at = full.candidates.findIndex((c) => c.skillId === doc.id);
    ranks.push({ uri, skillId: doc.id, rank: at < 0 ? null : at + 1, depth: full.candidates.length, ...listingGap(query, doc, entry) });
  }
  return { result, ranks };
}

/**
 * Ranks `params.query` in each of `ready` (on its queue, after what is queued there) and merges
 * the answers. `token` reaches the engine; once it is cancelled the request rejects with
 * `CancelledError`, whether the engine noticed or not, and no further folder is ranked.
 */
export async function routeFolders(
  ready: readonly FolderLibrary[],
  params: RouteParams,
  opts: { k: number; rerank: boolean; token?: CancelToken },
  uriOf: (lib: FolderLibrary, relPath: string) => string,
): Promise<RouteResponse> {
  const { k, token } = opts;
  const rankings: FolderRanking[] = [];
  const listing: ListingRank[] = [];
  for (const lib of ready) {
    const inLib = (relPath: string) => uriOf(lib, relPath);
    const answer = await lib.run(async () => {
      throwIfCancelled(token); // cancelled while queued behind an edit or a pass
      return lib.service ? routeFolder(lib.service, params.query, { k, rerank: opts.rerank, view: params.view, token }, inLib) : null;
    });
    throwIfCancelled(token);
    if (answer) rankings.push({ folder: lib.uri, result: answer.result, uriOf: inLib });
    listing.push(...(answer?.ranks ?? []));
  }
  return routeResponse(params.query, k, rankings, ready.length, params.view?.of ? listing : undefined);
}

/**
 * Ranks the skills of every ready library of `libs` (or of `params.folder`) for a request (with
 * `view`, over a client's listing). A request sent while a folder is (first) indexed waits for it,
 * or for its own cancellation; `token` reaches the engine, and once it is cancelled the request
 * rejects with `CancelledError` and no further folder is ranked.
 */
export async function routeLibraries(
  libs: readonly FolderLibrary[],
  params: RouteParams,
  token: RequestToken | undefined,
  uriOf: (lib: FolderLibrary, relPath: string) => string,
): Promise<RouteResponse> {
  const wanted = libs.filter((l) => !params.folder || l.uri === params.folder);
  await Promise.all(wanted.map((l) => l.settled(token)));
  const ready = wanted.filter((l) => l.state === 'ready' && l.service);
  if (!ready.length) {
    const why = wanted.length ? `the skill index is ${wanted.map((l) => l.state).join(', ')}` : 'no workspace folder is open';
    throw new Error(`cannot route yet: ${why}`);
  }
  const { topK, rerank } = ready[0].settings.route;
  return routeFolders(ready, params, { k: params.k ?? topK, rerank: params.rerank ?? rerank, token }, uriOf);
}
