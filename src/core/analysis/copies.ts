/**
 * Copies: two skills with the same or nearly the same text, in one collection or in two. Decided
 * on the text alone, by word shingles: the share of 5-word sequences two texts share (Jaccard
 * resemblance), over the description and body, or over the description alone: two skills whose
 * listings (what an agent reads) are the same are copies to the agent whatever their bodies say
 * (on the corpus, most same-named skills in two collections share the description and little of
 * the body). Candidates come from MinHash bands and from equal names, folder names and
 * descriptions (MinHash bands of the description too), so a library-wide search compares few pairs.
 *
 * A copy is not a near-duplicate: the fix is to delete one or keep them in step, not to make
 * their descriptions tell them apart.
 */
import type { SkillDoc } from '../types';
import type { PairFinding } from './types';

/** Resemblance (shared word sequences) of description + body at or above which two skills are copies. */
export const COPY_RESEMBLANCE = 0.8;
/** The same for the descriptions alone: nearly the same listing. */
export const LISTING_RESEMBLANCE = 0.9;

const SHINGLE = 5;
/** Words read per skill: a copy shows in its first pages; huge bodies would only cost time. */
const MAX_TOKENS = 8000;
const BANDS = 8;
const LISTING_BANDS = 4;
const ROWS = 2;

/**
 * What the copy index keeps of one skill version, per content hash (and on disk beside the pair
 * findings): MinHash signatures and sizes, ~100 bytes. The shingles themselves (kilobytes, from
 * the whole body) are computed again for the few pairs a bucket makes candidates.
 */
export interface CopySketch {
  /** MinHash of the description + body shingles (BANDS x ROWS values). */
  minhash: Uint32Array;
  /** MinHash of the description's shingles (LISTING_BANDS x ROWS values). */
  listingMinhash: Uint32Array;
  /** Words of description + body, and of the description: too few say nothing of a copy. */
  words: number;
  listingWords: number;
  /** Characters of description + body. */
  length: number;
}

/** Values in a sketch's `minhash` and `listingMinhash` (what a stored sketch holds). */
export const SKETCH_MINHASHES = { text: BANDS * ROWS, listing: LISTING_BANDS * ROWS } as const;

/** A sketch with the shingles it was made from. */
export interface TextSignature extends CopySketch {
  shingles: Uint32Array;
  /** Shingles of the description alone. */
  listing: Uint32Array;
}

/** Fewest words for a text (or a description) to count as copied: two empty skills are not copies. */
const MIN_WORDS = 20;
const MIN_LISTING_WORDS = 5;

function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Tokens of normalised text: lower-cased words and numbers (C# and C++ kept apart from C); each CJK character one token. */
export function normalisedTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[\u3400-\u9fff\uf900-\ufaff]|[\p{L}\p{N}]+[#+]*/gu)) {
    out.push(m[0]);
    if (out.length >= MAX_TOKENS) break;
  }
  return out;
}

/** A 32-bit mix of `x` for MinHash function `i`. */
function mix(x: number, i: number): number {
  let h = Math.imul(x ^ Math.imul(i + 1, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Sorted hashes of the 5-word sequences of `text` (the whole text when shorter), and its word count. */
function shinglesOf(text: string): { shingles: Uint32Array; words: number } {
  const tokens = normalisedTokens(text);
  // Each word hashed once; a shingle's hash mixes its five word hashes (no string per shingle).
  const h = tokens.map(fnv);
  const set = new Set<number>();
  if (tokens.length < SHINGLE) set.add(fnv(tokens.join(' ')));
  for (let i = 0; i + SHINGLE <= h.length; i++) {
    let x = 0x811c9dc5;
    for (let k = 0; k < SHINGLE; k++) x = Math.imul(x ^ h[i + k], 0x01000193);
    set.add(x >>> 0);
  }
  return { shingles: Uint32Array.from(set).sort(), words: tokens.length };
}

function minhashOf(shingles: Uint32Array, n: number): Uint32Array {
  const out = new Uint32Array(n).fill(0xffffffff);
  for (const s of shingles) {
    for (let i = 0; i < n; i++) {
      const v = mix(s, i);
      if (v < out[i]) out[i] = v;
    }
  }
  return out;
}

/** The sketch of a signature (its shingles let go). */
export function sketchOf(sig: TextSignature): CopySketch {
  const { minhash, listingMinhash, words, listingWords, length } = sig;
  return { minhash, listingMinhash, words, listingWords, length };
}

/** The signature of a skill's description and body. */
export function textSignature(doc: Pick<SkillDoc, 'description' | 'body'>): TextSignature {
  const text = shinglesOf(`${doc.description}\n${doc.body}`);
  const listing = shinglesOf(doc.description);
  return {
    shingles: text.shingles,
    minhash: minhashOf(text.shingles, BANDS * ROWS),
    listing: listing.shingles,
    listingMinhash: minhashOf(listing.shingles, LISTING_BANDS * ROWS),
    words: text.words,
    listingWords: listing.words,
    length: doc.description.length + doc.body.length,
  };
}

/** Jaccard resemblance of two sorted shingle sets. */
export function resemblance(a: Uint32Array, b: Uint32Array): number {
  if (!a.length || !b.length) return 0;
  let i = 0;
  let j = 0;
  let inter = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      inter++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return inter / (a.length + b.length - inter);
}

/** `1.10.0` > `1.9`; null when either is not a version. */
function compareVersions(a: string, b: string): number | null {
  const parse = (v: string) => (/^v?\d+(?:\.\d+)*$/.test(v) ? v.replace(/^v/, '').split('.').map(Number) : null);
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return null;
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d) return d;
  }
  return 0;
}

/** A skill's declared version (`version`, or `metadata.version`). */
export function declaredVersion(doc: Pick<SkillDoc, 'frontMatter'>): string | undefined {
  const fm = doc.frontMatter;
  const meta = fm.metadata && typeof fm.metadata === 'object' ? (fm.metadata as Record<string, unknown>) : {};
  const v = fm.version ?? meta.version;
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
}

/** Which of two copies to keep, in words, from each side: "x is newer (version 2.0 vs 1.4)". */
function whichCopy(x: SkillDoc, y: SkillDoc, sx: CopySketch, sy: CopySketch): { newer?: string; note: string } {
  const vx = declaredVersion(x);
  const vy = declaredVersion(y);
  const cmp = vx && vy ? compareVersions(vx, vy) : null;
  if (cmp) {
    const [newer, vn, vo] = cmp > 0 ? [x, vx, vy] : [y, vy, vx];
    return { newer: newer.id, note: `${newer.id} is newer (version ${vn} vs ${vo})` };
  }
  if (sx.length === sy.length) return { note: 'they are the same length' };
  const [longer, other] = sx.length > sy.length ? [x, sx.length - sy.length] : [y, sy.length - sx.length];
  return { note: `${longer.id} is longer (by ${other.toLocaleString('en-US')} characters)` };
}

/** Front-matter keys (or `metadata` keys) with which a vendored copy says where it comes from. */
const SOURCE_KEYS = ['source', 'upstream', 'origin', 'vendored_from', 'vendoredFrom', 'forked_from', 'repository', 'homepage'];

/** Where a skill says it was copied from (a `source:`-like field), or undefined. */
export function declaredSource(doc: Pick<SkillDoc, 'frontMatter'>): string | undefined {
  const fm = doc.frontMatter;
  const meta = fm.metadata && typeof fm.metadata === 'object' ? (fm.metadata as Record<string, unknown>) : {};
  for (const key of SOURCE_KEYS) {
    const v = fm[key] ?? meta[key];
    if (typeof v === 'string' && v.trim()) return v.trim();
  }
  return undefined;
}

/** The top-level folder of a skill id (its collection, or repository), '' at the root. */
const collectionOf = (id: string) => (id.includes('/') ? id.slice(0, id.indexOf('/')) : '');

/**
 * What a copy finding says, by where the copies are: two in one collection are one skill listed
 * twice (keep one); a copy in another collection is a library vendoring another's skill, worth
 * knowing, and says which is upstream when a file tells (a `source:` field).
 */
export function copyAdvice(x: SkillDoc, y: SkillDoc, what: string, note: string): string {
  if (collectionOf(x.id) === collectionOf(y.id)) return `${what}; ${note}. Both are in the same collection, and the agent lists both: keep one, or keep both in step.`;
  const sx = declaredSource(x);
  const sy = declaredSource(y);
  const upstream =
    sx && !sy ? ` ${x.id} says it comes from ${sx}, so ${y.id} is the upstream copy;`
    : sy && !sx ? ` ${y.id} says it comes from ${sy}, so ${x.id} is the upstream copy;`
    : '';
  return `${what}; ${note}. A copy in another collection (vendored):${upstream} nothing to fix unless one is edited, then keep both in step.`;
}

/** Normalised name (or description) for "same skill" candidates: docker-hub, docker_hub and Docker Hub are one. */
export const nameKey = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}#+]+/gu, '');

/** One skill as the copy index holds it. */
interface Held {
  doc: SkillDoc;
  sketch: CopySketch;
  /** The buckets it is in. */
  keys: string[];
}

/**
 * The copies among a library's skills: candidate buckets (MinHash bands, equal names and folder
 * names) from the skills' sketches, then the copy pairs of the whole library or of one skill,
 * judged on the full shingles of the candidates only. `update` brings it to the library's
 * current skills, re-bucketing only the skills added, changed or gone (an edit re-buckets one of
 * 20,000). `signatureOf` gives a skill's full signature, asked for candidates alone (`all` asks
 * once per skill). Pairs in any folders: a copy is worth knowing about wherever it is.
 */
export class CopyIndex {
  private readonly buckets = new Map<string, string[]>();
  private readonly held = new Map<string, Held>();
  /** Judged pairs ("a\nb"), and the pairs judged of each skill (what a change of it forgets). */
  private readonly memo = new Map<string, PairFinding | null>();
  private readonly memoOf = new Map<string, string[]>();
  private readonly ofMemo = new Map<string, PairFinding[]>();
  /** The skill list of the last update. */
  private source: readonly SkillDoc[] | null = null;

  constructor(docs: readonly SkillDoc[] = [], sketchOf?: (doc: SkillDoc) => CopySketch) {
    if (sketchOf) this.update(docs, sketchOf);
  }

  /** Brings the index to `docs` (`sketchOf` asked for the skills added or changed); whether anything changed. */
  update(docs: readonly SkillDoc[], sketchOf: (doc: SkillDoc) => CopySketch): boolean {
    if (docs === this.source) return false;
    this.source = docs;
    let changed = false;
    const present = new Set<string>();
    for (const d of docs) {
      present.add(d.id);
      const h = this.held.get(d.id);
      if (h && h.doc.hash === d.hash) {
        h.doc = d;
        continue;
      }
      if (h) this.drop(d.id);
      this.add(d, sketchOf(d));
      this.forget(d.id);
      changed = true;
    }
    if (this.held.size > present.size) {
      for (const id of [...this.held.keys()]) {
        if (present.has(id)) continue;
        this.drop(id);
        this.forget(id);
        changed = true;
      }
    }
    // Another skill's copies may include the one that changed.
    if (changed) this.ofMemo.clear();
    return changed;
  }

  /**
   * Buckets the skills of `docs` not held as they are, for about `budgetMs`; whether none is left.
   * An idle moment's share of the next `update`, which then re-buckets none of them.
   */
  prime(docs: readonly SkillDoc[], sketchOf: (doc: SkillDoc) => CopySketch, budgetMs: number): boolean {
    const t0 = performance.now();
    for (const d of docs) {
      const h = this.held.get(d.id);
      if (h && h.doc.hash === d.hash) continue;
      if (performance.now() - t0 >= budgetMs) return false;
      if (h) this.drop(d.id);
      this.add(d, sketchOf(d));
      this.forget(d.id);
      this.ofMemo.clear();
      this.source = null;
    }
    return true;
  }

  /** Forgets the judged pairs of `id`. */
  private forget(id: string): void {
    for (const key of this.memoOf.get(id) ?? []) this.memo.delete(key);
    this.memoOf.delete(id);
  }

  private add(doc: SkillDoc, sketch: CopySketch): void {
    const keys: string[] = [];
    const mh = sketch.minhash;
    for (let b = 0; b < BANDS; b++) keys.push(`b${b}:${mh[b * ROWS]}:${mh[b * ROWS + 1]}`);
    const lm = sketch.listingMinhash;
    for (let b = 0; b < LISTING_BANDS; b++) keys.push(`l${b}:${lm[b * ROWS]}:${lm[b * ROWS + 1]}`);
    keys.push(`n:${nameKey(doc.name)}`, `f:${nameKey(doc.id.slice(doc.id.lastIndexOf('/') + 1))}`);
    for (const k of keys) {
      const list = this.buckets.get(k);
      if (list) list.push(doc.id);
      else this.buckets.set(k, [doc.id]);
    }
    this.held.set(doc.id, { doc, sketch, keys });
  }

  private drop(id: string): void {
    const h = this.held.get(id);
    if (!h) return;
    for (const k of h.keys) {
      const list = this.buckets.get(k);
      if (!list) continue;
      const at = list.indexOf(id);
      if (at >= 0) list.splice(at, 1);
      if (!list.length) this.buckets.delete(k);
    }
    this.held.delete(id);
  }

  /** Every copy pair of the library, `a` < `b`, sorted. */
  all(signatureOf: (doc: SkillDoc) => TextSignature): PairFinding[] {
    const out: PairFinding[] = [];
    const seen = new Set<string>();
    // Each skill's shingles made once for this call, and let go after it.
    const made = new Map<string, TextSignature>();
    const full = (h: Held) => {
      let sig = made.get(h.doc.id);
      if (!sig) made.set(h.doc.id, (sig = signatureOf(h.doc)));
      return sig;
    };
    for (const list of this.buckets.values()) {
      // A bucket of hundreds (a shared template's boilerplate) still compares only what it holds.
      for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) this.take(list[i], list[j], seen, out, full);
    }
    return out.sort(byPair);
  }

  /** A walk over the buckets for `judgeSome`: live, so a bucket changed meanwhile is read as it is then. */
  walk(): Iterator<readonly string[]> {
    return this.buckets.values();
  }

  /**
   * Judges the pairs `all` reads, the buckets of `walk` for about `budgetMs` (judgements are
   * kept, so that `all` after thousands of changes reads them instead of judging in one go);
   * whether the walk is done.
   */
  judgeSome(signatureOf: (doc: SkillDoc) => TextSignature, budgetMs: number, walk: Iterator<readonly string[]>): boolean {
    const t0 = performance.now();
    const seen = new Set<string>();
    const out: PairFinding[] = [];
    const full = (h: Held) => signatureOf(h.doc);
    for (let first = true; first || performance.now() - t0 < budgetMs; first = false) {
      const next = walk.next();
      if (next.done) return true;
      const list = next.value;
      for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) this.take(list[i], list[j], seen, out, full);
    }
    return false;
  }

  /** The copy pairs involving skill `id`. */
  of(id: string, signatureOf: (doc: SkillDoc) => TextSignature): PairFinding[] {
    const memo = this.ofMemo.get(id);
    if (memo) return memo;
    const h = this.held.get(id);
    if (!h) return [];
    const out: PairFinding[] = [];
    const seen = new Set<string>();
    const full = (x: Held) => signatureOf(x.doc);
    for (const bucket of h.keys) for (const other of this.buckets.get(bucket) ?? []) if (other !== id) this.take(id, other, seen, out, full);
    out.sort(byPair);
    this.ofMemo.set(id, out);
    return out;
  }

  private take(i: string, j: string, seen: Set<string>, out: PairFinding[], full: (h: Held) => TextSignature): void {
    const [x, y] = i < j ? [i, j] : [j, i];
    const key = `${x}\n${y}`;
    if (seen.has(key)) return;
    seen.add(key);
    let found = this.memo.get(key);
    if (found === undefined) {
      this.memo.set(key, (found = this.judge(this.held.get(x)!, this.held.get(y)!, full)));
      for (const id of [x, y]) {
        const list = this.memoOf.get(id);
        if (list) list.push(key);
        else this.memoOf.set(id, [key]);
      }
    }
    if (found) out.push(found);
  }

  private judge(hx: Held, hy: Held, full: (h: Held) => TextSignature): PairFinding | null {
    const kx = hx.sketch;
    const ky = hy.sketch;
    const byText = Math.min(kx.words, ky.words) >= MIN_WORDS;
    const byListing = Math.min(kx.listingWords, ky.listingWords) >= MIN_LISTING_WORDS;
    if (!byText && !byListing) return null;
    const sx = full(hx);
    const sy = full(hy);
    const r = byText ? resemblance(sx.shingles, sy.shingles) : 0;
    const listing = r < COPY_RESEMBLANCE && byListing ? resemblance(sx.listing, sy.listing) : 0;
    if (r < COPY_RESEMBLANCE && listing < LISTING_RESEMBLANCE) return null;
    const which = whichCopy(hx.doc, hy.doc, kx, ky);
    const what =
      r >= 0.999 ? 'The same text'
      : r >= COPY_RESEMBLANCE ? `${Math.floor(r * 100)}% of the text is the same`
      : `${listing >= 0.999 ? 'The same description' : 'Nearly the same description'} (an agent reads only that), ${Math.floor(r * 100)}% of the whole text`;
    return {
      kind: 'copy',
      a: hx.doc.id,
      b: hy.doc.id,
      similarity: Math.max(r, listing),
      reason: 'function_redundant',
      explanation: copyAdvice(hx.doc, hy.doc, what, which.note),
    };
  }
}

function byPair(p: PairFinding, q: PairFinding): number {
  return p.a < q.a ? -1 : p.a > q.a ? 1 : p.b < q.b ? -1 : p.b > q.b ? 1 : 0;
}
