/**
 * Messages between the extension host and the "test a query" webview panel, both ways, with the
 * runtime validators each side runs on what it receives. A webview is a web page: whatever it
 * posts is untrusted input to the host, and the host's messages are checked too, so that a
 * message from an older or newer build is ignored instead of half-rendered.
 *
 * No `vscode` and no DOM here: the host (`src/client/queryPanel.ts`) and the webview
 * (`src/webview/panel.ts`) both import this module.
 */
import type { NotRelevant } from '../core/route/notRelevant';
import { SKIP_REASONS, type SkipReason } from '../core/analysis/types';
import { LISTING_CLIENTS, PROFILES, type ListingClient, type ProfileId } from '../core/profiles';
import type { ListingGap } from '../core/reach/gapReasons';

/** Longest request the panel sends; longer text is cut in the input already. */
export const MAX_QUERY_LENGTH = 2000;
/** The bridged English of a request (a Chinese character often becomes a word of several letters). */
export const MAX_READ_AS_LENGTH = MAX_QUERY_LENGTH * 8;
/** A script's or language's name (`RouteSummary.unread`). */
export const MAX_UNREAD_LENGTH = 64;
/** Declined clauses a summary carries (`RouteSummary.declined`). */
export const MAX_DECLINED = 20;
/** Most results one request may ask for. */
export const MAX_K = 50;
export const DEFAULT_K = 10;
/** How deep the host looks for the active skill when it is not in the top K. */
export const ACTIVE_RANK_DEPTH = 50;
/** Requests kept in the panel's history. */
export const MAX_HISTORY = 20;
/** Skills one saved routing test may name in `expect` or `notExpect`. */
export const MAX_TEST_SKILLS = 20;

// ---------------------------------------------------------------------------------------------
// Shapes

/** Per-stage scores of one result (as in `skillRouter/route`). */
export interface PanelScores {
  dense: number | null;
  lexical: number;
  fused: number;
  rerank: number | null;
  final: number;
}

export interface PanelPassage {
  field: 'name' | 'description' | 'body';
  text: string;
  heading?: string;
  /** Zero-based line in SKILL.md. */
  line?: number;
  /** Query terms (analysed: lower-cased, stemmed) found in the passage. */
  matchedTerms: string[];
}

/** One ranked skill as the panel shows it. */
export interface PanelResult {
  /** 1-based rank. */
  rank: number;
  /** URI of the SKILL.md (what a click opens). */
  uri: string;
  skillId: string;
  name: string;
  /** Skill folder as displayed: its path in the library, prefixed by the workspace folder's name when there are several. */
  folder: string;
  description: string;
  /** `when_to_use`, when the server sends it: Claude Code lists it after the description. */
  whenToUse?: string;
  scores: PanelScores;
  passage: PanelPassage | null;
  /** false: the router judges it not relevant (shown for context, below the line); absent: relevant. */
  relevant?: boolean;
  /** Why its relevance is 0 by rule: its description excludes what the request names, or it is off topic. */
  notRelevant?: NotRelevant;
  /** With `excluded` by a "do not use it for ..." clause: what the description says it is not for. */
  notFor?: string;
  /** With `other-stack`: what the skill says it is for, and what the request names. */
  otherStack?: string;
  /** The request invokes this skill by name: the text that does (`/sdd:adr`, `$adr`). */
  invoked?: string;
}

/** A candidate left out of the set: choosing it with `conflictsWith` would be a SKIP combination. */
export interface PanelSkip {
  skillId: string;
  /** The skill of the set (or candidate) it conflicts with. */
  conflictsWith: string;
  reason: SkipReason;
  /** One sentence on why, when the router gives one. */
  explanation?: string;
}

/** The router's judgement of which of the top results one request needs together. */
export interface PanelSet {
  /** Skill ids judged needed together, best first. */
  skills: string[];
  /** Probable SKIP conflicts among the candidates, with the reason. */
  skipped: PanelSkip[];
}

/** Where the skill of the active editor ranks for the shown request. */
export interface ActiveSkill {
  /** URI of its SKILL.md. */
  uri: string;
  /** Its front-matter `name`, as the results name skills; empty when not known. */
  name: string;
  /** Its folder, as the results show it (path in the library, after the workspace folder's name when there are several). */
  folder: string;
  /** 1-based rank, or null when it is not among the first `depth` ranked skills. */
  rank: number | null;
  /** How many ranked skills were looked at to find it (0: no request routed yet). */
  depth: number;
}

/** Where one shown result ranks in the selected client's listing, and what the listing keeps of it. */
export interface PanelListingRank extends ListingGap {
  /** URI of the SKILL.md (as the results show it). */
  uri: string;
  /** 1-based rank in the listing, null when not among the first `depth`. */
  rank: number | null;
  depth: number;
}

/** The shown results as the selected client lists them. */
export interface PanelListing {
  client: ListingClient;
  /** "Claude Code". */
  label: string;
  ranks: PanelListingRank[];
}

/** The client whose listing a profile stands for (the spec lists nothing of its own). */
export function listingClientOf(profile: ProfileId): ListingClient | undefined {
  return profile === 'spec' ? undefined : profile;
}

export interface RouteSummary {
  requestId: number;
  query: string;
  k: number;
  results: PanelResult[];
  /** Which model gave the dense scores, or why there are none. */
  dense: { model: string } | { disabled: string };
  totalMs: number;
  /** How the Chinese-English bridge read the request, when it has Chinese in it. */
  readAs?: string;
  /** The script or language most of the request is in when Skill Router reads none of it (Hangul, Thai, Spanish, ...). */
  unread?: string;
  /** The clauses the request declines, whose words were not matched. */
  declined?: string[];
  set?: PanelSet;
  /** How well the library answers the request; `none`: no skill in it fits. Absent: not judged. */
  match?: 'strong' | 'weak' | 'none';
  /** The shown results' ranks in the selected client's listing (absent for the spec, or when they could not be had). */
  listing?: PanelListing;
}

/** What the panel remembers between openings (the webview's `setState`, and the host's copy). */
export interface PanelSnapshot {
  query: string;
  k: number;
  profile: ProfileId;
  /** Most recent first. */
  history: string[];
}

/** One routing test for `skill-router.tests.yaml` (docs/cli.md): skill names or ids. */
export interface RoutingTestEntry {
  query: string;
  expect: string[];
  notExpect?: string[];
  top?: number;
  set?: boolean;
}

/** A routing test run before it is saved: judged as `skill-router check` judges it. */
export interface TestVerdict {
  passed: boolean;
  /** The N it was judged with (its `top`, else the config's, else 5). */
  topN: number;
  /** Why it fails (empty when it passes), worded as `check` words them. */
  problems: string[];
}

// ---------------------------------------------------------------------------------------------
// Messages

/** Webview → host. */
export type WebviewMessage =
  /** The page is loaded and listening; the host answers with `init`. */
  | { type: 'ready' }
  /**
   * Route a request; the host answers with `results` or `error` carrying the same `requestId`.
   * With `client`, the results also carry their ranks in that client's listing.
   */
  | { type: 'route'; requestId: number; query: string; k: number; client?: ListingClient }
  /** Open a SKILL.md (or the routing tests file) the host sent, at a zero-based line. */
  | { type: 'open'; uri: string; line?: number }
  /**
   * Run a routing test, and append it to the tests file if it passes (or `force`): the host
   * answers `saved`, `tested` (it fails now and was not saved) or `error`.
   */
  | { type: 'saveTest'; test: RoutingTestEntry; force?: boolean }
  /** The panel's state changed; the host keeps it for the next time the panel opens. */
  | { type: 'persist'; snapshot: PanelSnapshot };

/** Host → webview. */
export type HostMessage =
  | {
      type: 'init';
      /** Client profiles selected in the settings; the first is the panel's default. */
      profiles: ProfileId[];
      /** Default K (`skillRouter.route.topK`). */
      k: number;
      /** What the panel showed when it was last open, if the webview has no state of its own. */
      restore: (PanelSnapshot & { last: RouteSummary | null }) | null;
      active: ActiveSkill | null;
    }
  | ({ type: 'results'; active: ActiveSkill | null } & RouteSummary)
  /** A request failed (`requestId` set), or something else did. */
  | { type: 'error'; requestId?: number; message: string }
  /** The active editor changed: the skill it belongs to (rank for the last request), or none. */
  | { type: 'active'; active: ActiveSkill | null }
  /** A routing test was appended to `file` (a path as displayed; `uri` opens it), with how it ran when it could. */
  | { type: 'saved'; file: string; uri: string; query: string; outcome?: TestVerdict }
  /** The routing test fails now, so it was not saved: `check` would fail on it at once. */
  | { type: 'tested'; query: string; outcome: TestVerdict }
  /** Route this request as if the author had typed it (the command was given a request). */
  | { type: 'run'; query: string }
  /** A SKILL.md changed since the shown answer: route the shown request again (input and history stay). */
  | { type: 'stale' };

// ---------------------------------------------------------------------------------------------
// Validators: small combinators, so that each shape above has one checker next to it.

type Check<T> = (v: unknown) => v is T;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFiniteNumber: Check<number> = (v): v is number => typeof v === 'number' && Number.isFinite(v);
const isBool: Check<boolean> = (v): v is boolean => typeof v === 'boolean';
const intIn = (min: number, max: number): Check<number> =>
  (v): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const str = (max: number, min = 0): Check<string> =>
  (v): v is string => typeof v === 'string' && v.length >= min && v.length <= max;
const nonBlank = (max: number): Check<string> => (v): v is string => str(max, 1)(v) && v.trim() !== '';
const nullable = <T>(c: Check<T>): Check<T | null> => (v): v is T | null => v === null || c(v);
const arrayOf = <T>(c: Check<T>, max: number): Check<T[]> =>
  (v): v is T[] => Array.isArray(v) && v.length <= max && v.every((x) => c(x));
const oneOf = <T extends string>(values: readonly T[]): Check<T> =>
  (v): v is T => typeof v === 'string' && (values as readonly string[]).includes(v);

/** A record with exactly these keys (optional ones may be absent or undefined); extra keys fail. */
function shape<T>(required: Record<string, Check<unknown>>, optional: Record<string, Check<unknown>> = {}): Check<T> {
  return (v): v is T => {
    if (!isRecord(v)) return false;
    for (const key of Object.keys(v)) if (!(key in required) && !(key in optional)) return false;
    for (const [key, c] of Object.entries(required)) if (!(key in v) || !c(v[key])) return false;
    for (const [key, c] of Object.entries(optional)) if (v[key] !== undefined && !c(v[key])) return false;
    return true;
  };
}

const TEXT = 100_000;
const SHORT = 2_000;
const URI = 8_000;

const isQuery = nonBlank(MAX_QUERY_LENGTH);
const isK = intIn(1, MAX_K);
const isRank = intIn(1, 100_000);
const isRequestId = intIn(1, Number.MAX_SAFE_INTEGER);

export const isProfile: Check<ProfileId> = oneOf(PROFILES);
export const isSkipReason: Check<SkipReason> = oneOf(SKIP_REASONS);

export const isPanelScores = shape<PanelScores>({
  dense: nullable(isFiniteNumber),
  lexical: isFiniteNumber,
  fused: isFiniteNumber,
  rerank: nullable(isFiniteNumber),
  final: isFiniteNumber,
});

export const isPanelPassage = shape<PanelPassage>(
  { field: oneOf(['name', 'description', 'body'] as const), text: str(TEXT), matchedTerms: arrayOf(str(SHORT), 500) },
  { heading: str(SHORT), line: intIn(0, 10_000_000) },
);

export const isPanelResult = shape<PanelResult>(
  {
    rank: isRank,
    uri: nonBlank(URI),
    skillId: nonBlank(SHORT),
    name: str(SHORT),
    folder: str(SHORT),
    description: str(TEXT),
    scores: isPanelScores,
    passage: nullable(isPanelPassage),
  },
  { whenToUse: str(TEXT), relevant: isBool, notRelevant: oneOf(['excluded', 'off-topic', 'general-question', 'other-stack'] as const), notFor: str(SHORT), otherStack: str(SHORT), invoked: str(SHORT) },
);

export const isPanelSkip = shape<PanelSkip>(
  { skillId: nonBlank(SHORT), conflictsWith: nonBlank(SHORT), reason: isSkipReason },
  { explanation: str(SHORT) },
);

export const isPanelSet = shape<PanelSet>({
  skills: arrayOf(nonBlank(SHORT), 500),
  skipped: arrayOf(isPanelSkip, 500),
});

export const isActiveSkill = shape<ActiveSkill>({
  uri: nonBlank(URI),
  name: str(SHORT),
  folder: str(SHORT),
  rank: nullable(isRank),
  depth: intIn(0, 100_000),
});

export const isListingClientName: Check<ListingClient> = oneOf(LISTING_CLIENTS);

export const isPanelListingRank = shape<PanelListingRank>(
  {
    uri: nonBlank(URI),
    rank: nullable(isRank),
    depth: intIn(0, 100_000),
    listedChars: intIn(0, 10_000_000),
    fullChars: intIn(0, 10_000_000),
    cut: isBool,
    dropped: isBool,
    omitted: isBool,
    bodyOnly: arrayOf(str(SHORT), 20),
  },
  { why: str(SHORT) },
);

export const isPanelListing = shape<PanelListing>({ client: isListingClientName, label: str(SHORT), ranks: arrayOf(isPanelListingRank, MAX_K) });

const isDense = (v: unknown): v is RouteSummary['dense'] =>
  shape<{ model: string }>({ model: str(SHORT) })(v) || shape<{ disabled: string }>({ disabled: str(SHORT) })(v);

const summaryKeys = {
  requestId: isRequestId,
  query: str(MAX_QUERY_LENGTH),
  k: isK,
  results: arrayOf(isPanelResult, MAX_K),
  dense: isDense,
  totalMs: (v: unknown): v is number => isFiniteNumber(v) && v >= 0,
};

const summaryOptional = { set: isPanelSet, readAs: str(MAX_READ_AS_LENGTH), unread: str(MAX_UNREAD_LENGTH), declined: arrayOf(str(MAX_QUERY_LENGTH), MAX_DECLINED), match: oneOf(['strong', 'weak', 'none'] as const), listing: isPanelListing };

/** Ranks 1..n in order, and no more results than asked for. */
function coherent(s: RouteSummary): boolean {
  return s.results.length <= s.k && s.results.every((r, i) => r.rank === i + 1);
}

export const isRouteSummary: Check<RouteSummary> = (v): v is RouteSummary =>
  shape<RouteSummary>(summaryKeys, summaryOptional)(v) && coherent(v);

export const isPanelSnapshot = shape<PanelSnapshot>({
  query: str(MAX_QUERY_LENGTH),
  k: isK,
  profile: isProfile,
  history: arrayOf(isQuery, MAX_HISTORY),
});

const isSkillRefs = arrayOf(nonBlank(SHORT), MAX_TEST_SKILLS);

/** The rules of `parseRoutingTests` (docs/cli.md): something to expect, and `set` needs `expect`. */
export const isRoutingTestEntry: Check<RoutingTestEntry> = (v): v is RoutingTestEntry =>
  shape<RoutingTestEntry>(
    { query: isQuery, expect: isSkillRefs },
    { notExpect: isSkillRefs, top: intIn(1, 1000), set: isBool },
  )(v) &&
  v.expect.length + (v.notExpect?.length ?? 0) > 0 &&
  !(v.set === true && v.expect.length === 0);

export const isTestVerdict = shape<TestVerdict>({ passed: isBool, topN: intIn(1, 1000), problems: arrayOf(str(SHORT), 2 * MAX_TEST_SKILLS) });

const webviewChecks: { [K in WebviewMessage['type']]: Check<Extract<WebviewMessage, { type: K }>> } = {
  ready: shape({ type: str(10) }),
  route: shape({ type: str(10), requestId: isRequestId, query: isQuery, k: isK }, { client: isListingClientName }),
  open: shape({ type: str(10), uri: nonBlank(URI) }, { line: intIn(0, 10_000_000) }),
  saveTest: shape({ type: str(10), test: isRoutingTestEntry }, { force: isBool }),
  persist: shape({ type: str(10), snapshot: isPanelSnapshot }),
};

const isRestore = nullable((v: unknown): v is PanelSnapshot & { last: RouteSummary | null } => {
  if (!isRecord(v) || !('last' in v)) return false;
  const { last, ...snapshot } = v;
  return isPanelSnapshot(snapshot) && (last === null || isRouteSummary(last));
});

const hostChecks: { [K in HostMessage['type']]: Check<Extract<HostMessage, { type: K }>> } = {
  init: shape({
    type: str(10),
    profiles: (v: unknown): v is ProfileId[] => arrayOf(isProfile, PROFILES.length)(v) && v.length > 0,
    k: isK,
    restore: isRestore,
    active: nullable(isActiveSkill),
  }),
  results: (v: unknown): v is Extract<HostMessage, { type: 'results' }> =>
    shape<Extract<HostMessage, { type: 'results' }>>(
      { ...summaryKeys, type: str(10), active: nullable(isActiveSkill) },
      summaryOptional,
    )(v) && coherent(v),
  error: shape({ type: str(10), message: str(TEXT) }, { requestId: isRequestId }),
  active: shape({ type: str(10), active: nullable(isActiveSkill) }),
  saved: shape({ type: str(10), file: str(URI), uri: nonBlank(URI), query: str(MAX_QUERY_LENGTH) }, { outcome: isTestVerdict }),
  tested: shape({ type: str(10), query: str(MAX_QUERY_LENGTH), outcome: isTestVerdict }),
  run: shape({ type: str(10), query: isQuery }),
  stale: shape({ type: str(10) }),
};

function validate<M extends { type: string }>(checks: Record<string, Check<unknown>>, v: unknown): v is M {
  if (!isRecord(v) || typeof v.type !== 'string' || !Object.prototype.hasOwnProperty.call(checks, v.type)) return false;
  return checks[v.type](v);
}

/** True when `v` is a well-formed message from the webview (the host ignores anything else). */
export function isWebviewMessage(v: unknown): v is WebviewMessage {
  return validate<WebviewMessage>(webviewChecks, v);
}

/** True when `v` is a well-formed message from the host (the webview ignores anything else). */
export function isHostMessage(v: unknown): v is HostMessage {
  return validate<HostMessage>(hostChecks, v);
}

// ---------------------------------------------------------------------------------------------
// Helpers both sides use

/** Labels of the SKIP reasons, as the set view words them. */
export const SKIP_REASON_LABELS: Record<SkipReason, string> = {
  function_redundant: 'redundant: does the same job',
  language_ecosystem_mismatch: 'other language ecosystem',
  platform_exclusive: 'exclusive platform',
  domain_mismatch: 'other domain',
  audience_mismatch: 'other audience',
  granularity_mismatch: 'different granularity',
  business_layer_mismatch: 'other business layer',
  forced_chaining: 'forced chaining',
};

/** History with `query` moved to the front, without duplicates, capped at MAX_HISTORY. */
export function pushHistory(history: readonly string[], query: string): string[] {
  const q = query.trim();
  if (!q) return [...history];
  return [q, ...history.filter((h) => h !== q)].slice(0, MAX_HISTORY);
}

/**
 * How the panel names a skill: by its front-matter `name` (what the agent lists, and what a
 * routing test refers to), with its folder when the two differ, as the result cards show both.
 */
export function skillLabel(s: { name: string; folder: string }): string {
  const base = s.folder.split('/').pop() ?? s.folder;
  if (!s.name) return s.folder;
  return s.name === base ? s.name : `${s.name} (folder ${s.folder})`;
}
