/**
 * The open SKILL.md buffers and when their checks run. Checks are debounced per document, a
 * newer version cancels the work on an older one, and whoever finishes late asks whether its
 * version is still current before it publishes (as markdown-languageservice and
 * yaml-language-server do). The cross-skill checks of an edit wait for a longer pause in typing.
 */
import { fileURLToPath } from 'node:url';
import type { CancelToken } from '../core/types';

/** An open buffer the server checks. */
export interface OpenDoc {
  uri: string;
  /** File path for `file:` URIs; the URI itself otherwise. */
  key: string;
  text: string;
  version: number;
  languageId: string;
  /** When the current version arrived (for the edit-to-diagnostics timing). */
  receivedAt: number;
}

/** A path for `file:` URIs, else the URI (untitled buffers, virtual files). */
export function keyOf(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

/** Whether a document is a SKILL.md the server checks. */
export function isSkillDocument(uri: string, languageId?: string): boolean {
  return languageId === 'skill' || /(^|[/\\])SKILL\.md$/.test(keyOf(uri));
}

export interface SchedulerOptions {
  /** Quiet time after the last keystroke before a document is checked. */
  debounceMs: number;
  /** Quiet time after the last keystroke before the cross-skill checks of a document run. */
  semanticDelayMs: number;
  /** Checks the current version of the document at `key` (called when its wait ends). */
  check(key: string): void;
}

/** The check of one version of a document. */
export interface DocumentCheck {
  /** Cancelled by the next check, edit or close of the document. */
  readonly token: CancelToken;
  /** Whether the version is still the document's and the check was not cancelled. */
  current(): boolean;
}

type Timer = ReturnType<typeof setTimeout>;

/** Open buffers by key, with their check timers and the cancellation of the check in flight. */
export class DocumentScheduler {
  private readonly docs = new Map<string, OpenDoc>();
  /** Open `file:` buffers by path, shared with every library's file reader (they win over disk). */
  readonly overlay = new Map<string, string>();
  private readonly timers = new Map<string, Timer>();
  private readonly semanticTimers = new Map<string, Timer>();
  private readonly checks = new Map<string, { isCancellationRequested: boolean }>();
  private disposed = false;

  constructor(private readonly opts: SchedulerOptions) {}

  /** A buffer was opened or edited: work on its older version stops, and it is checked after the debounce. */
  changed(uri: string, text: string, version: number, languageId: string): OpenDoc {
    const key = keyOf(uri);
    const doc: OpenDoc = { uri, key, text, version, languageId, receivedAt: performance.now() };
    this.docs.set(key, doc);
    if (uri.startsWith('file:')) this.overlay.set(key, text);
    this.cancel(key);
    this.schedule(key);
    return doc;
  }

  /** A buffer was closed: its waits end, its check in flight is cancelled. Returns what was open. */
  closed(uri: string): OpenDoc | undefined {
    const key = keyOf(uri);
    const doc = this.docs.get(key);
    this.docs.delete(key);
    this.overlay.delete(key);
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    clearTimeout(this.semanticTimers.get(key));
    this.semanticTimers.delete(key);
    this.cancel(key);
    this.checks.delete(key);
    return doc;
  }

  get(key: string): OpenDoc | undefined {
    return this.docs.get(key);
  }

  has(key: string): boolean {
    return this.docs.has(key);
  }

  values(): IterableIterator<OpenDoc> {
    return this.docs.values();
  }

  /** The open buffer's version, to tag diagnostics with (none for files not open). */
  versionOf(uri: string): number | undefined {
    return this.docs.get(keyOf(uri))?.version;
  }

  /** Whether `version` is still the open buffer's. */
  isCurrent(key: string, version: number): boolean {
    return this.docs.get(key)?.version === version;
  }

  /** (Re)starts the wait before the document at `key` is checked. */
  schedule(key: string, delayMs = this.opts.debounceMs): void {
    clearTimeout(this.timers.get(key));
    if (this.disposed) return;
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.opts.check(key);
      }, delayMs),
    );
  }

  /** Starts the check of `version`: the check in flight for the document is cancelled. */
  begin(key: string, version: number): DocumentCheck {
    const token = { isCancellationRequested: false };
    this.cancel(key);
    this.checks.set(key, token);
    return { token, current: () => this.isCurrent(key, version) && !token.isCancellationRequested };
  }

  /** Runs `fn` once the document at `key` had no edit for the semantic delay (a newer call restarts the wait). */
  scheduleSemantic(key: string, fn: () => void): void {
    clearTimeout(this.semanticTimers.get(key));
    if (this.disposed) return;
    this.semanticTimers.set(
      key,
      setTimeout(() => {
        this.semanticTimers.delete(key);
        fn();
      }, this.opts.semanticDelayMs),
    );
  }

  /** Stops every wait; nothing is scheduled after. */
  dispose(): void {
    this.disposed = true;
    for (const t of [...this.timers.values(), ...this.semanticTimers.values()]) clearTimeout(t);
    this.timers.clear();
    this.semanticTimers.clear();
    for (const key of this.checks.keys()) this.cancel(key);
  }

  private cancel(key: string): void {
    const token = this.checks.get(key);
    if (token) token.isCancellationRequested = true;
  }
}
