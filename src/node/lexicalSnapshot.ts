/**
 * A library's lexical index as its first index built it (`LexicalSnapshotStore`), in one binary
 * file beside the analysis snapshot: "SRLX1\n", a uint32 header length, a JSON header {version,
 * fields, signature, documents, terms, postings, wide: [[term id, postings]], keyBytes, termBytes,
 * crc32 or sha1} padded so the data starts on a 4-byte boundary, then the skill ids and the terms
 * as UTF-8 joined by newlines (padded to 4 bytes), and little-endian data: per document `fields`
 * term counts, the postings' offsets per term (terms + 1), the postings' documents, the wide
 * terms' frequencies (uint32), then one byte per posting per field. The checksum covers the data.
 * A file of another signature is not read; one that does not decode is reported and rebuilt.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LexicalSnapshotStore } from '../core/index/caches';
import { FIELDS, type LexicalState } from '../core/index/lexicalIndex';
import type { Logger } from '../core/types';
import { SILENT_LOGGER } from '../core/types';
import { Checksum, readFrame, removeStaleTemps, writeFrame, type DataChecksum } from './cacheFile';

const MAGIC = Buffer.from('SRLX1\n');
const VERSION = 1;
export const LEXICAL_FILE = 'lexical.bin';

type Header = {
  version: number;
  fields: number;
  signature: string;
  documents: number;
  terms: number;
  postings: number;
  wide: [number, number][];
  keyBytes: number;
  termBytes: number;
} & DataChecksum;

const F = FIELDS.length;
const pad4 = (n: number) => (4 - (n % 4)) % 4;

export class FileLexicalSnapshot implements LexicalSnapshotStore {
  readonly file: string;

  constructor(dir: string, private readonly log: Logger = SILENT_LOGGER) {
    this.file = path.join(dir, LEXICAL_FILE);
  }

  async read(signature: string): Promise<LexicalState | null> {
    let buf: Buffer;
    try {
      await removeStaleTemps(this.file, this.log);
      buf = await fs.readFile(this.file);
    } catch {
      return null;
    }
    try {
      return this.decode(buf, signature);
    } catch (err) {
      this.log.warn(`lexical snapshot ${this.file} is corrupt (${(err as Error).message}); rebuilding it`);
      return null;
    }
  }

  private decode(buf: Buffer, signature: string): LexicalState | null {
    if (os.endianness() !== 'LE') return null;
    const { header: h, data, dataStart } = readFrame(buf, MAGIC);
    const header = h as Header;
    if (header?.version !== VERSION || header.fields !== F || header.signature !== signature) return null;
    const { documents: n, terms: T, postings: P, keyBytes, termBytes } = header;
    const counts = [n, T, P, keyBytes, termBytes];
    if (!counts.every((x) => Number.isSafeInteger(x) && x >= 0) || !Array.isArray(header.wide) || dataStart % 4 !== 0) throw new Error('bad header');
    const wideWords = header.wide.reduce((sum, e) => sum + (Array.isArray(e) && Number.isSafeInteger(e[1]) && e[1] >= 0 ? e[1] * F : NaN), 0);
    const text = keyBytes + termBytes + pad4(keyBytes + termBytes);
    const words = n * F + T + 1 + P + wideWords;
    if (!Number.isSafeInteger(wideWords) || data.length !== text + words * 4 + P * F) throw new Error('data does not match the header');
    Checksum.check(header, data);
    const keys = keyBytes ? data.toString('utf8', 0, keyBytes).split('\n') : [];
    const terms = termBytes ? data.toString('utf8', keyBytes, keyBytes + termBytes).split('\n') : [];
    if (keys.length !== n || terms.length !== T) throw new Error('keys or terms do not match the header');
    // Views into the file's bytes where they are aligned (a file read whole is: the header and
    // the text are padded to 4 bytes), else one aligned copy: at 20,000 skills the file is ~100 MB.
    const start = data.byteOffset + text;
    const u32 = start % 4 === 0 ? new Uint32Array(data.buffer, start, words) : new Uint32Array(new Uint8Array(data.subarray(text, text + words * 4)).buffer);
    let at = 0;
    const take = (k: number) => u32.subarray(at, (at += k));
    const lengths = take(n * F);
    const from = take(T + 1);
    const docs = take(P);
    const wide = header.wide.map(([t, k]) => [t, take(k * F)] as const);
    // A plain Uint8Array, not a Buffer: the search's inner loop reads both kinds of block otherwise (slower).
    const tail = data.subarray(text + words * 4);
    const tf = new Uint8Array(tail.buffer, tail.byteOffset, tail.length);
    return { keys, lengths, terms, from, docs, tf, wide };
  }

  async write(signature: string, st: LexicalState): Promise<void> {
    // Ids and terms are joined by newlines: one holding a newline (a file name may) is not written.
    if (st.keys.some((k) => k.includes('\n')) || st.terms.some((t) => t.includes('\n'))) return;
    const keyText = Buffer.from(st.keys.join('\n'), 'utf8');
    const termText = Buffer.from(st.terms.join('\n'), 'utf8');
    const text = Buffer.concat([keyText, termText, Buffer.alloc(pad4(keyText.length + termText.length))]);
    const parts = [st.lengths, st.from, st.docs, ...st.wide.map(([, tf]) => tf)].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength));
    const tf = Buffer.from(st.tf.buffer, st.tf.byteOffset, st.tf.byteLength);
    const sum = new Checksum();
    for (const b of [text, ...parts, tf]) sum.update(b);
    const header: Header = {
      version: VERSION,
      fields: F,
      signature,
      documents: st.keys.length,
      terms: st.terms.length,
      postings: st.docs.length,
      wide: st.wide.map(([t, a]) => [t, a.length / F]),
      keyBytes: keyText.length,
      termBytes: termText.length,
      ...sum.digest(),
    };
    const [magic, length, head] = writeFrame(MAGIC, header, Buffer.alloc(0), 4);
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      await fs.writeFile(tmp, Buffer.concat([magic, length, head, text, ...parts, tf]));
      await fs.rename(tmp, this.file);
    } catch (err) {
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      throw err;
    }
  }
}
