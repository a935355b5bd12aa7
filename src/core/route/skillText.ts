/**
 * What each skill indexes: its lexical fields (BM25F) and the rows the sentence encoder embeds.
 * Chinese skills also carry the English senses of their own text (the bridge), so both languages
 * meet in one index; the request side of the same bridge is in request.ts.
 */
import type { FieldTerms } from '../index/lexicalIndex';
import { analyse, hasCjk, type Segmenter } from '../text/analyse';
import { cleanMarkdown, headings, type Passage } from '../text/passages';
import type { Translator } from '../text/translator';
import type { SkillDoc } from '../types';

/** What routing may use besides the skill text. */
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
    name: analyse(doc.name, { segmenter: seg }),
    description: analyse(doc.description, { segmenter: seg }),
    headings: analyse(heads, { segmenter: seg }),
    body: analyse(cleanMarkdown(doc.body), { segmenter: seg }),
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
        terms = analyse(e.text, { segmenter: seg });
        if (senseTerms.size > 100_000) senseTerms.clear();
        senseTerms.set(e.text, terms);
      }
      for (const t of terms) out.push(t);
    }
  }
  return out;
}

/**
 * What gets embedded for one skill: `name: description` first, then (for Chinese skills, when a
 * bridge is loaded) the same in bridged English, then the first `bodyPassages` body passages under
 * their headings. `bodyFrom` is the index of the first body row; the rows before it describe the
 * skill and stand for its description in explanations.
 */
export function embedTexts(doc: SkillDoc, passages: readonly Passage[], bodyPassages: number, ctx: TextContext): { texts: string[]; bodyFrom: number } {
  const head = `${nameWords(doc.name)}: ${doc.description}`;
  const texts = [encoderText(head)];
  const bodyFrom = descriptionRows(doc, ctx);
  if (bodyFrom === 2) texts.push(encoderText(ctx.translator!.translate(head).text));
  for (const p of passages.slice(0, bodyPassages)) texts.push(encoderText(p.heading ? `${p.heading}: ${p.text}` : p.text));
  return { texts, bodyFrom };
}

/** Rows that describe the skill before its body passages: 2 when a bridged-English row is added. */
export function descriptionRows(doc: SkillDoc, ctx: TextContext): number {
  return ctx.translator && !ctx.encoderReadsChinese && hasCjk(`${doc.name} ${doc.description}`) ? 2 : 1;
}

/** Text for an encoder: URLs out, whitespace collapsed. */
export function encoderText(text: string): string {
  return text.replace(/https?:\/\/\S+/g, ' ').replace(/\s+/g, ' ').trim();
}
