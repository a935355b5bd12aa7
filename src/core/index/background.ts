/**
 * Background term statistics: how many skills of a large reference pool use each analysed term,
 * so that a small library's terms keep their weight. In a 9-skill library "Blazor" in 4 bodies
 * looks common and "build" in all 9 looks as common as it is; over 2,800 skills the first is rare
 * and the second is not. The counts ship as numbers only, never as text: a count-min sketch
 * (`rows` tables of `2^bits` 16-bit counters, each term counted in one counter per table chosen by
 * a seeded hash, read back as the smallest), built by bench/buildBackground.ts from the corpus.
 * Collisions can only raise a count, which makes a rare term look a little less rare.
 *
 * File layout (little-endian): "SRBG", u8 version (1), u8 rows, u8 bits, u8 0, u32 pool size,
 * then rows × 2^bits u16 counts.
 */

const MAGIC = 'SRBG';
const VERSION = 1;

/** FNV-1a over the UTF-16 code units of `text`, from a seed. */
function hash(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const SEEDS = [0x9e3779b9, 0x85ebca6b, 0xc2b2ae35, 0x27d4eb2f];

/** Document frequencies of a reference pool, read back from a sketch. */
export class BackgroundFrequencies {
  private readonly mask: number;

  constructor(
    /** Skills in the reference pool. */
    readonly size: number,
    private readonly bits: number,
    private readonly tables: Uint16Array[],
  ) {
    this.mask = (1 << bits) - 1;
  }

  /** Skills of the pool whose text holds `term` (an analysed term), at least. */
  df(term: string): number {
    let n = Infinity;
    for (let r = 0; r < this.tables.length; r++) n = Math.min(n, this.tables[r][hash(term, SEEDS[r]) & this.mask]);
    return Number.isFinite(n) ? n : 0;
  }

  /** Builds the sketch of `counts` (term → skills holding it) over a pool of `size` skills. */
  static build(counts: Iterable<readonly [string, number]>, size: number, opts: { rows?: number; bits?: number } = {}): BackgroundFrequencies {
    const rows = opts.rows ?? 2;
    const bits = opts.bits ?? 17;
    if (rows < 1 || rows > SEEDS.length || bits < 4 || bits > 24) throw new Error('background: rows must be 1-4 and bits 4-24');
    const tables = Array.from({ length: rows }, () => new Uint16Array(1 << bits));
    const mask = (1 << bits) - 1;
    for (const [term, df] of counts) {
      for (let r = 0; r < rows; r++) {
        const at = hash(term, SEEDS[r]) & mask;
        tables[r][at] = Math.min(0xffff, tables[r][at] + df);
      }
    }
    return new BackgroundFrequencies(size, bits, tables);
  }

  /** The file form (see the layout above). */
  encode(): Uint8Array {
    const buckets = 1 << this.bits;
    const out = new Uint8Array(12 + this.tables.length * buckets * 2);
    const view = new DataView(out.buffer);
    for (let i = 0; i < 4; i++) out[i] = MAGIC.charCodeAt(i);
    out[4] = VERSION;
    out[5] = this.tables.length;
    out[6] = this.bits;
    view.setUint32(8, this.size, true);
    let at = 12;
    for (const t of this.tables) {
      for (let i = 0; i < buckets; i++, at += 2) view.setUint16(at, t[i], true);
    }
    return out;
  }

  /** Reads the file form; throws with what is wrong. */
  static decode(bytes: Uint8Array): BackgroundFrequencies {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.length < 12 || String.fromCharCode(...bytes.subarray(0, 4)) !== MAGIC) throw new Error('background statistics: not an SRBG file');
    if (bytes[4] !== VERSION) throw new Error(`background statistics: version ${bytes[4]}, this build reads ${VERSION}`);
    const rows = bytes[5];
    const bits = bytes[6];
    const buckets = 1 << bits;
    if (rows < 1 || rows > SEEDS.length || bits < 4 || bits > 24 || bytes.length !== 12 + rows * buckets * 2) throw new Error('background statistics: the file is truncated or malformed');
    const size = view.getUint32(8, true);
    const tables: Uint16Array[] = [];
    let at = 12;
    for (let r = 0; r < rows; r++) {
      const t = new Uint16Array(buckets);
      for (let i = 0; i < buckets; i++, at += 2) t[i] = view.getUint16(at, true);
      tables.push(t);
    }
    return new BackgroundFrequencies(size, bits, tables);
  }
}

/** The background and how much it weighs, as the lexical index and the profiles take it. */
export interface BackgroundPrior {
  frequencies: BackgroundFrequencies;
  /** Share of the background in the blended idf, 0 (the library's own) to 1 (the pool's). */
  weight: number;
}

/**
 * A term's idf from the library's counts blended with the pool's: a weighted geometric mean,
 * `idf_library^(1 - w) · idf_pool^w`. The two say different things: the library's idf, how well
 * a term tells *these* skills apart (".NET" in all 9 skills of a .NET library tells nothing); the
 * pool's, how specific the term is at all ("Blazor" is rare, "build" is not). The product needs
 * both, where a sum of counts would make a library-wide word rare again. `idf` maps a document
 * frequency and a collection size to an idf (BM25's, or the profiles' TF-IDF form); for a library
 * that is the pool the blend changes nothing.
 */
export function blendedIdf(term: string, df: number, size: number, prior: BackgroundPrior | null | undefined, idf: (df: number, size: number) => number): number {
  const own = idf(df, size);
  if (!prior || prior.weight <= 0 || prior.frequencies.size <= 0) return own;
  const pool = idf(Math.min(prior.frequencies.df(term), prior.frequencies.size), prior.frequencies.size);
  return Math.pow(Math.max(own, 1e-9), 1 - prior.weight) * Math.pow(Math.max(pool, 1e-9), prior.weight);
}
