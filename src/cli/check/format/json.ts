/** `--format json`: the documented, versioned JSON shape. */
import type { TextRange } from '../../../core/types';
import { sortFindings, summarizeCheck, type CheckReport } from '../report';

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
    profiles: report.profiles,
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
      ...(f.evidence ? { evidence: f.evidence } : {}),
      ...(f.suggestion ? { suggestion: f.suggestion } : {}),
    })),
    budgets: report.budgets,
  };
}

/** `checkJson` as printed. */
export function formatJson(report: CheckReport): string {
  return JSON.stringify(checkJson(report), null, 2) + '\n';
}
