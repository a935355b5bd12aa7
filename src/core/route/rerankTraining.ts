/**
 * Training the learned reranker from the library itself (bench/trainReranker.ts runs it):
 *
 * 1. Pseudo-requests written from skill text: a description sentence, a "use when" clause or
 *    section headings, with words dropped, the skill's own name often left out, a request opener
 *    and sometimes unrelated context; multi-skill requests join fragments of two or three skills
 *    that the conflict judgement finds compatible (related, not redundant, same stack).
 * 2. Each request goes through the routing pipeline's first stage and the features of its pool's
 *    head are taken (`requestFeatures`), exactly as routing computes them. Graded targets as
 *    in "Skill Is Not Document": 3 for a skill the request was written from, 1 for a SKIP partner
 *    of one (a copy, a redundant skill, or the same job for another stack), 0 for the rest.
 * 3. A listwise (ListNet) softmax cross-entropy loss, full-batch Adam, for pass 1 (point
 *    features) and then pass 2 (point + context features for the pass-1 order).
 *
 * Everything is deterministic for a seed: the PRNG, the request order and full-batch updates.
 */
import { judgePair, profileSimilarity, type ConflictOptions, type SkillProfile, type SkillProfiles } from '../analysis/conflicts';
import { DEFAULT_CONFLICT } from '../analysis/conflicts';
import type { SkillDoc } from '../types';
import { hasCjk } from '../text/analyse';
import { headings } from '../text/passages';
import type { RoutingPipeline } from './pipeline';
import { modelScores, orderBy, softmax, type RegimeWeights, type RerankerModel } from './rerank';
import { contextFeatures, CONTEXT_FEATURES, POINT_FEATURES, type ListFeatures } from './rerankFeatures';
import { membersFirst, selectSet } from './setSelection';

import { prng } from '../random';
export { prng };

export interface PseudoRequest {
  query: string;
  /** Skills the request was written from. */
  targets: string[];
  /** Skills left out of the recorded candidates: the copy in the request's language that a cross-language request was written from. */
  hidden?: string[];
}

export interface PseudoOptions {
  seed: number;
  /** Share of skills that get a single-skill request. */
  singleRate: number;
  /** Number of two-skill and three-skill requests. */
  pairs: number;
  triples: number;
  conflict?: ConflictOptions;
  /**
   * Renders Chinese text in English (the Chinese-English bridge). When given, a `crossRate` share
   * of Chinese skills also get an English request, so the model sees requests across languages.
   */
  translate?: (text: string) => string | null;
  crossRate?: number;
  /**
   * Share of Chinese skills with an English copy in the library (the same folder name in another
   * collection: a translated skill) that give a Chinese request for the English copy, the Chinese
   * one hidden: the model sees Chinese requests whose skill is written in English, next to
   * Chinese skills for neighbouring jobs.
   */
  twinRate?: number;
  /**
   * Renders English text in Chinese words (`ReverseBridge`). When given, a `reverseRate` share of
   * English skills, and of multi-skill requests on English skills, also get a Chinese request.
   */
  toChinese?: (text: string) => string | null;
  reverseRate?: number;
}

export const DEFAULT_PSEUDO: PseudoOptions = { seed: 7, singleRate: 0.4, pairs: 400, triples: 120, crossRate: 0.4, twinRate: 0.5, reverseRate: 0.2 };

const OPENERS = {
  en: ['', '', 'I need to ', 'Can you help me ', 'Please ', 'How do I ', 'We want to ', 'Help me ', 'Quick one: ', 'Looking for a way to '],
  zh: ['', '', '帮我', '我想', '请', '怎么', '我们需要', '能不能', '求助：'],
};
const JOINERS = {
  en: [' and ', '. Then ', ', then ', '. Also, ', '; after that, ', '. On top of that, '],
  zh: ['，然后', '，再', '。另外，', '，并且', '；之后'],
};
/** Context a real request often carries that names no skill. */
const FILLERS = {
  en: [
    "We're a small team and this is due on Friday.",
    "I've already tried a couple of approaches and none of them worked.",
    'Keep the answer short and practical.',
    'This is for a production system, so be careful.',
    'Explain the steps so a new teammate can follow them.',
    'My manager asked for this by the end of the week.',
  ],
  zh: ['我们团队人不多，周五之前要交付。', '之前试过几种办法都不行。', '回答尽量简洁实用。', '这是线上环境，请谨慎操作。', '步骤写清楚，方便新同事照着做。', '老板要求这周内完成。'],
};
const GENERIC_HEADING =
  /^(?:overview|usage|examples?|instructions|when to use.*|quick ?start|installation|setup|notes?|references?|resources|introduction|summary|prerequisites|requirements|output|best practices|tips|common mistakes|troubleshooting|license|faq|step \d+.*|概述|简介|使用方法|用法|示例|注意事项|参考|安装|前提条件|何时使用.*|最佳实践|总结)$/i;

/**
 * Where the training writer splits a description into sentences: after any stop, also inside a
 * word ("Next.js" becomes "Next." and "js"). The learned weights were trained on that split, so it
 * stays for training (`--check` reproduces them); `SENTENCE_END` is for text a user reads.
 */
const TRAINING_SPLIT = /(?<=[.!?。！？；;])\s*/u;
/** A sentence ends at a Latin stop followed by a space (not inside "Next.js" or ".h5ad"), or at a CJK stop. */
export const SENTENCE_END = /(?<=[.!?;])\s+|(?<=[。！？；])\s*/u;

/**
 * Sentences and headings of a skill that a request could paraphrase. `split` is where a
 * description's sentences end (default: the training writer's).
 */
export function fragments(doc: SkillDoc, split: RegExp = TRAINING_SPLIT): { description: string[]; headings: string[] } {
  const description = doc.description
    .split(split)
    .map((s) => s.replace(/^(?:use (?:this skill )?(?:when(?: the user)?|for|to)|this skill (?:should be used when|helps?|is for)|triggers? (?:on|when))\s*[:,]?\s*/i, '').trim())
    .filter((s) => s.length >= (hasCjk(s) ? 6 : 15));
  const heads = headings(doc.body)
    .map((h) => h.replace(/^[\d.)\s]+/, '').trim())
    .filter((h) => h.length >= 6 && h.length <= 80 && !GENERIC_HEADING.test(h));
  return { description, headings: [...new Set(heads)].slice(0, 12) };
}

function pick<T>(rand: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)];
}

/** Drops words (Latin) or clauses (Chinese) at `rate`, keeping at least a few. */
function dropWords(rand: () => number, text: string, rate: number): string {
  if (hasCjk(text)) {
    const parts = text.split(/(?<=[，、,])/u);
    if (parts.length < 2) return text;
    const kept = parts.filter(() => rand() >= rate);
    return (kept.length ? kept : parts.slice(0, 1)).join('').replace(/[，、,]$/u, '');
  }
  const words = text.split(/\s+/);
  const kept = words.filter(() => rand() >= rate);
  return (kept.length >= 4 ? kept : words.slice(0, Math.min(words.length, 6))).join(' ');
}

/** Removes the words of the skill's name (a request rarely names the skill). */
function withoutName(text: string, name: string): string {
  let out = text;
  for (const word of name.split(/[-_\s]+/).filter((w) => w.length >= 3)) {
    out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'giu'), '');
  }
  return out.replace(/\s{2,}/g, ' ').trim();
}

/**
 * One paraphrased fragment of a skill, or null when it has no usable text: a description
 * sentence or headings, often both (real requests say more than one thing about the job).
 */
function fragmentOf(rand: () => number, doc: SkillDoc): string | null {
  const f = fragments(doc);
  const zh = hasCjk(doc.description);
  const parts: string[] = [];
  if (f.description.length && (rand() < 0.75 || !f.headings.length)) parts.push(pick(rand, f.description));
  if (f.headings.length && (!parts.length || rand() < 0.5)) {
    parts.push(pick(rand, f.headings));
    if (f.headings.length > 1 && rand() < 0.4) parts.push(pick(rand, f.headings));
  }
  if (!parts.length) return null;
  let text = [...new Set(parts)].join(zh ? '，' : ', ');
  text = dropWords(rand, text, 0.15 + rand() * 0.3);
  if (rand() < 0.6) text = withoutName(text, doc.name);
  text = text.replace(/[.。]+$/u, '').trim();
  if (!hasCjk(text) && rand() < 0.5) text = text.charAt(0).toLowerCase() + text.slice(1);
  return text.length >= 6 ? text : null;
}

/**
 * A request from fragments: an opener, the fragments joined, and often context that names no
 * skill (a filler) or words of an unrelated skill (`noise`), as real requests carry.
 */
function compose(rand: () => number, parts: string[], zh: boolean, noise?: string): string {
  const lang = zh ? 'zh' : 'en';
  let q = pick(rand, OPENERS[lang]);
  parts.forEach((p, i) => {
    q += i === 0 ? p : `${pick(rand, JOINERS[lang])}${p}`;
  });
  q += zh ? '。' : '.';
  if (noise) q = `${q} ${noise}${zh ? '。' : '.'}`;
  if (rand() < 0.5) q = rand() < 0.5 ? `${pick(rand, FILLERS[lang])} ${q}` : `${q} ${pick(rand, FILLERS[lang])}`;
  return q.replace(/\s{2,}/g, ' ').trim();
}

/** A few words of a random skill's description in `lang`, as context noise (30% of requests). */
function noiseOf(rand: () => number, docs: readonly SkillDoc[], zh: boolean): string | undefined {
  if (rand() >= 0.3) return undefined;
  const doc = pick(rand, docs);
  if (hasCjk(doc.description) !== zh || !doc.description) return undefined;
  if (zh) {
    const start = Math.floor(rand() * Math.max(1, doc.description.length - 8));
    return doc.description.slice(start, start + 4 + Math.floor(rand() * 6));
  }
  const words = doc.description.split(/\s+/);
  const start = Math.floor(rand() * Math.max(1, words.length - 5));
  return words.slice(start, start + 3 + Math.floor(rand() * 4)).join(' ');
}

/**
 * Pseudo-requests for a library: single-skill requests for a `singleRate` share of skills, and
 * multi-skill requests joining compatible skills of one language (similar enough to be used
 * together, not redundant, no stack or platform split; same collection counts in favour).
 */
export function pseudoRequests(docs: readonly SkillDoc[], profiles: SkillProfiles, opts: PseudoOptions = DEFAULT_PSEUDO): PseudoRequest[] {
  const rand = prng(opts.seed);
  const conflict = opts.conflict ?? DEFAULT_CONFLICT;
  const out: PseudoRequest[] = [];
  for (const doc of docs) {
    if (rand() >= opts.singleRate) continue;
    const text = fragmentOf(rand, doc);
    if (text) out.push({ query: compose(rand, [text], doc.lang === 'zh', noiseOf(rand, docs, doc.lang === 'zh')), targets: [doc.id] });
  }
  if (opts.translate) {
    for (const doc of docs) {
      if (doc.lang !== 'zh' || rand() >= (opts.crossRate ?? opts.singleRate)) continue;
      const text = fragmentOf(rand, doc);
      // Words the bridge does not know stay Chinese; a request in English leaves them out.
      const english = text && opts.translate(text)?.replace(/[\u3400-\u9fff\uf900-\ufaff，。、；：！？]+/gu, ' ').replace(/\s+/g, ' ').trim();
      if (english && english.split(' ').length >= 3) out.push({ query: compose(rand, [english], false, noiseOf(rand, docs, false)), targets: [doc.id] });
    }
  }
  if (opts.toChinese) {
    for (const doc of docs) {
      if (doc.lang !== 'en' || rand() >= (opts.reverseRate ?? 0)) continue;
      const text = fragmentOf(rand, doc);
      const chinese = text && opts.toChinese(text);
      if (chinese) out.push({ query: compose(rand, [chinese], true, noiseOf(rand, docs, true)), targets: [doc.id] });
    }
  }
  if (opts.twinRate) {
    const folder = (id: string) => id.slice(id.lastIndexOf('/') + 1);
    const english = new Map<string, string[]>();
    for (const doc of docs) if (doc.lang === 'en') english.set(folder(doc.id), [...(english.get(folder(doc.id)) ?? []), doc.id]);
    const chinese = new Map<string, string[]>();
    for (const doc of docs) if (doc.lang === 'zh') chinese.set(folder(doc.id), [...(chinese.get(folder(doc.id)) ?? []), doc.id]);
    for (const doc of docs) {
      const twins = doc.lang === 'zh' ? english.get(folder(doc.id)) : undefined;
      if (!twins || rand() >= opts.twinRate) continue;
      const text = fragmentOf(rand, doc);
      if (text) out.push({ query: compose(rand, [text], true, noiseOf(rand, docs, true)), targets: twins, hidden: chinese.get(folder(doc.id)) });
    }
  }
  const byId = new Map(docs.map((d) => [d.id, d]));
  const all = [...profiles.all()].filter((p) => byId.has(p.id));
  const partnersOf = (chosen: SkillProfile[]): SkillProfile[] => {
    const scored: { p: SkillProfile; s: number }[] = [];
    for (const p of all) {
      if (chosen.some((c) => c.id === p.id) || p.lang !== chosen[0].lang) continue;
      let ok = true;
      let s = 0;
      for (const c of chosen) {
        const sim = profileSimilarity(c, p);
        const relatedAt = sim.dense ? conflict.denseRelated : conflict.lexicalRelated;
        const j = judgePair(c, p, conflict);
        if (j.reason !== null || sim.similarity < relatedAt) {
          ok = false;
          break;
        }
        s += sim.similarity + (c.collection === p.collection ? 0.05 : 0);
      }
      if (ok) scored.push({ p, s });
    }
    scored.sort((a, b) => b.s - a.s || (a.p.id < b.p.id ? -1 : 1));
    return scored.slice(0, 25).map((x) => x.p);
  };
  const multi = (size: number, count: number) => {
    for (let n = 0, tries = 0; n < count && tries < count * 4; tries++) {
      const anchor = pick(rand, all);
      const chosen = [anchor];
      while (chosen.length < size) {
        const partners = partnersOf(chosen);
        if (!partners.length) break;
        chosen.push(pick(rand, partners));
      }
      if (chosen.length < size) continue;
      let parts = chosen.map((p) => fragmentOf(rand, byId.get(p.id)!));
      if (parts.some((p) => p === null)) continue;
      let zh = anchor.lang === 'zh';
      if (!zh && opts.toChinese && rand() < (opts.reverseRate ?? 0)) {
        const chinese = parts.map((p) => opts.toChinese!(p!));
        if (chinese.every((p) => p !== null)) {
          parts = chinese;
          zh = true;
        }
      }
      out.push({ query: compose(rand, parts as string[], zh, noiseOf(rand, docs, zh)), targets: chosen.map((p) => p.id) });
      n++;
    }
  };
  multi(2, opts.pairs);
  multi(3, opts.triples);
  return out;
}

/** One recorded training list: the features of a routed request and the graded targets. */
export interface TrainingList {
  features: ListFeatures;
  /** 3 required, 1 SKIP partner, 0 other; one per candidate. */
  grades: number[];
  /** Number of skills the request was written from. */
  size: number;
}

/** The features of a list without the candidates `hidden` (every per-candidate array filtered alike). */
export function withoutCandidates(lf: ListFeatures, hidden: readonly string[]): ListFeatures {
  const keep = lf.ids.map((id, i) => (hidden.includes(id) ? -1 : i)).filter((i) => i >= 0);
  if (keep.length === lf.ids.length) return lf;
  return {
    ...lf,
    ids: keep.map((i) => lf.ids[i]),
    point: keep.map((i) => lf.point[i]),
    pairs: keep.map((i) => keep.map((j) => lf.pairs[i][j])),
    covers: keep.map((i) => lf.covers[i]),
    facets: keep.map((i) => lf.facets[i]),
  };
}

/**
 * The rerank stage's features of one request routed through `pipeline` (the head of its pool,
 * exactly as routing scores it), or null when nothing matched.
 */
export async function requestFeatures(pipeline: RoutingPipeline, query: string): Promise<ListFeatures | null> {
  const { pool } = await pipeline.retrieve(query);
  return pool.candidates.length ? pipeline.features(pool) : null;
}

/** Graded targets of a list: 3 for a target, 1 for a SKIP partner of a target, 0 otherwise. */
export function gradeList(ids: readonly string[], targets: readonly string[], partner: (target: string, candidate: string) => boolean): number[] {
  const t = new Set(targets);
  return ids.map((id) => (t.has(id) ? 3 : targets.some((g) => partner(g, id)) ? 1 : 0));
}

export interface TrainOptions {
  iterations: number;
  learningRate: number;
  l2: number;
}

export const DEFAULT_TRAIN: TrainOptions = { iterations: 400, learningRate: 0.05, l2: 1e-3 };

/** Rows already standardised; `p` is the target distribution of each list. */
interface Batch {
  x: number[][][];
  p: number[][];
}

/** A batch packed for speed: each list's rows as one flat array. */
interface Packed {
  rows: Float64Array[];
  sizes: number[];
  p: number[][];
}

function pack(batch: Batch, dims: number): Packed {
  return {
    rows: batch.x.map((rows) => {
      const flat = new Float64Array(rows.length * dims);
      rows.forEach((row, i) => flat.set(row.slice(0, dims), i * dims));
      return flat;
    }),
    sizes: batch.x.map((rows) => rows.length),
    p: batch.p,
  };
}

/** Mean ListNet loss at `w`; adds its gradient into `grad` (zeroed first). */
function lossAndGradient(batch: Packed, w: Float64Array, l2: number, grad: Float64Array): number {
  const dims = w.length;
  let loss = 0;
  for (let k = 0; k < dims; k++) {
    grad[k] = 2 * l2 * w[k];
    loss += l2 * w[k] * w[k];
  }
  const n = batch.rows.length;
  const scores = new Float64Array(Math.max(1, ...batch.sizes));
  for (let l = 0; l < n; l++) {
    const rows = batch.rows[l];
    const size = batch.sizes[l];
    const p = batch.p[l];
    let max = -Infinity;
    for (let i = 0; i < size; i++) {
      let s = 0;
      for (let k = 0; k < dims; k++) s += rows[i * dims + k] * w[k];
      scores[i] = s;
      if (s > max) max = s;
    }
    let z = 0;
    for (let i = 0; i < size; i++) z += Math.exp(scores[i] - max);
    const logZ = Math.log(z) + max;
    for (let i = 0; i < size; i++) {
      const q = Math.exp(scores[i] - logZ);
      if (p[i] > 0) loss -= (p[i] * (scores[i] - logZ)) / n;
      const g = (q - p[i]) / n;
      if (g !== 0) for (let k = 0; k < dims; k++) grad[k] += g * rows[i * dims + k];
    }
  }
  return loss;
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < b.length; i++) s += a[i] * b[i];
  return s;
}

/** Full-batch Adam on the ListNet loss from zero weights; returns the weights and the loss curve. */
export function trainListNet(batch: Batch, dims: number, opts: TrainOptions = DEFAULT_TRAIN): { w: number[]; losses: number[] } {
  const packed = pack(batch, dims);
  const w = new Float64Array(dims);
  const grad = new Float64Array(dims);
  const m = new Float64Array(dims);
  const v = new Float64Array(dims);
  const b1 = 0.9;
  const b2 = 0.999;
  const losses: number[] = [];
  for (let it = 1; it <= opts.iterations; it++) {
    losses.push(lossAndGradient(packed, w, opts.l2, grad));
    for (let k = 0; k < dims; k++) {
      m[k] = b1 * m[k] + (1 - b1) * grad[k];
      v[k] = b2 * v[k] + (1 - b2) * grad[k] * grad[k];
      const mh = m[k] / (1 - b1 ** it);
      const vh = v[k] / (1 - b2 ** it);
      w[k] -= (opts.learningRate * mh) / (Math.sqrt(vh) + 1e-8);
    }
  }
  return { w: [...w], losses };
}

/** Target distribution of graded labels: gain 2^g - 1, normalised. */
function targetDistribution(grades: readonly number[]): number[] {
  const gains = grades.map((g) => 2 ** g - 1);
  const z = gains.reduce((a, b) => a + b, 0);
  return gains.map((g) => g / z);
}

const round = (x: number): number => Number(x.toPrecision(6));

/** Trains one regime: standardisation, pass 1, then pass 2 on the pass-1 order. */
export function trainRegime(lists: readonly TrainingList[], opts: TrainOptions = DEFAULT_TRAIN): { weights: RegimeWeights; losses: { pass1: number[]; pass2: number[] } } {
  const usable = lists.filter((l) => l.grades.some((g) => g > 0));
  const n1 = POINT_FEATURES.length;
  const n2 = n1 + CONTEXT_FEATURES.length;
  // Statistics over the first-stage order's context, so they do not depend on pass 1.
  const rows2 = usable.flatMap((l) => {
    const ctx = contextFeatures(l.features, l.features.ids.map((_, i) => i));
    return l.features.point.map((x, i) => [...x, ...ctx[i]]);
  });
  const mean = new Array<number>(n2).fill(0);
  const std = new Array<number>(n2).fill(0);
  for (const r of rows2) for (let k = 0; k < n2; k++) mean[k] += r[k] / rows2.length;
  for (const r of rows2) for (let k = 0; k < n2; k++) std[k] += (r[k] - mean[k]) ** 2 / rows2.length;
  for (let k = 0; k < n2; k++) {
    mean[k] = round(mean[k]);
    std[k] = round(Math.sqrt(std[k]) || 1);
  }
  const z = (x: readonly number[]) => x.map((v, k) => (v - mean[k]) / std[k]);
  const p = usable.map((l) => targetDistribution(l.grades));

  const pass1 = trainListNet({ x: usable.map((l) => l.features.point.map(z)), p }, n1, opts);
  const w1 = pass1.w.map(round);
  const pass2Rows = usable.map((l) => {
    const s1 = l.features.point.map((x) => dot(z(x), w1));
    const ctx = contextFeatures(l.features, orderBy(s1));
    return l.features.point.map((x, i) => z([...x, ...ctx[i]]));
  });
  const pass2 = trainListNet({ x: pass2Rows, p }, n2, opts);
  return { weights: { mean, std, pass1: w1, pass2: pass2.w.map(round), prior: 0 }, losses: { pass1: pass1.losses, pass2: pass2.losses } };
}

/**
 * Set-size thresholds that best recover the number of skills each request was written from
 * (balanced over sizes 1, 2 and 3), over a small grid.
 */
export function fitSetThresholds(model: RerankerModel, lists: readonly { list: TrainingList; dense: boolean }[]): { minShare: number; minNovel: number; accuracy: number } {
  const scored = lists.map(({ list, dense }) => ({ list, scores: softmax(modelScores(model, list.features, dense).pass2) }));
  let best = { minShare: 0.25, minNovel: 0.1, accuracy: -1 };
  for (const minShare of [0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5]) {
    for (const minNovel of [0, 0.01, 0.02, 0.03, 0.05, 0.1, 0.15, 0.2, 0.3]) {
      const hits = new Map<number, { n: number; ok: number }>();
      for (const { list, scores } of scored) {
        const sel = selectSet(list.features, scores, { maxSize: 3, minShare, minNovel });
        const h = hits.get(list.size) ?? { n: 0, ok: 0 };
        h.n++;
        if (sel.size === list.size) h.ok++;
        hits.set(list.size, h);
      }
      const accuracy = [...hits.values()].reduce((a, h) => a + h.ok / h.n, 0) / Math.max(hits.size, 1);
      if (accuracy > best.accuracy + 1e-9) best = { minShare, minNovel, accuracy: round(accuracy) };
    }
  }
  return best;
}

/** Candidate first-stage prior weights, smallest first. */
export const PRIOR_GRID = [0, 0.5, 1, 1.5, 2, 3, 4];

/**
 * The first-stage prior weight that maximises mean Hit@1 + NDCG@10 (with set selection) over
 * labelled lists; ties go to the smaller weight. `score(order, i)` scores list `i`'s order as the
 * set presents it (members first, then the rest of the ranking).
 */
export function choosePrior(
  model: RerankerModel,
  regime: 'dense' | 'lexical',
  lists: readonly TrainingList[],
  score: (order: number[], index: number) => number,
  indexes: readonly number[],
): number {
  let best = { prior: PRIOR_GRID[0], value: -Infinity };
  for (const prior of PRIOR_GRID) {
    const m: RerankerModel = { ...model, regimes: { ...model.regimes, [regime]: { ...model.regimes[regime], prior } } };
    let value = 0;
    for (const i of indexes) {
      const lf = lists[i].features;
      const p = softmax(modelScores(m, lf, regime === 'dense').pass2);
      const sel = selectSet(lf, p, { maxSize: 3, ...m.set });
      value += score(membersFirst(sel.order, (j) => sel.members.includes(j), (j) => sel.rejected.some((r) => r.index === j)), i);
    }
    if (value > best.value + 1e-9) best = { prior, value };
  }
  return best.prior;
}
