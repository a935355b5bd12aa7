/**
 * Text analysis for lexical matching: identifier splitting, English stemming and stop words,
 * and CJK segmentation (injected; character bigrams when no segmenter is given).
 */
import stem from 'wink-porter2-stemmer';
import { eng as ENGLISH_STOPWORDS } from 'stopword';
import { detach } from './detach';

/** Splits a run of CJK text into words (e.g. jieba). */
export type Segmenter = (text: string) => string[];

const STOP = new Set<string>([
  ...ENGLISH_STOPWORDS,
  // Request filler that carries no routing signal.
  'please', 'want', 'need', 'help', 'using', 'use', 'make', 'like', 'also', 'just', 'get', 'can', 'could',
  'would', 'should', 'will', 'let', 'lets', 'way', 'thing', 'things', 'something', 'etc', 'eg', 'ie',
  'skill', 'skills',
]);
const CJK_STOP = new Set(['的', '了', '和', '是', '在', '我', '有', '一个', '这个', '那个', '我们', '你', '请', '把', '帮', '帮我', '用', '要', '就', '也', '都', '并', '与', '或', '及', '对', '中', '上', '下', '吗', '呢', '吧', '啊', '个', '让', '给', '做']);

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
/** Runs of Chinese (CJK unified and compatibility) characters; global, for `matchAll` and `replace`. */
export const CJK_RUN = /[\u3400-\u9fff\uf900-\ufaff]+/g;
const ALL_CJK = /^[\u3400-\u9fff\uf900-\ufaff]+$/;

/** Whether `text` is Chinese characters only (and not empty). */
export function isAllCjk(text: string): boolean {
  return ALL_CJK.test(text);
}
/** Word-ish runs: letters/digits with inner `.`, `_`, `-`, `+`, `#` (node.js, c++, c#, snake_case). */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}_.+#'-]*/gu;
/**
 * Longer runs are blobs (base64, hashes, minified code) nobody searches for; skipping them also
 * bounds the stemmer and the suffix trimming, which are quadratic in word length.
 */
const MAX_WORD = 100;

/** Whether a lower-case English word is a stop word or request filler. */
export function isStopword(word: string): boolean {
  return STOP.has(word);
}

/** Whether a CJK word is a function word with no routing signal. */
export function isCjkStopword(word: string): boolean {
  return CJK_STOP.has(word);
}

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

const stemCache = new Map<string, string>();

/** A stem for an English word; very short and numeric tokens pass through. Memoised. */
export function stemWord(word: string): string {
  if (word.length <= 3 || word.length > MAX_WORD || /\d/.test(word)) return word;
  let s = stemCache.get(word);
  if (s === undefined) {
    // Bounded: a library's vocabulary is well under this; junk tokens must not grow it forever.
    if (stemCache.size > 500_000) stemCache.clear();
    s = stem(word);
    stemCache.set(word, s);
  }
  return s;
}

function bigrams(run: string): string[] {
  if (run.length === 1) return [run];
  const out: string[] = [];
  for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
  return out;
}

/**
 * Splits `parseHTTPResponse`, `snake_case`, `file.ext`, `kebab-case` into parts. An acronym's
 * plural is the acronym (`PDFs`, `APIs`, `PRs`: `PDF`, not `PD` and `Fs`).
 */
export function splitIdentifier(token: string): string[] {
  return token
    .replace(/(?<![A-Z])([A-Z]{2,})s(?![a-z])/g, '$1')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[_.\-'\s]+/)
    .filter(Boolean);
}

export interface AnalyseOptions {
  segmenter?: Segmenter;
  /** Keep stop words (for phrase display); default false. */
  keepStopwords?: boolean;
}

/**
 * Terms for BM25: lower-cased stems; compound identifiers add their whole form and their parts;
 * CJK runs are segmented (and stop words dropped).
 */
export function analyse(text: string, opts: AnalyseOptions = {}): string[] {
  const out: string[] = [];
  const cjkRuns = text.match(CJK_RUN) ?? [];
  for (const run of cjkRuns) {
    const words = opts.segmenter ? opts.segmenter(run) : bigrams(run);
    for (const w of words) {
      const t = w.trim();
      if (!t || (!opts.keepStopwords && CJK_STOP.has(t))) continue;
      if (CJK.test(t)) out.push(t);
    }
  }
  const latin = text.replace(CJK_RUN, ' ');
  const cache = opts.keepStopwords ? undefined : tokenCache;
  for (const m of latin.matchAll(WORD)) {
    const raw = m[0];
    if (raw.length > MAX_WORD) continue;
    let terms = cache?.get(raw);
    if (terms === undefined) {
      terms = analyseToken(raw, opts);
      if (cache) {
        if (cache.size >= TOKEN_CACHE_MAX) cache.clear();
        terms = terms.map(detach);
        cache.set(detach(raw), terms);
      }
    }
    for (const t of terms) out.push(t);
  }
  return out;
}

/**
 * Tokens analysed lately, and their terms. Cleared when full: at 500,000 it held 75 MB of the
 * language server's heap at the corpus, most of it bodies kept alive by keys cut from them.
 */
const tokenCache = new Map<string, string[]>();
const TOKEN_CACHE_MAX = 100_000;

function analyseToken(token: string, opts: AnalyseOptions): string[] {
  const out: string[] = [];
  const raw = token.replace(/[.'-]+$/, '');
  if (!raw) return out;
  const parts = splitIdentifier(raw);
  const whole = raw.toLowerCase();
  if (parts.length > 1) {
    // Keep compounds such as `node.js`, `c++`, `gpt-4o` whole, and index their parts too.
    out.push(whole.replace(/[.'-]/g, ''));
    for (const p of parts) pushWord(out, p.toLowerCase(), opts);
  } else {
    // One part: the token itself, or an acronym's plural read as the acronym.
    pushWord(out, parts[0].toLowerCase(), opts);
  }
  return out;
}

function pushWord(out: string[], word: string, opts: AnalyseOptions): void {
  if (!opts.keepStopwords && (STOP.has(word) || word.length < 2)) return;
  if (/^\d+$/.test(word) && word.length > 4) return; // long numbers are ids, not topics
  out.push(stemWord(word));
}
