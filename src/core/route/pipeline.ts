/**
 * The routing pipeline: one request's path through named stages, each a value with one owner.
 *
 *   analyse   request.ts       weighted terms, the bridge's senses, the text to embed
 *   retrieve  retrieve.ts      the first stage: words and meaning over the whole library, fused
 *   features  rerankFeatures   point features and pair judgements of the pool's head
 *   score     rerank.ts        the rerank stage (learned listwise model, or a cross-encoder)
 *   select    setSelection.ts  the compatible set chosen over the ranking, and its size
 *   explain   explain.ts       the passage that explains each shown result
 *
 * `rank` runs them once per request at a fixed depth (`rerankDepth`), whatever number of results
 * is asked for, so every view of a ranking (the panel's top 10, the rank of the skill being edited
 * at 50) reads the same order. The engine's `route`, the tuner (bench/tune.ts) and the reranker's
 * training (bench/trainReranker.ts) all call these stages.
 */
import type { SkillProfiles } from '../analysis/conflicts';
import type { RouterIdentity } from '../analysis/scanRun';
import type { LexicalIndex } from '../index/lexicalIndex';
import type { MatchedPassage, RouteResult, RouteSet, RouteTimings } from '../service';
import { analyse } from '../text/analyse';
import type { Passage } from '../text/passages';
import type { CancelToken, Embedder, EmbedderInfo, Logger, SkillDoc } from '../types';
import { CancelledError, throwIfCancelled } from '../types';
import type { DenseStore } from './denseStore';
import { bestPassage, passageMatcher } from './explain';
import { encoderLabel } from './queryAdapter';
import { orderBy, type ListReranker } from './rerank';
import { askedTerms, matchClauses, notForClauses, type NotForClauses } from './notFor';
import { generalQuestion, offersExplanations } from './generalQuestion';
import { otherStack, ownStack } from './otherStack';
import type { Facets } from '../analysis/facets';
import type { NotRelevant } from './notRelevant';
import { aloneRows, matchOf, offTopic, relevanceOf, relevanceRows, type RelevanceModel } from './relevance';
import { listFeatures, POINT, type FieldCache, type ListFeatures } from './rerankFeatures';
import { invokedSkills } from './invoked';
import { analyseRequest, denseQueryText, readShare, unreadReason, unreadRequest, type AnalysedRequest } from './request';
import { FirstStage, fusePool, type FusedCandidate, type Pool } from './retrieve';
import { selectSet, type SetOptions, type SetSelection } from './setSelection';
import type { RoutingSettings } from './settings';
import type { TextContext } from './skillText';

/** What the pipeline reads of an indexed library (the engine keeps these current). */
export interface IndexedLibrary {
  readonly lexical: LexicalIndex;
  /** Skill vectors; null without an embedder. */
  readonly dense: DenseStore | null;
  doc(id: string): SkillDoc | undefined;
  /** Body passages of a skill (split on first use). */
  passages(id: string): readonly Passage[];
  /** Analysed name, description and bridge terms (pseudo-relevance feedback reads them). */
  feedback(id: string): readonly string[];
  /** Per-skill compatibility profiles of the current skill list. */
  profiles(): SkillProfiles;
  /** Analysed fields per skill, shared by the features and the explanations. */
  readonly fields: FieldCache;
  /** Keys of the other skills a skill's body names (crossRefs.ts). */
  mentions(id: string): readonly string[];
  /** The skills whose name or folder is `name` (`SkillNames.named`): what a request invokes (invoked.ts). */
  named(name: string): readonly string[];
}

/** The capabilities and settings the pipeline is composed of (see `createSkillService`). */
export interface PipelineParts {
  settings: RoutingSettings;
  text: TextContext;
  embedder: Embedder | null;
  /** Why there is no embedder, when there is none. */
  embedderError?: string;
  /** The rerank stage. */
  reranker: ListReranker;
  /**
   * Set-selection thresholds for the reranker's scores, and for first-stage fused scores (when
   * reranking is off): thresholds are fitted to one scale of scores.
   */
  set: { reranked: SetOptions; firstStage: SetOptions };
  /** Calibrated relevance over the reranker's scores (the shipped model's only; see relevance.ts). */
  relevance?: RelevanceModel;
  log: Logger;
}

/** One candidate of a ranking: its first-stage scores and, in the reranked head, its rerank score. */
export interface RankedCandidate extends FusedCandidate {
  rerank: number | null;
  /** Calibrated relevance (0 past the reranked head); null without a relevance model. */
  relevance: number | null;
  /** Relevance as if it were the best candidate (`aloneRows`; 0 past the head); null without a relevance model. */
  alone: number | null;
  /**
   * Why its relevance was set to 0 whatever the reranker said: the request names what its
   * description excludes (`excluded`), or none of the request's words is in its name, description
   * or headings and it is far from the request in meaning (`off-topic`), or the request asks in
   * general how something works (`general-question`), or names a language or framework other
   * than the one the skill says it is for (`other-stack`).
   */
  zeroed?: NotRelevant;
  /** For `excluded` by a "not for" clause: the item of the clause the request asks for, in the author's words. */
  notFor?: string;
  /** For `other-stack`: what the skill is for, and what the request names ("python (the request names rust)"). */
  otherStack?: string;
  /** The request invokes this skill by name (invoked.ts): the text that does, `/sdd:adr` or `$adr`. */
  invoked?: string;
}

/** One request ranked once: every view of it (any k, any rank lookup) reads `candidates`. */
export interface Ranking {
  request: AnalysedRequest;
  /** The whole pool in final order: the reranked head by final score, then the rest in fused order. */
  candidates: RankedCandidate[];
  set: RouteSet | null;
  /** Per candidate with vectors, the row that gave its dense score (explanations read it). */
  denseRows: ReadonlyMap<string, number>;
  dense: RouteResult['dense'];
  /** The reranker that ordered the head, null when reranking was off. */
  reranker: string | null;
  /** How well the library answers the request; null without a relevance model. */
  match: 'strong' | 'weak' | 'none' | null;
  /** Relevance at or above which a candidate is relevant; null without a relevance model. */
  floor: number | null;
  /** The script or language most of the request is in when the engine reads none of it (`unreadRequest`), else null. */
  unread: string | null;
  timings: RouteTimings;
}

export interface RankOptions {
  /**
   * One part of the first stage alone, for ablations: `words` (BM25F, no dense scores) or `dense`
   * (the encoder's scores, no words). Implies no rerank and no set selection.
   */
  only?: 'words' | 'dense';
  /** Rerank the head of the pool (default true). */
  rerank?: boolean;
  /** Choose the compatible set over the ranking (default: as `rerank`); the order is the same either way. */
  select?: boolean;
  token?: CancelToken;
}

/** Scores with excluded candidates (see `RoutingPipeline.score`) lowered; probabilities stay a distribution. */
export function applyExclusions(scores: readonly number[], features: ListFeatures): number[] {
  const excluded = features.point.map((x, i) => x[POINT.requestExcluded] === 1 || !!features.notFor?.[i] || !!features.otherStack?.[i] || !!features.generalQuestion?.[i]);
  if (!excluded.some(Boolean)) return [...scores];
  const sum = scores.reduce((a, b) => a + b, 0);
  const out = scores.map((s, i) => (excluded[i] ? s * 1e-4 : s));
  if (Math.abs(sum - 1) > 1e-6 || scores.some((s) => s < 0)) return out;
  // The others share what the excluded no longer hold in proportion to their own probabilities,
  // as if the excluded were not in the list: however much mass an excluded candidate held (a
  // Python fuzzer with 0.99999 of it beside the one Rust skill of a 2-skill library), the others'
  // probabilities are those of the list without it; the excluded keep 1e-4 of theirs (their
  // order among themselves). With every candidate excluded nothing is lowered against anything.
  const others = excluded.filter((e) => !e).length;
  if (others === 0) return [...scores];
  const kept = out.reduce((a, s, i) => a + (excluded[i] ? 0 : s), 0);
  const rest = 1 - out.reduce((a, s, i) => a + (excluded[i] ? s : 0), 0);
  return out.map((s, i) => (excluded[i] ? s : kept > 0 ? (s / kept) * rest : rest / others));
}

/** A request's embedding, or why there is none. */
interface RequestVector {
  vector: Float32Array | null;
  failed: string | null;
  /** Why this request was not embedded (a script the model does not read); null when it was, or could not be. */
  skipped?: string | null;
  /** The share of the embedded text's letters the encoder reads (`readShare`; 1 when nothing was embedded). */
  read: number;
  ms: number;
}

export class RoutingPipeline {
  /** The first stage over the library's indexes. */
  readonly firstStage: FirstStage;
  /** The last encoder failure logged (each distinct one is logged once). */
  private lastDenseFailure: string | null = null;

  /** Each skill's "not for" clauses, analysed once per document (an edit makes a new one). */
  private readonly notForCache = new WeakMap<SkillDoc, NotForClauses>();
  private readonly stackCache = new WeakMap<SkillDoc, Facets>();

  constructor(
    private readonly lib: IndexedLibrary,
    private readonly parts: PipelineParts,
  ) {
    this.firstStage = new FirstStage(lib.lexical, lib.dense, (id) => lib.feedback(id));
  }

  get settings(): RoutingSettings {
    return this.parts.settings;
  }

  /** What orders this pipeline's rankings (the pair scan's cache key): reranker, encoder, settings. */
  get identity(): RouterIdentity {
    const embedder = this.parts.embedder;
    return { reranker: this.parts.reranker.id, encoder: embedder ? encoderLabel(embedder.info) : null, settings: this.parts.settings };
  }

  /** The library's skill vectors (null without an encoder), for training and benches. */
  get denseStore(): DenseStore | null {
    return this.lib.dense;
  }

  /** The encoder requests are embedded with (its adapter named in `adapter`), or null. */
  get embedderInfo(): EmbedderInfo | null {
    return this.parts.embedder?.info ?? null;
  }

  /** Stage 1a: the request analysed (`s` overrides the settings, for the tuner). */
  analyse(query: string, s: RoutingSettings = this.parts.settings): AnalysedRequest {
    return analyseRequest(query, this.lib.lexical, s, this.parts.text);
  }

  /**
   * The request's vector, and how long the encoder took. An encoder failure (its worker died, say)
   * is not an error here: the request is still routed, on words, and the failure is reported in
   * the result and logged once. Cancellation still rejects.
   */
  async embed(req: AnalysedRequest, token?: CancelToken): Promise<RequestVector> {
    const embedder = this.parts.embedder;
    if (!embedder || !this.lib.dense?.skillCount) return { vector: null, failed: null, read: 1, ms: 0 };
    const t = performance.now();
    try {
      // A Chinese request reaches the English encoder as its bridged English text.
      const text = denseQueryText(req.asked, req.readAs, this.parts.text);
      const read = readShare(text, embedder.info.languages);
      const skipped = unreadReason(read);
      if (skipped) return { vector: null, failed: null, skipped, read: 1, ms: 0 };
      const [vector] = await embedder.embed([text], 'query', token);
      return { vector, failed: null, read: read.share, ms: performance.now() - t };
    } catch (err) {
      if (err instanceof CancelledError) throw err;
      const failed = `the embedding model failed (${err instanceof Error ? err.message : String(err)}); routed on words only`;
      if (failed !== this.lastDenseFailure) this.parts.log.warn(failed);
      this.lastDenseFailure = failed;
      return { vector: null, failed, read: 1, ms: performance.now() - t };
    }
  }

  /** Stage 1: analyse, embed and retrieve the fused pool of one request. */
  async retrieve(query: string, token?: CancelToken, only?: RankOptions['only']): Promise<{ pool: Pool; vector: RequestVector; timings: Omit<RouteTimings, 'rerankMs' | 'totalMs'> }> {
    const s = this.parts.settings;
    let t = performance.now();
    const request = this.analyse(query);
    // The request's embedding starts before the lexical search: the node host runs the encoder in
    // a worker thread, so the two overlap and the request waits for the slower of them only.
    const embedding = this.embed(request, token);
    // Settled at once so that a throw below does not leave a cancellation's rejection unhandled.
    embedding.catch(() => undefined);
    const lexical = only === 'dense' ? new Map<string, number>() : this.firstStage.lexicalScores(request, s);
    const lexicalMs = performance.now() - t;
    const vector = await embedding;
    t = performance.now();
    const dense = vector.vector && only !== 'words' ? this.firstStage.denseHits(vector.vector, s, vector.read) : null;
    const denseMs = performance.now() - t;
    throwIfCancelled(token);
    t = performance.now();
    // With the dense part alone, its scores decide the fused order.
    const pool = fusePool(request, lexical, dense, only === 'dense' ? { ...s, lexicalWeight: 0, lexicalWeightCjk: 0 } : s);
    return { pool, vector, timings: { embedMs: vector.ms, denseMs, lexicalMs, fuseMs: performance.now() - t } };
  }

  /** Stage 2a: features of the head of the pool (the first `rerankDepth` candidates). */
  features(pool: Pool): ListFeatures {
    const lib = this.lib;
    const seg = this.parts.text.segmenter;
    const features = listFeatures({
      query: pool.request.asked,
      terms: pool.request.terms,
      bridgedQuery: pool.request.readAs,
      analyser: (text) => analyse(text, { segmenter: seg }),
      head: this.head(pool),
      profiles: lib.profiles(),
      fields: lib.fields,
      doc: (id) => lib.doc(id)!,
      passages: (id) => lib.passages(id),
      mentions: (id) => lib.mentions(id),
      libraryHas: (term) => lib.lexical.df(term) > 0,
    });
    // What each description says it is not for, when the request asks for it (`notForMatch`);
    // beside the reranker's inputs, not among them.
    let asked: ReadonlySet<string> | null = null;
    features.notFor = features.ids.map((id) => {
      const doc = lib.doc(id);
      if (!doc) return null;
      let clauses = this.notForCache.get(doc);
      if (!clauses) this.notForCache.set(doc, (clauses = notForClauses(doc.name, doc.description)));
      if (!clauses.items.length) return null;
      return matchClauses((asked ??= askedTerms(pool.request.query)), clauses);
    });
    // What each description's first sentence says it is for, when the request names another stack.
    features.otherStack = features.ids.map((id) => {
      const doc = lib.doc(id);
      const other = doc ? otherStack(this.ownStack(doc), features.requestFacets) : null;
      return other ? `${other.skill.join(', ')} (the request names ${other.request.join(', ')})` : null;
    });
    // A general question is the agent's to answer, unless a skill offers explanations, or the
    // question is about this library's own things (`aboutLibrary`), or a skill's name, description
    // or headings hold most of what it asks about.
    const general = generalQuestion(pool.request.query) && !this.aboutLibrary(pool.request.terms);
    features.generalQuestion = features.ids.map(
      (id, i) => general && !this.explains(id) && Math.max(features.point[i][POINT.requestInNameDescription], features.point[i][POINT.requestInHeadings]) < GENERAL_COVERED,
    );
    return features;
  }

  /**
   * Stage 2b: the reranker's scores of the head, in first-stage order, with the authors' own
   * exclusions applied: a skill whose description says it is not for what the request names
   * ("Do not use for Python, JavaScript, Go" and a request for a Flask API) scores 10,000 times
   * lower. A rule, not a learnt weight: 1% of the corpus's descriptions say such a thing, too few
   * to learn from, and the author's word is the evidence (it shows as the candidate's reason).
   * So does a skill whose description's first sentence says it is for another language or
   * framework than the one the request names (`otherStack`): the others' relevance is read as if
   * it were not there, as for an exclusion; and a skill that does not offer explanations, for a
   * request that asks in general how something works (`generalQuestion`).
   */
  async score(pool: Pool, features: ListFeatures, token?: CancelToken): Promise<number[]> {
    const scores = await this.parts.reranker.score({ request: pool.request, head: this.head(pool), features }, token);
    return applyExclusions(scores, features);
  }

  /** Stage 3: the compatible set over the ranking, from reranker scores (or fused scores when null). */
  select(pool: Pool, features: ListFeatures, scores: readonly number[] | null): SetSelection {
    const set = this.parts.set;
    return scores ? selectSet(features, scores, set.reranked) : selectSet(features, this.head(pool).map((c) => c.fused), set.firstStage);
  }

  /** Every stage for one request, once. */
  async rank(query: string, opts: RankOptions = {}): Promise<Ranking> {
    const t0 = performance.now();
    const doRerank = !opts.only && (opts.rerank ?? true);
    const doSelect = !opts.only && (opts.select ?? doRerank);
    const { pool, vector, timings } = await this.retrieve(query, opts.token, opts.only);
    const t = performance.now();
    // A skill the request invokes by name (`/sdd:adr`, `$adr`) is ranked whatever its words: it
    // joins the reranked head when the first stage left it out. Names of one or two letters are
    // not keyed for references (crossRefs.ts), so such a skill is found by its folder when that is
    // its id (a skill at the library's top level).
    const invoked = invokedSkills(query, (name) => {
      const ids = this.lib.named(name);
      return ids.length ? ids : this.lib.doc(name) ? [name] : [];
    });
    if (invoked.size) this.joinHead(pool, [...invoked.keys()]);
    const head = this.head(pool);
    let scores: number[] | null = null;
    let selection: SetSelection | null = null;
    let features: ListFeatures | null = null;
    if ((doRerank || doSelect) && head.length) {
      features = this.features(pool);
      if (doRerank) scores = await this.score(pool, features, opts.token);
      throwIfCancelled(opts.token);
    }
    const model = this.parts.relevance;
    const weights = model && scores && features ? model[head.some((c) => c.dense !== null) ? 'dense' : 'lexical'] : null;
    const relevance = weights ? relevanceOf(weights, relevanceRows(features!, scores!)) : null;
    const alone = weights ? relevanceOf(weights, aloneRows(features!, scores!)) : null;
    // What the author excluded is not relevant, however close it came (see `score`): a facet its
    // description excludes, or an item of its "not for" clause that the request asks for
    // (`notForMatch`). Nor is a candidate off topic: nothing of the request in its name,
    // description or headings, and far from it in meaning (`offTopic`). Nor is a skill that does
    // not offer explanations, for a request that asks in general how something works (`generalQuestion`),
    // nor one that says it is for another language or framework than the request names (`otherStack`).
    const zeroed = new Map<number, NotRelevant>();
    const notFor = new Map<number, string>();
    if (relevance && alone && features) {
      features.point.forEach((x, i) => {
        const item = x[POINT.requestExcluded] === 1 ? null : features!.notFor?.[i];
        if (item) notFor.set(i, item);
        const why: NotRelevant | null =
          x[POINT.requestExcluded] === 1 || item ? 'excluded'
          : offTopic(x, head[i].dense) ? 'off-topic'
          : features!.generalQuestion?.[i] ? 'general-question'
          : features!.otherStack?.[i] ? 'other-stack'
          : null;
        if (!why || invoked.has(head[i].id)) return;
        relevance[i] = alone[i] = 0;
        zeroed.set(i, why);
      });
    }
    // What the user invoked by name is what the user wants: full relevance, and the lead of the set.
    const chosen = head.map((c) => invoked.has(c.id));
    if (invoked.size) {
      chosen.forEach((yes, i) => {
        if (!yes) return;
        if (relevance) relevance[i] = 1;
        if (alone) alone[i] = 1;
        if (scores) scores[i] = Math.max(1, ...scores);
      });
    }
    // The set is chosen once relevance has said which candidates it rules out: a skill with
    // relevance 0 by rule, first by the reranker, would otherwise lead a set while shown far below.
    if (doSelect && features) selection = this.select(pool, features, scores && zeroed.size ? scores.map((s, i) => (zeroed.has(i) ? s * 1e-4 : s)) : scores);
    const rerankMs = performance.now() - t;
    // One order, the final scores' (relevance, else the reranker's): the set is chosen over it and
    // moves nothing. Ties (relevance saturates) go by the reranker's score, then first-stage order.
    const byScore = scores ? orderBy(scores) : head.map((_, i) => i);
    const place = new Map(byScore.map((i, n) => [i, n]));
    const ranked = relevance ? [...byScore].sort((x, y) => relevance[y] - relevance[x] || place.get(x)! - place.get(y)!) : byScore;
    // An invoked skill leads (its scores were raised to the top above, so no score order breaks).
    const order = invoked.size ? [...ranked.filter((i) => chosen[i]), ...ranked.filter((i) => !chosen[i])] : ranked;
    const candidates: RankedCandidate[] = [
      ...order.map((i) => ({ ...head[i], rerank: scores ? scores[i] : null, relevance: relevance ? relevance[i] : null, alone: alone ? alone[i] : null, ...(zeroed.has(i) ? { zeroed: zeroed.get(i)! } : {}), ...(notFor.has(i) ? { notFor: notFor.get(i)! } : {}), ...(zeroed.get(i) === 'other-stack' ? { otherStack: features!.otherStack![i]! } : {}), ...(chosen[i] ? { invoked: invoked.get(head[i].id)! } : {}) })),
      ...pool.candidates.slice(head.length).map((c) => ({ ...c, rerank: null, relevance: relevance ? 0 : null, alone: alone ? 0 : null })),
    ];
    let match = relevance && model ? matchOf(relevance.length ? Math.max(...relevance) : undefined, model) : null;
    let floor = relevance && model ? model.floor : null;
    // A request mostly in a script the engine does not read was matched on its few other words:
    // the relevance model cannot tell that no skill fits it, so the best candidate a word reached
    // (and no rule ruled out) is a weak answer, not none.
    const unread = unreadRequest(pool.request.query, pool.request.readAs, this.parts.text);
    if (unread && match === 'none' && relevance) {
      const best = Math.max(0, ...relevance.filter((_, i) => !zeroed.has(i)));
      if (best > 0) {
        match = 'weak';
        floor = best;
      }
    }
    const set = selection && features ? setOf(selection, features.ids, relevance, match, floor) : null;
    const embedder = this.parts.embedder;
    return {
      request: pool.request,
      candidates,
      set,
      denseRows: pool.denseRows,
      dense: vector.failed
        ? { disabled: vector.failed }
        : vector.skipped
          ? { disabled: vector.skipped }
          : embedder
            ? { model: encoderLabel(embedder.info) }
            : { disabled: this.parts.embedderError ?? 'no embedding model configured' },
      reranker: scores ? this.parts.reranker.id : null,
      match,
      floor,
      unread,
      timings: { ...timings, rerankMs, totalMs: performance.now() - t0 },
    };
  }

  /** Stage 4: the passage that explains one candidate of a ranking. */
  explainer(ranking: Ranking): (id: string) => MatchedPassage | null {
    const matcher = passageMatcher(ranking.request, this.parts.text);
    return (id) => {
      const doc = this.lib.doc(id);
      if (!doc) return null;
      const passages = this.lib.passages(id);
      return bestPassage(doc, passages, this.lib.fields.get(doc, () => passages), ranking.denseRows.get(id), matcher);
    };
  }

  /**
   * Whether a request names something of this library's own: a term its skills hold that public
   * skill libraries almost never do (the background statistics: in at most 0.1% of their skills),
   * such as the project's own name ("how does kujo docgen scan without executing code"). What
   * every public library writes about (Git, Spring) is general knowledge.
   */
  private aboutLibrary(terms: readonly string[]): boolean {
    const background = this.lib.lexical.background?.frequencies;
    if (!background) return false;
    const rare = Math.max(2, background.size * 0.001);
    return terms.some((t) => this.lib.lexical.df(t) > 0 && background.df(t) <= rare);
  }

  /** What a skill says it is for (`ownStack`), per parsed skill. */
  private ownStack(doc: SkillDoc): Facets {
    let own = this.stackCache.get(doc);
    if (!own) this.stackCache.set(doc, (own = ownStack(doc.description)));
    return own;
  }

  /** Whether a skill offers explanations, so that a general question stays its to answer (`generalQuestion`). */
  private explains(id: string): boolean {
    const doc = this.lib.doc(id);
    return !doc || offersExplanations(doc.name, doc.description);
  }

  /**
   * Moves the skills `ids` into the reranked head of `pool`: those ranked past the head take the
   * head's last places, one the first stage did not find at all enters there with no score.
   */
  private joinHead(pool: Pool, ids: readonly string[]): void {
    const depth = this.parts.settings.rerankDepth;
    const joining: FusedCandidate[] = [];
    for (const id of ids) {
      const at = pool.candidates.findIndex((c) => c.id === id);
      if ((at >= 0 && at < depth) || !this.lib.doc(id)) continue;
      joining.push(at >= 0 ? pool.candidates.splice(at, 1)[0] : { id, lexical: 0, dense: null, denseNorm: 0, lexicalWeight: pool.candidates[0]?.lexicalWeight ?? this.parts.settings.lexicalWeight, fused: 0 });
    }
    pool.candidates.splice(Math.max(0, Math.min(depth - joining.length, pool.candidates.length)), 0, ...joining);
  }

  private head(pool: Pool): FusedCandidate[] {
    return pool.candidates.slice(0, this.parts.settings.rerankDepth);
  }
}

/**
 * A further set member's relevance, at least, as a share of the first member's. Over the dev
 * requests the reranker's own thresholds let 39 of 96 one-skill requests have a set of two or
 * three, and 37 of 123 further members were right; at 0.4 of the first's relevance, 13 and 18 of 46
 * (set sizes exactly right 93 -> 102 of 179; the ranking does not move).
 */
export const MEMBER_RELEVANCE_SHARE = 0.4;

/**
 * A skill whose name and description, or headings, hold at least this share of a general
 * question's term weight is about what it asks ("what is the v1 release readiness gate" and a
 * release-gates skill): the question stays its to answer.
 */
export const GENERAL_COVERED = 0.5;

/**
 * The set as a ranking reports it. With calibrated relevance it agrees with the match: no set when
 * no skill fits, and no member that is not relevant (the first always is, when any result is) or
 * far less relevant than the first.
 */
export function setOf(selection: SetSelection, ids: readonly string[], relevance: readonly number[] | null, match: Ranking['match'], floor: number | null): RouteSet | null {
  if (match === 'none') return null;
  const first = selection.members[0];
  const members = relevance && floor !== null
    ? selection.members.filter((i, n) => n === 0 || (relevance[i] >= floor && relevance[i] >= MEMBER_RELEVANCE_SHARE * relevance[first]))
    : selection.members;
  if (!members.length) return null;
  return {
    ids: members.map((i) => ids[i]),
    size: members.length,
    rejected: selection.rejected
      .filter((r) => members.includes(r.partner))
      .map((r) => ({ id: ids[r.index], partnerId: ids[r.partner], reason: r.reason, evidence: r.evidence })),
  };
}
