/**
 * What the word glossaries share (wordGlossary.ts, russianGlossary.ts, spanishGlossary.ts): their
 * one-line-per-entry text, and reading an inflected word by the longest stem it starts with.
 */

/** "word english|alternative" lines → word → English alternatives, best first (the first line of a word wins). */
export function parseGlossary(lines: string): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (const line of lines.trim().split('\n')) {
    const space = line.indexOf(' ');
    const word = line.slice(0, space);
    if (!out.has(word)) out.set(word, line.slice(space + 1).split('|').map((s) => s.trim()).filter(Boolean));
  }
  return out;
}

/**
 * The stem of `glossary` a word (already lower-cased and normalised) is read by, or null: the
 * longest stem of three letters or more it starts with, where what follows is no longer than
 * `ending(stem length)` letters.
 */
export function stemOf(word: string, glossary: ReadonlyMap<string, readonly string[]>, longest: number, ending: (stemLength: number) => number): string | null {
  for (let n = Math.min(longest, word.length); n >= 3; n--) {
    const stem = word.slice(0, n);
    if (glossary.has(stem) && word.length - n <= ending(n)) return stem;
  }
  return null;
}

/** The length of a glossary's longest entry. */
export function longestEntry(glossary: ReadonlyMap<string, readonly string[]>): number {
  return Math.max(...[...glossary.keys()].map((k) => k.length));
}
