/**
 * A routed request as an agent reads it: the compatible set first, then the other relevant
 * results, or a plain "no skill fits". The MCP server's `search_skills` and the prompt hook both
 * shape the engine's `RouteResult` here, so the tool and the hook say the same thing about a
 * request, and both keep the engine's order (the tool's routing is `route`'s).
 */
import * as path from 'node:path';
import type { SkipReason } from '../core/analysis/types';
import type { RouteCandidate, RouteResult } from '../core/service';
import { howRead, matchedWords } from '../core/route/notRelevant';

export { capRequest, MAX_REQUEST_CHARS, MAX_REQUEST_WORDS } from '../core/route/request';

/** How well the library answers a request (`RouteResult.match`; absent means `strong`). */
export type Match = 'strong' | 'weak' | 'none';

/** A candidate set aside because it conflicts with another skill (`RouteSet.rejected`). */
export interface SkipPartner {
  id: string;
  reason: SkipReason;
  evidence: string;
}

/** One skill of an answer. */
export interface AnswerSkill {
  id: string;
  name: string;
  /** The description (as the chosen client lists it, when one was named). */
  description: string;
  /** Absolute path of the skill's SKILL.md. */
  path: string;
  /** 1-based place in the engine's order. */
  rank: number;
  /** The router's final score, rounded to 3 decimals: higher is better, comparable within one answer. */
  relevance: number;
  /** Words of the request found in the skill's best-matching passage. */
  matched: string[];
  /** Set members: why this skill belongs in the set. */
  why?: string;
  /** Set members: candidates set aside because they conflict with this skill. */
  leftOut?: SkipPartner[];
  /** Other results: the set member this one was set aside for (use that one, not both). */
  setAsideFor?: SkipPartner;
  /** How the named client lists the description: cut at its cap, or left out of its listing. */
  listing?: 'cut' | 'dropped';
}

/** A routed request, shaped for an agent. */
export interface SkillAnswer {
  /** The request as routed (after `capRequest`). */
  request: string;
  /** Whether words past `MAX_REQUEST_WORDS` were left unread. */
  truncated: boolean;
  match: Match;
  /** One sentence that says what to do with this answer. */
  message: string;
  /** The skills chosen to serve the request together, best first. */
  set: AnswerSkill[];
  /** Other relevant results, in the engine's order after the set. */
  others: AnswerSkill[];
  /** How a request with Chinese in it was read in English (`RouteResult.readAs`). */
  readAs?: string;
  /** The script or language most of the request is in when the router reads none of it (`RouteResult.unread`). */
  unread?: string;
  /** The clauses the request declines, whose words were not matched (`RouteResult.declined`). */
  declined?: string[];
}

/** How a client lists a skill's description (core `listingText`), for `client`-specific answers. */
export type ListingOf = (id: string) => { text: string; cut: boolean; dropped: boolean } | undefined;

export interface ShapeOptions {
  /** Library root: `path` is this joined with the candidate's relative path. */
  root: string;
  /** Whether the request was cut by `capRequest`. */
  truncated?: boolean;
  listing?: ListingOf;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * The answer for a routed request. `match: 'none'` (or no relevant candidate) gives no results and
 * says so; candidates with `relevant: false` are left out; absent fields read as the engine's
 * defaults before calibrated relevance (`match` strong, every candidate relevant).
 */
export function shapeAnswer(result: RouteResult, opts: ShapeOptions): SkillAnswer {
  const relevant = result.candidates.filter((c) => c.relevant !== false);
  let match: Match = result.match ?? 'strong';
  if (!relevant.length) match = 'none';
  const base = { request: result.query, truncated: opts.truncated ?? false, ...(result.readAs ? { readAs: result.readAs } : {}), ...(result.unread ? { unread: result.unread } : {}), ...(result.declined ? { declined: result.declined } : {}) };
  if (match === 'none') {
    // The router cannot say that no skill fits a request it does not read: it says so instead.
    const message = result.unread
      ? `The router ${howRead(result.unread, true)}, in which most of this request is written, and none of ${matchedWords(result.unread)} is in a skill: decide from the skill list yourself.`
      : 'No skill in this library fits this request: go ahead without one.';
    return { ...base, match, message, set: [], others: [] };
  }
  const inSet = new Set(result.set?.ids ?? relevant.slice(0, 1).map((c) => c.skillId));
  const rejected = result.set?.rejected ?? [];
  const set: AnswerSkill[] = [];
  const others: AnswerSkill[] = [];
  for (const c of relevant) {
    const skill = answerSkill(c, opts);
    if (inSet.has(c.skillId)) {
      skill.why = whyInSet(c, set);
      const leftOut = rejected.filter((r) => r.partnerId === c.skillId).map(({ id, reason, evidence }) => ({ id, reason, evidence }));
      if (leftOut.length) skill.leftOut = leftOut;
      set.push(skill);
    } else {
      const r = rejected.find((x) => x.id === c.skillId);
      if (r) skill.setAsideFor = { id: r.partnerId, reason: r.reason, evidence: r.evidence };
      others.push(skill);
    }
  }
  return { ...base, match, message: answerMessage(match, set), set, others };
}

function answerSkill(c: RouteCandidate, opts: ShapeOptions): AnswerSkill {
  const listed = opts.listing?.(c.skillId);
  const skill: AnswerSkill = {
    id: c.skillId,
    name: c.name,
    description: listed && !listed.dropped ? listed.text : c.description,
    path: path.join(opts.root, ...c.path.split('/')),
    rank: c.rank,
    relevance: round3(c.scores.final),
    matched: c.passage?.matchedTerms ?? [],
  };
  if (listed?.dropped) skill.listing = 'dropped';
  else if (listed?.cut) skill.listing = 'cut';
  return skill;
}


/**
 * Set selection keeps a further skill when it carries a fair share of the score, covers part of
 * the request the skills above it do not, and is not redundant with them: say which part, in the
 * request's own words, when the matched passages show it.
 */
function whyInSet(c: RouteCandidate, above: readonly AnswerSkill[]): string {
  const words = c.passage?.matchedTerms ?? [];
  if (c.invoked) return `The request invokes it by name (${c.invoked}).`;
  if (!above.length) return `Best match for the request${words.length ? ` (it matches: ${words.slice(0, 8).join(', ')})` : ''}.`;
  const seen = new Set(above.flatMap((s) => s.matched.map((w) => w.toLowerCase())));
  const novel = [...new Set(words.filter((w) => !seen.has(w.toLowerCase())))];
  const names = above.map((s) => s.name).join(' and ');
  return novel.length
    ? `Covers ${novel.slice(0, 8).join(', ')}, which ${names} ${above.length === 1 ? 'does' : 'do'} not; not redundant with ${above.length === 1 ? 'it' : 'them'}.`
    : `Adds to what ${names} ${above.length === 1 ? 'covers' : 'cover'} and is not redundant with ${above.length === 1 ? 'it' : 'them'}.`;
}

/** A skill's name, with its id when the two differ (the id is its folder path, often the name). */
export function label(s: { id: string; name: string }): string {
  return s.name === s.id ? s.name : `${s.name} (${s.id})`;
}

function answerMessage(match: Match, set: readonly AnswerSkill[]): string {
  if (match === 'weak') return 'No skill clearly fits; the closest ones follow: read a description before using one.';
  if (set.length === 1) return `Use ${label(set[0])}.`;
  return `Use these ${set.length} skills together: ${set.map((s) => s.name).join(', ')}.`;
}

/** Why a candidate was set aside, in words (`SkipReason` → phrase). */
export function skipPhrase(reason: SkipReason): string {
  switch (reason) {
    case 'function_redundant':
      return 'does the same job as';
    case 'language_ecosystem_mismatch':
      return 'is for another language ecosystem than';
    case 'platform_exclusive':
      return 'is for another platform than';
    default:
      return `conflicts (${reason.replace(/_/g, ' ')}) with`;
  }
}
