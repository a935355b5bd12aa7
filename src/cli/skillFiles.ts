/**
 * The files of one skill folder, for `read_skill`: a file's text and the folder's file list, never
 * through a path or a link that leads outside the library. Input errors are `SkillFileError`s
 * whose message says what to send instead.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { SKIP_DIRS, within } from '../node/fsWorkspace';

/** Bytes of one file returned; a longer file is cut (the agent can read the rest with its own tools). */
export const MAX_FILE_BYTES = 256 * 1024;
/** Entries listed per skill folder. */
export const MAX_LISTED_FILES = 500;
const MAX_LIST_DEPTH = 8;

/** A request for a file that cannot be served, with what to do instead. */
export class SkillFileError extends Error {}

/** A skill folder's files, relative to it and `/`-separated. */
export interface FolderListing {
  files: string[];
  /** Whether the list stopped at `MAX_LISTED_FILES` entries. */
  truncated: boolean;
  /** Links left out: to outside the library, to a folder (not entered), or broken. */
  skippedLinks: number;
}

/** Whether `child` is `parent` or inside it (both absolute and resolved). */
/**
 * A relative file path as sent by a client, checked and normalised: no absolute paths, no `..`
 * out of the skill folder, no NUL; `\` read as `/`.
 */
export function safeRelative(file: string): string {
  if (file.includes('\0')) throw new SkillFileError('file contains a NUL character');
  const posix = file.replace(/\\/g, '/');
  if (posix.startsWith('/') || /^[A-Za-z]:/.test(posix)) {
    throw new SkillFileError(`file must be a path relative to the skill folder (e.g. "SKILL.md" or "references/api.md"), not "${file}"`);
  }
  const norm = path.posix.normalize(posix);
  if (norm === '..' || norm.startsWith('../')) throw new SkillFileError(`"${file}" is outside the skill folder; read_skill serves the files listed for the skill`);
  return norm === '.' ? '' : norm;
}

/** Library root and skill folder as real paths, the folder checked to lie inside the root. */
export async function skillFolder(root: string, id: string): Promise<{ rootReal: string; dir: string; dirReal: string }> {
  const rootReal = await fs.realpath(root);
  const dir = id === '.' ? root : path.join(root, ...id.split('/'));
  const dirReal = await fs.realpath(dir).catch(() => {
    throw new SkillFileError(`the folder of skill "${id}" is gone; search again for current ids`);
  });
  if (!within(rootReal, dirReal)) {
    throw new SkillFileError(`skill "${id}" is a link to a folder outside the library (${dirReal}); read_skill serves files inside the library only`);
  }
  return { rootReal, dir, dirReal };
}

/** The text of `rel` in the skill folder, cut at `MAX_FILE_BYTES`; binary files are refused. */
export async function readSkillFile(folder: { rootReal: string; dir: string }, rel: string): Promise<{ text: string; bytes: number; truncated: boolean }> {
  const abs = path.join(folder.dir, ...rel.split('/'));
  const real = await fs.realpath(abs).catch(() => {
    throw new SkillFileError(`no file "${rel}" in this skill; use one of the files read_skill lists`);
  });
  if (!within(folder.rootReal, real)) throw new SkillFileError(`"${rel}" is a link to outside the library; read_skill does not follow it`);
  const st = await fs.stat(real);
  if (!st.isFile()) throw new SkillFileError(`"${rel}" is a folder; name a file in it`);
  const handle = await fs.open(real, 'r');
  try {
    const size = Math.min(st.size, MAX_FILE_BYTES);
    const buf = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buf, 0, size, 0);
    const bytes = buf.subarray(0, bytesRead);
    if (bytes.subarray(0, 8192).includes(0)) throw new SkillFileError(`"${rel}" is a binary file; read_skill returns text files only`);
    // A cut can split a UTF-8 sequence: the decoder's replacement character marks it.
    return { text: bytes.toString('utf8'), bytes: st.size, truncated: st.size > bytesRead };
  } finally {
    await handle.close();
  }
}

/**
 * The files under the skill folder, sorted, skipping `.git` and `node_modules`; links are listed
 * when they lead to a file inside the library, and linked folders are not entered.
 */
export async function listSkillFolder(folder: { rootReal: string; dir: string }): Promise<FolderListing> {
  const files: string[] = [];
  let skippedLinks = 0;
  let truncated = false;
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    if (truncated || depth > MAX_LIST_DEPTH) return;
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (files.length >= MAX_LISTED_FILES) {
        truncated = true;
        return;
      }
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      const child = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) await walk(child, childRel, depth + 1);
      } else if (e.isSymbolicLink()) {
        const real = await fs.realpath(child).catch(() => null);
        const st = real && within(folder.rootReal, real) ? await fs.stat(real).catch(() => null) : null;
        if (st?.isFile()) files.push(childRel);
        else skippedLinks++;
      } else if (e.isFile()) {
        files.push(childRel);
      }
    }
  };
  await walk(folder.dir, '', 0);
  return { files, truncated, skippedLinks };
}
