/**
 * Finds SKILL.md files under a library root: skips `.git` and `node_modules`, follows symlinked
 * folders once (a loop is reported, not followed), and reads file bytes with a size guard.
 */
import { promises as fs, statSync, type Stats } from 'node:fs';
import * as path from 'node:path';
import type { SkillFileRef, SkillWorkspace } from '../core/workspace';
import { MAX_SKILL_BYTES } from '../core/parse/skillDoc';

/** Folder names discovery never enters (the library watcher skips the same). */
export const SKIP_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules', '.hg', '.svn', '.skill-router-cache']);
const SKILL_FILE = 'SKILL.md';
/** A file changed this recently is read even when its stamp matches (see `FsWorkspace.stamp`). */
const RACY_MS = 2000;

export interface FsWorkspaceOptions {
  /** Extra folder names to skip (e.g. from settings). */
  exclude?: string[];
  /** Open editor buffers by absolute path; they win over disk. */
  overlay?: Map<string, string>;
}

export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/**
 * The skill an absolute file path is, as `list()` would name it under `root`; undefined for
 * files that are not a SKILL.md inside `root` or that sit in a skipped folder.
 */
export function skillRefFor(root: string, file: string, exclude: readonly string[] = []): SkillFileRef | undefined {
  const rel = path.relative(path.resolve(root), path.resolve(file));
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const parts = rel.split(path.sep);
  if (parts[parts.length - 1] !== SKILL_FILE) return undefined;
  const dirs = parts.slice(0, -1);
  if (dirs.some((d) => SKIP_DIRS.has(d) || exclude.includes(d))) return undefined;
  const id = dirs.join('/') || '.';
  return { id, path: parts.join('/'), folderName: dirs.length ? dirs[dirs.length - 1] : path.basename(path.resolve(root)) };
}

/** Stamps taken between two turns of the event loop (see `FsWorkspace.stamp`). */
const STAMPS_PER_TURN = 64;

/** Whether `target` is `root` or lies under it (both real paths). */
export function within(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export class FsWorkspace implements SkillWorkspace {
  readonly root: string;
  private readonly skip: Set<string>;
  private stamps = 0;

  constructor(root: string, private readonly opts: FsWorkspaceOptions = {}) {
    this.root = path.resolve(root);
    this.skip = new Set([...SKIP_DIRS, ...(opts.exclude ?? [])]);
  }

  /** A walk begun by `prefetch`, for the next `list`. */
  private early: ReturnType<SkillWorkspace['list']> | undefined;

  /**
   * Begins the walk now; the next `list` answers with it. Opening a library reads its caches
   * and loads the model first: the folders are listed meanwhile (~0.1 s of a warm `route` over
   * the corpus spent waiting on them afterwards).
   */
  prefetch(): void {
    this.early ??= this.walkAll();
    this.early.catch(() => undefined);
  }

  list(): ReturnType<SkillWorkspace['list']> {
    const early = this.early;
    this.early = undefined;
    return early ?? this.walkAll();
  }

  private async walkAll(): Promise<{ files: SkillFileRef[]; problems: { path: string; message: string }[] }> {
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
    // Symlinked folders wait until the real tree is walked, then go one at a time in path order:
    // a folder is listed under its own path, not under whichever link to it resolved first.
    const links: { child: string; rel: string; parentReal: string }[] = [];
    // `known`: the real path of a folder reached through a plain (not linked) entry of a folder
    // whose real path is known, so that only the root and linked folders cost a realpath call.
    const walk = async (dir: string, rel: string, parentReal?: string, known?: string): Promise<void> => {
      let real: string;
      try {
        real = known ?? (await fs.realpath(dir));
      } catch (err) {
        problems.push({ path: rel || '.', message: `cannot resolve folder: ${(err as Error).message}` });
        return;
      }
      if (parentReal !== undefined) {
        // A link to a folder that contains it is a loop, inside the library or above it (`/`, `~`).
        const up = path.relative(real, parentReal);
        if (!up.startsWith('..') && !path.isAbsolute(up)) {
          problems.push({ path: rel || '.', message: 'symbolic link loop: it points to a folder that contains it; not followed' });
          return;
        }
        // What lies outside the library is never read, indexed or shown (read_skill refuses it too).
        if (!within(rootReal, real)) {
          problems.push({ path: rel, message: `symbolic link to a folder outside the library (${real}): not read; copy the skill into the library to index it` });
          return;
        }
      }
      // A second way into a folder already listed is not a problem.
      if (visited.has(real)) return;
      visited.add(real);
      let entries: import('node:fs').Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch (err) {
        problems.push({ path: rel || '.', message: `cannot read folder (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); check its permissions` });
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
          const st = await fs.stat(child).catch((err: NodeJS.ErrnoException) => err);
          if (st instanceof Error) {
            const loop = (st as NodeJS.ErrnoException).code === 'ELOOP';
            problems.push({ path: childRel, message: loop ? 'symbolic link loop: the link leads back to itself' : 'broken symbolic link' });
            continue;
          }
          if (st.isDirectory()) {
            if (!this.skip.has(e.name)) links.push({ child, rel: childRel, parentReal: real });
            continue;
          }
          isFile = st.isFile();
          if (isFile && e.name === SKILL_FILE) {
            const target = await fs.realpath(child).catch(() => child);
            if (!within(rootReal, target)) {
              problems.push({ path: childRel, message: `symbolic link to a file outside the library (${target}): not read; copy the skill into the library to index it` });
              continue;
            }
          }
        }
        if (isDir) {
          if (!this.skip.has(e.name)) subdirs.push(walk(child, childRel, undefined, path.join(real, e.name)));
        } else if (isFile && e.name === SKILL_FILE) {
          const id = rel || '.';
          files.push({ id, path: childRel, folderName: rel ? path.posix.basename(rel) : path.basename(this.root) });
        }
      }
      await Promise.all(subdirs);
    };
    await walk(this.root, '');
    while (links.length) {
      const batch = links.splice(0).sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
      for (const link of batch) await walk(link.child, link.rel, link.parentReal);
    }
    files.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    problems.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { files, problems };
  }

  async read(ref: SkillFileRef): Promise<Uint8Array> {
    const abs = path.join(this.root, ...ref.path.split('/'));
    const open = this.opts.overlay?.get(abs);
    if (open !== undefined) return new TextEncoder().encode(open);
    const unreadable = (err: NodeJS.ErrnoException) => {
      throw new Error(`cannot read SKILL.md (${err.code ?? err.message}); check that it exists and that you may read it`);
    };
    const st = await fs.stat(abs).catch(unreadable);
    if (st.size > MAX_SKILL_BYTES) {
      throw new Error(
        `SKILL.md is ${(st.size / 1048576).toFixed(1)} MB; skills over 1 MB are not indexed ` +
          '(an agent loads the whole file). Move reference material into separate files.',
      );
    }
    return fs.readFile(abs).catch(unreadable);
  }

  /**
   * Size, change times and inode of the file on disk; undefined for an open buffer, a file that
   * cannot be stat'ed (read reports why), one over the size limit, or one modified within the last
   * `RACY_MS` (a second write in the same clock tick could keep its times: git's "racy" entries).
   */
  async stamp(ref: SkillFileRef): Promise<string | undefined> {
    const abs = this.absolute(ref);
    if (this.opts.overlay?.has(abs)) return undefined;
    // Synchronous: a warm reopen stamps every file, and 2,800 promise-based stats cost ~0.05 s of
    // this thread against ~0.01 s (each blocks for microseconds; reads stay asynchronous). A turn
    // of the event loop every STAMPS_PER_TURN keeps a large library's reopen from stalling the
    // language server (cached parses resolve without I/O, so nothing else would yield).
    if (++this.stamps % STAMPS_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    let st: Stats | undefined;
    try {
      st = statSync(abs, { throwIfNoEntry: false });
    } catch {
      st = undefined;
    }
    if (!st || !st.isFile() || st.size > MAX_SKILL_BYTES) return undefined;
    // mtime alone decides (utimes cannot set ctime back, tools that restore mtimes still change ctime).
    if (Date.now() - st.mtimeMs < RACY_MS) return undefined;
    // Milliseconds as doubles keep about a microsecond of precision (plain stat is cheaper than bigint).
    return `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}:${st.dev}`;
  }

  /** Absolute path of a skill file. */
  absolute(ref: { path: string }): string {
    return path.join(this.root, ...ref.path.split('/'));
  }
}
