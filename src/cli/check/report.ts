/**
 * What one `check` run found, in the shape every output format reads (format/*.ts), and the
 * counts and exit code derived from it.
 */
import type { PairEvidence } from '../../core/analysis/types';
import type { BudgetReport } from '../../core/profiles';
import type { Severity, TextRange } from '../../core/types';
import type { TestOutcome } from './judge';

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
  /** Pair findings: the routing evidence behind the claim. */
  evidence?: PairEvidence;
  /** Pair findings: the line the editor's quick fix would add to the description. */
  suggestion?: string;
}

export interface CheckReport {
  /** Library as displayed. */
  library: string;
  config: string | null;
  /** The client profiles the findings are for, and what chose them (`--profile`, the config, or the library's folders). */
  profiles: { ids: string[]; from: string };
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

/** Findings by file, then position (file-wide findings first), then code; stable. */
export function sortFindings(findings: CheckFinding[]): CheckFinding[] {
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

/** `:line:column` (1-based) of a finding, or nothing when it has no position. */
export function position(f: { range: TextRange | null }): string {
  return f.range ? `:${f.range.start.line + 1}:${f.range.start.character + 1}` : '';
}
