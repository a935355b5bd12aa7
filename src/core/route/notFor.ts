/**
 * What a description says its skill is not for, matched against a request: "Do not use it for
 * active penetration testing, a CVE lookup, or legal/compliance advice." An author who writes
 * that, and a request that asks for one of those things ("Run an authorized penetration test
 * against the staging API"), leave the skill no relevance, however close its words came: the
 * reranker reads the clause's words as a match.
 *
 * Measured over the real requests of the tune half of bench/realsuites, dotnet and the 185 dev
 * requests (docs/retrieval-log.md §25): among the top 5 of every request, the rule below marks 9
 * relevant results that the authors' tests say the skill must not take (6 of them first) and 1
 * right answer (second, where a request to switch branches with work in progress met "ordinary
 * branch switching"); none of the right first answers.
 */
import { splitNegated } from '../analysis/facets';
import { analyse } from '../text/analyse';

/** How a "not for" clause opens; what follows it lists what the skill is not for. */
const OPENING = /^\s*(?:do not use|don['’]t use|never use|not (?:intended |meant |designed )?for|not to be used for|avoid (?:using )?(?:this|it) for|不要用于|不适用于|不用于)\s*(?:(?:it|this(?: skill)?)(?![\p{L}]))?\s*(?:(?:for|to|when|on|with)(?![\p{L}]))?\s*/iu;

/** Words of a clause that name no job: the skill, the user, the asking. */
const EMPTY = new Set(analyse('use it this skill skills the a an any for when user asks task tasks work instead other another'));

/** A negation inside a request or an item: what follows is what is not wanted ("no runtime artifacts"). */
const NEGATION = /(?<![\p{L}])(?:without|no|not|never|rather than|instead of|except|other than)(?![\p{L}])[^.;,!?]*/giu;
const NEGATES = new RegExp(NEGATION.source, 'iu');

/** The things a description says its skill is not for, each in the author's words. */
export function notForItems(description: string): string[] {
  const { negated } = splitNegated(description);
  if (!negated) return [];
  return negated
    .split(/\.\s/u)
    .flatMap((clause) => clause.replace(/\([^)]*\)/gu, ' ').replace(OPENING, '').split(/,|;|\bor\b|\band\b|、|或/u))
    .map((s) => s.trim())
    // An item that negates in turn ("social captions without video") says too much at once to match.
    .filter((s) => s.length > 2 && !NEGATES.test(s));
}

/**
 * The item of `description`'s "not for" clauses that `request` asks for, or null: at least two of
 * the item's words in the request, at least half of them, and one that the skill's name and the
 * rest of its description do not use (so "existing migration" in "Do not use it to apply an existing
 * migration" does not catch a request its positive text also serves by "migration" alone). What
 * the request itself negates ("without runtime artifacts") is not asked for.
 */
export function notForMatch(request: string, name: string, description: string): string | null {
  return matchClauses(askedTerms(request), notForClauses(name, description));
}

/** A skill's "not for" items, each as its words' terms, and the terms of the rest of its text. */
export interface NotForClauses {
  items: { text: string; words: string[][] }[];
  positive: ReadonlySet<string>;
}

/** What `request` asks for, as terms: the request without what it negates itself. */
export function askedTerms(request: string): ReadonlySet<string> {
  return new Set(analyse(request.replace(NEGATION, ' ')));
}

/** The "not for" clauses of a skill, analysed once (they depend on its name and description only). */
export function notForClauses(name: string, description: string): NotForClauses {
  const items = notForItems(description).map((text) => ({
    text,
    // A word is a word as written: ASP.NET is one, however the analyser splits it.
    words: text.split(/\s+/u).map((w) => analyse(w).filter((t) => !EMPTY.has(t))).filter((ts) => ts.length),
  }));
  const positive = items.length ? new Set([...analyse(splitNegated(description).positive), ...analyse(name.replace(/[-_]+/gu, ' '))]) : new Set<string>();
  return { items, positive };
}

/** The first item of `clauses` that `asked` asks for (see `notForMatch`), or null. */
export function matchClauses(asked: ReadonlySet<string>, clauses: NotForClauses): string | null {
  for (const { text, words } of clauses.items) {
    const met = words.filter((ts) => ts.some((t) => asked.has(t)));
    const own = met.filter((ts) => ts.every((t) => !clauses.positive.has(t)));
    if (met.length >= 2 && met.length * 2 >= words.length && own.length >= 1) return text;
  }
  return null;
}
