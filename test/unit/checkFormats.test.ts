/** The check report in its formats: SARIF, JUnit, text and JSON. */
import * as assert from 'node:assert/strict';
import { checkJson } from '../../src/cli/check/format/json';
import { formatJunit, xmlEscape } from '../../src/cli/check/format/junit';
import { sarifLog } from '../../src/cli/check/format/sarif';
import { formatText } from '../../src/cli/check/format/text';
import { judgeTest } from '../../src/cli/check/judge';
import { type CheckReport } from '../../src/cli/check/report';
import { range, skills, test } from '../helpers/checkFixtures';

function sampleReport(): CheckReport {
  return {
    library: 'skills',
    config: 'skill-router.yaml',
    profiles: { ids: ['claude-code'], from: 'skill-router.yaml' },
    skills: 3,
    tests: [
      judgeTest(test({ line: 4, query: 'pdf <tables> & "charts"', expect: ['csv-charts'], top: 1 }), ['tools/pdf-extract'], skills),
      judgeTest(test({ line: 7, query: 'ok', expect: ['pdf-extract'] }), ['tools/pdf-extract'], skills),
    ],
    findings: [
      {
        file: 'skills/tools/pdf-extract/SKILL.md',
        skillId: 'tools/pdf-extract',
        code: 'frontmatter.name-mismatch',
        severity: 'error',
        message: "Directory name 'x' must match skill name 'pdf-extract' \u0007",
        range: range(1, 6, 17),
      },
      {
        file: 'skills/tools/csv-charts/SKILL.md',
        skillId: 'tools/csv-charts',
        code: 'skill.near-duplicate',
        severity: 'warning',
        message: 'Nearly the same as pdf-extract',
        range: range(2, 13, 40),
        related: [{ file: 'skills/tools/pdf-extract/SKILL.md', skillId: 'tools/pdf-extract', range: range(2, 13, 30), message: 'the twin' }],
      },
      {
        file: 'skills/tools/csv-charts/SKILL.md',
        skillId: 'tools/csv-charts',
        code: 'skill.budget',
        severity: 'info',
        message: 'Listed in part',
        range: range(2, 0, 5),
        profile: 'claude-code',
      },
    ],
    budgets: [{ client: 'claude-code', budget: 10, used: 20, skills: 3, over: true }],
    checkedFiles: ['skills/tools/pdf-extract/SKILL.md', 'skills/tools/csv-charts/SKILL.md', 'skills/mail/email-drafting/SKILL.md'],
    changed: null,
    strict: false,
  };
}

describe('check: SARIF', () => {
  it('has the required SARIF 2.1.0 fields, rules for every code and 1-based regions', () => {
    const sarif = sarifLog(sampleReport()) as any;
    assert.equal(sarif.version, '2.1.0');
    assert.match(sarif.$schema, /^https:\/\/.*sarif-2\.1\.0.*\.json$/);
    assert.equal(sarif.runs.length, 1);
    const driver = sarif.runs[0].tool.driver;
    assert.equal(driver.name, 'skill-router');
    assert.match(driver.informationUri, /^https:\/\//);
    const ruleIds = driver.rules.map((r: { id: string }) => r.id);
    assert.deepEqual(ruleIds, ['frontmatter.name-mismatch', 'routing.test-failed', 'skill.budget', 'skill.near-duplicate']);
    for (const rule of driver.rules) {
      assert.equal(typeof rule.shortDescription.text, 'string');
      assert.ok(['error', 'warning', 'note'].includes(rule.defaultConfiguration.level));
    }
    const results = sarif.runs[0].results;
    assert.equal(results.length, 4, 'three findings and one failed test');
    for (const r of results) {
      assert.ok(ruleIds.includes(r.ruleId));
      assert.equal(driver.rules[r.ruleIndex].id, r.ruleId);
      assert.ok(['error', 'warning', 'note'].includes(r.level));
      assert.equal(typeof r.message.text, 'string');
      const loc = r.locations[0].physicalLocation;
      assert.ok(!loc.artifactLocation.uri.startsWith('/') && !loc.artifactLocation.uri.includes('\\'));
      for (const key of ['startLine', 'startColumn', 'endLine', 'endColumn']) {
        assert.ok(Number.isInteger(loc.region[key]) && loc.region[key] >= 1, key);
      }
    }
    const mismatch = results.find((r: any) => r.ruleId === 'frontmatter.name-mismatch');
    assert.deepEqual(mismatch.locations[0].physicalLocation.region, { startLine: 2, startColumn: 7, endLine: 2, endColumn: 18 });
    assert.equal(results.find((r: any) => r.ruleId === 'skill.budget').level, 'note');
    const dup = results.find((r: any) => r.ruleId === 'skill.near-duplicate');
    assert.equal(dup.relatedLocations[0].physicalLocation.artifactLocation.uri, 'skills/tools/pdf-extract/SKILL.md');
    const failed = results.find((r: any) => r.ruleId === 'routing.test-failed');
    assert.equal(failed.level, 'error');
    assert.equal(failed.locations[0].physicalLocation.artifactLocation.uri, 'skill-router.tests.yaml');
    assert.equal(failed.locations[0].physicalLocation.region.startLine, 4);
    assert.match(failed.message.text, /expected "csv-charts" in the top 1/);
  });

  it('encodes paths as URIs and leaves out the region when there is no position', () => {
    const report = sampleReport();
    report.tests = [];
    report.findings = [{ file: 'my lib/a#b/SKILL.md', skillId: 'a', code: 'file.unreadable', severity: 'error', message: 'm', range: null }];
    const result = (sarifLog(report) as any).runs[0].results[0];
    assert.deepEqual(result.locations[0].physicalLocation, { artifactLocation: { uri: 'my%20lib/a%23b/SKILL.md' } });
  });
});

/** A small XML 1.0 well-formedness check: balanced tags, quoted attributes, only the five entities. */
function assertWellFormedXml(xml: string): string[] {
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n'));
  const body = xml.slice(xml.indexOf('?>') + 2);
  const stack: string[] = [];
  const seen: string[] = [];
  const token = /<(\/?)([A-Za-z][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  let m: RegExpExecArray | null;
  while ((m = token.exec(body))) {
    if (m[6]) assert.fail(`stray "<" at ${m.index}`);
    const text = m[5] ?? m[3] ?? '';
    for (const amp of text.matchAll(/&[^;\s]*;?/g)) assert.match(amp[0], /^&(amp|lt|gt|quot|apos);$/, 'bad entity');
    assert.doesNotMatch(text, /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/, 'control character');
    if (m[5] !== undefined) {
      if (!stack.length) assert.match(m[5], /^\s*$/, 'text outside the root element');
      continue;
    }
    if (m[1]) assert.equal(stack.pop(), m[2], `closing </${m[2]}>`);
    else {
      if (!stack.length) assert.equal(seen.length, 0, 'one root element');
      seen.push(m[2]);
      if (!m[4]) stack.push(m[2]);
    }
  }
  assert.deepEqual(stack, []);
  return seen;
}

describe('check: JUnit', () => {
  it('is well-formed XML with testsuites, testsuite, testcase and failure elements', () => {
    const xml = formatJunit(sampleReport());
    const elements = assertWellFormedXml(xml);
    assert.equal(elements[0], 'testsuites');
    assert.deepEqual([...xml.matchAll(/<testsuite name="([^"]+)"/g)].map((m) => m[1]), ['routing', 'skills', 'budgets']);
    assert.match(xml, /<testsuites name="skill-router check" tests="6" failures="2" errors="0">/);
    assert.match(xml, /name="line 4: pdf &lt;tables&gt; &amp; &quot;charts&quot;"/);
    assert.match(xml, /<failure type="routing\.test-failed" message="expected &quot;csv-charts&quot; in the top 1, but it is not among the 1 ranked skill">/);
    assert.match(xml, /<testcase classname="skills" name="skills\/mail\/email-drafting\/SKILL.md"\/>/, 'clean skills pass');
    assert.match(xml, /<testcase classname="skills" name="skills\/tools\/pdf-extract\/SKILL.md">\n\s*<failure type="frontmatter\.name-mismatch"/);
    assert.match(xml, /name="skills\/tools\/csv-charts\/SKILL.md">\n\s*<system-out>[^<]*skill\.near-duplicate/, 'warnings go to system-out');
    assert.doesNotMatch(xml, /\u0007/);
    assert.match(xml, /<testcase classname="budgets" name="claude-code">\n\s*<system-out>over budget/);
  });

  it('fails warnings and budgets with strict', () => {
    const xml = formatJunit({ ...sampleReport(), strict: true });
    assertWellFormedXml(xml);
    assert.match(xml, /<testsuites name="skill-router check" tests="6" failures="4"/);
  });

  it('escapes the five XML characters and drops what XML cannot hold', () => {
    assert.equal(xmlEscape(`<a href="x">'&'</a>\u0000\u001b\uFFFE ok\t\n`), '&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt; ok\t\n');
    assert.equal(xmlEscape('周报 \u{1F600}'), '周报 \u{1F600}');
  });
});

describe('check: text and JSON formats', () => {
  it('text groups failures, findings, cross-skill findings and budgets, then a summary line', () => {
    const text = formatText(sampleReport());
    assert.match(text, /^skill-router check: 3 skills in skills\n/);
    assert.match(text, /Routing tests: 2 run, 1 passed, 1 failed\n {2}FAIL skill-router.tests.yaml:4 {2}"pdf <tables> & \\"charts\\""\n/);
    assert.match(text, /Findings: 1 error, 1 warning, 1 info\n {2}skills\/tools\/pdf-extract\/SKILL.md\n {4}2:7 {2}error {2}frontmatter.name-mismatch/);
    assert.match(text, /Across skills \(skill\.\*\):\n {2}skills\/tools\/csv-charts\/SKILL.md:3:1 {2}info {2}skill.budget {2}Listed in part \[claude-code\]\n/);
    assert.match(text, / {6}see skills\/tools\/pdf-extract\/SKILL.md:3:14 {2}the twin\n/);
    assert.match(text, /claude-code {7}20 of {6}10 {3}200\.0% {2}OVER BUDGET/);
    assert.match(text, /\ncheck failed: 1 of 2 tests failed, 1 error, 1 warning\n$/);
  });

  it('JSON has the documented version-1 shape with 1-based positions', () => {
    const json = checkJson(sampleReport()) as any;
    assert.deepEqual(Object.keys(json), ['version', 'library', 'config', 'profiles', 'skills', 'changedOnly', 'summary', 'tests', 'findings', 'budgets']);
    assert.equal(json.version, 1);
    assert.deepEqual(json.summary, { tests: 2, passed: 1, failed: 1, errors: 1, warnings: 1, infos: 1, exitCode: 1 });
    assert.deepEqual(Object.keys(json.tests[0]), ['file', 'line', 'kind', 'name', 'query', 'expect', 'notExpect', 'top', 'set', 'passed', 'problems', 'ranked']);
    const f = json.findings.find((x: any) => x.code === 'frontmatter.name-mismatch');
    assert.deepEqual([f.line, f.column, f.endLine, f.endColumn], [2, 7, 2, 18]);
  });
});
