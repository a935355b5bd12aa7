/** The default client profiles of a library folder on disk (core/profiles.ts `defaultProfiles`). */
import { statSync } from 'node:fs';
import * as path from 'node:path';
import { defaultProfiles, type ProfileChoice } from '../core/profiles';

/** What the folder at `root` is or holds: `.claude/skills` → Claude Code, ..., none → the spec. */
export function workspaceProfiles(root: string): ProfileChoice {
  const isDir = (p: string) => {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  };
  return defaultProfiles(path.resolve(root).split(path.sep).join('/'), (folder) => isDir(path.join(root, ...folder.split('/'))));
}
