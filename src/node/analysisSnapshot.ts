/**
 * Lexical analyses of a library's skills, keyed by content (see `AnalysisCache`), in one binary
 * file so a reopen skips parsing Markdown, segmenting, bridging and stemming unchanged skills:
 * "SRAN1\n", a uint32 header length, a JSON header {version, fields, terms, entries, sha1}
 * padded so the data starts on a 4-byte boundary, then little-endian uint32 data, per entry:
 * `fields` field lengths, n term ids, n × `fields` term frequencies, m feedback term ids, then
 * l profile-text term ids (l is -1, no list, for analyses made without one).
 * `terms` is the term table the ids point into; `sha1` covers the data. Anything unreadable,
 * inconsistent or damaged is reported and rebuilt.
 */
import { createHash } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { FIELDS, type TermCounts } from '../core/index/lexicalIndex';
import type { AnalysisCache, SkillAnalysis } from '../core/index/caches';
import type { Logger } from '../core/types';
import { SILENT_LOGGER } from '../core/types';
import { KeyedCacheFile, readFrame, StaleCacheFile, writeFrame } from './cacheFile';

const MAGIC = Buffer.from('SRAN1\n');
const VERSION = 2;
export const ANALYSIS_FILE = 'analysis.bin';

interface Header {
  version: number;
  fields: number;
  terms: string[];
  /** [content key, distinct terms, feedback terms, profile-text terms or -1] */
  entries: [string, number, number, number][];
  sha1: string;
}

/** Counts read from the snapshot: term ids into its table; the strings only when asked for. */
class SnapshotCounts implements TermCounts {
  private words: string[] | undefined;
  constructor(
    readonly lengths: number[],
    readonly ids: Uint32Array,
    readonly tf: Uint8Array | Uint32Array,
    readonly table: readonly string[],
  ) {}

  get terms(): string[] {
    this.words ??= Array.from(this.ids, (id) => this.table[id]);
    return this.words;
  }
}

export class FileAnalysisCache extends KeyedCacheFile<SkillAnalysis> implements AnalysisCache {
  private constructor(file: string, log: Logger) {
    super(file, 'analysis snapshot', log);
  }

  /** Opens (or starts) the snapshot in `dir`. A corrupt file is reported and replaced. */
  static async open(dir: string, logger: Logger = SILENT_LOGGER): Promise<FileAnalysisCache> {
    const cache = new FileAnalysisCache(path.join(dir, ANALYSIS_FILE), logger);
    await cache.load();
    return cache;
  }

  protected decode(buf: Buffer): [string, SkillAnalysis][] {
    // The data is read in place as uint32; a big-endian host rebuilds instead of swapping.
    if (os.endianness() !== 'LE') throw new StaleCacheFile('is read on little-endian hosts only; rebuilding it');
    const { header: h, data: bytes, dataStart } = readFrame(buf, MAGIC);
    const header = h as Header;
    if (header?.version !== VERSION || header.fields !== FIELDS.length) throw new StaleCacheFile('has another layout; rebuilding it');
    const { terms, entries } = header;
    const isEntry = (e: unknown) =>
      Array.isArray(e) &&
      typeof e[0] === 'string' &&
      [e[1], e[2], e[3]].every((x) => Number.isSafeInteger(x) && x >= -1) &&
      e[1] >= 0 &&
      e[2] >= 0;
    if (!Array.isArray(terms) || !terms.every((t) => typeof t === 'string') || !Array.isArray(entries) || !entries.every(isEntry)) {
      throw new Error('bad header');
    }
    if (dataStart % 4 !== 0 || (buf.length - dataStart) % 4 !== 0) throw new Error('misaligned data');
    if (createHash('sha1').update(bytes).digest('hex') !== header.sha1) throw new Error('checksum mismatch');
    // Uint32 views need an aligned offset; a pooled or sliced buffer gets one copy.
    const data =
      bytes.byteOffset % 4 === 0
        ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)
        : new Uint32Array(new Uint8Array(bytes).buffer);
    const F = FIELDS.length;
    const word = (id: number) => {
      if (id >= terms.length) throw new Error('term id out of range');
      return terms[id];
    };
    // The counts are copied out of the file's bytes, which are then let go: term ids into one
    // block, frequencies (nearly all under 256, mostly zero) into a one-byte block. The four-byte
    // layout on disk would keep three times the memory for as long as the library is open.
    let pairs = 0;
    for (const [, n] of entries) pairs += n;
    const idBlock = new Uint32Array(pairs);
    const tfBlock = new Uint8Array(pairs * F);
    let atId = 0;
    let at = 0;
    const decoded: [string, SkillAnalysis][] = [];
    for (const [key, n, m, l] of entries) {
      const size = F + n + n * F + m + Math.max(l, 0);
      if (at + size > data.length) throw new Error('data shorter than the header says');
      const lengths = Array.from(data.subarray(at, at + F));
      at += F;
      const ids = idBlock.subarray(atId, atId + n);
      ids.set(data.subarray(at, at + n));
      for (let i = 0; i < n; i++) if (ids[i] >= terms.length) throw new Error('term id out of range');
      at += n;
      const wide = data.subarray(at, at + n * F);
      let tf: Uint8Array | Uint32Array = tfBlock.subarray(atId * F, (atId + n) * F);
      // Copied into the one-byte block in the same pass that looks for a count over 255.
      for (let i = 0; i < wide.length; i++) {
        if (wide[i] > 255) {
          tf = wide.slice();
          break;
        }
        tf[i] = wide[i];
      }
      atId += n;
      at += n * F;
      const feedback = new Array<string>(m);
      for (let i = 0; i < m; i++) feedback[i] = word(data[at + i]);
      at += m;
      const analysis: SkillAnalysis = { counts: new SnapshotCounts(lengths, ids, tf, terms), feedback };
      if (l >= 0) {
        analysis.profile = new Array<string>(l);
        for (let i = 0; i < l; i++) analysis.profile[i] = word(data[at + i]);
        at += l;
      }
      decoded.push([key, analysis]);
    }
    if (at !== data.length) throw new Error('data longer than the header says');
    return decoded;
  }

  protected encode(): Buffer[] {
    const F = FIELDS.length;
    const ids = new Map<string, number>();
    const terms: string[] = [];
    const id = (t: string) => {
      let i = ids.get(t);
      if (i === undefined) {
        ids.set(t, (i = terms.length));
        terms.push(t);
      }
      return i;
    };
    let words = 0;
    for (const { counts, feedback, profile } of this.map.values()) words += F + counts.terms.length * (1 + F) + feedback.length + (profile?.length ?? 0);
    const data = new Uint32Array(words);
    const entries: [string, number, number, number][] = [];
    let at = 0;
    for (const [key, { counts, feedback, profile }] of this.map) {
      const n = counts.terms.length;
      entries.push([key, n, feedback.length, profile ? profile.length : -1]);
      for (let f = 0; f < F; f++) data[at++] = counts.lengths[f] ?? 0;
      for (const t of counts.terms) data[at++] = id(t);
      for (let i = 0; i < n * F; i++) data[at++] = counts.tf[i];
      for (const t of feedback) data[at++] = id(t);
      for (const t of profile ?? []) data[at++] = id(t);
    }
    const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const sha1 = createHash('sha1').update(bytes).digest('hex');
    // The JSON is padded with spaces so the data starts on a 4-byte boundary.
    return writeFrame(MAGIC, { version: VERSION, fields: F, terms, entries, sha1 } satisfies Header, bytes, 4);
  }
}
