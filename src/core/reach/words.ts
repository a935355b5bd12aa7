/**
 * Which words a skill could add to its description to win back the requests its listing loses:
 * words of those requests that its body has and its listed text lacks, ranked by how specific
 * they are in the library (an IDF over every skill's text), leaving out words that many other
 * skills already list (they would pull those skills' requests, or be drowned by them). These are
 * candidates only: `measure.ts` keeps the ones that win requests back when tried.
 */
import type { ListedSkill } from '../profiles';
import { analyse } from '../text/analyse';
import type { SkillDoc } from '../types';

/** Terms of a text (the routing analyser's: lower-cased stems, identifiers split). */
export type Analyser = (text: string) => string[];

/** The analyser `reach` uses by default: the engine's, without a segmenter. */
export const DEFAULT_ANALYSER: Analyser = (text) => analyse(text);

/**
 * What candidate words are weighed by: document frequencies of terms over a library's skills,
 * one skill's own terms, and the analyser that made both (requests and listings are analysed
 * with it too). The engine's (`SkillService.termFrequencies`) reads its own index; `TermStats`
 * counts a library of its own.
 */
export interface TermFrequencies {
  /** Skills counted. */
  readonly size: number;
  /** Skills whose text has `term`. */
  df(term: string): number;
  /** The terms of one skill's own text (empty when unknown). */
  terms(id: string): ReadonlySet<string>;
  /** The analyser the terms come from (default: `DEFAULT_ANALYSER`). */
  readonly analyser?: Analyser;
}

/**
 * Document frequencies of terms over a library's skills (name, description and body), counted
 * here, for a caller without the engine's index (the CLI and the editor pass the engine's,
 * `SkillService.termFrequencies`): `update` re-analyses only skills whose text changed. Each
 * skill's terms are kept as ids (four bytes a term).
 */
export class TermStats implements TermFrequencies {
  private readonly sets = new Map<string, { hash: string; ids: Uint32Array }>();
  private readonly idOf = new Map<string, number>();
  private readonly termOf: string[] = [];
  /** Skills whose text has each term id. */
  private readonly counts: number[] = [];

  constructor(readonly analyser: Analyser = DEFAULT_ANALYSER) {}

  /** Brings the statistics to `docs` (skills gone are forgotten). */
  update(docs: readonly Pick<SkillDoc, 'id' | 'hash' | 'name' | 'description' | 'body'>[]): void {
    for (const d of docs) this.updateOne(d);
    this.retain(new Set(docs.map((d) => d.id)));
  }

  /** Counts one skill's current text (nothing to do when its hash is the one counted). */
  private updateOne(d: Pick<SkillDoc, 'id' | 'hash' | 'name' | 'description' | 'body'>): void {
    const prev = this.sets.get(d.id);
    if (prev?.hash === d.hash) return;
    if (prev) this.add(prev.ids, -1);
    // Every body of the library is read once here (a body read from the parse snapshot is not kept decoded).
    const ids = Uint32Array.from(new Set(this.analyser(`${d.name}\n${d.description}\n${d.body}`)), (t) => this.id(t));
    this.sets.set(d.id, { hash: d.hash, ids });
    this.add(ids, 1);
  }

  /** Forgets the skills not in `ids`. */
  private retain(ids: ReadonlySet<string>): void {
    for (const [id, prev] of this.sets) {
      if (ids.has(id)) continue;
      this.add(prev.ids, -1);
      this.sets.delete(id);
    }
  }

  /** Skills whose text has `term`. */
  df(term: string): number {
    const id = this.idOf.get(term);
    return id === undefined ? 0 : this.counts[id];
  }

  /** Skills counted. */
  get size(): number {
    return this.sets.size;
  }

  /** The terms of one skill's text (empty when unknown). */
  terms(id: string): ReadonlySet<string> {
    const ids = this.sets.get(id)?.ids ?? [];
    return new Set(Array.from(ids, (i) => this.termOf[i]));
  }

  /** A term's id (terms keep theirs while no skill has them: an edit tends to bring them back). */
  private id(term: string): number {
    let id = this.idOf.get(term);
    if (id === undefined) {
      id = this.termOf.length;
      this.idOf.set(term, id);
      this.termOf.push(term);
      this.counts.push(0);
    }
    return id;
  }

  private add(ids: Uint32Array, by: number): void {
    for (const i of ids) this.counts[i] += by;
  }
}

/** How many skills list each term (name + listed text), for the "listed by many" exclusion. */
export function listedFrequencies(entries: readonly ListedSkill[], analyser: Analyser = DEFAULT_ANALYSER): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of entries) {
    if (e.omitted) continue;
    for (const t of new Set(analyser(`${e.name}\n${e.text}`))) out.set(t, (out.get(t) ?? 0) + 1);
  }
  return out;
}

/** One candidate word, as the body spells it. */
export interface CandidateWord {
  /** The analysed term (what routing matches). */
  term: string;
  /** The word as it is written in the body (its most frequent spelling). */
  word: string;
  /** Lost requests that have it. */
  requests: number;
  /** Lost requests × IDF (the library's and the pool's) × log2(1 + occurrences in the body, or its prose for probes). */
  score: number;
}

export interface CandidateInput {
  /** The skill's own text. */
  doc: Pick<SkillDoc, 'id' | 'name' | 'body'>;
  /** What its client lists of it. */
  entry: ListedSkill;
  /** The requests of the skill that reach it in the full text and not in the listing. */
  lost: readonly string[];
  stats: TermFrequencies;
  /** `listedFrequencies` of the listing. */
  listed: ReadonlyMap<string, number>;
  analyser?: Analyser;
  /**
   * A word listed by at least this many other skills is left out (default: 2, or 2% of the
   * library when that is more).
   */
  commonListed?: number;
  /**
   * Term statistics of a large reference pool (the engine's background sketch): a small library
   * cannot tell "service" from "Blazor", a pool of thousands of skills can.
   */
  background?: { readonly size: number; df(term: string): number } | null;
  /**
   * The lost requests are probes, sentences of the body itself: then a word must be the body's
   * topic, not one sentence's or one example's: used at least twice in its prose (code blocks,
   * link targets and comments left out). A word the body says once wins back only the probe it
   * came from. Requests the skill's users wrote (tests, evals) may name what only code shows.
   */
  probes?: boolean;
}

/** A word in more than this share of the reference pool's skills is everyday skill vocabulary, not a keyword. */
export const COMMON_IN_POOL = 0.3;
/**
 * The same for words chosen for probe requests: nothing but routing on the body's own sentences
 * vouches for them, so only rare words ("deadlock", "WinForms", not "small" or "quality") are
 * offered. On the held-out bench this halved the requests the words cost (18 → 11).
 */
export const COMMON_IN_POOL_FOR_PROBES = 0.1;

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_.+#'-]*/gu;

/**
 * Candidate words for a skill, best first: terms of its lost requests that are in its body and
 * not in what it lists, not listed by many other skills, ranked by the lost requests that have
 * them, their IDF over the library (and the pool) and how often the body uses them.
 */
export function candidateWords(input: CandidateInput): CandidateWord[] {
  const analyser = input.analyser ?? DEFAULT_ANALYSER;
  const { stats, entry } = input;
  const n = Math.max(stats.size, 1);
  const common = input.commonListed ?? Math.max(2, Math.ceil(0.02 * n));
  const own = stats.terms(input.doc.id);
  const listedHere = new Set(analyser(`${entry.name}\n${entry.text}`));
  const perTerm = new Map<string, number>();
  for (const q of input.lost) for (const t of new Set(analyser(q))) perTerm.set(t, (perTerm.get(t) ?? 0) + 1);
  const spelled = spellings(input.probes ? prose(input.doc.body) : input.doc.body, analyser);
  const minCount = input.probes ? 2 : 1;
  const out: CandidateWord[] = [];
  const bg = input.background;
  for (const [term, requests] of perTerm) {
    if (!own.has(term) || listedHere.has(term) || /^\d+$/.test(term) || term.length < 2) continue;
    // The skill's own listing does not count it; others listing it do.
    if ((input.listed.get(term) ?? 0) >= common) continue;
    const spelling = spelled.get(term);
    const word = spelling?.word;
    if (!spelling || !word || !keyword(word) || spelling.count < minCount) continue;
    if (bg && bg.size && bg.df(term) / bg.size > (input.probes ? COMMON_IN_POOL_FOR_PROBES : COMMON_IN_POOL)) continue;
    const idf = Math.log((n + 1) / (stats.df(term) + 0.5));
    // With a pool, its IDF counts as much as the library's: rare in both is what a keyword is.
    const specificity = bg && bg.size ? (idf + Math.log((bg.size + 1) / (bg.df(term) + 0.5))) / 2 : idf;
    // What the body keeps coming back to is what it is about, and what its other requests will name too.
    out.push({ term, word, requests, score: requests * specificity * Math.log2(1 + spelling.count) });
  }
  return out.sort((a, b) => b.score - a.score || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
}

/** Function words the analyser's stop list lets through; they carry no topic. */
const FUNCTION_WORDS = new Set(['unless', 'whether', 'although', 'though', 'instead', 'rather', 'either', 'neither', 'whenever', 'wherever', 'however', 'otherwise', 'already', 'always', 'never', 'often', 'really', 'actually', 'maybe', 'perhaps', 'etc']);

/** A file name as bodies write them (`minimal-apis.md`, `config.yaml`); `Node.js` or `ASP.NET` are names, not files. */
const FILE_NAME = /^\p{Ll}[\p{L}\p{N}_-]*\.(md|mdx|txt|json|jsonl|ya?ml|toml|ini|cfg|csv|xml|html?|csproj|sln|props|cs|py|sh|ps1|rb|go|rs|java|kt|ts|tsx|js|jsx|mjs|cjs)$/u;

/** A word an author could add as a keyword: starts with a letter, no apostrophe, three letters or an acronym, not a function word, not a file name. */
function keyword(word: string): boolean {
  return /^\p{L}/u.test(word) && !word.includes("'") && (word.length >= 3 || /^\p{Lu}{2}$/u.test(word)) && !FUNCTION_WORDS.has(word.toLowerCase()) && !FILE_NAME.test(word);
}

/**
 * The body as prose: fenced code blocks, link targets and HTML comments left out; inline code
 * stays (`kubectl` in a sentence is a word users type). A word only an example's code uses is
 * not one to list.
 */
export function prose(body: string): string {
  return body
    .replace(/^[ \t]*(`{3,}|~{3,})[^\n]*\n[\s\S]*?(^[ \t]*\1[ \t]*$|(?![\s\S]))/gm, ' ')
    .replace(/\]\([^)\n]*\)/g, '] ')
    .replace(/<!--[\s\S]*?-->/g, ' ');
}

/** The most frequent spelling in `body` of each term (a word whose first term it is), and how often the term is there. */
function spellings(body: string, analyser: Analyser): Map<string, { word: string; count: number }> {
  const counts = new Map<string, Map<string, number>>();
  for (const m of body.matchAll(WORD)) {
    const raw = m[0].replace(/[.'-]+$/, '');
    if (raw.length < 2 || raw.length > 40) continue;
    const [term] = analyser(raw);
    if (!term) continue;
    const forms = counts.get(term) ?? new Map<string, number>();
    forms.set(raw, (forms.get(raw) ?? 0) + 1);
    counts.set(term, forms);
  }
  const out = new Map<string, { word: string; count: number }>();
  for (const [term, forms] of counts) {
    const sorted = [...forms].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    out.set(term, { word: sorted[0][0], count: sorted.reduce((n, f) => n + f[1], 0) });
  }
  return out;
}

/** Whether a request has any of `terms`. */
export function mentionsAny(query: string, terms: ReadonlySet<string>, analyser: Analyser = DEFAULT_ANALYSER): number {
  return sharedTerms(new Set(analyser(query)), terms);
}

/** How many terms two sets share (`mentionsAny` for a request analysed already). */
export function sharedTerms(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let n = 0;
  for (const t of small) if (large.has(t)) n++;
  return n;
}
