/**
 * Features of the learned reranker over the fused top candidates of one request.
 *
 * Point features describe (request, candidate): the first-stage scores and ranks, how much of the
 * request the skill's name, description, headings, body and best passage cover (IDF-weighted),
 * the request naming the skill, language match, and whether the request's languages or platforms
 * agree with the skill's. Context features describe (candidate, higher-ranked candidates) for a
 * given order: similarity and predicted SKIP conflicts with the skills above it, and how much of
 * the request it covers that the skills above it do not (what a second or third skill adds).
 *
 * Training (bench/trainReranker.ts, through src/core/route/rerankTraining.ts) and routing compute
 * features with this one module. Features are read by name (`POINT`, `CONTEXT`), never by position.
 */
import { judgePair, termCosine, type SkillProfile, type SkillProfiles } from '../analysis/conflicts';
import { excludes, facetMismatches, type FacetFamily, type Facets } from '../analysis/facets';
import type { SkipReason } from '../analysis/types';
import { FIELDS_VERSION, type FieldStore, type StoredFields } from '../index/caches';
import type { SkillDoc } from '../types';
import { hasCjk } from '../text/analyse';
import { nameKeys } from './crossRefs';
import { cleanMarkdown, headings, type Passage } from '../text/passages';
import { TermTable, type TermSet } from './termSet';

/** One first-stage candidate as the reranker sees it. */
export interface RerankCandidate {
  id: string;
  /** Fused first-stage score. */
  fused: number;
  /** Normalised lexical score, 0..1. */
  lexical: number;
  /** Dense cosine, null without an embedder. */
  dense: number | null;
}

/** Analysed term sets of one skill's fields, computed once per skill version. */
export interface SkillFields {
  hash: string;
  readonly name: TermSet;
  description: TermSet;
  readonly headings: TermSet;
  readonly body: TermSet;
  passages: TermSet[];
  /** English senses of a Chinese skill's name, description and headings (the bridge); empty otherwise. */
  readonly bridge: TermSet;
}

/** Body text analysed per skill; very long bodies rarely match past this. */
const BODY_CHARS = 30_000;
const PASSAGES = 40;

/**
 * Skills whose fields stay in memory. One skill's fields took some 20-50 KB as sets of strings (a
 * few KB as term ids, see `TermSet`), and a pair scan routes
 * every skill of the library: unbounded, the fields of a 7,000-skill workspace held about a third
 * of the language server's heap once its checks were done. A request reads 20 candidates; a scan's
 * requests meet their own folder's skills, far fewer than this for all but the largest folders.
 * `reach` routes over the whole library: at 2,048 its cold run over the corpus (2,817 skills) took
 * 178.6 s instead of 132.5 s, analysing fields again.
 */
export const FIELD_CACHE_MAX = 4096;

/**
 * Caches `SkillFields` by skill id, recomputed when the skill's hash changes, the `max` used most
 * recently kept. With a `FieldStore` the fields come from it when it holds them for the skill's
 * content, and fields analysed here are handed to it by `save`.
 */
export class FieldCache {
  /** In the order used, the least recent first (a hit moves to the end). */
  private readonly byId = new Map<string, SkillFields>();
  /** Fields analysed since the last `save`, by store key (at most `max`: the store keeps fewer). */
  private readonly unsaved = new Map<string, SkillFields>();
  /** The terms every held field's ids point into (see `TermSet`). */
  readonly terms = new TermTable();

  constructor(
    private readonly analyser: (text: string) => string[],
    /** Bridge terms of a skill (the engine's Chinese-English bridge), when there is one. */
    private readonly bridge?: (doc: SkillDoc) => readonly string[],
    /** The persistent store and the tag of this analyser (part of every key, see `storeKey`). */
    private readonly store?: { fields: FieldStore; tag: string },
    private readonly max = FIELD_CACHE_MAX,
  ) {}

  /** Skills whose fields are held now. */
  get size(): number {
    return this.byId.size;
  }

  /** The store key of a skill version's fields (null without a store). */
  storeKey(hash: string): string | null {
    return this.store ? `${hash}:${FIELDS_VERSION}:${this.store.tag}` : null;
  }

  /** The fields of `doc`; `passages` (its body passages) is called only when they are analysed. */
  get(doc: SkillDoc, passages: () => readonly Passage[]): SkillFields {
    const hit = this.byId.get(doc.id);
    this.byId.delete(doc.id);
    if (hit && hit.hash === doc.hash) {
      this.byId.set(doc.id, hit);
      return hit;
    }
    const key = this.storeKey(doc.hash);
    const kept = key ? this.store!.fields.get(key) : undefined;
    const fields = kept ? this.restored(doc, kept) : this.analysed(doc, passages());
    if (key && !kept) keepAtMost(this.unsaved.set(key, fields), this.max);
    keepAtMost(this.byId.set(doc.id, fields), this.max);
    return fields;
  }

  /**
   * Hands the fields analysed since the last call to the store; with `budgetMs`, stops after about
   * that long (a pass over a whole library analyses thousands: ~0.5 s to hand over at once) and
   * returns false while some are left.
   */
  save(budgetMs = Infinity): boolean {
    const start = performance.now();
    for (const [key, f] of this.unsaved) {
      this.store?.fields.set(key, { name: [...f.name], description: [...f.description], headings: [...f.headings], body: [...f.body], passages: f.passages.map((p) => [...p]) });
      this.unsaved.delete(key);
      if (performance.now() - start >= budgetMs) break;
    }
    return this.unsaved.size === 0;
  }

  private restored(doc: SkillDoc, kept: StoredFields): SkillFields {
    const bridge = this.bridge;
    const t = this.terms;
    let bridged: TermSet | undefined;
    return {
      hash: doc.hash,
      name: t.setOf(kept.name),
      description: t.setOf(kept.description),
      headings: t.setOf(kept.headings),
      body: t.setOf(kept.body),
      passages: kept.passages.map((p) => t.setOf(p)),
      get bridge() {
        bridged ??= t.setOf(bridge?.(doc) ?? []);
        return bridged;
      },
    };
  }

  private analysed(doc: SkillDoc, passages: readonly Passage[]): SkillFields {
    const t = this.terms;
    const a = (text: string) => t.setOf(this.analyser(text));
    const bridge = this.bridge;
    // Picking the passage to show reads the description and passages only; the rest is analysed
    // when a feature first reads it (a Chinese skill's bridge terms cost most).
    let name: TermSet | undefined;
    let heads: TermSet | undefined;
    let body: TermSet | undefined;
    let bridged: TermSet | undefined;
    return {
      hash: doc.hash,
      get name() {
        name ??= a(doc.name.replace(/[-_]/g, ' '));
        return name;
      },
      description: a(doc.description),
      get headings() {
        heads ??= a(headings(doc.body).join('\n'));
        return heads;
      },
      get body() {
        body ??= a(cleanMarkdown(doc.body.slice(0, BODY_CHARS)));
        return body;
      },
      passages: passages.slice(0, PASSAGES).map((p) => a(`${p.heading} ${p.text}`)),
      get bridge() {
        bridged ??= t.setOf(bridge?.(doc) ?? []);
        return bridged;
      },
    };
  }

  /** Drops skills not in `keep` (after a re-index). */
  prune(keep: ReadonlySet<string>): void {
    for (const id of [...this.byId.keys()]) if (!keep.has(id)) this.byId.delete(id);
  }
}

/** Drops the first-inserted entries of `map` until it holds `max`. */
function keepAtMost<K, V>(map: Map<K, V>, max: number): void {
  for (const k of map.keys()) {
    if (map.size <= max) return;
    map.delete(k);
  }
}

/** Everything the features read about one request and its candidates. */
export interface RerankRequest {
  query: string;
  /** Analysed request terms (with repeats). */
  terms: readonly string[];
  /** The request in English when it was bridged from Chinese (its terms count as request terms). */
  bridgedQuery?: string | null;
  /** Analyses text as the engine does (for the bridged request). */
  analyser?: (text: string) => string[];
  /** Candidates in first-stage order. */
  head: readonly RerankCandidate[];
  profiles: SkillProfiles;
  fields: FieldCache;
  doc(id: string): SkillDoc;
  passages(id: string): readonly Passage[];
  /** Keys of the other skills of the library a skill's body names (crossRefs.ts); none when absent. */
  mentions?(id: string): readonly string[];
  /** Whether any skill of the library holds an analysed term (for `libraryCoverage`). */
  libraryHas?(term: string): boolean;
}

export const POINT_FEATURES = [
  'fused',
  'lexical',
  'dense',
  'denseGap',
  'fusedGap',
  'firstStageRank',
  'nameCoverage',
  'nameMention',
  'descriptionCoverage',
  'requestInNameDescription',
  'requestInHeadings',
  'requestInBody',
  'requestInBestPassage',
  'tfidfCosine',
  'umbrella',
  'facetAgree',
  'facetClash',
  'bodyLength',
  'chineseRequestEnglishSkill',
  'englishRequestChineseSkill',
  'namesSiblings',
  'namesHeadSkill',
  'namedByHeadSkill',
  'requestExcluded',
] as const;

export const CONTEXT_FEATURES = [
  'maxSimilarityAbove',
  'redundantAbove',
  'copyAbove',
  'mismatchWithTop',
  'novelCoverage',
  'position',
] as const;

export type PointFeature = (typeof POINT_FEATURES)[number];
export type ContextFeature = (typeof CONTEXT_FEATURES)[number];

/** Column of each point feature in `ListFeatures.point` rows. */
export const POINT = Object.fromEntries(POINT_FEATURES.map((name, i) => [name, i])) as Readonly<Record<PointFeature, number>>;
/** Column of each context feature in `contextFeatures` rows. */
export const CONTEXT = Object.fromEntries(CONTEXT_FEATURES.map((name, i) => [name, i])) as Readonly<Record<ContextFeature, number>>;

/** Predicted relation between two candidates, for context features and set selection. */
export interface CandidatePair {
  similarity: number;
  reason: SkipReason | null;
  copy: boolean;
  evidence: string;
  /** The facet family of a language or platform mismatch. */
  family?: FacetFamily;
}

/** Features of one request's candidates, before any order is chosen. */
export interface ListFeatures {
  ids: string[];
  /** Point features per candidate, in `POINT_FEATURES` order. */
  point: number[][];
  /** `pairs[i][j]` for i != j: the judgement of candidates i and j given the request. */
  pairs: CandidatePair[][];
  /** Per candidate: the request terms (indexes into `termWeights`) its name, description or headings cover. */
  covers: number[][];
  /** IDF weight of each distinct request term, normalised to sum 1. */
  termWeights: number[];
  /** Facets the request names (languages, platforms...). */
  requestFacets: Facets;
  /** Facets of each candidate. */
  facets: Facets[];
  /**
   * Share of the request's term weight that some skill of the library holds at all: a request in
   * words the library never uses is one no skill of it fits (1 when the library cannot be asked).
   */
  libraryCoverage: number;
  /**
   * Per candidate, what its description says it is not for when the request asks for it (the
   * item, in the author's words), else null; set by the routing pipeline, beside the reranker's
   * inputs (see notFor.ts).
   */
  notFor?: (string | null)[];
  /**
   * Per candidate, when its description's first sentence says it is for another language or
   * framework than the request names: both, "python (the request names rust)", else null; set by
   * the routing pipeline beside the reranker's inputs (see otherStack.ts).
   */
  otherStack?: (string | null)[];
  /**
   * Per candidate, whether the request asks in general how something works and the skill does not
   * offer explanations (see generalQuestion.ts); set by the routing pipeline.
   */
  generalQuestion?: boolean[];
}

const log2 = (x: number) => Math.log(x) / Math.LN2;

/**
 * A skill's body length by document object: a body read from the parse snapshot is read from the
 * file on each read, and every request's candidates need only its length.
 */
const bodyLengths = new WeakMap<SkillDoc, number>();
function bodyLength(doc: SkillDoc): number {
  let n = bodyLengths.get(doc);
  if (n === undefined) bodyLengths.set(doc, (n = doc.body.length));
  return n;
}

/** Point features and pairwise judgements for the candidates of one request. */
export function listFeatures(req: RerankRequest): ListFeatures {
  const { head, profiles } = req;
  // A bridged request brings its English senses, so coverage works across languages (Chinese
  // skills carry their English senses as bridge terms).
  const bridged = req.bridgedQuery && req.analyser ? req.analyser(req.bridgedQuery) : [];
  const distinct = [...new Set([...req.terms, ...bridged])];
  const idf = distinct.map((t) => profiles.idfOf(t));
  const mass = idf.reduce((a, b) => a + b, 0) || 1;
  const termWeights = idf.map((x) => x / mass);
  const qIndex = new Map(distinct.map((t, i) => [t, i]));
  const request = profiles.ofText(req.bridgedQuery ? `${req.query}\n${req.bridgedQuery}` : req.query);
  const lowerQuery = req.query.toLowerCase();
  const requestZh = hasCjk(req.query);
  let maxDense = -Infinity;
  let maxFused = -Infinity;
  for (const c of head) {
    if (c.dense !== null && c.dense > maxDense) maxDense = c.dense;
    if (c.fused > maxFused) maxFused = c.fused;
  }
  // The request's terms as ids of the fields' table, looked up once (fields analysed below, or
  // read lazily later, give the same term the same id).
  const table = req.fields.terms;
  const qIds: [number, number][] = [...qIndex].map(([t, i]) => [table.idOf(t), i]);
  const covered = (set: TermSet): number => {
    let s = 0;
    for (const [id, i] of qIds) if (set.hasId(id)) s += termWeights[i];
    return s;
  };

  // Who names whom among the head: an index skill that names the sibling beside it in the list
  // (see crossRefs.ts) is the umbrella of that request, the sibling the specific answer.
  const named = head.map((c) => new Set(req.mentions?.(c.id) ?? []));
  const keysOf = head.map((c) => nameKeys(req.doc(c.id)));
  const names = (i: number, j: number) => i !== j && keysOf[j].some((k) => named[i].has(k));
  const ids: string[] = [];
  const point: number[][] = [];
  const covers: number[][] = [];
  const profileList: SkillProfile[] = [];
  head.forEach((c, rank) => {
    const doc = req.doc(c.id);
    const f = req.fields.get(doc, () => req.passages(c.id));
    const profile = profiles.get(c.id);
    ids.push(c.id);
    profileList.push(profile ?? fallbackProfile(doc));
    let nameHits = 0;
    for (const t of f.name) if (qIndex.has(t)) nameHits++;
    const folderWords = c.id.slice(c.id.lastIndexOf('/') + 1).toLowerCase().replace(/[-_]+/g, ' ');
    const nameMention = (f.name.size >= 2 && nameHits === f.name.size) || (folderWords.length >= 4 && containsWords(lowerQuery, folderWords)) ? 1 : 0;
    let descHits = 0;
    for (const t of f.description) if (qIndex.has(t)) descHits++;
    let bestPassage = 0;
    for (const p of f.passages) bestPassage = Math.max(bestPassage, covered(p));
    const cover: number[] = [];
    for (const [id, i] of qIds) if (f.name.hasId(id) || f.description.hasId(id) || f.headings.hasId(id) || f.bridge.hasId(id)) cover.push(i);
    covers.push(cover);
    const facets = profile?.facets ?? {};
    const clash = facetMismatches(request.facets, facets).length > 0 ? 1 : 0;
    const agree = Object.entries(request.facets).some(([fam, vals]) => (facets[fam as keyof Facets] ?? []).some((v) => vals?.includes(v))) ? 1 : 0;
    const dense = c.dense ?? 0;
    const row: Record<PointFeature, number> = {
      fused: c.fused,
      lexical: c.lexical,
      dense,
      denseGap: c.dense === null ? 0 : c.dense - maxDense,
      fusedGap: c.fused - maxFused,
      firstStageRank: 1 / log2(rank + 2),
      nameCoverage: f.name.size ? nameHits / f.name.size : 0,
      nameMention,
      descriptionCoverage: f.description.size ? descHits / Math.sqrt(f.description.size * Math.max(qIndex.size, 1)) : 0,
      requestInNameDescription: qIds.reduce((s, [id, i]) => (f.name.hasId(id) || f.description.hasId(id) || f.bridge.hasId(id) ? s + termWeights[i] : s), 0),
      requestInHeadings: covered(f.headings),
      requestInBody: covered(f.body),
      requestInBestPassage: bestPassage,
      tfidfCosine: profile ? termCosine(request.terms, profile.terms) : 0,
      umbrella: profile?.umbrella ? 1 : 0,
      facetAgree: agree,
      facetClash: clash,
      bodyLength: Math.log1p(bodyLength(doc)) / 10,
      // Coverage counts a Chinese skill's own words and its bridge terms, an English skill's only
      // the bridged ones (and the reverse for an English request): with these the model can offset
      // that in each direction.
      chineseRequestEnglishSkill: requestZh && doc.lang !== 'zh' ? 1 : 0,
      englishRequestChineseSkill: !requestZh && doc.lang === 'zh' ? 1 : 0,
      namesSiblings: Math.min(1, Math.log1p(named[rank].size) / Math.log1p(10)),
      namesHeadSkill: head.some((_, j) => names(rank, j)) ? 1 : 0,
      namedByHeadSkill: head.some((_, j) => names(j, rank)) ? 1 : 0,
      requestExcluded: profile && excludes(profile.excluded, request.facets) ? 1 : 0,
    };
    point.push(POINT_FEATURES.map((name) => row[name]));
  });

  const pairs: CandidatePair[][] = profileList.map(() => []);
  for (let i = 0; i < profileList.length; i++) {
    for (let j = i + 1; j < profileList.length; j++) {
      const jd = judgePair(profileList[i], profileList[j], undefined, request.facets);
      const pair: CandidatePair = { similarity: jd.similarity, reason: jd.reason, copy: jd.copy, evidence: jd.evidence, ...(jd.family ? { family: jd.family } : {}) };
      pairs[i][j] = pair;
      pairs[j][i] = pair;
    }
  }
  let libraryCoverage = 1;
  if (req.libraryHas) {
    libraryCoverage = 0;
    for (const [t, i] of qIndex) if (req.libraryHas(t)) libraryCoverage += termWeights[i];
  }
  return { ids, point, pairs, covers, termWeights, requestFacets: request.facets, facets: profileList.map((p) => p.facets), libraryCoverage };
}

/**
 * Whether candidate `i` is for another language or platform than the top candidate `top` in a
 * family the request itself names (and `i` lacks what the request names): a request that names
 * no language says nothing about a split between two skills' languages.
 */
export function requestMismatch(lf: ListFeatures, i: number, top: number): boolean {
  const pair = lf.pairs[i][top];
  if (!pair?.family || (pair.reason !== 'language_ecosystem_mismatch' && pair.reason !== 'platform_exclusive')) return false;
  const wanted = lf.requestFacets[pair.family];
  if (!wanted?.length) return false;
  return !(lf.facets[i][pair.family] ?? []).some((v) => wanted.includes(v));
}

/** A conflict that makes a SKIP partner (the rest depend more on the request). */
export function isHardConflict(reason: SkipReason | null): boolean {
  return reason === 'function_redundant' || reason === 'language_ecosystem_mismatch' || reason === 'platform_exclusive';
}

/**
 * Context features of every candidate for the order `order` (candidate indexes, best first):
 * each candidate is described relative to the candidates placed above it.
 */
export function contextFeatures(lf: ListFeatures, order: readonly number[]): number[][] {
  const out: number[][] = new Array(lf.ids.length);
  const seen = new Set<number>();
  const top = order[0];
  order.forEach((i, position) => {
    let maxSim = 0;
    let redundant = 0;
    let copy = 0;
    for (const j of order.slice(0, position)) {
      const p = lf.pairs[i][j];
      if (p.similarity > maxSim) maxSim = p.similarity;
      if (p.reason === 'function_redundant') redundant = 1;
      if (p.copy) copy = 1;
    }
    const mismatch = position > 0 && requestMismatch(lf, i, top) ? 1 : 0;
    let novel = 0;
    for (const t of lf.covers[i]) if (!seen.has(t)) novel += lf.termWeights[t];
    const row: Record<ContextFeature, number> = {
      maxSimilarityAbove: maxSim,
      redundantAbove: redundant,
      copyAbove: copy,
      mismatchWithTop: mismatch,
      novelCoverage: novel,
      position: 1 / log2(position + 2),
    };
    out[i] = CONTEXT_FEATURES.map((name) => row[name]);
    for (const t of lf.covers[i]) seen.add(t);
  });
  return out;
}

/** Whether `phrase` (space-separated words) occurs in `text` on word boundaries. */
function containsWords(text: string, phrase: string): boolean {
  let at = text.indexOf(phrase);
  while (at >= 0) {
    const before = at > 0 ? text[at - 1] : ' ';
    const after = text[at + phrase.length] ?? ' ';
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
    at = text.indexOf(phrase, at + 1);
  }
  return false;
}

/** A profile for a skill indexed after the profiles were built (no vector, no terms). */
function fallbackProfile(doc: SkillDoc): SkillProfile {
  return {
    id: doc.id,
    name: doc.name,
    folder: doc.id.slice(doc.id.lastIndexOf('/') + 1).toLowerCase(),
    collection: doc.id.includes('/') ? doc.id.slice(0, doc.id.indexOf('/')) : '',
    description: doc.description,
    lowerDescription: doc.description.toLowerCase(),
    lang: doc.lang,
    facets: {},
    excluded: {},
    umbrella: false,
    terms: new Map(),
    nameTerms: new Set(),
  };
}
