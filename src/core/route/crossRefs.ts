/**
 * Cross-references between the skills of one library. Authors' skills name each other: a routing
 * table in an index skill ("| Blazor components | dotnet-ui |"), "for deployment use
 * [skill:dotnet-devops]", a "see also" list. Those lines describe the other skill, not this one:
 * indexed as this skill's text they let an index skill that lists every sibling win the requests
 * its siblings answer. Routing therefore reads a skill's *own* body: its body with the lines that
 * name another skill of the library blanked (blank, not removed, so line numbers still point into
 * the file). On the shared dotnet library (9 skills, its authors' 43 routing tests) this alone
 * took Hit@1 from 67.4 to 79.1 (docs/retrieval-log.md, section 13). A hub's description does the
 * same in sentences ("Use csv-cleaner for cleaning messy CSV files; chart-maker for plots"): a
 * description that names two or more other skills of the library drops each sentence naming one.
 *
 * A skill is named by its front-matter name or its folder name. A name with a separator
 * (`dotnet-ui`, `pdf_extract`) counts as a whole token anywhere; a one-word name (`docx`) only as
 * `[skill:docx]`, in backticks, or followed by "skill", since as a plain word it is usually just
 * the word.
 */
import { REFERENCE_VERSION, type ReferenceCache } from '../index/caches';
import { detach } from '../text/detach';
import type { SkillDoc } from '../types';

/** Keys a skill is referred to by: its name and its folder name, lower-cased, `_` as `-`. */
export function nameKeys(doc: Pick<SkillDoc, 'id' | 'name'>): string[] {
  const folder = doc.id.slice(doc.id.lastIndexOf('/') + 1);
  return [...new Set([doc.name, folder].map(normalise).filter((k) => k.length >= 3))];
}

function normalise(name: string): string {
  return name.trim().toLowerCase().replace(/_/g, '-');
}

// Skill names are identifiers: ASCII letters, digits, `-` and `_` (the spec's name rule allows
// other letters, which real libraries rarely use in names they cite). Compound names are found
// from their separators outward, by hand: every word of a body is a candidate for a regular
// expression, and a pattern that demands a separator inside a run backtracks over long runs
// without one (quadratic on a pasted 1 MB blob). The scan of a 2,800-skill corpus takes ~0.1 s.
const COMPOUND = /^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+$/;
const SKILL_REF = /\[skill:\s{0,8}([^\]\s]{1,64})\s{0,8}\]/g;
const BACKTICK = /`([^`\s]{3,64})`/g;
const WORD_BEFORE = /([A-Za-z0-9][A-Za-z0-9_-]{2,63})\s+$/;
const isNameChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_-]/.test(c);

function isNameCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 95;
}

/** Tokens of name characters that hold a `-` or `_`, each once, in text order. */
function compoundTokens(text: string, out: string[]): void {
  let from = 0;
  for (;;) {
    const dash = text.indexOf('-', from);
    const under = text.indexOf('_', from);
    const at = dash < 0 ? under : under < 0 ? dash : Math.min(dash, under);
    if (at < 0) return;
    let start = at;
    while (start > 0 && isNameCode(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < text.length && isNameCode(text.charCodeAt(end))) end++;
    const token = text.slice(start, end);
    if (token.length <= 128 && COMPOUND.test(token)) out.push(normalise(token));
    from = end;
  }
}

/** Reference keys a text could hold: compound tokens, and marked one-word names. */
function lineKeys(text: string): string[] {
  const out: string[] = [];
  compoundTokens(text, out);
  if (text.includes('[skill:')) for (const m of text.matchAll(SKILL_REF)) out.push(normalise(m[1]));
  if (text.includes('`')) for (const m of text.matchAll(BACKTICK)) out.push(normalise(m[1]));
  // "<name> skill": found from the word "skill" back, which is rarer than the words before it.
  for (const m of text.matchAll(/skill/gi)) {
    const at = m.index!;
    const next = text[at + 5];
    if (isNameChar(next) && next !== 's' && next !== 'S') continue;
    const before = WORD_BEFORE.exec(text.slice(Math.max(0, at - 66), at).toLowerCase());
    if (before) out.push(normalise(before[1]));
  }
  return out;
}

/** Every reference key in a text: kept per skill version, matched against the library's names. */
export function referenceKeys(text: string): Set<string> {
  return new Set(lineKeys(text));
}

// A description's sentences: ends of sentences and semicolons (a hub lists "X for a; Y for b"),
// followed by a space in Latin text (not the dot of ".NET" or "v1.2").
const SENTENCE_END = /(?<=[.!?;])\s+|(?<=[。！？；])/u;

/**
 * The description without the sentences that name one of `mentioned`, when it names at least two
 * of them (a hub listing its siblings): what is left says what the skill itself does. Empty when
 * every sentence names another skill. A description naming one other skill keeps it: a hyphenated
 * word such as "GDPR-compliant" or "browser-use-sdk" can be some skill's name in a large library,
 * and the sentence holding it is often the skill's own job.
 */
export function ownDescription(description: string, mentioned: readonly string[]): string {
  if (mentioned.length < 2) return description;
  const names = new Set(mentioned);
  const sentences = description.split(SENTENCE_END);
  const named = sentences.map((s) => lineKeys(s).filter((k) => names.has(k)));
  if (new Set(named.flat()).size < 2) return description;
  const kept = sentences.filter((_, i) => !named[i].length);
  return kept.join(' ').trim();
}

/** Which skills of a library each key names (a key can name several: copies in two collections). */
export class SkillNames {
  private readonly byKey = new Map<string, Set<string>>();

  constructor(docs: Iterable<Pick<SkillDoc, 'id' | 'name'>>) {
    for (const d of docs) this.add(d);
  }

  add(doc: Pick<SkillDoc, 'id' | 'name'>): void {
    for (const k of nameKeys(doc)) {
      let ids = this.byKey.get(k);
      if (!ids) this.byKey.set(k, (ids = new Set()));
      ids.add(doc.id);
    }
  }

  remove(doc: Pick<SkillDoc, 'id' | 'name'>): void {
    for (const k of nameKeys(doc)) {
      const ids = this.byKey.get(k);
      ids?.delete(doc.id);
      if (ids && !ids.size) this.byKey.delete(k);
    }
  }

  /** The skills named `name` (front-matter name or folder, any case, `_` as `-`; three characters or more). */
  named(name: string): readonly string[] {
    const ids = this.byKey.get(normalise(name));
    return ids ? [...ids] : [];
  }

  /** The keys of a skill's body (`referenceKeys`) that name another skill of the library, sorted. */
  mentions(self: Pick<SkillDoc, 'id' | 'name'>, keys: Iterable<string>): string[] {
    let own: Set<string> | undefined;
    const out: string[] = [];
    for (const k of keys) {
      const ids = this.byKey.get(k);
      if (!ids || (ids.size === 1 && ids.has(self.id))) continue;
      if ((own ??= new Set(nameKeys(self))).has(k)) continue;
      out.push(k);
    }
    return out.sort();
  }
}

/** The body with every line that names one of `mentioned` (see `SkillNames.mentions`) blanked. */
export function ownBody(body: string, mentioned: readonly string[]): string {
  return blankLines(body, mentionLines(body, mentioned));
}

/** The numbers (from 0) of the lines of `body` that name one of `mentioned`, ascending. */
export function mentionLines(body: string, mentioned: readonly string[]): number[] {
  if (!mentioned.length) return [];
  const names = new Set(mentioned);
  const out: number[] = [];
  body.split('\n').forEach((line, i) => lineKeys(line).some((k) => names.has(k)) && out.push(i));
  return out;
}

/** `body` with the lines numbered in `lines` (ascending) made empty. */
export function blankLines(body: string, lines: readonly number[]): string {
  if (!lines.length) return body;
  const split = body.split('\n');
  for (const i of lines) if (i < split.length) split[i] = '';
  return split.join('\n');
}

/** The `ReferenceCache` key of a skill version's reference keys. */
export function referenceKey(doc: Pick<SkillDoc, 'hash'>): string {
  return `${doc.hash}:${REFERENCE_VERSION}`;
}

/**
 * `referenceKeys` of a skill's description and body, each once, from `cache` when it holds them
 * for this content (else stored there). A list, not a set: kept per skill, it is only iterated.
 */
export function cachedReferenceKeys(doc: Pick<SkillDoc, 'hash' | 'body' | 'description'>, cache: ReferenceCache | undefined): readonly string[] {
  const key = referenceKey(doc);
  const hit = cache?.get(key);
  if (hit) return hit;
  // Kept per skill (and in the cache) long after the text they were cut from is gone.
  const keys = Array.from(new Set([...referenceKeys(doc.description), ...referenceKeys(doc.body)]), detach);
  cache?.set(key, keys);
  return keys;
}
