/**
 * The library-wide passes over pair findings: the analysis that finds every skill's pairs after
 * an index, and the recheck that scans them all again once edits that changed names or descriptions pause
 * (term weights are library-wide, so such an edit can move findings between two skills nobody
 * edited; the recheck reaches the state a fresh index would). Both run time-sliced on the
 * library's queue so that edits and requests are served in between; all pairs of a large library
 * take minutes.
 */
import type { PairFinding } from '../core/analysis/types';
import { runTimeSliced } from '../core/jobs/timeSliced';
import type { Logger, SkillDoc } from '../core/types';
import type { FolderLibrary } from './folderLibrary';

/** What the passes need from the index that publishes. */
export interface PassHost {
  /** Publishes a skill's diagnostics with the pair findings known for it. */
  publishSkill(lib: FolderLibrary, doc: SkillDoc): void;
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

/** Yields to I/O (requests, edits) between the slices of a pass. */
const toIo = () => new Promise<void>((r) => setImmediate(r));

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
    try {
      const done = await runTimeSliced(
        queue,
        (id) => {
          const doc = lib.service!.skill(id);
          if (!doc || lib.pairs.has(id)) return; // gone, or an edit got there first
          lib.pairs.refresh(lib.service!, id, false);
          this.host.publishSkill(lib, doc);
        },
        {
          live: () => pass.live() && generation === lib.generation && !!lib.service,
          runSlice: (slice) => lib.run(slice),
          progress: (n, total) => {
            pass.report(n, total);
            this.host.progressed();
          },
          yieldToOthers: toIo,
        },
      );
      if (!done) return;
    } finally {
      pass.end();
    }
    this.host.progressed();
    this.host.log.info(`${lib.name}: cross-skill checks of ${queue.length} skills in ${Math.round(performance.now() - t0)} ms`);
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
      const found = new Map<string, PairFinding[]>();
      const done = await runTimeSliced(
        ids,
        (id) => {
          if (lib.service!.skill(id)) found.set(id, lib.service!.pairFindings(id));
        },
        {
          live,
          runSlice: (slice) => lib.run(slice),
          progress: (n, total) => {
            pass.report(n, total);
            this.host.progressed();
          },
          yieldToOthers: toIo,
        },
      );
      if (!done) return;
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
    } finally {
      pass.end();
    }
    this.host.progressed();
    this.host.log.info(`${lib.name}: cross-skill recheck of ${ids.length} skills in ${Math.round(performance.now() - t0)} ms, ${moved} re-published`);
  }
}
