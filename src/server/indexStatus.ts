/**
 * What the status item and `skillRouter/indexStatus` show, from the folders' libraries: their
 * states and counts, the index's progress, and the cross-skill passes still running.
 */
import type { WorkDoneProgressServerReporter } from 'vscode-languageserver';
import type { Logger } from '../core/types';
import type { FolderStatus, IndexState, IndexStatus } from '../shared/protocol';
import type { FolderLibrary } from './folderLibrary';
import { DEFAULT_SETTINGS } from './settings';

/** Where each indexing stage sits in a folder's 0..100 (the embedding takes most of the time). */
const STAGES: Record<string, [number, number]> = {
  'load model': [0, 5],
  read: [5, 35],
  embed: [35, 98],
  'vector index': [98, 100],
};

/** Percent done of indexing `folders` folders, `folder` (0-based) of them being at `done`/`total` of `stage`. */
export function indexPercent(stage: string, done: number, total: number, folder: number, folders: number): number {
  const [lo, hi] = STAGES[stage] ?? [0, 100];
  const within = total > 0 ? lo + ((hi - lo) * done) / total : lo;
  return Math.min(100, Math.round(((folder + within / 100) / folders) * 100));
}

/** What the index knows beyond its folders. */
export interface StatusExtras {
  progress: IndexStatus['progress'];
  timings: IndexStatus['timings'];
  lastError: string | null;
  budget: IndexStatus['budget'];
}

/** The least advanced state first: the workspace is as far as its slowest folder. */
const ORDER: IndexState[] = ['error', 'starting', 'indexing', 'cancelled', 'ready'];

/** The status of the workspace: counts summed over folders, state the least advanced one. */
export function indexStatus(libs: readonly FolderLibrary[], extras: StatusExtras): IndexStatus {
  const state = libs.length ? libs.map((l) => l.state).sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b))[0] : 'ready';
  const folders: FolderStatus[] = libs.map((l) => ({
    uri: l.uri,
    state: l.state,
    skills: l.service?.skills().length ?? 0,
    failed: l.service?.failures().length ?? 0,
    cached: l.stats?.cached ?? 0,
    embedded: l.stats?.embedded ?? 0,
    indexMs: l.stats?.ms ?? null,
    error: l.error,
  }));
  const withStats = libs.find((l) => l.stats && l.service);
  const passes = libs.map((l) => ({ p: l.pairs.progress(), pass: l.pairs.analysis.progress ? ('analysis' as const) : ('recheck' as const) })).filter((x) => x.p !== null);
  const running = passes.map((x) => x.p!);
  // Waiting only when nothing runs: a pass in flight anywhere is what the status shows.
  const waiting = running.length && running.every((p) => p.waiting) ? { delayMs: Math.max(...running.map((p) => p.waiting!.delayMs)) } : undefined;
  return {
    state: state === 'starting' && extras.progress ? 'indexing' : state,
    skills: folders.reduce((n, f) => n + f.skills, 0),
    failed: folders.reduce((n, f) => n + f.failed, 0),
    folders,
    model: withStats?.stats?.model ?? null,
    semanticDisabled: withStats ? (withStats.stats!.denseDisabled ?? null) : null,
    progress: extras.progress,
    analysis: running.length
      ? {
          done: running.reduce((n, p) => n + p.done, 0),
          total: running.reduce((n, p) => n + p.total, 0),
          pass: passes.some((x) => x.pass === 'analysis') ? 'analysis' : 'recheck',
          ...(waiting ? { waiting } : {}),
        }
      : null,
    timings: { ...extras.timings },
    lastError: extras.lastError,
    profiles: (libs[0]?.settings ?? DEFAULT_SETTINGS).profiles,
    profilesFrom: (libs[0]?.settings ?? DEFAULT_SETTINGS).profilesFrom,
    budget: extras.budget,
  };
}

/** Sends the status now (`emit(true)`) or at most once per `intervalMs` (five times a second). */
export class StatusThrottle {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastAt = 0;

  constructor(private readonly send: () => void, private readonly intervalMs = 200) {}

  emit(force = false): void {
    const send = () => {
      this.timer = undefined;
      this.lastAt = performance.now();
      this.send();
    };
    if (force) {
      clearTimeout(this.timer);
      send();
    } else if (!this.timer) {
      this.timer = setTimeout(send, Math.max(0, this.intervalMs - (performance.now() - this.lastAt)));
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

type Reporter = Pick<WorkDoneProgressServerReporter, 'report' | 'done' | 'token'>;

/** A cancellable work-done progress from `create`, cancelling with `onCancel`; none when the client refuses one. */
export async function workDoneProgress(create: () => Promise<Reporter>, onCancel: () => void, log: Logger): Promise<Reporter | undefined> {
  try {
    const reporter = await create();
    reporter.token.onCancellationRequested(onCancel);
    return reporter;
  } catch (err) {
    log.debug(`no progress report: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}
