/**
 * The library's term statistics as the engine's index holds them, for `reach`'s words
 * (reach/words.ts `TermFrequencies`): document frequencies from the lexical index, a skill's own
 * terms from its analysis. Nothing is analysed a second time and nothing is kept beside the index
 * (a count of its own over 20,000 skills analysed every body again, ~14 s of one core, and held
 * ~100 MB in the language server).
 */
import { FIELDS, type LexicalIndex, type TermCounts } from '../index/lexicalIndex';
import { termAt, termCount } from '../index/termTable';
import type { Analyser, TermFrequencies } from '../reach/words';

const F = FIELDS.length;
/** Fields before this one are the skill's own text; from it on, the bridge's English senses. */
const OWN_FIELDS = FIELDS.indexOf('bridge');

/**
 * `countsOf` gives a skill's analysed counts (undefined when it is not indexed); `analyser` is the
 * one that made them, so requests and listings meet the same terms.
 */
export function libraryTerms(lexical: LexicalIndex, countsOf: (id: string) => TermCounts | undefined, analyser: Analyser): TermFrequencies {
  return {
    get size() {
      return lexical.size;
    },
    df: (term) => lexical.df(term),
    terms: (id) => ownTerms(countsOf(id)),
    analyser,
  };
}

/** The terms of a skill's own fields (name, description, headings, body), not the bridge's senses. */
export function ownTerms(counts: TermCounts | undefined): Set<string> {
  const out = new Set<string>();
  if (!counts) return out;
  for (let i = 0, n = termCount(counts); i < n; i++) {
    for (let f = 0; f < OWN_FIELDS; f++) {
      if (counts.tf[i * F + f]) {
        out.add(termAt(counts, i));
        break;
      }
    }
  }
  return out;
}
