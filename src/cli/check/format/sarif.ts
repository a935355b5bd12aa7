/** `--format sarif`: SARIF 2.1.0, for code scanning. */
import * as path from 'node:path';
import { version } from '../../../../package.json';
import type { Severity, TextRange } from '../../../core/types';
import { sortFindings, type CheckFinding, type CheckReport } from '../report';

const TOOL_NAME = 'skill-router';
/** Placeholder until the project has a public home; SARIF needs an absolute URI here. */
const TOOL_URI = 'https://github.com/skill-router/skill-router';

/** Short descriptions of the codes this command raises itself; engine codes describe themselves by id. */
const RULE_TEXT: Record<string, string> = {
  'routing.test-failed': 'A routing test or trigger eval failed: the expected skill did not rank where the test requires.',
  'budget.listing-over': "The names and descriptions of all skills exceed a client's listing budget.",
  'evals.invalid-file': 'A trigger-eval file inside a skill could not be read.',
  'file.unreadable': 'A skill file could not be read or parsed.',
  'file.outside-library': 'A skill folder or SKILL.md is a link to outside the library: not read.',
  'skill.unreachable': "Too few of a skill's requests reach it first in a client's listing (name and listed description), below the config's reach.min.",
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
export function sarifLog(report: CheckReport): Record<string, unknown> {
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
        tool: { driver: { name: TOOL_NAME, version, informationUri: TOOL_URI, rules } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}

/** `sarifLog` as printed. */
export function formatSarif(report: CheckReport): string {
  return JSON.stringify(sarifLog(report), null, 2) + '\n';
}
