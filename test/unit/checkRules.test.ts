import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findingPolicy, parseConfig } from '../../src/cli/check/config';
import { judgeTest, resolveSkillRef } from '../../src/cli/check/judge';
import { summarizeCheck, type CheckReport } from '../../src/cli/check/report';
import { keyLines, parseRoutingTests, parseTriggerEvals } from '../../src/cli/check/routingTests';
import { runCheck } from '../../src/cli/check/runCheck';
import { DEFAULT_FINDING_POLICY } from '../../src/core/policy/findingPolicy';
import { effectiveBudgets, listingBudgets } from '../../src/core/profiles';
import type { RouteResult, SkillService } from '../../src/core/service';
import type { SkillDoc } from '../../src/core/types';
import type { Finding } from '../../src/core/types';
import { range, skills, test } from '../helpers/checkFixtures';

describe('check: config', () => {
  it('parses YAML and JSON configs', () => {
    const yaml = 'library: skills\ntests: t.yaml\nprofiles: [spec, claude-code]\nbudgets:\n  claude-code: 4000\n  codex: null\n  copilot: 12000\ntop: 3\nmodel: false\n';
    assert.deepEqual(parseConfig(yaml, 'skill-router.yaml'), {
      library: 'skills',
      tests: 't.yaml',
      profiles: ['spec', 'claude-code'],
      budgets: { 'claude-code': 4000, codex: null, copilot: 12000 },
      top: 3,
      model: false,
    });
    assert.deepEqual(parseConfig('{"library": "lib", "profiles": "codex", "model": "models/e5"}', 'skill-router.json'), {
      library: 'lib',
      profiles: ['codex'],
      model: 'models/e5',
    });
    assert.deepEqual(parseConfig('# nothing yet\n', 'skill-router.yaml'), {});
  });

  it('rejects unknown keys, bad values and unknown profiles, naming the file', () => {
    assert.throws(() => parseConfig('budget: {claude-code: 1}\n', 'c.yaml'), /^Error: c\.yaml: unknown key "budget"/);
    assert.throws(() => parseConfig('top: 0\n', 'c.yaml'), /"top" must be a positive integer/);
    assert.throws(() => parseConfig('budgets: {codex: lots}\n', 'c.yaml'), /budget of "codex" must be a positive whole number/);
    assert.throws(() => parseConfig('profiles: [claude]\n', 'c.yaml'), /unknown profile "claude"/);
    assert.throws(() => parseConfig('- a\n- b\n', 'c.yaml'), /must be a mapping/);
    assert.throws(() => parseConfig('{"top": 2,}', 'c.json'), /c\.json: not valid JSON/);
  });

  it('reads the conflict limits the editor has as settings, and checks them', () => {
    assert.deepEqual(parseConfig('conflict:\n  threshold: 0.4\n  maxPerSkill: 3\n', 'c.yaml'), { conflict: { threshold: 0.4, maxPerSkill: 3 } });
    assert.deepEqual(parseConfig('conflict: {maxPerSkill: 1000}\n', 'c.yaml'), { conflict: { maxPerSkill: 1000 } });
    assert.deepEqual(findingPolicy(parseConfig('conflict: {threshold: 0.5}\n', 'c.yaml')), { conflict: { threshold: 0.5, maxPerSkill: 5 } });
    assert.deepEqual(findingPolicy({}), DEFAULT_FINDING_POLICY);
    assert.throws(() => parseConfig('conflict: 3\n', 'c.yaml'), /c\.yaml: "conflict" must be a mapping of threshold, maxPerSkill/);
    assert.throws(() => parseConfig('conflict: {threshold: 2}\n', 'c.yaml'), /"conflict\.threshold" must be a number from 0 to 1/);
    assert.throws(() => parseConfig('conflict: {maxPerSkill: 1.5}\n', 'c.yaml'), /"conflict\.maxPerSkill" must be a whole number from 1 to 1000/);
    assert.throws(() => parseConfig('conflict: {max: 1}\n', 'c.yaml'), /unknown key "conflict\.max" \(known: threshold, maxPerSkill\)/);
  });

  it('reports YAML syntax errors with line and column', () => {
    assert.throws(() => parseConfig('library: skills\ntop: [1, 2\n', 'c.yaml'), /^Error: c\.yaml:\d+:\d+: /);
  });

  it('loads YAML with a safe schema: no JS types, dates stay strings', () => {
    assert.throws(() => parseConfig('library: !!js/function "function () { return 1 }"\n', 'c.yaml'), /unknown tag/);
    assert.deepEqual(parseConfig('library: 2024-01-01\n', 'c.yaml'), { library: '2024-01-01' });
  });

  it('merges budgets over the defaults; null switches a client off', () => {
    assert.deepEqual(effectiveBudgets(), { 'claude-code': 8000, codex: 16000 });
    assert.deepEqual(effectiveBudgets({ codex: null, copilot: 5000 }), { 'claude-code': 8000, copilot: 5000 });
  });
});

describe('check: tests files', () => {
  it('parses routing tests with their lines', () => {
    const text = [
      '# routing tests',
      '- query: pull tables out of a PDF',
      '  expect: pdf-extract',
      '- name: two at once',
      '  query: "chart it and email it"',
      '  expect: [csv-charts, email-drafting]',
      '  set: true',
      '  top: 3',
      '- query: a plain email',
      '  notExpect:',
      '    - csv-charts',
    ].join('\n');
    const tests = parseRoutingTests(text, 'tests.yaml');
    assert.deepEqual(
      tests.map((t) => [t.line, t.query, t.expect, t.notExpect, t.set, t.top, t.name]),
      [
        [2, 'pull tables out of a PDF', ['pdf-extract'], [], false, undefined, undefined],
        [5, 'chart it and email it', ['csv-charts', 'email-drafting'], [], true, 3, 'two at once'],
        [9, 'a plain email', [], ['csv-charts'], false, undefined, undefined],
      ],
    );
  });

  it('accepts {tests: [...]} and JSON', () => {
    assert.equal(parseRoutingTests('tests:\n  - query: a\n    expect: b\n', 't.yaml').length, 1);
    const json = '[\n  {"query": "a", "expect": ["b"]},\n  {"query": "c", "notExpect": "d"}\n]';
    assert.deepEqual(parseRoutingTests(json, 't.json').map((t) => t.line), [2, 3]);
    assert.deepEqual(parseRoutingTests('', 't.yaml'), []);
  });

  it('lists every bad test with its line', () => {
    const text = '- query: ok\n  expect: a\n- query: ""\n  expect: a\n- query: x\n  expected: a\n- query: y\n  expect: a\n  top: -1\n  set: yes\n';
    assert.throws(
      () => parseRoutingTests(text, 't.yaml'),
      (err: Error) => {
        assert.match(err.message, /^t\.yaml:3: test 2: "query" must be a non-empty string$/m);
        assert.match(err.message, /^t\.yaml:5: test 3: unknown key "expected"/m);
        assert.match(err.message, /^t\.yaml:5: test 3: a test needs "expect", "notExpect" or "none: true"$/m);
        assert.match(err.message, /^t\.yaml:7: test 4: "top" must be a positive integer$/m);
        assert.match(err.message, /^t\.yaml:7: test 4: "set" must be true or false$/m);
        return true;
      },
    );
    assert.throws(() => parseRoutingTests('query: a\n', 't.yaml'), /expected a list of tests/);
  });

  it('finds key lines in YAML and JSON, not inside values', () => {
    const yaml = '- query: "find the query: here"\n  expect: a\n-   query: b\n';
    assert.deepEqual(keyLines(yaml, ['query']), [1, 3]);
    assert.deepEqual(keyLines('[{"query": "a \\"query\\": b"}, {"prompt": "c"}]', ['query', 'prompt']), [1, 1]);
  });

  it('reads trigger evals: a list or {evals}, query or prompt; output evals are skipped', () => {
    const text = JSON.stringify(
      {
        skill_name: 'pdf-extract',
        evals: [
          { query: 'extract the tables', should_trigger: true },
          { prompt: 'write a poem', should_trigger: false },
          { id: 1, prompt: 'Pull totals', expected_output: 'CSV' },
        ],
      },
      null,
      2,
    );
    const { tests, problems } = parseTriggerEvals(text, 'evals/evals.json', 'tools/pdf-extract');
    assert.deepEqual(problems, []);
    assert.deepEqual(
      tests.map((t) => [t.line, t.kind, t.query, t.expect, t.notExpect, t.owner]),
      [
        [5, 'trigger', 'extract the tables', ['tools/pdf-extract'], [], 'tools/pdf-extract'],
        [9, 'trigger', 'write a poem', [], ['tools/pdf-extract'], 'tools/pdf-extract'],
      ],
    );
    assert.equal(parseTriggerEvals('[{"query": "a", "should_trigger": true}]', 'e.json', 'x').tests.length, 1);
  });

  it('returns problems of a bad trigger-evals file instead of throwing', () => {
    assert.match(parseTriggerEvals('{', 'e.json', 'x').problems[0].message, /not valid JSON/);
    assert.match(parseTriggerEvals('{"a": 1}', 'e.json', 'x').problems[0].message, /expected a list/);
    const bad = parseTriggerEvals('[\n{"query": "a", "should_trigger": "yes"},\n{"should_trigger": true}\n]', 'e.json', 'x');
    assert.deepEqual(bad.problems.map((p) => p.line), [1, 1]);
    assert.match(bad.problems[0].message, /"should_trigger" must be true or false/);
    assert.match(bad.problems[1].message, /"query" \(or "prompt"\)/);
  });
});

describe('check: routing test rules', () => {
  it('resolves references by id, then name (all copies), then folder name', () => {
    assert.deepEqual(resolveSkillRef('tools/pdf-extract', skills).map((s) => s.id), ['tools/pdf-extract']);
    assert.deepEqual(resolveSkillRef('Email-Drafting', skills).map((s) => s.id), ['mail/email-drafting', 'copies/email-drafting']);
    assert.deepEqual(resolveSkillRef('renamed', skills).map((s) => s.id), ['misc/renamed']);
    assert.deepEqual(resolveSkillRef('nope', skills), []);
  });

  it('passes when every expected skill is in the top N (default 5)', () => {
    const ranking = ['x1', 'x2', 'x3', 'x4', 'tools/pdf-extract', 'tools/csv-charts'];
    const r = judgeTest(test({ expect: ['pdf-extract'] }), ranking, skills);
    assert.equal(r.passed, true);
    assert.equal(r.topN, 5);
    assert.deepEqual(r.ranked, ranking.slice(0, 5));
    const miss = judgeTest(test({ expect: ['pdf-extract', 'csv-charts'] }), ranking, skills);
    assert.equal(miss.passed, false);
    assert.deepEqual(miss.problems, ['expected "csv-charts" in the top 5, but it ranked 6']);
  });

  it('uses the test top, then the default top', () => {
    const ranking = ['x1', 'tools/pdf-extract'];
    assert.equal(judgeTest(test({ expect: ['pdf-extract'], top: 1 }), ranking, skills).passed, false);
    assert.equal(judgeTest(test({ expect: ['pdf-extract'] }), ranking, skills, 1).passed, false);
    assert.equal(judgeTest(test({ expect: ['pdf-extract'] }), ranking, skills, 2).passed, true);
    assert.deepEqual(judgeTest(test({ expect: ['csv-charts'], top: 1 }), ranking, skills).problems, [
      'expected "csv-charts" in the top 1, but it is not among the 2 ranked skills',
    ]);
  });

  it('with set: true, needs all expected skills within the first |expect| ranks', () => {
    const t = test({ expect: ['pdf-extract', 'csv-charts'], set: true });
    assert.equal(judgeTest(t, ['tools/csv-charts', 'tools/pdf-extract', 'x'], skills).passed, true);
    const r = judgeTest(t, ['tools/pdf-extract', 'x', 'tools/csv-charts'], skills);
    assert.equal(r.passed, false);
    assert.deepEqual(r.problems, ['expected "csv-charts" within the first 2 (the size of the set), but it ranked 3']);
  });

  it('fails when a notExpect skill (any copy of a name) is in the top N', () => {
    const t = test({ expect: ['pdf-extract'], notExpect: ['email-drafting'], top: 3 });
    assert.equal(judgeTest(t, ['tools/pdf-extract', 'x', 'y', 'copies/email-drafting'], skills).passed, true);
    const r = judgeTest(t, ['tools/pdf-extract', 'x', 'copies/email-drafting'], skills);
    assert.deepEqual(r.problems, ['expected "email-drafting" outside the top 3, but it ranked 3']);
  });

  it("with the router's relevance: a notExpect skill judged not relevant is not chosen, and none: true needs match none", () => {
    const t = test({ expect: [], notExpect: ['email-drafting'], top: 3 });
    const ranking = ['tools/pdf-extract', 'copies/email-drafting', 'x'];
    assert.equal(judgeTest(t, ranking, skills).passed, false, 'without relevance, rank alone decides');
    const relevantPdf = { match: 'strong' as const, relevant: new Set(['tools/pdf-extract']) };
    assert.equal(judgeTest(t, ranking, skills, 5, relevantPdf).passed, true, 'ranked 2 but not relevant: it would not be chosen');
    const both = { match: 'strong' as const, relevant: new Set(['tools/pdf-extract', 'copies/email-drafting']) };
    assert.deepEqual(judgeTest(t, ranking, skills, 5, both).problems, ['expected "email-drafting" outside the top 3 (or judged not relevant), but it ranked 2 as relevant']);
    const none = test({ expect: [], notExpect: [], none: true });
    assert.equal(judgeTest(none, ranking, skills, 5, { match: 'none', relevant: new Set() }).passed, true);
    assert.deepEqual(judgeTest(none, ranking, skills, 5, { match: 'weak', relevant: new Set(['tools/pdf-extract']) }).problems, ['expected no skill to fit, but "tools/pdf-extract" was judged relevant (match: weak)']);
    assert.match(judgeTest(none, ranking, skills).problems[0], /needs the router's relevance/);
  });

  it('reads none: true in the tests file, and refuses it with expect', () => {
    assert.equal(parseRoutingTests('- query: "explain TCP vs UDP"\n  none: true\n', 't.yaml')[0].none, true);
    assert.throws(() => parseRoutingTests('- query: "x"\n  none: true\n  expect: [a]\n', 't.yaml'), /cannot also "expect"/);
    assert.throws(() => parseRoutingTests('- query: "x"\n  none: "yes"\n', 't.yaml'), /"none" must be true or false/);
  });

  it('an expected name is met by its best-ranked copy', () => {
    assert.equal(judgeTest(test({ expect: ['email-drafting'], top: 1 }), ['copies/email-drafting'], skills).passed, true);
  });

  it('fails on a reference to no skill of the library', () => {
    const r = judgeTest(test({ expect: ['ghost'], notExpect: ['phantom'] }), [], skills);
    assert.deepEqual(r.problems, ['"ghost" is not a skill of this library', '"phantom" is not a skill of this library']);
  });

  it('trigger evals: should_trigger true needs the skill in the top N, false outside it', () => {
    const evals = parseTriggerEvals(
      '[{"query": "a", "should_trigger": true}, {"query": "b", "should_trigger": false}]',
      'e.json',
      'tools/pdf-extract',
    ).tests;
    const ranking = ['x1', 'x2', 'x3', 'x4', 'x5', 'tools/pdf-extract'];
    assert.deepEqual(evals.map((t) => judgeTest(t, ranking, skills).passed), [false, true]);
    assert.deepEqual(evals.map((t) => judgeTest(t, ranking, skills, 6).passed), [true, false]);
  });
});

describe('check: budgets and exit codes', () => {
  it('sums name + description of all skills per client', () => {
    const b = listingBudgets(
      [
        { name: 'ab', description: '12345' },
        { name: 'c', description: '写周报' },
      ],
      { codex: 20, 'claude-code': 10 },
    );
    assert.deepEqual(b, [
      { client: 'claude-code', budget: 10, used: 11, skills: 2, over: true },
      { client: 'codex', budget: 20, used: 11, skills: 2, over: false },
    ]);
  });

  it('fails on failed tests and errors; warnings only with strict', () => {
    const warning = { file: 'a/SKILL.md', skillId: 'a', code: 'frontmatter.unknown-key', severity: 'warning' as const, message: 'm', range: null };
    const base: CheckReport = {
      library: 'lib',
      config: null,
      profiles: { ids: ['spec'], from: '--profile' },
      skills: 1,
      tests: [],
      findings: [warning],
      budgets: [],
      checkedFiles: ['a/SKILL.md'],
      changed: null,
      strict: false,
    };
    assert.equal(summarizeCheck(base).exitCode, 0);
    assert.equal(summarizeCheck({ ...base, strict: true }).exitCode, 1);
    assert.equal(summarizeCheck({ ...base, findings: [{ ...warning, severity: 'info' }], strict: true }).exitCode, 0);
    assert.equal(summarizeCheck({ ...base, findings: [{ ...warning, severity: 'error' }] }).exitCode, 1);
    const failed = judgeTest(test({ expect: ['ghost'] }), [], skills);
    assert.equal(summarizeCheck({ ...base, findings: [], tests: [failed] }).exitCode, 1);
  });
});

// --- runCheck against a fake library on a temporary folder -------------------------------------

function doc(id: string, description: string, findings: Finding[] = []): SkillDoc {
  return {
    id,
    path: `${id}/SKILL.md`,
    name: id.split('/').pop()!,
    description,
    body: '',
    frontMatter: {},
    keyRanges: { description: range(2, 0, 12 + description.length) },
    bodyStartLine: 4,
    lang: 'en',
    hash: id,
    findings,
  };
}

function fakeService(root: string, docs: SkillDoc[]): SkillService {
  const words = (t: string) => new Set(t.toLowerCase().split(/\W+/).filter(Boolean));
  return {
    root,
    async index() {
      return { skills: docs.length, cached: 0, embedded: 0, failed: 0, ms: 1, model: null };
    },
    pairFindings: async () => [],
    async route(query, opts) {
      const q = words(query);
      const ranked = docs
        .map((d) => ({ d, score: [...words(`${d.name} ${d.description}`)].filter((w) => q.has(w)).length }))
        .filter((x) => x.score > 0)
        .sort((a, b) => b.score - a.score || (a.d.id < b.d.id ? -1 : 1))
        .slice(0, opts?.k ?? 10);
      const result: RouteResult = {
        query,
        candidates: ranked.map((x, i) => ({
          skillId: x.d.id,
          name: x.d.name,
          path: x.d.path,
          description: x.d.description,
          rank: i + 1,
          scores: { dense: null, lexical: x.score, fused: x.score, rerank: null, final: x.score },
          passage: null,
        })),
        timings: { embedMs: 0, denseMs: 0, lexicalMs: 0, fuseMs: 0, rerankMs: 0, totalMs: 0 },
        dense: { disabled: 'fake' },
      };
      return result;
    },
    skills: () => docs,
    failures: () => [],
    async dispose() {},
  };
}

describe('runCheck with a fake library', () => {
  let dir: string;
  let docs: SkillDoc[];
  let opened: { root?: string; profiles?: readonly string[]; noModel?: boolean; modelDir?: string | null }[];
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  const deps = {
    openLibrary: async (opts: { root: string; profiles?: readonly string[]; noModel?: boolean; modelDir?: string | null }) => {
      opened.push(opts);
      return fakeService(opts.root, docs);
    },
  };
  const run = async (args: string[]) => {
    const out = { stdout: '', stderr: '' };
    const code = await runCheck(
      args,
      { argv: [], cwd: dir, stdout: (s) => void (out.stdout += s), stderr: (s) => void (out.stderr += s) },
      deps,
    );
    return { code, ...out };
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sr-check-'));
    opened = [];
    docs = [
      doc('pdf-extract', 'extract tables from pdf files'),
      doc('csv-charts', 'plot charts from csv files'),
      doc('email-drafting', 'write a polite email', [
        { code: 'frontmatter.unknown-key', severity: 'warning', message: 'Unexpected fields in frontmatter: colour', range: range(3, 0, 6) },
      ]),
    ];
    for (const d of docs) write(`lib/${d.path}`, `---\nname: ${d.name}\ndescription: ${d.description}\n---\n`);
    write('skill-router.yaml', 'library: lib\nmodel: false\nbudgets:\n  claude-code: 8000\n');
    write('skill-router.tests.yaml', '- query: tables in a pdf\n  expect: pdf-extract\n  top: 1\n- query: csv charts\n  expect: [csv-charts]\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('passes a clean run: exit 0, config found in the working folder, model off from the config', async () => {
    const r = await run(['--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.equal(json.library, 'lib');
    assert.equal(json.config, 'skill-router.yaml');
    assert.deepEqual(json.summary, { tests: 2, passed: 2, failed: 0, errors: 0, warnings: 1, infos: 0, exitCode: 0 });
    assert.equal(opened[0].noModel, true);
    assert.deepEqual(json.budgets, [{ client: 'claude-code', budget: 8000, used: 110, skills: 3, over: false }, { client: 'codex', budget: 16000, used: 110, skills: 3, over: false }]);
    assert.equal(json.findings[0].file, 'lib/email-drafting/SKILL.md');
  });

  it('exit 1 on --strict warnings, failed tests, failing trigger evals and error findings', async () => {
    assert.equal((await run(['--strict'])).code, 1);
    write('lib/csv-charts/evals/evals.json', '[{"query": "pdf tables", "should_trigger": true}]');
    const evalRun = await run([]);
    assert.equal(evalRun.code, 1);
    assert.match(evalRun.stdout, /FAIL lib\/csv-charts\/evals\/evals.json:1 {2}"pdf tables"\n {7}expected "csv-charts" in the top 5, but it is not among the 1 ranked skill/);
    rmSync(join(dir, 'lib/csv-charts/evals'), { recursive: true });
    docs[0].findings.push({ code: 'frontmatter.name-mismatch', severity: 'error', message: 'bad name', range: range(1, 6, 10) });
    const errorRun = await run(['--format', 'sarif']);
    assert.equal(errorRun.code, 1);
    const results = JSON.parse(errorRun.stdout).runs[0].results;
    assert.deepEqual(results.map((r: any) => [r.ruleId, r.level]), [
      ['frontmatter.unknown-key', 'warning'],
      ['frontmatter.name-mismatch', 'error'],
    ]);
  });

  it('reports an over-budget client as a warning on the config budgets key', async () => {
    write('skill-router.yaml', 'library: lib\nbudgets:\n  claude-code: 50\n  codex: null\n');
    const r = await run(['--format', 'json', '--no-model']);
    assert.equal(r.code, 0);
    const json = JSON.parse(r.stdout);
    const over = json.findings.find((f: any) => f.code === 'budget.listing-over');
    assert.deepEqual([over.file, over.line, over.severity, over.profile], ['skill-router.yaml', 2, 'warning', 'claude-code']);
    assert.deepEqual(json.budgets.map((b: any) => b.client), ['claude-code']);
    assert.equal((await run(['--strict', '--no-model'])).code, 1);
  });

  it('passes profiles to the engine and keeps only their clients budgets', async () => {
    const r = await run(['--profile', 'spec,codex', '--format', 'json']);
    assert.deepEqual(opened[0].profiles, ['spec', 'codex']);
    assert.deepEqual(JSON.parse(r.stdout).budgets.map((b: any) => b.client), ['codex']);
  });

  it('finds the tests file in the library when there is no config', async () => {
    rmSync(join(dir, 'skill-router.yaml'));
    rmSync(join(dir, 'skill-router.tests.yaml'));
    write('lib/skill-router.tests.json', '[{"query": "polite email", "expect": "email-drafting", "top": 1}]');
    const r = await run(['--library', 'lib', '--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).tests[0].file, 'lib/skill-router.tests.json');
  });

  it('exit 2 on tool failures', async () => {
    const cases: [string[], RegExp][] = [
      [['--format', 'html'], /unknown format "html"/],
      [['--config', 'missing.yaml'], /cannot read config .*missing\.yaml/],
      [['--library', 'nowhere'], /library not found: nowhere/],
      [['--profile', 'claude'], /unknown profile "claude"/],
      [['--frobnicate'], /Unknown option '--frobnicate'[\s\S]*skill-router check --help/],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, message);
    }
    write('skill-router.tests.yaml', '- query: x\n  expext: y\n');
    const bad = await run([]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /skill-router\.tests\.yaml:1: test 1: unknown key "expext"/);
    docs = [];
    write('skill-router.tests.yaml', '[]\n');
    assert.match((await run([])).stderr, /no SKILL\.md found under lib/);
  });

  it('--changed-only runs the tests of staged skills; all tests when the tests file is staged', async function () {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
    git('init', '-q');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'init');

    let json = JSON.parse((await run(['--changed-only', '--format', 'json'])).stdout);
    assert.deepEqual(json.changedOnly, { files: 0, skills: [], allTests: false });
    assert.equal(json.tests.length, 0);
    assert.equal(json.findings.length, 0, 'findings only for changed skills');

    git('add', 'lib/csv-charts/SKILL.md', 'lib/email-drafting/SKILL.md');
    json = JSON.parse((await run(['--changed-only', '--format', 'json'])).stdout);
    assert.deepEqual(json.changedOnly, { files: 2, skills: ['csv-charts', 'email-drafting'], allTests: false });
    assert.deepEqual(json.tests.map((t: any) => t.query), ['csv charts']);
    assert.deepEqual(json.findings.map((f: any) => f.file), ['lib/email-drafting/SKILL.md']);

    git('add', 'skill-router.tests.yaml');
    json = JSON.parse((await run(['--changed-only', '--format', 'json'])).stdout);
    assert.equal(json.changedOnly.allTests, true);
    assert.equal(json.tests.length, 2);
    const text = (await run(['--changed-only'])).stdout;
    assert.match(text, /changed only: 3 staged files, 2 skills changed; tests or config changed, so every test runs/);
  });

  it('--changed-only outside a repository is a tool failure', async () => {
    const r = await run(['--changed-only']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--changed-only needs git and a repository/);
  });
});
