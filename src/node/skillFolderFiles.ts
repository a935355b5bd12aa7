/** Whether the files a skill's body points at exist on disk, for the reference checks (core/analysis/references.ts). */
import { statSync } from 'node:fs';
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
