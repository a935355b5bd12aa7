/** `--format text`: the report for a terminal. */
import { plural } from '../../io';
import { position, sortFindings, summarizeCheck, type CheckFinding, type CheckReport } from '../report';

/** Human-readable report, grouped by section, ending in one summary line. */
export function formatText(report: CheckReport): string {
  const out: string[] = [];
  const summary = summarizeCheck(report);
  out.push(`skill-router check: ${plural(report.skills, 'skill')} in ${report.library}`);
  out.push(`profiles: ${report.profiles.ids.join(', ')} (${report.profiles.from})`);
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
