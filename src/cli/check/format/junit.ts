/** `--format junit`: JUnit XML, for CI test reports. */
import { plural } from '../../io';
import { position, sortFindings, type CheckFinding, type CheckReport } from '../report';

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
