/**
 * Reach: how many of a skill's own requests find it first in the full text Skill Router ranks,
 * and how many in the listing a client shows its model (name and listed description only), and
 * which words of its body would bring the lost ones back.
 *
 *   1. route    every request of the reported skills in both views (`ReachRouter`)
 *   2. propose  candidate words per skill with lost requests (words.ts), a few at a time
 *   3. verify   re-route the lost requests over a listing with the words added
 *               (`ListingOptions.added`), and the other skills' requests those words could pull
 *               (those that have the words, and those of skills whose listed entry the added
 *               characters changed); keep the words that win requests back and pull none,
 *               try the next candidates for skills that won nothing; a few rounds
 *   4. report   per skill: requests, reached in each view, what is listed, the verified words
 *
 * All proposals of a round are verified in one listing, so that a library costs a few listing
 * builds, not one per skill; what one skill's words do to another's requests is then measured
 * with everything else added too, as an author applying every suggestion would have it.
 */
import type { ClientListing, ListedSkill } from '../profiles';
import type { ListingGap } from './gapReasons';
import type { CancelToken, ProgressSink, SkillDoc } from '../types';
import { throwIfCancelled } from '../types';
import { candidateWords, DEFAULT_ANALYSER, listedFrequencies, mentionsAny, sharedTerms, TermStats, type Analyser, type TermFrequencies, type CandidateInput, type CandidateWord } from './words';

/** Where a request comes from: a routing test, a trigger eval, a labelled query file, or a probe written from the body. */
export type ReachSource = 'test' | 'eval' | 'query' | 'probe';

/** One request and the skills it expects (one, or several for a multi-skill test). */
export interface ReachRequest {
  query: string;
  source: ReachSource;
  /** Skill ids the request needs; it reaches each of them when it ranks within the first `expect.length`. */
  expect: readonly string[];
}

/** What `reach` ranks over: the full text, or the client's listing with words added to some descriptions. */
export type ReachView = { kind: 'full' } | { kind: 'listing'; added?: Readonly<Record<string, string>> };

/** Routing, injected: the CLI and the server pass the engine's `route`. */
export interface ReachRouter {
  /** Skill ids, best first (at least the first few), for `query` over `view`. */
  rank(query: string, view: ReachView, token?: CancelToken): Promise<readonly string[]>;
}

export interface ReachOptions {
  /** Look for words to add, and verify them (default true). */
  suggest: boolean;
  /** Words tried (and suggested) per skill at once. */
  maxWords: number;
  /** Candidate words considered per skill. */
  candidates: number;
  /** Verification rounds at most. */
  rounds: number;
  /** Other skills' requests re-routed per proposal to see what its words pull. */
  pullChecks: number;
  /** Requests routed at once (the encoder runs beside the ranking). */
  concurrency: number;
}

export const DEFAULT_REACH: ReachOptions = { suggest: true, maxWords: 3, candidates: 9, rounds: 3, pullChecks: 12, concurrency: 4 };

export interface ReachInput {
  docs: readonly SkillDoc[];
  /** The client's listing the router's listing view ranks over, with `added` words when given. */
  listing(added?: Readonly<Record<string, string>>): ClientListing;
  /** Every request of the library: the reported skills', and the others' (routed only to check what words pull). */
  requests: readonly ReachRequest[];
  router: ReachRouter;
  /** Skills to report (default: all). */
  targets?: readonly string[];
  options?: Partial<ReachOptions>;
  analyser?: Analyser;
  /**
   * Term statistics of the library: the engine's (`SkillService.termFrequencies`, its index's,
   * nothing analysed again); without them every skill of `docs` is analysed here.
   */
  stats?: TermFrequencies;
  /** Term statistics of a large reference pool (the engine's background sketch), to tell keywords from everyday words. */
  background?: CandidateInput['background'];
  progress?: ProgressSink;
  token?: CancelToken;
}

/** One request of a skill, and where it ranked. */
export interface ReachDetail {
  query: string;
  source: ReachSource;
  /** 1-based rank of the skill in each view, null when it is not among the ranks returned. */
  full: number | null;
  listing: number | null;
  /** Reached in the full text and not in the listing. */
  lost: boolean;
  /** A lost request the suggested words bring back. */
  won?: boolean;
}

/** One skill's reach; what its listing keeps of it as a gap has it (no request, so no body-only words). */
export interface SkillReach extends Omit<ListingGap, 'bodyOnly'> {
  id: string;
  name: string;
  requests: number;
  /** Requests by where they come from. */
  sources: Partial<Record<ReachSource, number>>;
  reachedFull: number;
  reachedListing: number;
  /** Reached in the full text and not in the listing. */
  lost: number;
  /** The listing loses at least half of its requests (`lost` ≥ `requests` / 2). */
  flagged: boolean;
  /** Words of its body to add to the description: verified to win `wonBack` lost requests back and pull no other skill's. */
  suggest: string[];
  wonBack: number;
  /** Its own requests that reach it in the listing and would not with the words (at the start of a cut description they push its end out); fewer than `wonBack`. */
  ownLost: number;
  /** Candidate words tried and rejected: they won nothing, or pulled another skill's requests. */
  rejected: { word: string; why: 'won nothing' | 'pulls other skills' }[];
  detail: ReachDetail[];
}

export interface ReachReport {
  skills: SkillReach[];
  totals: { skills: number; requests: number; reachedFull: number; reachedListing: number; lost: number; wonBack: number; suggested: number };
  /** Verification: rounds run, requests routed over listings with words added. */
  verification: { rounds: number; routed: number };
}

/** How `words` are added to a description (and shown in a quick fix): "Blazor, component". */
export const joinWords = (words: readonly string[]): string => words.join(', ');

/** Rank of `id` (1-based) in `ranking`, null when absent. */
function rankOf(ranking: readonly string[], id: string): number | null {
  const i = ranking.indexOf(id);
  return i < 0 ? null : i + 1;
}

const reaches = (ranking: readonly string[], id: string, expect: readonly string[]) => {
  const r = rankOf(ranking, id);
  return r !== null && r <= Math.max(1, expect.length);
};

/** Routes a batch of (query, view) pairs, `concurrency` at a time, memoised per view. */
class Rankings {
  private readonly memo = new Map<string, Promise<readonly string[]>>();
  routed = 0;

  constructor(private readonly router: ReachRouter, private readonly token?: CancelToken) {}

  get(query: string, view: ReachView): Promise<readonly string[]> {
    const key = `${view.kind === 'full' ? 'full' : `listing${JSON.stringify(view.added ?? {})}`}\u0000${query}`;
    let hit = this.memo.get(key);
    if (!hit) {
      this.routed++;
      hit = this.router.rank(query, view, this.token);
      this.memo.set(key, hit);
    }
    return hit;
  }

  async all(jobs: readonly { query: string; view: ReachView }[], concurrency: number, progress?: (done: number) => void): Promise<(readonly string[])[]> {
    const out: (readonly string[])[] = new Array(jobs.length);
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const i = next++;
        throwIfCancelled(this.token);
        out[i] = await this.get(jobs[i].query, jobs[i].view);
        progress?.(++done);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, jobs.length)) }, worker));
    return out;
  }
}

/** A skill's proposal under verification. */
interface Proposal {
  words: CandidateWord[];
  /** Candidates not tried yet, best first. */
  rest: CandidateWord[];
  tried: Map<string, 'won nothing' | 'pulls other skills'>;
  /** The best verified words (won more of its lost requests than they cost it, pulled nothing), with what they won and cost. */
  verified?: { words: CandidateWord[]; won: Set<string>; ownLost: number };
}

/** Measures reach for the targets; see the module comment for the steps. */
export async function measureReach(input: ReachInput): Promise<ReachReport> {
  const opts = { ...DEFAULT_REACH, ...input.options };
  const analyser = input.analyser ?? input.stats?.analyser ?? DEFAULT_ANALYSER;
  const { token } = input;
  const byId = new Map(input.docs.map((d) => [d.id, d]));
  const targets = (input.targets ?? input.docs.map((d) => d.id)).filter((id) => byId.has(id));
  const requestsOf = new Map<string, ReachRequest[]>();
  for (const r of input.requests) for (const id of r.expect) if (byId.has(id)) requestsOf.set(id, [...(requestsOf.get(id) ?? []), r]);
  const rankings = new Rankings(input.router, token);
  const full: ReachView = { kind: 'full' };
  const listed: ReachView = { kind: 'listing' };

  // 1. Route the targets' requests in both views.
  const own = [...new Set(targets.flatMap((id) => requestsOf.get(id) ?? []))];
  const jobs = own.flatMap((r) => [{ query: r.query, view: full }, { query: r.query, view: listed }]);
  await rankings.all(jobs, opts.concurrency, (n) => input.progress?.('reach: routing', n, jobs.length));
  const baseListing = input.listing();
  const entryOf = new Map(baseListing.entries.map((e) => [e.id, e]));
  const details = new Map<string, { rows: ReachDetail[]; hits: { full: number; listing: number } }>();
  const lostOf = new Map<string, ReachRequest[]>();
  /** The requests that do reach each skill in the listing: words at the start of a cut description can push them out. */
  const heldOf = new Map<string, ReachRequest[]>();
  for (const id of targets) {
    const rows: ReachDetail[] = [];
    const hits = { full: 0, listing: 0 };
    for (const r of requestsOf.get(id) ?? []) {
      const [f, l] = [await rankings.get(r.query, full), await rankings.get(r.query, listed)];
      const [inFull, inListing] = [reaches(f, id, r.expect), reaches(l, id, r.expect)];
      hits.full += Number(inFull);
      hits.listing += Number(inListing);
      const lost = inFull && !inListing;
      rows.push({ query: r.query, source: r.source, full: rankOf(f, id), listing: rankOf(l, id), lost });
      if (lost) lostOf.set(id, [...(lostOf.get(id) ?? []), r]);
      if (inListing) heldOf.set(id, [...(heldOf.get(id) ?? []), r]);
    }
    details.set(id, { rows, hits });
  }

  // 2. Candidate words for the skills whose listing loses requests (and lists their description).
  const proposals = new Map<string, Proposal>();
  let rounds = 0;
  if (opts.suggest && lostOf.size) {
    const stats = input.stats ?? countedStats(input.docs, analyser);
    const listedDf = listedFrequencies(baseListing.entries, analyser);
    for (const [id, lost] of lostOf) {
      const entry = entryOf.get(id);
      if (!entry || entry.omitted || entry.descriptionDropped) continue;
      // Probes are the body's own sentences: their words must be the body's topic, not one sentence's.
      const probes = lost.every((r) => r.source === 'probe');
      const words = candidateWords({ doc: byId.get(id)!, entry, lost: lost.map((r) => r.query), stats, listed: listedDf, analyser, background: input.background, probes }).slice(0, opts.candidates);
      if (words.length) proposals.set(id, { words: words.slice(0, opts.maxWords), rest: words.slice(opts.maxWords), tried: new Map() });
    }
    // 3. Verify, a few rounds.
    for (; rounds < opts.rounds; rounds++) {
      const live = [...proposals].filter(([, p]) => p.words.length);
      if (!live.length) break;
      throwIfCancelled(token);
      const added: Record<string, string> = {};
      for (const [id, p] of live) added[id] = joinWords(p.words.map((w) => w.word));
      const view: ReachView = { kind: 'listing', added };
      const changed = changedEntries(baseListing, input.listing(added), new Set(Object.keys(added)));
      const checks = pullChecks(input.requests, live, changed, requestsOf, opts.pullChecks, analyser);
      const verify = [...new Set([...live.flatMap(([id]) => [...lostOf.get(id)!, ...(heldOf.get(id) ?? [])]), ...checks])];
      // What a pull check is measured against: the plain listing's ranking (routed once, memoised).
      const baseline = await rankings.all(checks.map((r) => ({ query: r.query, view: listed })), opts.concurrency);
      await rankings.all(verify.map((r) => ({ query: r.query, view })), opts.concurrency, (n) => input.progress?.(`reach: verifying words (round ${rounds + 1})`, n, verify.length));
      const pulledBy = new Map<string, ReachRequest[]>();
      for (let i = 0; i < checks.length; i++) {
        const r = checks[i];
        const after = await rankings.get(r.query, view);
        // A hit of the plain listing that now ranks a skill with added words in its place.
        const heldBefore = r.expect.filter((e) => reaches(baseline[i], e, r.expect));
        if (!heldBefore.length || heldBefore.every((e) => reaches(after, e, r.expect))) continue;
        for (const [id] of live) {
          if (r.expect.includes(id) || !reaches(after, id, r.expect) || reaches(baseline[i], id, r.expect)) continue;
          pulledBy.set(id, [...(pulledBy.get(id) ?? []), r]);
        }
      }
      for (const [id, p] of live) {
        let won = new Set<string>();
        for (const r of lostOf.get(id)!) if (reaches(await rankings.get(r.query, view), id, r.expect)) won.add(r.query);
        let ownLost = 0;
        for (const r of heldOf.get(id) ?? []) if (!reaches(await rankings.get(r.query, view), id, r.expect)) ownLost++;
        // What the words cost the skill itself counts against what they win.
        if (won.size <= ownLost) won = new Set();
        const pulled = pulledBy.get(id) ?? [];
        p.words = nextWords(p, lostOf.get(id)!.map((r) => r.query), won, pulled, opts.maxWords, analyser, ownLost);
      }
    }
  }

  // 4. Report.
  const skills: SkillReach[] = targets.map((id) => {
    const doc = byId.get(id)!;
    const entry = entryOf.get(id);
    const { rows, hits } = details.get(id) ?? { rows: [], hits: { full: 0, listing: 0 } };
    const reqs = requestsOf.get(id) ?? [];
    const p = proposals.get(id);
    const won = p?.verified?.won ?? new Set<string>();
    // Only words that some won-back request has are reported: the others did nothing measurable.
    const suggest = p?.verified ? p.verified.words.filter((w) => [...won].some((q) => mentionsAny(q, new Set([w.term]), analyser) > 0)).map((w) => w.word) : [];
    for (const row of rows) if (row.lost) row.won = won.has(row.query);
    const sources: Partial<Record<ReachSource, number>> = {};
    for (const r of reqs) sources[r.source] = (sources[r.source] ?? 0) + 1;
    return {
      id,
      name: doc.name,
      requests: reqs.length,
      sources,
      reachedFull: hits.full,
      reachedListing: hits.listing,
      lost: rows.filter((r) => r.lost).length,
      flagged: rows.some((r) => r.lost) && rows.filter((r) => r.lost).length * 2 >= reqs.length,
      listedChars: entry && !entry.omitted ? entry.text.length : 0,
      fullChars: entry?.fullChars ?? doc.description.length,
      cut: entry?.cut ?? false,
      dropped: entry?.descriptionDropped ?? false,
      omitted: entry?.omitted ?? true,
      ...(entry?.why ? { why: entry.why } : {}),
      ...(entry?.overBudget ? { overBudget: true as const } : {}),
      suggest,
      wonBack: suggest.length ? rows.filter((r) => r.won).length : 0,
      ownLost: suggest.length ? p!.verified!.ownLost : 0,
      rejected: p ? [...p.tried].filter(([word]) => !suggest.includes(word)).map(([word, why]) => ({ word, why })) : [],
      detail: rows,
    };
  });
  const sum = (f: (s: SkillReach) => number) => skills.reduce((n, s) => n + f(s), 0);
  return {
    skills,
    totals: {
      skills: skills.length,
      requests: sum((s) => s.requests),
      reachedFull: sum((s) => s.reachedFull),
      reachedListing: sum((s) => s.reachedListing),
      lost: sum((s) => s.lost),
      wonBack: sum((s) => s.wonBack),
      suggested: skills.filter((s) => s.suggest.length).length,
    },
    verification: { rounds, routed: rankings.routed },
  };
}

/** Skills other than `own` whose listed text differs between two listings (the added characters moved a budget). */
function changedEntries(before: ClientListing, after: ClientListing, own: ReadonlySet<string>): Set<string> {
  const was = new Map<string, ListedSkill>(before.entries.map((e) => [e.id, e]));
  const out = new Set<string>();
  for (const e of after.entries) {
    const b = was.get(e.id);
    if (!own.has(e.id) && b && (b.text !== e.text || b.omitted !== e.omitted)) out.add(e.id);
  }
  return out;
}

/**
 * Other skills' requests to re-route for a round: per proposal, those that have most of its
 * words (up to `perProposal`), and every request of a skill whose listed entry changed.
 */
function pullChecks(
  all: readonly ReachRequest[],
  live: readonly [string, Proposal][],
  changed: ReadonlySet<string>,
  requestsOf: ReadonlyMap<string, ReachRequest[]>,
  perProposal: number,
  analyser: Analyser,
): ReachRequest[] {
  const out = new Set<ReachRequest>();
  // Each request analysed once a round, not once per proposal (hundreds where descriptions are
  // cut); with one proposal (the editor's, over every request of a large library) none is kept.
  const termsOf = new Map<ReachRequest, Set<string>>();
  const requestTerms = (r: ReachRequest) => {
    let t = termsOf.get(r);
    if (!t) {
      t = new Set(analyser(r.query));
      if (live.length > 1) termsOf.set(r, t);
    }
    return t;
  };
  for (const [id, p] of live) {
    const terms = new Set(p.words.map((w) => w.term));
    const scored = all
      .filter((r) => !r.expect.includes(id))
      .map((r) => ({ r, n: sharedTerms(requestTerms(r), terms) }))
      .filter((x) => x.n > 0)
      .sort((a, b) => b.n - a.n);
    for (const { r } of scored.slice(0, perProposal)) out.add(r);
  }
  for (const id of changed) for (const r of (requestsOf.get(id) ?? []).slice(0, perProposal)) out.add(r);
  return [...out];
}

/**
 * The words to try next round, after this round's outcome (empty: the skill is done). Words that
 * pulled another skill's request go, for good, and the rest are tried with the next candidates;
 * words that won something and pulled nothing are verified (the best set so far is kept, fewer
 * words winning as much counting better), pruned to those the won requests have, with the next
 * candidate that a request still lost has, and tried again; words that won nothing make
 * way for the next candidates.
 */
function nextWords(p: Proposal, lost: readonly string[], won: ReadonlySet<string>, pulled: readonly ReachRequest[], maxWords: number, analyser: Analyser, ownLost: number): CandidateWord[] {
  const inAny = (w: CandidateWord, queries: Iterable<string>) => [...queries].some((q) => mentionsAny(q, new Set([w.term]), analyser) > 0);
  if (pulled.length) {
    const inPulled = p.words.filter((w) => inAny(w, pulled.map((r) => r.query)));
    // Pulled by meaning alone (no word of the request has them): the whole proposal goes.
    const bad = inPulled.length ? inPulled : p.words;
    for (const w of bad) p.tried.set(w.word, 'pulls other skills');
    return topUp(p.words.filter((w) => !bad.includes(w)), p, maxWords);
  }
  if (won.size) {
    const prev = p.verified;
    const net = won.size - ownLost;
    const prevNet = prev ? prev.won.size - prev.ownLost : -Infinity;
    if (net > prevNet || (net === prevNet && prev && p.words.length < prev.words.length)) p.verified = { words: [...p.words], won: new Set(won), ownLost };
    const useful = p.words.filter((w) => inAny(w, won));
    for (const w of p.words) if (!useful.includes(w)) p.tried.set(w.word, 'won nothing');
    // Requests still lost: try the next candidate they have, in the last place if need be (the
    // best verified set stays, so a worse try costs nothing but a round).
    const unwon = lost.filter((q) => !won.has(q));
    const fresh = p.rest.find((w) => inAny(w, unwon));
    if (!fresh) return useful.length < p.words.length ? useful : [];
    p.rest.splice(p.rest.indexOf(fresh), 1);
    return [...useful.slice(0, maxWords - 1), fresh];
  }
  for (const w of p.words) p.tried.set(w.word, 'won nothing');
  return p.verified ? [] : topUp([], p, maxWords);
}

/** `keep` topped up with the next untried candidates. */
function topUp(keep: CandidateWord[], p: Proposal, maxWords: number): CandidateWord[] {
  const out = [...keep];
  while (out.length < maxWords && p.rest.length) out.push(p.rest.shift()!);
  return out;
}

/** Term statistics counted over `docs` (every body analysed), for a caller without the engine's. */
function countedStats(docs: ReachInput['docs'], analyser: Analyser): TermStats {
  const stats = new TermStats(analyser);
  stats.update(docs);
  return stats;
}
