/**
 * The Chinese-English bridge: carries Chinese words into weighted English words, so that a
 * Chinese request can match English skills and an English request can match Chinese skills
 * (whose text is bridged at index time), and so that an English-only sentence encoder gets
 * English text. Technical terms written in Latin script (API names, file types, products) pass
 * through unchanged.
 *
 * Confidence comes from three places: a hand-written glossary of technical words (it wins over
 * the dictionary), the dictionary's own sense order and domain tags such as "(computing)", and,
 * when the caller supplies it, how familiar each English word is to the skill library (a sense
 * whose words the library never uses is rarely the one meant).
 */
import { GLOSSARY } from './glossary';
import { CJK_RUN, isAllCjk, isCjkStopword, isStopword } from './analyse';

/**
 * Bump when what the bridge makes of a text changes (sense weighing, cross-references,
 * segmentation), so that indexes cached with the older bridge are rebuilt for Chinese skills.
 * 2: dictionary cross-references are followed.
 */
export const BRIDGE_VERSION = 2;

/** A Chinese → English dictionary (e.g. CC-CEDICT), injected by the host. */
export interface BilingualDictionary {
  /** English glosses of a simplified Chinese word, one string per sense, best known first. */
  glosses(word: string): readonly string[] | undefined;
  /** Length of the longest headword worth trying when splitting text into words. */
  readonly maxWordLength: number;
}

/** An English word or phrase with the bridge's confidence in it, 0..1 (the best sense is 1). */
export interface EnglishTerm {
  text: string;
  weight: number;
}

/** One Chinese word of the input and its English senses. */
export interface BridgedWord {
  source: string;
  english: EnglishTerm[];
}

export interface Translation {
  /** Chinese words in text order with their senses (words without any are left out). */
  words: BridgedWord[];
  /** The input with each Chinese word replaced by its best English sense; Latin text kept. */
  text: string;
}

/** How familiar an English word is to the library, 0..1. */
export type Familiarity = (word: string) => number;

export interface TranslatorOptions {
  /** Overrides the built-in glossary (tests). */
  glossary?: ReadonlyMap<string, readonly string[]>;
  /** Senses kept per Chinese word. */
  maxSenses?: number;
  /** Senses below this share of the best one are dropped. */
  minWeight?: number;
}

const TECH_TAG = /\((?:computing|computer|software|Internet|programming|networking|electronics|math\.?|mathematics|statistics|finance|chemistry|biology|medicine)\)/i;
const SKIP_SENSE = /^(?:variant of|old variant|archaic variant|see |surname|CL:|used in|also written|erhua variant|Japanese variant|pr\.|abbr\. for|onomat|\(dialect\)|\(old\)|\(literary\)|\(classical\))/i;
/** Function words and measure words whose glosses would only add noise to a request. */
const SKIP_WORDS = new Set([
  ...'一二三几这那里成张篇份条次些很太更最被将再还又从向到为以于而之其等着过来去出起能会可说看想好多少每各该此它他她您'.split(''),
  '关于', '出来', '起来', '一直', '一下', '一些', '一篇', '一张', '一个', '一份', '一套', '然后', '之后', '以及', '通过', '进行', '需要',
  '可以', '能够', '如何', '怎么', '怎样', '什么', '为什么', '因为', '所以', '但是', '如果', '这样', '那样', '现在', '已经', '目前',
  '其中', '相关', '对于', '根据', '帮忙', '希望', '想要', '麻烦', '一样', '时候', '东西', '感觉', '比较', '非常', '还是', '或者', '以下', '以上',
]);
const FILLER = new Set(['sb', 'sth', 'etc', 'one', "one's", 'oneself', 'something', 'someone', 'somebody', 'thing', 'kind', 'sort']);

/** A cross-reference gloss: "see 體格檢查|体格检查[ti3 ...]", "erhua variant of 一個勁|一个劲[...]". */
const REFERENCE = /^(?:see(?: also)?|(?:(?:old|archaic|erhua|Japanese) )?variant of|also written)\s+([^\s[]+)/i;

/** The simplified headword the first cross-reference among `senses` points to. */
function referenceOf(senses: readonly string[]): string | undefined {
  for (const sense of senses) {
    for (const piece of sense.split(/;\s*/)) {
      const m = REFERENCE.exec(piece.trim());
      if (!m) continue;
      const target = m[1].slice(m[1].lastIndexOf('|') + 1);
      if (isAllCjk(target)) return target;
    }
  }
  return undefined;
}

/** English content words of one gloss piece. */
function contentWords(piece: string): string[] {
  return (piece.toLowerCase().match(/[a-z][a-z'-]*[a-z]|[a-z]/g) ?? []).filter((w) => w.length > 2 && !FILLER.has(w) && !isStopword(w));
}

export class Translator {
  private readonly glossary: ReadonlyMap<string, readonly string[]>;
  private readonly maxSenses: number;
  private readonly minWeight: number;
  private readonly maxLen: number;
  /**
   * Senses per word: all the dictionary's (`all`, for weighing by the library's vocabulary) and the
   * best kept without it (`best`); glossary and skipped words are `trusted` as they are.
   */
  private readonly wordCache = new Map<string, { all: EnglishTerm[]; best: EnglishTerm[]; trusted: boolean }>();

  constructor(
    private readonly dict: BilingualDictionary | null,
    opts: TranslatorOptions = {},
  ) {
    this.glossary = opts.glossary ?? GLOSSARY;
    this.maxSenses = opts.maxSenses ?? 4;
    this.minWeight = opts.minWeight ?? 0.35;
    let glossMax = 1;
    for (const w of this.glossary.keys()) glossMax = Math.max(glossMax, w.length);
    this.maxLen = Math.max(glossMax, dict?.maxWordLength ?? 1);
  }

  /** Whether a word is known to the glossary or the dictionary. */
  knows(word: string): boolean {
    return this.glossary.has(word) || this.dict?.glosses(word) !== undefined;
  }

  /** Splits a run of Chinese characters into known words, longest match from the end. */
  segment(run: string): string[] {
    const out: string[] = [];
    let end = run.length;
    while (end > 0) {
      let len = Math.min(this.maxLen, end);
      for (; len > 1; len--) if (this.knows(run.slice(end - len, end))) break;
      out.push(run.slice(end - len, end));
      end -= len;
    }
    return out.reverse();
  }

  /**
   * English senses of one Chinese word, best first, weights relative to the best. `familiarity`
   * re-weights dictionary senses by the library's vocabulary (glossary senses are trusted).
   */
  translateWord(word: string, familiarity?: Familiarity): EnglishTerm[] {
    let known = this.wordCache.get(word);
    if (!known) {
      const fromGlossary = this.glossary.get(word);
      if (isCjkStopword(word) || SKIP_WORDS.has(word)) known = { all: [], best: [], trusted: true };
      else if (fromGlossary) {
        const senses = fromGlossary.slice(0, this.maxSenses).map((text, i) => ({ text, weight: 1 / (1 + 0.25 * i) }));
        known = { all: senses, best: senses, trusted: true };
      } else {
        const all = this.dictionarySenses(word);
        known = { all, best: this.keepBest(all, all[0]?.weight ?? 1), trusted: false };
      }
      // Bounded: odd input must not grow it forever.
      if (this.wordCache.size > 100_000) this.wordCache.clear();
      this.wordCache.set(word, known);
    }
    if (known.trusted || !familiarity || !known.all.length) return known.best;
    const scored = known.all.map((t) => ({ text: t.text, weight: t.weight * (0.25 + 0.75 * familiarity(t.text)) }));
    return this.keepBest(scored, known.all[0].weight);
  }

  /**
   * Dictionary senses of a word as single English words, weighted by sense order and domain. A
   * word whose entries only point elsewhere ("see 体格检查", "variant of 一个劲") takes the senses
   * of the word they point to: 健康检查 is "health checkup", not nothing.
   */
  private dictionarySenses(word: string, follow = true): EnglishTerm[] {
    const senses = this.dict?.glosses(word);
    if (!senses) return [];
    const best = new Map<string, number>();
    senses.forEach((sense, s) => {
      sense.split(/;\s*/).forEach((piece, j) => {
        const p = piece.trim();
        if (!p || SKIP_SENSE.test(p)) return;
        const tech = TECH_TAG.test(p) ? 1.5 : 1;
        const words = contentWords(p.replace(/\([^)]*\)|\[[^\]]*\]/g, ' '));
        if (!words.length) return;
        // Long pieces are explanations rather than translations.
        const shape = words.length === 1 ? 1 : words.length <= 3 ? 0.8 : 0.45;
        const prior = (tech * shape) / ((1 + 0.4 * s) * (1 + 0.15 * j));
        for (const w of words.slice(0, 3)) best.set(w, Math.max(best.get(w) ?? 0, prior));
      });
    });
    // All senses are kept here (the cache holds them); the caller keeps the best after weighing
    // them by the library's vocabulary, so that a common sense listed late (后: "empress" before
    // "behind", "after") is not cut before the library has a say.
    const single = word.length === 1 ? 0.6 : 1;
    const top = Math.max(0, ...best.values());
    if (top <= 0) {
      const target = follow ? referenceOf(senses) : undefined;
      return target && target !== word ? this.dictionarySenses(target, false).map((t) => ({ text: t.text, weight: (t.weight / (target.length === 1 ? 0.6 : 1)) * single })) : [];
    }
    return [...best]
      .map(([text, weight]) => ({ text, weight: (weight / top) * single }))
      .sort((a, b) => b.weight - a.weight || (a.text < b.text ? -1 : 1));
  }

  private keepBest(terms: EnglishTerm[], scale = 1): EnglishTerm[] {
    const top = Math.max(0, ...terms.map((t) => t.weight));
    if (top <= 0) return [];
    return terms
      .map((t) => ({ text: t.text, weight: (t.weight / top) * scale }))
      .filter((t) => t.weight >= this.minWeight * scale)
      .sort((a, b) => b.weight - a.weight || (a.text < b.text ? -1 : 1))
      .slice(0, this.maxSenses);
  }

  /** The Chinese words of `text` with their senses, in text order (no text is built). */
  words(text: string, familiarity?: Familiarity): BridgedWord[] {
    const words: BridgedWord[] = [];
    for (const m of text.matchAll(CJK_RUN)) {
      for (const w of this.segment(m[0])) {
        const english = this.translateWord(w, familiarity);
        if (english.length) words.push({ source: w, english });
      }
    }
    return words;
  }

  /**
   * Bridges every Chinese word of `text`; Latin-script text is kept as it is. With `association`
   * (how strongly two English words go together in the library, 0..1) each word's senses are
   * re-weighted by how well they fit the senses of the other words of the text: among 质量's
   * senses "mass" and "quality", the one that the library's texts use alongside "manual", "audit"
   * and "procedure" (the co-occurrence method of dictionary-based cross-language retrieval).
   */
  translate(text: string, familiarity?: Familiarity, association?: Association): Translation {
    const runs: { at: number; end: number; words: BridgedWord[] }[] = [];
    for (const m of text.matchAll(CJK_RUN)) {
      const words: BridgedWord[] = [];
      for (const w of this.segment(m[0])) {
        const english = this.translateWord(w, familiarity);
        if (english.length) words.push({ source: w, english });
      }
      runs.push({ at: m.index!, end: m.index! + m[0].length, words });
    }
    const all = runs.flatMap((r) => r.words);
    if (association && all.length > 1) {
      const fitted = fitSenses(all, association);
      let i = 0;
      for (const r of runs) r.words = r.words.map(() => fitted[i++]);
    }
    let out = '';
    let last = 0;
    for (const r of runs) {
      out += `${text.slice(last, r.at)} ${r.words.map((w) => w.english[0].text).join(' ')} `;
      last = r.end;
    }
    out += text.slice(last);
    return { words: runs.flatMap((r) => r.words), text: out.replace(/\s+/g, ' ').trim() };
  }
}

/** How strongly two English words go together in some collection, 0..1. */
export type Association = (a: string, b: string) => number;

/** Share of a sense's weight that depends on how it fits the other words (the rest is the dictionary's). */
const FIT_SHARE = 0.5;
/** Context words a sense is compared with (the nearest in the text, on both sides). */
const FIT_WINDOW = 12;
/**
 * Words of a text whose senses are fitted; later ones keep theirs. Fitting costs about 0.1 ms a
 * word; a request is rarely longer, and a pasted document must not hold a request up for seconds.
 */
const FIT_MAX_WORDS = 1000;

/**
 * Re-weights the senses of each word with two or more by their fit: the mean, over the other
 * words near it, of the best association between the sense and any of that word's senses (the
 * first `FIT_MAX_WORDS` words of a text).
 * Returns new word objects; the best sense of each stays at weight 1 (times the word's scale).
 */
export function fitSenses(words: readonly BridgedWord[], association: Association): BridgedWord[] {
  return words.map((w, i) => {
    if (i >= FIT_MAX_WORDS || w.english.length < 2) return w;
    const context: BridgedWord[] = [];
    for (let j = Math.max(0, i - FIT_WINDOW); j < Math.min(words.length, i + FIT_WINDOW + 1); j++) {
      if (j !== i && words[j].source !== w.source) context.push(words[j]);
    }
    if (!context.length) return w;
    const fit = w.english.map((e) => {
      let sum = 0;
      for (const c of context) {
        let best = 0;
        for (const o of c.english) best = Math.max(best, association(e.text, o.text));
        sum += best;
      }
      return sum / context.length;
    });
    const topFit = Math.max(...fit);
    if (topFit <= 0) return w;
    const scale = Math.max(...w.english.map((e) => e.weight));
    const weighed = w.english.map((e, k) => ({ text: e.text, weight: e.weight * (1 - FIT_SHARE + (FIT_SHARE * fit[k]) / topFit) }));
    const top = Math.max(...weighed.map((e) => e.weight));
    return {
      source: w.source,
      english: weighed.map((e) => ({ text: e.text, weight: (e.weight / top) * scale })).sort((a, b) => b.weight - a.weight || (a.text < b.text ? -1 : 1)),
    };
  });
}
