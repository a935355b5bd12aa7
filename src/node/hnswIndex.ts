/**
 * Vector search that is exact below a size threshold and HNSW (hnswlib-node, cosine) above it.
 * The HNSW graph is persisted in the cache folder under a signature of its rows, so a warm
 * reopen of a large library loads it instead of rebuilding.
 */
import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { HierarchicalNSW } from 'hnswlib-node';
import type { Logger, VectorIndex } from '../core/types';
import { SILENT_LOGGER } from '../core/types';
import { BruteForceIndex } from '../core/route/denseStore';

export interface HnswOptions {
  /** Row count from which HNSW is used instead of exact search. */
  exactBelow?: number;
  /** Folder for the persisted graph; none means in memory only. */
  dir?: string;
  m?: number;
  efConstruction?: number;
  efSearch?: number;
  logger?: Logger;
}

export class HnswIndex implements VectorIndex {
  private readonly exact = new BruteForceIndex();
  private readonly vectors = new Map<number, Float32Array>();
  private hnsw: HierarchicalNSW | null = null;
  /** Keys marked deleted in the graph; hnswlib updates such a label only once it is unmarked. */
  private readonly deleted = new Set<number>();
  private readonly exactBelow: number;
  private readonly log: Logger;

  constructor(private readonly dims: number, private readonly opts: HnswOptions = {}) {
    this.exactBelow = opts.exactBelow ?? 20_000;
    this.log = opts.logger ?? SILENT_LOGGER;
  }

  get size(): number {
    return this.vectors.size;
  }

  /** Whether searches currently go through the HNSW graph. */
  get approximate(): boolean {
    return this.hnsw !== null;
  }

  upsert(key: number, vector: Float32Array): void {
    this.vectors.set(key, vector);
    this.exact.upsert(key, vector);
    if (this.hnsw) {
      if (this.deleted.delete(key)) this.hnsw.unmarkDelete(key);
      if (this.hnsw.getCurrentCount() >= this.hnsw.getMaxElements()) this.hnsw.resizeIndex(Math.ceil(this.hnsw.getMaxElements() * 1.5) + 16);
      this.hnsw.addPoint(Array.from(vector), key);
    }
  }

  remove(key: number): void {
    if (!this.vectors.delete(key)) return;
    this.exact.remove(key);
    if (this.hnsw) {
      try {
        this.hnsw.markDelete(key);
        this.deleted.add(key);
      } catch {
        // already gone from the graph
      }
    }
  }

  search(vector: Float32Array, k: number): { key: number; score: number }[] {
    if (!this.hnsw && this.vectors.size >= this.exactBelow) this.buildGraph();
    if (!this.hnsw) return this.exact.search(vector, k);
    const n = Math.min(k, this.vectors.size);
    if (!n) return [];
    this.hnsw.setEf(Math.max(this.opts.efSearch ?? 128, n));
    const res = this.hnsw.searchKnn(Array.from(vector), n);
    return res.neighbors.map((key, i) => ({ key, score: 1 - res.distances[i] }));
  }

  /**
   * Loads the persisted graph for `signature` (the rows it was built from), or builds and saves
   * it. No-op below the exact-search threshold.
   */
  async prepare(signature: string): Promise<void> {
    if (this.vectors.size < this.exactBelow || this.hnsw) return;
    const file = this.opts.dir ? path.join(this.opts.dir, `hnsw-${signature}.bin`) : undefined;
    if (file) {
      try {
        await fs.access(file);
        // hnswlib trusts the file: flipped bytes load silently and crash the process at search.
        const expected = (await fs.readFile(`${file}.sha256`, 'utf8').catch(() => '')).trim();
        if (expected !== (await sha256Of(file))) throw new Error('its checksum does not match');
        const g = this.createGraph();
        await g.readIndex(file, true);
        if (g.getCurrentCount() === this.vectors.size) {
          this.hnsw = g;
          return;
        }
        this.log.warn(`HNSW cache ${file} does not match the library; rebuilding it`);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.log.warn(`HNSW cache ${file} is unreadable (${(err as Error).message}); rebuilding it`);
      }
    }
    this.buildGraph();
    if (file && this.hnsw) {
      await this.save(this.hnsw, file).catch((err) =>
        this.log.warn(`could not save the HNSW graph to ${file} (${(err as Error).message}); it is rebuilt on the next start`),
      );
    }
  }

  /** Writes the graph and its checksum, then drops graphs of other signatures. */
  private async save(g: HierarchicalNSW, file: string): Promise<void> {
    const dir = path.dirname(file);
    await fs.mkdir(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await g.writeIndex(tmp);
    const sum = await sha256Of(tmp);
    await fs.rename(tmp, file);
    await fs.writeFile(`${file}.sha256`, `${sum}\n`);
    const keep = new Set([path.basename(file), `${path.basename(file)}.sha256`]);
    for (const old of await fs.readdir(dir)) {
      if (old.startsWith('hnsw-') && (old.endsWith('.bin') || old.endsWith('.bin.sha256')) && !keep.has(old)) {
        await fs.rm(path.join(dir, old), { force: true });
      }
    }
  }

  private createGraph(): HierarchicalNSW {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { HierarchicalNSW: Ctor } = require('hnswlib-node') as typeof import('hnswlib-node');
    return new Ctor('cosine', this.dims);
  }

  private buildGraph(): void {
    const g = this.createGraph();
    g.initIndex({ maxElements: Math.ceil(this.vectors.size * 1.2) + 16, m: this.opts.m ?? 16, efConstruction: this.opts.efConstruction ?? 100, randomSeed: 42, allowReplaceDeleted: true });
    for (const [key, v] of this.vectors) g.addPoint(Array.from(v), key);
    this.hnsw = g;
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
