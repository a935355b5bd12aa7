/**
 * What the agent sees, measured: on the shared real library (../shared/realsuites/dotnet, its
 * authors' tests) and each corpus collection (the dev requests whose skills lie in it), Hit@1 of
 * the labelled requests in the full text and over each client's listing, plain and with every
 * description cut to 90 characters; then, per scenario (client, cut), what `reach`'s suggested
 * words do when applied to a copy of the library with the editor's quick fix (core
 * withAddedWords through server/quickFixes addWordsEdit) and the copy is routed again: the lost
 * listing hits won back, and what the other skills lose. Two ways to choose the words:
 *
 *   in-sample  reach over the labelled requests themselves (what `reach --queries` reports)
 *   held-out   reach over probe requests written from the bodies only; measured on the
 *              labelled requests, which it never saw
 *
 * And `--time-corpus`: `skill-router reach` on the whole corpus, cold (--no-cache) and warm, as
 * spawned processes. Prints Markdown tables; writes bench/results/reach.json (or --out). Not pass/fail.
 *
 *   node esbuild.mjs && node esbuild.mjs --bench && node out/bench/reach.js [--only dotnet,...] [--no-model] [--time-corpus]
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { scoreQuery } from '../src/core/eval/metrics';
import { parseQueries, type EvalQuery } from '../src/core/eval/queries';
import { LISTING_RULES, simulateListing, type ListingClient, type ListingOptions } from '../src/core/profiles';
import type { ReachReport } from '../src/core/reach/measure';
import type { SkillService } from '../src/core/service';
import { requestsFromQueries, runReach } from '../src/cli/reachRun';
import { defaultCacheDir, openLibrary } from '../src/node/library';
import { addWordsEdit } from '../src/server/quickFixes';
import { collections, realSuites, type DevLibrary } from './devLibraries';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: path.resolve('../shared/corpus/skills') },
    queries: { type: 'string', default: path.resolve('../shared/queries/dev.jsonl') },
    realsuites: { type: 'string', default: path.resolve('../shared/realsuites') },
    only: { type: 'string' },
    'no-model': { type: 'boolean' },
    'time-corpus': { type: 'boolean' },
    out: { type: 'string', default: 'bench/results/reach.json' },
    quiet: { type: 'boolean' },
  },
});

const CLIENTS: readonly ListingClient[] = ['claude-code', 'codex', 'copilot', 'cursor'];
const CUT = 90;
/** Where suggestions are applied and measured. */
const SCENARIOS: readonly { client: ListingClient; cut?: number }[] = [{ client: 'claude-code', cut: CUT }, { client: 'copilot', cut: CUT }, { client: 'claude-code' }, { client: 'codex' }];

type Library = DevLibrary;

const listingOpts = (cut?: number): ListingOptions => (cut !== undefined ? { cutAt: cut } : {});
const viewKey = (client: ListingClient | 'full', cut?: number) => `${client}${cut !== undefined ? `@${cut}` : ''}`;

/** Hit@1 (with also_ok) of each positive request in one view, and its ranking (ids, best first). */
async function hits(svc: SkillService, queries: readonly EvalQuery[], client?: ListingClient, cut?: number): Promise<boolean[] & { rankings: string[][] }> {
  const out = Object.assign([] as boolean[], { rankings: [] as string[][] });
  for (const q of queries) {
    const r = await svc.route(q.query, { k: 10, passages: false, ...(client ? { view: { client, listing: listingOpts(cut) } } : {}) });
    const ids = r.candidates.map((c) => c.skillId);
    out.push(scoreQuery(ids, { required: q.skillIds, alsoOk: q.alsoOk })['hit@1'] === 1);
    out.rankings.push(ids);
  }
  return out;
}

/** Whether `id` ranks within the first as many places as `q` needs skills (reach's "reaches it first"). */
const first = (ids: readonly string[], id: string, q: EvalQuery) => {
  const at = ids.indexOf(id);
  return at >= 0 && at < Math.max(1, q.skillIds.length);
};

const share = (xs: readonly boolean[]) => (xs.length ? xs.filter(Boolean).length / xs.length : 0);
const pct = (x: number) => (x * 100).toFixed(1);

interface Applied {
  mode: 'in-sample' | 'held-out';
  client: ListingClient;
  cut: number | null;
  /** Skills that got words, and the words. */
  words: Record<string, string[]>;
  reachWonBack: number;
  lostHits: number;
  wonBack: number;
  newlyLost: number;
  listingBefore: number;
  listingAfter: number;
  fullBefore: number;
  fullAfter: number;
  /** Listing Hit@1 over the requests of skills that got no words, before and after. */
  othersBefore: number | null;
  othersAfter: number | null;
  /** The largest drop of one skill's listing Hit@1 (points), and whose. */
  worstDrop: { skill: string; points: number } | null;
  /** Skills that lose at least half of their labelled requests in the listing (by this bench's Hit@1), and of those, how many reach flags. */
  losingHalf: number;
  flagged: number;
  ms: number;
}

/** A copy of the library with the words added to the descriptions as the quick fix adds them. */
function applyWords(lib: Library, svc: SkillService, words: Record<string, string[]>, cut: Set<string>): { root: string; cache: string } {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'reach-bench-'));
  const root = path.join(tmp, 'library');
  cpSync(lib.root, root, { recursive: true });
  for (const doc of svc.skills()) {
    const w = words[doc.id];
    if (!w?.length) continue;
    const file = path.join(root, doc.path);
    const text = readFileSync(file, 'utf8');
    const edits = addWordsEdit(text, w, cut.has(doc.id));
    if (edits) writeFileSync(file, TextDocument.applyEdits(TextDocument.create('file:///x', 'markdown', 1, text), edits));
  }
  // The original's cache: only the edited skills are embedded again.
  const cache = path.join(tmp, 'cache');
  const original = defaultCacheDir(lib.root);
  if (existsSync(original)) cpSync(original, cache, { recursive: true });
  return { root, cache };
}

async function evaluate(lib: Library) {
  const positives = lib.queries.filter((q) => q.skillIds.length);
  const svc = await openLibrary({ root: lib.root, noModel: values['no-model'] });
  const t0 = performance.now();
  try {
    const stats = await svc.index();
    const refs = svc.skills().map((s) => ({ id: s.id, name: s.name }));
    const qs = positives.filter((q) => q.skillIds.every((id) => refs.some((r) => r.id === id)));
    const views: Record<string, number> = {};
    const perView = new Map<string, Awaited<ReturnType<typeof hits>>>();
    perView.set('full', await hits(svc, qs));
    views.full = share(perView.get('full')!);
    for (const client of CLIENTS) {
      for (const cut of [undefined, CUT]) {
        const h = await hits(svc, qs, client, cut);
        perView.set(viewKey(client, cut), h);
        views[viewKey(client, cut)] = share(h);
      }
    }
    const budgets = Object.fromEntries(CLIENTS.map((c) => {
      const l = simulateListing(svc.skills(), c);
      return [c, { used: l.used, full: l.full, budget: l.budget, dropped: l.entries.filter((e) => e.descriptionDropped).length, cut: l.entries.filter((e) => e.cut).length, omitted: l.entries.filter((e) => e.omitted).length }];
    }));
    const targets = [...new Set(qs.flatMap((q) => q.skillIds))];
    const applied: Applied[] = [];
    for (const sc of SCENARIOS) {
      for (const mode of ['in-sample', 'held-out'] as const) {
        const t = performance.now();
        const labelled = mode === 'in-sample' ? requestsFromQueries(qs, refs) : [];
        const { report } = await runReach({ service: svc, client: sc.client, listing: listingOpts(sc.cut), labelled, rerank: true, targets, model: stats.model });
        applied.push(await measureApplied(lib, svc, qs, perView, report, sc, mode, t));
      }
    }
    return { name: lib.name, skills: svc.skills().length, requests: qs.length, views, budgets, applied, ms: Math.round(performance.now() - t0) };
  } finally {
    await svc.dispose();
  }
}

async function measureApplied(lib: Library, svc: SkillService, qs: EvalQuery[], perView: Map<string, Awaited<ReturnType<typeof hits>>>, report: ReachReport, sc: { client: ListingClient; cut?: number }, mode: Applied['mode'], t: number): Promise<Applied> {
  const words: Record<string, string[]> = {};
  for (const s of report.skills) if (s.suggest.length) words[s.id] = s.suggest;
  const listingBefore = perView.get(viewKey(sc.client, sc.cut))!;
  const fullBefore = perView.get('full')!;
  const owners = qs.map((q) => q.skillIds);
  // Skills whose listing loses half of their labelled requests (by this bench's own routing: the
  // skill first in the full text, not in the listing), and whether reach flags them.
  let losingHalf = 0;
  let flagged = 0;
  if (mode === 'in-sample') {
    for (const s of report.skills) {
      const mine = qs.map((q, i) => (q.skillIds.includes(s.id) ? i : -1)).filter((i) => i >= 0);
      const lost = mine.filter((i) => first(fullBefore.rankings[i], s.id, qs[i]) && !first(listingBefore.rankings[i], s.id, qs[i])).length;
      if (lost && lost * 2 >= mine.length) {
        losingHalf++;
        if (s.flagged) flagged++;
      }
    }
  }
  let listingAfter: boolean[] = listingBefore;
  let fullAfter: boolean[] = fullBefore;
  if (Object.keys(words).length) {
    const cut = new Set(simulateListing(svc.skills(), sc.client, listingOpts(sc.cut)).entries.filter((e) => e.cut).map((e) => e.id));
    const copy = applyWords(lib, svc, words, cut);
    const after = await openLibrary({ root: copy.root, cacheDir: copy.cache, noModel: values['no-model'] });
    try {
      await after.index();
      listingAfter = await hits(after, qs, sc.client, sc.cut);
      fullAfter = await hits(after, qs);
    } finally {
      await after.dispose();
      rmSync(path.dirname(copy.root), { recursive: true, force: true });
    }
  }
  const lost = qs.map((_, i) => fullBefore[i] && !listingBefore[i]);
  const others = qs.map((_, i) => !owners[i].some((id) => words[id]));
  const perSkill = new Map<string, number[]>();
  qs.forEach((q, i) => q.skillIds.forEach((id) => perSkill.set(id, [...(perSkill.get(id) ?? []), i])));
  let worst: Applied['worstDrop'] = null;
  for (const [id, idx] of perSkill) {
    const drop = (idx.filter((i) => listingBefore[i]).length - idx.filter((i) => listingAfter[i]).length) / idx.length;
    if (drop > 0 && (!worst || drop * 100 > worst.points)) worst = { skill: id, points: Number((drop * 100).toFixed(1)) };
  }
  const pick = (xs: boolean[], mask: boolean[]) => xs.filter((_, i) => mask[i]);
  return {
    mode,
    client: sc.client,
    cut: sc.cut ?? null,
    words,
    reachWonBack: report.totals.wonBack,
    lostHits: lost.filter(Boolean).length,
    wonBack: qs.filter((_, i) => lost[i] && listingAfter[i]).length,
    newlyLost: qs.filter((_, i) => listingBefore[i] && !listingAfter[i]).length,
    listingBefore: share(listingBefore),
    listingAfter: share(listingAfter),
    fullBefore: share(fullBefore),
    fullAfter: share(fullAfter),
    othersBefore: others.some(Boolean) ? share(pick(listingBefore, others)) : null,
    othersAfter: others.some(Boolean) ? share(pick(listingAfter, others)) : null,
    worstDrop: worst,
    losingHalf,
    flagged,
    ms: Math.round(performance.now() - t),
  };
}

/**
 * `skill-router reach` on the whole corpus as a spawned process (its index warm in the default
 * cache): cold (its reach cache removed first), then warm (read from it); and a cold run with
 * the fast options (one probe a skill, first stage only, no words).
 */
function timeCorpus(corpus: string) {
  const bin = path.resolve('bin/skill-router.js');
  rmSync(path.join(defaultCacheDir(corpus), 'reach'), { recursive: true, force: true });
  const run = (extra: string[]) => {
    const t = performance.now();
    const r = spawnSync(process.execPath, [bin, 'reach', '--library', corpus, '--json', '--quiet', ...extra], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
    const ms = performance.now() - t;
    const j = r.status === 0 ? JSON.parse(r.stdout) : null;
    return { ms: Math.round(ms), status: r.status, cached: j?.cached ?? null, totals: j?.totals ?? null, verification: j?.verification ?? null, stderr: r.status === 0 ? '' : r.stderr.slice(-2000) };
  };
  return { load: os.loadavg()[0], cold: run([]), warm: run([]), warmAgain: run([]), fastCold: run(['--probes', '1', '--no-rerank', '--no-suggest', '--no-cache']) };
}

async function main(): Promise<void> {
  const dev = parseQueries(readFileSync(values.queries!, 'utf8'), values.queries);
  let libs = [...realSuites(values.realsuites!, ['pos.jsonl']), ...collections(values.corpus!, dev)];
  if (values.only) {
    const only = new Set(values.only.split(','));
    libs = libs.filter((l) => only.has(l.name));
  }
  const results: Awaited<ReturnType<typeof evaluate>>[] = [];
  for (const lib of libs) {
    const r = await evaluate(lib);
    results.push(r);
    if (!values.quiet) process.stderr.write(`${lib.name}: ${r.ms} ms\n`);
  }
  const lines: string[] = [`Hit@1 of the labelled requests (${values['no-model'] ? 'no model' : 'model'}, rerank), full text vs each client's listing, plain / every description cut at ${CUT}`, ''];
  lines.push(`| library | skills | requests | full | ${CLIENTS.map((c) => LISTING_RULES[c].label).join(' | ')} | ${CLIENTS.map((c) => `${LISTING_RULES[c].label} @${CUT}`).join(' | ')} |`);
  lines.push(`|---|--:|--:|--:|${CLIENTS.map(() => '--:').join('|')}|${CLIENTS.map(() => '--:').join('|')}|`);
  for (const r of results) lines.push(`| ${r.name} | ${r.skills} | ${r.requests} | ${pct(r.views.full)} | ${CLIENTS.map((c) => pct(r.views[c])).join(' | ')} | ${CLIENTS.map((c) => pct(r.views[`${c}@${CUT}`])).join(' | ')} |`);
  const pooled = (key: string) => results.reduce((n, r) => n + r.views[key] * r.requests, 0) / Math.max(1, results.reduce((n, r) => n + r.requests, 0));
  lines.push(`| **pooled** | | ${results.reduce((n, r) => n + r.requests, 0)} | ${pct(pooled('full'))} | ${CLIENTS.map((c) => pct(pooled(c))).join(' | ')} | ${CLIENTS.map((c) => pct(pooled(`${c}@${CUT}`))).join(' | ')} |`);
  lines.push('', 'The suggested words applied to a copy (the quick fix), the copy routed again', '');
  lines.push('| library | scenario | words from | skills given words | lost listing hits | won back | newly lost | listing Hit@1 before → after | full-text Hit@1 before → after | others\' listing Hit@1 | worst drop of a skill | losing half / flagged |');
  lines.push('|---|---|---|--:|--:|--:|--:|--:|--:|--:|---|--:|');
  for (const r of results) {
    for (const a of r.applied) {
      const sc = `${LISTING_RULES[a.client].label}${a.cut !== null ? ` @${a.cut}` : ''}`;
      lines.push(
        `| ${r.name} | ${sc} | ${a.mode} | ${Object.keys(a.words).length} | ${a.lostHits} | ${a.wonBack} | ${a.newlyLost} | ${pct(a.listingBefore)} → ${pct(a.listingAfter)} | ${pct(a.fullBefore)} → ${pct(a.fullAfter)} | ` +
          `${a.othersBefore === null ? '-' : `${pct(a.othersBefore)} → ${pct(a.othersAfter!)}`} | ${a.worstDrop ? `${a.worstDrop.skill} −${a.worstDrop.points}` : '-'} | ${a.mode === 'in-sample' ? `${a.losingHalf} / ${a.flagged}` : ''} |`,
      );
    }
  }
  const totals = (mode: Applied['mode'], client: ListingClient, cut: number | null) => {
    const rows = results.flatMap((r) => r.applied.filter((a) => a.mode === mode && a.client === client && a.cut === cut).map((a) => ({ a, n: r.requests })));
    const sum = (f: (a: Applied) => number) => rows.reduce((n, x) => n + f(x.a), 0);
    return { libraries: rows.length, lostHits: sum((a) => a.lostHits), wonBack: sum((a) => a.wonBack), newlyLost: sum((a) => a.newlyLost), losingHalf: sum((a) => a.losingHalf), flagged: sum((a) => a.flagged), worst: Math.max(0, ...rows.map((x) => x.a.worstDrop?.points ?? 0)) };
  };
  const summary = SCENARIOS.flatMap((sc) => (['in-sample', 'held-out'] as const).map((mode) => ({ client: sc.client, cut: sc.cut ?? null, mode, ...totals(mode, sc.client, sc.cut ?? null) })));
  lines.push('', '| scenario | words from | lost listing hits | won back | newly lost | losing half / flagged | worst drop of a skill (points) |', '|---|---|--:|--:|--:|--:|--:|');
  for (const s of summary) lines.push(`| ${LISTING_RULES[s.client].label}${s.cut !== null ? ` @${s.cut}` : ''} | ${s.mode} | ${s.lostHits} | ${s.wonBack} | ${s.newlyLost} | ${s.mode === 'in-sample' ? `${s.losingHalf} / ${s.flagged}` : ''} | ${s.worst} |`);
  let corpus: ReturnType<typeof timeCorpus> | undefined;
  if (values['time-corpus']) {
    corpus = timeCorpus(values.corpus!);
    const sec = (r: { ms: number }) => `${(r.ms / 1000).toFixed(1)} s`;
    lines.push('', `skill-router reach on the corpus (load ${corpus.load.toFixed(1)}): cold ${sec(corpus.cold)}, warm ${sec(corpus.warm)} and ${sec(corpus.warmAgain)} (cached: ${corpus.warm.cached}); --probes 1 --no-rerank --no-suggest cold ${sec(corpus.fastCold)}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  mkdirSync(path.dirname(values.out!), { recursive: true });
  writeFileSync(values.out!, `${JSON.stringify({ date: new Date().toISOString(), load: os.loadavg()[0], model: !values['no-model'], cut: CUT, results, summary, ...(corpus ? { corpus } : {}) }, null, 2)}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exitCode = 2;
});
