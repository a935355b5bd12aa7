/**
 * A reopened library's lexical index from its snapshot: the first index of a library fills an
 * empty `LexicalIndex` with every skill at once (a batch), and the postings that batch builds
 * depend only on which skills, in which order, with which analyses. So the batch is signed by
 * its ids and analysis keys; a store holding that signature's index restores it (building it
 * took ~0.1 s of a warm `route` over the corpus), else the batch is built and the store gets the
 * result when the engine flushes. Any other change (an edit, a removal) only makes the next
 * open's signature differ.
 */
import type { Logger } from '../types';
import { contentHash } from '../text/hash';
import type { LexicalSnapshotStore } from './caches';
import type { LexicalIndex, TermCounts } from './lexicalIndex';

/** Bump when the postings a batch builds change for the same analyses. */
const SNAPSHOT_VERSION = 2;
/** Batches smaller than this are indexed one by one (see `LexicalIndex.upsertManyCounts`) and fast anyway. */
const SNAPSHOT_MIN = 64;

/** The signature of a batch: its keys in order, each with the analysis its counts came from. */
export function batchSignature(keys: readonly string[], analysisKeys: readonly string[]): string {
  return contentHash(`${SNAPSHOT_VERSION}\n${keys.map((k, i) => `${k}\t${analysisKeys[i]}`).join('\n')}`);
}

export class LexicalSnapshots {
  /** The batch built last, to be handed to the store if the index is still as it built it. */
  private pending: { signature: string; version: number } | null = null;

  constructor(
    private readonly store: LexicalSnapshotStore | undefined,
    private readonly log: Logger,
  ) {}

  /**
   * Fills `index` with `batch` (`analysisKeys[i]` the analysis of `batch[i]`): restored from the
   * store when `index` is empty and the store holds this batch's index, else by `build`.
   */
  async fill(index: LexicalIndex, batch: readonly (readonly [string, TermCounts])[], analysisKeys: readonly string[], build: () => Promise<void>): Promise<void> {
    const signature = this.store && index.size === 0 && batch.length >= SNAPSHOT_MIN ? batchSignature(batch.map(([k]) => k), analysisKeys) : null;
    if (signature) {
      const state = await this.store!.read(signature).catch(() => null);
      if (state) {
        try {
          index.restore(state);
          return;
        } catch (err) {
          this.log.warn(`the lexical snapshot does not hold together (${err instanceof Error ? err.message : err}); rebuilding it`);
        }
      }
    }
    await build();
    if (signature) this.pending = { signature, version: index.version };
  }

  /** Hands the index the last `fill` built to the store, when nothing changed it since. */
  async flush(index: LexicalIndex): Promise<void> {
    const pending = this.pending;
    this.pending = null;
    if (!pending || !this.store || index.version !== pending.version) return;
    const state = index.state();
    if (!state) return;
    await this.store.write(pending.signature, state).catch((err) => this.log.warn(`could not write the lexical snapshot: ${err instanceof Error ? err.message : err}`));
  }
}
