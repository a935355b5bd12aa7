/**
 * Compatibility of skills: would one request need both (WRITE), or are they a SKIP combination,
 * and why (the SKIP taxonomy)? Judged from what each skill says about itself: similarity of name +
 * description (dense when a model is loaded, else TF-IDF), copies across collections, the
 * languages, ecosystems, platforms, audiences and segments it names, umbrella skills, and explicit
 * cross-references ("not for X, use Y"), which mark an intended boundary and lower the conflict.
 *
 * The judgement feeds the reranker's compatibility features and set selection in routing, and
 * `engine.judgeSet`. The library's `skill.conflict` findings are decided on routing evidence
 * instead (competition.ts), which reads the facets and cross-references of the same profiles.
 */
import { blendedIdf, type BackgroundPrior } from '../index/background';
import type { SkillDoc } from '../types';
import {
  detectFacets,
  excludedFacets,
  ECOSYSTEM_FAMILIES,
  facetMismatches,
  folderOf,
  isUmbrella,
  mentionsSkillLower,
  PLATFORM_FAMILIES,
  type FacetFamily,
  type Facets,
} from './facets';
import type { SkipReason } from './types';

/** What the judgement needs to know about one skill; built once per library by `SkillProfiles`. */
export interface SkillProfile {
  id: string;
  name: string;
  /** Lower-cased folder name with `_` as `-` (copies across collections share it). */
  folder: string;
  /** `owner__repo` part of the id ('' for a top-level skill). */
  collection: string;
  description: string;
  /** The description lower-cased (cross-reference lookups). */
  lowerDescription: string;
  lang: 'en' | 'zh';
  facets: Facets;
  /** Facets the description explicitly excludes ("Do not use for Python ..."). */
  excluded: Facets;
  umbrella: boolean;
  /** Unit-length TF-IDF weights of name + description terms. */
  terms: Map<string, number>;
  /** Terms of the name alone. */
  nameTerms: Set<string>;
  /** Name + description vector, when a model is loaded. */
  vector?: Float32Array;
}

export interface ConflictOptions {
  /**
   * Dense cosine at or above which two skills do the same job (function_redundant); the lexical
   * fallback uses `lexicalRedundant` on the TF-IDF cosine.
   */
  denseRedundant: number;
  lexicalRedundant: number;
  /** Below these two skills are in different domains (domain_mismatch). */
  denseRelated: number;
  lexicalRelated: number;
  /**
   * Below these, related skills from different collections that share no name word are separate
   * jobs a request would only chain by force (forced_chaining).
   */
  denseClose: number;
  lexicalClose: number;
  /**
   * Conflicts are reported to authors only at or above these: pairs so close that an agent sees
   * them side by side for one request.
   */
  denseReport: number;
  lexicalReport: number;
}

/**
 * Defaults set from the similarity structure of the 2.8k-skill test corpus, not from labels:
 * `*Redundant` is well above a skill's median nearest neighbour (dense: the near-duplicate
 * threshold) and about the median similarity of copies of one skill in two collections; `*Close` is about the median similarity of a skill to its
 * 100th nearest neighbour, `*Related` to its 300th (for TF-IDF, whose similarities are sparse,
 * its 20th and 100th), and `*Report` about the median similarity to its 5th nearest neighbour.
 */
export const DEFAULT_CONFLICT: ConflictOptions = {
  denseRedundant: 0.9,
  lexicalRedundant: 0.5,
  denseRelated: 0.62,
  lexicalRelated: 0.06,
  denseClose: 0.69,
  lexicalClose: 0.11,
  denseReport: 0.8,
  lexicalReport: 0.2,
};

export interface PairJudgement {
  a: string;
  b: string;
  /** Dense cosine of name + description when both have vectors, else the TF-IDF cosine. */
  similarity: number;
  /** TF-IDF cosine of name + description terms. */
  lexical: number;
  /** null when one request could well need both. */
  reason: SkipReason | null;
  /** Short evidence for the reason, such as `rust vs go` or `copies of pdf-extract`. */
  evidence: string;
  /** One names the other: an intended boundary, not a conflict of their descriptions. */
  crossReference: boolean;
  /** The pair are the same skill in two collections (same folder name or name). */
  copy: boolean;
  /** The facet family behind a language, platform, audience or segment mismatch. */
  family?: FacetFamily;
}

/**
 * The text of a skill its profile is made of: the name as words and the description. The engine
 * analyses it once per skill version and hands the analysis to `SkillProfiles` (through the
 * analyser's lookup), so every reader must build it here.
 */
export function profileText(doc: Pick<SkillDoc, 'name' | 'description'>): string {
  return `${doc.name.replace(/[-_]/g, ' ')} ${doc.description}`;
}

/** Tokenises text into analysed terms (the engine's `analyse` with its segmenter). */
export type Analyser = (text: string) => string[];

/** TF-IDF's idf of a term held by `df` of `n` skills (an unseen term counts as held by one). */
const tfidfIdf = (df: number, n: number) => Math.log(1 + n / Math.max(1, df));

/** The per-skill profiles of one library, with the document frequencies the TF-IDF weights use. */
export class SkillProfiles {
  private readonly byId: Map<string, SkillProfile>;
  /** Each skill's analysed profile text, and the skill fields its profile was made of. */
  private readonly made: Map<string, { terms: string[]; name: string; description: string; lang: SkillDoc['lang'] }>;
  /** Document frequencies; the idf of a term is computed when first asked for (a route asks for a few hundred of ~20,000). */
  private readonly df: Map<string, number>;
  private readonly idf: Map<string, number>;
  private readonly n: number;
  /**
   * The newest profiles of this line of updates: what a profile's lazy weights and name terms are
   * computed with. A profile carried over to an update points here, not at the object that made
   * it, so an edit's update does not hold every older generation alive.
   */
  private readonly line: { current: SkillProfiles };
  /** Made as an update of the profiles before (only the changed skills' texts were analysed). */
  readonly updated: boolean;

  /**
   * With `previous` (this library's profiles before an edit, same analyser, vectors and prior), an
   * update: at 19,909 skills a full build took ~150 ms and its garbage per edit. Only the skills
   * whose name, description or language changed are analysed again, document frequencies are
   * moved by their terms, and the profiles holding a term whose frequency moved are made again;
   * the others are carried over. The result equals a full build of `docs`. A list with skills
   * added, removed or in another order (the count of skills is in every weight) builds in full.
   */
  constructor(
    docs: readonly SkillDoc[],
    private readonly analyser: Analyser,
    private readonly vectorOf: (id: string) => Float32Array | undefined = () => undefined,
    /** Background term statistics: a small library's rare terms stay rare (see index/background.ts). */
    private readonly background: BackgroundPrior | null = null,
    previous?: SkillProfiles,
  ) {
    this.n = Math.max(docs.length, 1);
    const update = previous && sameIds(previous.byId.keys(), docs) ? previous : undefined;
    this.updated = !!update;
    if (update) {
      this.line = update.line;
      this.line.current = this;
      const changed = docs.filter((d) => {
        const was = update.made.get(d.id)!;
        return was.name !== d.name || was.description !== d.description || was.lang !== d.lang;
      });
      // A body edit: nothing a profile reads changed (these are never written to after they are made).
      const same = !changed.length;
      this.df = same ? update.df : new Map(update.df);
      this.idf = same ? update.idf : new Map(update.idf);
      this.made = same ? update.made : new Map(update.made);
      this.byId = same ? update.byId : new Map(update.byId);
      if (!same) this.carryOver(changed, update);
      return;
    }
    this.line = { current: this };
    this.byId = new Map();
    this.made = new Map();
    this.df = new Map();
    this.idf = new Map();
    const df = this.df;
    for (const doc of docs) {
      const terms = analyser(profileText(doc));
      this.made.set(doc.id, { terms, name: doc.name, description: doc.description, lang: doc.lang });
      for (const t of new Set(terms)) df.set(t, (df.get(t) ?? 0) + 1);
    }
    for (const doc of docs) this.byId.set(doc.id, this.build(doc, this.made.get(doc.id)!.terms));
  }

  /** The update from `previous` for the skills of `changed` (see the constructor). */
  private carryOver(changed: readonly SkillDoc[], previous: SkillProfiles): void {
    const df = this.df;
    const moved = new Set<string>();
    const bump = (terms: readonly string[], by: number) => {
      for (const t of new Set(terms)) {
        const f = (df.get(t) ?? 0) + by;
        if (f > 0) df.set(t, f);
        else df.delete(t);
        moved.add(t);
      }
    };
    for (const doc of changed) {
      const terms = this.analyser(profileText(doc));
      bump(previous.made.get(doc.id)!.terms, -1);
      bump(terms, +1);
      this.made.set(doc.id, { terms, name: doc.name, description: doc.description, lang: doc.lang });
    }
    // A term whose frequency went down and back up again weighs as before.
    for (const t of moved) if (df.get(t) === previous.df.get(t)) moved.delete(t);
    for (const t of moved) this.idf.delete(t);
    // Map.set on a key held keeps its place: the order stays the library's.
    for (const doc of changed) this.byId.set(doc.id, this.build(doc, this.made.get(doc.id)!.terms));
    if (!moved.size) return;
    const redone = new Set(changed.map((d) => d.id));
    for (const [id, made] of this.made) {
      if (redone.has(id) || !made.terms.some((t) => moved.has(t))) continue;
      this.byId.set(id, this.build({ id, ...made }, made.terms));
    }
  }

  /** Inverse document frequency of an analysed term over name + description (unseen terms: the rarest). */
  idfOf(term: string): number {
    const known = this.idf.get(term);
    if (known !== undefined) return known;
    const f = this.df.get(term);
    // Unseen in the library: the rarest, unless the background knows it as a common word.
    if (f === undefined) return blendedIdf(term, 0, this.n, this.background, tfidfIdf);
    const idf = blendedIdf(term, f, this.n, this.background, tfidfIdf);
    this.idf.set(term, idf);
    return idf;
  }

  get(id: string): SkillProfile | undefined {
    return this.byId.get(id);
  }

  get size(): number {
    return this.byId.size;
  }

  all(): IterableIterator<SkillProfile> {
    return this.byId.values();
  }

  /**
   * Up to `k` other skills sharing the rarest terms of `id`, by TF-IDF cosine over those terms
   * (a lower bound of the full cosine): candidate pairs without an all-pairs scan.
   */
  lexicalNeighbours(id: string, k: number): string[] {
    const me = this.byId.get(id);
    if (!me) return [];
    this.postings ??= this.buildPostings();
    const acc = new Map<string, number>();
    for (const [t, w] of me.terms) {
      for (const [other, x] of this.postings.get(t) ?? []) if (other !== id) acc.set(other, (acc.get(other) ?? 0) + w * x);
    }
    return [...acc].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, k).map(([other]) => other);
  }

  private postings: Map<string, [string, number][]> | null = null;

  /** Term → skills; terms in more than a tenth of the library carry little and are left out. */
  private buildPostings(): Map<string, [string, number][]> {
    const out = new Map<string, [string, number][]>();
    const cap = Math.max(20, this.n / 10);
    for (const p of this.byId.values()) {
      for (const [t, w] of p.terms) {
        let list = out.get(t);
        if (!list) out.set(t, (list = []));
        list.push([p.id, w]);
      }
    }
    for (const [t, list] of out) if (list.length > cap) out.delete(t);
    return out;
  }

  /** Profile of a text that is not a skill of the library (a request), for facets and terms. */
  ofText(text: string): { facets: Facets; terms: Map<string, number> } {
    return { facets: detectFacets(text), terms: this.weigh(this.analyser(text)) };
  }

  private weigh(terms: readonly string[]): Map<string, number> {
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    let norm = 0;
    for (const [t, n] of tf) {
      const x = (1 + Math.log(n)) * this.idfOf(t);
      tf.set(t, x);
      norm += x * x;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [t, x] of tf) tf.set(t, x / norm);
    return tf;
  }

  private build(doc: Pick<SkillDoc, 'id' | 'name' | 'description' | 'lang'>, terms: string[]): SkillProfile {
    const slash = doc.id.lastIndexOf('/');
    const vectorOf = this.vectorOf;
    const { id, name, description } = doc;
    // Facets, weights and name terms are made on first use, from inputs fixed for the life of
    // this profile (an update carries it over only where none of its weights moved): the one-skill
    // scan after an edit reads them for a few close pairs only.
    const line = this.line;
    let facets: Facets | undefined;
    let excluded: Facets | undefined;
    let umbrella: boolean | undefined;
    let weights: Map<string, number> | undefined;
    let nameTerms: Set<string> | undefined;
    let lower: string | undefined;
    return {
      id,
      name,
      folder: folderOf(id).replace(/_/g, '-'),
      collection: slash < 0 ? '' : id.slice(0, id.indexOf('/')),
      description,
      get lowerDescription() {
        return (lower ??= description.toLowerCase());
      },
      lang: doc.lang,
      get facets() {
        return (facets ??= detectFacets(`${name} ${description}`, `${name} ${folderOf(id)}`));
      },
      get excluded() {
        return (excluded ??= excludedFacets(description));
      },
      get umbrella() {
        return (umbrella ??= isUmbrella(`${name} ${folderOf(id)}`, description));
      },
      get terms() {
        return (weights ??= line.current.weigh(terms));
      },
      get nameTerms() {
        return (nameTerms ??= new Set(line.current.analyser(name.replace(/[-_]/g, ' '))));
      },
      // Looked up on use: a skill's vectors may arrive after its profile was built.
      get vector() {
        return vectorOf(id);
      },
    };
  }
}

/** Whether `ids` are the ids of `docs`, in order. */
function sameIds(ids: Iterable<string>, docs: readonly SkillDoc[]): boolean {
  let i = 0;
  for (const id of ids) if (i >= docs.length || docs[i++].id !== id) return false;
  return i === docs.length;
}

/** Cosine of two unit TF-IDF maps. */
export function termCosine(a: Map<string, number>, b: Map<string, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let s = 0;
  for (const [t, x] of small) {
    const y = large.get(t);
    if (y !== undefined) s += x * y;
  }
  return s;
}

export function vectorCosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

const FAMILY_REASON: Record<FacetFamily, SkipReason> = {
  language: 'language_ecosystem_mismatch',
  frontend: 'language_ecosystem_mismatch',
  mobile: 'platform_exclusive',
  cloud: 'platform_exclusive',
  engine: 'platform_exclusive',
  wiki: 'platform_exclusive',
  audience: 'audience_mismatch',
  segment: 'business_layer_mismatch',
};

/** Ecosystem families first, then platforms, then people: the most specific evidence wins. */
const FAMILY_ORDER: readonly FacetFamily[] = [...ECOSYSTEM_FAMILIES, ...PLATFORM_FAMILIES, 'audience', 'segment'];

/** Similarity of two profiles: dense when both have vectors, else TF-IDF. */
export function profileSimilarity(a: SkillProfile, b: SkillProfile): { similarity: number; lexical: number; dense: boolean } {
  const lexical = termCosine(a.terms, b.terms);
  if (a.vector && b.vector) return { similarity: vectorCosine(a.vector, b.vector), lexical, dense: true };
  return { similarity: lexical, lexical, dense: false };
}

/**
 * Whether one request would need both skills; when not, the SKIP reason. `request` (facets of
 * the request) lifts language and platform mismatches the request itself spans.
 */
export function judgePair(
  a: SkillProfile,
  b: SkillProfile,
  opts: ConflictOptions = DEFAULT_CONFLICT,
  request?: Facets,
): PairJudgement {
  // Every request's reranking judges each pair of its candidates (190 for 20): no spread, no
  // array made where nothing mismatches.
  const { similarity, lexical, dense } = profileSimilarity(a, b);
  const redundantAt = dense ? opts.denseRedundant : opts.lexicalRedundant;
  const relatedAt = dense ? opts.denseRelated : opts.lexicalRelated;
  const la = a.lowerDescription;
  const lb = b.lowerDescription;
  const crossReference =
    mentionsSkillLower(la, b.name) || mentionsSkillLower(lb, a.name) ||
    (a.folder !== b.folder && (mentionsSkillLower(la, b.folder) || mentionsSkillLower(lb, a.folder)));
  const copy = a.folder === b.folder || normName(a.name) === normName(b.name);
  const first = a.id < b.id;
  const verdict = (reason: SkipReason | null, evidence: string): PairJudgement =>
    ({ a: first ? a.id : b.id, b: first ? b.id : a.id, similarity, lexical, crossReference, copy, reason, evidence });

  if (copy && !crossReference) return verdict('function_redundant', `copies of ${a.folder}`);
  const mismatches = facetMismatches(a.facets, b.facets, request);
  const mismatch = mismatches.length ? FAMILY_ORDER.map((f) => mismatches.find((m) => m.family === f)).find((m) => m !== undefined) : undefined;
  // Two stacks the request itself spans (a port, a migration) make the pair complementary.
  if (request && !mismatches.length && similarity >= relatedAt && facetMismatches(a.facets, b.facets).length) {
    return verdict(null, 'the request spans both');
  }
  // A stack or platform split only matters between related skills (routing also asks that the
  // request name the stack, see rerankFeatures.requestMismatch).
  if (mismatch && similarity >= relatedAt) {
    return { ...verdict(FAMILY_REASON[mismatch.family], `${mismatch.a.join('/')} vs ${mismatch.b.join('/')}`), family: mismatch.family };
  }
  if (similarity < relatedAt) return verdict('domain_mismatch', `similarity ${similarity.toFixed(2)}`);
  if (a.umbrella !== b.umbrella) {
    const [wide, narrow] = a.umbrella ? [a, b] : [b, a];
    return verdict('granularity_mismatch', `${wide.name} is an umbrella over tasks such as ${narrow.name}`);
  }
  // Near-identical embeddings, or (with a model too) largely the same rare words.
  if ((similarity >= redundantAt || lexical >= opts.lexicalRedundant) && !crossReference) {
    return verdict('function_redundant', `similarity ${similarity.toFixed(2)}`);
  }
  const closeAt = dense ? opts.denseClose : opts.lexicalClose;
  if (similarity < closeAt && !crossReference && a.collection !== b.collection && ![...a.nameTerms].some((t) => b.nameTerms.has(t))) {
    return verdict('forced_chaining', `separate jobs (similarity ${similarity.toFixed(2)}, different collections)`);
  }
  return verdict(null, crossReference ? 'they name each other' : `similarity ${similarity.toFixed(2)}`);
}

function normName(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** The verdict for a set: the first conflicting pair decides (most specific reason first). */
export interface SetJudgement {
  reason: SkipReason | null;
  pairs: PairJudgement[];
}

/** Reasons in the order a set verdict prefers them: specific evidence before broad similarity. */
const REASON_ORDER: readonly SkipReason[] = [
  'function_redundant',
  'language_ecosystem_mismatch',
  'platform_exclusive',
  'audience_mismatch',
  'business_layer_mismatch',
  'granularity_mismatch',
  'forced_chaining',
  'domain_mismatch',
];

/** Judges every pair of a set; the set is SKIP when any pair is. */
export function judgeSet(profiles: readonly SkillProfile[], opts: ConflictOptions = DEFAULT_CONFLICT, request?: Facets): SetJudgement {
  const pairs: PairJudgement[] = [];
  for (let i = 0; i < profiles.length; i++) {
    for (let j = i + 1; j < profiles.length; j++) pairs.push(judgePair(profiles[i], profiles[j], opts, request));
  }
  let reason: SkipReason | null = null;
  for (const r of REASON_ORDER) {
    if (pairs.some((p) => p.reason === r)) {
      reason = r;
      break;
    }
  }
  return { reason, pairs };
}
