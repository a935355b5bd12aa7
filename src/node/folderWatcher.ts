/**
 * Watches a library folder and reports the paths that changed, in debounced batches. On macOS and
 * Windows `fs.watch` is recursive natively (one FSEvents / ReadDirectoryChangesW handle); on Linux
 * Node emulates recursion by watching every folder, `node_modules` and `.git` included, so there
 * this keeps one watcher per folder itself and skips the folders discovery skips. A batch names
 * files and folders as the system reported them: a created or renamed folder is reported once,
 * not file by file, and whoever reads the batch walks it.
 */
import { promises as fs, watch, type FSWatcher } from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../core/types';

export interface FolderWatcherOptions {
  /** Quiet time after the last event before a batch is reported (default 100 ms). */
  debounceMs?: number;
  /** Longest a batch waits while events keep coming (default 1 s). */
  maxWaitMs?: number;
  /** Folder names not to watch or report under. */
  skip?: (name: string) => boolean;
  /** Force one mode; default: recursive on macOS and Windows, per folder elsewhere. */
  recursive?: boolean;
  logger?: Logger;
  /**
   * The watcher lost track (an error from the system, a watch limit reached): changes may have been
   * missed, so the whole folder should be re-read.
   */
  onLost?: (why: string) => void;
}

/** A running watcher. */
export interface FolderWatcher {
  /** `recursive` or `per-folder`. */
  readonly mode: 'recursive' | 'per-folder';
  /** Folders watched (1 in recursive mode). */
  readonly folders: number;
  close(): void;
}

/**
 * Starts watching `root`; `onChange` gets the absolute paths of a batch. Resolves once the
 * watchers are in place, so a change made after it resolves is reported.
 */
export async function watchFolder(root: string, onChange: (paths: string[]) => void, opts: FolderWatcherOptions = {}): Promise<FolderWatcher> {
  const skip = opts.skip ?? (() => false);
  const debounceMs = opts.debounceMs ?? 100;
  const maxWaitMs = opts.maxWaitMs ?? 1000;
  const recursive = opts.recursive ?? (process.platform === 'darwin' || process.platform === 'win32');
  const pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let firstAt = 0;
  let closed = false;

  const flush = () => {
    timer = undefined;
    if (closed || !pending.size) return;
    const batch = [...pending];
    pending.clear();
    onChange(batch);
  };
  const report = (p: string) => {
    if (closed) return;
    const rel = path.relative(root, p);
    if (rel.split(path.sep).some((part) => skip(part))) return;
    if (!pending.size) firstAt = Date.now();
    pending.add(p);
    clearTimeout(timer);
    timer = setTimeout(flush, Math.max(0, Math.min(debounceMs, firstAt + maxWaitMs - Date.now())));
  };
  let lostOnce = false;
  const lost = (why: string) => {
    opts.logger?.warn(`watching ${root}: ${why}`);
    if (!lostOnce) opts.onLost?.(why);
    lostOnce = true;
  };

  if (recursive) {
    const w = watch(root, { recursive: true }, (_event, name) => report(name ? path.join(root, name.toString()) : root));
    w.on('error', (err) => lost(`${err.message}; re-reading the library`));
    return {
      mode: 'recursive',
      folders: 1,
      close() {
        closed = true;
        clearTimeout(timer);
        w.close();
      },
    };
  }

  const watchers = new Map<string, FSWatcher>();
  const unwatchBelow = (dir: string) => {
    for (const [d, w] of watchers) {
      if (d === dir || d.startsWith(`${dir}${path.sep}`)) {
        w.close();
        watchers.delete(d);
      }
    }
  };
  // Watches `dir` and the folders below it (not through links: discovery reads a linked folder
  // once, and a link loop would never end here).
  const watchTree = async (dir: string): Promise<void> => {
    if (closed || watchers.has(dir)) return;
    let w: FSWatcher;
    try {
      w = watch(dir, (event, name) => {
        const p = name ? path.join(dir, name.toString()) : dir;
        report(p);
        // A new or renamed folder needs its own watcher; a removed one lets its watchers go.
        if (event === 'rename' && name && !skip(name.toString())) {
          void fs.lstat(p).then(
            (st) => (st.isDirectory() ? watchTree(p) : undefined),
            () => unwatchBelow(p),
          );
        }
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return; // gone before it could be watched: its removal is reported
      lost(code === 'ENOSPC'
        ? 'the system limit on watched folders is reached (raise fs.inotify.max_user_watches); changes in some folders will be missed'
        : `cannot watch ${dir} (${code ?? (err as Error).message}); changes there will be missed`);
      return;
    }
    w.on('error', (err) => {
      w.close();
      watchers.delete(dir);
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') lost(`${err.message}; re-reading the library`);
    });
    watchers.set(dir, w);
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    await Promise.all(entries.filter((e) => e.isDirectory() && !skip(e.name)).map((e) => watchTree(path.join(dir, e.name))));
  };
  await watchTree(root);
  return {
    mode: 'per-folder',
    get folders() {
      return watchers.size;
    },
    close() {
      closed = true;
      clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
