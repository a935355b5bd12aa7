/**
 * Vectors of one embedding model, keyed by skill content, in one binary file:
 * "SRVC1\n", a uint32 header length, a JSON header {model, dims, entries: [[key, rows]]},
 * then float32 rows. Anything unreadable is discarded (and rebuilt) with a warning.
 */
import * as path from 'node:path';
import type { Logger } from '../core/types';
import { SILENT_LOGGER } from '../core/types';
import type { VectorCache } from '../core/workspace';
import { KeyedCacheFile, readFrame, StaleCacheFile, writeFrame } from './cacheFile';

const MAGIC = Buffer.from('SRVC1\n');
export const VECTOR_FILE = 'vectors.bin';

interface Header {
  model: string;
  dims: number;
  entries: [string, number][];
}

export class FileVectorCache extends KeyedCacheFile<Float32Array[]> implements VectorCache {
  private constructor(file: string, private readonly model: string, private readonly dims: number, log: Logger) {
    super(file, 'vector cache', log);
  }

  /** Opens (or starts) the cache for `model` in `dir`. A corrupt file is reported and replaced. */
  static async open(dir: string, model: string, dims: number, logger: Logger = SILENT_LOGGER): Promise<FileVectorCache> {
    const cache = new FileVectorCache(path.join(dir, VECTOR_FILE), model, dims, logger);
    await cache.load();
    return cache;
  }

  protected decode(buf: Buffer): [string, Float32Array[]][] {
    const { header: h, data: bytes } = readFrame(buf, MAGIC);
    const header = h as Header;
    const isEntry = (e: unknown) => Array.isArray(e) && typeof e[0] === 'string' && Number.isSafeInteger(e[1]) && e[1] >= 0;
    if (!Array.isArray(header?.entries) || !header.entries.every(isEntry)) throw new Error('bad header');
    if (header.model !== this.model || header.dims !== this.dims) throw new StaleCacheFile(`was built with ${header.model}; re-embedding with ${this.model}`);
    const rows = header.entries.reduce((n, [, r]) => n + r, 0);
    if (bytes.length !== rows * this.dims * 4) throw new Error('data length does not match header');
    // Copy into an aligned buffer once; rows are views into it.
    const data = new Float32Array(rows * this.dims);
    new Uint8Array(data.buffer).set(bytes);
    // A flipped exponent bit makes NaN or Infinity, which would poison every score it touches.
    for (let i = 0; i < data.length; i++) if (!Number.isFinite(data[i])) throw new Error('non-finite values');
    let offset = 0;
    return header.entries.map(([key, r]) => {
      const vecs: Float32Array[] = [];
      for (let i = 0; i < r; i++, offset += this.dims) vecs.push(data.subarray(offset, offset + this.dims));
      return [key, vecs];
    });
  }

  protected encode(): Buffer[] {
    const entries: [string, number][] = [...this.map].map(([k, v]) => [k, v.length]);
    const rows = entries.reduce((n, [, r]) => n + r, 0);
    const data = new Float32Array(rows * this.dims);
    let offset = 0;
    for (const vecs of this.map.values()) for (const v of vecs) data.set(v, (offset += this.dims) - this.dims);
    return writeFrame(MAGIC, { model: this.model, dims: this.dims, entries } satisfies Header, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  }
}
