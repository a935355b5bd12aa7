/**
 * Splits a passage into plain and marked runs for the words the router matched. The server sends
 * the surface words (`matchedTerms`), found with the same word pattern as here; matching also
 * ignores case and trailing punctuation, so a list from another tokenizer still lines up.
 */

export interface Segment {
  text: string;
  mark: boolean;
}

/** A word as the engine's passage matcher reads it (src/core/route/explain.ts). */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}_.+#-]*/gu;
/** Sentence punctuation a word may carry at its end (`+` and `#` stay: C++, C#). */
const TRAILING = /[_.-]+$/u;

/** Scripts written without spaces: a matched term may be part of a longer run. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Runs of `word` that are one of `terms` (longest first, left to right). */
function innerMatches(word: string, terms: readonly string[]): [number, number][] {
  const out: [number, number][] = [];
  let i = 0;
  while (i < word.length) {
    const t = terms.find((term) => word.startsWith(term, i));
    if (t) {
      out.push([i, i + t.length]);
      i += t.length;
    } else {
      i++;
    }
  }
  return out;
}

export function highlightSegments(text: string, terms: readonly string[]): Segment[] {
  const wanted = new Set<string>();
  for (const t of terms) {
    const low = t.toLowerCase();
    if (low) wanted.add(low);
    const bare = low.replace(TRAILING, '');
    if (bare) wanted.add(bare);
  }
  const unspaced = [...wanted].filter((t) => UNSPACED.test(t)).sort((a, b) => b.length - a.length);
  const out: Segment[] = [];
  const push = (s: string, mark: boolean) => {
    if (!s) return;
    const last = out[out.length - 1];
    if (last && last.mark === mark && !mark) last.text += s;
    else out.push({ text: s, mark });
  };
  let at = 0;
  if (wanted.size) {
    for (const m of text.matchAll(WORD)) {
      const word = m[0];
      const start = m.index ?? 0;
      // Mark "tables" in "tables.", but keep "node.js" whole.
      const bare = word.replace(TRAILING, '');
      const marked = bare && wanted.has(bare.toLowerCase()) ? bare : word;
      if (!wanted.has(marked.toLowerCase())) {
        if (unspaced.length && UNSPACED.test(word)) {
          for (const [from, to] of innerMatches(word, unspaced)) {
            push(text.slice(at, start + from), false);
            push(word.slice(from, to), true);
            at = start + to;
          }
        }
        continue;
      }
      push(text.slice(at, start), false);
      push(marked, true);
      at = start + marked.length;
    }
  }
  push(text.slice(at), false);
  return out;
}
