/**
 * A library kept current while a long-running command (`skill-router mcp`) serves it: the first
 * index, then each changed SKILL.md re-read alone (`LiveSkillService.updateFile`), all on one
 * queue so a search never meets a half-applied edit, and the vector cache written once edits pause.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { IndexStats, LiveSkillService, RouteOptions, RouteResult } from '../core/service';
import type { Logger, SkillDoc } from '../core/types';
import type { SkillFileRef } from '../core/workspace';
import { SKIP_DIRS, skillRefFor } from '../node/fsWorkspace';

/** What one batch of file changes did to the index. */
export interface LibraryChange {
  /** Skills added or re-read. */
  updated: string[];
  /** Skills gone (or now unreadable). */
  removed: string[];
  /** Whether the whole library was re-read (the watcher lost track). */
  full: boolean;
}

export interface LiveLibraryOptions {
  logger: Logger;
  /** Folder names skipped besides `.git` and `node_modules`. */
  exclude?: string[];
  /** Quiet time after the last edit before the vector cache is written (default 2 s). */
  flushAfterMs?: number;
}

/** Where the first index stands while it runs: its stage (`read`, `words`, `embed`, `vector index`) and how far. */
export interface IndexProgress {
  stage: string;
  done: number;
  total: number;
}

/** A routing, and when it was ranked by words alone because the vectors were still being built, how far they were. */
export type LiveRouteResult = RouteResult & { wordsOnly?: IndexProgress };

/** Most folders walked below one created or renamed folder (a whole tree moved in). */
const MAX_WALK_DEPTH = 12;

/** The engine of one library, its first index and the queue all work on it goes through. */
export class LiveLibrary {
  /** Settles when the first index is done; rejects with the reason it failed. */
  readonly ready: Promise<IndexStats>;
  /**
   * Settles once the first index has read the skills and indexed their words (before their
   * vectors), or when it ends; rejects when it fails before that.
   */
  readonly words: Promise<void>;
  /** The first index's progress, null once it is done (or failed). */
  private progress: IndexProgress | null = { stage: 'read', done: 0, total: 0 };
  private readonly listeners = new Set<(p: IndexProgress) => void>();
  private queue: Promise<unknown> = Promise.resolve();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  /** Cancels the engine's work once the library closes (a client gone mid-index does not wait for it). */
  private readonly token = { isCancellationRequested: false };
  /**
   * Whether the index holds the whole library: a cache write keeps only the current skills'
   * vectors, so after an interrupted index it would drop the rest from the shared cache.
   */
  private whole = false;

  constructor(readonly service: LiveSkillService, private readonly opts: LiveLibraryOptions) {
    let wordsDone!: () => void;
    const words = new Promise<void>((resolve) => (wordsDone = resolve));
    this.ready = this.run(async () => {
      const stats = await service.index({
        token: this.token,
        progress: (stage, done, total) => this.report({ stage, done, total }),
        onWords: () => {
          // The encoder began beside the word index: its count is the news, once it reported.
          if (this.progress?.stage !== 'embed') this.report({ stage: 'words', done: service.skills().length, total: service.skills().length });
          wordsDone();
        },
      });
      this.whole = true;
      return stats;
    });
    const end = () => {
      this.progress = null;
      this.listeners.clear();
    };
    this.ready.then(end, end);
    this.words = Promise.race([words, this.ready.then(() => undefined)]);
    // Callers await `ready` when they need it; an index failure is theirs to report, not unhandled.
    this.ready.catch(() => undefined);
    this.words.catch(() => undefined);
  }

  /** The first index's progress while it runs; null once it is done. */
  building(): IndexProgress | null {
    return this.progress && { ...this.progress };
  }

  /** Calls `listener` with each progress step of the first index (until it ends); returns the unsubscribe. */
  onProgress(listener: (p: IndexProgress) => void): () => void {
    if (!this.progress) return () => undefined;
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private report(p: IndexProgress): void {
    // The read reports before the words are in, the encoder from the start to the end.
    if ((this.progress?.stage === 'words' || this.progress?.stage === 'embed') && p.stage === 'read') return;
    this.progress = p;
    for (const l of this.listeners) l({ ...p });
  }

  get root(): string {
    return this.service.root;
  }

  /** Runs `fn` after the work queued before it, whether that failed or not. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Routes a request once the index is ready, behind any edit queued before it. While the first
   * index is still embedding (its words are in), by words alone at once, marked `wordsOnly` with
   * how far the vectors are: an agent's first search does not wait for the encoder.
   */
  async route(query: string, opts: RouteOptions): Promise<LiveRouteResult> {
    await this.words;
    const building = this.building();
    // The index holds the queue until its vectors are in; the word index is complete and is
    // not written again before then, so a words-only ranking may run beside it. Only while texts
    // are left to embed: with the vectors all cached, what is left (the vector index, the cache
    // writes) is short, and the full answer worth the wait.
    if (building?.stage === 'embed' && building.done < building.total) return { ...(await this.service.route(query, { ...opts, wordsOnly: true, token: this.token })), wordsOnly: building };
    await this.ready;
    return this.run(() => this.service.route(query, { ...opts, token: this.token }));
  }

  /** One skill of the current index. */
  skill(id: string): SkillDoc | undefined {
    return this.service.skill(id);
  }

  /** The skills of the current index, in id order. */
  skills(): readonly SkillDoc[] {
    return this.service.skills();
  }

  /**
   * Applies a batch of changed paths (absolute): a SKILL.md is re-read or removed, a created
   * folder is walked for the SKILL.md files in it, a removed folder takes its skills with it.
   * `'all'` re-reads the whole library (unchanged skills come from memory).
   */
  async apply(paths: readonly string[] | 'all'): Promise<LibraryChange> {
    await this.ready.catch(() => undefined);
    // An event on the root itself names no file: re-read the library (stamps make that cheap).
    if (paths !== 'all' && paths.some((p) => path.resolve(p) === path.resolve(this.root))) paths = 'all';
    return this.run(async () => {
      if (this.closed) return { updated: [], removed: [], full: false };
      if (paths === 'all') {
        const before = new Set(this.service.skills().map((d) => `${d.id}\n${d.hash}`));
        const ids = new Set(this.service.skills().map((d) => d.id));
        this.whole = false;
        await this.service.index({ token: this.token });
        this.whole = true;
        const after = this.service.skills();
        const change = {
          updated: after.filter((d) => !before.has(`${d.id}\n${d.hash}`)).map((d) => d.id),
          removed: [...ids].filter((id) => !this.service.skill(id)),
          full: true,
        };
        this.flushLater();
        return change;
      }
      const change: LibraryChange = { updated: [], removed: [], full: false };
      const files = new Map<string, SkillFileRef>();
      for (const p of paths) {
        for (const ref of await this.affected(p)) files.set(ref.path, ref);
      }
      for (const ref of files.values()) {
        const abs = path.join(this.root, ...ref.path.split('/'));
        const bytes = await fs.readFile(abs).then((b) => new Uint8Array(b), () => null);
        try {
          const doc = await this.service.updateFile(ref, bytes, { token: this.token });
          (doc ? change.updated : change.removed).push(ref.id);
        } catch (err) {
          // Binary or over the size limit: the engine dropped it and lists it in failures().
          change.removed.push(ref.id);
          this.opts.logger.warn(`${ref.path}: ${(err as Error).message}`);
        }
      }
      if (files.size) this.flushLater();
      return change;
    });
  }

  /** The skill files a changed path stands for. */
  private async affected(abs: string): Promise<SkillFileRef[]> {
    const rel = path.relative(this.root, abs);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return [];
    const st = await fs.stat(abs).catch(() => null);
    if (st?.isDirectory()) return this.walk(abs, 0);
    const ref = skillRefFor(this.root, abs, this.opts.exclude);
    if (ref) return [ref];
    if (st) return [];
    // Gone, and not a SKILL.md: perhaps a folder, whose skills (and unreadable files) go with it.
    const prefix = rel === '' ? '' : `${rel.split(path.sep).join('/')}/`;
    const known = [...this.service.skills().map((d) => d.path), ...this.service.failures().map((f) => f.path)];
    return known
      .filter((p) => p.startsWith(prefix))
      .map((p) => skillRefFor(this.root, path.join(this.root, ...p.split('/')), this.opts.exclude))
      .filter((r): r is SkillFileRef => r !== undefined);
  }

  private async walk(dir: string, depth: number): Promise<SkillFileRef[]> {
    if (depth > MAX_WALK_DEPTH) return [];
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    const found: SkillFileRef[] = [];
    for (const e of entries) {
      const child = path.join(dir, e.name);
      if (e.isDirectory() && !SKIP_DIRS.has(e.name) && !this.opts.exclude?.includes(e.name)) found.push(...(await this.walk(child, depth + 1)));
      else if (e.name === 'SKILL.md') {
        const ref = skillRefFor(this.root, child, this.opts.exclude);
        if (ref) found.push(ref);
      }
    }
    return found;
  }

  /** Writes the vector cache once edits pause (on the queue, after what is queued then). */
  private flushLater(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = setTimeout(() => {
      void this.run(() => this.flush()).catch((err) => this.opts.logger.warn(`could not write the index cache: ${(err as Error).message}`));
    }, this.opts.flushAfterMs ?? 2000);
    // A pending write must not keep the process alive after its client went.
    this.flushTimer.unref?.();
  }

  /** Writes the cache and disposes of the engine, after the queued work. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.token.isCancellationRequested = true;
    clearTimeout(this.flushTimer);
    await this.run(async () => {
      await this.flush().catch((err) => this.opts.logger.warn(`could not write the index cache: ${(err as Error).message}`));
      await this.service.dispose();
    });
  }

  private async flush(): Promise<void> {
    if (this.whole) await this.service.flushCache();
  }
}
