/**
 * What the index caches (vectors, lexical analyses, parsed skills) share: entries keyed by
 * content in one file, read once at open, pruned to the keys still in use and written back
 * atomically (temporary file, then rename) when something changed. A file that cannot be read or
 * decoded is reported through the logger and rebuilt; one written by another model or layout is
 * rebuilt with an information line only.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../core/types';

/** Thrown by `decode` for a file of another model or layout (the message says so and what follows): rebuilt without a warning. */
export class StaleCacheFile extends Error {}

export abstract class KeyedCacheFile<V> {
  protected readonly map = new Map<string, V>();
  private dirty = false;

  /** `what` names the file in messages, e.g. "vector cache". */
  protected constructor(
    readonly file: string,
    private readonly what: string,
    protected readonly log: Logger,
  ) {}

  /** The entries of a file's bytes; throws an Error saying what is wrong, or StaleCacheFile. */
  protected abstract decode(buf: Buffer): Iterable<[string, V]>;

  /**
   * The file's bytes for the entries of `map`, as chunks written one after the other (joining
   * them first would hold the file twice; the analysis and parse snapshots are 30-45 MB).
   */
  protected abstract encode(): Buffer[];

  get size(): number {
    return this.map.size;
  }

  get(key: string): V | undefined {
    return this.map.get(key);
  }

  set(key: string, value: V): void {
    this.map.set(key, value);
    this.dirty = true;
  }

  /** Drops `key` (for a value that cannot be stored faithfully). */
  protected forget(key: string): void {
    if (this.map.delete(key)) this.dirty = true;
  }

  protected async load(): Promise<void> {
    let buf: Buffer;
    try {
      buf = await fs.readFile(this.file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.log.warn(`${this.what} ${this.file} unreadable; rebuilding it`);
      return;
    }
    try {
      // Decoded in full before any entry is kept: a file damaged half-way gives nothing.
      const entries = [...this.decode(buf)];
      for (const [key, value] of entries) this.map.set(key, value);
    } catch (err) {
      this.map.clear();
      this.dirty = true;
      if (err instanceof StaleCacheFile) this.log.info(`${this.what} ${this.file} ${err.message}`);
      else this.log.warn(`${this.what} ${this.file} is corrupt (${(err as Error).message}); rebuilding it`);
    }
  }

  /** Keeps only the entries in `keep`, then writes the file if anything changed. */
  async flush(keep: Set<string>): Promise<void> {
    for (const key of [...this.map.keys()]) {
      if (!keep.has(key)) {
        this.map.delete(key);
        this.dirty = true;
      }
    }
    if (!this.dirty) return;
    const chunks = this.encode();
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    const out = await fs.open(tmp, 'w');
    try {
      const total = chunks.reduce((n, c) => n + c.length, 0);
      const { bytesWritten } = await out.writev(chunks);
      if (bytesWritten !== total) throw new Error(`wrote ${bytesWritten} of ${total} bytes`);
    } finally {
      await out.close();
    }
    await fs.rename(tmp, this.file);
    this.dirty = false;
  }
}

/** Splits "MAGIC, uint32 LE header length, JSON header, data" (the binary caches' frame). */
export function readFrame(buf: Buffer, magic: Buffer): { header: unknown; data: Buffer; dataStart: number } {
  if (buf.length < magic.length + 4 || !buf.subarray(0, magic.length).equals(magic)) throw new Error('bad magic');
  const hlen = buf.readUInt32LE(magic.length);
  const hstart = magic.length + 4;
  const dataStart = hstart + hlen;
  if (dataStart > buf.length) throw new Error('truncated header');
  let header: unknown;
  try {
    header = JSON.parse(buf.subarray(hstart, dataStart).toString('utf8'));
  } catch {
    throw new Error('header is not JSON'); // the parser's message would quote the damaged bytes
  }
  return { header, data: buf.subarray(dataStart), dataStart };
}

/**
 * The frame `readFrame` reads, as chunks; `align` pads the JSON (with spaces) so the data starts
 * on that boundary.
 */
export function writeFrame(magic: Buffer, header: unknown, data: Buffer, align = 1): Buffer[] {
  let json = JSON.stringify(header);
  const lead = magic.length + 4;
  json += ' '.repeat((align - ((lead + Buffer.byteLength(json, 'utf8')) % align)) % align);
  const head = Buffer.from(json, 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(head.length);
  return [magic, len, head, data];
}
