/**
 * What the pair scan keeps between calls, per library: each skill version's text entry by content
 * hash (its copy sketch and template keys; see `TextEntryStore`), routed probes of the current
 * library state, and whole-library results by library signature. The results can be persisted
 * (`toJSON` / `PairScanCache.fromJSON`; the node side writes them next to the index cache), so a
 * warm `check` or a reopened editor reads them instead of routing thousands of probes again; the
 * text entries can live in a store of their own (the node side: a file beside the results), so
 * the first edit after a reopen does not read every skill's body again.
 */
import { hash53 } from '../text/hash';
import { CopyIndex, type CopySketch, type TextSignature } from './copies';
import { TemplateCounts } from './templateCounts';
import type { PairFinding, ScopedRanking } from './types';

/** Bump when what a scan finds for the same library changes (rules, probes, messages). */
export const PAIR_SCAN_VERSION = 42;

/** Whole-library results kept (the current state and a few before it: an undo finds its result). */
const RESULTS_KEPT = 4;
/** Full text signatures (shingles of a whole body) kept for the skills compared last. */
const SIGNATURES_KEPT = 512;

/**
 * The persisted part of a cache: each distinct finding once, each result as the indices of its
 * findings (successive results of one library share nearly all of theirs: 70,000 at 20,000
 * skills with copies, written out once per result they were four times the size). Caches written
 * with each result's findings in full (`results: [key, PairFinding[]]`) are read too.
 */
export interface PairCacheJson {
  version: number;
  findings: PairFinding[];
  results: [string, number[]][];
}

/**
 * What the scan needs of every skill version, whatever it routes: the sketch the copy index
 * buckets, and the hashes of its template keys (`templateHash`), which count template text.
 */
export interface TextEntry {
  sketch: CopySketch;
  templates: readonly number[];
}

/** Where text entries are kept by content hash (a map here; a file on the node side). */
export interface TextEntryStore {
  get(hash: string): TextEntry | undefined;
  set(hash: string, entry: TextEntry): void;
  /** Keeps the entries of `keep` only (and writes them, for a file). */
  flush(keep: Set<string>): Promise<void>;
  /** Whether entries were set since the last flush. */
  readonly changed: boolean;
}

/** A store in memory. */
export class MemoryTextStore implements TextEntryStore {
  private readonly map = new Map<string, TextEntry>();
  changed = false;
  get(hash: string): TextEntry | undefined {
    return this.map.get(hash);
  }
  set(hash: string, entry: TextEntry): void {
    this.map.set(hash, entry);
    this.changed = true;
  }
  async flush(keep: Set<string>): Promise<void> {
    for (const h of [...this.map.keys()]) if (!keep.has(h)) this.map.delete(h);
    this.changed = false;
  }
}

/**
 * A 53-bit hash of a template key: what the scan counts and stores (the keys are sentences and
 * headings; a collision of two in one library is ~1 in 10^6 and only makes one sentence look shared).
 */
export function templateHash(key: string): number {
  return hash53(key);
}

/** The pair scan's caches for one library; one instance per engine (the server's folder, one `check` run). */
export class PairScanCache {
  private texts: TextEntryStore = new MemoryTextStore();
  /** Opens the attached store on first use (`prepare`). */
  private opening: (() => Promise<TextEntryStore>) | null = null;
  private opened: Promise<void> | null = null;
  /** The content hashes of the library as last scanned: the text entries a flush keeps. */
  private live: Set<string> | null = null;
  private made = 0;
  private flushing: Promise<void> = Promise.resolve();
  private readonly signatures = new Map<string, TextSignature>();
  /** The copy index of the library last scanned (each scan brings it up to date). */
  readonly copyIndex = new CopyIndex();
  /** The template counts of the library last scanned (the same). */
  readonly templates = new TemplateCounts();
  private rankingsKey = '';
  private rankings = new Map<string, ScopedRanking>();
  private readonly results = new Map<string, PairFinding[]>();
  /** Whether a result was added since the cache was read or last written. */
  dirty = false;

  /** Keeps text entries in the store `open` gives, opened when a scan first needs it. */
  attachTextStore(open: () => Promise<TextEntryStore>): void {
    this.opening = open;
    this.opened = null;
  }

  /** Opens the attached store, once; a store that fails to open leaves the one in memory. */
  async prepare(): Promise<void> {
    if (!this.opening) return;
    const open = this.opening;
    this.opened ??= open().then(
      (store) => {
        this.texts = store;
      },
      () => undefined,
    );
    await this.opened;
  }

  /** The content hashes of the library a scan is over (what `flushTexts` keeps). */
  noteLibrary(hashes: Set<string>): void {
    this.live = hashes;
  }

  /** Whether text entries wait to be written. */
  get textsChanged(): boolean {
    return this.texts.changed;
  }

  /** Text entries made (not found) since the last flush. */
  get textsMade(): number {
    return this.made;
  }

  /**
   * Keeps the text entries of the library last scanned, and writes them where the store does;
   * one flush at a time (a file is written through one temporary name).
   */
  flushTexts(): Promise<void> {
    const run = async () => {
      if (!this.live || !this.texts.changed) return;
      this.made = 0;
      await this.texts.flush(this.live);
    };
    const next = this.flushing.then(run, run);
    this.flushing = next.catch(() => undefined);
    return next;
  }

  /** The text entry of a skill version (`make` computes it on a miss). */
  text(hash: string, make: () => TextEntry): TextEntry {
    let e = this.texts.get(hash);
    if (!e) {
      this.texts.set(hash, (e = make()));
      this.made++;
    }
    return e;
  }

  /** The full signature of a skill version, kept for the versions compared last. */
  signature(hash: string, make: () => TextSignature): TextSignature {
    let s = this.signatures.get(hash);
    if (s) this.signatures.delete(hash);
    else s = make();
    this.signatures.set(hash, s);
    if (this.signatures.size > SIGNATURES_KEPT) this.signatures.delete(this.signatures.keys().next().value as string);
    return s;
  }

  /** A routed probe of library state `library`; rankings of any other state are gone. */
  ranking(library: string, probe: string): ScopedRanking | undefined {
    return this.rankingsKey === library ? this.rankings.get(probe) : undefined;
  }

  setRanking(library: string, probe: string, ranking: ScopedRanking): void {
    if (this.rankingsKey !== library) {
      this.rankingsKey = library;
      this.rankings = new Map();
    }
    this.rankings.set(probe, ranking);
  }

  /** The whole-library findings of library state `library`, if a scan of it finished. */
  result(library: string): readonly PairFinding[] | undefined {
    return this.results.get(library);
  }

  setResult(library: string, findings: PairFinding[]): void {
    this.results.delete(library);
    // A finding equal to one of the result before is that one: the kept results share them.
    this.results.set(library, shareFindings(findings, this.latest()));
    while (this.results.size > RESULTS_KEPT) this.results.delete(this.results.keys().next().value as string);
    this.dirty = true;
  }

  /** The most recent whole-library result, whatever state it was of (partners to recheck after an edit). */
  latest(): readonly PairFinding[] | undefined {
    let last: PairFinding[] | undefined;
    for (const v of this.results.values()) last = v;
    return last;
  }

  toJSON(): PairCacheJson {
    const index = new Map<PairFinding, number>();
    const findings: PairFinding[] = [];
    const results: [string, number[]][] = [];
    for (const [key, list] of this.results) {
      results.push([
        key,
        list.map((f) => {
          let i = index.get(f);
          if (i === undefined) {
            index.set(f, (i = findings.length));
            findings.push(f);
          }
          return i;
        }),
      ]);
    }
    return { version: PAIR_SCAN_VERSION, findings, results };
  }

  /** A cache from what `toJSON` wrote (or the older layout); anything else (another version, damage) gives an empty one. */
  static fromJSON(json: unknown): PairScanCache {
    const cache = new PairScanCache();
    const j = json as { version?: unknown; findings?: unknown; results?: unknown } | null;
    if (!j || j.version !== PAIR_SCAN_VERSION || !Array.isArray(j.results)) return cache;
    const table = Array.isArray(j.findings) ? (j.findings as PairFinding[]) : null;
    for (const entry of j.results as unknown[]) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) continue;
      const list = entry[1] as unknown[];
      if (table) {
        // Indices into the table; a result with one out of range is left out (damage).
        if (!list.every((i) => Number.isInteger(i) && (i as number) >= 0 && (i as number) < table.length)) continue;
        cache.results.set(entry[0], (list as number[]).map((i) => table[i]));
      } else {
        cache.results.set(entry[0], shareFindings(list as PairFinding[], cache.latest()));
      }
    }
    return cache;
  }
}

/** `found`, each finding equal to one of `before` replaced by that one (so results held together share their findings). */
export function shareFindings(found: PairFinding[], before: readonly PairFinding[] | undefined): PairFinding[] {
  if (!before?.length) return found;
  const byPair = new Map<string, PairFinding[]>();
  for (const f of before) {
    const key = `${f.kind}\n${f.a}\n${f.b}`;
    const list = byPair.get(key);
    if (list) list.push(f);
    else byPair.set(key, [f]);
  }
  return found.map((f) => byPair.get(`${f.kind}\n${f.a}\n${f.b}`)?.find((g) => sameJson(f, g)) ?? f);
}

/** Deep equality of JSON-like values (objects by their own enumerable keys, arrays by order). */
function sameJson(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  if (Array.isArray(x) !== Array.isArray(y)) return false;
  if (Array.isArray(x)) {
    const b = y as unknown[];
    return x.length === b.length && x.every((v, i) => sameJson(v, b[i]));
  }
  const a = x as Record<string, unknown>;
  const b = y as Record<string, unknown>;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson(a[k], b[k]));
}
