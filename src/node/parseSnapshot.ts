/**
 * Parsed skills of a library, keyed by file stamp (see `ParseCache`), in one file so a reopen
 * neither reads nor parses unchanged SKILL.md files: "SRPS1\n", a JSON header line
 * {version, sha1} where `sha1` covers the rest, then one JSON `[key, SkillDoc]` a line.
 * Only documents that survive JSON unchanged are stored (YAML timestamps in front matter are
 * written as tagged strings and revived). Anything unreadable, inconsistent or damaged is
 * reported and rebuilt.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { ParseCache } from '../core/index/caches';
import type { SkillDoc } from '../core/types';
import type { Logger } from '../core/types';
import { SILENT_LOGGER } from '../core/types';
import { KeyedCacheFile, StaleCacheFile } from './cacheFile';

const MAGIC = 'SRPS1\n';
// 3: findings reworded (YAML mistakes explained, one finding per name problem); older files hold the old wording.
const VERSION = 3;
export const PARSE_FILE = 'parsed.json';

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

/** `keyRanges` is made without a prototype (keys come from the file); it is stored as a plain object. */
function faithfulDoc(doc: SkillDoc): boolean {
  return Object.getPrototypeOf(doc.keyRanges) === null && jsonFaithful({ ...doc, keyRanges: { ...doc.keyRanges } });
}

function isDoc(d: unknown): d is SkillDoc {
  const x = d as SkillDoc;
  return (
    !!x &&
    typeof x === 'object' &&
    typeof x.id === 'string' &&
    typeof x.path === 'string' &&
    typeof x.name === 'string' &&
    typeof x.description === 'string' &&
    typeof x.body === 'string' &&
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
    let header: { version?: unknown; sha1?: unknown };
    try {
      header = JSON.parse(buf.toString('utf8', MAGIC.length, eol));
    } catch {
      throw new Error('header is not JSON'); // the parser's message would quote the damaged bytes
    }
    if (header?.version !== VERSION) throw new StaleCacheFile('has another layout; rebuilding it');
    const body = buf.subarray(eol + 1);
    if (createHash('sha1').update(body).digest('hex') !== header.sha1) throw new Error('checksum mismatch');
    // One entry a line (JSON escapes newlines in strings): no string of the whole file is made.
    const entries: [string, SkillDoc][] = [];
    for (let at = 0; at < body.length; ) {
      let end = body.indexOf(10, at);
      if (end < 0) end = body.length;
      let e: unknown;
      try {
        e = JSON.parse(body.toString('utf8', at, end));
      } catch {
        throw new Error('data is not JSON');
      }
      if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string' || !isDoc(e[1])) throw new Error('bad entry');
      entries.push(e as [string, SkillDoc]);
      at = end + 1;
    }
    for (const [, doc] of entries) {
      doc.frontMatter = revive(doc.frontMatter) as Record<string, unknown>;
      doc.keyRanges = Object.assign(Object.create(null) as Record<string, never>, doc.keyRanges);
    }
    return entries;
  }

  protected encode(): Buffer[] {
    // One chunk per skill. Joining the lines into one string, then one buffer, then a framed copy
    // held the file (31 MB at 2,817 skills) about four times over.
    const hash = createHash('sha1');
    const lines: Buffer[] = [];
    for (const [key, doc] of this.map) {
      const line = Buffer.from(`${lines.length ? '\n' : ''}${JSON.stringify([key, { ...doc, frontMatter: tagDates(doc.frontMatter) }])}`, 'utf8');
      hash.update(line);
      lines.push(line);
    }
    return [Buffer.from(`${MAGIC}${JSON.stringify({ version: VERSION, sha1: hash.digest('hex') })}\n`, 'utf8'), ...lines];
  }
}
