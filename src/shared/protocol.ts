/**
 * Custom messages between the Skill Router language server and its clients (the VS Code
 * extension, tests, other editors). Every method here is documented in docs/lsp-extensions.md;
 * a unit test keeps the two in step.
 */
import type { NotRelevant } from '../core/route/notRelevant';
import { NotificationType, RequestType, RequestType0 } from 'vscode-languageserver-protocol';
import { isListingClient, type ListingClient } from '../core/profiles';
import type { ListingGap } from '../core/reach/gapReasons';
import type { RouteSet as EngineRouteSet } from '../core/service';

/** What the client passes in `initialize` (all optional; a plain LSP client may send nothing). */
export interface InitializationOptions {
  /**
   * Folder for the index caches (one sub-folder per workspace folder). The extension passes its
   * workspace storage, so reopening a workspace is warm. Default: the user cache folder.
   */
  cacheDir?: string;
  model?: {
    /** false: route by words only and switch semantic checks off. Default true. */
    enabled?: boolean;
    /** Embedding model folder; empty or absent for the built-in model. */
    folder?: string;
    /** Where ONNX runs. Default `cpu`. */
    device?: 'cpu' | 'cuda' | 'dml' | 'coreml';
  };
  /**
   * The editor and its version (the VS Code extension sends `{ name: 'vscode', version:
   * vscode.version }`). A check that editor's own SKILL.md validator is known to report is left to
   * it (unless `skillRouter.diagnostics.reportBuiltInChecks`); absent: every check is reported.
   */
  editor?: { name: string; version: string };
  /**
   * The client shows indexing progress itself, from `skillRouter/indexStatusChanged` (the VS Code
   * extension: one status item and a notification): the server then creates no
   * `window/workDoneProgress`, which VS Code would show as a second status bar entry.
   */
  progressFromStatus?: boolean;
}

/** Parameters of `skillRouter/route`. */
export interface RouteParams {
  /** The request, as a user would type it to an agent. */
  query: string;
  /** How many skills to return (default: the `skillRouter.route.topK` setting). */
  k?: number;
  /** Rerank the head of the list (default: the `skillRouter.route.rerank` setting). */
  rerank?: boolean;
  /** Only this workspace folder (a folder URI); all folders when absent. */
  folder?: string;
  /**
   * Rank over what a client lists (names and listed descriptions, nothing of the body) instead of
   * the full text, as `skill-router route --view listing --client <id>`. With `of` (SKILL.md URIs,
   * e.g. the results of a full-text request), the answer's `listing` also says where each of
   * them ranks in that listing and why it ranks lower there.
   */
  view?: RouteView;
}

/** `RouteParams.view`. */
export interface RouteView {
  client: ListingClient;
  of?: string[];
}

/** Every key of `RouteParams` (docs/lsp-extensions.md lists them; a test keeps the two in step). */
export const ROUTE_PARAM_KEYS = ['query', 'k', 'rerank', 'folder', 'view'] as const satisfies readonly (keyof RouteParams)[];
// A key added to RouteParams and not to the list above fails to compile here.
const routeParamKeysComplete: Exclude<keyof RouteParams, (typeof ROUTE_PARAM_KEYS)[number]> extends never ? true : never = true;
void routeParamKeysComplete;

/** Whether `v` is a well-formed `RouteParams.view` (the server answers -32602 otherwise). */
export function isRouteView(v: unknown): v is RouteView {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const r = v as Record<string, unknown>;
  if (Object.keys(r).some((key) => key !== 'client' && key !== 'of')) return false;
  if (typeof r.client !== 'string' || !isListingClient(r.client)) return false;
  return r.of === undefined || (Array.isArray(r.of) && r.of.length <= 100 && r.of.every((u) => typeof u === 'string'));
}

/** Where one skill (of `RouteView.of`) ranks in a client's listing, and what the listing keeps of it. */
export interface ListingRank extends ListingGap {
  /** URI of the SKILL.md, as it was asked. */
  uri: string;
  skillId: string;
  /** 1-based rank in the listing's ranking, null when it is not among the first `depth`. */
  rank: number | null;
  depth: number;
}

/** Every key of `ListingRank` (for the docs test). */
export const LISTING_RANK_KEYS = ['uri', 'skillId', 'rank', 'depth', 'listedChars', 'fullChars', 'cut', 'dropped', 'omitted', 'why', 'bodyOnly'] as const;

export interface RouteScores {
  dense: number | null;
  lexical: number;
  fused: number;
  rerank: number | null;
  final: number;
}

export interface RouteItem {
  rank: number;
  /** URI of the SKILL.md. */
  uri: string;
  /** URI of the workspace folder the skill belongs to. */
  folder: string;
  skillId: string;
  name: string;
  description: string;
  scores: RouteScores;
  passage: {
    field: 'name' | 'description' | 'body';
    text: string;
    heading?: string;
    /** Zero-based line in the SKILL.md. */
    line?: number;
    matchedTerms: string[];
  } | null;
  /** Whether the router judges it relevant (its calibrated relevance); absent: not judged, shown as relevant. */
  relevant?: boolean;
  /** Why its relevance is 0 by rule, whatever the reranker's score (see the core's `RouteCandidate.notRelevant`). */
  notRelevant?: NotRelevant;
  /** With `excluded` by a "do not use it for ..." clause: what the description says it is not for. */
  notFor?: string;
  /** With `other-stack`: what the skill says it is for, and what the request names. */
  otherStack?: string;
  /** The request invokes this skill by name (`/sdd:adr`, `$adr`): the text that does (see the core's `RouteCandidate.invoked`). */
  invoked?: string;
}

export interface RouteResponse {
  query: string;
  results: RouteItem[];
  /** Which model gave the dense scores, or why there are none. */
  dense: { model: string } | { disabled: string };
  timings: { embedMs: number; denseMs: number; lexicalMs: number; fuseMs: number; rerankMs: number; totalMs: number };
  /** How the Chinese-English bridge (Korean, Thai: the small glossaries) read the request (absent otherwise). */
  readAs?: string;
  /** The script or language most of the request is in when Skill Router reads none of it (`RouteResult.unread`). */
  unread?: string;
  /** The clauses the request declines, whose words were not matched (`RouteResult.declined`). */
  declined?: string[];
  /**
   * The skills the router judges to be needed together (the first `size` results of the top
   * result's folder) and the candidates set aside for a probable SKIP conflict with a kept one.
   * Absent when rerank is off or nothing matched.
   */
  set?: RouteSet;
  /** How well the library answers the request (`none`: no skill fits); absent when not judged. */
  match?: 'strong' | 'weak' | 'none';
  /** With `view`: whose listing was ranked. */
  view?: { client: ListingClient; label: string };
  /** With `view.of`: where each of those skills ranks in the listing, and why. */
  listing?: ListingRank[];
}

/** A routed request's compatible set: the engine's `RouteResult.set`, as it is sent. */
export type RouteSet = EngineRouteSet;

export type IndexState = 'starting' | 'indexing' | 'ready' | 'cancelled' | 'error';

export interface FolderStatus {
  uri: string;
  state: IndexState;
  skills: number;
  failed: number;
  cached: number;
  embedded: number;
  indexMs: number | null;
  error: string | null;
}

export interface IndexStatus {
  /** The least advanced state over all folders (`ready` once all are). */
  state: IndexState;
  skills: number;
  /** Files found but not readable as skills. */
  failed: number;
  folders: FolderStatus[];
  /** Embedding model id, or null when semantic checks are off. */
  model: string | null;
  /** Why semantic routing and checks are off, when they are. */
  semanticDisabled: string | null;
  /** Indexing progress while `state` is `indexing`. */
  progress: { stage: string; done: number; total: number; percent: number } | null;
  /**
   * The cross-skill checks (near-duplicates, conflicts) while they run or are due: skills done of
   * total. `pass` says which: the `analysis` after an index, or the `recheck` of every skill once
   * edits to names or descriptions pause; `waiting` while the recheck is due but waits for typing
   * to pause `delayMs` (nothing is running then).
   */
  analysis: { done: number; total: number; pass?: 'analysis' | 'recheck'; waiting?: { delayMs: number } } | null;
  timings: {
    /** Last full index over all folders. */
    indexMs: number | null;
    /** Last one-skill update (parse, lexical, embed). */
    lastUpdateMs: number | null;
    /** Last edit to published diagnostics, debounce included. */
    lastDiagnosticsMs: number | null;
    /**
     * The longest the server's event loop was held over about the last ten seconds, in ms: how
     * long a request could wait to be read (the language server's own; absent elsewhere).
     */
    loopDelayMaxMs?: number;
  };
  /**
   * The server process's memory in MB (node's `process.memoryUsage()`), as the status item's
   * tooltip shows it and the benches record it (the language server's own; absent elsewhere). `heap`:
   * this thread's JavaScript heap in use / held; `external`: buffers and typed arrays; the rest of
   * `rss` is native (the encoder's worker and onnxruntime, code, the allocator's free lists).
   */
  memory?: { rssMb: number; heapUsedMb: number; heapTotalMb: number; externalMb: number };
  lastError: string | null;
  /** Client profiles in effect (of the first folder). */
  profiles: string[];
  /** What chose them: "skillRouter.profiles", or the folder's layout (".claude/skills", or "no client folder ...: the spec alone"). */
  profilesFrom: string;
  /** Listing budget of the first selected profile that has one: name + description characters. */
  budget: { profile: string | null; used: number; budget: number | null };
}

/** `skillRouter/listing`: every skill's share of the listing budget, most expensive first. */
export interface ListingResponse {
  /** The client profile whose budget is metered (as in `IndexStatus.budget`). */
  profile: string | null;
  budget: number | null;
  /** Characters of name + description over all skills. */
  used: number;
  skills: {
    /** URI of the SKILL.md. */
    uri: string;
    skillId: string;
    name: string;
    /** Characters of name + description. */
    chars: number;
    /** How the profile lists it: whole, cut at its listing cap, or left out (Codex, over 1,024). */
    listed: 'full' | 'cut' | 'dropped';
  }[];
}

/** Ranks the skills of the workspace for a request, with per-stage scores and passages. */
export const RouteRequest = new RequestType<RouteParams, RouteResponse, void>('skillRouter/route');

/** The index state: counts, model, timings, last error. */
export const IndexStatusRequest = new RequestType0<IndexStatus, void>('skillRouter/indexStatus');

/** Sent by the server whenever the index state changes (the status bar listens). */
export const IndexStatusNotification = new NotificationType<IndexStatus>('skillRouter/indexStatusChanged');

/** Re-reads and re-indexes every workspace folder; resolves with the new status. */
export const ReindexRequest = new RequestType0<IndexStatus, void>('skillRouter/reindex');

/**
 * Stops the indexing in progress (the client's notification was cancelled): folders not indexed
 * yet end `cancelled`, as with a cancelled `window/workDoneProgress`.
 */
export const CancelIndexNotification = new NotificationType<void>('skillRouter/cancelIndex');

/** Every skill by its share of the listing budget, most expensive first (the status bar meter's list). */
export const ListingRequest = new RequestType0<ListingResponse, void>('skillRouter/listing');

/** Every custom method, for the docs test. */
export const CUSTOM_METHODS = [
  RouteRequest.method,
  IndexStatusRequest.method,
  IndexStatusNotification.method,
  ReindexRequest.method,
  CancelIndexNotification.method,
  ListingRequest.method,
];

/** Settings the server reads only when it starts: changing them asks for a restart. */
export const RESTART_SETTINGS = ['skillRouter.model.enabled', 'skillRouter.model.folder', 'skillRouter.model.device'];

/** Source of every diagnostic the server publishes. */
export const DIAGNOSTIC_SOURCE = 'skill-router';
