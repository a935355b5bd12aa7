/**
 * The reranker's analysed fields of skills, keyed by skill content (see `FieldStore`), in one
 * file so a warm `route` does not analyse its candidates' bodies and passages again (~0.05 s, and
 * for a Chinese candidate the segmentation memo's load): "SRFD1\n", a uint32 header length, a
 * JSON header {version, entries: [key, byte length, sha1][], sha1} where the outer `sha1` covers
 * the entry table, then each entry's fields as UTF-8 JSON, one after the other. A route reads a
 * few of the entries, so each is checked and parsed when asked for (and kept as bytes: the
 * reranker keeps what it reads): a damaged entry is reported, dropped and analysed again; a file
 * whose header or lengths do not hold is reported and rebuilt. The store keeps the
 * `MAX_ENTRIES` skills set most recently (a pair scan routes every skill of a library).
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { FieldStore, StoredFields } from '../core/index/caches';
import type { Logger } from '../core/types';
import type { FlushOptions } from '../core/workspace';
import { SILENT_LOGGER } from '../core/types';
import { KeyedCacheFile, readFrame, StaleCacheFile, writeFrame } from './cacheFile';

const MAGIC = Buffer.from('SRFD1\n');
const VERSION = 1;
export const FIELD_FILE = 'fields.bin';
/** Skills kept: ~10 KB each on disk (a route reads 20; the corpus's dev requests meet ~2,000). */
const MAX_ENTRIES = 1000;

/** An entry's fields as JSON bytes, with their checksum. */
interface Entry {
  bytes: Buffer;
  sha1: string;
}

const sha1 = (b: Buffer | string) => createHash('sha1').update(b).digest('hex');
const isTerms = (x: unknown): x is string[] => Array.isArray(x) && x.every((t) => typeof t === 'string');
const isFields = (x: unknown): x is StoredFields => {
  const f = x as StoredFields;
  return !!f && typeof f === 'object' && [f.name, f.description, f.headings, f.body].every(isTerms) && Array.isArray(f.passages) && f.passages.every(isTerms);
};
const isRow = (e: unknown): e is [string, number, string] =>
  Array.isArray(e) && e.length === 3 && typeof e[0] === 'string' && Number.isSafeInteger(e[1]) && e[1] >= 0 && typeof e[2] === 'string';

/** The file: entries as bytes, read and written whole. */
class FieldFile extends KeyedCacheFile<Entry> {
  private constructor(file: string, log: Logger) {
    super(file, 'field cache', log);
  }

  static async open(dir: string, logger: Logger): Promise<FieldFile> {
    const file = new FieldFile(path.join(dir, FIELD_FILE), logger);
    await file.load();
    return file;
  }

  drop(key: string): void {
    this.forget(key);
  }

  keys(): IterableIterator<string> {
    return this.map.keys();
  }

  protected decode(buf: Buffer): [string, Entry][] {
    const { header: h, data } = readFrame(buf, MAGIC);
    const header = h as { version?: unknown; entries?: unknown; sha1?: unknown };
    if (header?.version !== VERSION) throw new StaleCacheFile('has another layout; rebuilding it');
    const { entries } = header;
    if (!Array.isArray(entries) || !entries.every(isRow)) throw new Error('bad header');
    if (sha1(JSON.stringify(entries)) !== header.sha1) throw new Error('checksum mismatch');
    const out: [string, Entry][] = [];
    let at = 0;
    for (const [key, length, hash] of entries) {
      if (at + length > data.length) throw new Error('data shorter than the header says');
      out.push([key, { bytes: data.subarray(at, at + length), sha1: hash }]);
      at += length;
    }
    if (at !== data.length) throw new Error('data longer than the header says');
    return out;
  }

  protected encode(): Buffer[] {
    const rows: [string, number, string][] = [];
    const blobs: Buffer[] = [];
    for (const [key, { bytes, sha1: hash }] of this.map) {
      rows.push([key, bytes.length, hash]);
      blobs.push(bytes);
    }
    const [magic, len, head] = writeFrame(MAGIC, { version: VERSION, entries: rows, sha1: sha1(JSON.stringify(rows)) }, Buffer.alloc(0));
    return [magic, len, head, ...blobs];
  }
}

export class FileFieldStore implements FieldStore {
  private constructor(
    private readonly entries: FieldFile,
    private readonly log: Logger,
  ) {}

  /** Opens (or starts) the store in `dir`. A corrupt file is reported and replaced. */
  static async open(dir: string, logger: Logger = SILENT_LOGGER): Promise<FileFieldStore> {
    return new FileFieldStore(await FieldFile.open(dir, logger), logger);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): StoredFields | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    let fields: unknown;
    try {
      if (sha1(e.bytes) !== e.sha1) throw new Error('checksum mismatch');
      fields = JSON.parse(e.bytes.toString('utf8'));
    } catch (err) {
      fields = err;
    }
    if (!isFields(fields)) {
      this.log.warn(`field cache ${this.entries.file}: an entry is corrupt (${fields instanceof Error ? fields.message : 'bad fields'}); analysing it again`);
      this.entries.drop(key);
      return undefined;
    }
    return fields;
  }

  set(key: string, fields: StoredFields): void {
    const bytes = Buffer.from(JSON.stringify(fields), 'utf8');
    // The oldest set go first; a key set again counts as new.
    this.entries.drop(key);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size < MAX_ENTRIES) break;
      this.entries.drop(oldest);
    }
    this.entries.set(key, { bytes, sha1: sha1(bytes) });
  }

  flush(keep: Set<string>, opts?: FlushOptions): Promise<void> {
    return this.entries.flush(keep, opts);
  }
}
