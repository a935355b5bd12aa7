/**
 * Engine findings → LSP diagnostics: stable codes, `source: "skill-router"`, a link into
 * docs/diagnostics.md, `relatedInformation` at the twin skill, severity settings, and the checks
 * VS Code already makes left out unless asked for. Which findings are reported at all
 * (suppression, conflict limits) is core's policy, shared with `skill-router check`.
 */
import type { Diagnostic } from 'vscode-languageserver';
import { DiagnosticSeverity } from 'vscode-languageserver';
import type { PairEvidence, PairFinding } from '../core/analysis/types';
import { applyFindingPolicy } from '../core/policy/findingPolicy';
import type { SkillDoc } from '../core/types';
import type { Finding, Severity, TextRange } from '../core/types';
import { DIAGNOSTIC_SOURCE } from '../shared/protocol';
import type { ServerSettings } from './settings';

/** Codes VS Code reports on SKILL.md itself; ours stay quiet unless `reportBuiltInChecks` is on. */
export const BUILT_IN_OVERLAP: ReadonlySet<string> = new Set([
  'frontmatter.unknown-key',
  'frontmatter.name-empty',
  'frontmatter.description-empty',
  'frontmatter.name-mismatch',
]);

/** Codes the server adds to the engine's. */
export const SERVER_CODES = { unreadable: 'file.unreadable' } as const;

/** What a quick fix (and a client re-checking a claim) needs to know about a diagnostic. */
export interface DiagnosticData {
  twin?: { id: string; name: string; uri: string };
  profile?: string;
  /** Pair findings: the routing evidence (requests with the ranks of both skills, probes sent and taken). */
  evidence?: PairEvidence;
  /** Pair findings: the line the quick fix adds to this skill's description. */
  suggestion?: string;
}

export interface DiagnosticContext {
  settings: Pick<ServerSettings, 'diagnostics' | 'conflict'>;
  /** Link of a code into docs/diagnostics.md. */
  href(code: string): string;
  /** Another skill of the same library by id. */
  skill(id: string): SkillDoc | undefined;
  /** URI of a skill's SKILL.md by id. */
  uriOf(id: string): string;
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

const OVERRIDE: Record<string, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** Where a diagnostic goes when the engine gives no better place: the first line. */
export const FIRST_LINE: TextRange = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

function toDiagnostic(f: Finding, ctx: DiagnosticContext, data?: DiagnosticData): Diagnostic | null {
  const override = ctx.settings.diagnostics.severity[f.code];
  if (override === 'off') return null;
  const d: Diagnostic = {
    range: f.range,
    severity: override ? OVERRIDE[override] : SEVERITY[f.severity],
    code: f.code,
    codeDescription: { href: ctx.href(f.code) },
    source: DIAGNOSTIC_SOURCE,
    message: f.profile ? `${f.message} [${f.profile}]` : f.message,
  };
  if (f.related?.length) {
    d.relatedInformation = f.related.map((r) => ({ location: { uri: ctx.uriOf(r.skillId), range: r.range }, message: r.message }));
  }
  const payload: DiagnosticData = {
    ...data,
    ...(f.profile ? { profile: f.profile } : {}),
    ...(f.evidence ? { evidence: f.evidence } : {}),
    ...(f.suggestion ? { suggestion: f.suggestion } : {}),
  };
  if (Object.keys(payload).length) d.data = payload;
  return d;
}

/**
 * The diagnostics of one skill: its own validation findings and the pair findings that involve
 * it (`pairs` may hold pairs of other skills too; only this skill's are used).
 */
export function skillDiagnostics(doc: SkillDoc, pairs: readonly PairFinding[], ctx: DiagnosticContext): Diagnostic[] {
  const own = ctx.settings.diagnostics.reportBuiltInChecks ? doc.findings : doc.findings.filter((f) => !BUILT_IN_OVERLAP.has(f.code));
  const out: Diagnostic[] = [];
  for (const { finding, twin } of applyFindingPolicy(doc, own, pairs, ctx.skill, ctx.settings)) {
    const d = toDiagnostic(finding, ctx, twin ? { twin: { id: twin.id, name: twin.name, uri: ctx.uriOf(twin.id) } } : undefined);
    if (d) out.push(d);
  }
  return out;
}

/** The one diagnostic of a file that could not be read as a skill (binary, too large). */
export function unreadableDiagnostic(message: string, ctx: Pick<DiagnosticContext, 'href' | 'settings'>): Diagnostic[] {
  const f: Finding = { code: SERVER_CODES.unreadable, severity: 'error', message, range: FIRST_LINE };
  const d = toDiagnostic(f, { ...ctx, skill: () => undefined, uriOf: () => '' });
  return d ? [d] : [];
}
