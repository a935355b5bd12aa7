/**
 * Routing evidence about pairs of skills: each skill's probe requests routed over the library,
 * read within the skill's scope (its collection, or the whole library when pairs across folders
 * are asked for), and what they say about a pair:
 *
 * - **competitors** (`skill.near-duplicate`): each takes the other's requests, i.e. at least half
 *   of the requests written for either rank the other in the top 3 beside it with close scores,
 *   and the router puts the other first for at least one of them (or each takes all of them): it
 *   cannot keep the two apart;
 * - **variants** (`skill.conflict`): the same, between skills for two platforms, languages,
 *   frameworks or products, when a description does not name its own in its first sentence;
 * - **umbrella** (`skill.conflict`): a skill that presents itself as a router, index or
 *   "fundamentals" skill and a task skill, when the task skill's requests reach the umbrella and
 *   the umbrella's requests spread over more skills than the task skill's do (that decides which
 *   is the umbrella, not the wording alone).
 *
 * Pairs whose descriptions name each other are left out: their boundary is intended. Two steps
 * of one piece of work (a sequence) are read from the names and descriptions in sequences.ts.
 */
import type { SkillDoc } from '../types';
import type { SkillProfiles } from './conflicts';
import { nameKey } from './copies';
import { detectFacets, facetMismatches, firstSentence, mentionsSkillLower, sendsToLower, type FacetFamily } from './facets';
import { handOffOf, handOffs, oppositeWays, sequenceOf } from './sequences';
import { DEFAULT_COMPETITION, type CompetitionOptions } from './scanRun';
import type { EvidenceRequest, ProbeDirection, ScopedRanking, Verdict } from './types';

/** How deep a ranking is read: "the top 3". */
export const TOP = 3;
/** Scoped places kept per routed probe (enough to say where both skills of a pair stood). */
export const KEPT = 8;

/** What the probes of one skill say about one other skill. */
export type Direction = ProbeDirection;

/** Rank (1-based) of `id` in a scoped ranking, or 0 when it is not there. */
export function rankOf(r: ScopedRanking, id: string): number {
  return r.ids.indexOf(id) + 1;
}

/**
 * Whether a routed probe ranks both skills within the top 3, the other close to the one it was
 * written for and judged relevant to the request (in a small library every skill is in the top
 * 3; one the request does not touch is neither).
 */
export function both(r: ScopedRanking, x: string, y: string): boolean {
  const rx = rankOf(r, x);
  const ry = rankOf(r, y);
  if (!rx || !ry || rx > TOP || ry > TOP) return false;
  // The other one must be relevant to the request too: in a small library a skill the request
  // does not need is in the top 3 for want of others, and its cosine can still look close.
  const other = (r.for === x ? ry : rx) - 1;
  return r.close[other] && r.relevant?.[other] !== false;
}

/**
 * Lowest ratio of two fused scores for the lower skill to stand close to the higher. On the
 * corpus, probes that rank a competitor in the top 3 have a median ratio of 0.62 and a tenth
 * under 0.4; 0.3 keeps those and drops what a small library ranks third only for want of others.
 */
export const CLOSE = 0.3;
/** The same for raw encoder cosines, read when the pool is too small to normalise. */
export const CLOSE_DENSE = 0.7;

/** Pools smaller than this are too small to min-max normalise meaningfully (a small library's). */
export const SMALL_POOL = 10;

/**
 * The same for raw lexical (BM25) scores, read in a small pool without an encoder: only a skill
 * the request's words all but miss is not close. In a library of a few skills, words the skills
 * share weigh almost nothing (BM25's IDF), so even the same job for another framework (React vs
 * Vue tests, alone in a library) scores 0.08-0.15 of the probe's own skill; a skill reached by
 * one incidental bridged word ("write") scores under 0.04.
 */
export const CLOSE_WORDS = 0.05;

/**
 * In a small pool, the other skill counts as relevant to a probe when its relevance on its own
 * text (`alone`) is at least the floor and this share of the best candidate's relevance. A twin
 * behind its copy earns 0.38-0.91 of the best (the csv twins of test/cli/twins.test.ts); an
 * unrelated skill that the small encoder gives a 0.6 cosine earns 0.17 (a release-notes request
 * over two CSV skills), one without it under 0.05.
 */
export const ALONE_SHARE = 0.25;

/** One candidate's first-stage scores, as closeness reads them. */
export interface FirstStageScores {
  id: string;
  fused: number;
  dense: number | null;
}

/**
 * Whether candidate `c` stands close to `self` (the probe's own skill) in a routed pool of
 * `pool` candidates: the lower fused score at least `CLOSE` of the higher. Min-max normalising a
 * small pool puts its last at 0 whatever it scored (two copies and a twin: the copies score 0):
 * there the raw encoder cosines decide, and without an encoder the raw lexical scores `words`
 * (BM25 of the request against every skill).
 */
export function closeTo(self: FirstStageScores | undefined, c: FirstStageScores, pool: number, words?: ReadonlyMap<string, number>): boolean {
  if (!self) return false;
  const near = (a: number, b: number, at: number) => Math.max(a, b) > 0 && Math.min(a, b) >= at * Math.max(a, b);
  if (pool >= SMALL_POOL) return near(self.fused, c.fused, CLOSE);
  if (self.dense !== null && c.dense !== null) return near(self.dense, c.dense, CLOSE_DENSE);
  return words ? near(words.get(self.id) ?? 0, words.get(c.id) ?? 0, CLOSE_WORDS) : true;
}

/** What the probes written for `x` say about `y`. */
export function direction(rankings: readonly ScopedRanking[], x: string, y: string): Direction {
  let taken = 0;
  let first = 0;
  let behind = 0;
  for (const r of rankings) {
    if (rankOf(r, y) === 1) first++;
    if (both(r, x, y)) {
      taken++;
      if (rankOf(r, x) + rankOf(r, y) === 3) behind++;
    }
  }
  return { sent: rankings.length, taken, first, behind };
}

/** Skills that some probe of `x` ranks in the top 3 beside `x` (candidate partners). */
export function partnersOf(rankings: readonly ScopedRanking[], x: string): string[] {
  const out = new Set<string>();
  for (const r of rankings) {
    const top = r.ids.slice(0, TOP);
    if (!top.includes(x)) continue;
    for (const id of top) if (id !== x) out.add(id);
  }
  return [...out];
}

/** How widely the probes of a skill spread over other skills: distinct others in their top 3, per place. */
export function spread(rankings: readonly ScopedRanking[], x: string): number {
  if (!rankings.length) return 0;
  const others = new Set<string>();
  for (const r of rankings) for (const id of r.ids.slice(0, TOP)) if (id !== x) others.add(id);
  return others.size / ((TOP - 1) * rankings.length);
}

/** Families whose values set apart the same job: another platform, language or framework (and `product`, see `productSplit`). */
const VARIANT_FAMILIES: readonly FacetFamily[] = ['language', 'frontend', 'mobile', 'cloud', 'engine', 'wiki'];

/**
 * Share of each side's probes that makes a pair competitors without the other ever ranking
 * first: all of them. In two judged samples of the corpus, every wrong near-duplicate (suite
 * siblings such as a root-cause and a prevention skill of one vendor, personas of one person) had
 * no first place and missed at least one probe; requiring a first place or every probe kept the
 * copies-in-all-but-name and the real competitors.
 */
export const STRONG_SHARE = 1;

/**
 * Share of each side's probes that must rank the two skills first and second, close, for a pair
 * of twins: 2 of 3 (both of 2). On the tune half of bench/twins (20 paraphrased twins of corpus
 * skills, 15 same-domain neighbours) every probe flagged 11 twins, 0.6 flagged 15, and no
 * neighbour either way; a heading or a marketing sentence of one side often misses the other.
 */
export const TWIN_SHARE = 0.6;

/** Whether the requests written for each of two skills rank the pair first and second, close. */
export function twins(xy: Direction, yx: Direction, share = TWIN_SHARE): boolean {
  return xy.sent > 0 && yx.sent > 0 && xy.behind / xy.sent >= share && yx.behind / yx.sent >= share;
}

/** Name words that say nothing of the job: a verb any skill does, a level. */
const GENERIC_NAME_WORDS = new Set(['create', 'build', 'generat', 'make', 'write', 'use', 'manag', 'support', 'help', 'guid', 'expert', 'pro', 'master', 'skill', 'tool', 'helper', 'assist', 'advanc', 'basic', 'toolkit', 'kit', 'zh', 'cn', 'en', 'v2', 'v3']);

/**
 * Whether two skills whose names share a word each name, in the description's first sentence, a
 * word of its own name that neither the other's name nor its first sentence has (arize-dataset "… Arize datasets …",
 * arize-experiment "… Arize experiments …"): what sets them apart is said where the agent reads
 * first.
 */
export function saysItsOwnJobFirst(x: SkillDoc, y: SkillDoc, analyser: (text: string) => string[]): boolean {
  const terms = (name: string) => new Set(analyser(name.replace(/[-_]+/g, ' ')).filter((t) => !GENERIC_NAME_WORDS.has(t)));
  const nx = terms(x.name);
  const ny = terms(y.name);
  // Siblings of one suite share a name word (arize-*); two names with no word in common are two
  // authors' words for one job (csv-cleaner, tabular-data-cleanup), and their first sentences
  // differ by synonyms, not by jobs.
  if (![...nx].some((t) => ny.has(t))) return false;
  const fx = firstWords(firstSentence(x.description), analyser);
  const fy = firstWords(firstSentence(y.description), analyser);
  // A word of its own name in its first sentence that the other's first sentence lacks.
  const own = (name: string, theirs: Set<string>, first: SentenceWords, other: SentenceWords) =>
    name
      .toLowerCase()
      .split(/[-_\s]+/)
      .some((w) => {
        const t = analyser(w)[0];
        return t !== undefined && !GENERIC_NAME_WORDS.has(t) && !theirs.has(t) && says(first, t, w) && !says(other, t, w);
      });
  return own(x.name, ny, fx, fy) && own(y.name, nx, fy, fx);
}

/**
 * A sentence's words as wholes (MySQL stays mysql, not also sql) and its neighbouring capitalised
 * words joined, a product's name written apart (ASP.NET Core: aspnetcore; Google Ads: googleads;
 * not "web page", which is a phrase, not a name).
 */
interface SentenceWords {
  whole: Set<string>;
  joined: Set<string>;
}

function firstWords(sentence: string, analyser: (text: string) => string[]): SentenceWords {
  const words = sentence.match(/[\p{L}\p{N}]+(?:\.[\p{L}\p{N}]+)*/gu) ?? [];
  const whole = new Set<string>();
  for (const w of words) {
    const terms = analyser(w.toLowerCase());
    // A run of Chinese characters is many words (its segments); a Latin word is one, its whole form first.
    for (const t of /\p{Script=Han}/u.test(w) ? terms : terms.slice(0, 1)) whole.add(t);
  }
  const bare = words.map((w) => (/^[\p{Lu}\p{N}]/u.test(w) ? w.replace(/\./g, '').toLowerCase() : null));
  const joined = new Set<string>();
  for (let i = 0; i + 1 < bare.length; i++) {
    if (bare[i] === null || bare[i + 1] === null) continue;
    joined.add(bare[i]! + bare[i + 1]!);
    if (i + 2 < bare.length && bare[i + 2] !== null) joined.add(bare[i]! + bare[i + 1]! + bare[i + 2]!);
  }
  return { whole, joined };
}

/** Whether a sentence says a name word: as a whole word (`term`, analysed) or as neighbouring words written together (`raw`). */
function says(s: SentenceWords, term: string, raw: string): boolean {
  return s.whole.has(term) || s.joined.has(raw);
}

/** Words with which a skill presents itself as an umbrella over others: a router, an index, a bundle. */
// Only words that name the role: "skills", "index" or "start" in a name name topics as often
// (suggest-awesome-github-copilot-skills, elasticsearch-index); such an umbrella says so in its description.
const UMBRELLA_NAME = /(?:^|[-_\s])(?:router|bundle|hub)(?:$|[-_\s])/iu;
const UMBRELLA_TEXT = /(?<![\p{L}])(?:(?:a|the) router|router for|entry point|start here|hands? off to|routes? (?:to|requests)|index of|collection of (?:\d+ )?(?:agent )?skills|bundle of|catalog(?:ue)? of|meta-skill|umbrella|\d+ [\p{L}-]+(?: [\p{L}-]+)? (?:agent )?skills)(?![\p{L}])|统一入口|入口技能|技能(?:路由|索引|合集|集合|目录)|路由到(?:其他|对应|合适)?的?(?:子)?技能|(?:\d+|多)个(?:子)?技能/iu;
/** A router that is a library's topic, not a skill's role: Next.js's App Router, React Router. */
const ROUTER_LIBRARY = /(?<![\p{L}])(?:app|react|vue|angular|tanstack|express|next(?:\.?js)?|remix|expo|koa|hono|fastapi|api)[-_\s]router(?![\p{L}])/iu;

/**
 * Whether a skill presents itself as an umbrella (a router, index or bundle of skills). Stricter
 * than the routing judgement's `isUmbrella`: "company fundamentals" or "React Router" in a
 * description, `nextjs-app-router-patterns` as a name, 索引管理 (index management) or 按路由
 * (per route) are topics, not an umbrella.
 */
export function presentsAsUmbrella(doc: SkillDoc): boolean {
  return (UMBRELLA_NAME.test(doc.name) && !ROUTER_LIBRARY.test(doc.name)) || UMBRELLA_TEXT.test(doc.description);
}

/**
 * A name word written as a proper noun in the description ("PayPal", "Dropbox", "ISMS", "Anime.js"
 * for `animejs`), where it does not start a sentence; null when it is not.
 */
function properNoun(word: string, description: string): string | null {
  const key = word.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  if (!key) return null;
  for (const m of description.matchAll(/[\p{Script=Latin}\p{N}][\p{Script=Latin}\p{N}.+#-]*/gu)) {
    const surface = m[0].replace(/[.-]+$/u, '');
    if (surface.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '') !== key) continue;
    const start = m.index === 0 || /[.!?。！？:]\s*$/u.test(description.slice(Math.max(0, m.index! - 3), m.index));
    // Capitals that open a sentence say nothing; a name written Three.js or PayPal does.
    const marked = /^\p{Lu}{2,}$/u.test(surface) || /\p{Ll}\p{Lu}/u.test(surface) || /^\p{Lu}.*[.+#\d]/u.test(surface);
    if (marked || (/^\p{Lu}/u.test(surface) && !start)) return surface;
  }
  return null;
}

/**
 * The products that set two skills apart, when their names share a word (the job: `payments` of
 * paypal-payments and stripe-payments) and each has a word the other lacks that its description
 * writes as a proper noun (PayPal vs Stripe, Box vs Dropbox), and that few skills' names and
 * descriptions use (`rare`): the same job for another service is a platform split the agent
 * cannot guess. Null when the names share no word (nextflow-development and single-cell-rna-qc
 * are not one job, and "QC" is no product) or either side has no such word.
 */
export function productSplit(
  x: SkillDoc,
  y: SkillDoc,
  analyser: (text: string) => string[],
  rare: (term: string) => boolean = () => true,
): { a: string[]; b: string[] } | null {
  const words = (doc: SkillDoc) => doc.name.split(/[-_\s]+/).filter((w) => w.length >= 2);
  const terms = (doc: SkillDoc) => new Set(words(doc).flatMap((w) => analyser(w)));
  const tx = terms(x);
  const ty = terms(y);
  if (![...tx].some((t) => ty.has(t))) return null;
  // A product is named by few skills; "Infrastructure" or "Code" capitalised in a title is not one.
  const own = (doc: SkillDoc, others: Set<string>) =>
    words(doc)
      .filter((w) => analyser(w).every((t) => !others.has(t) && rare(t)))
      .flatMap((w) => properNoun(w, doc.description) ?? []);
  const a = own(x, ty);
  const b = own(y, tx);
  return a.length && b.length ? { a, b } : null;
}

/**
 * The share of a library's skills (at least 3) that may use a word for `namedForDifferentThings`
 * to count it as a thing of one skill's own. On the tune half of bench/pairs, 5% to 20% gave the
 * same findings and 0.5% (productSplit's) let Microsoft Word through in a 500-skill collection.
 */
const DIFFERENT_THINGS_DF = 0.05;

/**
 * Whether two skills whose names share no word are each named for a thing of its own: a word of
 * its name that its description writes as a proper noun or an acronym (Excel and XLSX, Word and
 * DOCX; POSIX and ShellCheck; STRIDE), that few skills of the library name (`rare`), and that the
 * other's name and description never use. Such skills work on different things, whatever their
 * requests share. A paraphrased twin names the same things in other common words (csv-cleaner and
 * tabular-data-cleanup both say CSV; "Clean" and "Tidy" only open sentences), so it keeps its
 * finding. Names that share a word are `productSplit`'s and `saysItsOwnJobFirst`'s.
 */
export function namedForDifferentThings(
  x: SkillDoc,
  y: SkillDoc,
  analyser: (text: string) => string[],
  rare: (term: string) => boolean = () => true,
): { a: string[]; b: string[] } | null {
  const words = (doc: SkillDoc) => doc.name.split(/[-_\s]+/).filter((w) => w.length >= 3 && !/^\d+$/.test(w));
  const terms = (doc: SkillDoc) => new Set(words(doc).flatMap((w) => analyser(w)).filter((t) => !GENERIC_NAME_WORDS.has(t)));
  const tx = terms(x);
  const ty = terms(y);
  if ([...tx].some((t) => ty.has(t))) return null;
  const own = (doc: SkillDoc, other: SkillDoc) => {
    const theirs = new Set([...analyser(other.description), ...analyser(other.name.replace(/[-_]+/g, ' '))]);
    return words(doc)
      .filter((w) => {
        const ts = analyser(w).filter((t) => !GENERIC_NAME_WORDS.has(t));
        return ts.length > 0 && ts.every((t) => !theirs.has(t) && rare(t));
      })
      .flatMap((w) => properNoun(w, doc.description) ?? []);
  };
  const a = own(x, y);
  const b = own(y, x);
  return a.length && b.length ? { a, b } : null;
}

/** What the library's reference graph says of the skills of a pair (see references.ts). */
export interface ReferenceFacts {
  /** Whether a skill is a hub (its body names most others); umbrellas say so in words otherwise. */
  isHub(doc: SkillDoc): boolean;
  /** The skills a skill's body names. */
  names(doc: SkillDoc): ReadonlySet<string>;
}

const NO_REFERENCES: ReferenceFacts = { isHub: () => false, names: () => new Set() };

/**
 * The verdict on a pair from both directions, or null: no finding. `docs` are the two skills,
 * `rankings` their probes' rankings.
 */
export function judgeCompetition(
  x: SkillDoc,
  y: SkillDoc,
  rx: readonly ScopedRanking[],
  ry: readonly ScopedRanking[],
  profiles: SkillProfiles,
  opts: CompetitionOptions = DEFAULT_COMPETITION,
  graph: ReferenceFacts = NO_REFERENCES,
): Verdict | null {
  const analyser = (text: string) => [...profiles.ofText(text).terms.keys()];
  if (rx.length < opts.minProbes || ry.length < opts.minProbes) return null;
  const px = profiles.get(x.id);
  const py = profiles.get(y.id);
  if (!px || !py) return null;
  const named =
    mentionsSkillLower(px.lowerDescription, y.name) || mentionsSkillLower(py.lowerDescription, x.name) ||
    (px.folder !== py.folder && (mentionsSkillLower(px.lowerDescription, py.folder) || mentionsSkillLower(py.lowerDescription, px.folder))) ||
    sendsToLower(px.lowerDescription, y.name) || sendsToLower(py.lowerDescription, x.name);
  if (named) return null;
  const xy = direction(rx, x.id, y.id);
  const yx = direction(ry, y.id, x.id);
  const shareX = xy.taken / xy.sent;
  const shareY = yx.taken / yx.sent;

  // Each must take the other's requests, whatever the pair turns out to be.
  if (shareX < opts.share || shareY < opts.share) return null;

  // An umbrella and a task skill: the umbrella presents itself as one, and its requests spread
  // over more skills than the task's do (the direction comes from routing, not from the words).
  // A hub of the reference graph names the other skill itself: the graph gives the direction.
  const hx = graph.isHub(x);
  const hy = graph.isHub(y);
  if (hx !== hy) return { kind: 'umbrella', umbrella: hx ? x.id : y.id, task: hx ? y.id : x.id, by: 'hub' };
  const ux = presentsAsUmbrella(x);
  const uy = presentsAsUmbrella(y);
  if (ux !== uy) {
    const [u, t, ru, rt] = ux ? [x, y, rx, ry] : [y, x, ry, rx];
    if (spread(ru, u.id) >= spread(rt, t.id)) return { kind: 'umbrella', umbrella: u.id, task: t.id, by: 'spread' };
  }

  // A role (typescript-pro, unity-developer) over a body of patterns or templates for part of its
  // work (typescript-advanced-types, unity-ecs-patterns): the role covers more than the patterns.
  const role = roleOver(x, y);
  if (role) return { kind: 'umbrella', umbrella: role.umbrella, task: role.task, by: 'role' };

  // The same job for two stacks, platforms or products: a conflict while a first sentence does
  // not say which; variants that name what sets them apart first are told apart already.
  const mismatches = facetMismatches(px.facets, py.facets).filter((m) => VARIANT_FAMILIES.includes(m.family));
  const mismatch = mismatches[0];
  // Rare: in at most 0.5% of the library's skills (3 in a small one).
  const rareDf = Math.max(3, profiles.size * 0.005);
  const product = mismatch ? null : productSplit(x, y, analyser, (t) => profiles.idfOf(t) >= Math.log(1 + profiles.size / rareDf));
  if (mismatch || product) {
    const family = mismatch?.family ?? 'product';
    const values = mismatch ? { [x.id]: mismatch.a, [y.id]: mismatch.b } : { [x.id]: product!.a, [y.id]: product!.b };
    const unnamed: string[] = [];
    for (const doc of [x, y]) {
      const first = firstSentence(doc.description);
      // Named when its first sentence says its side in any family that sets the two apart: "Zoom
      // Video SDK for Android" tells it from the iOS one, whether or not it also says Kotlin.
      const firstFacets = detectFacets(first, '');
      const named = mismatch
        ? mismatches.some((m) => (doc === x ? m.a : m.b).some((v) => (firstFacets[m.family] ?? []).includes(v)))
        : values[doc.id].some((v) => first.toLowerCase().includes(v.toLowerCase()));
      if (!named) unnamed.push(doc.id);
    }
    if (!unnamed.length) return null;
    return { kind: 'variant', family, values, unnamed };
  }
  // At the top: the other ranks first for one of the requests, or takes every one both ways, or
  // each side's requests rank the two first and second, close (twins: the reranker puts the one a
  // request was written from first, whichever it is, and the other right behind it).
  const strong = Math.min(shareX, shareY) >= STRONG_SHARE && Math.min(xy.sent, yx.sent) >= 2;
  // In a library of a few skills any two rank first and second: there every request must say so.
  const twinShare = profiles.size < SMALL_POOL ? 1 : (opts.twinShare ?? TWIN_SHARE);
  if (xy.first + yx.first < 1 && !strong && !twins(xy, yx, twinShare)) return null;
  // Two jobs of one suite (arize-dataset, arize-experiment) share the suite's words, so their
  // requests meet; when each first sentence says its own job, the agent has what it needs.
  if (saysItsOwnJobFirst(x, y, analyser)) return null;
  // Two skills named for different things (Excel and Word, POSIX sh and ShellCheck): two jobs.
  if (namedForDifferentThings(x, y, analyser, (t) => profiles.idfOf(t) >= Math.log(1 + profiles.size / Math.max(3, profiles.size * DIFFERENT_THINGS_DF)))) return null;
  // Two steps of one piece of work (plan, then execute; save, then restore): not one job to merge.
  // What each description makes and works from, read once for both questions below.
  const hands = handOffs(x, y, analyser);
  const order = sequenceOf(x, y) ?? handOffOf(x, y, analyser, hands);
  if (order) return { kind: 'sequence', ...order };
  // Two converters the opposite ways (Word to Markdown, Markdown to Word): two jobs.
  if (oppositeWays(x, y, analyser, hands)) return null;
  // Each body names the other: whoever wrote them drew a line between two jobs. Of the 185 judged
  // corpus pairs (bench/pairs), 11 name each other so, and none of them is one job twice (6 are
  // siblings; the 6 tune pairs decided it, the held-out 5 agree).
  if (graph.names(x).has(y.id) && graph.names(y).has(x.id)) return null;
  // One job twice: the router must judge each relevant to the requests written for the other, not
  // only rank it near them (in a suite of forty finance skills every one is near).
  if (!relevantToEachOther(rx, ry, x.id, y.id)) return null;
  const twice = oneSkillTwice(x, y);
  return twice ? { kind: 'near-duplicate', twice } : { kind: 'near-duplicate' };
}

/**
 * Whether the router judges each skill of a pair relevant to the requests written for the pair:
 * over the probes of both, the other's calibrated relevance (0 where it is not ranked near) is on
 * average at or above the ranking's relevance floor. True without a relevance model.
 *
 * On the tune half of bench/pairs, the 6 near-duplicate findings under the floor (0.10 then) were 4
 * suite siblings (challenge and postmortem: 0.01), an umbrella and a sequence, no same job; on
 * the tune half of bench/twins the lowest twin stands at 0.17 (a postmortem and its paraphrase).
 */
export function relevantToEachOther(rx: readonly ScopedRanking[], ry: readonly ScopedRanking[], x: string, y: string): boolean {
  let sum = 0;
  let n = 0;
  let floor = 0;
  for (const [list, other] of [[rx, y], [ry, x]] as const) {
    for (const r of list) {
      if (!r.relevance || r.floor === undefined) return true;
      const i = r.ids.indexOf(other);
      sum += i >= 0 ? r.relevance[i] : 0;
      floor = Math.max(floor, r.floor);
      n++;
    }
  }
  return n === 0 || sum / n >= floor;
}

/** A name that is a role: the last word says who works (fastapi-pro, unity-developer, quant-analyst). */
const ROLE_NAME = /(?:^|[-_])(?:pro|developer|expert|engineer|architect|specialist|analyst|advisor|consultant)$/i;
/** A name that is a body of knowledge for part of a job: the last word says what it holds (fastapi-templates). */
const TOPIC_NAME = /(?:^|[-_])(?:patterns|templates|frameworks|architecture|types|recipes|best-practices)$/i;

/**
 * A role over a body of patterns, templates or types for part of its work, told by the names
 * alone: one named for who works (`-pro`, `-developer`, `-analyst`, ...), the other for what it
 * holds (`-patterns`, `-templates`, `-frameworks`, ...). Null otherwise, and when both or neither
 * are so named. Of the 9 pairs so named that the scan flags on the tune half of bench/pairs, 7
 * were judged umbrellas with the role over the patterns skill (typescript-pro over
 * typescript-advanced-types, mobile-developer over react-native-architecture), 1 one job
 * (dotnet-architect, dotnet-backend-patterns) and 1 an overlap; no twin of bench/twins is so named
 * (mermaid-expert's paraphrase is mermaid-diagram-author).
 */
export function roleOver(x: Pick<SkillDoc, 'id' | 'name'>, y: Pick<SkillDoc, 'id' | 'name'>): { umbrella: string; task: string } | null {
  const rx = ROLE_NAME.test(x.name);
  const ry = ROLE_NAME.test(y.name);
  const tx = TOPIC_NAME.test(x.name);
  const ty = TOPIC_NAME.test(y.name);
  if (rx && !tx && ty && !ry) return { umbrella: x.id, task: y.id };
  if (ry && !ty && tx && !rx) return { umbrella: y.id, task: x.id };
  return null;
}

/** Suffixes that mark a translation of a skill (qmd-zh, seo-audit-cn). */
const LANGUAGE_SUFFIX = /[-_](?:zh|cn|zh[-_]?cn|zh[-_]?tw|en|ja|jp|ko|kr)$/i;

/**
 * Whether the names of a pair tell it is one skill listed twice: the same name written two ways
 * (by name or folder), or one name the other's with a language suffix, the two written in
 * different languages (a translation kept beside its original).
 */
export function oneSkillTwice(x: Pick<SkillDoc, 'id' | 'name' | 'lang'>, y: Pick<SkillDoc, 'id' | 'name' | 'lang'>): 'spelling' | 'language' | null {
  const names = (d: Pick<SkillDoc, 'id' | 'name'>) => [d.name, d.id.slice(d.id.lastIndexOf('/') + 1)];
  for (const a of names(x)) {
    for (const b of names(y)) {
      if (nameKey(a) && nameKey(a) === nameKey(b)) return 'spelling';
      // Names equal once a suffix is dropped (equal as they are was the case above).
      if (x.lang !== y.lang && (nameKey(a.replace(LANGUAGE_SUFFIX, '')) === nameKey(b) || nameKey(b.replace(LANGUAGE_SUFFIX, '')) === nameKey(a))) return 'language';
    }
  }
  return null;
}

/** Where the sides of a pair stood for one request, as evidence. */
function evidenceOf(r: ScopedRanking, ids: readonly string[]): EvidenceRequest {
  const ranks: Record<string, number> = {};
  for (const id of ids) {
    const k = rankOf(r, id);
    if (k) ranks[id] = k;
  }
  return { query: r.query, ranks, for: r.for, source: r.source, ...(r.readAs ? { readAs: r.readAs } : {}) };
}

const SOURCE_ORDER: Record<ScopedRanking['source'], number> = { test: 0, eval: 1, description: 2, heading: 3 };

/**
 * Verified example requests of a pair: requests the router ranked both skills within its top 3
 * for, the author's tests and evals first, then the probes where the two stood closest; at most `n`.
 */
export function verifiedRequests(rankings: readonly ScopedRanking[], a: string, b: string, n = 3): EvidenceRequest[] {
  const verified = rankings.filter((r) => both(r, a, b));
  verified.sort((p, q) => SOURCE_ORDER[p.source] - SOURCE_ORDER[q.source] || rankOf(p, a) + rankOf(p, b) - (rankOf(q, a) + rankOf(q, b)) || p.query.length - q.query.length);
  const seen = new Set<string>();
  const out: EvidenceRequest[] = [];
  for (const r of verified) {
    if (seen.has(r.query) || out.length >= n) continue;
    seen.add(r.query);
    out.push(evidenceOf(r, [a, b]));
  }
  return out;
}
