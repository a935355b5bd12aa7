/**
 * `skill-router check`: the pre-commit and CI gate of a skill library. One run reports
 * - routing tests (`skill-router.tests.yaml`) and per-skill trigger evals (`evals/evals.json`),
 * - every skill's validation findings for the selected client profiles, including the
 *   cross-skill `skill.*` findings (copies, near-duplicates and conflicts from the engine's pair
 *   scan, with their routing evidence; skills sharing a name), under the same policy as the editor (suppression,
 *   conflict limits),
 * - each client's listing budget: name + description characters of all skills against a budget,
 * - with `reach` in the config, each skill's reach in a client's listing (`skill.unreachable`),
 * as text, JSON, SARIF 2.1.0 or JUnit XML. Exit 0 clean, 1 failed tests or error findings
 * (warnings too with --strict), 2 tool failure. This module runs the stages in order; each
 * lives in its own module (config, routing tests, judging, report formats).
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { LibraryNames, referenceFindings } from '../../core/analysis/references';
import { SameNames } from '../../core/analysis/sameNames';
import { resolveScanOptions } from '../../core/analysis/scanRun';
import type { PairFinding } from '../../core/analysis/types';
import { EVALS_FILE_NAMES, firstExisting } from '../../core/configFiles';
import { testDepth } from '../../core/eval/routingTest';
import { applyFindingPolicy } from '../../core/policy/findingPolicy';
import { effectiveBudgets, listingBudgets } from '../../core/profiles';
import type { SkillService } from '../../core/service';
import type { Finding, SkillDoc, TextRange } from '../../core/types';
import { defaultCacheDir } from '../../node/library';
import { libraryFileExists } from '../../node/skillFolderFiles';
import { EXIT_FAILURE, EXIT_FINDINGS, EXIT_OK, plural, readText, UsageError, type CliIo } from '../io';
import { ENGINE_OPTIONS, engineOptions, parseFlags, positiveInt, profileChoice, routeView, VIEW_OPTIONS, type EngineFlags, type LibraryDeps } from '../options';
import {
  DEFAULT_TOP,
  discoverTests,
  displayPath,
  exists,
  findingPolicy,
  isDirectory,
  loadConfig,
  SYNC_FILE_ACCESS,
  pairScanOptions,
} from './config';
import { cachedPairFindings, checkPairFindings } from './pairs';
import { PAIR_CODES } from '../../core/analysis/findings';
import { runDiff } from '../diff';
import { FORMATS, FORMATTERS, isFormat } from './formatters';
import { reachGateFindings } from './reachGate';
import { judgeTest, relevanceVerdict, resolveSkillRef, type TestOutcome } from './judge';
import { summarizeCheck, type CheckFinding, type CheckReport } from './report';
import { keyLines, parseRoutingTests, parseTriggerEvals, type RoutingTest } from './routingTests';

/** The engine flags of a parsed command line, as arguments again (for the diff `check --base` runs). */
function engineArgs(values: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key of ['model', 'cache', 'device', 'threads', 'reranker', 'adapter']) if (typeof values[key] === 'string') out.push(`--${key}`, values[key] as string);
  for (const key of ['no-model', 'no-bridge', 'no-adapter', 'quiet', 'verbose']) if (values[key] === true) out.push(`--${key}`);
  return out;
}

/** How the walk words a link it did not follow out of the library (node/fsWorkspace.ts). */
const OUTSIDE_LIBRARY = /^symbolic link to a (?:folder|file) outside the library/;

export const CHECK_USAGE = `Usage: skill-router check [options]

Runs the routing tests and per-skill trigger evals, reports every skill's validation findings
and each client's listing budget. Made for pre-commit hooks and CI.

Options:
  --config <file>      skill-router.yaml|yml|json (default: one in the current folder)
  --library <path>     skill folder or .jsonl library (default: config "library", else its folder)
  --format <name>      text (default), json, sarif or junit
  --changed-only       only tests and findings of skills changed in the staged git diff
  --base <git-ref>     also print the routing diff against that ref (skill-router diff), and fail
                       when a test that passed there fails now;  --max-moved <n>  or when more
                       than n requests change their first skill
  --profile <ids>      client profiles for findings: spec, claude-code, copilot, codex (repeat or comma-separate)
  --top <n>            N of "in the top N" for tests without their own (default: config "top", else 5)
  --strict             warnings fail the check too
  --no-rerank          skip the reranking stage
  --model <dir>        embedding model folder;  --no-model  lexical routing only
  --no-bridge          no Chinese-English bridge (CC-CEDICT) between requests and skills
  --reranker <dir>     cross-encoder folder;  --cache <dir>  index cache folder
  --device <name>      cpu, cuda, dml or coreml;  --threads <n>
  --quiet              no progress lines;  --verbose  engine debug lines
  -h, --help           show this help

Exit status: 0 clean, 1 failed tests or error findings (or warnings with --strict), 2 tool failure.
`;

const execFileP = promisify(execFile);

/** Absolute paths of the files in the staged diff (`git diff --cached --name-only`). */
async function stagedFiles(cwd: string): Promise<string[]> {
  try {
    const top = (await execFileP('git', ['rev-parse', '--show-toplevel'], { cwd })).stdout.trim();
    const { stdout } = await execFileP('git', ['diff', '--cached', '--name-only', '-z'], { cwd, maxBuffer: 64 * 1024 * 1024 });
    return stdout.split('\0').filter(Boolean).map((name) => path.resolve(top, name));
  } catch (err) {
    throw new UsageError(`--changed-only needs git and a repository: ${((err as { stderr?: string }).stderr || (err as Error).message).trim()}`);
  }
}

/** Is `file` inside folder `dir` (or the folder itself)? Both absolute. */
function inside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Runs `skill-router check`; returns the exit status. */
export async function runCheck(args: string[], io: CliIo, deps: LibraryDeps): Promise<number> {
  let service: SkillService | undefined;
  try {
    const { values } = parseFlags(
      () =>
        parseArgs({
          args,
          strict: true,
          allowPositionals: false,
          options: {
            ...ENGINE_OPTIONS,
            ...VIEW_OPTIONS,
            config: { type: 'string' },
            library: { type: 'string' },
            format: { type: 'string' },
            'changed-only': { type: 'boolean' },
            base: { type: 'string' },
            'max-moved': { type: 'string' },
            strict: { type: 'boolean' },
            top: { type: 'string' },
            'no-rerank': { type: 'boolean' },
            help: { type: 'boolean', short: 'h' },
          },
        }),
      'check',
    );
    if (values.help) {
      io.stdout(CHECK_USAGE);
      return EXIT_OK;
    }
    const format = values.format ?? 'text';
    if (!isFormat(format)) throw new UsageError(`unknown format "${values.format}"; use ${FORMATS.join(', ')}`);
    const show = displayPath(io.cwd);

    // Config, library root and tests file.
    const { path: configPath, config, dir: configDir } = await loadConfig(io.cwd, values.config, show);
    const root = values.library
      ? path.resolve(io.cwd, values.library)
      : config.library
        ? path.resolve(configDir, config.library)
        : configDir;
    const rootIsDir = await isDirectory(root);
    if (!rootIsDir && !(await exists(root))) throw new UsageError(`library not found: ${show(root)}`);
    const testsPath = await discoverTests(configPath, config, rootIsDir ? root : undefined, show);
    const routingTests = testsPath ? parseRoutingTests(await readText(testsPath, 'tests file'), show(testsPath)) : [];
    const defaultTop = positiveInt(values.top, '--top', config.top ?? DEFAULT_TOP);

    const flags: EngineFlags = {
      ...values,
      ...(values.model === undefined && !values['no-model'] && config.model !== undefined
        ? { model: config.model === false ? false : path.resolve(configDir, config.model) }
        : {}),
      profile: values.profile ?? config.profiles,
    };
    const opts = engineOptions(flags, io, root);
    const choice = profileChoice(flags.profile, root);
    const profilesFrom = values.profile ? '--profile' : config.profiles ? show(configPath!) : choice.from;
    const cacheDir = opts.cacheDir ?? defaultCacheDir(root);
    // Without routing tests or a reach gate, the library is read first (as `validate` reads it) and
    // opened in full only when something must route: trigger evals to run, or pair findings not
    // cached for this library and this router (told from the model's files, nothing loaded).
    const router = routingTests.length || config.reach ? null : (deps.routerIdentity?.(opts) ?? null);
    service = await deps.openLibrary(router ? { ...opts, parseOnly: true } : opts);
    let stats = await service.index({ progress: opts.progress });
    const skills = service.skills();
    const failures = service.failures();
    if (skills.length === 0 && failures.length === 0) throw new UsageError(`no SKILL.md found under ${show(root)}`);

    const skillFile = (doc: SkillDoc): string => (rootIsDir ? path.resolve(root, doc.path) : root);
    // Positions hold in SKILL.md files; a .jsonl library has none per skill.
    const withRanges = rootIsDir || root.toLowerCase().endsWith('.md');
    const skillDir = (doc: SkillDoc): string => path.dirname(skillFile(doc));
    const findings: CheckFinding[] = [];

    // Per-skill trigger evals.
    const triggerTests: RoutingTest[] = [];
    if (rootIsDir) {
      for (const doc of skills) {
        const file = await firstExisting(skillDir(doc), EVALS_FILE_NAMES, SYNC_FILE_ACCESS);
        if (!file) continue;
        const parsed = parseTriggerEvals(await readText(file, 'evals file'), show(file), doc.id);
        triggerTests.push(...parsed.tests);
        for (const p of parsed.problems) {
          const at = { line: p.line - 1, character: 0 };
          findings.push({ file: show(file), skillId: doc.id, code: 'evals.invalid-file', severity: 'error', message: p.message, range: { start: at, end: at } });
        }
      }
    }

    // --changed-only: which skills changed, and whether every test must run.
    let changed: CheckReport['changed'] = null;
    let changedIds: Set<string> | null = null;
    let staged: Set<string> | null = null;
    if (values['changed-only']) {
      const files = await stagedFiles(io.cwd);
      staged = new Set(files);
      const ids = new Set<string>();
      let allTests = false;
      for (const file of files) {
        if (file === configPath || file === testsPath || (!rootIsDir && file === root)) allTests = true;
        if (!rootIsDir) continue;
        let owner: SkillDoc | undefined;
        for (const doc of skills) {
          if (inside(file, skillDir(doc)) && (!owner || skillDir(doc).length > skillDir(owner).length)) owner = doc;
        }
        if (owner) ids.add(owner.id);
        else if (path.basename(file) === 'SKILL.md' && inside(file, root)) allTests = true; // a skill removed or unreadable
      }
      if (!rootIsDir && allTests) for (const doc of skills) ids.add(doc.id);
      changedIds = ids;
      changed = { files: files.length, skills: [...ids].sort(), allTests };
    }

    // Routing tests and trigger evals.
    const refs: { id: string; name: string }[] = skills.map((s) => ({ id: s.id, name: s.name }));
    const selected = [...routingTests, ...triggerTests].filter((t) => {
      if (!changed || changed.allTests) return true;
      const touched = [...t.expect, ...t.notExpect].flatMap((ref) => resolveSkillRef(ref, refs));
      return touched.some((s) => changedIds!.has(s.id)) || (t.owner !== undefined && changedIds!.has(t.owner));
    });
    const allTests = [...routingTests, ...triggerTests];
    const scanOptions = resolveScanOptions(opts.duplicates, pairScanOptions(config));
    let cachedPairs = router && !selected.length ? await cachedPairFindings(skills, allTests, router, scanOptions, cacheDir) : null;
    if (router && !cachedPairs) {
      const parsed = service;
      service = await deps.openLibrary(opts);
      stats = await service.index({ progress: opts.progress, parsed: { docs: skills, failed: failures } });
      await parsed.dispose();
    }
    if (!values.quiet && stats.denseDisabled && !opts.noModel && !cachedPairs) io.stderr(`note: ${stats.denseDisabled}; routing by words only\n`);
    const view = routeView(values);
    const outcomes: TestOutcome[] = [];
    for (const t of selected) {
      const topN = t.top ?? defaultTop;
      const result = await service.route(t.query, { k: testDepth(topN), rerank: !values['no-rerank'], view });
      outcomes.push(judgeTest(t, result.candidates.map((c) => c.skillId), refs, defaultTop, relevanceVerdict(result)));
    }

    // Findings of the skills (all, or the changed ones and cross-skill findings touching them),
    // less what the skills suppress, with the closest conflicts only: as the editor shows them.
    const pairsOf = new Map<string, PairFinding[]>();
    for (const p of cachedPairs ?? (await checkPairFindings(service, allTests, pairScanOptions(config), cacheDir))) {
      for (const id of new Set([p.a, p.b])) {
        const list = pairsOf.get(id);
        if (list) list.push(p);
        else pairsOf.set(id, [p]);
      }
    }
    const byId = new Map(skills.map((d) => [d.id, d]));
    const policy = findingPolicy(config);
    const sameNames = new SameNames(skills, scanOptions.acrossFolders);
    // References to other skills and to the skill's own files, as the editor reports them (a
    // .jsonl library has no files to look at).
    const names = new LibraryNames(skills);
    const fileExists = rootIsDir ? libraryFileExists(root) : undefined;
    for (const doc of skills) {
      const own = [...doc.findings, ...sameNames.findings(doc), ...referenceFindings(doc, names, fileExists)];
      for (const { finding: f } of applyFindingPolicy(doc, own, pairsOf.get(doc.id) ?? [], (id) => byId.get(id), policy)) {
        if (changedIds) {
          const touches = changedIds.has(doc.id) || (f.code.startsWith('skill.') && (f.related ?? []).some((r) => changedIds!.has(r.skillId)));
          if (!touches) continue;
        }
        findings.push(toCheckFinding(f, doc, skillFile(doc), rootIsDir ? root : null, withRanges, show));
      }
    }
    for (const failure of failures) {
      const m = /^(.*):(\d+)$/.exec(failure.path);
      const file = m && !rootIsDir ? m[1] : path.isAbsolute(failure.path) ? failure.path : path.resolve(root, failure.path);
      if (staged && !changed?.allTests && rootIsDir && !staged.has(file)) continue;
      const at = { line: m && !rootIsDir ? Number(m[2]) - 1 : 0, character: 0 };
      // A link out of the library is left out on purpose (nothing outside is read): information.
      const outside = OUTSIDE_LIBRARY.test(failure.message);
      findings.push({ file: show(file), skillId: null, code: outside ? 'file.outside-library' : 'file.unreadable', severity: outside ? 'info' : 'error', message: failure.message, range: { start: at, end: at } });
    }

    // The reach gate: skills whose requests the client's listing loses (config `reach`).
    // A skill whose near-duplicate (or copy) takes its requests has that finding instead, which
    // names the twin (as in the editor).
    if (config.reach && rootIsDir) {
      const twinned = new Set(findings.filter((f) => f.code === PAIR_CODES['near-duplicate'] || f.code === PAIR_CODES.copy).map((f) => f.skillId));
      findings.push(
        ...(await reachGateFindings({ service, gate: config.reach, tests: allTests, rerank: !values['no-rerank'], model: stats.model, root, cacheDir: opts.cacheDir, only: changedIds, skillFile, show, withRanges })).filter(
          (f) => !twinned.has(f.skillId),
        ),
      );
    }

    // Listing budgets: the selected clients', or every client's for the spec alone (it lists nothing itself).
    let budgets = effectiveBudgets(config.budgets);
    const clients = choice.profiles.filter((p) => p in budgets);
    if (clients.length) budgets = Object.fromEntries(Object.entries(budgets).filter(([client]) => (clients as string[]).includes(client)));
    const budgetReports = listingBudgets(skills, budgets);
    const over = budgetReports.filter((b) => b.over);
    if (over.length) {
      const anchor = await budgetAnchor(configPath, skills, skillFile, withRanges);
      for (const b of over) {
        findings.push({
          file: show(anchor.file),
          skillId: anchor.skillId,
          code: 'budget.listing-over',
          severity: 'warning',
          message:
            `The ${plural(b.skills, 'skill')} list ${b.used} characters of name + description, over the ` +
            `${b.client} budget of ${b.budget}: the client shortens or drops some descriptions.`,
          range: anchor.range,
          profile: b.client,
        });
      }
    }

    const report: CheckReport = {
      library: show(root),
      config: configPath ? show(configPath) : null,
      profiles: { ids: choice.profiles, from: profilesFrom },
      skills: skills.length,
      tests: outcomes,
      findings,
      budgets: budgetReports,
      checkedFiles: [...new Set(skills.filter((d) => !changedIds || changedIds.has(d.id)).map((d) => show(skillFile(d))))],
      changed,
      strict: values.strict ?? false,
    };
    io.stdout(FORMATTERS[format](report));
    let exit = summarizeCheck(report).exitCode === 0 ? EXIT_OK : EXIT_FINDINGS;
    // --base: the routing diff against a git ref too (text after the report; fails on a broken
    // test or more than --max-moved requests moved).
    if (values.base !== undefined) {
      if (format !== 'text') throw new UsageError('--base prints the routing diff as text: use it with --format text, or run `skill-router diff --format json`');
      if (!rootIsDir) throw new UsageError('--base needs a library folder in a git repository');
      await service?.dispose().catch(() => undefined);
      service = undefined;
      const diffArgs = ['--base', values.base, '--library', root, ...(values['max-moved'] !== undefined ? ['--max-moved', values['max-moved']] : []), ...engineArgs(values)];
      io.stdout('\n');
      const code = await runDiff(diffArgs, io, deps);
      if (code === EXIT_FAILURE) return code;
      if (code !== EXIT_OK) exit = EXIT_FINDINGS;
    } else if (values['max-moved'] !== undefined) {
      throw new UsageError('--max-moved limits the routing diff: use it with --base <git-ref>');
    }
    return exit;
  } catch (err) {
    if (err instanceof UsageError) io.stderr(`skill-router check: ${err.message}\n`);
    else {
      io.stderr(`skill-router check: ${(err as Error).message ?? String(err)}\n`);
      if (io.env?.SKILL_ROUTER_DEBUG) io.stderr(`${(err as Error).stack}\n`);
    }
    return EXIT_FAILURE;
  } finally {
    await service?.dispose().catch(() => undefined);
  }
}

/** An engine finding as reported; `root` is the library folder (null for a single-file library). */
function toCheckFinding(
  f: Finding,
  doc: SkillDoc,
  file: string,
  root: string | null,
  withRanges: boolean,
  show: (file: string) => string,
): CheckFinding {
  const related = (f.related ?? []).map((r) => ({
    file: show(root ? path.resolve(root, r.path) : file),
    skillId: r.skillId,
    range: r.range,
    message: r.message,
  }));
  return {
    file: show(file),
    skillId: doc.id,
    code: f.code,
    severity: f.severity,
    message: f.message,
    range: withRanges ? f.range : null,
    ...(f.profile ? { profile: f.profile } : {}),
    ...(related.length ? { related } : {}),
    ...(f.evidence ? { evidence: f.evidence } : {}),
    ...(f.suggestion ? { suggestion: f.suggestion } : {}),
  };
}

/**
 * Where an over-budget warning points: the `budgets` key of the config, else the description of
 * the skill that lists the most characters (shortening it helps most).
 */
async function budgetAnchor(
  configPath: string | undefined,
  skills: readonly SkillDoc[],
  skillFile: (doc: SkillDoc) => string,
  withRanges: boolean,
): Promise<{ file: string; skillId: string | null; range: TextRange | null }> {
  if (configPath) {
    const text = await readText(configPath, 'config');
    const line = keyLines(text, ['budgets'])[0] ?? 1;
    const at = { line: line - 1, character: 0 };
    return { file: configPath, skillId: null, range: { start: at, end: at } };
  }
  const longest = [...skills].sort((a, b) => b.name.length + b.description.length - (a.name.length + a.description.length))[0];
  return { file: skillFile(longest), skillId: longest.id, range: withRanges ? (longest.keyRanges.description ?? null) : null };
}
