/**
 * The reranker's analysed fields of skills, keyed by skill content (see `FieldStore`), in one
 * file so a warm `route` does not analyse its candidates' bodies and passages again (~0.05 s, and
 * for a Chinese candidate the segmentation memo's load): "SRFD1\n", a uint32 header length, a
 * JSON header {version, entries: [key, byte length, sha1][], sha1} where the outer `sha1` covers
 * the entry table, then each entry's fields as UTF-8 JSON, one after the other. A route reads a
 * few of the entries, so each is checked and parsed when first asked for: a damaged entry is
 * reported, dropped and analysed again; a file whose header or lengths do not hold is reported
 * and rebuilt.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { FieldStore, StoredFields } from '../core/index/caches';
import type { Logger } from '../core/types';
import { SILENT_LOGGER } from '../core/types';
import { KeyedCacheFile, readFrame, StaleCacheFile, writeFrame } from './cacheFile';

const MAGIC = Buffer.from('SRFD1\n');
const VERSION = 1;
export const FIELD_FILE = 'fields.bin';

/** An entry as read from the file, parsed on first use. */
interface Unparsed {
  bytes: Buffer;
  sha1: string;
}

type Entry = StoredFields | Unparsed;

const sha1 = (b: Buffer | string) => createHash('sha1').update(b).digest('hex');
const isTerms = (x: unknown): x is string[] => Array.isArray(x) && x.every((t) => typeof t === 'string');
const isFields = (x: unknown): x is StoredFields => {
  const f = x as StoredFields;
  return !!f && typeof f === 'object' && [f.name, f.description, f.headings, f.body].every(isTerms) && Array.isArray(f.passages) && f.passages.every(isTerms);
};
const isRow = (e: unknown): e is [string, number, string] =>
  Array.isArray(e) && e.length === 3 && typeof e[0] === 'string' && Number.isSafeInteger(e[1]) && e[1] >= 0 && typeof e[2] === 'string';

export class FileFieldStore extends KeyedCacheFile<Entry> implements FieldStore {
  private constructor(file: string, log: Logger) {
    super(file, 'field cache', log);
  }

  /** Opens (or starts) the store in `dir`. A corrupt file is reported and replaced. */
  static async open(dir: string, logger: Logger = SILENT_LOGGER): Promise<FileFieldStore> {
    const store = new FileFieldStore(path.join(dir, FIELD_FILE), logger);
    await store.load();
    return store;
  }

  override get(key: string): StoredFields | undefined {
    const e = super.get(key);
    if (!e || !('bytes' in e)) return e;
    let fields: unknown;
    try {
      if (sha1(e.bytes) !== e.sha1) throw new Error('checksum mismatch');
      fields = JSON.parse(e.bytes.toString('utf8'));
    } catch (err) {
      fields = err;
    }
    if (!isFields(fields)) {
      this.log.warn(`field cache ${this.file}: an entry is corrupt (${fields instanceof Error ? fields.message : 'bad fields'}); analysing it again`);
      this.forget(key);
      return undefined;
    }
    // Parsed once: the map holds the parsed form from now on (not a change to write).
    this.map.set(key, fields);
    return fields;
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
    for (const [key, e] of this.map) {
      const bytes = 'bytes' in e ? e.bytes : Buffer.from(JSON.stringify(e), 'utf8');
      rows.push([key, bytes.length, 'bytes' in e ? e.sha1 : sha1(bytes)]);
      blobs.push(bytes);
    }
    const [magic, len, head] = writeFrame(MAGIC, { version: VERSION, entries: rows, sha1: sha1(JSON.stringify(rows)) }, Buffer.alloc(0));
    return [magic, len, head, ...blobs];
  }
}
