/**
 * Reference keys of a library's skill bodies, keyed by skill content (see `ReferenceCache`), in
 * one file so a reopen does not scan every body for the names it could cite (~0.1 s and most of
 * the bodies' decoding at 2,800 skills): "SRRF1\n", a JSON header line {version, sha1} where
 * `sha1` covers the rest, then one JSON array of `[key, keys]`. Anything unreadable,
 * inconsistent or damaged is reported and rebuilt.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { ReferenceCache } from '../core/index/caches';
import type { Logger } from '../core/types';
import { SILENT_LOGGER } from '../core/types';
import { KeyedCacheFile, StaleCacheFile } from './cacheFile';

const MAGIC = 'SRRF1\n';
const VERSION = 1;
export const REFERENCE_FILE = 'references.json';

const isEntry = (e: unknown): e is [string, string[]] =>
  Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && Array.isArray(e[1]) && e[1].every((k) => typeof k === 'string');

export class FileReferenceCache extends KeyedCacheFile<readonly string[]> implements ReferenceCache {
  private constructor(file: string, log: Logger) {
    super(file, 'reference-key cache', log);
  }

  /** Opens (or starts) the cache in `dir`. A corrupt file is reported and replaced. */
  static async open(dir: string, logger: Logger = SILENT_LOGGER): Promise<FileReferenceCache> {
    const cache = new FileReferenceCache(path.join(dir, REFERENCE_FILE), logger);
    await cache.load();
    return cache;
  }

  protected decode(buf: Buffer): [string, readonly string[]][] {
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
    let entries: unknown;
    try {
      entries = JSON.parse(body.toString('utf8'));
    } catch {
      throw new Error('data is not JSON');
    }
    if (!Array.isArray(entries) || !entries.every(isEntry)) throw new Error('bad entry');
    return entries;
  }

  protected encode(): Buffer[] {
    const body = Buffer.from(JSON.stringify([...this.map]), 'utf8');
    const sha1 = createHash('sha1').update(body).digest('hex');
    return [Buffer.from(`${MAGIC}${JSON.stringify({ version: VERSION, sha1 })}\n`, 'utf8'), body];
  }
}
