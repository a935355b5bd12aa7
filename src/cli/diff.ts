/**
 * `skill-router diff --base <ref>`: what a change does to routing. The library at a git ref (the
 * base) and in the working tree (or at `--head <ref>`) route the same requests: the library's
 * routing tests and trigger evals, every skill's probe requests (as the pair findings write
 * them), and `--queries` files. The report says which requests now go to another skill first,
 * which skills gain or lose requests, which tests change from pass to fail, which near-duplicate,
 * copy and conflict findings are new or gone, and the listing budget before and after per client.
 * Each side keeps its index cache by content, so a small change on a warm cache takes seconds.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { probeRequests } from '../core/analysis/probes';
import type { PairFinding } from '../core/analysis/types';
import { EVALS_FILE_NAMES, firstExisting } from '../core/configFiles';
import { effectiveBudgets, listingBudgets, type BudgetReport } from '../core/profiles';
import type { SkillService } from '../core/service';
import type { SkillDoc } from '../core/types';
import { defaultCacheDir } from '../node/library';
import { discoverTests, displayPath, SYNC_FILE_ACCESS } from './check/config';
import { judgeTest, relevanceVerdict } from './check/judge';
import { checkPairFindings } from './check/pairs';
import { parseRoutingTests, parseTriggerEvals, type RoutingTest } from './check/routingTests';
import { EXIT_FINDINGS, EXIT_OK, readText, UsageError, type CliIo } from './io';
import { ENGINE_OPTIONS, engineOptions, parseFlags, type LibraryDeps } from './options';

export const DIFF_USAGE = `Usage: skill-router diff --base <git-ref> [options]

Routes the same requests over the library at <git-ref> and in the working tree (or at --head),
and reports what moved: requests whose first skill changed, skills that gain or lose requests,
routing tests that change from pass to fail, new and gone pair findings, and the listing budget
per client. Made for pull requests: --format markdown writes a comment or a job summary.

Options:
  --base <ref>         the git ref to compare with (a branch, tag or commit), required
  --head <ref>         compare with this ref instead of the working tree
  --staged             compare with what is staged (the next commit), for a pre-commit hook
  --library <dir>      the skill folder (default: the current folder)
  --tests <file>       routing tests (default: skill-router.tests.yaml etc. in the library)
  --queries <file>     more requests, one JSON object with "query" per line (repeatable)
  --format <name>      text (default), markdown or json
  --max-moved <n>      exit 1 when more than n requests change their first skill
  --model <dir>        embedding model folder;  --no-model  lexical routing only
  --cache <dir>        index cache folder (the base's goes in a "diff-base" folder beside it)
  --quiet              no progress lines
  -h, --help           show this help

Exit status: 0 nothing broke, 1 a routing test that passed now fails (or --max-moved is
exceeded), 2 tool failure (not a git repository, unknown ref).
`;

const execFileP = promisify(execFile);

/** One request, and where it comes from. */
export interface DiffRequest {
  query: string;
  source: 'test' | 'eval' | 'probe' | 'queries';
  /** The test it comes from, for tests and evals. */
  test?: RoutingTest;
}

/** Where one request went on one side. */
export interface SideAnswer {
  /** The first skill (id), or null: "no skill fits". */
  first: string | null;
  /** Its final score (the calibrated relevance). */
  score: number | null;
  /** Ids of the first few, best first. */
  top: string[];
  /** For a test: whether it passed. */
  passed?: boolean;
}

/** The diff, as `--format json` writes it (schema in docs/cli.md). */
export interface RoutingDiff {
  base: string;
  head: string;
  library: string;
  requests: number;
  skills: { base: number; head: number; added: string[]; removed: string[]; changed: string[] };
  moved: { query: string; source: DiffRequest['source']; from: string | null; to: string | null; fromScore: number | null; toScore: number | null }[];
  bySkill: { id: string; before: number; after: number; gained: string[]; lost: string[] }[];
  tests: { query: string; file: string; line: number; before: boolean; after: boolean }[];
  findings: { added: PairFinding[]; removed: PairFinding[] };
  budgets: { client: string; budget: number; before: number; after: number }[];
}

/** Where a request moved, from the two sides' answers. */
export function compareAnswers(requests: readonly DiffRequest[], base: readonly SideAnswer[], head: readonly SideAnswer[]): Pick<RoutingDiff, 'moved' | 'bySkill' | 'tests'> {
  const moved: RoutingDiff['moved'] = [];
  const counts = new Map<string, { before: number; after: number; gained: string[]; lost: string[] }>();
  const count = (id: string) => counts.get(id) ?? (counts.set(id, { before: 0, after: 0, gained: [], lost: [] }), counts.get(id)!);
  const tests: RoutingDiff['tests'] = [];
  requests.forEach((r, i) => {
    const b = base[i];
    const h = head[i];
    if (b.first) count(b.first).before++;
    if (h.first) count(h.first).after++;
    if (b.first !== h.first) {
      moved.push({ query: r.query, source: r.source, from: b.first, to: h.first, fromScore: b.score, toScore: h.score });
      if (b.first) count(b.first).lost.push(r.query);
      if (h.first) count(h.first).gained.push(r.query);
    }
    if (r.test && b.passed !== undefined && h.passed !== undefined && b.passed !== h.passed) {
      tests.push({ query: r.query, file: r.test.file, line: r.test.line, before: b.passed, after: h.passed });
    }
  });
  // The biggest movements first: requests by the larger score of the two, skills by net change.
  moved.sort((p, q) => Math.max(q.fromScore ?? 0, q.toScore ?? 0) - Math.max(p.fromScore ?? 0, p.toScore ?? 0) || (p.query < q.query ? -1 : 1));
  const bySkill = [...counts.entries()]
    .filter(([, c]) => c.gained.length || c.lost.length)
    .map(([id, c]) => ({ id, ...c }))
    .sort((p, q) => Math.abs(q.after - q.before) - Math.abs(p.after - p.before) || (p.id < q.id ? -1 : 1));
  return { moved, bySkill, tests };
}

const pairKey = (f: PairFinding) => `${f.kind}\n${f.a}\n${f.b}`;

/** Pair findings in `after` that `before` does not have, and the other way round. */
export function compareFindings(before: readonly PairFinding[], after: readonly PairFinding[]): RoutingDiff['findings'] {
  const b = new Set(before.map(pairKey));
  const a = new Set(after.map(pairKey));
  return { added: after.filter((f) => !b.has(pairKey(f))), removed: before.filter((f) => !a.has(pairKey(f))) };
}

/** The library at `ref` in `dir` (extracted with `git archive`): empty when the ref has no such folder. */
async function materialise(repo: string, rel: string, ref: string, dir: string): Promise<void> {
  try {
    await execFileP('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: repo });
  } catch {
    throw new UsageError(`unknown git ref "${ref}"; pass a branch, tag or commit of ${repo}`);
  }
  mkdirSync(dir, { recursive: true });
  const tar = path.join(dir, '..', `${path.basename(dir)}.tar`);
  const listed = (await execFileP('git', ['ls-tree', '-r', '--name-only', ref, '--', rel || '.'], { cwd: repo, maxBuffer: 256 * 1024 * 1024 })).stdout.trim();
  if (!listed) return;
  await execFileP('git', ['archive', '--format=tar', '-o', tar, ref, '--', rel || '.'], { cwd: repo, maxBuffer: 256 * 1024 * 1024 });
  await execFileP('tar', ['-xf', tar, '-C', dir]);
  rmSync(tar, { force: true });
}

/** The routing tests and trigger evals of a library folder. */
async function testsOf(root: string, testsFile: string | undefined, show: (f: string) => string): Promise<{ tests: RoutingTest[]; file?: string }> {
  const file = testsFile ?? (await discoverTests(undefined, {}, root, show).catch(() => undefined));
  return { tests: file && existsSync(file) ? parseRoutingTests(await readText(file, 'tests file'), show(file)) : [], ...(file ? { file } : {}) };
}

async function evalsOf(service: SkillService, root: string, show: (f: string) => string): Promise<RoutingTest[]> {
  const out: RoutingTest[] = [];
  for (const doc of service.skills()) {
    const file = await firstExisting(path.dirname(path.join(root, doc.path)), EVALS_FILE_NAMES, SYNC_FILE_ACCESS);
    if (file) out.push(...parseTriggerEvals(await readText(file, 'evals file'), show(file), doc.id).tests);
  }
  return out;
}

/** The requests both sides route: tests and evals first, then probes, then --queries; each query once. */
function requestsOf(tests: readonly RoutingTest[], docs: readonly SkillDoc[], queries: readonly string[]): DiffRequest[] {
  const out: DiffRequest[] = [];
  const seen = new Set<string>();
  const add = (r: DiffRequest) => {
    const key = r.query.trim();
    if (!key || seen.has(key)) return;
    seen.add(key);
    out.push(r);
  };
  for (const t of tests) add({ query: t.query, source: t.kind === 'trigger' ? 'eval' : 'test', test: t });
  for (const doc of docs) for (const p of probeRequests(doc, [], 3)) add({ query: p.query, source: 'probe' });
  for (const q of queries) add({ query: q, source: 'queries' });
  return out;
}

async function answer(service: SkillService, requests: readonly DiffRequest[], defaultTop: number): Promise<SideAnswer[]> {
  const refs = service.skills().map((s) => ({ id: s.id, name: s.name }));
  const out: SideAnswer[] = [];
  for (const r of requests) {
    const result = await service.route(r.query, { k: Math.max(5, r.test?.top ?? defaultTop), passages: false });
    const none = result.match === 'none' || !result.candidates.length;
    const first = none ? null : result.candidates[0];
    const a: SideAnswer = { first: first?.skillId ?? null, score: first ? round(first.scores.final) : null, top: result.candidates.slice(0, 3).map((c) => c.skillId) };
    if (r.test) a.passed = judgeTest(r.test, result.candidates.map((c) => c.skillId), refs, defaultTop, relevanceVerdict(result)).passed;
    out.push(a);
  }
  return out;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

function budgetsOf(base: readonly BudgetReport[], head: readonly BudgetReport[]): RoutingDiff['budgets'] {
  return head.map((h) => ({ client: h.client, budget: h.budget, before: base.find((b) => b.client === h.client)?.used ?? 0, after: h.used }));
}

export async function runDiff(args: string[], io: CliIo, deps: LibraryDeps): Promise<number> {
  const { values } = parseFlags(() => parseDiffArgs(args), 'diff');
  if (values.help) {
    io.stdout(DIFF_USAGE);
    return EXIT_OK;
  }
  if (!values.base) throw new UsageError('diff needs --base <git-ref>: the branch, tag or commit to compare with');
  const format = values.format ?? 'text';
  if (!['text', 'markdown', 'json'].includes(format)) throw new UsageError(`unknown format "${format}"; use text, markdown or json`);
  const maxMoved = values['max-moved'] !== undefined ? nonNegativeInt(values['max-moved'], '--max-moved') : undefined;
  const show = displayPath(io.cwd);
  const headRootGiven = path.resolve(io.cwd, values.library ?? '.');
  if (!existsSync(headRootGiven)) throw new UsageError(`library not found: ${show(headRootGiven)}`);
  const headRoot = realpathSync(headRootGiven);
  let repo: string;
  try {
    repo = realpathSync((await execFileP('git', ['rev-parse', '--show-toplevel'], { cwd: headRoot })).stdout.trim());
  } catch {
    throw new UsageError(`${show(headRoot)} is not in a git repository: diff compares the library with a git ref`);
  }
  const rel = path.relative(repo, headRoot).split(path.sep).join('/');
  const work = mkdtempSync(path.join(tmpdir(), 'skill-router-diff-'));
  const services: SkillService[] = [];
  try {
    const baseRoot = path.join(work, 'base');
    await materialise(repo, rel, values.base, baseRoot);
    const baseLib = path.join(baseRoot, rel);
    mkdirSync(baseLib, { recursive: true });
    let headLib = headRoot;
    if (values.head && values.staged) throw new UsageError('--head and --staged exclude each other: compare with a ref, or with what is staged');
    if (values.staged) {
      // What the next commit holds: the index, not the working tree.
      const dir = path.join(work, 'head');
      mkdirSync(dir, { recursive: true });
      await execFileP('git', ['checkout-index', '--all', `--prefix=${dir}${path.sep}`], { cwd: repo, maxBuffer: 64 * 1024 * 1024 });
      headLib = path.join(dir, rel);
      mkdirSync(headLib, { recursive: true });
    } else if (values.head) {
      await materialise(repo, rel, values.head, path.join(work, 'head'));
      headLib = path.join(work, 'head', rel);
      mkdirSync(headLib, { recursive: true });
    }
    const headOpts = engineOptions(values, io, headLib);
    const headLabel = values.head ?? (values.staged ? 'staged' : 'working tree');
    const cacheDir = headOpts.cacheDir ?? defaultCacheDir(headRoot);
    // The base keeps its own cache beside the head's: its vectors are the same text's (content-keyed).
    const sides = [
      { label: values.base, root: baseLib, opts: { ...engineOptions(values, io, baseLib), cacheDir: path.join(cacheDir, 'diff-base') } },
      { label: headLabel, root: headLib, opts: { ...headOpts, cacheDir: values.head || values.staged ? path.join(cacheDir, 'diff-head') : cacheDir } },
    ];
    const opened: { service: SkillService; tests: RoutingTest[] }[] = [];
    for (const side of sides) {
      const service = await deps.openLibrary(side.opts);
      services.push(service);
      await service.index({ progress: side.opts.progress });
      const own = await testsOf(side.root, values.tests ? path.resolve(io.cwd, values.tests) : undefined, show);
      opened.push({ service, tests: [...own.tests, ...(await evalsOf(service, side.root, show))] });
    }
    const [base, head] = opened;
    const queries: string[] = [];
    for (const file of values.queries ?? []) {
      for (const line of readFileSync(path.resolve(io.cwd, file), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        try {
          const q = (JSON.parse(line) as { query?: unknown }).query;
          if (typeof q === 'string') queries.push(q);
        } catch {
          throw new UsageError(`${file}: each line must be a JSON object with "query"`);
        }
      }
    }
    // The head's tests judge both sides (a test the change adds is judged before it too); then the base's.
    const requests = requestsOf([...head.tests, ...base.tests], [...head.service.skills(), ...base.service.skills()], queries);
    const defaultTop = 5;
    if (!values.quiet) io.stderr(`diff: routing ${requests.length} requests over ${base.service.skills().length} skills at ${values.base} and ${head.service.skills().length} in ${headLabel}\n`);
    const [ba, ha] = [await answer(base.service, requests, defaultTop), await answer(head.service, requests, defaultTop)];
    const compared = compareAnswers(requests, ba, ha);
    const baseIds = new Map(base.service.skills().map((d) => [d.id, d.hash]));
    const headIds = new Map(head.service.skills().map((d) => [d.id, d.hash]));
    const findings = compareFindings(
      await checkPairFindings(base.service, base.tests, {}, sides[0].opts.cacheDir),
      await checkPairFindings(head.service, head.tests, {}, sides[1].opts.cacheDir),
    );
    const budgets = effectiveBudgets(undefined);
    const diff: RoutingDiff = {
      base: values.base,
      head: headLabel,
      library: show(headRoot),
      requests: requests.length,
      skills: {
        base: baseIds.size,
        head: headIds.size,
        added: [...headIds.keys()].filter((id) => !baseIds.has(id)).sort(),
        removed: [...baseIds.keys()].filter((id) => !headIds.has(id)).sort(),
        changed: [...headIds.keys()].filter((id) => baseIds.has(id) && baseIds.get(id) !== headIds.get(id)).sort(),
      },
      ...compared,
      findings,
      budgets: budgetsOf(listingBudgets(base.service.skills(), budgets), listingBudgets(head.service.skills(), budgets)),
    };
    io.stdout(format === 'json' ? `${JSON.stringify(diff, null, 2)}\n` : format === 'markdown' ? markdownDiff(diff) : textDiff(diff));
    const broke = diff.tests.some((t) => t.before && !t.after);
    return broke || (maxMoved !== undefined && diff.moved.length > maxMoved) ? EXIT_FINDINGS : EXIT_OK;
  } finally {
    for (const s of services) await s.dispose().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
}

function nonNegativeInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a whole number, 0 or more, got "${value}"`);
  return n;
}

function parseDiffArgs(args: string[]) {
  return parseArgs({
    args,
    strict: true,
    allowPositionals: false,
    options: {
      ...ENGINE_OPTIONS,
      base: { type: 'string' },
      head: { type: 'string' },
      staged: { type: 'boolean' },
      library: { type: 'string' },
      tests: { type: 'string' },
      queries: { type: 'string', multiple: true },
      format: { type: 'string' },
      'max-moved': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

const name = (id: string | null) => (id === null ? '(no skill fits)' : id);
const score = (s: number | null) => (s === null ? '-' : s.toFixed(3));
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The diff as text, for a terminal or a hook. */
export function textDiff(d: RoutingDiff): string {
  const lines: string[] = [`Routing diff of ${d.library}: ${d.base} -> ${d.head} (${plural(d.requests, 'request')}, ${d.skills.base} -> ${d.skills.head} skills)`];
  const s = d.skills;
  if (s.added.length || s.removed.length || s.changed.length) lines.push(`skills: ${s.added.length} added, ${s.removed.length} removed, ${s.changed.length} changed`);
  if (!d.moved.length && !d.tests.length && !d.findings.added.length && !d.findings.removed.length) {
    lines.push('Nothing moved: every request goes to the same skill first, no test changes, no new finding.');
    return `${lines.join('\n')}\n`;
  }
  if (d.moved.length) {
    lines.push('', `${plural(d.moved.length, 'request')} now go to another skill first:`);
    for (const m of d.moved) lines.push(`  "${m.query}" (${m.source}): ${name(m.from)} ${score(m.fromScore)} -> ${name(m.to)} ${score(m.toScore)}`);
  }
  if (d.bySkill.length) {
    lines.push('', 'Skills that gain or lose requests (first place):');
    for (const k of d.bySkill) lines.push(`  ${k.id}: ${k.before} -> ${k.after} (+${k.gained.length} / -${k.lost.length})`);
  }
  if (d.tests.length) {
    lines.push('', 'Routing tests that changed:');
    for (const t of d.tests) lines.push(`  ${t.file}:${t.line} "${t.query}": ${t.before ? 'pass' : 'fail'} -> ${t.after ? 'pass' : 'fail'}`);
  }
  for (const [label, list] of [['New findings', d.findings.added], ['Findings gone', d.findings.removed]] as const) {
    if (!list.length) continue;
    lines.push('', `${label}:`);
    for (const f of list) lines.push(`  ${f.kind}: ${f.a} | ${f.b}`);
  }
  const budget = d.budgets.filter((b) => b.before !== b.after);
  if (budget.length) {
    lines.push('', 'Listing budget (name + description characters):');
    for (const b of budget) lines.push(`  ${b.client}: ${b.before} -> ${b.after} of ${b.budget}`);
  }
  return `${lines.join('\n')}\n`;
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The diff as Markdown: a pull-request comment or a GitHub Actions job summary. */
export function markdownDiff(d: RoutingDiff): string {
  const out: string[] = [`### Routing diff: \`${d.base}\` → ${d.head === 'working tree' ? 'this change' : `\`${d.head}\``}`, ''];
  const broke = d.tests.filter((t) => t.before && !t.after);
  out.push(
    `${plural(d.requests, 'request')} routed over ${d.skills.base} → ${d.skills.head} skills` +
      ` (${d.skills.added.length} added, ${d.skills.removed.length} removed, ${d.skills.changed.length} changed): ` +
      `**${plural(d.moved.length, 'request')} moved**, ${plural(broke.length, 'test')} broken, ${plural(d.findings.added.length, 'new finding')}.`,
    '',
  );
  if (!d.moved.length && !d.tests.length && !d.findings.added.length && !d.findings.removed.length) {
    out.push('Nothing moved.');
    return `${out.join('\n')}\n`;
  }
  if (d.tests.length) {
    out.push('| test | before | after |', '|---|---|---|');
    for (const t of d.tests) out.push(`| ${cell(t.query)} (${cell(t.file)}:${t.line}) | ${t.before ? 'pass' : 'fail'} | ${t.after ? 'pass' : '**fail**'} |`);
    out.push('');
  }
  if (d.bySkill.length) {
    out.push('| skill | requests first before | after | gained | lost |', '|---|--:|--:|--:|--:|');
    for (const k of d.bySkill.slice(0, 20)) out.push(`| \`${k.id}\` | ${k.before} | ${k.after} | ${k.gained.length} | ${k.lost.length} |`);
    out.push('');
  }
  if (d.moved.length) {
    out.push(`<details><summary>${plural(d.moved.length, 'request')} that now go to another skill first</summary>`, '', '| request | from | to |', '|---|---|---|');
    for (const m of d.moved) out.push(`| ${cell(m.query)} | ${cell(name(m.from))} ${score(m.fromScore)} | ${cell(name(m.to))} ${score(m.toScore)} |`);
    out.push('', '</details>', '');
  }
  if (d.findings.added.length || d.findings.removed.length) {
    out.push('<details><summary>Findings</summary>', '');
    for (const f of d.findings.added) out.push(`- new ${f.kind}: \`${f.a}\` / \`${f.b}\``);
    for (const f of d.findings.removed) out.push(`- gone ${f.kind}: \`${f.a}\` / \`${f.b}\``);
    out.push('', '</details>', '');
  }
  const budget = d.budgets.filter((b) => b.before !== b.after);
  if (budget.length) out.push(`Listing budget: ${budget.map((b) => `${b.client} ${b.before} → ${b.after} of ${b.budget}`).join('; ')}.`, '');
  return `${out.join('\n')}\n`;
}
