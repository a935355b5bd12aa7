/**
 * The pair scan's text entries on disk (`copy-sketches.bin` beside `pair-findings.json`): per
 * skill version (content hash), its copy sketch (MinHash signatures, word and character counts)
 * and the hashes of its template keys, so the first edit after a reopen finds copies and template
 * text without reading every body again (19,909 skills: ~20 s of one core and the bodies kept
 * decoded). "SRTX1\n", a uint32 header length, a JSON header {version, text, listing, entries:
 * [[hash, template keys]], crc32 or sha1}, padded so the data starts on a 4-byte boundary, then
 * little-endian uint32 data per entry: `text` + `listing` MinHash values, words, listing words,
 * length, and two words (high, low) per template hash. Anything unreadable is reported and rebuilt.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { SKETCH_MINHASHES } from '../core/analysis/copies';
import type { TextEntry, TextEntryStore } from '../core/analysis/pairCache';
import type { Logger } from '../core/types';
import { SILENT_LOGGER } from '../core/types';
import { Checksum, KeyedCacheFile, readFrame, StaleCacheFile, writeFrame, type DataChecksum } from './cacheFile';

const MAGIC = Buffer.from('SRTX1\n');
// 2: template keys hashed by hash53 (core/text/hash.ts).
const VERSION = 2;
export const TEXT_ENTRY_FILE = 'copy-sketches.bin';

type Header = { version: number; text: number; listing: number; entries: [string, number][] } & DataChecksum;

/** Words per entry before its template hashes. */
const FIXED = SKETCH_MINHASHES.text + SKETCH_MINHASHES.listing + 3;
const TWO_32 = 4294967296;

export class FileTextEntryStore extends KeyedCacheFile<TextEntry> implements TextEntryStore {
  private constructor(file: string, log: Logger) {
    super(file, 'copy sketches', log);
  }

  /** Opens (or starts) the store in `dir`. A corrupt file is reported and replaced. */
  static async open(dir: string, logger: Logger = SILENT_LOGGER): Promise<FileTextEntryStore> {
    const store = new FileTextEntryStore(path.join(dir, TEXT_ENTRY_FILE), logger);
    await store.load();
    return store;
  }

  protected decode(buf: Buffer): [string, TextEntry][] {
    if (os.endianness() !== 'LE') throw new StaleCacheFile('is read on little-endian hosts only; rebuilding it');
    const { header: h, data: bytes, dataStart } = readFrame(buf, MAGIC);
    const header = h as Header;
    if (header?.version !== VERSION || header.text !== SKETCH_MINHASHES.text || header.listing !== SKETCH_MINHASHES.listing) {
      throw new StaleCacheFile('has another layout; rebuilding it');
    }
    const isEntry = (e: unknown) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && Number.isSafeInteger(e[1]) && e[1] >= 0;
    if (!Array.isArray(header.entries) || !header.entries.every(isEntry)) throw new Error('bad header');
    const words = header.entries.reduce((n, [, k]) => n + FIXED + 2 * k, 0);
    if (dataStart % 4 !== 0) throw new Error('misaligned data');
    if (bytes.length !== words * 4) throw new Error(`data ${bytes.length < words * 4 ? 'shorter' : 'longer'} than the header says`);
    Checksum.check(header, bytes);
    // One aligned copy; the sketches' arrays are views into it (~100 bytes an entry).
    const data = new Uint32Array(words);
    new Uint8Array(data.buffer).set(bytes);
    let at = 0;
    return header.entries.map(([hash, k]) => {
      const minhash = data.subarray(at, (at += SKETCH_MINHASHES.text));
      const listingMinhash = data.subarray(at, (at += SKETCH_MINHASHES.listing));
      const [textWords, listingWords, length] = [data[at], data[at + 1], data[at + 2]];
      at += 3;
      const templates = new Array<number>(k);
      for (let i = 0; i < k; i++, at += 2) {
        if (data[at] > 0x1fffff) throw new Error('template hash out of range');
        templates[i] = data[at] * TWO_32 + data[at + 1];
      }
      return [hash, { sketch: { minhash, listingMinhash, words: textWords, listingWords, length }, templates }];
    });
  }

  protected encode(): Buffer[] {
    const entries: [string, number][] = [...this.map].map(([hash, e]) => [hash, e.templates.length]);
    const data = new Uint32Array(entries.reduce((n, [, k]) => n + FIXED + 2 * k, 0));
    let at = 0;
    for (const { sketch, templates } of this.map.values()) {
      data.set(sketch.minhash, at);
      data.set(sketch.listingMinhash, (at += SKETCH_MINHASHES.text));
      at += SKETCH_MINHASHES.listing;
      data[at++] = sketch.words;
      data[at++] = sketch.listingWords;
      data[at++] = sketch.length;
      for (const t of templates) {
        data[at++] = Math.floor(t / TWO_32);
        data[at++] = t % TWO_32;
      }
    }
    const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    return writeFrame(MAGIC, { version: VERSION, text: SKETCH_MINHASHES.text, listing: SKETCH_MINHASHES.listing, entries, ...new Checksum().update(bytes).digest() } satisfies Header, bytes, 4);
  }
}
