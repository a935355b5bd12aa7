/**
 * Vectors of one embedding model, keyed by skill content, in one binary file:
 * "SRVC1\n", a uint32 header length, a JSON header {model, dims, entries: [[key, rows]]},
 * then float32 rows. Anything unreadable is discarded (and rebuilt) with a warning.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../core/types';
import { SILENT_LOGGER } from '../core/types';
import type { VectorCache } from '../core/workspace';

const MAGIC = Buffer.from('SRVC1\n');
export const VECTOR_FILE = 'vectors.bin';

interface Header {
  model: string;
  dims: number;
  entries: [string, number][];
}

export class FileVectorCache implements VectorCache {
  private readonly map = new Map<string, Float32Array[]>();
  private dirty = false;

  private constructor(readonly file: string, private readonly model: string, private readonly dims: number, private readonly log: Logger) {}

  /** Opens (or starts) the cache for `model` in `dir`. A corrupt file is reported and replaced. */
  static async open(dir: string, model: string, dims: number, logger: Logger = SILENT_LOGGER): Promise<FileVectorCache> {
    const cache = new FileVectorCache(path.join(dir, VECTOR_FILE), model, dims, logger);
    await cache.load();
    return cache;
  }

  get size(): number {
    return this.map.size;
  }

  private async load(): Promise<void> {
    let buf: Buffer;
    try {
      buf = await fs.readFile(this.file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.log.warn(`vector cache ${this.file} unreadable; rebuilding it`);
      return;
    }
    try {
      if (buf.length < MAGIC.length + 4 || !buf.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('bad magic');
      const hlen = buf.readUInt32LE(MAGIC.length);
      const hstart = MAGIC.length + 4;
      if (hstart + hlen > buf.length) throw new Error('truncated header');
      let header: Header;
      try {
        header = JSON.parse(buf.subarray(hstart, hstart + hlen).toString('utf8')) as Header;
      } catch {
        throw new Error('header is not JSON'); // the parser's message would quote the damaged bytes
      }
      const isEntry = (e: unknown) => Array.isArray(e) && typeof e[0] === 'string' && Number.isSafeInteger(e[1]) && e[1] >= 0;
      if (!Array.isArray(header?.entries) || !header.entries.every(isEntry)) throw new Error('bad header');
      if (header.model !== this.model || header.dims !== this.dims) {
        this.log.info(`vector cache was built with ${header.model}; re-embedding with ${this.model}`);
        this.dirty = true;
        return;
      }
      const rows = header.entries.reduce((n, [, r]) => n + r, 0);
      const dataStart = hstart + hlen;
      if (buf.length - dataStart !== rows * this.dims * 4) throw new Error('data length does not match header');
      // Copy into an aligned buffer once; rows are views into it.
      const data = new Float32Array(rows * this.dims);
      new Uint8Array(data.buffer).set(buf.subarray(dataStart));
      // A flipped exponent bit makes NaN or Infinity, which would poison every score it touches.
      for (let i = 0; i < data.length; i++) if (!Number.isFinite(data[i])) throw new Error('non-finite values');
      let offset = 0;
      for (const [key, r] of header.entries) {
        const vecs: Float32Array[] = [];
        for (let i = 0; i < r; i++, offset += this.dims) vecs.push(data.subarray(offset, offset + this.dims));
        this.map.set(key, vecs);
      }
    } catch (err) {
      this.map.clear();
      this.dirty = true;
      this.log.warn(`vector cache ${this.file} is corrupt (${(err as Error).message}); rebuilding it`);
    }
  }

  get(key: string): Float32Array[] | undefined {
    return this.map.get(key);
  }

  set(key: string, vectors: Float32Array[]): void {
    this.map.set(key, vectors);
    this.dirty = true;
  }

  async flush(keep: Set<string>): Promise<void> {
    for (const key of [...this.map.keys()]) {
      if (!keep.has(key)) {
        this.map.delete(key);
        this.dirty = true;
      }
    }
    if (!this.dirty) return;
    const entries: [string, number][] = [...this.map].map(([k, v]) => [k, v.length]);
    const header = Buffer.from(JSON.stringify({ model: this.model, dims: this.dims, entries } satisfies Header), 'utf8');
    const rows = entries.reduce((n, [, r]) => n + r, 0);
    const data = new Float32Array(rows * this.dims);
    let offset = 0;
    for (const vecs of this.map.values()) for (const v of vecs) data.set(v, (offset += this.dims) - this.dims);
    const len = Buffer.alloc(4);
    len.writeUInt32LE(header.length);
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    await fs.writeFile(tmp, Buffer.concat([MAGIC, len, header, Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
    await fs.rename(tmp, this.file);
    this.dirty = false;
  }
}
