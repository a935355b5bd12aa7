/**
 * Text edits behind the quick fixes: set `name` to the folder name, trim a description to a limit,
 * add a line sending requests to the twin skill (its words come from core), dismiss a finding
 * about a twin, add the words that bring a skill's lost requests back (`skill.unreachable`), and
 * remove a byte order mark (`file.bom`).
 * Pure functions of the document text, so they are tested without a server.
 */
import type { TextEdit } from 'vscode-languageserver';
import { parseFrontMatter, type FrontMatterResult } from '../core/parse/frontMatter';
import { CLIENT_PROFILES, MAX_DESCRIPTION, withAddedWords, type ProfileId } from '../core/profiles';

const PLAIN_SAFE = /^[^\s\-?:,[\]{}#&*!|>'"%@`][^\n]*$/;

/** A YAML scalar for `value` on one line: plain when safe, else double-quoted (JSON is valid YAML). */
export function yamlScalar(value: string): string {
  const plain = PLAIN_SAFE.test(value) && !/:\s|:$|\s#|\s$/.test(value) && !/^(true|false|null|~|yes|no|on|off|[-+.\d][\d._eE+-]*)$/i.test(value);
  return plain ? value : JSON.stringify(value);
}

function lines(text: string): string[] {
  return text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

function parse(text: string): { fm: FrontMatterResult; lines: string[] } | null {
  const fm = parseFrontMatter(text);
  if (!fm.hasFrontMatter || fm.error || fm.bodyStartLine === 0) return null;
  return { fm, lines: lines(text) };
}

/** Sets `name` to the folder name (adds the key when it is missing). */
export function setNameEdit(text: string, folderName: string): TextEdit[] | null {
  const p = parse(text);
  if (!p) return null;
  const value = yamlScalar(folderName);
  const range = p.fm.keyRanges.name;
  if (range) return [{ range, newText: `name: ${value}` }];
  return [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, newText: `name: ${value}\n` }];
}

/** Rewrites the description value, keeping a `|` or `>` block scalar a block scalar. */
export function replaceDescriptionEdit(text: string, description: string): TextEdit[] | null {
  const p = parse(text);
  const range = p?.fm.keyRanges.description;
  if (!p || !range) return null;
  const first = p.lines[range.start.line];
  const block = /^description\s*:\s*([|>][-+0-9]*)\s*(#.*)?$/.exec(first);
  if (block) {
    const contentLine = p.lines.slice(range.start.line + 1, range.end.line + 1).find((l) => l.trim());
    const indent = contentLine ? /^\s*/.exec(contentLine)![0] : '  ';
    const body = description.split('\n').map((l) => (l ? indent + l : '')).join('\n');
    return [{ range, newText: `description: ${block[1]}\n${body}` }];
  }
  return [{ range, newText: `description: ${yamlScalar(description.replace(/\s*\n\s*/g, ' '))}` }];
}

/**
 * `description` cut to at most `limit` characters: at the last sentence end when that keeps most
 * of the text, else at the last word.
 */
export function trimText(description: string, limit: number): string {
  if (description.length <= limit) return description;
  const head = description.slice(0, limit);
  let sentenceEnd = -1;
  for (const m of head.matchAll(/[.!?。！？](?=\s|$)/g)) sentenceEnd = m.index! + 1;
  if (sentenceEnd >= limit * 0.6) return head.slice(0, sentenceEnd).trimEnd();
  const space = head.lastIndexOf(' ');
  const cut = space >= limit * 0.6 ? head.slice(0, space) : head;
  return cut.replace(/[\s,;:–—-]+$/u, '');
}

/** Characters the description may have under a profile's listing, or null when it has no limit. */
export function descriptionLimit(data: Record<string, unknown>, profile: ProfileId | undefined): number | null {
  if (!profile) return MAX_DESCRIPTION;
  const p = CLIENT_PROFILES[profile];
  if (p.dropDescriptionOver !== undefined) return p.dropDescriptionOver;
  if (p.listingCap === undefined) return null;
  // The listing joins its fields with a newline; the other fields keep their length.
  const others = p.listingFields
    .filter((f) => f !== 'description')
    .map((f) => data[f])
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    .reduce((n, v) => n + v.length + 1, 0);
  return p.listingCap - others;
}

/** Trims the description to `limit`; also returns the cut text for the preview. */
export function trimDescriptionEdit(text: string, limit: number): { edits: TextEdit[]; kept: string; removed: string } | null {
  const p = parse(text);
  const description = p?.fm.data.description;
  if (!p || typeof description !== 'string' || limit < 20) return null;
  const full = description.trim();
  if (full.length <= limit) return null;
  const kept = trimText(full, limit);
  const edits = replaceDescriptionEdit(text, kept);
  return edits ? { edits, kept, removed: full.slice(kept.length).trim() } : null;
}

/**
 * Adds `line` to the description (a new line in a `|` block, else a sentence after it); null when
 * the description already holds it.
 */
export function addDescriptionLineEdit(text: string, line: string): TextEdit[] | null {
  const p = parse(text);
  const description = p?.fm.data.description;
  if (!p || typeof description !== 'string' || description.includes(line)) return null;
  const literal = /^description\s*:\s*\|/.test(p.lines[p.fm.keyRanges.description?.start.line ?? 0] ?? '');
  const next = `${description.trimEnd()}${literal ? '\n' : ' '}${line}`;
  // A fix that would take the description over the spec's limit is none: the checks would fail it.
  if (next.length > MAX_DESCRIPTION) return null;
  return replaceDescriptionEdit(text, next);
}

/** Dismisses `code` about `twin` with a comment on the first body line. */
export function ignoreCommentEdit(text: string, code: string, twin: string): TextEdit[] | null {
  const p = parse(text);
  if (!p) return null;
  const at = { line: p.fm.bodyStartLine, character: 0 };
  return [{ range: { start: at, end: at }, newText: `<!-- skill-router-ignore ${code} ${twin} -->\n` }];
}

/** Dismisses every pair finding about `twin` in front-matter metadata; null when `metadata` exists. */
export function ignoreMetadataEdit(text: string, twin: string): TextEdit[] | null {
  const p = parse(text);
  if (!p || 'metadata' in p.fm.data || p.fm.keyRanges.metadata) return null;
  const at = { line: p.fm.bodyStartLine - 1, character: 0 };
  return [{ range: { start: at, end: at }, newText: `metadata:\n  skill-router:\n    ignore: [${yamlScalar(twin)}]\n` }];
}

/**
 * Adds `words` to the description (`skill.unreachable`): at its end, or at its start when the
 * client's listing cuts the description (`atStart`), as `reach` verified them (core `withAddedWords`).
 */
export function addWordsEdit(text: string, words: readonly string[], atStart: boolean): TextEdit[] | null {
  const p = parse(text);
  const description = p?.fm.data.description;
  if (!p || typeof description !== 'string' || !words.length) return null;
  return replaceDescriptionEdit(text, withAddedWords(description, words.join(', '), atStart));
}

/**
 * Removes the byte order mark at the start of the text (`file.bom`); null when the text has none
 * (VS Code keeps the mark out of the buffer and writes it back on save: there the fix is "Save
 * with Encoding", UTF-8).
 */
export function removeBomEdit(text: string): TextEdit[] | null {
  if (text.charCodeAt(0) !== 0xfeff) return null;
  return [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, newText: '' }];
}
