/**
 * Why a skill matched: the passage of its text (description or a body section) that best
 * explains the match, and the words in it that the request matched, for highlighting. Across
 * languages the words match through the bridge: a Chinese request's English senses meet an
 * English passage, and an English request meets a Chinese passage through its words' senses.
 */
import type { MatchedPassage } from '../service';
import { analyse, CJK_RUN, hasCjk, type Segmenter } from '../text/analyse';
import type { Passage } from '../text/passages';
import type { SkillDoc } from '../types';
import type { AnalysedRequest } from './request';
import type { SkillFields } from './rerankFeatures';
import type { TermSet } from './termSet';
import type { TextContext } from './skillText';

/** Passages scanned for the best match of a result; long bodies rarely match past these. */
const MAX_PASSAGES_SCANNED = 40;

/** What `bestPassage` matches a passage against. */
export interface PassageMatcher {
  /** Analysed request terms (with the bridge's English senses for a Chinese request). */
  terms: ReadonlySet<string>;
  segmenter?: Segmenter;
  /** Analysed English senses of a Chinese word, when an English request meets a Chinese skill. */
  senses?: (word: string) => string[];
}

/** The matcher for one request: its own terms and, for a Chinese request, the English senses the bridge added. */
export function passageMatcher(req: AnalysedRequest, ctx: TextContext): PassageMatcher {
  const seg = ctx.segmenter;
  const translator = ctx.translator;
  const senses = translator && !hasCjk(req.query) ? (word: string) => translator.translateWord(word).flatMap((e) => analyse(e.text, { segmenter: seg })) : undefined;
  return { terms: new Set([...req.terms, ...req.translated]), segmenter: seg, ...(senses ? { senses } : {}) };
}

/**
 * The passage that best explains the match: most request terms, the dense winner as tie-break
 * (`denseRow` as in `DenseScore.row`). Terms come analysed from the reranker's field cache, so a
 * skill's passages are analysed once, not once per request.
 */
export function bestPassage(doc: SkillDoc, passages: readonly Passage[], fields: SkillFields, denseRow: number | undefined, m: PassageMatcher): MatchedPassage | null {
  let best: { field: MatchedPassage['field']; text: string; heading?: string; line?: number; score: number } | undefined;
  const consider = (field: MatchedPassage['field'], text: string, terms: TermSet, heading: string | undefined, line: number | undefined, bonus: number) => {
    if (!text) return;
    // The request's few terms looked up in the passage's set (both sets: the same count as the other way round).
    let hits = 0;
    for (const t of m.terms) if (terms.has(t)) hits++;
    const score = hits + bonus;
    if (!best || score > best.score) best = { field, text, heading, line, score };
  };
  consider('description', doc.description, fields.description, undefined, doc.keyRanges.description?.start.line, denseRow === 0 ? 0.5 : 0);
  passages.slice(0, Math.min(MAX_PASSAGES_SCANNED, fields.passages.length)).forEach((p, i) => consider('body', p.text, fields.passages[i], p.heading || undefined, doc.bodyStartLine + p.line, denseRow === i + 1 ? 0.5 : 0));
  if (!best) return null;
  const { score: _score, ...chosen } = best;
  return { ...chosen, matchedTerms: matchedWords(chosen.text, m) };
}

const SURFACE_WORD = /[\p{L}\p{N}][\p{L}\p{N}_.+#-]*/gu;
const MAX_MATCHED = 24;

/**
 * Surface words of `text` whose analysed form is a request term (for highlighting). A run of
 * Chinese has no spaces, so it is split as the index splits it and only the matching words are
 * given, not the whole clause; with `senses`, a Chinese word also matches through its English
 * senses.
 */
function matchedWords(text: string, m: PassageMatcher): string[] {
  const out = new Set<string>();
  const hit = (word: string) => analyse(word, { segmenter: m.segmenter }).some((t) => m.terms.has(t));
  for (const match of text.matchAll(SURFACE_WORD)) {
    const word = match[0];
    if (!hasCjk(word)) {
      if (hit(word)) out.add(word);
    } else {
      for (const run of word.match(CJK_RUN) ?? []) {
        for (const piece of analyse(run, { segmenter: m.segmenter })) {
          if (m.terms.has(piece) || m.senses?.(piece).some((t) => m.terms.has(t))) out.add(piece);
        }
      }
      for (const latin of word.replace(CJK_RUN, ' ').matchAll(SURFACE_WORD)) if (hit(latin[0])) out.add(latin[0]);
    }
    if (out.size >= MAX_MATCHED) break;
  }
  return [...out].slice(0, MAX_MATCHED);
}
