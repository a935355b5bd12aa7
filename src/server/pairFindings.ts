/**
 * The pair findings (copies, near-duplicates, conflicts) the language server knows for one
 * library, the scan cache they are found with, and the bookkeeping of the library-wide passes
 * that find them. Pairs are symmetric, so an edit to one skill rescans that skill only and
 * splices its new pairs into its twins' lists; the passes (the one after an index, the recheck
 * after names or descriptions changed) fill and correct the rest.
 */
import { PairScanCache } from '../core/analysis/pairCache';
import type { PairScanRun } from '../core/analysis/scanRun';
import type { PairFinding } from '../core/analysis/types';
import type { SkillDoc } from '../core/types';

/** What the store reads pairs from: the library's engine. */
export interface PairSource {
  /** Whether the skill is in the library (anything truthy: its document). */
  skill(id: string): unknown;
  /** Findings involving `id`, scanned now. */
  pairFindings(id: string, run?: PairScanRun): Promise<PairFinding[]>;
}

/** Where a library's scan cache is kept between sessions (next to its index cache). */
export interface PairCacheStorage {
  read(): Promise<PairScanCache>;
  write(cache: PairScanCache): Promise<void>;
}

/** Items done and their total; `waiting` while a pass is due but waits for edits to pause. */
export interface PassProgress {
  done: number;
  total: number;
  /** The pass is due, not running: it starts `delayMs` after the last edit. */
  waiting?: { delayMs: number };
}

/**
 * What of a skill the pair findings of other skills depend on most: its name and description are
 * what other skills' probe requests meet. An update that changes it calls for a recheck.
 */
export function pairInputKey(doc: Pick<SkillDoc, 'name' | 'description' | 'lang'> | undefined): string {
  return doc ? `${doc.name}\n${doc.description}\n${doc.lang}` : '';
}

/** Whether two lists hold the same pair findings, in any order (`a` missing: not the same). */
export function samePairs(a: readonly PairFinding[] | undefined, b: readonly PairFinding[]): boolean {
  if (!a || a.length !== b.length) return false;
  const key = (list: readonly PairFinding[]) => list.map((p) => JSON.stringify(p)).sort().join('\n');
  return key(a) === key(b);
}

/** One run of a pass: whether it is still the current one, and how it reports. */
export interface PassRun {
  /** True until a newer `begin` or a `supersede`. */
  live(): boolean;
  report(done: number, total: number): void;
  /** Ends the run; when it is still current, nothing is in flight and no progress shows. */
  end(): void;
}

/**
 * Bookkeeping of one kind of library-wide pass: a newer run (or a stop) supersedes the one in
 * flight, which sees `live()` turn false at its next item; `progress` shows from when a pass is
 * due until it ends.
 */
export class PassState {
  private run = 0;
  private inFlight = false;
  progress: PassProgress | null = null;

  /**
   * Whether a run is in flight: set by `begin`, cleared when the current run ends (a superseded
   * run leaves it to the run that supersedes it).
   */
  get running(): boolean {
    return this.inFlight;
  }

  /**
   * Stops the run in flight; `total` marks a new pass due with that many items (starting
   * `delayMs` after the last edit, when given), null none.
   */
  supersede(total: number | null, delayMs?: number): void {
    this.run++;
    this.progress = total === null ? null : { done: 0, total, ...(delayMs !== undefined ? { waiting: { delayMs } } : {}) };
  }

  /** Starts a run over `total` items, superseding the one in flight. */
  begin(total: number): PassRun {
    const run = ++this.run;
    this.inFlight = true;
    this.progress = { done: 0, total };
    const live = () => run === this.run;
    return {
      live,
      report: (done, all) => {
        if (live()) this.progress = { done, total: all };
      },
      end: () => {
        if (!live()) return;
        this.inFlight = false;
        this.progress = null;
      },
    };
  }
}

/** Text entries made by one-skill scans that are written at once rather than with the next pass's results. */
const PERSIST_TEXTS_AFTER = 256;

/** Pair findings by skill id, for the skills analysed so far. */
export class PairFindingsStore {
  private readonly byId = new Map<string, PairFinding[]>();
  /** What the scans of this library keep: routed probes, text signatures, library-wide results. */
  cache = new PairScanCache();
  private storage: PairCacheStorage | null = null;
  /** The pass that finds every skill's pairs after an index. */
  readonly analysis = new PassState();
  /**
   * The pass that scans every skill's pairs again once edits that changed names or descriptions pause: term
   * weights are library-wide, so such an edit can move findings between two skills nobody edited.
   */
  readonly recheck = new PassState();

  /** The findings known for `id`; none when it was not analysed yet. */
  of(id: string): readonly PairFinding[] {
    return this.byId.get(id) ?? [];
  }

  /** Whether `id` was analysed (an edit or a pass found its pairs). */
  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** Forgets every finding (a fresh index: the analysis pass finds them again). */
  clear(): void {
    this.byId.clear();
  }

  /** Reads the scan cache kept in `storage`, and keeps it there from now on. */
  async attach(storage: PairCacheStorage): Promise<void> {
    this.storage = storage;
    this.cache = await storage.read();
  }

  /** Writes the scan cache to its storage when it has new results. */
  async persist(): Promise<void> {
    if (this.cache.dirty || this.cache.textsChanged) await this.storage?.write(this.cache);
  }

  /**
   * Takes a library-wide scan's findings for the skills of `ids` that nothing analysed meanwhile
   * (an edit got there first: its own scan is newer); returns the ids that took them.
   */
  fill(found: readonly PairFinding[], ids: readonly string[]): string[] {
    const byId = new Map<string, PairFinding[]>(ids.map((id) => [id, []]));
    for (const p of found) for (const id of new Set([p.a, p.b])) byId.get(id)?.push(p);
    const took: string[] = [];
    for (const [id, list] of byId) {
      if (this.byId.has(id)) continue;
      this.byId.set(id, list);
      took.push(id);
    }
    return took;
  }

  /**
   * Rescans the pairs of `id` (after an edit, or for the first time) and splices them into the
   * lists of its twins that were analysed already; a skill gone from `source` is forgotten and
   * taken out of its twins' lists. Returns the twins before and after, whose diagnostics change.
   * `findMentions` also looks for twins naming `id` when `id` itself was never analysed (their
   * scans found it); the analysis pass skips that search, as it visits every skill anyway.
   */
  async refresh(source: PairSource, id: string, findMentions = true): Promise<Set<string>> {
    const other = (p: PairFinding) => (p.a === id ? p.b : p.a);
    const present = !!source.skill(id);
    const found = present ? await source.pairFindings(id, { cache: this.cache }) : [];
    // The first edit after a reopen made the whole library's text entries: kept for the next start.
    if (this.cache.textsMade >= PERSIST_TEXTS_AFTER && this.storage) void this.cache.flushTexts().catch(() => undefined);
    const old = this.byId.get(id);
    if (present) this.byId.set(id, found);
    else this.byId.delete(id);
    const twins = new Set([...(old ?? []).map(other), ...found.map(other)]);
    if (!old && findMentions) {
      for (const [t, list] of this.byId) if (t !== id && list.some((p) => p.a === id || p.b === id)) twins.add(t);
    }
    for (const t of twins) {
      const list = this.byId.get(t);
      if (list) this.byId.set(t, [...list.filter((p) => p.a !== id && p.b !== id), ...found.filter((p) => p.a === t || p.b === t)]);
    }
    return twins;
  }

  /** Takes the findings a recheck scanned for `id`; returns whether they differ from the known ones. */
  replace(id: string, list: PairFinding[]): boolean {
    if (samePairs(this.byId.get(id), list)) return false;
    this.byId.set(id, list);
    return true;
  }

  /** The pass to show in the status: the analysis while it runs, else a recheck due or running. */
  progress(): PassProgress | null {
    return this.analysis.progress ?? this.recheck.progress;
  }
}
