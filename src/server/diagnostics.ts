/**
 * Engine findings → LSP diagnostics: stable codes, `source: "skill-router"`, a link into
 * docs/diagnostics.md, `relatedInformation` at the twin skill (named by its folder), severity
 * settings, and the checks the running editor is known to make itself left out unless asked for. Which findings are reported at all
 * (suppression, conflict limits) is core's policy, shared with `skill-router check`.
 */
import type { Diagnostic } from 'vscode-languageserver';
import { DiagnosticSeverity } from 'vscode-languageserver';
import type { PairEvidence, PairFinding } from '../core/analysis/types';
import { PAIR_CODES } from '../core/analysis/findings';
import { bomFinding, decodeSkillBytes, parseSkill, type SkillSource } from '../core/parse/skillDoc';
import { applyFindingPolicy } from '../core/policy/findingPolicy';
import type { ProfileId } from '../core/profiles';
import type { SkillDoc } from '../core/types';
import type { Finding, Severity, TextRange } from '../core/types';
import { DIAGNOSTIC_SOURCE } from '../shared/protocol';
import type { ServerSettings } from './settings';

/**
 * What an editor's own SKILL.md validator reports, by the first version seen to report it: each
 * row is tested in that editor (test/e2e), never assumed. VS Code 1.100 reports nothing on a
 * SKILL.md (tested in code-server 4.100.3), so there is no row yet and every check is ours: an
 * assumed row hid `name-mismatch` and `unknown-key` from the editor while `check` failed on them.
 * The setting's text in package.json names the versions listed here.
 */
export const EDITOR_SKILL_CHECKS: readonly { editor: string; since: string; codes: readonly string[] }[] = [];

/** `1.100.3` → [1, 100, 3]; anything after the numbers (`-insider`) is ignored. */
function versionParts(version: string): number[] {
  return (/^\d+(\.\d+)*/.exec(version.trim())?.[0] ?? '').split('.').filter(Boolean).map(Number);
}

function atLeast(version: string, since: string): boolean {
  const [a, b] = [versionParts(version), versionParts(since)];
  if (!a.length) return false;
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/**
 * Codes the running editor reports on SKILL.md itself (from `initializationOptions.editor`):
 * those of every row of `table` whose editor matches and whose version it has reached. Empty for
 * an unknown editor or version, so nothing is hidden on a guess.
 */
export function editorReportedCodes(editor: { name?: string; version?: string } | undefined, table = EDITOR_SKILL_CHECKS): ReadonlySet<string> {
  const out = new Set<string>();
  if (!editor?.name || !editor.version) return out;
  for (const row of table) if (row.editor === editor.name && atLeast(editor.version, row.since)) for (const c of row.codes) out.add(c);
  return out;
}

/** Codes the server adds to the engine's. */
export const SERVER_CODES = { unreadable: 'file.unreadable' } as const;

/** What a quick fix (and a client re-checking a claim) needs to know about a diagnostic. */
export interface DiagnosticData {
  twin?: { id: string; name: string; uri: string };
  profile?: string;
  /** Pair findings: the routing evidence (requests with the ranks of both skills, probes sent and taken). */
  evidence?: PairEvidence;
  /** Pair findings: the line the quick fix adds to this skill's description; `skill.broken-reference`: the name that replaces the range. */
  suggestion?: string;
  /** `skill.unreachable`: the verified words to add, and whether they go first (the listing cuts the description). */
  words?: string[];
  atStart?: boolean;
}

export interface DiagnosticContext {
  settings: Pick<ServerSettings, 'diagnostics' | 'conflict'>;
  /** Codes the editor reports itself (`editorReportedCodes`): left to it unless `reportBuiltInChecks` is on. */
  editorReports?: ReadonlySet<string>;
  /** Link of a code into docs/diagnostics.md. */
  href(code: string): string;
  /** Another skill of the same library by id. */
  skill(id: string): SkillDoc | undefined;
  /** URI of a skill's SKILL.md by id. */
  uriOf(id: string): string;
  /**
   * Whether the skill's file on disk starts with a byte order mark its text does not show: VS Code
   * keeps the mark out of the buffer and writes it back on save, so an open file still has it.
   */
  bomOnDisk?(doc: SkillDoc): boolean;
  /** `skill.duplicate-name` on the skill: the other skills of its library that declare its name. */
  sameName?(doc: SkillDoc): Finding[];
  /** The skill's `skill.unreachable` finding, last measured for an open skill (server/reachPass.ts). */
  reach?(doc: SkillDoc): { finding: Finding; data: DiagnosticData } | null;
  /** The library-wide over-budget finding, on the one skill it is reported on (server/listing.ts). */
  budget?(doc: SkillDoc): Finding | null;
  /** The skill's `skill.broken-reference` and `file.broken-link` findings (core/analysis/references.ts). */
  references?(doc: SkillDoc): Finding[];
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

/** The skill folder of a SKILL.md path (`tools/pdf-extract/SKILL.md` → `tools/pdf-extract/`). */
function folderOf(relPath: string, id: string): string {
  const dir = relPath.replace(/\/?SKILL\.md$/i, '');
  return `${dir || id}/`;
}

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
    // Editors label a row with the file's base name, and every skill's file is SKILL.md: the row
    // says which skill folder it is.
    d.relatedInformation = f.related.map((r) => ({ location: { uri: ctx.uriOf(r.skillId), range: r.range }, message: `${folderOf(r.path, r.skillId)}: ${r.message}` }));
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
 * The diagnostics of one skill: its own validation findings, the skills that share its name, and
 * the pair findings that involve it (`pairs` may hold pairs of other skills too; only this skill's are used).
 */
export function skillDiagnostics(doc: SkillDoc, pairs: readonly PairFinding[], ctx: DiagnosticContext): Diagnostic[] {
  const leftToEditor = ctx.settings.diagnostics.reportBuiltInChecks ? undefined : ctx.editorReports;
  const findings = [...doc.findings, ...(ctx.sameName?.(doc) ?? []), ...(ctx.references?.(doc) ?? [])];
  if (!doc.findings.some((f) => f.code === 'file.bom') && ctx.bomOnDisk?.(doc)) findings.unshift(bomFinding());
  const own = leftToEditor?.size ? findings.filter((f) => !leftToEditor.has(f.code)) : findings;
  const out: Diagnostic[] = [];
  for (const { finding, twin } of applyFindingPolicy(doc, own, pairs, ctx.skill, ctx.settings)) {
    const d = toDiagnostic(finding, ctx, twin ? { twin: { id: twin.id, name: twin.name, uri: ctx.uriOf(twin.id) } } : undefined);
    if (d) out.push(d);
  }
  // A skill whose near-duplicate (or copy) takes its requests gets that finding, which names the
  // twin and what to do, not `skill.unreachable`, which would send the author to its words.
  const twinned = out.some((d) => d.code === PAIR_CODES['near-duplicate'] || d.code === PAIR_CODES.copy);
  const reach = twinned ? null : ctx.reach?.(doc);
  const unreachable = reach && toDiagnostic(reach.finding, ctx, reach.data);
  if (unreachable) out.push(unreachable);
  const budget = ctx.budget?.(doc);
  const over = budget && toDiagnostic(budget, ctx);
  if (over) out.push(over);
  return out;
}

/**
 * The diagnostics of an open buffer, parsed and validated as it stands; `ok` is false when the
 * text cannot be a skill (binary, too large) and the one diagnostic says why.
 */
export function bufferDiagnostics(
  text: string,
  ref: SkillSource,
  profiles: readonly ProfileId[],
  pairs: readonly PairFinding[],
  ctx: DiagnosticContext,
): { diagnostics: Diagnostic[]; ok: boolean } {
  try {
    const decoded = decodeSkillBytes(new TextEncoder().encode(text));
    return { diagnostics: skillDiagnostics(parseSkill(ref, decoded.text, profiles, decoded), pairs, ctx), ok: true };
  } catch (err) {
    return { diagnostics: unreadableDiagnostic(err instanceof Error ? err.message : String(err), ctx), ok: false };
  }
}

/** The one diagnostic of a file that could not be read as a skill (binary, too large). */
export function unreadableDiagnostic(message: string, ctx: Pick<DiagnosticContext, 'href' | 'settings'>): Diagnostic[] {
  const f: Finding = { code: SERVER_CODES.unreadable, severity: 'error', message, range: FIRST_LINE };
  const d = toDiagnostic(f, { ...ctx, skill: () => undefined, uriOf: () => '' });
  return d ? [d] : [];
}
