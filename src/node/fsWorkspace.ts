/**
 * Finds SKILL.md files under a library root: skips `.git` and `node_modules`, follows symlinked
 * folders once (a loop is reported, not followed), and reads file bytes with a size guard.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { SkillFileRef, SkillWorkspace } from '../core/workspace';
import { MAX_SKILL_BYTES } from '../core/parse/skillDoc';

const SKIP_DIRS = new Set(['.git', 'node_modules', '.hg', '.svn', '.skill-router-cache']);
const SKILL_FILE = 'SKILL.md';

export interface FsWorkspaceOptions {
  /** Extra folder names to skip (e.g. from settings). */
  exclude?: string[];
  /** Open editor buffers by absolute path; they win over disk. */
  overlay?: Map<string, string>;
}

export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

export class FsWorkspace implements SkillWorkspace {
  readonly root: string;
  private readonly skip: Set<string>;

  constructor(root: string, private readonly opts: FsWorkspaceOptions = {}) {
    this.root = path.resolve(root);
    this.skip = new Set([...SKIP_DIRS, ...(opts.exclude ?? [])]);
  }

  async list(): Promise<{ files: SkillFileRef[]; problems: { path: string; message: string }[] }> {
    const files: SkillFileRef[] = [];
    const problems: { path: string; message: string }[] = [];
    const visited = new Set<string>();
    const rootReal = await fs.realpath(this.root).catch(() => {
      throw new Error(`library folder not found: ${this.root}`);
    });
    const rootStat = await fs.stat(rootReal);
    if (rootStat.isFile()) {
      // A single SKILL.md given as the library.
      const dir = path.dirname(this.root);
      return { files: [{ id: path.basename(dir), path: path.basename(this.root), folderName: path.basename(dir) }], problems };
    }
    const walk = async (dir: string, rel: string): Promise<void> => {
      let real: string;
      try {
        real = await fs.realpath(dir);
      } catch (err) {
        problems.push({ path: rel || '.', message: `cannot resolve folder: ${(err as Error).message}` });
        return;
      }
      if (visited.has(real)) {
        problems.push({ path: rel || '.', message: 'symbolic link loop: this folder was already visited; not followed again' });
        return;
      }
      visited.add(real);
      let entries: import('node:fs').Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch (err) {
        problems.push({ path: rel || '.', message: `cannot read folder: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` });
        return;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const subdirs: Promise<void>[] = [];
      for (const e of entries) {
        const childRel = rel ? `${rel}/${e.name}` : e.name;
        const child = path.join(dir, e.name);
        let isDir = e.isDirectory();
        let isFile = e.isFile();
        if (e.isSymbolicLink()) {
          const st = await fs.stat(child).catch(() => null);
          if (!st) {
            problems.push({ path: childRel, message: 'broken symbolic link' });
            continue;
          }
          isDir = st.isDirectory();
          isFile = st.isFile();
        }
        if (isDir) {
          if (!this.skip.has(e.name)) subdirs.push(walk(child, childRel));
        } else if (isFile && e.name === SKILL_FILE) {
          const id = rel || '.';
          files.push({ id, path: childRel, folderName: rel ? path.posix.basename(rel) : path.basename(this.root) });
        }
      }
      await Promise.all(subdirs);
    };
    await walk(this.root, '');
    files.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { files, problems };
  }

  async read(ref: SkillFileRef): Promise<Uint8Array> {
    const abs = path.join(this.root, ...ref.path.split('/'));
    const open = this.opts.overlay?.get(abs);
    if (open !== undefined) return new TextEncoder().encode(open);
    const st = await fs.stat(abs);
    if (st.size > MAX_SKILL_BYTES) {
      throw new Error(
        `SKILL.md is ${(st.size / 1048576).toFixed(1)} MB; skills over 1 MB are not indexed ` +
          '(an agent loads the whole file). Move reference material into separate files.',
      );
    }
    return fs.readFile(abs);
  }

  /** Absolute path of a skill file. */
  absolute(ref: { path: string }): string {
    return path.join(this.root, ...ref.path.split('/'));
  }
}
