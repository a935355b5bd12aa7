/**
 * Why a skill ranks lower in a client's listing than in the full text, for one request: what the
 * listing keeps of its entry (cut at N characters, description dropped, not listed at all) and
 * which of the request's words only its body has. The query panel shows it next to both ranks.
 */
import type { ListedSkill } from '../profiles';
import type { SkillDoc } from '../types';
import { DEFAULT_ANALYSER, type Analyser } from './words';

/** What a listing keeps of one skill, against one request. */
export interface ListingGap {
  /** Characters of the entry the client lists, and of the whole entry. */
  listedChars: number;
  fullChars: number;
  cut: boolean;
  /** The description is left out (the name alone is listed). */
  dropped: boolean;
  /** The skill is not listed at all. */
  omitted: boolean;
  /** The listing's reason for a cut, drop or omission. */
  why?: string;
  /** Words of the request that the skill's body has and its name and listed text do not (at most five, in request order). */
  bodyOnly: string[];
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_.+#'-]*/gu;

/** The listing gap of `doc` (as `entry` lists it) for `query`. */
export function listingGap(query: string, doc: Pick<SkillDoc, 'body'>, entry: ListedSkill, analyser: Analyser = DEFAULT_ANALYSER): ListingGap {
  const body = new Set(analyser(doc.body));
  const listed = new Set(entry.omitted ? [] : analyser(`${entry.name}\n${entry.text}`));
  const bodyOnly: string[] = [];
  const seen = new Set<string>();
  for (const m of query.matchAll(WORD)) {
    const word = m[0].replace(/[.'-]+$/, '');
    const terms = analyser(word);
    if (!terms.length || seen.has(terms[0])) continue;
    seen.add(terms[0]);
    if (terms.some((t) => body.has(t)) && !terms.some((t) => listed.has(t))) bodyOnly.push(word);
    if (bodyOnly.length === 5) break;
  }
  return {
    listedChars: entry.omitted ? 0 : entry.text.length,
    fullChars: entry.fullChars,
    cut: entry.cut,
    dropped: entry.descriptionDropped,
    omitted: entry.omitted,
    ...(entry.why ? { why: entry.why } : {}),
    bodyOnly,
  };
}

/** The gap in words, one phrase per cause: "description cut at 90 characters", "... only in the body: Blazor, component". */
export function gapReasons(gap: ListingGap, label: string): string[] {
  const out: string[] = [];
  if (gap.omitted) out.push(`not in ${label}'s listing${gap.why ? ` (${gap.why})` : ''}`);
  else if (gap.dropped) out.push(`description dropped: ${label} lists the name only${gap.why ? ` (${gap.why})` : ''}`);
  else if (gap.cut) out.push(`description cut at ${gap.listedChars.toLocaleString('en-US')} of ${gap.fullChars.toLocaleString('en-US')} characters`);
  if (gap.bodyOnly.length) out.push(`the request's key words appear only in the body: ${gap.bodyOnly.join(', ')}`);
  return out;
}
