/**
 * What the index caches (vectors, lexical analyses, parsed skills) share: entries keyed by
 * content in one file, read once at open, pruned to the keys still in use and written back
 * atomically (temporary file, then rename) when something changed. A file that cannot be read or
 * decoded is reported through the logger and rebuilt; one written by another model or layout is
 * rebuilt with an information line only.
 */
import { createHash } from 'node:crypto';
import { promises as fs, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import type { Logger } from '../core/types';
import type { FlushOptions } from '../core/workspace';

/** Thrown by `decode` for a file of another model or layout (the message says so and what follows): rebuilt without a warning. */
export class StaleCacheFile extends Error {}

export abstract class KeyedCacheFile<V> {
  protected readonly map = new Map<string, V>();
  private dirty = false;
  /**
   * What a write would change (see `FlushOptions.minShare`): keys set since the file was read or
   * last written, entries of the file dropped since, and whether the file must be written anyway.
   */
  private readonly added = new Set<string>();
  private droppedFromFile = 0;
  private mustWrite = false;

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
  /** The file's bytes; may pause between steps (the caller's queue keeps others off the map meanwhile). */
  protected abstract encode(): Buffer[] | Promise<Buffer[]>;

  get size(): number {
    return this.map.size;
  }

  /** Whether entries changed since the file was read or last written. */
  get changed(): boolean {
    return this.dirty;
  }

  get(key: string): V | undefined {
    return this.map.get(key);
  }

  set(key: string, value: V): void {
    this.map.set(key, value);
    this.dirty = true;
    this.added.add(key);
  }

  /** Drops `key` (for a value that cannot be stored faithfully). */
  protected forget(key: string): void {
    if (this.map.delete(key)) {
      this.dirty = true;
      if (!this.added.delete(key)) this.droppedFromFile++;
    }
  }

  /** The file's bytes, for `decode`; a subclass may keep hold of the file it read them from. */
  protected readBytes(): Promise<Buffer> {
    return fs.readFile(this.file);
  }

  protected async load(): Promise<void> {
    await removeStaleTemps(this.file, this.log);
    let buf: Buffer;
    try {
      buf = await this.readBytes();
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
      this.mustWrite = true; // rewritten at the next flush, whatever its options
      if (err instanceof StaleCacheFile) this.log.info(`${this.what} ${this.file} ${err.message}`);
      else this.log.warn(`${this.what} ${this.file} is corrupt (${(err as Error).message}); rebuilding it`);
    }
  }

  /**
   * Replaces the entries with the file's, read back, when they are as written (nothing set since
   * the last write) and the file decodes: a reopen's form of them, which for some files takes
   * much less memory than the values they were written from. Otherwise keeps them as they are.
   */
  async reread(): Promise<void> {
    if (this.dirty) return;
    try {
      const entries = [...this.decode(await this.readBytes())];
      if (this.dirty) return; // set while the file was read
      this.map.clear();
      for (const [key, value] of entries) this.map.set(key, value);
    } catch (err) {
      this.log.debug(`${this.what} ${this.file} not read back (${(err as Error).message}); its entries stay as they are`);
    }
  }

  /**
   * Keeps only the entries in `keep`, then writes the file if anything changed; with
   * `opts.minShare`, only once the file would change by that share of its entries: keys set since
   * the last write, and entries of the file gone (a version set and superseded before the write
   * counts for nothing).
   */
  async flush(keep: Set<string>, opts: FlushOptions = {}): Promise<void> {
    for (const key of [...this.map.keys()]) {
      if (keep.has(key)) continue;
      this.map.delete(key);
      this.dirty = true;
      if (!this.added.delete(key)) this.droppedFromFile++;
    }
    const share = opts.minShare;
    if (share !== undefined && !this.mustWrite && this.added.size + this.droppedFromFile < Math.max(1, Math.floor(share * this.map.size))) return;
    if (!this.dirty) return;
    // Cleared before encoding: an entry set while the encoding pauses leaves the file dirty (and
    // counted as added for the next write).
    this.dirty = false;
    const [added, dropped, must] = [[...this.added], this.droppedFromFile, this.mustWrite];
    this.added.clear();
    this.droppedFromFile = 0;
    this.mustWrite = false;
    try {
      await this.write();
    } catch (err) {
      this.dirty = true;
      for (const key of added) this.added.add(key);
      this.droppedFromFile += dropped;
      this.mustWrite ||= must;
      throw err;
    }
  }

  private async write(): Promise<void> {
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    const out = await fs.open(tmp, 'w');
    let replaced: (() => void) | void;
    try {
      replaced = await this.writeTo(out, tmp);
    } finally {
      await out.close();
    }
    await fs.rename(tmp, this.file);
    replaced?.();
  }

  /**
   * Writes the file's bytes to `out` (the temporary file `tmp`, renamed over the file afterwards);
   * may return what to do once it has replaced the file. By default `encode`'s chunks at once.
   */
  protected async writeTo(out: fs.FileHandle, _tmp: string): Promise<(() => void) | void> {
    const chunks = await this.encode();
    const total = chunks.reduce((n, c) => n + c.length, 0);
    const { bytesWritten } = await out.writev(chunks);
    if (bytesWritten !== total) throw new Error(`wrote ${bytesWritten} of ${total} bytes`);
  }
}

/** Whether process `pid` is running (one we may not signal is running too). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes what a process killed while it wrote `file` left beside it: `<file>.<pid>.tmp` of a
 * process no longer running (the file itself is replaced by rename only, so it is still whole).
 * This process's own are left alone: another engine in it may be writing.
 */
export async function removeStaleTemps(file: string, log: Logger): Promise<void> {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.`;
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = /^(\d+)\.tmp$/.exec(name.slice(prefix.length))?.[1];
    if (!pid || Number(pid) === process.pid || running(Number(pid))) continue;
    await fs.rm(path.join(dir, name), { force: true }).then(
      () => log.info(`removed ${path.join(dir, name)}, left by a write that did not finish`),
      () => undefined,
    );
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

/** zlib's CRC-32 (Node 20.15 and later). */
const crc32: ((data: Uint8Array, value?: number) => number) | undefined = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** What a snapshot header holds to check its data: a CRC-32, or a SHA-1 where zlib has no CRC-32. */
export type DataChecksum = { crc32: number } | { sha1: string };

/**
 * The checksum of the large snapshots' data, over chunks: CRC-32 where zlib has it (3x faster than
 * SHA-1 here: the analysis and parse snapshots are checked on every reopen), else SHA-1. It guards
 * against damage (a file cut short, a flipped bit), not against tampering.
 */
export class Checksum {
  private crc = 0;
  private readonly sha = crc32 ? null : createHash('sha1');

  update(bytes: Uint8Array): this {
    if (this.sha) this.sha.update(bytes);
    else this.crc = crc32!(bytes, this.crc);
    return this;
  }

  digest(): DataChecksum {
    return this.sha ? { sha1: this.sha.digest('hex') } : { crc32: this.crc };
  }

  /**
   * Throws unless `chunks` (in order) match the checksum in `header`; a file checked by a CRC-32 this Node
   * cannot compute is another layout (rebuilt without a warning).
   */
  static check(header: { crc32?: unknown; sha1?: unknown }, ...chunks: Uint8Array[]): void {
    let ok: boolean;
    if (typeof header.crc32 === 'number') {
      if (!crc32) throw new StaleCacheFile('is checked by CRC-32, which this Node lacks; rebuilding it');
      ok = chunks.reduce((crc, bytes) => crc32!(bytes, crc), 0) === header.crc32;
    } else if (typeof header.sha1 === 'string') {
      const sha = createHash('sha1');
      for (const bytes of chunks) sha.update(bytes);
      ok = sha.digest('hex') === header.sha1;
    } else {
      throw new Error('no checksum');
    }
    if (!ok) throw new Error('checksum mismatch');
  }
}

/** Writes `file` whole or not at all (a temporary file beside it, then a rename), making its folder. */
export function writeFileAtomicSync(file: string, data: Uint8Array | string | readonly Uint8Array[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, Array.isArray(data) ? Buffer.concat(data as Uint8Array[]) : (data as Uint8Array | string));
  renameSync(tmp, file);
}
