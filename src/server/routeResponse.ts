/**
 * The `skillRouter/route` answer from the rankings of one or more workspace folders. Each folder
 * is its own library, ranked by its own engine; this is only how their lists meet.
 */
import type { RouteResult } from '../core/service';
import type { ListingRank, RouteItem, RouteResponse, RouteSet } from '../shared/protocol';

/** One folder's ranking of the request. */
export interface FolderRanking {
  /** The workspace folder's URI. */
  folder: string;
  result: RouteResult;
  /** The URI of a SKILL.md of the folder, from its path in the library. */
  uriOf(relPath: string): string;
}

/**
 * Merges folder rankings into the response: the top `k` by final score across folders (scores
 * are normalised per library, so across folders the final score is the best order there is; a
 * single folder keeps its own order), ranks renumbered from 1, timings summed, and the set of the
 * top result's folder (sets do not span folders). `folders` is how many folders were asked (a
 * folder whose library went away meanwhile has no ranking); `listing`: the listing ranks asked
 * for with `view.of`, each in its own folder's listing.
 */
export function routeResponse(query: string, k: number, rankings: readonly FolderRanking[], folders = rankings.length, listing?: ListingRank[]): RouteResponse {
  const items: RouteItem[] = [];
  let dense: RouteResponse['dense'] = { disabled: 'no library' };
  let readAs: string | undefined;
  let unread: string | undefined;
  let declined: string[] | undefined;
  const timings = { embedMs: 0, denseMs: 0, lexicalMs: 0, fuseMs: 0, rerankMs: 0, totalMs: 0 };
  const sets = new Map<string, RouteSet>();
  for (const { folder, result, uriOf } of rankings) {
    dense = result.dense;
    readAs ??= result.readAs;
    unread ??= result.unread;
    declined ??= result.declined;
    if (result.set) sets.set(folder, result.set);
    for (const key of Object.keys(timings) as (keyof typeof timings)[]) timings[key] += result.timings[key];
    for (const c of result.candidates) {
      items.push({
        rank: c.rank,
        uri: uriOf(c.path),
        folder,
        skillId: c.skillId,
        name: c.name,
        description: c.description,
        scores: c.scores,
        passage: c.passage,
        ...(c.relevant !== undefined ? { relevant: c.relevant } : {}),
        ...(c.notRelevant ? { notRelevant: c.notRelevant } : {}),
        ...(c.notFor ? { notFor: c.notFor } : {}),
        ...(c.otherStack ? { otherStack: c.otherStack } : {}),
        ...(c.invoked ? { invoked: c.invoked } : {}),
      });
    }
  }
  if (folders > 1) items.sort((a, b) => b.scores.final - a.scores.final || a.rank - b.rank);
  const results = items.slice(0, k).map((item, i) => ({ ...item, rank: i + 1 }));
  const set = results.length ? sets.get(results[0].folder) : undefined;
  const match = bestMatch(rankings.map((r) => r.result.match));
  const view = rankings.find((r) => r.result.view)?.result.view;
  return {
    query, results, dense, timings,
    ...(readAs ? { readAs } : {}), ...(unread ? { unread } : {}), ...(declined ? { declined } : {}), ...(set ? { set } : {}), ...(match ? { match } : {}),
    ...(view ? { view: { client: view.client, label: view.label } } : {}), ...(listing ? { listing } : {}),
  };
}

/** The workspace's match: its best folder's; unknown when any folder's is (an unjudged folder may fit). */
function bestMatch(matches: readonly RouteResult['match'][]): RouteResult['match'] {
  if (!matches.length || matches.some((m) => m === undefined)) return undefined;
  return (['strong', 'weak', 'none'] as const).find((m) => matches.includes(m));
}
