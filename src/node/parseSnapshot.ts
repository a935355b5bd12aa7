/**
 * Parsed skills of a library, keyed by file stamp (see `ParseCache`), in one file so a reopen
 * neither reads nor parses unchanged SKILL.md files: "SRPS1\n", a JSON header line
 * {version, crc32 or sha1} whose checksum covers the rest, then per skill one JSON
 * `[key, SkillDoc]` line in which the `LAZY` fields hold their byte lengths, then those fields'
 * bytes (the body as UTF-8, the others as JSON) and a newline. They are most of the file (30 of
 * 31 MB at 2,800 skills; ~200 MB at 20,000) and a warm `route` reads few of them, so they are not
 * kept in memory: each is read from the file when first read (see `lazyField`, `SnapshotBytes`).
 * Only documents that survive the file unchanged are stored (YAML timestamps in front matter are
 * written as tagged strings and revived). Anything unreadable, inconsistent or damaged is
 * reported and rebuilt.
 */
import { closeSync, openSync, readFile, readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import type { ParseCache } from '../core/index/caches';
import type { SkillDoc } from '../core/types';
import type { Logger } from '../core/types';
import { SILENT_LOGGER } from '../core/types';
import { Checksum, KeyedCacheFile, StaleCacheFile } from './cacheFile';

const MAGIC = 'SRPS1\n';
// 3: findings reworded (YAML mistakes explained, one finding per name problem); older files hold the old wording.
// 4: bodies as bytes after their entry's line. 5: front matter, key ranges and findings too.
const VERSION = 5;
export const PARSE_FILE = 'parsed.json';
const NEWLINE = Buffer.from('\n');
/** The header line's width (magic, JSON padded with spaces, newline): written last, in place. */
const HEADER_BYTES = 128;
/** How much is handed to one write. */
const BATCH_BYTES = 4 << 20;

/** How a YAML timestamp in front matter is written (JSON has no dates); see `revive`. */
const DATE_TAG = '\u0000date';

/** True when the value comes back equal through JSON (with front-matter dates tagged). */
function jsonFaithful(v: unknown, depth = 0): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0);
  if (typeof v !== 'object' || depth > 64) return false;
  if (v instanceof Date) return Number.isFinite(v.getTime()) && Object.keys(v).length === 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!(i in v) || !jsonFaithful(v[i], depth + 1)) return false;
    return true;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return false;
  // `__proto__` as an own key would come back as a prototype, not a key.
  for (const k of Object.keys(v)) if (k === '__proto__' || k === DATE_TAG || !jsonFaithful((v as Record<string, unknown>)[k], depth + 1)) return false;
  return Object.getOwnPropertySymbols(v).length === 0;
}

/** Dates as tagged objects, for `JSON.stringify` (whose own `Date.toJSON` runs before a replacer sees it). */
function tagDates(v: unknown): unknown {
  if (v instanceof Date) return { [DATE_TAG]: v.toISOString() };
  if (Array.isArray(v)) return v.map(tagDates);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = tagDates(x);
    return out;
  }
  return v;
}

/** The inverse of `tagDates`, in place. */
function revive(v: unknown): unknown {
  if (!v || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = revive(v[i]);
    return v;
  }
  const o = v as Record<string, unknown>;
  if (DATE_TAG in o) {
    const d = new Date(o[DATE_TAG] as string);
    if (typeof o[DATE_TAG] !== 'string' || !Number.isFinite(d.getTime())) throw new Error('bad date');
    return d;
  }
  for (const k of Object.keys(o)) o[k] = revive(o[k]);
  return o;
}

/**
 * `keyRanges` is made without a prototype (keys come from the file); it is stored as a plain
 * object. The body is stored as UTF-8, which has no lone surrogates.
 */
function faithfulDoc(doc: SkillDoc): boolean {
  return Object.getPrototypeOf(doc.keyRanges) === null && !/\p{Cs}/u.test(doc.body) && jsonFaithful({ ...doc, keyRanges: { ...doc.keyRanges } });
}

/**
 * The fields kept as bytes after their entry's line, decoded when first read: a warm `route`
 * reads the bodies, front matter and key ranges of its candidates only, and the findings of none.
 */
const LAZY = ['body', 'frontMatter', 'keyRanges', 'findings'] as const;
type LazyField = (typeof LAZY)[number];

/** A lazy field's value from its bytes (`body` as text, the others as JSON). */
function decodeField(field: LazyField, bytes: Buffer): unknown {
  if (field === 'body') return bytes.toString('utf8');
  const v = JSON.parse(bytes.toString('utf8')) as unknown;
  if (field === 'frontMatter') return revive(v);
  // Made without a prototype, as the parser makes it (keys come from the file).
  if (field === 'keyRanges') return Object.assign(Object.create(null) as Record<string, never>, v);
  return v;
}

/** A lazy field's bytes, as `decodeField` reads them. */
function encodeField(field: LazyField, value: unknown): Buffer {
  if (field === 'body') return Buffer.from(value as string, 'utf8');
  return Buffer.from(JSON.stringify(field === 'frontMatter' ? tagDates(value) : value), 'utf8');
}

/** Where a lazy field's bytes are in the snapshot file: offset and length. */
type Span = readonly [at: number, length: number];

/** Bytes of a snapshot as read: the open file, or (a buffer decoded directly) the buffer itself. */
interface Bytes {
  read(span: Span): Buffer;
}

/**
 * The snapshot file the documents read from it take their lazy fields from, kept open: the cache
 * replaces the file by rename when it writes, so these bytes stay the ones that were checked. The
 * descriptor is closed once nothing can read it (no document, entry or getter refers to this).
 */
class SnapshotBytes implements Bytes {
  private static readonly closer = new FinalizationRegistry<number>((fd) => {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  });

  constructor(private readonly fd: number) {
    SnapshotBytes.closer.register(this, fd);
  }

  read([at, length]: Span): Buffer {
    const buf = Buffer.allocUnsafe(length);
    for (let done = 0; done < length; ) {
      const n = readSync(this.fd, buf, done, length - done, at + done);
      if (n === 0) throw new Error(`the parsed-skill snapshot ends before byte ${at + length}`);
      done += n;
    }
    return buf;
  }
}

/** A buffer's own bytes (a snapshot decoded from a buffer, not read from its file). */
class BufferBytes implements Bytes {
  constructor(private readonly buf: Buffer) {}
  read([at, length]: Span): Buffer {
    return this.buf.subarray(at, at + length);
  }
}

/**
 * Makes `doc[field]` the value of the bytes `read` gives, read and decoded when first read (and
 * handed to `decoded`); the property keeps its place among the keys, so spreads and JSON see the
 * same document. The body is read and decoded on each read and not kept: passes over the whole
 * library (the pair scan's texts, the reranker's fields of every skill it meets) read every
 * body, and keeping them held most of the library's text in the language server's heap.
 */
function lazyField(doc: SkillDoc, field: LazyField, read: () => Buffer, decoded: (value: unknown) => void): void {
  const settle = (value: unknown) => Object.defineProperty(doc, field, { value, writable: true, enumerable: true, configurable: true });
  const get = () => {
    const value = decodeField(field, read());
    if (field === 'body') return value;
    settle(value);
    decoded(value);
    return value;
  };
  Object.defineProperty(doc, field, {
    enumerable: true,
    configurable: true,
    get,
    set(value: unknown) {
      settle(value);
    },
  });
}

/**
 * An entry as read from the file: its line's document (lazy fields as byte lengths), where each
 * lazy field's bytes are in the file until one of the documents given out decodes it (the body
 * never: see `lazyField`), then that value.
 */
interface Stored {
  head: Record<string, unknown>;
  src: Bytes;
  spans: Partial<Record<LazyField, Span>>;
  values: Partial<Record<LazyField, unknown>>;
}

/** The entry's JSON line: the document with the byte length of each lazy field in its place. */
function entryLine(key: string, doc: SkillDoc, lengths: Record<LazyField, number>): Buffer {
  const stored: Record<string, unknown> = {};
  for (const k of Object.keys(doc) as (keyof SkillDoc)[]) stored[k] = k in lengths ? lengths[k as LazyField] : doc[k];
  return Buffer.from(`${JSON.stringify([key, stored])}\n`, 'utf8');
}

/** A stored document: each lazy field holds the length of its bytes after the line. */
function isStoredDoc(d: unknown): d is Omit<SkillDoc, LazyField> & Record<LazyField, number> {
  const x = d as Omit<SkillDoc, LazyField> & Record<LazyField, number>;
  return (
    !!x &&
    typeof x === 'object' &&
    typeof x.id === 'string' &&
    typeof x.path === 'string' &&
    typeof x.name === 'string' &&
    typeof x.description === 'string' &&
    typeof x.hash === 'string' &&
    (x.lang === 'en' || x.lang === 'zh') &&
    Number.isSafeInteger(x.bodyStartLine) &&
    LAZY.every((f) => Number.isSafeInteger(x[f]) && x[f] >= 0)
  );
}

export class FileParseCache extends KeyedCacheFile<SkillDoc | Stored> implements ParseCache {
  private constructor(file: string, log: Logger) {
    super(file, 'parsed-skill snapshot', log);
  }

  /** The open file each buffer `readBytes` gave was read from, for `decode`. */
  private readonly sources = new WeakMap<Buffer, Bytes>();

  /** Opens (or starts) the snapshot in `dir`. A corrupt file is reported and replaced. */
  static async open(dir: string, logger: Logger = SILENT_LOGGER): Promise<FileParseCache> {
    const cache = new FileParseCache(path.join(dir, PARSE_FILE), logger);
    await cache.load();
    return cache;
  }

  /**
   * A document of the caller's own (a new object each call): one read from the file decodes its
   * lazy fields when first read; one set in this process comes with its own findings list.
   */
  override get(key: string): SkillDoc | undefined {
    const v = super.get(key);
    if (!v) return undefined;
    if (!('head' in v && 'spans' in v)) return { ...(v as SkillDoc), findings: [...(v as SkillDoc).findings] };
    const doc = { ...v.head } as unknown as SkillDoc;
    const own = (field: LazyField, value: unknown) => (field === 'findings' ? [...(value as unknown[])] : value);
    for (const field of LAZY) {
      const span = v.spans[field];
      if (!span) (doc as unknown as Record<string, unknown>)[field] = own(field, v.values[field]);
      else
        lazyField(
          doc,
          field,
          () => v.src.read(span),
          (value) => {
            v.values[field] = own(field, value);
            delete v.spans[field];
          },
        );
    }
    return doc;
  }

  /** The file's bytes, read through a descriptor kept open for the lazy fields (see `SnapshotBytes`). */
  protected override async readBytes(): Promise<Buffer> {
    const fd = openSync(this.file, 'r');
    try {
      const buf = await new Promise<Buffer>((resolve, reject) => readFile(fd, (err, b) => (err ? reject(err) : resolve(b))));
      this.sources.set(buf, new SnapshotBytes(fd));
      return buf;
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /**
   * The entries as a reopen reads them: fields in the file, not in memory. A write leaves the
   * entries it wrote so (see `writeTo`); others are read back from the file.
   */
  async compact(): Promise<void> {
    for (const v of this.map.values()) if (!('head' in v && 'spans' in v)) return this.reread();
  }

  override set(key: string, doc: SkillDoc): void {
    // What JSON would change is not stored: reading it back must give the same document.
    if (faithfulDoc(doc)) super.set(key, doc);
    else this.forget(key);
  }

  protected decode(buf: Buffer): [string, Stored][] {
    if (buf.length < MAGIC.length || buf.toString('latin1', 0, MAGIC.length) !== MAGIC) throw new Error('bad magic');
    const eol = buf.indexOf(10, MAGIC.length);
    if (eol < 0) throw new Error('truncated header');
    let header: { version?: unknown; crc32?: unknown; sha1?: unknown };
    try {
      header = JSON.parse(buf.toString('utf8', MAGIC.length, eol));
    } catch {
      throw new Error('header is not JSON'); // the parser's message would quote the damaged bytes
    }
    if (header?.version !== VERSION) throw new StaleCacheFile('has another layout; rebuilding it');
    const body = buf.subarray(eol + 1);
    Checksum.check(header, body);
    const src = this.sources.get(buf) ?? new BufferBytes(buf);
    // One entry a line (JSON escapes newlines in strings), then its body's bytes: no string of the
    // whole file is made, and no body is decoded here.
    const entries: [string, Stored][] = [];
    for (let at = 0; at < body.length; ) {
      const end = body.indexOf(10, at);
      if (end < 0) throw new Error('truncated entry');
      let e: unknown;
      try {
        e = JSON.parse(body.toString('utf8', at, end));
      } catch {
        throw new Error('data is not JSON');
      }
      if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string' || !isStoredDoc(e[1])) throw new Error('bad entry');
      const head = e[1];
      const spans = {} as Record<LazyField, Span>;
      let from = end + 1;
      for (const field of LAZY) {
        const to = from + head[field];
        if (to >= body.length) throw new Error('data shorter than its entry says');
        spans[field] = [eol + 1 + from, head[field]];
        from = to;
      }
      if (body[from] !== 10) throw new Error('data longer than its entry says');
      entries.push([e[0], { head, src, spans, values: {} }]);
      at = from + 1;
    }
    return entries;
  }

  /** Every entry's bytes are written by `writeTo`, a batch at a time; `encode` is not used. */
  protected encode(): Buffer[] {
    throw new Error('the parsed-skill snapshot is written by writeTo');
  }

  /**
   * Writes the entries a batch at a time (a line and the lazy fields' bytes per skill, those of
   * entries read from the file read from it), under a header written last: a fixed-width line whose
   * checksum covers what follows. Holding every body's bytes until one write held the library's
   * text a second time at the end of a cold index (~200 MB at 20,000 skills). Once the file is in
   * place, the entries written are kept as entries of it (their fields read from it when read), as
   * a reopen would read them, without reading the file back.
   */
  protected override async writeTo(out: FileHandle, tmp: string): Promise<() => void> {
    const sum = new Checksum();
    const written = new Map<string, { value: SkillDoc | Stored; head: Record<string, unknown>; spans: Record<LazyField, Span> }>();
    let at = HEADER_BYTES;
    let batch: Buffer[] = [];
    let batchBytes = 0;
    const flushBatch = async () => {
      const { bytesWritten } = await out.writev(batch, at - batchBytes);
      if (bytesWritten !== batchBytes) throw new Error(`wrote ${bytesWritten} of ${batchBytes} bytes`);
      batch = [];
      batchBytes = 0;
    };
    // The entries as they are now: one set while a batch is written is left for the next flush.
    for (const [key, v] of [...this.map]) {
      const stored = 'head' in v && 'spans' in v;
      const fields = LAZY.map((f) => (stored ? (v.spans[f] ? v.src.read(v.spans[f]) : encodeField(f, v.values[f])) : encodeField(f, (v as SkillDoc)[f])));
      const lengths = Object.fromEntries(LAZY.map((f, i) => [f, fields[i].length])) as Record<LazyField, number>;
      const line = stored ? Buffer.from(`${JSON.stringify([key, { ...v.head, ...lengths }])}\n`, 'utf8') : entryLine(key, v as SkillDoc, lengths);
      const head = (JSON.parse(line.toString('utf8')) as [string, Record<string, unknown>])[1];
      let from = at + line.length;
      const spans = {} as Record<LazyField, Span>;
      LAZY.forEach((f, i) => {
        spans[f] = [from, fields[i].length];
        from += fields[i].length;
      });
      written.set(key, { value: v, head, spans });
      for (const c of [line, ...fields, NEWLINE]) {
        sum.update(c);
        batch.push(c);
        batchBytes += c.length;
        at += c.length;
      }
      if (batchBytes >= BATCH_BYTES) await flushBatch();
    }
    if (batchBytes) await flushBatch();
    const json = JSON.stringify({ version: VERSION, ...sum.digest() });
    const header = Buffer.from(`${MAGIC}${json.padEnd(HEADER_BYTES - MAGIC.length - 1)}\n`, 'utf8');
    if (header.length !== HEADER_BYTES) throw new Error('the snapshot header does not fit its line');
    await out.write(header, 0, header.length, 0);
    // Opened before the rename: the descriptor is of this file, whatever replaces it later.
    const src = new SnapshotBytes(openSync(tmp, 'r'));
    return () => {
      for (const [key, w] of written) {
        if (this.map.get(key) === w.value) this.map.set(key, { head: w.head, src, spans: w.spans, values: {} });
      }
    };
  }
}
