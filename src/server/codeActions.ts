/** Quick fixes offered on SKILL.md diagnostics (the edits themselves are in quickFixes.ts). */
import type { CodeAction, Diagnostic, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { CodeActionKind } from 'vscode-languageserver';
import { parseFrontMatter, type FrontMatterResult } from '../core/parse/frontMatter';
import { suggestName } from '../core/parse/validate';
import { isProfileId, type ProfileId } from '../core/profiles';
import { DIAGNOSTIC_SOURCE } from '../shared/protocol';
import type { DiagnosticData } from './diagnostics';
import {
  addDescriptionLineEdit,
  addWordsEdit,
  descriptionLimit,
  ignoreCommentEdit,
  ignoreMetadataEdit,
  removeBomEdit,
  setNameEdit,
  trimDescriptionEdit,
} from './quickFixes';

export interface CodeActionInput {
  uri: string;
  text: string;
  range: Range;
  diagnostics: Diagnostic[];
  /** The folder name `name` must equal; undefined for folder-less files. */
  folderName?: string;
  /** Whether the client can show a preview before applying (change annotations). */
  annotations: boolean;
}

const overlaps = (a: Range, b: Range) =>
  !(a.end.line < b.start.line || (a.end.line === b.start.line && a.end.character < b.start.character) ||
    b.end.line < a.start.line || (b.end.line === a.start.line && b.end.character < a.start.character));

function edit(uri: string, edits: TextEdit[]): WorkspaceEdit {
  return { changes: { [uri]: edits } };
}

const preview = (s: string, n = 60) => (s.length > n ? `…${s.slice(-n)}` : s);

const NAME_FORMAT = new Set(['frontmatter.name-case', 'frontmatter.name-chars', 'frontmatter.name-hyphen']);
/** Codes whose YAML mistake the front-matter parser found, with its repair. */
const YAML_CODES = new Set(['frontmatter.invalid-yaml', 'frontmatter.value-cut', 'frontmatter.name-empty', 'frontmatter.description-empty', 'frontmatter.compatibility-type']);

/** The parser's repairs of a YAML mistake, offered on the diagnostic that reports it (the first preferred). */
function yamlFixes(uri: string, fm: FrontMatterResult, ours: Diagnostic[]): CodeAction[] {
  const out: CodeAction[] = [];
  const sources = [
    ...(fm.error?.fixes ? [{ range: fm.error.range, fixes: fm.error.fixes }] : []),
    ...fm.pitfalls.map((p) => ({ range: p.range, fixes: p.fixes })),
  ];
  for (const d of ours.filter((x) => YAML_CODES.has(String(x.code)))) {
    const source = sources.find((s) => s.range.start.line === d.range.start.line || overlaps(s.range, d.range));
    source?.fixes.forEach((fix, i) => {
      out.push({ title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: i === 0, edit: edit(uri, fix.edits) });
    });
  }
  return out;
}

export function codeActions(input: CodeActionInput): CodeAction[] {
  const { uri, text } = input;
  const ours = input.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
  const actions: CodeAction[] = [];
  const fm = parseFrontMatter(text);

  // Name ≠ folder: offered from our diagnostic, or on the name line when only VS Code reports it.
  const name = fm.data.name;
  const nameRange = fm.keyRanges.name;
  const nameDiags = ours.filter((d) => d.code === 'frontmatter.name-mismatch' || d.code === 'frontmatter.name-missing');
  const mismatch = input.folderName !== undefined && (typeof name !== 'string' || name.trim() !== input.folderName);
  // Only a folder name that is itself a valid name (`android--virtual-agent` is not: consecutive
  // hyphens) may be written into `name`: a quick fix never makes a new error.
  const folderIsName = input.folderName !== undefined && suggestName(input.folderName) === input.folderName;
  if (mismatch && folderIsName && (nameDiags.length || (nameRange && overlaps(nameRange, input.range)))) {
    const edits = setNameEdit(text, input.folderName!);
    if (edits) {
      actions.push({
        title: `Set name to the folder name "${input.folderName}"`,
        kind: CodeActionKind.QuickFix,
        diagnostics: nameDiags,
        isPreferred: true,
        edit: edit(uri, edits),
      });
    }
  }

  actions.push(...yamlFixes(uri, fm, ours));
  const format = ours.filter((d) => NAME_FORMAT.has(String(d.code)));
  const suggested = typeof name === 'string' ? suggestName(name) : '';
  if (format.length && suggested && suggested !== input.folderName && suggested !== name) {
    const edits = setNameEdit(text, suggested);
    if (edits) actions.push({ title: `Set name to "${suggested}"`, kind: CodeActionKind.QuickFix, diagnostics: format, edit: edit(uri, edits) });
  }

  for (const d of ours) {
    const data = (d.data ?? {}) as DiagnosticData;
    if (d.code === 'frontmatter.description-too-long' || d.code === 'skill.budget') {
      const profile = data.profile && isProfileId(data.profile) ? (data.profile as ProfileId) : undefined;
      const limit = descriptionLimit(fm.data, d.code === 'skill.budget' ? profile : undefined);
      const trim = limit !== null ? trimDescriptionEdit(text, limit) : null;
      if (trim) {
        const title = `Trim the description to ${trim.kept.length} characters (cuts "${preview(trim.removed, 40)}")`;
        const wsEdit: WorkspaceEdit = input.annotations
          ? {
              changeAnnotations: {
                trim: { label: 'Trim description', description: `Removes: ${trim.removed}`, needsConfirmation: true },
              },
              documentChanges: [
                {
                  textDocument: { uri, version: null },
                  edits: trim.edits.map((e) => ({ ...e, annotationId: 'trim' })),
                },
              ],
            }
          : edit(uri, trim.edits);
        actions.push({ title, kind: CodeActionKind.QuickFix, diagnostics: [d], edit: wsEdit });
      }
    }
    if (d.code === 'file.bom') {
      const bom = removeBomEdit(text);
      if (bom) actions.push({ title: 'Remove the byte order mark (UTF-8 without BOM)', kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: true, edit: edit(uri, bom) });
    }
    if (d.code === 'skill.broken-reference' && data.suggestion) {
      actions.push({ title: `Replace with '${data.suggestion}'`, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: true, edit: edit(uri, [{ range: d.range, newText: data.suggestion }]) });
    }
    if (d.code === 'skill.unreachable' && data.words?.length) {
      const add = addWordsEdit(text, data.words, data.atStart === true);
      if (add) actions.push({ title: `add: ${data.words.join(', ')} (to the description)`, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: true, edit: edit(uri, add) });
    }
    if ((d.code === 'skill.near-duplicate' || d.code === 'skill.conflict' || d.code === 'skill.copy') && data.twin) {
      const twin = data.twin;
      // The line comes from the words that set the twin apart (core); a copy gets none, since
      // telling a copy apart from itself means nothing.
      const add = d.code !== 'skill.copy' && data.suggestion ? addDescriptionLineEdit(text, data.suggestion) : null;
      if (add) {
        actions.push({
          title: `Add to the description: "${data.suggestion}"`,
          kind: CodeActionKind.QuickFix,
          diagnostics: [d],
          isPreferred: true,
          edit: edit(uri, add),
        });
      }
      const comment = ignoreCommentEdit(text, String(d.code), twin.name);
      if (comment) {
        actions.push({
          title: `Ignore ${d.code} about "${twin.name}" in this skill (comment)`,
          kind: CodeActionKind.QuickFix,
          diagnostics: [d],
          edit: edit(uri, comment),
        });
      }
      const meta = ignoreMetadataEdit(text, twin.name);
      if (meta) {
        actions.push({
          title: `Ignore every finding about "${twin.name}" in this skill (front matter metadata)`,
          kind: CodeActionKind.QuickFix,
          diagnostics: [d],
          edit: edit(uri, meta),
        });
      }
    }
  }
  return actions;
}
