/**
 * Parsed skills of a library, keyed by file stamp (see `ParseCache`), in one file so a reopen
 * neither reads nor parses unchanged SKILL.md files: "SRPS1\n", a JSON header line
 * {version, crc32 or sha1} whose checksum covers the rest, then per skill one JSON `[key, SkillDoc]` line
 * whose `body` is the body's UTF-8 length, then the body's bytes and a newline. Bodies are most
 * of the file (26 of 31 MB at 2,800 skills) and a warm `route` reads few of them, so each is
 * decoded when first read (see `lazyBody`). Only documents that survive the file unchanged are
 * stored (YAML timestamps in front matter are written as tagged strings and revived). Anything
 * unreadable, inconsistent or damaged is reported and rebuilt.
 */
import * as path from 'node:path';
import type { ParseCache } from '../core/index/caches';
import type { SkillDoc } from '../core/types';
import type { Logger } from '../core/types';
import { SILENT_LOGGER } from '../core/types';
import { Checksum, KeyedCacheFile, StaleCacheFile } from './cacheFile';

const MAGIC = 'SRPS1\n';
// 3: findings reworded (YAML mistakes explained, one finding per name problem); older files hold the old wording.
// 4: bodies as raw bytes after their entry's line.
const VERSION = 4;
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

/** The bytes of bodies not read since they were decoded from the file (written back as they are). */
const unread = new WeakMap<object, Buffer>();

/**
 * Makes `doc.body` the text of `bytes`, decoded when first read (by the doc or a copy of its
 * property descriptors); the property keeps its place among the keys, so spreads and JSON see
 * the same document.
 */
function lazyBody(doc: SkillDoc, bytes: Buffer): void {
  const settle = (target: object, text: string) => {
    unread.delete(target);
    Object.defineProperty(target, 'body', { value: text, writable: true, enumerable: true, configurable: true });
  };
  Object.defineProperty(doc, 'body', {
    enumerable: true,
    configurable: true,
    get(this: object) {
      const text = bytes.toString('utf8');
      settle(this, text);
      return text;
    },
    set(this: object, text: string) {
      settle(this, text);
    },
  });
  unread.set(doc, bytes);
}

/** The entry's JSON line: the document with its body's byte length in place of the body, dates tagged. */
function entryLine(key: string, doc: SkillDoc, bodyBytes: number): Buffer {
  const stored: Record<string, unknown> = {};
  for (const k of Object.keys(doc) as (keyof SkillDoc)[]) stored[k] = k === 'body' ? bodyBytes : k === 'frontMatter' ? tagDates(doc.frontMatter) : doc[k];
  return Buffer.from(`${JSON.stringify([key, stored])}\n`, 'utf8');
}

/** A stored document: `body` holds the length of the bytes that follow its line. */
function isStoredDoc(d: unknown): d is Omit<SkillDoc, 'body'> & { body: number } {
  const x = d as Omit<SkillDoc, 'body'> & { body: number };
  return (
    !!x &&
    typeof x === 'object' &&
    typeof x.id === 'string' &&
    typeof x.path === 'string' &&
    typeof x.name === 'string' &&
    typeof x.description === 'string' &&
    Number.isSafeInteger(x.body) &&
    typeof x.hash === 'string' &&
    (x.lang === 'en' || x.lang === 'zh') &&
    Number.isSafeInteger(x.bodyStartLine) &&
    !!x.frontMatter &&
    typeof x.frontMatter === 'object' &&
    !!x.keyRanges &&
    typeof x.keyRanges === 'object' &&
    Array.isArray(x.findings)
  );
}

export class FileParseCache extends KeyedCacheFile<SkillDoc> implements ParseCache {
  private constructor(file: string, log: Logger) {
    super(file, 'parsed-skill snapshot', log);
  }

  /** Opens (or starts) the snapshot in `dir`. A corrupt file is reported and replaced. */
  static async open(dir: string, logger: Logger = SILENT_LOGGER): Promise<FileParseCache> {
    const cache = new FileParseCache(path.join(dir, PARSE_FILE), logger);
    await cache.load();
    return cache;
  }

  override set(key: string, doc: SkillDoc): void {
    // What JSON would change is not stored: reading it back must give the same document.
    if (faithfulDoc(doc)) super.set(key, doc);
    else this.forget(key);
  }

  protected decode(buf: Buffer): [string, SkillDoc][] {
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
    const entries: [string, SkillDoc][] = [];
    for (let at = 0; at < body.length; ) {
      const end = body.indexOf(10, at);
      if (end < 0) throw new Error('truncated entry');
      let e: unknown;
      try {
        e = JSON.parse(body.toString('utf8', at, end));
      } catch {
        throw new Error('data is not JSON');
      }
      if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string' || !isStoredDoc(e[1]) || e[1].body < 0) throw new Error('bad entry');
      const from = end + 1;
      const to = from + e[1].body;
      if (to >= body.length || body[to] !== 10) throw new Error('body shorter than its entry says');
      const doc = e[1] as unknown as SkillDoc;
      doc.frontMatter = revive(doc.frontMatter) as Record<string, unknown>;
      doc.keyRanges = Object.assign(Object.create(null) as Record<string, never>, doc.keyRanges);
      lazyBody(doc, body.subarray(from, to));
      entries.push([e[0], doc]);
      at = to + 1;
    }
    return entries;
  }

  protected encode(): Buffer[] {
    // Two chunks per skill, unread bodies as the bytes they were read from. Joining the lines into
    // one string, then one buffer, then a framed copy held the file about four times over.
    const sum = new Checksum();
    const chunks: Buffer[] = [];
    for (const [key, doc] of this.map) {
      const bytes = unread.get(doc) ?? Buffer.from(`${doc.body}`, 'utf8');
      const line = entryLine(key, doc, bytes.length);
      for (const c of [line, bytes, NEWLINE]) {
        sum.update(c);
        chunks.push(c);
      }
    }
    return [Buffer.from(`${MAGIC}${JSON.stringify({ version: VERSION, ...sum.digest() })}\n`, 'utf8'), ...chunks];
  }
}
