/**
 * A request as the first stage reads it: weighted lexical terms, the English senses of its
 * Chinese words (the request side of the bridge), and the text the sentence encoder embeds.
 *
 * Long requests carry context, pasted code and logs; their terms are weighted so those do not
 * drown the topic words (terms only seen on code or log lines count less, rare terms count more).
 */
import type { LexicalIndex } from '../index/lexicalIndex';
import { analyse, hasCjk, stemWord, type Segmenter } from '../text/analyse';
import { declinedClauses } from '../text/declined';
import { otherLatinLanguage } from '../text/language';
import { glossSpanish } from '../text/spanishGlossary';
import { glossRequest, hasGlossedScript } from '../text/wordGlossary';
import type { Association, Familiarity } from '../text/translator';
import { encoderText, type TextContext } from './skillText';
import type { FirstStageSettings } from './settings';

/**
 * Characters of a request that are routed (the MCP tool refuses a longer one, the hook and the
 * engine cut it): the longest labelled request here is 5,109 characters, and a pasted 2 MB log
 * is routed by its first 16 KB in milliseconds, not seconds.
 */
export const MAX_REQUEST_CHARS = 16_384;
/**
 * Words of a request that are routed. The paper caps queries at 512 tokens; 2,000 words keeps a
 * long task description whole while a pasted log or file does not drown its first lines.
 */
export const MAX_REQUEST_WORDS = 2_000;

/**
 * A request trimmed to what is routed: control characters become spaces, then the first
 * `MAX_REQUEST_CHARS` characters and `MAX_REQUEST_WORDS` words are kept.
 */
export function capRequest(raw: string): { text: string; truncated: boolean } {
  let text = raw.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ' ');
  let truncated = false;
  if (text.length > MAX_REQUEST_CHARS) {
    let end = MAX_REQUEST_CHARS;
    // Do not leave half a surrogate pair at the cut.
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    text = text.slice(0, end);
    truncated = true;
  }
  const words = /\S+/g;
  let n = 0;
  for (let m = words.exec(text); m; m = words.exec(text)) {
    if (++n === MAX_REQUEST_WORDS) {
      const end = m.index + m[0].length;
      if (/\S/.test(text.slice(end))) {
        text = text.slice(0, end);
        truncated = true;
      }
      break;
    }
  }
  return { text: text.trim(), truncated };
}

/** A request analysed once, read by every stage after it. */
export interface AnalysedRequest {
  query: string;
  /** Analysed terms of the request, with repeats (coverage features and explanations read them). */
  terms: string[];
  /** Weighted lexical query terms: the request's own, then the English senses of its Chinese words. */
  weights: ReadonlyMap<string, number>;
  /**
   * Terms that only the bridge added: they match Chinese skills' `bridge` field (without it,
   * Chinese-to-Chinese routing lost 30 points of Hit@1 on the dev set) but not `bridgeBody`,
   * where a translated request would meet every Chinese body (docs/retrieval-log.md).
   */
  translated: ReadonlySet<string>;
  /** The request in bridged English when it has Chinese in it and a bridge is loaded, else null. */
  readAs: string | null;
  /** The request without the clauses it declines ("do not open a pull request"): what is matched. */
  asked: string;
  /** The clauses the request declines, as written (see declined.ts). */
  declined: string[];
}

/** Analyses a request for routing over the library indexed in `lexical`. */
export function analyseRequest(query: string, lexical: LexicalIndex, s: FirstStageSettings, ctx: TextContext): AnalysedRequest {
  const { asked, declined } = declinedClauses(query);
  const weights = queryTerms(asked, lexical, s, ctx);
  const translated = new Set<string>();
  const bridged = bridgeRequest(asked, lexical, ctx);
  if (bridged && s.bridgeWeight > 0) {
    for (const [t, w] of bridged.senses) {
      if (!weights.has(t)) translated.add(t);
      weights.set(t, Math.max(weights.get(t) ?? 0, s.bridgeWeight * w));
    }
  }
  return { query, terms: analyse(asked, { segmenter: ctx.segmenter }), weights, translated, readAs: bridged?.readAs ?? null, asked, declined };
}

/** Lines of pasted code, logs and stack traces: mostly symbols, or the shapes such lines take. */
export function isCodeLine(line: string): boolean {
  const t = line.trim();
  if (t.length < 4) return false;
  if (/^(at\s+\S+[.(]|File "|Traceback|Caused by|\$ |> |>>> |#!|\d{4}-\d\d-\d\d[ T]\d|[A-Z]+\s+\d{3}\b|[{}[\]]|(const|let|var|def|class|import|from|return|function|public|private|SELECT|INSERT|UPDATE)\b)/.test(t)) return true;
  const symbols = t.replace(/[\p{L}\p{N}\s]/gu, '').length;
  return symbols / t.length > 0.15;
}

/** Terms of the request and their weights, before the bridge and feedback expansion. */
export function queryTerms(query: string, lexical: LexicalIndex, s: Pick<FirstStageSettings, 'codeLineWeight' | 'idfPower'>, ctx: TextContext): Map<string, number> {
  const seg = ctx.segmenter;
  const prose = new Map<string, number>();
  const code = new Map<string, number>();
  for (const line of query.split('\n')) {
    const target = isCodeLine(line) ? code : prose;
    for (const t of analyse(line, { segmenter: seg })) target.set(t, (target.get(t) ?? 0) + 1);
  }
  const out = new Map<string, number>();
  for (const [t, n] of prose) out.set(t, 1 + Math.log(n));
  for (const [t, n] of code) if (!out.has(t)) out.set(t, s.codeLineWeight * (1 + Math.log(n)));
  if (s.idfPower !== 0 && out.size) {
    const maxIdf = lexical.maxIdf();
    for (const [t, w] of out) out.set(t, w * Math.pow(Math.max(lexical.idf(t), 0.01) / maxIdf, s.idfPower));
  }
  return out;
}

/**
 * The request in bridged English and the analysed English senses of its Chinese words, each with
 * its best confidence; null when the request has no Chinese or no bridge is loaded. A request
 * without Chinese but with Korean, Thai or Russian, or in Spanish, is read through the glossaries
 * instead (`glossedRequest`).
 */
export function bridgeRequest(query: string, lexical: LexicalIndex, ctx: TextContext): { readAs: string; senses: Map<string, number> } | null {
  if (!hasCjk(query)) return glossedRequest(query, ctx);
  if (!ctx.translator) return null;
  const tr = ctx.translator.translate(query, libraryFamiliarity(lexical), libraryAssociation(lexical, ctx.segmenter));
  const senses = new Map<string, number>();
  for (const w of tr.words) {
    for (const e of w.english) {
      for (const t of new Set(analyse(e.text, { segmenter: ctx.segmenter }))) senses.set(t, Math.max(senses.get(t) ?? 0, e.weight));
    }
  }
  return { readAs: tr.text, senses };
}

/**
 * A request with Korean, Thai or Russian in it, or in Spanish, read through the glossaries
 * (wordGlossary.ts, spanishGlossary.ts), as `bridgeRequest` reads Chinese: its English senses
 * (the first of a word's alternatives at full confidence, the others at 0.7), and the request in
 * English as far as they read it.
 */
export function glossedRequest(query: string, ctx: TextContext): { readAs: string; senses: Map<string, number> } | null {
  const glossed = glossRequest(query) ?? (readsInSpanish(query) ? glossSpanish(query) : null);
  if (!glossed) return null;
  const senses = new Map<string, number>();
  for (const w of glossed.words) {
    w.english.forEach((e, i) => {
      const weight = i === 0 ? 1 : 0.7;
      for (const t of new Set(analyse(e, { segmenter: ctx.segmenter }))) senses.set(t, Math.max(senses.get(t) ?? 0, weight));
    });
  }
  // Latin words written onto a Korean ending or into a Thai run ("PDF에서", "repoใหม่") are one
  // token with it for the analyser; the reading has them apart.
  for (const t of analyse(glossed.readAs, { segmenter: ctx.segmenter })) if (!senses.has(t)) senses.set(t, 1);
  return { readAs: glossed.readAs, senses };
}

/** Whether a request is in Spanish (`otherLatinLanguage`), which the Spanish glossary reads. */
function readsInSpanish(query: string): boolean {
  return otherLatinLanguage(query) === 'Spanish';
}

/** How familiar an English word is to the indexed library: 0 unseen .. 1 common. */
export function libraryFamiliarity(lexical: LexicalIndex): Familiarity {
  const common = Math.max(2, lexical.size / 100);
  return (word: string) => {
    const parts = word.toLowerCase().split(/\s+/).filter(Boolean);
    if (!parts.length) return 0;
    let f = 0;
    for (const p of parts) f += Math.min(1, Math.log(1 + lexical.nativeDf(stemWord(p))) / Math.log(1 + common));
    return f / parts.length;
  };
}

/** Set bits of a 32-bit word. */
function bitCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * How strongly two English words (or phrases) go together in the library: the Dice coefficient
 * of the sets of skills whose own text holds them (a phrase: all of its words). For the bridge's
 * choice among a Chinese word's senses; one is made per request.
 */
export function libraryAssociation(lexical: LexicalIndex, seg?: Segmenter): Association {
  const sets = new Map<string, { bits: Uint32Array; n: number } | null>();
  const of = (text: string) => {
    let hit = sets.get(text);
    if (hit !== undefined) return hit;
    hit = null;
    let bits: Uint32Array | undefined;
    for (const t of new Set(analyse(text, { segmenter: seg }))) {
      const docs = lexical.nativeDocs(t);
      if (!docs) {
        bits = undefined;
        break;
      }
      bits = bits ? bits.map((x, i) => x & docs[i]) : docs;
    }
    if (bits) hit = { bits, n: bits.reduce((n, x) => n + bitCount(x), 0) };
    sets.set(text, hit);
    return hit;
  };
  return (a, b) => {
    const x = of(a);
    const y = of(b);
    if (!x || !y || !x.n || !y.n) return 0;
    const len = Math.min(x.bits.length, y.bits.length);
    let both = 0;
    for (let i = 0; i < len; i++) both += bitCount(x.bits[i] & y.bits[i]);
    return (2 * both) / (x.n + y.n);
  };
}

/**
 * How much of `text` the encoder reads: the share of its letters written in Latin or in a script
 * one of the encoder's `languages` (absent: English only) is written in (1 without letters), and
 * the commonest script of the letters it does not read (null when it reads them all).
 */
export function readShare(text: string, languages: readonly string[] = ['en']): { share: number; unread: string | null } {
  let letters = 0;
  let read = 0;
  const others = new Map<string, number>();
  for (const ch of text) {
    if (!/\p{L}/u.test(ch)) continue;
    letters++;
    if (/\p{Script=Latin}/u.test(ch)) {
      read++;
      continue;
    }
    const script = SCRIPTS.find(([, re]) => re.test(ch))?.[0] ?? 'another script';
    if ((SCRIPT_LANGUAGES[script] ?? []).some((l) => languages.includes(l))) read++;
    else others.set(script, (others.get(script) ?? 0) + 1);
  }
  const unread = others.size ? [...others].sort((a, b) => b[1] - a[1])[0][0] : null;
  return { share: letters ? read / letters : 1, unread };
}

/**
 * Why the encoder should not read `text`, or null when it may: most of its letters are of scripts
 * it does not read (`readShare`). A Korean or Thai request reaches an English encoder as noise,
 * and its vector would pull the ranking to random skills; words alone (and the reranker's regime
 * without dense scores) route it better. Chinese requests reach it as their bridged English
 * reading, which it reads.
 */
export function unreadScript(text: string, languages: readonly string[] = ['en']): string | null {
  return unreadReason(readShare(text, languages));
}

/**
 * The script most of a request is written in when Skill Router reads none of it, or null: under
 * half of its letters are Latin or Chinese characters, the scripts its words are read in (Chinese
 * through its segmenter and dictionary bridge, as `readAs` when the bridge read it). Pasted code
 * and logs do not count. A request in Latin letters whose function words are another language's
 * (`otherLatinLanguage`) gives that language instead: Skill Router reads English words only.
 */
export function unreadRequest(query: string, readAs: string | null, ctx: TextContext = {}): string | null {
  // Korean, Thai, Russian and Spanish read through a small glossary are read only in part: the
  // request as written decides.
  const glossed = readAs !== null && !hasCjk(query) && (hasGlossedScript(query) || readsInSpanish(query));
  const text = denseQueryText(query, glossed ? null : readAs, ctx);
  const read = readShare(text, ['en', 'zh']);
  if (read.share < 0.5) return read.unread;
  // In Latin letters but another language than English (Spanish, German): only its names and
  // cognates are read.
  return readAs === null || glossed ? otherLatinLanguage(text) : null;
}

/** `unreadScript` for a text already read (`readShare`). */
export function unreadReason({ share, unread }: ReturnType<typeof readShare>): string | null {
  if (share >= 0.5 || !unread) return null;
  return `the request is mostly in ${unread}, which the embedding model does not read: routed on words`;
}

/**
 * The share of the dense part's fusion weight that a request's vector keeps, from the share of its
 * letters the encoder reads (`readShare`): all of it for a request read whole, none at half (below
 * half the request is not embedded at all, `unreadScript`), linearly between, so the weight does
 * not jump at that line. A git request half in Thai ("ซ่อม pack/index ที่เสียโดยห้าม prune") gave
 * the encoder its few English words without the verbs that carry the task, and the dense part at
 * full weight outvoted the words that had found the skill (docs/retrieval-log.md, section 18).
 */
export function denseShare(read: number): number {
  return Math.max(0, Math.min(1, 2 * read - 1));
}

/** Scripts `readShare` tells apart (and `unreadScript` names), and the languages written in them. */
const SCRIPTS: readonly (readonly [string, RegExp])[] = [
  ['Hangul', /\p{Script=Hangul}/u],
  ['Chinese characters', /\p{Script=Han}/u],
  ['Japanese kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
];
const SCRIPT_LANGUAGES: Record<string, readonly string[]> = {
  Hangul: ['ko'], 'Chinese characters': ['zh', 'ja'], 'Japanese kana': ['ja'], Thai: ['th'], Cyrillic: ['ru', 'uk', 'bg', 'sr'],
  Arabic: ['ar', 'fa', 'ur'], Hebrew: ['he'], Greek: ['el'], Devanagari: ['hi', 'mr', 'ne'],
};

/**
 * The request as the sentence encoder should read it: pasted code and log lines dropped (they
 * use up the encoder's short window), whitespace collapsed; the whole request when it is all code.
 * `readAs` (the request in bridged English) replaces it for an encoder that reads no Chinese.
 */
export function denseQueryText(query: string, readAs: string | null = null, ctx: TextContext = {}): string {
  const source = readAs !== null && !ctx.encoderReadsChinese ? readAs : query;
  const prose = source.split('\n').filter((l) => !isCodeLine(l)).join(' ');
  return encoderText(prose.trim() ? prose : source);
}
