/**
 * Parsed skills of a library, keyed by file stamp (see `ParseCache`), in one file so a reopen
 * neither reads nor parses unchanged SKILL.md files: "SRPS1\n", a JSON header line
 * {version, crc32 or sha1} whose checksum covers the rest, then per skill one JSON
 * `[key, SkillDoc]` line in which the `LAZY` fields hold their byte lengths, then those fields'
 * bytes (the body as UTF-8, the others as JSON) and a newline. They are most of the file (30 of
 * 31 MB at 2,800 skills) and a warm `route` reads few of them, so each is decoded when first read
 * (see `lazyField`). Only documents that survive the file unchanged are stored (YAML timestamps
 * in front matter are written as tagged strings and revived). Anything unreadable, inconsistent
 * or damaged is reported and rebuilt.
 */
import * as path from 'node:path';
import type { ParseCache } from '../core/index/caches';
import type { SkillDoc } from '../core/types';
import type { Logger } from '../core/types';
import { PEEK, SILENT_LOGGER } from '../core/types';
import { Checksum, KeyedCacheFile, StaleCacheFile } from './cacheFile';

const MAGIC = 'SRPS1\n';
// 3: findings reworded (YAML mistakes explained, one finding per name problem); older files hold the old wording.
// 4: bodies as bytes after their entry's line. 5: front matter, key ranges and findings too.
const VERSION = 5;
export const PARSE_FILE = 'parsed.json';
const NEWLINE = Buffer.from('\n');

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

/**
 * Makes `doc[field]` the value of `bytes`, decoded when first read (and handed to `decoded`); the
 * property keeps its place among the keys, so spreads and JSON see the same document.
 */
function lazyField(doc: SkillDoc, field: LazyField, bytes: Buffer, decoded: (value: unknown) => void): void {
  const settle = (value: unknown) => Object.defineProperty(doc, field, { value, writable: true, enumerable: true, configurable: true });
  const get = () => {
    const value = decodeField(field, bytes);
    settle(value);
    decoded(value);
    return value;
  };
  // `peekBody` (core/types.ts) decodes without settling.
  Object.defineProperty(get, PEEK, { value: () => decodeField(field, bytes) });
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
 * An entry as read from the file: its line's document (lazy fields as byte lengths), and each lazy
 * field as its bytes until one of the documents given out decodes it, then as that value (the
 * file's buffer is let go once every field of every entry is decoded: the language server reads
 * most of them, and would otherwise hold each body twice).
 */
interface Stored {
  head: Record<string, unknown>;
  bytes: Partial<Record<LazyField, Buffer>>;
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
    if (!('head' in v && 'bytes' in v)) return { ...(v as SkillDoc), findings: [...(v as SkillDoc).findings] };
    const doc = { ...v.head } as unknown as SkillDoc;
    const own = (field: LazyField, value: unknown) => (field === 'findings' ? [...(value as unknown[])] : value);
    for (const field of LAZY) {
      const bytes = v.bytes[field];
      if (!bytes) (doc as unknown as Record<string, unknown>)[field] = own(field, v.values[field]);
      else
        lazyField(doc, field, bytes, (value) => {
          v.values[field] = own(field, value);
          delete v.bytes[field];
        });
    }
    return doc;
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
      const bytes = {} as Record<LazyField, Buffer>;
      let from = end + 1;
      for (const field of LAZY) {
        const to = from + head[field];
        if (to >= body.length) throw new Error('data shorter than its entry says');
        bytes[field] = body.subarray(from, to);
        from = to;
      }
      if (body[from] !== 10) throw new Error('data longer than its entry says');
      entries.push([e[0], { head, bytes, values: {} }]);
      at = from + 1;
    }
    return entries;
  }

  protected encode(): Buffer[] {
    // A line and the lazy fields' bytes per skill, those read from the file as they were. Joining the
    // lines into one string, then one buffer, then a framed copy held the file four times over.
    const sum = new Checksum();
    const chunks: Buffer[] = [];
    for (const [key, v] of this.map) {
      let line: Buffer;
      let fields: Buffer[];
      if ('head' in v && 'bytes' in v) {
        line = Buffer.from(`${JSON.stringify([key, v.head])}\n`, 'utf8');
        fields = LAZY.map((f) => v.bytes[f] ?? encodeField(f, v.values[f]));
      } else {
        const doc = v as SkillDoc;
        fields = LAZY.map((f) => encodeField(f, doc[f]));
        line = entryLine(key, doc, Object.fromEntries(LAZY.map((f, i) => [f, fields[i].length])) as Record<LazyField, number>);
      }
      for (const c of [line, ...fields, NEWLINE]) {
        sum.update(c);
        chunks.push(c);
      }
    }
    return [Buffer.from(`${MAGIC}${JSON.stringify({ version: VERSION, ...sum.digest() })}\n`, 'utf8'), ...chunks];
  }
}
