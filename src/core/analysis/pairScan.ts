/**
 * The library's pair findings, for one skill (after an edit) or for the whole library: the one
 * function behind the editor's diagnostics and `skill-router check`.
 *
 * 1. Copies, from the text (copies.ts), in any folders.
 * 2. Probe requests for every skill (probes.ts: the author's tests and evals first, then requests
 *    written from its description and headings), routed over the library by the engine's own
 *    pipeline and read within the skill's scope: its top-level folder (one collection of a library
 *    root that holds several), or the whole library when `acrossFolders` is set.
 * 3. Pairs judged on that evidence (competition.ts): near-duplicates, variants, umbrellas.
 *
 * A library-wide scan routes two probes per skill first, then the rest of the probes (up to four)
 * of the skills whose first probes met each other; a scan for one skill routes its probes and
 * those of the skills they reach. Results are cached by the library's content signature
 * (pairCache.ts), so a warm run routes nothing.
 */
import { LibraryNames, resolvedReferences } from './references';
import { contentHash } from '../text/hash';
import type { SkillDoc } from '../types';
import { throwIfCancelled } from '../types';
import { SLICE_MS } from '../jobs/timeSliced';
import { ALONE_SHARE, closeTo, direction, judgeCompetition, KEPT, partnersOf, SMALL_POOL, verifiedRequests } from './competition';
import type { SkillProfiles } from './conflicts';
import { sketchOf, textSignature, type TextSignature } from './copies';
import { PAIR_SCAN_VERSION, PairScanCache, templateHash, type TextEntry } from './pairCache';
import { probeRequests, templateKey, type Probe } from './probes';
import { resolveScanOptions, type PairScanOptions, type PairScanRun, type ProbeRouter, type RouterIdentity } from './scanRun';
import { fragments } from '../route/rerankTraining';
import { pairMessage, type PairFacts } from './pairText';
import { jobLine, sequenceLine, surfaceOf, useOtherLine } from './suggestions';
import type { AuthoredRequest, PairFinding, ScopedRanking, SkipReason, Verdict } from './types';

/** Probes per skill at most, and how many a library-wide scan routes for every skill first. */
export const MAX_PROBES = 3;
export const SCREEN_PROBES = 2;
/** Skills whose probes a one-skill scan also routes (the ones its probes reach most). */
const MAX_PARTNERS = 3;
/**
 * Libraries up to this size route every probe (a few seconds); larger ones screen by words first
 * (the 2,817-skill corpus: ~8,000 routes instead of ~8,500 would take as long, but a full
 * route of every probe and every pair's partners does not fit a minute).
 */
const SMALL_LIBRARY = 300;
/*
 * A slice of a scan (routing probes, screening them, preparing skills' texts) runs about SLICE_MS
 * before other work (the server's queue, its messages) gets a turn. By time, not by count: a probe
 * routed words-only over skills whose fields are not analysed yet (after a branch switch) takes up
 * to ~100 ms, and six of them a slice held the server's loop for 0.3-0.9 s.
 */
/** How deep the screen reads: a pair whose probes meet in these places is routed in full. */
const SCREEN_TOP = 2;
/** A sentence or heading in this many skills is template text, not a probe. */
const TEMPLATE_SKILLS = 3;

export interface PairScanInput {
  /** The library's skills, in id order. */
  docs: readonly SkillDoc[];
  profiles: SkillProfiles;
  /** The engine's routing pipeline: probes are routed exactly as requests are. */
  pipeline: ProbeRouter;
  /** Options from the engine's composition (`SkillServiceInit.duplicates`), under `run.options`. */
  options?: Partial<PairScanOptions>;
}

/** The scope of a skill: its top-level folder, or '' for the whole library. */
export function scopeOf(id: string, acrossFolders: boolean): string {
  const slash = id.indexOf('/');
  return acrossFolders || slash < 0 ? '' : id.slice(0, slash);
}

const REASONS: Record<Verdict['kind'], SkipReason> = { 'near-duplicate': 'function_redundant', variant: 'platform_exclusive', umbrella: 'granularity_mismatch', sequence: 'forced_chaining' };

/**
 * A signature of everything a library's findings depend on: the scan's version and options, the
 * router's identity, each skill's id and content hash and the requests its author wrote for it.
 * Computed without routing, from what parsing gives (`check` reads cached findings with it
 * before it loads a model).
 */
export function pairLibraryKey(
  docs: readonly Pick<SkillDoc, 'id' | 'hash'>[],
  router: RouterIdentity,
  opts: PairScanOptions,
  authored?: (id: string) => readonly AuthoredRequest[],
): string {
  const parts = [String(PAIR_SCAN_VERSION), JSON.stringify([router.reranker, router.encoder, router.settings]), JSON.stringify(opts)];
  for (const d of docs) {
    const own = authored?.(d.id) ?? [];
    parts.push(`${d.id}\t${d.hash}${own.length ? `\t${contentHash(JSON.stringify(own))}` : ''}`);
  }
  return contentHash(parts.join('\n'));
}

function isDisabled(dense: unknown): boolean {
  return typeof dense === 'object' && dense !== null && 'disabled' in dense;
}

/** Pair findings of the library; only those involving `skillId` when given. */
export async function scanPairs(input: PairScanInput, skillId?: string, run: PairScanRun = {}): Promise<PairFinding[]> {
  const opts = resolveScanOptions(input.options, run.options);
  const cache = run.cache ?? new PairScanCache();
  await cache.prepare();
  cache.noteLibrary(new Set(input.docs.map((d) => d.hash)));
  const scan = new Scan(input, opts, cache, run);
  if (run.prepareOnly) return scan.prepare().then(() => []);
  return skillId === undefined ? scan.library() : scan.focus(skillId);
}

class Scan {
  private readonly byId: Map<string, SkillDoc>;
  private readonly probes = new Map<string, Probe[]>();
  /** Full signatures this scan made for its text entries, until its copies are found. */
  private fresh: Map<string, TextSignature> | null = null;
  /**
   * This scan's routed probes. The cache keeps them too, for the next scan of the same state, but
   * only for the latest state: a one-skill scan after an edit, run between the slices of a
   * library-wide one, moves it on.
   */
  private readonly rankings = new Map<string, ScopedRanking>();
  private key = '';
  /** Whether a probe was routed without the router's encoder (it failed on the request). */
  private degraded = false;
  /** What orders the rankings, taken once (the key, and each probe's check that the encoder ran). */
  private readonly router: RouterIdentity;
  private routed = 0;
  private total = 0;
  /** Screened probes, done and in all, counted a tenth of a routed one each (what they cost). */
  private screened = 0;
  private screens = 0;

  constructor(
    private readonly input: PairScanInput,
    private readonly opts: PairScanOptions,
    private readonly cache: PairScanCache,
    private readonly run: PairScanRun,
  ) {
    this.byId = new Map(input.docs.map((d) => [d.id, d]));
    this.router = input.pipeline.identity;
  }

  async library(): Promise<PairFinding[]> {
    const docs = this.input.docs;
    this.key = this.libraryKey();
    const hit = this.cache.result(this.key);
    if (hit) return [...hit];
    // Text work per skill a slice at a time (a branch switch brings thousands of new hashes at once).
    this.fresh = new Map();
    await this.inSlices(docs, (d) => void this.textOf(d));
    await this.primeCopies(true);
    const copies = await this.schedule(async () => this.copies());
    this.fresh = null;
    await this.inSlices(docs, (d) => void this.probesOf(d));
    const copied = new Set(copies.map((p) => `${p.a}\n${p.b}`));
    const kept = docs.length <= SMALL_LIBRARY ? await this.routeAll(docs, copied) : await this.screenThenRoute(docs, copied);
    const judged: PairFinding[] = [];
    await this.inSlices(kept, ([x, y]) => {
      const f = this.judge(x, y);
      if (f) judged.push(f);
    });
    const found = [...copies, ...judged].sort(byPair);
    // Routed without the encoder it names, the result is not the key's: the next scan routes again.
    if (!this.degraded) this.cache.setResult(this.key, found);
    return found;
  }

  /** A small library: every probe routed, the pairs whose probes meet both ways judged. */
  private async routeAll(docs: readonly SkillDoc[], copied: ReadonlySet<string>): Promise<[SkillDoc, SkillDoc][]> {
    this.total = docs.reduce((n, d) => n + this.probesOf(d).length, 0);
    await this.route(docs.map((d) => [d, this.probesOf(d)] as const));
    const partners = new Map(docs.map((d) => [d.id, new Set(partnersOf(this.rankingsOf(d), d.id))]));
    const pairs: [SkillDoc, SkillDoc][] = [];
    for (const d of docs) {
      for (const other of partners.get(d.id)!) {
        const o = this.byId.get(other);
        if (o && d.id < other && partners.get(other)?.has(d.id) && !copied.has(`${d.id}\n${other}`)) pairs.push([d, o]);
      }
    }
    return pairs;
  }

  /**
   * A large library: a screen by words alone (which skills' first two probes meet), then those
   * skills' first probe routed in full, then the rest of the probes of the pairs it shows meeting.
   */
  private async screenThenRoute(docs: readonly SkillDoc[], copied: ReadonlySet<string>): Promise<[SkillDoc, SkillDoc][]> {
    const screened = await this.screen(docs);
    const candidates: [SkillDoc, SkillDoc][] = [];
    for (const d of docs) {
      for (const other of screened.get(d.id)!) {
        const o = this.byId.get(other);
        if (o && d.id < other && screened.get(other)?.has(d.id) && !copied.has(`${d.id}\n${other}`)) candidates.push([d, o]);
      }
    }
    // Their first probe routed in full; the pairs it shows meeting both ways get the rest.
    const first = [...new Set(candidates.flat())];
    this.total = first.length;
    await this.route(first.map((d) => [d, this.probesOf(d).slice(0, 1)] as const));
    const meets = (x: SkillDoc, y: SkillDoc) => direction(this.rankingsOf(x), x.id, y.id).taken > 0;
    const kept = candidates.filter(([x, y]) => meets(x, y) && meets(y, x));
    const rest = [...new Set(kept.flat())];
    this.total = this.routed + rest.reduce((n, d) => n + Math.max(0, this.probesOf(d).length - 1), 0);
    await this.route(rest.map((d) => [d, this.probesOf(d).slice(1)] as const));
    return kept;
  }

  async focus(id: string): Promise<PairFinding[]> {
    const doc = this.byId.get(id);
    if (!doc) return [];
    this.key = this.libraryKey();
    const hit = this.cache.result(this.key);
    if (hit) return hit.filter((p) => p.a === id || p.b === id);
    const copies = this.copies(id);
    const copied = new Set(copies.map((p) => (p.a === id ? p.b : p.a)));
    this.total = this.probesOf(doc).length;
    await this.route([[doc, this.probesOf(doc)]]);
    // Partners: what its probes reach now, and what it was paired with before (a pair may end).
    const counts = new Map<string, number>();
    for (const r of this.rankingsOf(doc)) for (const other of partnersOf([r], id)) counts.set(other, (counts.get(other) ?? 0) + 1);
    for (const p of this.cache.latest() ?? []) {
      if (p.kind !== 'copy' && (p.a === id || p.b === id)) counts.set(p.a === id ? p.b : p.a, (counts.get(p.a === id ? p.b : p.a) ?? 0) + 1);
    }
    const partners = [...counts]
      .filter(([other]) => this.byId.has(other) && !copied.has(other) && scopeOf(other, this.opts.acrossFolders) === scopeOf(id, this.opts.acrossFolders))
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_PARTNERS)
      .map(([other]) => this.byId.get(other)!);
    this.total += partners.reduce((n, d) => n + this.probesOf(d).length, 0);
    await this.route(partners.map((d) => [d, this.probesOf(d)] as const));
    const found = partners.flatMap((o) => this.judge(doc, o) ?? []);
    return [...copies, ...found].sort(byPair);
  }

  /** `PairScanRun.prepareOnly`: the copy index in slices, then the template counts. */
  async prepare(): Promise<void> {
    const docs = this.input.docs;
    await this.primeCopies(false);
    await this.schedule(async () => {
      this.cache.copyIndex.update(docs, (d) => this.textOf(d).sketch);
      this.templateCounts();
    });
  }

  /**
   * The copy index brought to this library a slice at a time, and with `judge` its pairs judged
   * so (a branch switch re-buckets and re-judges thousands: ~0.2 s in one step at 2,000).
   */
  private async primeCopies(judge: boolean): Promise<void> {
    const index = this.cache.copyIndex;
    for (let done = false; !done; ) {
      throwIfCancelled(this.run.token);
      done = await this.schedule(async () => index.prime(this.input.docs, (d) => this.textOf(d).sketch, SLICE_MS));
    }
    const walk = index.walk();
    for (let done = !judge; !done; ) {
      throwIfCancelled(this.run.token);
      done = await this.schedule(async () => index.judgeSome(this.signatureOf, SLICE_MS, walk));
    }
  }

  /** A skill's full text signature: made by this scan, or the cache's. */
  private readonly signatureOf = (d: SkillDoc) => this.fresh?.get(d.hash) ?? this.cache.signature(d.hash, () => textSignature(d));

  private report(): void {
    const screenDone = Math.round(this.screened / 10);
    this.run.progress?.(screenDone + this.routed, Math.round(this.screens / 10) + Math.max(this.total, this.routed));
  }

  /** Runs one slice of work where the caller wants it (the server: on the library's queue). */
  private schedule<T>(work: () => Promise<T>): Promise<T> {
    return this.run.schedule ? this.run.schedule(work) : work();
  }

  /**
   * `each` over `items` in slices of about SLICE_MS, each slice scheduled on its own (at least one
   * item a slice); `after` runs after each slice with the count done.
   */
  private async inSlices<T>(items: readonly T[], each: (item: T) => void | Promise<void>, after?: (done: number) => void): Promise<void> {
    for (let i = 0; i < items.length; ) {
      throwIfCancelled(this.run.token);
      i = await this.schedule(async () => {
        const t0 = performance.now();
        let j = i;
        do {
          const pending = each(items[j++]);
          if (pending) await pending;
        } while (j < items.length && performance.now() - t0 < SLICE_MS);
        return j;
      });
      after?.(i);
    }
  }

  /** This scan's cache key (see `pairLibraryKey`). */
  private libraryKey(): string {
    return pairLibraryKey(this.input.docs, this.router, this.opts, this.run.authored);
  }

  /** The library's copy pairs, or those of one skill (the cache's copy index, brought to this library first). */
  private copies(focus?: string): PairFinding[] {
    // A scan of another state may have moved the index between this scan's slices: brought back
    // (re-bucketing the few skills that differ), so each scan reads the copies of its own library.
    const index = this.cache.copyIndex;
    index.update(this.input.docs, (d) => this.textOf(d).sketch);
    return focus === undefined ? index.all(this.signatureOf) : index.of(focus, this.signatureOf);
  }

  /**
   * Rankings of `doc`'s probes with the other copies of `x` and `y` left out: a copy of either
   * takes a place in the top 3 that says nothing new (the copy finding says it), and would push
   * the other out.
   */
  private rankingsFor(doc: SkillDoc, x: string, y: string): ScopedRanking[] {
    const drop = new Set<string>();
    for (const id of [x, y]) for (const p of this.copies(id)) drop.add(p.a === id ? p.b : p.a);
    drop.delete(x);
    drop.delete(y);
    const list = this.rankingsOf(doc);
    if (!drop.size) return list;
    return list.map((r) => {
      const keep = r.ids.map((id, i) => (drop.has(id) ? -1 : i)).filter((i) => i >= 0);
      return { ...r, ids: keep.map((i) => r.ids[i]), close: keep.map((i) => r.close[i]) };
    });
  }

  private probesOf(doc: SkillDoc): Probe[] {
    let list = this.probes.get(doc.id);
    if (!list) {
      const shared = this.templateCounts();
      list = probeRequests(doc, this.run.authored?.(doc.id) ?? [], MAX_PROBES, (key) => (shared.get(templateHash(key)) ?? 0) >= TEMPLATE_SKILLS);
      this.probes.set(doc.id, list);
    }
    return list;
  }

  /**
   * In how many skills each sentence and heading occurs (template text is in many); copies, which
   * share their description, count once. The cache's counts, brought to this scan's library (a
   * scan of another state may have moved them between this scan's slices).
   */
  private templateCounts(): ReadonlyMap<number, number> {
    return this.cache.templates.of(this.input.docs, (d) => this.textOf(d).templates);
  }

  /**
   * A skill's text entry, kept per content hash: its copy sketch, and the hashes of its template
   * keys (its description sentences and headings, normalised). Made from the whole body once per
   * version; a reopened library reads them from the cache's store.
   */
  private textOf(d: SkillDoc): TextEntry {
    return this.cache.text(d.hash, () => {
      const sig = textSignature(d);
      this.fresh?.set(d.hash, sig);
      const f = fragments(d);
      return { sketch: sketchOf(sig), templates: [...new Set([...f.description, ...f.headings].map((x) => templateHash(templateKey(x))))] };
    });
  }

  /** The first stage's raw lexical scores of a request (BM25F against every skill). */
  private wordScores(query: string): Map<string, number> {
    const pipeline = this.input.pipeline;
    return pipeline.firstStage.lexicalScores(pipeline.analyse(query), pipeline.settings);
  }

  /**
   * The skills each skill's first probes reach by words alone (the first stage's lexical scores,
   * Chinese requests with their bridged senses), within its scope: the screen of a library scan.
   */
  private async screen(docs: readonly SkillDoc[]): Promise<Map<string, Set<string>>> {
    const out = new Map<string, Set<string>>();
    const jobs = docs.flatMap((d) => this.probesOf(d).slice(0, SCREEN_PROBES).map((p) => [d, p] as const));
    for (const d of docs) out.set(d.id, new Set());
    this.screens = jobs.length;
    // Until the screen tells, assume every skill's first probes get routed.
    this.total = jobs.length;
    const screenOne = ([doc, probe]: (typeof jobs)[number]) => {
      const scores = this.wordScores(probe.query);
      const scope = scopeOf(doc.id, this.opts.acrossFolders);
      const top: [string, number][] = [];
      for (const [id, score] of scores) {
        if (id === doc.id || (scope && scopeOf(id, false) !== scope)) continue;
        if (top.length < SCREEN_TOP) top.push([id, score]);
        else if (score > top[top.length - 1][1]) top[top.length - 1] = [id, score];
        else continue;
        top.sort((a, b) => b[1] - a[1]);
      }
      for (const [id] of top) out.get(doc.id)!.add(id);
    };
    await this.inSlices(jobs, screenOne, (done) => {
      this.screened = done;
      this.report();
    });
    return out;
  }

  private rankingsOf(doc: SkillDoc): ScopedRanking[] {
    return this.probesOf(doc).flatMap((p) => this.rankingOf(doc, p) ?? []);
  }

  private rankingOf(doc: SkillDoc, p: Probe): ScopedRanking | undefined {
    const key = this.probeKey(doc, p);
    let r = this.rankings.get(key);
    if (!r) {
      r = this.cache.ranking(this.key, key);
      if (r) this.rankings.set(key, r);
    }
    return r;
  }

  private probeKey(doc: SkillDoc, p: Probe): string {
    return `${doc.id}\n${p.query}`;
  }

  /** Routes the probes not routed yet for this library state, a slice at a time. */
  private async route(work: readonly (readonly [SkillDoc, readonly Probe[]])[]): Promise<void> {
    const jobs = work.flatMap(([doc, probes]) => probes.filter((p) => !this.rankingOf(doc, p)).map((p) => [doc, p] as const));
    this.routed += work.reduce((n, [, probes]) => n + probes.length, 0) - jobs.length;
    await this.inSlices(jobs, (job) => this.routeOne(...job), () => this.report());
  }

  /** Routes one probe of `doc` and keeps its ranking within the skill's scope. */
  private async routeOne(doc: SkillDoc, probe: Probe): Promise<void> {
    throwIfCancelled(this.run.token);
    // The ranking `route` shows (the set does not reorder it; selecting it is not needed here).
    const ranking = await this.input.pipeline.rank(probe.query, { select: false, token: this.run.token });
    if (this.router.encoder !== null && isDisabled(ranking.dense)) this.degraded = true;
    const scope = scopeOf(doc.id, this.opts.acrossFolders);
    const ids: string[] = [];
    const close: boolean[] = [];
    const relevant: boolean[] = [];
    const relevance: number[] = [];
    // In a small pool any skill is in the top 3 for want of others: there the other one must also
    // be judged relevant to the request on its own text (`alone`: the softmax over a few skills
    // leaves a twin behind its copy almost nothing), at or above the floor and ALONE_SHARE of the
    // best's relevance. In a large pool its place among hundreds says enough.
    const pool = ranking.candidates.length;
    const floor = pool < SMALL_POOL ? (ranking.floor ?? null) : null;
    const self = ranking.candidates.find((c) => c.id === doc.id);
    const best = ranking.candidates[0]?.relevance ?? 0;
    // A small pool without an encoder is judged on the raw word scores (see closeTo).
    const words = pool < SMALL_POOL && self?.dense === null ? this.wordScores(probe.query) : undefined;
    for (const c of ranking.candidates) {
      if (scope && scopeOf(c.id, false) !== scope) continue;
      ids.push(c.id);
      close.push(c.id === doc.id || closeTo(self, c, pool, words));
      const alone = c.alone ?? c.relevance;
      relevant.push(floor === null || alone === null || alone === undefined || (alone >= floor && alone >= ALONE_SHARE * best));
      relevance.push(c.relevance ?? 0);
      if (ids.length >= KEPT) break;
    }
    const routed: ScopedRanking = {
      query: probe.query,
      source: probe.source,
      for: doc.id,
      ids,
      close,
      ...(floor !== null ? { relevant } : {}),
      ...(ranking.floor !== null && ranking.candidates.some((c) => c.relevance !== null) ? { relevance, floor: ranking.floor } : {}),
      ...(ranking.request.readAs ? { readAs: ranking.request.readAs } : {}),
    };
    this.rankings.set(this.probeKey(doc, probe), routed);
    this.cache.setRanking(this.key, this.probeKey(doc, probe), routed);
    this.routed++;
  }

  private named = new Map<string, ReadonlySet<string>>();
  private names: LibraryNames | null = null;
  private scopeSizes: Map<string, number> | null = null;

  /** The skills of its scope that `doc`'s body names (the reference graph's edges out of it), for the skills of judged pairs. */
  private namedBy(doc: SkillDoc): ReadonlySet<string> {
    const known = this.named.get(doc.id);
    if (known) return known;
    this.names ??= new LibraryNames(this.input.docs);
    const scope = scopeOf(doc.id, this.opts.acrossFolders);
    const named = new Set(resolvedReferences(doc, this.names).flatMap((r) => r.toIds).filter((id) => id !== doc.id && scopeOf(id, this.opts.acrossFolders) === scope));
    this.named.set(doc.id, named);
    return named;
  }

  /**
   * Whether `doc` is a hub of its scope's reference graph: its body names at least half of the
   * other skills (three at least), or eight of them (an index of a large library).
   */
  private isHub(doc: SkillDoc): boolean {
    if (!this.scopeSizes) {
      this.scopeSizes = new Map();
      for (const d of this.input.docs) {
        const scope = scopeOf(d.id, this.opts.acrossFolders);
        this.scopeSizes.set(scope, (this.scopeSizes.get(scope) ?? 0) + 1);
      }
    }
    const named = this.namedBy(doc).size;
    const others = (this.scopeSizes.get(scopeOf(doc.id, this.opts.acrossFolders)) ?? 1) - 1;
    return named >= 8 || (named >= 3 && named * 2 >= others);
  }

  /** The finding of one pair, or null. */
  private judge(x: SkillDoc, y: SkillDoc): PairFinding | null {
    const [a, b] = x.id < y.id ? [x, y] : [y, x];
    if (scopeOf(a.id, this.opts.acrossFolders) !== scopeOf(b.id, this.opts.acrossFolders)) return null;
    const ra = this.rankingsFor(a, a.id, b.id);
    const rb = this.rankingsFor(b, a.id, b.id);
    const verdict = judgeCompetition(a, b, ra, rb, this.input.profiles, this.opts, { isHub: (doc) => this.isHub(doc), names: (doc) => this.namedBy(doc) });
    if (!verdict) return null;
    const requests = verifiedRequests([...ra, ...rb], a.id, b.id);
    // Every claim carries a request the router ranked both for; without one, no claim.
    if (!requests.length) return null;
    const ab = direction(ra, a.id, b.id);
    const ba = direction(rb, b.id, a.id);
    const facts: PairFacts = { a, b, verdict, directions: { [a.id]: ab, [b.id]: ba }, example: requests[0] };
    const profiles = this.input.profiles;
    const analyser = (text: string) => [...profiles.ofText(text).terms.keys()];
    const lead = (other: SkillDoc) =>
      verdict.kind === 'variant' ? verdict.values[other.id].map((v) => surfaceOf(v, other.description)) : [];
    const suggestions: Record<string, string> = {};
    // One skill listed twice is fixed by keeping one: a line sending each to the other is no fix.
    const twice = verdict.kind === 'near-duplicate' && verdict.twice;
    const lineFor = (self: SkillDoc, other: SkillDoc): string | null => {
      // A step's line says which step comes before or after it (the message asks for that).
      if (verdict.kind === 'sequence') return sequenceLine(self, other, verdict.first === self.id, verdict.words);
      const words = useOtherLine(self, other, profiles, analyser, lead(other));
      // A variant leads with its platform; a task skill sends the umbrella what the umbrella
      // covers beyond it (its words), not the umbrella's whole job, which includes its own.
      if (verdict.kind === 'variant' || (verdict.kind === 'umbrella' && verdict.task === self.id)) return words;
      // The other's job in its own first sentence reads as a person writes it; the words that set
      // it apart are the fallback (a list of fragments). None when no word sets it apart.
      return words && (jobLine(self, other) ?? words);
    };
    for (const [self, other] of twice ? [] : ([[a, b], [b, a]] as const)) {
      const line = lineFor(self, other);
      if (line) suggestions[self.id] = line;
    }
    return {
      kind: verdict.kind === 'near-duplicate' ? 'near-duplicate' : 'conflict',
      a: a.id,
      b: b.id,
      similarity: Math.min(ab.taken / ab.sent, ba.taken / ba.sent),
      reason: verdict.kind === 'variant' && (verdict.family === 'language' || verdict.family === 'frontend') ? 'language_ecosystem_mismatch' : REASONS[verdict.kind],
      explanation: pairMessage(facts),
      evidence: { requests, probes: { sent: ab.sent + ba.sent, taken: ab.taken + ba.taken } },
      ...(Object.keys(suggestions).length ? { suggestions } : {}),
      detail: facts.verdict,
      directions: facts.directions,
    };
  }
}

function byPair(p: PairFinding, q: PairFinding): number {
  return p.a < q.a ? -1 : p.a > q.a ? 1 : p.b < q.b ? -1 : p.b > q.b ? 1 : p.kind < q.kind ? -1 : p.kind > q.kind ? 1 : 0;
}
