/**
 * Why a skill ranks lower in a client's listing than in the full text, for one request: what the
 * listing keeps of its entry (cut at N characters, description dropped, not listed at all) and
 * which of the request's words only its body has. The query panel shows it next to both ranks.
 */
import type { ListedSkill } from '../profiles';
import type { SkillDoc } from '../types';
import type { ListingGap } from './gapReasons';
import { DEFAULT_ANALYSER, type Analyser } from './words';

export type { ListingGap } from './gapReasons';
export { gapReasons } from './gapReasons';

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_.+#'-]*/gu;

/**
 * The listing gap of `doc` (as `entry` lists it) for `query`. A word the description has is never
 * "only in the body", even where the listing cuts or drops it: the cut or the drop is the reason
 * then, said on its own.
 */
export function listingGap(query: string, doc: Pick<SkillDoc, 'body' | 'name' | 'description' | 'frontMatter'>, entry: ListedSkill, analyser: Analyser = DEFAULT_ANALYSER): ListingGap {
  const body = new Set(analyser(doc.body));
  const whenToUse = typeof doc.frontMatter.when_to_use === 'string' ? doc.frontMatter.when_to_use : '';
  const listed = new Set(analyser(`${doc.name}\n${entry.name}\n${doc.description}\n${whenToUse}\n${entry.omitted ? '' : entry.text}`));
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
