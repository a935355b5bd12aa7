/**
 * `skill-router check`: the pre-commit and CI gate of a skill library. One run reports
 * - routing tests (`skill-router.tests.yaml`) and per-skill trigger evals (`evals/evals.json`),
 * - every skill's validation findings for the selected client profiles, including the
 *   cross-skill `skill.*` findings,
 * - each client's listing budget: name + description characters of all skills against a budget,
 * as text, JSON, SARIF 2.1.0 or JUnit XML. Exit 0 clean, 1 failed tests or error findings
 * (warnings too with --strict), 2 tool failure.
 */
import { pairFindingsFor } from '../core/analysis/findings';
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { CORE_SCHEMA, load as loadYaml, YAMLException } from 'js-yaml';
import { isProfileId, PROFILES, type ProfileId } from '../core/parse/validate';
import type { SkillService } from '../core/service';
import type { SkillDoc } from '../core/types';
import type { Finding, Severity, TextRange } from '../core/types';
import {
  ENGINE_OPTIONS,
  engineOptions,
  parseFlags,
  positiveInt,
  readText,
  type EngineFlags,
  type LibraryDeps,
} from './eval';
import { EXIT_FAILURE, EXIT_FINDINGS, EXIT_OK, UsageError, type CliIo } from './io';

const TOOL_NAME = 'skill-router';
const TOOL_VERSION = '0.1.0';
/** Placeholder until the project has a public home; SARIF needs an absolute URI here. */
const TOOL_URI = 'https://github.com/skill-router/skill-router';

// ---------------------------------------------------------------------------------------------
// Configuration

/** `skill-router.yaml` / `.yml` / `.json`. Relative paths resolve against the config's folder. */
export interface CheckConfig {
  /** Skill folder or `.jsonl` library (default: the config's folder). */
  library?: string;
  /** Routing tests file (default: `skill-router.tests.yaml|yml|json` next to the config, then in the library). */
  tests?: string;
  /** Client profiles the findings are computed for (default: the engine's, `spec`). */
  profiles?: ProfileId[];
  /** Listing budgets in characters by client; `null` switches a default budget off. */
  budgets?: Record<string, number | null>;
  /** Default N of "in the top N" for tests without `top` (default 5). */
  top?: number;
  /** Embedding model folder, or `false` for lexical routing only. */
  model?: string | false;
}

export const CONFIG_NAMES = ['skill-router.yaml', 'skill-router.yml', 'skill-router.json'];
export const TESTS_NAMES = ['skill-router.tests.yaml', 'skill-router.tests.yml', 'skill-router.tests.json'];
/** Trigger-eval files looked for in every skill folder, in this order; the first found is used. */
export const EVALS_NAMES = ['evals/evals.json', 'evals.json'];

/**
 * Default listing budgets, in characters of `name + description` summed over all skills.
 * Claude Code lists skills within about 1% of the context window: 1% of 200k tokens is 2,000
 * tokens, about 8,000 characters at 4 characters a token. Codex allows about 2% (16,000). Other
 * clients (Copilot) publish no figure: add one under `budgets` to check it.
 */
export const DEFAULT_BUDGETS: Readonly<Record<string, number>> = { 'claude-code': 8000, codex: 16000 };
export const DEFAULT_TOP = 5;

const CONFIG_KEYS = ['library', 'tests', 'profiles', 'budgets', 'top', 'model'];

/** Parses YAML with the core schema (no custom types, dates stay strings) or JSON by extension. */
function parseStructured(text: string, file: string): unknown {
  if (file.toLowerCase().endsWith('.json')) {
    try {
      return JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (err) {
      throw new UsageError(`${file}: not valid JSON (${(err as Error).message})`);
    }
  }
  try {
    return loadYaml(text, { schema: CORE_SCHEMA, filename: file });
  } catch (err) {
    if (err instanceof YAMLException) {
      // Some errors (several documents in one file) carry no position.
      const at = err.mark ? `:${err.mark.line + 1}:${err.mark.column + 1}` : '';
      throw new UsageError(`${file}${at}: ${err.reason}`);
    }
    throw err;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPositiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

function stringOrList(value: unknown): string[] | undefined {
  if (typeof value === 'string' && value.trim()) return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' && v.trim())) return value as string[];
  return undefined;
}

/** Parses and checks a config file; throws UsageError naming the file and the problem. */
export function parseConfig(text: string, file: string): CheckConfig {
  const doc = parseStructured(text, file);
  if (doc === null || doc === undefined) return {};
  if (!isRecord(doc)) throw new UsageError(`${file}: the config must be a mapping of ${CONFIG_KEYS.join(', ')}`);
  const problems: string[] = [];
  const config: CheckConfig = {};
  for (const key of Object.keys(doc)) {
    if (!CONFIG_KEYS.includes(key)) problems.push(`unknown key "${key}" (known: ${CONFIG_KEYS.join(', ')})`);
  }
  for (const key of ['library', 'tests'] as const) {
    const v = doc[key];
    if (v === undefined) continue;
    if (typeof v === 'string' && v.trim()) config[key] = v;
    else problems.push(`"${key}" must be a path`);
  }
  if (doc.profiles !== undefined) {
    const list = stringOrList(doc.profiles);
    if (!list) problems.push('"profiles" must be a profile or a list of profiles');
    else {
      const bad = list.filter((p) => !isProfileId(p));
      if (bad.length) problems.push(`unknown profile ${bad.map((b) => `"${b}"`).join(', ')} (use ${PROFILES.join(', ')})`);
      else config.profiles = [...new Set(list)] as ProfileId[];
    }
  }
  if (doc.budgets !== undefined) {
    if (!isRecord(doc.budgets)) problems.push('"budgets" must map client names to character counts');
    else {
      const budgets: Record<string, number | null> = {};
      for (const [client, v] of Object.entries(doc.budgets)) {
        if (v === null || isPositiveInt(v)) budgets[client] = v;
        else problems.push(`budget of "${client}" must be a positive whole number of characters, or null`);
      }
      config.budgets = budgets;
    }
  }
  if (doc.top !== undefined) {
    if (isPositiveInt(doc.top)) config.top = doc.top;
    else problems.push('"top" must be a positive integer');
  }
  if (doc.model !== undefined && doc.model !== null) {
    if (doc.model === false) config.model = false;
    else if (typeof doc.model === 'string' && doc.model.trim()) config.model = doc.model;
    else problems.push('"model" must be a model folder, or false for lexical routing only');
  }
  if (problems.length) throw new UsageError(problems.map((p) => `${file}: ${p}`).join('\n'));
  return config;
}

/** The defaults with the config's budgets applied; clients set to null are dropped. */
export function effectiveBudgets(configured?: Record<string, number | null>): Record<string, number> {
  const merged: Record<string, number | null> = { ...DEFAULT_BUDGETS, ...configured };
  const out: Record<string, number> = {};
  for (const [client, budget] of Object.entries(merged)) if (budget !== null) out[client] = budget;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Routing tests

/** One routing expectation, from the tests file or from a skill's trigger evals. */
export interface RoutingTest {
  /** File it came from, as displayed (relative to the working folder). */
  file: string;
  /** 1-based line of the test in that file (1 when it cannot be told). */
  line: number;
  kind: 'routing' | 'trigger';
  name?: string;
  query: string;
  /** Skill names or ids that must rank in the top N. */
  expect: string[];
  /** Skill names or ids that must not rank in the top N. */
  notExpect: string[];
  /** N; the config's `top` (default 5) when absent. */
  top?: number;
  /** All expected skills within the first |expect| ranks. */
  set: boolean;
  /** For trigger evals: the id of the skill whose folder holds the file. */
  owner?: string;
}

const TEST_KEYS = ['name', 'query', 'expect', 'notExpect', 'top', 'set'];

/**
 * 1-based lines where the keys `keys` start, in file order: a YAML key at the start of a line
 * (after indentation and an optional `- `), or a quoted key after `{`, `,`, `[` or whitespace
 * (JSON and flow YAML). Used to point at the n-th test, since each test has exactly one such key.
 */
export function keyLines(text: string, keys: readonly string[]): number[] {
  const alt = keys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const re = new RegExp(`^[ \\t]*(?:-[ \\t]+)?(?:${alt})[ \\t]*:|(?:^|(?<=[\\s{,\\[]))(["'])(?:${alt})\\1[ \\t]*:`, 'gm');
  const lines: number[] = [];
  const starts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  let m: RegExpExecArray | null;
  let line = 0;
  while ((m = re.exec(text))) {
    while (line + 1 < starts.length && starts[line + 1] <= m.index) line++;
    lines.push(line + 1);
  }
  return lines;
}

/**
 * Parses `skill-router.tests.yaml` (or `.json`): a list, or `{tests: [...]}`, of
 * `{query, expect: [names or ids], notExpect?, top?, set?, name?}`. `expect` and `notExpect`
 * also take a single string. Throws UsageError listing every problem with its line.
 */
export function parseRoutingTests(text: string, file: string): RoutingTest[] {
  const doc = parseStructured(text, file);
  if (doc === null || doc === undefined) return [];
  const list = Array.isArray(doc) ? doc : isRecord(doc) && Array.isArray(doc.tests) ? doc.tests : undefined;
  if (!list) throw new UsageError(`${file}: expected a list of tests (or a mapping with "tests:")`);
  const lines = keyLines(text, ['query']);
  const lineOf = (i: number): number => (lines.length === list.length ? lines[i] : 1);
  const problems: string[] = [];
  const tests: RoutingTest[] = [];
  list.forEach((item: unknown, i: number) => {
    const at = `${file}:${lineOf(i)}: test ${i + 1}`;
    if (!isRecord(item)) {
      problems.push(`${at}: expected a mapping with "query" and "expect"`);
      return;
    }
    const here: string[] = [];
    for (const key of Object.keys(item)) if (!TEST_KEYS.includes(key)) here.push(`unknown key "${key}" (known: ${TEST_KEYS.join(', ')})`);
    const query = item.query;
    if (typeof query !== 'string' || !query.trim()) here.push('"query" must be a non-empty string');
    const expect = item.expect === undefined ? [] : stringOrList(item.expect);
    if (!expect) here.push('"expect" must be a skill name or id, or a list of them');
    const notExpect = item.notExpect === undefined ? [] : stringOrList(item.notExpect);
    if (!notExpect) here.push('"notExpect" must be a skill name or id, or a list of them');
    if (expect && notExpect && expect.length === 0 && notExpect.length === 0) here.push('a test needs "expect" or "notExpect"');
    if (item.top !== undefined && !isPositiveInt(item.top)) here.push('"top" must be a positive integer');
    if (item.set !== undefined && typeof item.set !== 'boolean') here.push('"set" must be true or false');
    if (item.set === true && expect && expect.length === 0) here.push('"set: true" needs "expect"');
    if (item.name !== undefined && typeof item.name !== 'string') here.push('"name" must be a string');
    if (here.length) {
      for (const p of here) problems.push(`${at}: ${p}`);
      return;
    }
    tests.push({
      file,
      line: lineOf(i),
      kind: 'routing',
      ...(typeof item.name === 'string' ? { name: item.name } : {}),
      query: query as string,
      expect: expect as string[],
      notExpect: notExpect as string[],
      ...(isPositiveInt(item.top) ? { top: item.top } : {}),
      set: item.set === true,
    });
  });
  if (problems.length) throw new UsageError(problems.join('\n'));
  return tests;
}

/**
 * Parses a skill's trigger evals: a JSON list, or `{evals: [...]}`, of
 * `{query (or prompt), should_trigger: boolean}` (the skill-creator trigger-eval format). Items
 * without `should_trigger` are output evals of the agentskills.io evaluation guide
 * (`{id, prompt, expected_output, ...}`) and are skipped. `should_trigger: true` becomes a test
 * expecting `skillId` in the top N, false one expecting it outside. Returns the problems instead
 * of throwing: a bad file inside a skill is a finding, not a tool failure.
 */
export function parseTriggerEvals(
  text: string,
  file: string,
  skillId: string,
): { tests: RoutingTest[]; problems: { line: number; message: string }[] } {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    return { tests: [], problems: [{ line: 1, message: `not valid JSON (${(err as Error).message})` }] };
  }
  const list = Array.isArray(doc) ? doc : isRecord(doc) && Array.isArray(doc.evals) ? doc.evals : undefined;
  if (!list) return { tests: [], problems: [{ line: 1, message: 'expected a list of evals, or a mapping with "evals"' }] };
  const lines = keyLines(text, ['query', 'prompt']);
  const lineOf = (i: number): number => (lines.length === list.length ? lines[i] : 1);
  const tests: RoutingTest[] = [];
  const problems: { line: number; message: string }[] = [];
  list.forEach((item: unknown, i: number) => {
    if (!isRecord(item) || item.should_trigger === undefined) return;
    const query = typeof item.query === 'string' ? item.query : item.prompt;
    if (typeof item.should_trigger !== 'boolean') {
      problems.push({ line: lineOf(i), message: `eval ${i + 1}: "should_trigger" must be true or false` });
    } else if (typeof query !== 'string' || !query.trim()) {
      problems.push({ line: lineOf(i), message: `eval ${i + 1}: "query" (or "prompt") must be a non-empty string` });
    } else {
      tests.push({
        file,
        line: lineOf(i),
        kind: 'trigger',
        query,
        expect: item.should_trigger ? [skillId] : [],
        notExpect: item.should_trigger ? [] : [skillId],
        set: false,
        owner: skillId,
      });
    }
  });
  return { tests, problems };
}

/** What test judging needs of a skill. */
export interface SkillRef {
  id: string;
  name: string;
}

/**
 * The skills a test's reference means: the skill with that id; else every skill with that name
 * (case-insensitive; copies in several collections share one); else every skill whose folder
 * name is that. Empty when none.
 */
export function resolveSkillRef(ref: string, skills: readonly SkillRef[]): SkillRef[] {
  const byId = skills.filter((s) => s.id === ref);
  if (byId.length) return byId;
  const lower = ref.toLowerCase();
  const byName = skills.filter((s) => s.name.toLowerCase() === lower);
  if (byName.length) return byName;
  return skills.filter((s) => (s.id.split('/').pop() ?? '').toLowerCase() === lower);
}

export interface TestOutcome extends RoutingTest {
  /** The N the test was judged with. */
  topN: number;
  passed: boolean;
  /** Why it failed; empty when it passed. */
  problems: string[];
  /** Ids of the first N ranked skills. */
  ranked: string[];
}

/**
 * Judges one test against a ranking (ids, best first, ideally longer than N so a miss can say
 * where the skill ranked). Passes when every expected skill is in the top N (with `set`, within
 * the first |expect| ranks) and no `notExpect` skill is in the top N. A reference that several
 * skills share (a name) is satisfied by its best-ranked one, and violated by any of them.
 */
export function judgeTest(
  test: RoutingTest,
  ranking: readonly string[],
  skills: readonly SkillRef[],
  defaultTop = DEFAULT_TOP,
): TestOutcome {
  const topN = test.top ?? defaultTop;
  const problems: string[] = [];
  const rankOf = (ref: SkillRef[]): number | undefined => {
    const ranks = ref.map((s) => ranking.indexOf(s.id)).filter((r) => r >= 0);
    return ranks.length ? Math.min(...ranks) + 1 : undefined;
  };
  const where = (rank: number | undefined): string =>
    rank !== undefined
      ? `it ranked ${rank}`
      : ranking.length === 0
        ? 'no skill was ranked'
        : `it is not among the ${plural(ranking.length, 'ranked skill')}`;
  const window = test.set ? test.expect.length : topN;
  for (const ref of test.expect) {
    const found = resolveSkillRef(ref, skills);
    if (!found.length) {
      problems.push(`"${ref}" is not a skill of this library`);
      continue;
    }
    const rank = rankOf(found);
    if (rank === undefined || rank > window) {
      problems.push(
        test.set
          ? `expected "${ref}" within the first ${window} (the size of the set), but ${where(rank)}`
          : `expected "${ref}" in the top ${window}, but ${where(rank)}`,
      );
    }
  }
  for (const ref of test.notExpect) {
    const found = resolveSkillRef(ref, skills);
    if (!found.length) {
      problems.push(`"${ref}" is not a skill of this library`);
      continue;
    }
    const rank = rankOf(found);
    if (rank !== undefined && rank <= topN) problems.push(`expected "${ref}" outside the top ${topN}, but it ranked ${rank}`);
  }
  return { ...test, topN, passed: problems.length === 0, problems, ranked: ranking.slice(0, topN) };
}

// ---------------------------------------------------------------------------------------------
// Listing budgets

export interface BudgetReport {
  client: string;
  /** Characters allowed. */
  budget: number;
  /** Characters of `name + description` summed over all skills (UTF-16 code units). */
  used: number;
  skills: number;
  over: boolean;
}

/** Each client's listing size against its budget, in client name order. */
export function listingBudgets(
  skills: readonly { name: string; description: string }[],
  budgets: Record<string, number>,
): BudgetReport[] {
  const used = skills.reduce((sum, s) => sum + s.name.length + s.description.length, 0);
  return Object.keys(budgets)
    .sort()
    .map((client) => ({ client, budget: budgets[client], used, skills: skills.length, over: used > budgets[client] }));
}

// ---------------------------------------------------------------------------------------------
// The report and its formats

/** One finding as reported: paths relative to the working folder, `/`-separated. */
export interface CheckFinding {
  file: string;
  /** The skill it belongs to; null for findings on other files (config, evals). */
  skillId: string | null;
  code: string;
  severity: Severity;
  message: string;
  /** Zero-based, end-exclusive; null when only the file is known. */
  range: TextRange | null;
  profile?: string;
  related?: { file: string; skillId: string; range: TextRange; message: string }[];
}

export interface CheckReport {
  /** Library as displayed. */
  library: string;
  config: string | null;
  skills: number;
  tests: TestOutcome[];
  findings: CheckFinding[];
  budgets: BudgetReport[];
  /** Skill files whose findings were checked (all, or the changed ones), as displayed. */
  checkedFiles: string[];
  /** Set with --changed-only. */
  changed: { files: number; skills: string[]; allTests: boolean } | null;
  strict: boolean;
}

export interface CheckSummary {
  tests: number;
  passed: number;
  failed: number;
  errors: number;
  warnings: number;
  infos: number;
  exitCode: 0 | 1;
}

/** Counts, and the exit code: 1 on a failed test or an error finding, or a warning with strict. */
export function summarizeCheck(report: CheckReport): CheckSummary {
  const failed = report.tests.filter((t) => !t.passed).length;
  const count = (s: Severity): number => report.findings.filter((f) => f.severity === s).length;
  const errors = count('error');
  const warnings = count('warning');
  const fails = failed > 0 || errors > 0 || (report.strict && warnings > 0);
  return {
    tests: report.tests.length,
    passed: report.tests.length - failed,
    failed,
    errors,
    warnings,
    infos: count('info'),
    exitCode: fails ? 1 : 0,
  };
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

function sortFindings(findings: CheckFinding[]): CheckFinding[] {
  const key = (f: CheckFinding): [string, number, number, string] => [
    f.file,
    f.range?.start.line ?? -1,
    f.range?.start.character ?? -1,
    f.code,
  ];
  return [...findings].sort((a, b) => {
    const [fa, la, ca, xa] = key(a);
    const [fb, lb, cb, xb] = key(b);
    return fa < fb ? -1 : fa > fb ? 1 : la - lb || ca - cb || (xa < xb ? -1 : xa > xb ? 1 : 0);
  });
}

function position(f: { range: TextRange | null }): string {
  return f.range ? `:${f.range.start.line + 1}:${f.range.start.character + 1}` : '';
}

/** Human-readable report, grouped by section, ending in one summary line. */
export function formatText(report: CheckReport): string {
  const out: string[] = [];
  const summary = summarizeCheck(report);
  out.push(`skill-router check: ${plural(report.skills, 'skill')} in ${report.library}`);
  if (report.changed) {
    const c = report.changed;
    out.push(
      `changed only: ${plural(c.files, 'staged file')}, ${plural(c.skills.length, 'skill')} changed` +
        (c.allTests ? '; tests or config changed, so every test runs' : ''),
    );
  }
  out.push('');
  const failed = report.tests.filter((t) => !t.passed);
  out.push(`Routing tests: ${report.tests.length} run, ${summary.passed} passed, ${summary.failed} failed`);
  for (const t of failed) {
    out.push(`  FAIL ${t.file}:${t.line}  ${JSON.stringify(t.name ?? t.query)}`);
    if (t.name !== undefined) out.push(`       query: ${JSON.stringify(t.query)}`);
    for (const p of t.problems) out.push(`       ${p}`);
    out.push(`       top ${t.topN}: ${t.ranked.length ? t.ranked.map((id, i) => `${i + 1} ${id}`).join(', ') : '(nothing)'}`);
  }
  out.push('');

  const sorted = sortFindings(report.findings);
  const skillWide = sorted.filter((f) => f.code.startsWith('skill.'));
  const local = sorted.filter((f) => !f.code.startsWith('skill.'));
  const line = (f: CheckFinding, withFile: boolean): string[] => [
    `  ${withFile ? `${f.file}${position(f)}` : position(f).slice(1) || '-'}  ${f.severity}  ${f.code}  ${f.message}` +
      (f.profile ? ` [${f.profile}]` : ''),
    ...(f.related ?? []).map((r) => `      see ${r.file}:${r.range.start.line + 1}:${r.range.start.character + 1}  ${r.message}`),
  ];
  out.push(`Findings: ${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}, ${summary.infos} info`);
  let file = '';
  for (const f of local) {
    if (f.file !== file) {
      file = f.file;
      out.push(`  ${file}`);
    }
    out.push(...line(f, false).map((l) => `  ${l}`));
  }
  if (skillWide.length) {
    out.push('');
    out.push('Across skills (skill.*):');
    for (const f of skillWide) out.push(...line(f, true));
  }
  out.push('');

  out.push(`Listing budgets (name + description characters of ${plural(report.skills, 'skill')}):`);
  if (!report.budgets.length) out.push('  (none configured)');
  const width = Math.max(0, ...report.budgets.map((b) => b.client.length));
  for (const b of report.budgets) {
    const pct = ((b.used / b.budget) * 100).toFixed(1);
    out.push(`  ${b.client.padEnd(width)}  ${String(b.used).padStart(7)} of ${String(b.budget).padStart(7)}  ${pct.padStart(6)}%${b.over ? '  OVER BUDGET' : ''}`);
  }
  out.push('');

  const counts = `${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}`;
  out.push(
    summary.exitCode === 0
      ? `check passed: ${summary.passed} of ${plural(summary.tests, 'test')} passed, ${counts}`
      : `check failed: ${summary.failed} of ${plural(summary.tests, 'test')} failed, ${counts}` +
          (report.strict && summary.warnings > 0 && summary.errors === 0 && summary.failed === 0 ? ' (--strict)' : ''),
  );
  return out.join('\n') + '\n';
}

/**
 * The JSON format (`--format json`), version 1 (documented in docs/cli.md). Positions are
 * 1-based; `endColumn` is the column after the last character.
 */
export function checkJson(report: CheckReport): Record<string, unknown> {
  const summary = summarizeCheck(report);
  const pos = (r: TextRange | null) =>
    r
      ? { line: r.start.line + 1, column: r.start.character + 1, endLine: r.end.line + 1, endColumn: r.end.character + 1 }
      : { line: null, column: null, endLine: null, endColumn: null };
  return {
    version: 1,
    library: report.library,
    config: report.config,
    skills: report.skills,
    changedOnly: report.changed,
    summary,
    tests: report.tests.map((t) => ({
      file: t.file,
      line: t.line,
      kind: t.kind,
      name: t.name ?? null,
      query: t.query,
      expect: t.expect,
      notExpect: t.notExpect,
      top: t.topN,
      set: t.set,
      passed: t.passed,
      problems: t.problems,
      ranked: t.ranked,
    })),
    findings: sortFindings(report.findings).map((f) => ({
      file: f.file,
      ...pos(f.range),
      skillId: f.skillId,
      code: f.code,
      severity: f.severity,
      message: f.message,
      profile: f.profile ?? null,
      related: (f.related ?? []).map((r) => ({ file: r.file, skillId: r.skillId, ...pos(r.range), message: r.message })),
    })),
    budgets: report.budgets,
  };
}

/** Short descriptions of the codes this command raises itself; engine codes describe themselves by id. */
const RULE_TEXT: Record<string, string> = {
  'routing.test-failed': 'A routing test or trigger eval failed: the expected skill did not rank where the test requires.',
  'budget.listing-over': "The names and descriptions of all skills exceed a client's listing budget.",
  'evals.invalid-file': 'A trigger-eval file inside a skill could not be read.',
  'file.unreadable': 'A skill file could not be read or parsed.',
};

const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

/** A file path as a SARIF URI: relative paths stay relative (percent-encoded), absolute ones become file URIs. */
function artifactUri(file: string): string {
  if (path.isAbsolute(file)) return `file://${file.split(path.sep).map(encodeURIComponent).join('/')}`;
  return file.split('/').map(encodeURIComponent).join('/');
}

function sarifRegion(range: TextRange | null): Record<string, number> | undefined {
  if (!range) return undefined;
  return {
    startLine: range.start.line + 1,
    startColumn: range.start.character + 1,
    endLine: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}

/**
 * SARIF 2.1.0: one run, rules = the codes that occur, a result per finding and per failed test
 * (on the tests or evals file, at the test's line). URIs are relative to the working folder,
 * which is the repository root when run from a hook or CI.
 */
export function formatSarif(report: CheckReport): Record<string, unknown> {
  interface Pending {
    ruleId: string;
    level: 'error' | 'warning' | 'note';
    message: string;
    file: string;
    range: TextRange | null;
    related?: CheckFinding['related'];
    profile?: string;
  }
  const pending: Pending[] = sortFindings(report.findings).map((f) => ({
    ruleId: f.code,
    level: SARIF_LEVEL[f.severity],
    message: f.message,
    file: f.file,
    range: f.range,
    ...(f.related?.length ? { related: f.related } : {}),
    ...(f.profile ? { profile: f.profile } : {}),
  }));
  for (const t of report.tests.filter((x) => !x.passed)) {
    const col = { line: t.line - 1, character: 0 };
    pending.push({
      ruleId: 'routing.test-failed',
      level: 'error',
      message: `Routing test ${JSON.stringify(t.name ?? t.query)} failed: ${t.problems.join('; ')}. Top ${t.topN}: ${t.ranked.join(', ') || '(nothing)'}.`,
      file: t.file,
      range: { start: col, end: col },
    });
  }
  const ruleIds = [...new Set(pending.map((p) => p.ruleId))].sort();
  const levels = new Map<string, string>();
  for (const p of pending) if (!levels.has(p.ruleId)) levels.set(p.ruleId, p.level);
  const rules = ruleIds.map((id) => ({
    id,
    name: id.replace(/[.-](\w)/g, (_, c: string) => c.toUpperCase()),
    shortDescription: { text: RULE_TEXT[id] ?? id },
    defaultConfiguration: { level: levels.get(id) },
  }));
  const results = pending.map((p) => {
    const region = sarifRegion(p.range);
    return {
      ruleId: p.ruleId,
      ruleIndex: ruleIds.indexOf(p.ruleId),
      level: p.level,
      message: { text: p.message },
      locations: [{ physicalLocation: { artifactLocation: { uri: artifactUri(p.file) }, ...(region ? { region } : {}) } }],
      ...(p.related
        ? {
            relatedLocations: p.related.map((r, i) => ({
              id: i + 1,
              message: { text: r.message },
              physicalLocation: { artifactLocation: { uri: artifactUri(r.file) }, region: sarifRegion(r.range) },
            })),
          }
        : {}),
      ...(p.profile ? { properties: { profile: p.profile } } : {}),
    };
  });
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: TOOL_NAME, version: TOOL_VERSION, informationUri: TOOL_URI, rules } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}

/** Escapes text for XML content and attributes, dropping characters XML 1.0 cannot hold. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * JUnit XML: suite "routing" (a case per test), suite "skills" (a case per checked skill file and
 * per other file with findings,
 * failing on error findings, or warnings with --strict; other findings go to system-out) and
 * suite "budgets" (a case per client, failing when over budget only with --strict).
 */
export function formatJunit(report: CheckReport): string {
  const attr = (name: string, value: string | number): string => ` ${name}="${xmlEscape(String(value))}"`;
  const suites: { name: string; cases: { classname: string; name: string; failure?: { type: string; message: string; body: string }; out?: string }[] }[] = [];

  suites.push({
    name: 'routing',
    cases: report.tests.map((t) => ({
      classname: t.file,
      name: `line ${t.line}: ${t.name ?? t.query}`.slice(0, 200),
      ...(t.passed
        ? {}
        : {
            failure: {
              type: 'routing.test-failed',
              message: t.problems[0] ?? 'failed',
              body: [...t.problems, `top ${t.topN}: ${t.ranked.join(', ') || '(nothing)'}`].join('\n'),
            },
          }),
    })),
  });

  const byFile = new Map<string, CheckFinding[]>([...new Set(report.checkedFiles)].sort().map((f) => [f, []]));
  for (const f of sortFindings(report.findings)) {
    if (f.code === 'budget.listing-over') continue;
    byFile.set(f.file, [...(byFile.get(f.file) ?? []), f]);
  }
  const failing = (f: CheckFinding): boolean => f.severity === 'error' || (report.strict && f.severity === 'warning');
  const describe = (f: CheckFinding): string => `${f.file}${position(f)} ${f.severity} ${f.code}: ${f.message}`;
  suites.push({
    name: 'skills',
    cases: [...byFile.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([file, findings]) => {
      const bad = findings.filter(failing);
      const rest = findings.filter((f) => !failing(f));
      return {
        classname: 'skills',
        name: file,
        ...(bad.length ? { failure: { type: bad[0].code, message: bad[0].message, body: bad.map(describe).join('\n') } } : {}),
        ...(rest.length ? { out: rest.map(describe).join('\n') } : {}),
      };
    }),
  });

  suites.push({
    name: 'budgets',
    cases: report.budgets.map((b) => {
      const text = `${b.used} of ${b.budget} characters (${plural(b.skills, 'skill')})`;
      return {
        classname: 'budgets',
        name: b.client,
        ...(b.over && report.strict ? { failure: { type: 'budget.listing-over', message: `over budget: ${text}`, body: text } } : {}),
        out: b.over ? `over budget: ${text}` : text,
      };
    }),
  });

  const total = suites.reduce((n, s) => n + s.cases.length, 0);
  const failures = suites.reduce((n, s) => n + s.cases.filter((c) => c.failure).length, 0);
  const xml: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  xml.push(`<testsuites${attr('name', 'skill-router check')}${attr('tests', total)}${attr('failures', failures)}${attr('errors', 0)}>`);
  for (const s of suites) {
    const sf = s.cases.filter((c) => c.failure).length;
    xml.push(`  <testsuite${attr('name', s.name)}${attr('tests', s.cases.length)}${attr('failures', sf)}${attr('errors', 0)}${attr('skipped', 0)}>`);
    for (const c of s.cases) {
      const open = `    <testcase${attr('classname', c.classname)}${attr('name', c.name)}`;
      if (!c.failure && !c.out) {
        xml.push(`${open}/>`);
        continue;
      }
      xml.push(`${open}>`);
      if (c.failure) {
        xml.push(`      <failure${attr('type', c.failure.type)}${attr('message', c.failure.message)}>${xmlEscape(c.failure.body)}</failure>`);
      }
      if (c.out) xml.push(`      <system-out>${xmlEscape(c.out)}</system-out>`);
      xml.push('    </testcase>');
    }
    xml.push('  </testsuite>');
  }
  xml.push('</testsuites>');
  return xml.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------
// The command

export const CHECK_USAGE = `Usage: skill-router check [options]

Runs the routing tests and per-skill trigger evals, reports every skill's validation findings
and each client's listing budget. Made for pre-commit hooks and CI.

Options:
  --config <file>      skill-router.yaml|yml|json (default: one in the current folder)
  --library <path>     skill folder or .jsonl library (default: config "library", else its folder)
  --format <name>      text (default), json, sarif or junit
  --changed-only       only tests and findings of skills changed in the staged git diff
  --profile <ids>      client profiles for findings: spec, claude-code, copilot, codex (repeat or comma-separate)
  --top <n>            N of "in the top N" for tests without their own (default: config "top", else 5)
  --strict             warnings fail the check too
  --no-rerank          skip the reranking stage
  --model <dir>        embedding model folder;  --no-model  lexical routing only
  --reranker <dir>     cross-encoder folder;  --cache <dir>  index cache folder
  --device <name>      cpu, cuda, dml or coreml;  --threads <n>
  --quiet              no progress lines;  --verbose  engine debug lines
  -h, --help           show this help

Exit status: 0 clean, 1 failed tests or error findings (or warnings with --strict), 2 tool failure.
`;

const FORMATS = ['text', 'json', 'sarif', 'junit'] as const;
type Format = (typeof FORMATS)[number];

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

async function isDirectory(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isDirectory();
  } catch {
    return false;
  }
}

async function firstExisting(dir: string, names: readonly string[]): Promise<string | undefined> {
  for (const name of names) {
    const candidate = path.join(dir, name);
    if (await exists(candidate)) return candidate;
  }
  return undefined;
}

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
            config: { type: 'string' },
            library: { type: 'string' },
            format: { type: 'string' },
            'changed-only': { type: 'boolean' },
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
    const format = (values.format ?? 'text') as Format;
    if (!FORMATS.includes(format)) throw new UsageError(`unknown format "${values.format}"; use ${FORMATS.join(', ')}`);
    const show = (file: string): string => {
      const rel = path.relative(io.cwd, file);
      return rel === '' ? '.' : rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
    };

    // Config, library root and tests file.
    const configPath = values.config ? path.resolve(io.cwd, values.config) : await firstExisting(io.cwd, CONFIG_NAMES);
    const config = configPath ? parseConfig(await readText(configPath, 'config'), show(configPath)) : {};
    const configDir = configPath ? path.dirname(configPath) : io.cwd;
    const root = values.library
      ? path.resolve(io.cwd, values.library)
      : config.library
        ? path.resolve(configDir, config.library)
        : configDir;
    const rootIsDir = await isDirectory(root);
    if (!rootIsDir && !(await exists(root))) throw new UsageError(`library not found: ${show(root)}`);
    let testsPath: string | undefined;
    if (config.tests) {
      testsPath = path.resolve(configDir, config.tests);
      if (!(await exists(testsPath))) throw new UsageError(`tests file not found: ${show(testsPath)} (from ${show(configPath!)})`);
    } else {
      testsPath = (configPath ? await firstExisting(configDir, TESTS_NAMES) : undefined) ?? (rootIsDir ? await firstExisting(root, TESTS_NAMES) : undefined);
    }
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
    service = await deps.openLibrary(opts);
    const stats = await service.index({ progress: opts.progress });
    const skills = service.skills();
    const failures = service.failures();
    if (skills.length === 0 && failures.length === 0) throw new UsageError(`no SKILL.md found under ${show(root)}`);
    if (!values.quiet && stats.denseDisabled && !opts.noModel) io.stderr(`note: ${stats.denseDisabled}; routing by words only\n`);

    const skillFile = (doc: SkillDoc): string => (rootIsDir ? path.resolve(root, doc.path) : root);
    // Positions hold in SKILL.md files; a .jsonl library has none per skill.
    const withRanges = rootIsDir || root.toLowerCase().endsWith('.md');
    const skillDir = (doc: SkillDoc): string => path.dirname(skillFile(doc));
    const findings: CheckFinding[] = [];

    // Per-skill trigger evals.
    const triggerTests: RoutingTest[] = [];
    if (rootIsDir) {
      for (const doc of skills) {
        const file = await firstExisting(skillDir(doc), EVALS_NAMES);
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
    const outcomes: TestOutcome[] = [];
    for (const t of selected) {
      const topN = t.top ?? defaultTop;
      const result = await service.route(t.query, { k: Math.max(topN, 10), rerank: !values['no-rerank'] });
      outcomes.push(judgeTest(t, result.candidates.map((c) => c.skillId), refs, defaultTop));
    }

    // Findings of the skills (all, or the changed ones and cross-skill findings touching them).
    const pairs = service.pairFindings();
    const byId = new Map(skills.map((d) => [d.id, d]));
    for (const doc of skills) {
      for (const f of [...doc.findings, ...pairFindingsFor(doc, pairs, (id) => byId.get(id))]) {
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
      findings.push({ file: show(file), skillId: null, code: 'file.unreadable', severity: 'error', message: failure.message, range: { start: at, end: at } });
    }

    // Listing budgets, for the selected profiles' clients when profiles were chosen.
    let budgets = effectiveBudgets(config.budgets);
    if (opts.profiles) budgets = Object.fromEntries(Object.entries(budgets).filter(([client]) => (opts.profiles as readonly string[]).includes(client)));
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
      skills: skills.length,
      tests: outcomes,
      findings,
      budgets: budgetReports,
      checkedFiles: [...new Set(skills.filter((d) => !changedIds || changedIds.has(d.id)).map((d) => show(skillFile(d))))],
      changed,
      strict: values.strict ?? false,
    };
    if (format === 'text') io.stdout(formatText(report));
    else if (format === 'json') io.stdout(JSON.stringify(checkJson(report), null, 2) + '\n');
    else if (format === 'sarif') io.stdout(JSON.stringify(formatSarif(report), null, 2) + '\n');
    else io.stdout(formatJunit(report));
    return summarizeCheck(report).exitCode === 0 ? EXIT_OK : EXIT_FINDINGS;
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
