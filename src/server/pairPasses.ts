/**
 * The library-wide passes over pair findings: the analysis that finds every skill's pairs after
 * an index, and the recheck that scans them all again once edits that changed names or
 * descriptions pause (an edit can move findings between two skills nobody edited: its skill now
 * takes their probe requests, or no longer does; the recheck reaches the state a fresh index
 * would). Each is one library-wide scan (`pairFindings()`), whose routing runs in slices on the
 * library's queue so that edits and requests are served in between; a large library takes a
 * minute cold, and nothing once its result is cached.
 */
import type { PairScanRun } from '../core/analysis/scanRun';
import type { PairFinding } from '../core/analysis/types';
import { runTimeSliced, yieldToLoop } from '../core/jobs/timeSliced';
import { CancelledError, type Logger, type SkillDoc } from '../core/types';
import type { FolderLibrary } from './folderLibrary';

/** What the passes need from the index that publishes. */
export interface PassHost {
  /** Publishes a skill's diagnostics with the pair findings known for it. */
  publishSkill(lib: FolderLibrary, doc: SkillDoc): void;
  /** Resolves once what was published so far is written to the client. */
  written(): Promise<void>;
  /** Whether the skill at `relPath` gets diagnostics (the diagnostics scope). */
  shouldPublish(lib: FolderLibrary, relPath: string): boolean;
  /** Ids of the library's skills open in an editor (they are analysed first). */
  openIds(lib: FolderLibrary): Set<string>;
  /** The passes' progress changed (the status shows it). */
  progressed(): void;
  fail(what: string, err: unknown): void;
  log: Logger;
}

type Timer = ReturnType<typeof setTimeout>;


/**
 * How a pass runs a library-wide scan: its slices on the library's queue after I/O had its turn,
 * stopped (CancelledError) once `live` turns false, and its progress reported.
 */
function scanRun(lib: FolderLibrary, live: () => boolean, progress: (done: number, total: number) => void): PairScanRun {
  return {
    cache: lib.pairs.cache,
    schedule: async (work) => {
      // A zero-delay timer lets I/O in (with `setImmediate` the requests of a 2,000-file branch
      // switch waited up to 6.7 s behind the pass, bench/branchSwitch.ts; 0.8-1.2 s with it).
      await yieldToLoop();
      return lib.run(async () => {
        if (!live()) throw new CancelledError();
        return work();
      });
    },
    progress,
    token: { get isCancellationRequested() { return !live(); } },
  };
}

/** The scan's findings, or null when the pass was stopped. */
async function scanned(lib: FolderLibrary, run: PairScanRun): Promise<PairFinding[] | null> {
  try {
    return await lib.service!.pairFindings(undefined, run);
  } catch (err) {
    if (err instanceof CancelledError) return null;
    throw err;
  }
}

/** Runs the analysis and recheck passes of every library, and the recheck's wait. */
export class PairPasses {
  private readonly recheckTimers = new Map<FolderLibrary, Timer>();
  private disposed = false;

  constructor(private readonly host: PassHost, private readonly recheckDelayMs: number) {}

  /**
   * Finds the pair findings of `ids`, open files first, publishing each skill when its pairs are
   * known. A newer index (or analysis) stops the pass.
   */
  async analyse(lib: FolderLibrary, ids: string[]): Promise<void> {
    const generation = lib.generation;
    const open = this.host.openIds(lib);
    const queue = [...ids.filter((id) => open.has(id)), ...ids.filter((id) => !open.has(id))];
    const t0 = performance.now();
    const pass = lib.pairs.analysis.begin(queue.length);
    const live = () => pass.live() && generation === lib.generation && !!lib.service;
    // The scan counts probe requests; the status counts skills: report the share done as skills.
    const report = (n: number, total: number) => {
      pass.report(Math.min(queue.length, Math.round((n / Math.max(1, total)) * queue.length)), queue.length);
      this.host.progressed();
    };
    try {
      const found = await scanned(lib, scanRun(lib, live, report));
      if (!found || !live()) return;
      // Skills an edit rescanned meanwhile keep that newer scan's pairs.
      const took = new Set(lib.pairs.fill(found, queue));
      const done = await runTimeSliced(
        queue.filter((id) => took.has(id)),
        (id) => {
          const doc = lib.service!.skill(id);
          if (doc) this.host.publishSkill(lib, doc);
        },
        {
          live,
          runSlice: (slice) => lib.run(slice),
          // A slice's messages written before the next slice makes more.
          yieldToOthers: async () => {
            await this.host.written();
            await yieldToLoop();
          },
        },
      );
      if (!done) return;
      await lib.pairs.persist();
    } finally {
      pass.end();
    }
    this.host.progressed();
    this.host.log.info(`${lib.name}: cross-skill checks of ${queue.length} skills in ${Math.round(performance.now() - t0)} ms`);
    await this.prepareEdits(lib, () => generation === lib.generation && !!lib.service);
  }

  /**
   * Builds, in slices on the library's queue right after the analysis, what an edit's one-skill
   * scan builds over the whole library on first use and keeps up to date after: the conflict
   * profiles, the copy index, the template counts (at 19,909 skills ~0.6 s, which the first
   * description edit after a warm start waited for). An edit meanwhile waits for one slice.
   */
  private async prepareEdits(lib: FolderLibrary, live: () => boolean): Promise<void> {
    const run: PairScanRun = { ...scanRun(lib, live, () => undefined), prepareOnly: true };
    try {
      await run.schedule!(async () => void lib.service?.profiles?.());
      await lib.service?.pairFindings(undefined, run);
    } catch (err) {
      if (!(err instanceof CancelledError)) throw err;
    }
  }

  /** (Re)starts the wait before a recheck of every skill's pair findings; stops one that runs. */
  scheduleRecheck(lib: FolderLibrary): void {
    if (this.disposed || !lib.service) return this.stopRecheck(lib);
    clearTimeout(this.recheckTimers.get(lib));
    const skills = lib.service.skills().length;
    const delayMs = Math.round(this.recheckDelayMs * Math.max(1, skills / 100));
    // Shown as waiting, not as a pass at 0%: it starts only once typing pauses this long.
    lib.pairs.recheck.supersede(skills, delayMs);
    const timer = setTimeout(() => {
      this.recheckTimers.delete(lib);
      this.recheck(lib).catch((err) => this.host.fail(`${lib.name}: cross-skill recheck`, err));
    }, delayMs);
    this.recheckTimers.set(lib, timer);
    this.host.progressed();
  }

  /** Typing postpones a recheck that is due or running (and stops the running one). */
  postponeRecheck(lib: FolderLibrary): void {
    if (this.recheckTimers.has(lib) || lib.pairs.recheck.running) this.scheduleRecheck(lib);
  }

  /** Cancels the wait for a recheck and stops one that runs (an index finds every pair anyway). */
  stopRecheck(lib: FolderLibrary): void {
    clearTimeout(this.recheckTimers.get(lib));
    this.recheckTimers.delete(lib);
    lib.pairs.recheck.supersede(null);
  }

  /** Stops every wait; no recheck starts after. */
  dispose(): void {
    this.disposed = true;
    for (const lib of [...this.recheckTimers.keys()]) this.stopRecheck(lib);
  }

  /**
   * Scans every skill's pairs again and re-publishes the skills whose findings moved. An edit
   * stops it and starts the wait again.
   */
  private async recheck(lib: FolderLibrary): Promise<void> {
    if (!lib.service || lib.state !== 'ready') {
      lib.pairs.recheck.supersede(null);
      this.host.progressed();
      return;
    }
    // The pass that follows an index is still finding pairs: recheck after it.
    if (lib.pairs.analysis.progress) return this.scheduleRecheck(lib);
    const generation = lib.generation;
    const t0 = performance.now();
    const ids = lib.service.skills().filter((d) => lib.pairs.has(d.id) || this.host.shouldPublish(lib, d.path)).map((d) => d.id);
    const pass = lib.pairs.recheck.begin(ids.length);
    const live = () => pass.live() && generation === lib.generation && !this.disposed && !!lib.service;
    let moved = 0;
    try {
      const all = await scanned(lib, scanRun(lib, live, (n, total) => {
        pass.report(Math.min(ids.length, Math.round((n / Math.max(1, total)) * ids.length)), ids.length);
        this.host.progressed();
      }));
      if (!all || !live()) return;
      const found = new Map<string, PairFinding[]>(ids.map((id) => [id, []]));
      for (const p of all) for (const id of new Set([p.a, p.b])) found.get(id)?.push(p);
      await lib.run(async () => {
        if (!live()) return;
        for (const [id, list] of found) {
          const doc = lib.service!.skill(id);
          if (!doc || !lib.pairs.replace(id, list)) continue;
          moved++;
          if (this.host.shouldPublish(lib, doc.path)) this.host.publishSkill(lib, doc);
        }
      });
      if (!live()) return;
      await lib.pairs.persist();
    } finally {
      pass.end();
    }
    this.host.progressed();
    this.host.log.info(`${lib.name}: cross-skill recheck of ${ids.length} skills in ${Math.round(performance.now() - t0)} ms, ${moved} re-published`);
  }
}
