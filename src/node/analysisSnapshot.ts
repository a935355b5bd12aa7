/**
 * Lexical analyses of a library's skills, keyed by content (see `AnalysisCache`), in one binary
 * file so a reopen skips parsing Markdown, segmenting, bridging and stemming unchanged skills:
 * "SRAN1\n", a uint32 header length, a JSON header {version, fields, terms, entries, crc32 or
 * sha1} padded so the data starts on a 4-byte boundary, then little-endian uint32 data, per entry:
 * `fields` field lengths, n term ids, m feedback term ids, l profile-text term ids (l is -1, no
 * list, for analyses made without one), and for an entry with a count over 255 its n × `fields`
 * term frequencies; then one byte per term frequency of every other entry (n × `fields` each, in
 * entry order; zeros for the wide ones). Frequencies are nearly all under 256, mostly zero: as
 * bytes the file is a third of its uint32 size and is copied out in one block.
 * `terms` is the term table the ids point into; the checksum covers the data. Anything
 * unreadable, inconsistent or damaged is reported and rebuilt.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { FIELDS } from '../core/index/lexicalIndex';
import { TableCounts, termAt, termCount } from '../core/index/termTable';
import type { AnalysisCache, SkillAnalysis } from '../core/index/caches';
import type { Logger } from '../core/types';
import { SILENT_LOGGER } from '../core/types';
import { Checksum, KeyedCacheFile, readFrame, StaleCacheFile, writeFrame, type DataChecksum } from './cacheFile';
import { SLICE_MS, yieldToLoop } from '../core/jobs/timeSliced';

const MAGIC = Buffer.from('SRAN1\n');
// 3: frequencies as bytes after the uint32 data, checked by CRC-32 where zlib has it.
const VERSION = 3;
export const ANALYSIS_FILE = 'analysis.bin';

type Header = {
  version: number;
  fields: number;
  terms: string[];
  /** [content key, distinct terms, feedback terms, profile-text terms or -1, 1 when its frequencies are uint32] */
  entries: [string, number, number, number, number][];
} & DataChecksum;

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

  /** The entries as the snapshot holds them (term ids over one table: ~a third of fresh analyses' memory). */
  compact(): Promise<void> {
    return this.reread();
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
      e.length === 5 &&
      typeof e[0] === 'string' &&
      [e[1], e[2], e[3]].every((x) => Number.isSafeInteger(x) && x >= -1) &&
      e[1] >= 0 &&
      e[2] >= 0 &&
      (e[4] === 0 || e[4] === 1);
    if (!Array.isArray(terms) || !terms.every((t) => typeof t === 'string') || !Array.isArray(entries) || !entries.every(isEntry)) {
      throw new Error('bad header');
    }
    const F = FIELDS.length;
    let words = 0;
    let pairs = 0;
    for (const [, n, m, l, wide] of entries) {
      words += F + n + m + Math.max(l, 0) + wide * n * F;
      pairs += n;
    }
    if (dataStart % 4 !== 0) throw new Error('misaligned data');
    if (bytes.length !== words * 4 + pairs * F) throw new Error(`data ${bytes.length < words * 4 + pairs * F ? 'shorter' : 'longer'} than the header says`);
    Checksum.check(header, bytes);
    // Uint32 views need an aligned offset; a pooled or sliced buffer gets one copy.
    const data =
      bytes.byteOffset % 4 === 0
        ? new Uint32Array(bytes.buffer, bytes.byteOffset, words)
        : new Uint32Array(new Uint8Array(bytes.subarray(0, words * 4)).buffer);
    const word = (id: number) => {
      if (id >= terms.length) throw new Error('term id out of range');
      return terms[id];
    };
    // The counts are copied out of the file's bytes, which are then let go: term ids into one
    // block, the byte frequencies into another (one copy of the file's tail).
    const idBlock = new Uint32Array(pairs);
    const tfBlock = new Uint8Array(pairs * F);
    tfBlock.set(bytes.subarray(words * 4));
    let atId = 0;
    let at = 0;
    const decoded: [string, SkillAnalysis][] = [];
    for (const [key, n, m, l, wide] of entries) {
      const lengths = Array.from(data.subarray(at, at + F));
      at += F;
      const ids = idBlock.subarray(atId, atId + n);
      ids.set(data.subarray(at, at + n));
      for (let i = 0; i < n; i++) if (ids[i] >= terms.length) throw new Error('term id out of range');
      at += n;
      const feedback = new Array<string>(m);
      for (let i = 0; i < m; i++) feedback[i] = word(data[at + i]);
      at += m;
      let profile: string[] | undefined;
      if (l >= 0) {
        profile = new Array<string>(l);
        for (let i = 0; i < l; i++) profile[i] = word(data[at + i]);
        at += l;
      }
      let tf: Uint8Array | Uint32Array = tfBlock.subarray(atId * F, (atId + n) * F);
      if (wide) {
        tf = data.slice(at, at + n * F);
        at += n * F;
      }
      atId += n;
      const analysis: SkillAnalysis = { counts: new TableCounts(lengths, ids, tf, terms), feedback };
      if (profile) analysis.profile = profile;
      decoded.push([key, analysis]);
    }
    return decoded;
  }

  /**
   * Encoded in steps of about SLICE_MS with the event loop let in between (a library's snapshot
   * took ~0.2 s at once after a branch switch), over the entries as they were when it began.
   */
  protected async encode(): Promise<Buffer[]> {
    const F = FIELDS.length;
    const items = [...this.map.values()];
    const keys = [...this.map.keys()];
    let start = performance.now();
    const step = async () => {
      if (performance.now() - start < SLICE_MS) return;
      await yieldToLoop();
      start = performance.now();
    };
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
    const isWide = (tf: ArrayLike<number>) => {
      for (let i = 0; i < tf.length; i++) if (tf[i] > 255) return 1;
      return 0;
    };
    const entries: [string, number, number, number, number][] = [];
    let words = 0;
    let pairs = 0;
    for (const [e, { counts, feedback, profile }] of items.entries()) {
      const key = keys[e];
      const n = termCount(counts);
      const wide = isWide(counts.tf);
      entries.push([key, n, feedback.length, profile ? profile.length : -1, wide]);
      words += F + n + feedback.length + (profile?.length ?? 0) + wide * n * F;
      pairs += n;
    }
    const data = new Uint32Array(words);
    const tfBytes = new Uint8Array(pairs * F);
    let at = 0;
    let atTf = 0;
    let e = 0;
    for (const { counts, feedback, profile } of items) {
      await step();
      const n = termCount(counts);
      const wide = entries[e++][4];
      for (let f = 0; f < F; f++) data[at++] = counts.lengths[f] ?? 0;
      for (let i = 0; i < n; i++) data[at++] = id(termAt(counts, i));
      for (const t of feedback) data[at++] = id(t);
      for (const t of profile ?? []) data[at++] = id(t);
      if (wide) for (let i = 0; i < n * F; i++) data[at++] = counts.tf[i];
      else for (let i = 0; i < n * F; i++) tfBytes[atTf + i] = counts.tf[i];
      atTf += n * F;
    }
    const u32 = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const tail = Buffer.from(tfBytes.buffer, tfBytes.byteOffset, tfBytes.byteLength);
    const sum = new Checksum().update(u32).update(tail).digest();
    // The JSON is padded with spaces so the data starts on a 4-byte boundary.
    const [magic, length, head] = writeFrame(MAGIC, { version: VERSION, fields: F, terms, entries, ...sum } satisfies Header, Buffer.alloc(0), 4);
    return [magic, length, head, u32, tail];
  }
}
