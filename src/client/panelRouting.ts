/**
 * What the panel host does with a `skillRouter/route` answer before the webview sees it: the
 * panel's shapes, the set view, and where the active editor's skill ranks. Pure (no `vscode`), so
 * unit tests cover it; the ranking itself always comes from the language server.
 */
import type { ListingClient } from '../core/profiles';
import type { RouteItem, RouteResponse } from '../shared/protocol';
import {
  ACTIVE_RANK_DEPTH,
  isPanelSet,
  MAX_READ_AS_LENGTH,
  MAX_UNREAD_LENGTH,
  MAX_DECLINED,
  MAX_QUERY_LENGTH,
  type ActiveSkill,
  type PanelListing,
  type PanelResult,
  type PanelSet,
  type RouteSummary,
} from '../shared/webviewProtocol';

/** The engine's set shape (`RouteResult.set` in src/core/service.ts), as the server may forward it. */
interface EngineRouteSet {
  ids: string[];
  rejected: { id: string; partnerId: string; reason: string; evidence?: string }[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isEngineSet(v: unknown): v is EngineRouteSet {
  return (
    isRecord(v) &&
    Array.isArray(v.ids) &&
    Array.isArray(v.rejected) &&
    v.rejected.every((r) => isRecord(r) && typeof r.id === 'string' && typeof r.partnerId === 'string' && typeof r.reason === 'string')
  );
}

/**
 * The set view from the server's `set` field: the engine's `{ids, rejected: [{id, partnerId,
 * reason, evidence}]}` or the panel's own shape. Anything else (or an unknown SKIP reason) gives
 * no set view rather than a wrong one.
 */
export function toPanelSet(raw: unknown): PanelSet | undefined {
  if (raw === undefined || raw === null) return undefined;
  const set: unknown = isEngineSet(raw)
    ? {
        skills: raw.ids,
        skipped: raw.rejected.map((r) => ({
          skillId: r.id,
          conflictsWith: r.partnerId,
          reason: r.reason,
          ...(typeof r.evidence === 'string' && r.evidence ? { explanation: r.evidence.slice(0, 2000) } : {}),
        })),
      }
    : raw;
  return isPanelSet(set) ? set : undefined;
}

/** `when_to_use`, when the server sends it (Claude Code lists it after the description). */
function whenToUse(item: RouteItem): { whenToUse?: string } {
  const v: unknown = (item as RouteItem & { whenToUse?: unknown }).whenToUse;
  return typeof v === 'string' && v.trim() ? { whenToUse: v } : {};
}

/** How a result's folder is shown: its path in the library, after the workspace folder's name when there are several. */
export type FolderLabel = (item: RouteItem) => string;

/**
 * The answer to request `requestId` as the panel shows it. `normalizeUri` makes the server's URIs
 * comparable with the editor's (the host passes `Uri.parse(u).toString()`).
 */
export function toRouteSummary(
  res: Omit<RouteResponse, 'set'> & { set?: unknown },
  requestId: number,
  k: number,
  folderLabel: FolderLabel,
  normalizeUri: (uri: string) => string,
): RouteSummary {
  const results: PanelResult[] = res.results.slice(0, k).map((item, i) => ({
    rank: i + 1,
    uri: normalizeUri(item.uri),
    skillId: item.skillId,
    name: item.name,
    folder: folderLabel(item),
    description: item.description,
    ...whenToUse(item),
    scores: {
      dense: item.scores.dense,
      lexical: item.scores.lexical,
      fused: item.scores.fused,
      rerank: item.scores.rerank,
      final: item.scores.final,
    },
    passage: item.passage
      ? {
          field: item.passage.field,
          text: item.passage.text,
          ...(item.passage.heading ? { heading: item.passage.heading } : {}),
          ...(item.passage.line !== undefined ? { line: item.passage.line } : {}),
          matchedTerms: item.passage.matchedTerms,
        }
      : null,
    ...(item.relevant === false ? { relevant: false } : {}),
    ...(item.notRelevant ? { notRelevant: item.notRelevant } : {}),
    ...(item.notFor ? { notFor: item.notFor } : {}),
    ...(item.otherStack ? { otherStack: item.otherStack } : {}),
    ...(item.invoked ? { invoked: item.invoked } : {}),
  }));
  const set = toPanelSet(res.set);
  return {
    requestId,
    query: res.query,
    k,
    results,
    dense: res.dense,
    totalMs: Math.max(0, res.timings.totalMs),
    ...(res.readAs ? { readAs: res.readAs.slice(0, MAX_READ_AS_LENGTH) } : {}),
    ...(res.unread ? { unread: res.unread.slice(0, MAX_UNREAD_LENGTH) } : {}),
    ...(res.declined?.length ? { declined: res.declined.slice(0, MAX_DECLINED).map((c) => c.slice(0, MAX_QUERY_LENGTH)) } : {}),
    ...(set ? { set } : {}),
    ...(res.match ? { match: res.match } : {}),
  };
}

/**
 * Where the skill whose SKILL.md is `skillUri` (in folder `folder`, as the results show it) ranks
 * for the shown request: from the shown results when it is among them, else from a deeper
 * routing of the same request (`routeDeeper(ACTIVE_RANK_DEPTH)`, done only then). It is named as
 * the results name skills, by its front-matter name; `lookupName` finds that name when the skill
 * ranks nowhere (empty when the server does not know the skill either).
 */
export async function locateActive(
  skillUri: string | null,
  folder: string,
  summary: RouteSummary | null,
  routeDeeper: (k: number) => Promise<{ uri: string; name: string }[]>,
  lookupName: () => Promise<string> = async () => '',
): Promise<ActiveSkill | null> {
  if (!skillUri) return null;
  const named = async (name: string | undefined) => name || (await lookupName().catch(() => '')) || '';
  if (!summary) return { uri: skillUri, name: await named(undefined), folder, rank: null, depth: 0 };
  const shown = summary.results.find((r) => r.uri === skillUri);
  if (shown) return { uri: skillUri, name: await named(shown.name), folder: shown.folder || folder, rank: shown.rank, depth: summary.results.length };
  const depth = Math.max(ACTIVE_RANK_DEPTH, summary.k);
  const deeper = await routeDeeper(depth);
  const i = deeper.findIndex((r) => r.uri === skillUri);
  return { uri: skillUri, name: await named(i >= 0 ? deeper[i].name : undefined), folder, rank: i >= 0 ? i + 1 : null, depth: deeper.length };
}

/**
 * The shown results' ranks in a client's listing, from a `skillRouter/route` answer with
 * `view.of` (their server URIs): each rank keyed by the result's URI as the panel shows it.
 * Ranks of skills not shown, or malformed ones, are left out; undefined when the answer has none.
 */
export function toPanelListing(res: Pick<RouteResponse, 'view' | 'listing'>, client: ListingClient, label: string, normalizeUri: (uri: string) => string): PanelListing | undefined {
  if (!res.listing) return undefined;
  return {
    client,
    label: res.view?.label ?? label,
    ranks: res.listing.map((r) => ({
      uri: normalizeUri(r.uri),
      rank: r.rank,
      depth: r.depth,
      listedChars: r.listedChars,
      fullChars: r.fullChars,
      cut: r.cut,
      dropped: r.dropped,
      omitted: r.omitted,
      ...(r.why ? { why: r.why.slice(0, 2000) } : {}),
      bodyOnly: r.bodyOnly.slice(0, 20),
    })),
  };
}
