/**
 * Files of a skill folder on disk: whether those a skill's body points at exist, for the reference
 * checks (core/analysis/references.ts), and whether a SKILL.md starts with a byte order mark.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { FileExists } from '../core/analysis/references';
import { within } from './fsWorkspace';

/**
 * A `FileExists` over the library folder `root`: a library-relative path exists when a file or
 * folder is there. Nothing outside `root` is looked at (the core never asks for it either).
 */
export function libraryFileExists(root: string): FileExists {
  return (rel) => {
    const abs = path.join(root, ...rel.split('/'));
    if (!within(root, abs)) return true;
    try {
      statSync(abs);
      return true;
    } catch {
      return false;
    }
  };
}

/** Whether `file` starts with a UTF-8 byte order mark (three bytes read; false when unreadable). */
export function startsWithBom(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = new Uint8Array(3);
    return readSync(fd, head, 0, 3, 0) === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
