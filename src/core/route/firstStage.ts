/**
 * First-stage retrieval, shared by the engine and by the tuning bench (bench/tune.ts): what each
 * skill indexes (lexical fields, dense rows), how a long request becomes weighted query terms,
 * how the dense rows of a skill are aggregated, and how the two stages are fused.
 *
 * Long requests carry context, pasted code and logs; the lexical stage keeps them from drowning
 * the topic words (terms only seen on code or log lines count less, rare terms count more), and
 * the Chinese-English bridge adds English senses of Chinese words (and Chinese skills carry the
 * English senses of their own text in a `bridge` field), so both languages meet in one index.
 */
import type { SkillDoc } from '../types';
import type { FieldTerms, LexicalIndex } from '../index/lexicalIndex';
import { analyze, hasCjk, stemWord, type Segmenter } from '../text/analyze';
import { cleanMarkdown, headings, type Passage } from '../text/passages';
import type { Association, Familiarity, Translator } from '../text/translator';

export interface FirstStageSettings {
  /** Query terms are weighted by (idf / max idf) ^ idfPower on top of BM25's own idf. */
  idfPower: number;
  /** Weight of terms seen only on pasted code, log or stack-trace lines of the request. */
  codeLineWeight: number;
  /** Weight of English senses bridged from the request's Chinese words (times their confidence). */
  bridgeWeight: number;
  /** Pseudo-relevance feedback: expansion terms taken from the top `prfDocs` (0 turns it off). */
  prfDocs: number;
  prfTerms: number;
  prfWeight: number;
  /** Dense rows taken from body passages (after name + description). */
  bodyPassages: number;
  /** Subtracted from the cosine of body rows, so a passage must match clearly better to win. */
  bodyRowPenalty: number;
  /** Weight of the normalised lexical score in the fusion (dense gets 1 - this). */
  lexicalWeight: number;
  /** The same for requests written in Chinese (the English encoder sees their bridged text). */
  lexicalWeightCjk: number;
}

/** Tuned by 5-fold cross-validation on the dev queries (bench/tune.ts, docs/retrieval-log.md). */
export const DEFAULT_FIRST_STAGE: FirstStageSettings = {
  idfPower: 1,
  codeLineWeight: 1,
  bridgeWeight: 1.5,
  prfDocs: 0,
  prfTerms: 10,
  prfWeight: 0,
  bodyPassages: 0,
  bodyRowPenalty: 0,
  lexicalWeight: 0.6,
  lexicalWeightCjk: 0.8,
};

/** What the first stage may use besides the skill text. */
export interface TextContext {
  segmenter?: Segmenter;
  translator?: Translator | null;
  /** The sentence encoder reads Chinese itself (a multilingual model): no bridged rows or text for it. */
  encoderReadsChinese?: boolean;
}

/** The name as words: `pdf-extract` → `pdf extract`. */
export function nameWords(name: string): string {
  return name.replace(/[-_]+/g, ' ');
}

/**
 * Lexical fields of one skill (identifiers in the name index whole and in parts). Chinese skills add
 * the English senses of their description and headings as the `bridge` field, and of their body
 * as `bridgeBody` (which only the request's own English words match, see `LexicalIndex.search`).
 */
export function lexicalFields(doc: SkillDoc, ctx: TextContext): FieldTerms {
  const seg = ctx.segmenter;
  const heads = headings(doc.body).join('\n');
  const fields: FieldTerms = {
    name: analyze(doc.name, { segmenter: seg }),
    description: analyze(doc.description, { segmenter: seg }),
    headings: analyze(heads, { segmenter: seg }),
    body: analyze(cleanMarkdown(doc.body), { segmenter: seg }),
  };
  if (ctx.translator && hasCjk(`${doc.name} ${doc.description} ${heads}`)) {
    fields.bridge = bridgeTerms(ctx.translator, `${doc.description}\n${heads}`, seg);
    fields.bridgeBody = bridgeTerms(ctx.translator, cleanMarkdown(doc.body), seg);
  }
  return fields;
}

/** Analysed terms of an English sense; senses repeat across words and skills. */
const senseTerms = new Map<string, string[]>();

/** English terms of the confident senses of every Chinese word (each sense counted once per word). */
function bridgeTerms(translator: Translator, text: string, seg?: Segmenter): string[] {
  const out: string[] = [];
  for (const w of translator.words(text)) {
    for (const e of w.english) {
      if (e.weight < 0.5) continue;
      let terms = senseTerms.get(e.text);
      if (!terms) {
        terms = analyze(e.text, { segmenter: seg });
        if (senseTerms.size > 100_000) senseTerms.clear();
        senseTerms.set(e.text, terms);
      }
      for (const t of terms) out.push(t);
    }
  }
  return out;
}

/** Lines of pasted code, logs and stack traces: mostly symbols, or the shapes such lines take. */
export function isCodeLine(line: string): boolean {
  const t = line.trim();
  if (t.length < 4) return false;
  if (/^(at\s+\S+[.(]|File "|Traceback|Caused by|\$ |> |>>> |#!|\d{4}-\d\d-\d\d[ T]\d|[A-Z]+\s+\d{3}\b|[{}[\]]|(const|let|var|def|class|import|from|return|function|public|private|SELECT|INSERT|UPDATE)\b)/.test(t)) return true;
  const symbols = t.replace(/[\p{L}\p{N}\s]/gu, '').length;
  return symbols / t.length > 0.15;
}

/** Terms of the request and their weights, before bridge and feedback expansion. */
export function queryTerms(query: string, lexical: LexicalIndex, s: FirstStageSettings, ctx: TextContext): Map<string, number> {
  const seg = ctx.segmenter;
  const prose = new Map<string, number>();
  const code = new Map<string, number>();
  for (const line of query.split('\n')) {
    const target = isCodeLine(line) ? code : prose;
    for (const t of analyze(line, { segmenter: seg })) target.set(t, (target.get(t) ?? 0) + 1);
  }
  const out = new Map<string, number>();
  for (const [t, n] of prose) out.set(t, 1 + Math.log(n));
  for (const [t, n] of code) if (!out.has(t)) out.set(t, s.codeLineWeight * (1 + Math.log(n)));
  if (s.idfPower !== 0 && out.size) {
    const maxIdf = Math.log(1 + (lexical.size + 0.5) / 1.5);
    for (const [t, w] of out) out.set(t, w * Math.pow(Math.max(lexical.idf(t), 0.01) / maxIdf, s.idfPower));
  }
  return out;
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
    for (const t of new Set(analyze(text, { segmenter: seg }))) {
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
 * Adds the English senses of the request's Chinese words to `weights` (scaled by confidence and
 * `bridgeWeight`) and returns the request in bridged English, or null when it has no Chinese.
 * Terms that only the bridge added go into `translated`: they match Chinese skills' `bridge`
 * field (without it, Chinese-to-Chinese routing lost 30 points of Hit@1 on the dev set) but not
 * `bridgeBody`, where a translated request would meet every Chinese body (docs/retrieval-log.md).
 */
export function bridgeQuery(
  query: string,
  weights: Map<string, number>,
  lexical: LexicalIndex,
  s: FirstStageSettings,
  ctx: TextContext,
  translated?: Set<string>,
): string | null {
  if (!ctx.translator || !hasCjk(query)) return null;
  const tr = ctx.translator.translate(query, libraryFamiliarity(lexical), libraryAssociation(lexical, ctx.segmenter));
  if (s.bridgeWeight > 0) {
    const added = new Map<string, number>();
    for (const w of tr.words) {
      for (const e of w.english) {
        for (const t of new Set(analyze(e.text, { segmenter: ctx.segmenter }))) added.set(t, Math.max(added.get(t) ?? 0, e.weight));
      }
    }
    for (const [t, w] of added) {
      if (!weights.has(t)) translated?.add(t);
      weights.set(t, Math.max(weights.get(t) ?? 0, s.bridgeWeight * w));
    }
  }
  return tr.text;
}

/**
 * Pseudo-relevance feedback: terms that the name and description of the top documents share,
 * weighted by document score and rarity, added to `weights` (terms already there are kept).
 */
export function expandByFeedback(
  weights: Map<string, number>,
  first: Map<string, number>,
  docTerms: (id: string) => readonly string[],
  lexical: LexicalIndex,
  s: FirstStageSettings,
): boolean {
  if (s.prfDocs <= 0 || s.prfWeight <= 0 || !first.size) return false;
  const top = [...first].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, s.prfDocs);
  const best = top[0][1] || 1;
  const score = new Map<string, number>();
  for (const [id, sc] of top) {
    const terms = docTerms(id);
    if (!terms.length) continue;
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) score.set(t, (score.get(t) ?? 0) + (sc / best) * (n / terms.length));
  }
  const ranked = [...score]
    .filter(([t]) => !weights.has(t))
    .map(([t, v]) => [t, v * lexical.idf(t)] as const)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, s.prfTerms);
  if (!ranked.length) return false;
  const top1 = ranked[0][1] || 1;
  for (const [t, v] of ranked) weights.set(t, s.prfWeight * (v / top1));
  return true;
}

/**
 * What gets embedded for one skill: `name: description` first, then (for Chinese skills, when a
 * bridge is loaded) the same in bridged English, then the first body passages under their
 * headings. The first row's index is 0 and stands for the description in explanations.
 */
export function embedTexts(doc: SkillDoc, passages: readonly Passage[], s: Pick<FirstStageSettings, 'bodyPassages'>, ctx: TextContext): { texts: string[]; bodyFrom: number } {
  const head = `${nameWords(doc.name)}: ${doc.description}`;
  const texts = [clean(head)];
  const bodyFrom = descriptionRows(doc, ctx);
  if (bodyFrom === 2) texts.push(clean(ctx.translator!.translate(head).text));
  for (const p of passages.slice(0, s.bodyPassages)) texts.push(clean(p.heading ? `${p.heading}: ${p.text}` : p.text));
  return { texts, bodyFrom };
}

/** Rows that describe the skill before its body passages: 2 when a bridged-English row is added. */
export function descriptionRows(doc: SkillDoc, ctx: TextContext): number {
  return ctx.translator && !ctx.encoderReadsChinese && hasCjk(`${doc.name} ${doc.description}`) ? 2 : 1;
}

/** Text for an encoder: markup and URLs out, whitespace collapsed. */
function clean(text: string): string {
  return text.replace(/https?:\/\/\S+/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * The request as the sentence encoder should read it: pasted code and log lines dropped (they
 * use up the encoder's short window), whitespace collapsed; the whole request when it is all code.
 * `bridged` (the request in bridged English) replaces it for an encoder that reads no Chinese.
 */
export function denseQueryText(query: string, bridged: string | null = null, ctx: TextContext = {}): string {
  const source = bridged !== null && !ctx.encoderReadsChinese ? bridged : query;
  const prose = source.split('\n').filter((l) => !isCodeLine(l)).join(' ');
  return clean(prose.trim() ? prose : source);
}

/** A skill's dense score from its row cosines: the best row, body rows penalised. */
export function aggregateRows(cosines: ArrayLike<number>, bodyFrom: number, s: Pick<FirstStageSettings, 'bodyRowPenalty'>): number {
  return cosines.length ? cosines[bestRow(cosines, bodyFrom, s)] - (bestRow(cosines, bodyFrom, s) >= bodyFrom ? s.bodyRowPenalty : 0) : -Infinity;
}

/** Index of the row that gives a skill its dense score. */
export function bestRow(cosines: ArrayLike<number>, bodyFrom: number, s: Pick<FirstStageSettings, 'bodyRowPenalty'>): number {
  let best = -Infinity;
  let at = 0;
  for (let i = 0; i < cosines.length; i++) {
    const v = i >= bodyFrom ? cosines[i] - s.bodyRowPenalty : cosines[i];
    if (v > best) {
      best = v;
      at = i;
    }
  }
  return at;
}

/** Min-max over the candidate pool; missing candidates count as 0. */
export function normalise(pool: Iterable<string>, scores: Map<string, number>): Map<string, number> {
  const ids = [...pool];
  let lo = Infinity;
  let hi = -Infinity;
  for (const id of ids) {
    const v = scores.get(id);
    if (v === undefined) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const out = new Map<string, number>();
  if (!Number.isFinite(lo)) return out;
  const span = hi - lo;
  for (const id of ids) {
    const v = scores.get(id);
    out.set(id, v === undefined ? 0 : span > 0 ? (v - lo) / span : 1);
  }
  return out;
}

export interface FusedCandidate {
  id: string;
  /** Min-max normalised lexical score in the pool. */
  lexical: number;
  /** Raw dense score (best-row cosine), null without an embedder. */
  dense: number | null;
  /** Min-max normalised dense score in the pool (0 without an embedder). */
  denseNorm: number;
  /** The lexical weight used for this request. */
  lexicalWeight: number;
  fused: number;
}

/**
 * Weighted fusion of min-max normalised stage scores over the pool, best first. Without dense
 * scores the lexical score alone decides. `lexicalWeight` is the share of the lexical part.
 */
export function fuse(pool: Iterable<string>, lexical: Map<string, number>, dense: Map<string, number> | null, lexicalWeight: number): FusedCandidate[] {
  const ids = [...new Set(pool)];
  const lexNorm = normalise(ids, lexical);
  const denseNorm = dense ? normalise(ids, dense) : new Map<string, number>();
  const wL = dense ? lexicalWeight : 1;
  const out = ids.map((id) => {
    const l = lexNorm.get(id) ?? 0;
    const d = denseNorm.get(id) ?? 0;
    return { id, lexical: l, dense: dense ? (dense.get(id) ?? null) : null, denseNorm: d, lexicalWeight: wL, fused: wL * l + (1 - wL) * d };
  });
  out.sort((a, b) => b.fused - a.fused || (a.id < b.id ? -1 : 1));
  return out;
}
