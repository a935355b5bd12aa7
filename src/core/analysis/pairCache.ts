/**
 * What the pair scan keeps between calls, per library: text signatures by content hash (copies),
 * routed probes of the current library state, and whole-library results by library signature.
 * The results can be persisted (`toJSON` / `PairScanCache.fromJSON`; the node side writes them
 * next to the index cache), so a warm `check` or a reopened editor reads them instead of routing
 * thousands of probes again.
 */
import type { TextSignature } from './copies';
import type { PairFinding, ScopedRanking } from './types';

/** Bump when what a scan finds for the same library changes (rules, probes, messages). */
export const PAIR_SCAN_VERSION = 11;

/** Whole-library results kept (the current state and a few before it: an undo finds its result). */
const RESULTS_KEPT = 4;

/** The persisted part of a cache. */
export interface PairCacheJson {
  version: number;
  results: [string, PairFinding[]][];
}

/** The pair scan's caches for one library; one instance per engine (the server's folder, one `check` run). */
export class PairScanCache {
  private readonly signatures = new Map<string, TextSignature>();
  private readonly templates = new Map<string, string[]>();
  private rankingsKey = '';
  private rankings = new Map<string, ScopedRanking>();
  private readonly results = new Map<string, PairFinding[]>();
  /** Whether a result was added since the cache was read or last written. */
  dirty = false;

  /** The text signature of a skill version (`make` computes it on a miss). */
  signature(hash: string, make: () => TextSignature): TextSignature {
    let s = this.signatures.get(hash);
    if (!s) this.signatures.set(hash, (s = make()));
    return s;
  }

  /** The template keys of a skill version's sentences and headings (`make` computes them on a miss). */
  templateKeys(hash: string, make: () => string[]): string[] {
    let k = this.templates.get(hash);
    if (!k) this.templates.set(hash, (k = make()));
    return k;
  }

  /** Forgets what was kept for skill versions no longer in the library. */
  pruneSignatures(keep: ReadonlySet<string>): void {
    for (const h of this.signatures.keys()) if (!keep.has(h)) this.signatures.delete(h);
    for (const h of this.templates.keys()) if (!keep.has(h)) this.templates.delete(h);
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
    this.results.set(library, findings);
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
    return { version: PAIR_SCAN_VERSION, results: [...this.results] };
  }

  /** A cache from what `toJSON` wrote; anything else (another version, damage) gives an empty one. */
  static fromJSON(json: unknown): PairScanCache {
    const cache = new PairScanCache();
    const j = json as Partial<PairCacheJson> | null;
    if (!j || j.version !== PAIR_SCAN_VERSION || !Array.isArray(j.results)) return cache;
    for (const entry of j.results) {
      if (Array.isArray(entry) && typeof entry[0] === 'string' && Array.isArray(entry[1])) cache.results.set(entry[0], entry[1] as PairFinding[]);
    }
    return cache;
  }
}
