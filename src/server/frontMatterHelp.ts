/**
 * Hover and completion for SKILL.md front-matter keys: what each key does and its limits under
 * the selected client profiles. Key lists come from the engine's profiles (core/profiles.ts).
 */
import type { CompletionItem, Hover, Position } from 'vscode-languageserver';
import { CompletionItemKind, InsertTextFormat, MarkupKind } from 'vscode-languageserver';
import { parseFrontMatter } from '../core/parse/frontMatter';
import {
  allowedKeys,
  CLIENT_PROFILES,
  MAX_COMPATIBILITY,
  MAX_DESCRIPTION,
  MAX_NAME,
  SPEC_FIELDS,
  type ProfileId,
} from '../core/profiles';

/** What each key means, in the words an author needs. */
export const KEY_DOCS: Record<string, string> = {
  name: `Required. The skill's identifier: lowercase letters, digits and hyphens, 1-${MAX_NAME} characters, no hyphen at either end and no double hyphen. It must equal the skill's folder name.`,
  description: `Required. What the skill does and when to use it, in 1-${MAX_DESCRIPTION} characters. Agents choose skills by this text alone, so name the tasks, inputs and file types that should trigger it, and what it is not for.`,
  license: 'Optional. The license of the skill: a license name or the name of a license file bundled with it.',
  compatibility: `Optional. Environment requirements (intended product, system packages, network access), at most ${MAX_COMPATIBILITY} characters. Most skills do not need it.`,
  metadata: 'Optional. A mapping of extra keys to values for clients and tools. Skill Router reads `metadata.skill-router.ignore`: a list of skill names (or diagnostic codes) whose findings this skill dismisses.',
  'allowed-tools': 'Optional, experimental. Tools the skill may use without asking, as a space-separated string or a list.',
  when_to_use: 'Claude Code. More guidance on when to use the skill; Claude Code lists it after the description, and it counts against the listing cap.',
  'disable-model-invocation': 'Set to `true` so that only the user can start the skill; the agent never loads it on its own.',
  'user-invocable': 'Set to `false` to hide the skill from the user\'s slash-command menu (the agent may still use it).',
  'argument-hint': 'A hint for the arguments the skill takes, shown when the user starts it by name (for example `[issue-number]`).',
  model: 'Claude Code. The model to use while the skill runs.',
  context: 'Claude Code. `fork` runs the skill in a separate sub-agent context.',
  agent: 'Claude Code. The sub-agent type that runs the skill when `context` is `fork`.',
  hooks: 'Claude Code. Hooks that apply while the skill is active.',
  paths: 'Claude Code. File globs that limit when the skill is offered automatically.',
  version: 'Claude Code. A version string for the skill.',
};

/** Profiles that accept `key`, as labels. */
function acceptedBy(key: string): string[] {
  if ((SPEC_FIELDS as readonly string[]).includes(key)) return [CLIENT_PROFILES.spec.label];
  return Object.values(CLIENT_PROFILES).filter((p) => p.extraKeys.includes(key)).map((p) => p.label);
}

/** Limits that apply to `key` under the selected profiles, one line each. */
function limits(key: string, profiles: readonly ProfileId[]): string[] {
  const out: string[] = [];
  if (key === 'name') out.push(`Agent Skills spec: at most ${MAX_NAME} characters; must match the folder name.`);
  if (key === 'description') out.push(`Agent Skills spec: at most ${MAX_DESCRIPTION} characters.`);
  if (key === 'compatibility') out.push(`Agent Skills spec: at most ${MAX_COMPATIBILITY} characters.`);
  for (const id of profiles) {
    const p = CLIENT_PROFILES[id];
    if (!p.listingFields.includes(key)) continue;
    if (p.listingCap !== undefined) out.push(`${p.label}: lists only the first ${p.listingCap} characters of ${p.listingFields.join(' + ')}.`);
    if (p.dropDescriptionOver !== undefined && key === 'description') {
      out.push(`${p.label}: does not load a skill whose description is over ${p.dropDescriptionOver} characters.`);
    }
  }
  return out;
}

/** Markdown explaining one key; null for keys nobody defines. */
export function keyDocumentation(key: string, profiles: readonly ProfileId[], value?: unknown): string | null {
  const doc = KEY_DOCS[key];
  if (!doc) return null;
  const parts = [`**${key}**: ${doc}`];
  const by = acceptedBy(key);
  const selected = new Set(allowedKeys(profiles));
  parts.push(`Accepted by: ${by.join(', ')}${selected.has(key) ? '' : ' (not by the selected profiles)'}.`);
  const lim = limits(key, profiles);
  if (lim.length) parts.push(lim.map((l) => `- ${l}`).join('\n'));
  if (typeof value === 'string') parts.push(`This value: ${value.length} characters.`);
  return parts.join('\n\n');
}

const KEY_LINE = /^([A-Za-z0-9_][\w.-]*)\s*:/;

/** Hover on a top-level front-matter key. */
export function frontMatterHover(text: string, pos: Position, profiles: readonly ProfileId[]): Hover | null {
  const fm = parseFrontMatter(text);
  if (!fm.hasFrontMatter || pos.line < 1 || pos.line >= fm.bodyStartLine - 1) return null;
  const line = text.split('\n')[pos.line]?.replace(/\r$/, '') ?? '';
  const m = KEY_LINE.exec(line);
  if (!m || pos.character > m[1].length) return null;
  const markdown = keyDocumentation(m[1], profiles, fm.data[m[1]]);
  if (!markdown) return null;
  return {
    contents: { kind: MarkupKind.Markdown, value: markdown },
    range: { start: { line: pos.line, character: 0 }, end: { line: pos.line, character: m[1].length } },
  };
}

/** Inside the front matter (between the delimiters), including an unclosed block. */
function inFrontMatter(lines: string[], line: number): boolean {
  if (!/^---\s*$/.test(lines[0] ?? '') || line < 1) return false;
  for (let i = 1; i < lines.length; i++) if (/^(---|\.\.\.)\s*$/.test(lines[i])) return line < i;
  return true;
}

/** Keys the selected profiles allow and the front matter lacks, offered at the start of a line. */
export function frontMatterCompletions(text: string, pos: Position, profiles: readonly ProfileId[]): CompletionItem[] {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (!inFrontMatter(lines, pos.line)) return [];
  const prefix = (lines[pos.line] ?? '').slice(0, pos.character);
  if (!/^[\w-]*$/.test(prefix)) return [];
  const present = new Set(lines.slice(1).map((l) => KEY_LINE.exec(l)?.[1]).filter(Boolean) as string[]);
  return allowedKeys(profiles)
    .filter((k) => !present.has(k) && k.startsWith(prefix))
    .map((key, i) => ({
      label: key,
      kind: CompletionItemKind.Property,
      detail: acceptedBy(key).join(', '),
      documentation: { kind: MarkupKind.Markdown, value: keyDocumentation(key, profiles) ?? key },
      sortText: String(i).padStart(3, '0'),
      insertTextFormat: InsertTextFormat.PlainText,
      textEdit: { range: { start: { line: pos.line, character: 0 }, end: pos }, newText: `${key}: ` },
    }));
}
