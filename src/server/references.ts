/**
 * Definition, references, rename and document links of skill names (core/analysis/references.ts
 * finds them): thin answers over a `ReferenceView`, the library of one document as it stands, open
 * buffers winning over disk.
 */
import type { DocumentLink, Location, Range, RenameFile, TextDocumentEdit, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import {
  bodyRange,
  libraryPath,
  nameValueRange,
  rangeContains,
  referenceAt,
  resolvedReferences,
  scanBody,
  type FileExists,
  type LibraryNames,
} from '../core/analysis/references';
import { suggestName } from '../core/parse/validate';
import type { SkillDoc } from '../core/types';
import { FIRST_LINE } from './diagnostics';

/** One document's library, for the reference requests. */
export interface ReferenceView {
  /** Every skill of the library as it stands (open buffers parsed as they are). */
  docs: readonly SkillDoc[];
  names: LibraryNames;
  /** The document's own skill, and its text. */
  self: SkillDoc;
  selfText: string;
  uriOf(doc: SkillDoc): string;
  /** The text of a skill's SKILL.md (its buffer when open, else the file); null when unreadable. */
  textOf(doc: SkillDoc): Promise<string | null>;
  /** URI of a path relative to the library root. */
  libraryUri(relPath: string): string;
  exists: FileExists;
}

/** Why a rename cannot be done, said to the user. */
export class RenameRefused extends Error {}

interface Target {
  ids: string[];
  /** The name as written at the position, and where. */
  range: Range;
  name: string;
}

/** The skill name at a position: the front-matter `name` or a reference in the body. */
function targetAt(view: ReferenceView, position: Range['start']): Target | undefined {
  const { self } = view;
  const key = self.keyRanges.name;
  if (key && rangeContains(key, position)) {
    const value = nameValueRange(view.selfText.split(/\r?\n/), key);
    return { ids: [self.id], range: value ?? key, name: self.name };
  }
  const ref = referenceAt(resolvedReferences(self, view.names), position);
  return ref && ref.toIds.length ? { ids: ref.toIds, range: ref.range, name: ref.name } : undefined;
}

const byId = (view: ReferenceView, id: string) => view.docs.find((d) => d.id === id);

/** Where a skill is declared: its `name` line (the first line when it has none). */
function declaration(view: ReferenceView, doc: SkillDoc): Location {
  return { uri: view.uriOf(doc), range: doc.keyRanges.name ?? FIRST_LINE };
}

/** `textDocument/definition`: the SKILL.md (its `name` line) of the skill named at the position. */
export function definition(view: ReferenceView, position: Range['start']): Location[] | null {
  const target = targetAt(view, position);
  if (!target) return null;
  return target.ids.map((id) => byId(view, id)).filter((d): d is SkillDoc => !!d).map((d) => declaration(view, d));
}

/** `textDocument/references`: every place in the library that names the skill at the position. */
export function references(view: ReferenceView, position: Range['start'], includeDeclaration: boolean): Location[] {
  const target = targetAt(view, position);
  if (!target) return [];
  const ids = new Set(target.ids);
  const out: Location[] = [];
  if (includeDeclaration) for (const id of ids) {
    const d = byId(view, id);
    if (d) out.push(declaration(view, d));
  }
  for (const d of view.docs) {
    for (const r of resolvedReferences(d, view.names)) if (r.toIds.some((t) => ids.has(t))) out.push({ uri: view.uriOf(d), range: r.range });
  }
  return out;
}

/** `textDocument/prepareRename`: the name under the cursor, when it names exactly one skill. */
export function prepareRename(view: ReferenceView, position: Range['start']): { range: Range; placeholder: string } | null {
  const target = targetAt(view, position);
  if (!target) return null;
  if (target.ids.length !== 1) throw new RenameRefused(`'${target.name}' names ${target.ids.length} skills of this library; rename one of them from its own SKILL.md`);
  return { range: target.range, placeholder: target.name };
}

/**
 * `textDocument/rename`: one edit that renames the skill's `name`, every reference that names
 * only it, and (when its folder is named like it and the client can rename files) its folder, so
 * that name and folder stay equal. A client that cannot rename files gets the text edits only,
 * and `frontmatter.name-mismatch` then says the folder is left to rename.
 */
export async function rename(view: ReferenceView, position: Range['start'], newName: string, canRenameFolders: boolean): Promise<WorkspaceEdit | null> {
  const target = targetAt(view, position);
  if (!target) return null;
  if (target.ids.length !== 1) throw new RenameRefused(`'${target.name}' names ${target.ids.length} skills of this library; rename one of them from its own SKILL.md`);
  const skill = byId(view, target.ids[0]);
  if (!skill) return null;
  const name = newName.trim();
  if (!name || suggestName(name) !== name) throw new RenameRefused(`'${newName}' is not a valid skill name: lower-case letters, digits and single hyphens (e.g. '${suggestName(newName) || 'my-skill'}')`);
  if (name === skill.name) return { changes: {} };
  const taken = view.names.resolve(name).filter((id) => id !== skill.id);
  if (taken.length) throw new RenameRefused(`a skill named '${name}' exists already (${taken[0]})`);

  // Edits by the skill they go to, placed once it is known whether the folder moves.
  const edits = new Map<SkillDoc, TextEdit[]>();
  const add = (doc: SkillDoc, e: TextEdit) => (edits.get(doc) ?? edits.set(doc, []).get(doc)!).push(e);
  const text = await view.textOf(skill);
  const value = text === null ? undefined : nameValueRange(text.split(/\r?\n/), skill.keyRanges.name);
  if (value) add(skill, { range: value, newText: name });
  for (const d of view.docs) {
    for (const r of resolvedReferences(d, view.names)) if (r.toIds.length === 1 && r.toIds[0] === skill.id) add(d, { range: r.range, newText: name });
  }

  const slash = skill.id.lastIndexOf('/');
  const folder = skill.id.slice(slash + 1);
  const newFolder = `${skill.id.slice(0, slash + 1)}${name}`;
  const moveFolder = canRenameFolders && skill.path === `${skill.id}/SKILL.md` && folder === skill.name && !view.exists(newFolder);
  if (!moveFolder) return { changes: Object.fromEntries([...edits].map(([d, e]) => [view.uriOf(d), e])) };
  // The folder moves first, then the text edits go to the files where they are then (LSP applies
  // document changes in order; VS Code cannot edit a file whose folder a later change moves).
  const inFolder = `${skill.id}/`;
  const uriAfter = (d: SkillDoc) => (d.path.startsWith(inFolder) ? view.libraryUri(`${newFolder}/${d.path.slice(inFolder.length)}`) : view.uriOf(d));
  const documentChanges: (TextDocumentEdit | RenameFile)[] = [{ kind: 'rename', oldUri: view.libraryUri(skill.id), newUri: view.libraryUri(newFolder) }];
  for (const [d, e] of edits) documentChanges.push({ textDocument: { uri: uriAfter(d), version: null }, edits: e });
  return { documentChanges };
}

/** `textDocument/documentLink`: relative links and path mentions of the body that lead to a file of the library. */
export function documentLinks(view: ReferenceView): DocumentLink[] {
  const out: DocumentLink[] = [];
  for (const f of scanBody(view.self.body, view.names).files) {
    const rel = libraryPath(view.self, f.path);
    if (rel !== null && view.exists(rel)) out.push({ range: bodyRange(view.self, f), target: view.libraryUri(rel) });
  }
  return out;
}
