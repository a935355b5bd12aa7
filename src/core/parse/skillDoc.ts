/** Turns the bytes of one SKILL.md into a `SkillDoc`, with a clear reason when it cannot. */
import type { SkillDoc } from '../types';
import type { Finding } from '../types';
import { hasCjk } from '../text/analyse';
import { contentHash } from '../text/hash';
import { ignoreComments } from '../policy/suppression';
import { parseFrontMatter } from './frontMatter';
import type { ProfileId } from '../profiles';
import { validateFrontMatter } from './validate';
import { validateBody } from './bodyChecks';

/** Files larger than this are not indexed: an agent would load all of it into context. */
export const MAX_SKILL_BYTES = 1024 * 1024;

export class SkillReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SkillReadError';
  }
}

/** How the bytes of a file decoded: invalid UTF-8 replaced, a byte order mark dropped. */
export interface DecodeNotes {
  invalidUtf8?: boolean;
  bom?: boolean;
}

/** Decodes UTF-8 (a leading byte order mark is dropped and noted); refuses binary and oversized files, flags invalid UTF-8. */
export function decodeSkillBytes(bytes: Uint8Array): { text: string; invalidUtf8: boolean; bom: boolean } {
  if (bytes.length > MAX_SKILL_BYTES) {
    throw new SkillReadError(
      `SKILL.md is ${(bytes.length / 1048576).toFixed(1)} MB; skills over 1 MB are not indexed ` +
        '(an agent loads the whole file). Move reference material into separate files.',
    );
  }
  const probe = bytes.subarray(0, 8192);
  if (probe.includes(0)) throw new SkillReadError('SKILL.md looks like a binary file (it contains NUL bytes); it was not indexed.');
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), invalidUtf8: false, bom };
  } catch {
    return { text: new TextDecoder('utf-8').decode(bytes), invalidUtf8: true, bom };
  }
}

export interface SkillSource {
  id: string;
  path: string;
  /** The folder name the spec compares `name` with; undefined for folder-less libraries. */
  folderName?: string;
}

function stringField(data: Record<string, unknown>, key: string): string {
  const v = data[key];
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return '';
}

/** `file.bom`: the file starts with a UTF-8 byte order mark. */
export function bomFinding(): Finding {
  return {
    code: 'file.bom',
    severity: 'error',
    message: 'SKILL.md starts with a UTF-8 byte order mark (BOM) before `---`: the reference validator (skills-ref) and other clients then find no front matter. Save the file as UTF-8 without BOM.',
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
  };
}

/**
 * Parses and validates one skill file. `notes` says how its bytes decoded (`decodeSkillBytes`); a
 * text that still starts with U+FEFF (an editor buffer) has a byte order mark too. Never throws
 * on content.
 */
export function parseSkill(source: SkillSource, text: string, profiles: readonly ProfileId[], notes: DecodeNotes = {}): SkillDoc {
  const fm = parseFrontMatter(text);
  const findings: Finding[] = [];
  // The reference validator reads the mark as text before `---` and finds no front matter; ours
  // drops it, so the rest of the file is still checked.
  if (notes.bom || text.charCodeAt(0) === 0xfeff) findings.push(bomFinding());
  findings.push(...validateFrontMatter(fm, source.folderName, profiles));
  findings.push(...validateBody(fm.body, fm.bodyStartLine));
  if (notes.invalidUtf8) {
    findings.push({
      code: 'file.encoding',
      severity: 'warning',
      message: 'SKILL.md is not valid UTF-8; invalid bytes were replaced. Save the file as UTF-8.',
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    });
  }
  const name = stringField(fm.data, 'name') || source.folderName || source.id.split('/').pop() || source.id;
  const description = stringField(fm.data, 'description');
  return {
    id: source.id,
    path: source.path,
    name,
    description,
    body: fm.body,
    frontMatter: fm.data,
    keyRanges: fm.keyRanges,
    bodyStartLine: fm.bodyStartLine,
    lang: hasCjk(description || fm.body.slice(0, 2000)) ? 'zh' : 'en',
    hash: contentHash(text),
    findings,
    ignoreComments: ignoreComments(fm.body),
  };
}
