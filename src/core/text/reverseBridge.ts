/**
 * English to Chinese, word by word: writes Chinese training requests from English skill text, so
 * that the learned reranker sees Chinese requests whose skill is written in English
 * (rerankTraining.ts). Never used for routing: the output reads like a terse, keyword-style
 * request, not like Chinese prose.
 *
 * A Chinese-English dictionary lists many Chinese words per English word ("extract": 提取, 抽取,
 * 抽出, 引出...), and has no word frequencies. The word chosen is the one the skill library's own
 * Chinese text uses most (`commonness`): the library's Chinese is the Chinese its users write.
 * Technical terms (mixed case, all capitals, digits, dotted names) and words without a Chinese
 * word the library uses stay in English, as they do in real Chinese requests.
 */
import { hasCjk, isAllCjk, isStopword, stemWord } from './analyse';

/** How common a Chinese word is in the library, 0 when it never occurs. */
export type Commonness = (chinese: string) => number;

/** Single English words of a gloss: senses split on ";" and ",", "(...)" notes and a leading "to " dropped. */
function glossWords(sense: string): string[] {
  return sense
    .split(/[;,]/)
    .map((p) => p.replace(/\([^)]*\)/g, '').replace(/^\s*to\s+/i, '').trim().toLowerCase())
    .filter((p) => /^[a-z]{3,}$/.test(p));
}

export class ReverseBridge {
  /** English stem → Chinese headwords that have it as a whole sense, in dictionary order. */
  private readonly candidates = new Map<string, string[]>();
  private readonly chosen = new Map<string, string | null>();

  /**
   * `entries`: simplified headwords and their senses (CC-CEDICT order). Headwords of 2 to 4
   * characters only: single characters are too ambiguous to pick from a gloss.
   */
  constructor(
    entries: Iterable<readonly [string, readonly string[]]>,
    private readonly commonness: Commonness,
  ) {
    for (const [head, senses] of entries) {
      if (head.length < 2 || head.length > 4 || !isAllCjk(head)) continue;
      for (const sense of senses) {
        for (const word of glossWords(sense)) {
          const key = stemWord(word);
          const list = this.candidates.get(key);
          if (!list) this.candidates.set(key, [head]);
          else if (!list.includes(head)) list.push(head);
        }
      }
    }
  }

  /** The Chinese word for an English word, or null when the library uses none of its candidates. */
  word(english: string): string | null {
    const key = stemWord(english.toLowerCase());
    let hit = this.chosen.get(key);
    if (hit === undefined) {
      hit = null;
      let best = 0;
      for (const head of this.candidates.get(key) ?? []) {
        const c = this.commonness(head);
        if (c > best) {
          best = c;
          hit = head;
        }
      }
      this.chosen.set(key, hit);
    }
    return hit;
  }

  /**
   * `text` in Chinese words where the library has them, technical terms kept; null when fewer
   * than three words came out Chinese (not a Chinese request) or the text already has Chinese.
   */
  translate(text: string): string | null {
    if (hasCjk(text)) return null;
    const out: string[] = [];
    let chinese = 0;
    const tokens = text.match(/[A-Za-z][A-Za-z0-9+#._-]*[A-Za-z0-9+#]|[A-Za-z]|\d[\d.%]*/g) ?? [];
    for (const [i, token] of tokens.entries()) {
      const lower = token.toLowerCase();
      const technical = /[A-Z]/.test(token.slice(1)) || /[\d._#+]/.test(token);
      if (!technical && isStopword(lower)) continue;
      const zh = technical ? null : this.word(lower);
      if (zh) {
        if (out.at(-1) !== zh) out.push(zh);
        chinese++;
      } else if (technical || (i > 0 && /^[A-Z]/.test(token))) {
        // Names and technical terms stay English; other words the library has no Chinese for go.
        out.push(token);
      }
    }
    if (chinese < 3) return null;
    // Chinese words run together; Latin words keep a space on each side.
    return out.reduce((s, w) => (s && (!hasCjk(w) || !hasCjk(s.slice(-1))) ? `${s} ${w}` : s + w), '');
  }
}
