/**
 * One workspace folder's library as the language server holds it: the engine instance, its index
 * state, the pair findings known so far, what was published, and the queue that orders all work
 * on it (index, edits, passes, requests).
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { CancellationToken, CancellationTokenSource } from 'vscode-languageserver';
import type { IndexStats, LiveSkillService } from '../core/service';
import { CancelledError, throwIfCancelled, type CancelToken, type Logger, type ProgressSink } from '../core/types';
import { defaultCacheDir, type Device, type OpenLibraryOptions } from '../node/library';
import type { IndexState, InitializationOptions } from '../shared/protocol';
import { yieldToLoop } from '../core/jobs/timeSliced';
import { errorMessage } from './logger';
import { PairFindingsStore } from './pairFindings';
import { SameNames } from '../core/analysis/sameNames';
import { DEFAULT_SETTINGS, type ServerSettings } from './settings';

/**
 * Idle work (`runIdle`) waits for this long without other work: at 19,909 skills the reach
 * preparation's slices, let in between an edit's cross-skill slices, took ~0.5 s of its ~1.8 s.
 */
const IDLE_QUIET_MS = 1000;

/** Queued work that runs on without a turn of the event loop for this long lets it in first. */
const QUEUE_HOLD_MS = 30;

/**
 * The share of a cache's entries that must have changed before a write after updates pause: a
 * few edits leave a 19,909-skill library's 113 MB analysis snapshot for later (its encoding and
 * write held the main thread ~3 s, slowing the requests meanwhile); a library of fewer than 400
 * skills is written after each change.
 */
export const PERIODIC_FLUSH_SHARE = 0.005;

type Timer = ReturnType<typeof setTimeout>;

/**
 * Cancels a token source at most once: vscode-jsonrpc's `cancel()` throws when called again on a
 * source cancelled before anyone read its token.
 */
export function cancelOnce(source: CancellationTokenSource | null | undefined): void {
  if (source && !source.token.isCancellationRequested) source.cancel();
}

/** A request's token: the engine's, with the LSP event when the request came over a connection. */
export type RequestToken = CancelToken & Partial<Pick<CancellationToken, 'onCancellationRequested'>>;

/** A workspace folder's library: its engine, index state, findings and work queue. */
export class FolderLibrary {
  service: LiveSkillService | null = null;
  private current: IndexState = 'starting';
  /** Called once the index run in progress settles (ready, cancelled, error) or the library closes. */
  private settleWaiters = new Set<() => void>();
  stats: IndexStats | null = null;
  error: string | null = null;
  settings: ServerSettings = DEFAULT_SETTINGS;
  readonly pairs = new PairFindingsStore();
  /** Skill id → SKILL.md path, kept after a skill is gone so its diagnostics can be cleared. */
  readonly paths = new Map<string, string>();
  /** URIs this library published diagnostics for. */
  readonly published = new Set<string>();
  /** Skill id → the skills it shared its name with when last published: re-published when it changes. */
  readonly namePeers = new Map<string, string[]>();
  private names: SameNames | null = null;
  /** Counts index runs (and closes); work begun under an older one is dropped. */
  generation = 0;
  /** Cancels the index run in progress for this folder. */
  cancel: CancellationTokenSource | null = null;
  private flushTimer: Timer | undefined;
  private closed = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** When work other than idle work (`run`) last ended. */
  private lastBusy = -Infinity;
  /** When the queue's current run of work began, and when its last work ended (see `enqueue`). */
  private heldSince = 0;
  private lastEnd = -Infinity;
  /** Quiet time after other work before idle work runs (`runIdle`). */
  idleQuietMs = IDLE_QUIET_MS;

  /** `flushAfterMs`: quiet time after the last update before the vector cache is written. */
  constructor(readonly uri: string, readonly root: string, private readonly log: Logger, private readonly flushAfterMs: number) {}

  /** The skills by declared name (`skill.duplicate-name`), built on first use after `namesChanged`. */
  sameNames(): SameNames | null {
    if (!this.service) return null;
    this.names ??= new SameNames(this.service.skills(), this.settings.pairs.acrossFolders);
    return this.names;
  }

  /** The skills (or the settings) changed: the name index is rebuilt when next asked for. */
  namesChanged(): void {
    this.names = null;
  }

  get state(): IndexState {
    return this.current;
  }

  set state(next: IndexState) {
    this.current = next;
    if (!this.busy) this.wakeWaiters();
  }

  /** Whether an index run is due or in progress: a request now waits for it (see `settled`). */
  get busy(): boolean {
    return this.current === 'starting' || this.current === 'indexing';
  }

  /**
   * Resolves once the library is not indexing (at once when it is not), or when it closes;
   * rejects with `CancelledError` when `token` is cancelled first. Requests sent during the first
   * index wait here instead of being refused.
   */
  settled(token?: RequestToken): Promise<void> {
    if (!this.busy || this.closed) return Promise.resolve();
    throwIfCancelled(token);
    return new Promise<void>((resolve, reject) => {
      const wake = () => {
        this.settleWaiters.delete(wake);
        sub?.dispose();
        resolve();
      };
      const sub = token?.onCancellationRequested?.(() => {
        this.settleWaiters.delete(wake);
        sub?.dispose();
        reject(new CancelledError());
      });
      this.settleWaiters.add(wake);
    });
  }

  private wakeWaiters(): void {
    for (const wake of [...this.settleWaiters]) wake();
  }

  get name(): string {
    return path.basename(this.root);
  }

  /** Runs `fn` after the work queued before it (whether that failed or not). */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const timed = async () => {
      try {
        return await fn();
      } finally {
        this.lastBusy = performance.now();
      }
    };
    return this.enqueue(timed);
  }

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const turn = async () => {
      // Work queued behind other work starts as that settles, in the same turn of the event loop:
      // the slices of several jobs queued meanwhile (a pass, the publishing, an edit's checks)
      // would hold it for all of them. After QUEUE_HOLD_MS of such a run, the loop gets a turn.
      const t = performance.now();
      if (t - this.lastEnd > 1) this.heldSince = t;
      else if (t - this.heldSince >= QUEUE_HOLD_MS) {
        await yieldToLoop();
        this.heldSince = performance.now();
      }
      try {
        return await fn();
      } finally {
        this.lastEnd = performance.now();
      }
    };
    const next = this.queue.then(turn, turn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Runs `fn` on the queue once nothing else is queued: background work (the reach finding's
   * statistics over the whole library) that must not delay an edit's own checks: at 19,909 skills
   * that preparation took its turns between the first description edit's cross-skill slices (that
   * edit's cross-skill diagnostics 22.3 s after it, 16.9 s with this). It also waits for
   * `idleQuietMs` without other work.
   */
  async runIdle<T>(fn: () => Promise<T>): Promise<T> {
    for (;;) {
      const queued = this.queue;
      await queued;
      // Work queued meanwhile (or by what just ran) goes first.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.queue !== queued) continue;
      // An edit's checks come in slices with short waits (the encoder) between them: idle means
      // no other work for a while, not only none queued this instant.
      const wait = this.lastBusy + this.idleQuietMs - performance.now();
      if (wait > 0) {
        await new Promise<void>((resolve) => setTimeout(resolve, wait).unref?.());
        continue;
      }
      return this.enqueue(fn);
    }
  }

  /**
   * Writes the index caches once updates pause (on the queue, after what is queued then): those
   * where `PERIODIC_FLUSH_SHARE` of the entries changed; closing writes the rest.
   */
  flushLater(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = setTimeout(() => {
      void this.run(async () => {
        await this.service?.flushCache({ minShare: PERIODIC_FLUSH_SHARE }).catch((err) => this.log.warn(`${this.name}: could not write the index cache: ${errorMessage(err)}`));
      });
    }, this.flushAfterMs);
    // A pending write must not keep the server alive after its client went.
    this.flushTimer.unref?.();
  }

  /** Writes the cache and disposes of the engine (call on the queue); the library has none after. */
  async disposeService(): Promise<void> {
    const old = this.service;
    this.service = null;
    if (!old) return;
    clearTimeout(this.flushTimer);
    await old.flushCache().catch((err) => this.log.warn(`${this.name}: could not write the index cache: ${errorMessage(err)}`));
    await old.dispose().catch((err) => this.log.warn(`${this.name}: ${errorMessage(err)}`));
  }

  /** Cancels the index run, drops work begun before, and disposes of the engine once queued work is done. */
  async close(): Promise<void> {
    cancelOnce(this.cancel);
    this.generation++;
    this.closed = true;
    this.wakeWaiters();
    await this.run(() => this.disposeService());
  }

  /** The index cache folder of this library (undefined: the user cache folder `openLibrary` picks). */
  private cacheDir(init: InitializationOptions): string | undefined {
    // One cache folder per library root, named for people and keyed for uniqueness.
    const cacheKey = createHash('sha256').update(this.root).digest('hex').slice(0, 12);
    return init.cacheDir ? path.join(init.cacheDir, 'index', `${this.name.replace(/[^\w.-]/g, '_')}-${cacheKey}`) : undefined;
  }

  /** Where the pair scan's results are kept between sessions: the index cache folder. */
  pairCacheDir(init: InitializationOptions): string {
    return this.cacheDir(init) ?? defaultCacheDir(this.root);
  }

  /** What `openLibrary` gets for this folder under its current settings. */
  openOptions(init: InitializationOptions, overlay: Map<string, string>, logger: Logger, progress: ProgressSink): OpenLibraryOptions {
    const model = init.model ?? {};
    const s = this.settings;
    return {
      root: this.root,
      noModel: model.enabled === false,
      modelDir: model.folder ? model.folder : undefined,
      device: (model.device ?? 'cpu') as Device,
      cacheDir: this.cacheDir(init),
      profiles: s.profiles,
      exclude: s.exclude,
      duplicates: { share: s.nearDuplicate.threshold, acrossFolders: s.pairs.acrossFolders },
      overlay,
      logger,
      progress,
    };
  }

  /**
   * `keys` (absolute file paths) with each deleted folder (a key ending in a separator) replaced
   * by the skills known under it: those of the index, its failures, and any whose creation is
   * still queued (`paths`), so that those go too.
   */
  expandDeletedFolders(keys: readonly string[]): string[] {
    const out = new Set<string>();
    for (const key of keys) {
      if (!key.endsWith(path.sep)) {
        out.add(key);
        continue;
      }
      const rel = path.relative(this.root, key).split(path.sep).join('/');
      const known = new Set([...this.paths.values(), ...(this.service?.skills().map((d) => d.path) ?? []), ...(this.service?.failures().map((f) => f.path) ?? [])]);
      for (const p of known) if (p.startsWith(`${rel}/`)) out.add(path.join(this.root, ...p.split('/')));
    }
    return [...out];
  }
}

/** The library whose folder holds the file `key` (the innermost one for nested folders). */
export function innermostLibrary(libs: Iterable<FolderLibrary>, key: string): FolderLibrary | undefined {
  let best: FolderLibrary | undefined;
  for (const lib of libs) {
    const rel = path.relative(lib.root, key);
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
    if (!best || lib.root.length > best.root.length) best = lib;
  }
  return best;
}
