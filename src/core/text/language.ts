/**
 * Which language a request in Latin letters is written in, when it is not English: told by its
 * function words, from the stop-word lists of the `stopword` package (words English also has
 * left out). Skill Router reads English, and Chinese through its dictionary; a Spanish or German
 * request reaches it as a few names and cognates, so its relevance cannot say that no skill fits.
 */
import * as stopwords from 'stopword';

/**
 * Languages written in Latin letters with a stop-word list, commonest first: a tie goes to the
 * earlier (Spanish before Catalan). Left out: languages whose function words are mostly a larger
 * neighbour's (Galician's list holds more of a Spanish request's words than Spanish's does; Malay,
 * Slovak, Afrikaans), so that a request is named for the language it is most likely in.
 */
const LANGUAGES: readonly (readonly [keyof typeof stopwords, string])[] = [
  ['spa', 'Spanish'],
  ['por', 'Portuguese'],
  ['fra', 'French'],
  ['deu', 'German'],
  ['ita', 'Italian'],
  ['nld', 'Dutch'],
  ['pol', 'Polish'],
  ['tur', 'Turkish'],
  ['ind', 'Indonesian'],
  ['vie', 'Vietnamese'],
  ['ron', 'Romanian'],
  ['ces', 'Czech'],
  ['swe', 'Swedish'],
  ['dan', 'Danish'],
  ['nob', 'Norwegian'],
  ['fin', 'Finnish'],
  ['hun', 'Hungarian'],
  ['cat', 'Catalan'],
  ['hrv', 'Croatian'],
  ['slv', 'Slovenian'],
  ['est', 'Estonian'],
  ['lav', 'Latvian'],
  ['lit', 'Lithuanian'],
  ['eus', 'Basque'],
  ['swa', 'Swahili'],
  ['tgl', 'Tagalog'],
];

/** Distinct function words of one language a request must use, beyond the English ones it uses. */
export const MIN_FUNCTION_WORDS = 3;

/** English stop words, and each other language's that English does not have; made on first use. */
let lists: { english: ReadonlySet<string>; others: { name: string; words: ReadonlySet<string> }[] } | null = null;

function languageLists(): NonNullable<typeof lists> {
  if (lists) return lists;
  const english = new Set<string>(stopwords.eng);
  lists = { english, others: LANGUAGES.map(([code, name]) => ({ name, words: new Set<string>(stopwords[code].filter((w) => !english.has(w))) })) };
  return lists;
}

/**
 * The language of a text mostly in Latin letters whose function words are another language's
 * than English (at least `MIN_FUNCTION_WORDS` distinct ones, more than its English ones, and a
 * sixth of its words), or null: English, too short to tell (under 4 words), or mostly in another
 * script. Of the 2,127 requests in English, Chinese, Korean and Thai of bench/realsuites, the dev
 * queries, dotnet and the peer suite it names none; it names 20 of the 24 Spanish ones of z80.
 */
export function otherLatinLanguage(text: string): string | null {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const latin = text.match(/\p{Script=Latin}/gu)?.length ?? 0;
  if (!letters || latin < 0.5 * letters) return null;
  const words = text.toLowerCase().match(/\p{Script=Latin}{2,}/gu) ?? [];
  if (words.length < 4) return null;
  const { english, others } = languageLists();
  const en = new Set(words.filter((w) => english.has(w))).size;
  let best: string | null = null;
  let bestCount = 0;
  for (const { name, words: own } of others) {
    const n = new Set(words.filter((w) => own.has(w))).size;
    if (n > bestCount) {
      best = name;
      bestCount = n;
    }
  }
  return bestCount >= MIN_FUNCTION_WORDS && bestCount > en && bestCount >= words.length / 6 ? best : null;
}
