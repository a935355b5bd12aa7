/**
 * Per-skill dismissal of findings (docs/diagnostics.md, "Suppressing a finding"):
 * - front matter: `metadata: { skill-router: { ignore: [other-skill, skill.conflict] } }`:
 *   a skill name (or folder id) silences pair findings about that twin; a code silences the code;
 * - a body comment: `<!-- skill-router-ignore skill.near-duplicate other-skill -->`: a code and
 *   the twins it applies to; a code alone silences it in this file; names alone silence every
 *   pair finding about them.
 * The editor and `skill-router check` both apply them, through `applyFindingPolicy`.
 */
import type { SkillDoc } from '../types';

export interface Suppressions {
  /** Twins whose pair findings are dismissed, by code (`*` for every pair code). */
  twins: Map<string, Set<string>>;
  /** Codes dismissed for the whole file. */
  codes: Set<string>;
}

const CODE = /^(frontmatter|skill|file|body)\.[a-z][a-z-]*$/;
const COMMENT = /<!--\s*skill-router-ignore\b([\s\S]*?)-->/g;

function addTwin(s: Suppressions, code: string, twin: string): void {
  let set = s.twins.get(code);
  if (!set) s.twins.set(code, (set = new Set()));
  set.add(twin);
}

/** What follows `skill-router-ignore` in each such comment of a body (`SkillDoc.ignoreComments`). */
export function ignoreComments(body: string): string[] {
  if (!body.includes('skill-router-ignore')) return [];
  return [...body.matchAll(COMMENT)].map((m) => m[1]);
}

/** Reads the suppressions a skill declares. Never throws on odd front matter. */
export function readSuppressions(doc: Pick<SkillDoc, 'frontMatter' | 'body' | 'ignoreComments'>): Suppressions {
  const s: Suppressions = { twins: new Map(), codes: new Set() };
  const metadata = doc.frontMatter.metadata;
  const own = metadata && typeof metadata === 'object' ? (metadata as Record<string, unknown>)['skill-router'] : undefined;
  const ignore = own && typeof own === 'object' ? (own as Record<string, unknown>).ignore : undefined;
  const entries = typeof ignore === 'string' ? [ignore] : Array.isArray(ignore) ? ignore : [];
  for (const e of entries) {
    if (typeof e !== 'string' || !e.trim()) continue;
    if (CODE.test(e.trim())) s.codes.add(e.trim());
    else addTwin(s, '*', e.trim());
  }
  for (const comment of doc.ignoreComments ?? ignoreComments(doc.body)) {
    const words = comment.split(/[\s,]+/).filter(Boolean);
    if (!words.length) continue;
    if (CODE.test(words[0])) {
      if (words.length === 1) s.codes.add(words[0]);
      for (const twin of words.slice(1)) addTwin(s, words[0], twin);
    } else {
      for (const twin of words) addTwin(s, '*', twin);
    }
  }
  return s;
}

/** Whether a finding with `code` (about `twin`, for pair findings) is dismissed. */
export function isSuppressed(s: Suppressions, code: string, twin?: { id: string; name: string }): boolean {
  if (s.codes.has(code)) return true;
  if (!twin) return false;
  const names = [twin.name, twin.id, twin.id.split('/').pop() ?? twin.id];
  for (const key of [code, '*']) {
    const set = s.twins.get(key);
    if (set && names.some((n) => set.has(n))) return true;
  }
  return false;
}
