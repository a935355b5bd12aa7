/**
 * Copies: two skills with the same or nearly the same text (description and body), in one
 * collection or in two. Decided on the text alone, by word shingles: the share of 5-word
 * sequences the two texts share (Jaccard resemblance). Candidates come from MinHash bands and
 * from equal names or folder names, so a library-wide search compares few pairs.
 *
 * A copy is not a near-duplicate: the fix is to delete one or keep them in step, not to make
 * their descriptions tell them apart.
 */
import type { SkillDoc } from '../types';
import type { PairFinding } from './types';

/** Resemblance (shared word sequences) at or above which two skills are copies. */
export const COPY_RESEMBLANCE = 0.8;

const SHINGLE = 5;
/** Words read per skill: a copy shows in its first pages; huge bodies would only cost time. */
const MAX_TOKENS = 20000;
const BANDS = 8;
const ROWS = 2;

/** The shingles and MinHash signature of one skill's text; kept per content hash. */
export interface TextSignature {
  shingles: Uint32Array;
  minhash: Uint32Array;
  /** Characters of description + body. */
  length: number;
}

function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Tokens of normalised text: lower-cased words and numbers; each CJK character one token. */
export function normalisedTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[\u3400-\u9fff\uf900-\ufaff]|[\p{L}\p{N}]+/gu)) {
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

/** The signature of a skill's description and body. */
export function textSignature(doc: Pick<SkillDoc, 'description' | 'body'>): TextSignature {
  const tokens = normalisedTokens(`${doc.description}\n${doc.body}`);
  const set = new Set<number>();
  if (tokens.length < SHINGLE) set.add(fnv(tokens.join(' ')));
  for (let i = 0; i + SHINGLE <= tokens.length; i++) set.add(fnv(tokens.slice(i, i + SHINGLE).join(' ')));
  const shingles = Uint32Array.from(set).sort();
  const minhash = new Uint32Array(BANDS * ROWS).fill(0xffffffff);
  for (const s of shingles) {
    for (let i = 0; i < minhash.length; i++) {
      const v = mix(s, i);
      if (v < minhash[i]) minhash[i] = v;
    }
  }
  return { shingles, minhash, length: doc.description.length + doc.body.length };
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
function whichCopy(x: SkillDoc, y: SkillDoc, sx: TextSignature, sy: TextSignature): { newer?: string; note: string } {
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

/** Normalised name for "same skill" candidates. */
const nameKey = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * Copy pairs among `docs` (only those involving `focus` when given). `signatureOf` gives each
 * skill's signature (the scan keeps them per content hash). Pairs in any folders: a copy is worth
 * knowing about wherever it is.
 */
export function findCopies(docs: readonly SkillDoc[], signatureOf: (doc: SkillDoc) => TextSignature, focus?: string): PairFinding[] {
  const buckets = new Map<string, number[]>();
  const sigs = docs.map((d) => signatureOf(d));
  const key = (bucket: string) => {
    let list = buckets.get(bucket);
    if (!list) buckets.set(bucket, (list = []));
    return list;
  };
  docs.forEach((d, i) => {
    const mh = sigs[i].minhash;
    for (let b = 0; b < BANDS; b++) key(`b${b}:${mh[b * ROWS]}:${mh[b * ROWS + 1]}`).push(i);
    key(`n:${nameKey(d.name)}`).push(i);
    key(`f:${nameKey(d.id.slice(d.id.lastIndexOf('/') + 1))}`).push(i);
  });
  const focusIndex = focus === undefined ? -1 : docs.findIndex((d) => d.id === focus);
  if (focus !== undefined && focusIndex < 0) return [];
  const seen = new Set<string>();
  const out: PairFinding[] = [];
  for (const list of buckets.values()) {
    if (list.length < 2) continue;
    // A bucket of hundreds (a shared template's boilerplate) still compares only what it holds.
    const firsts = focusIndex >= 0 ? (list.includes(focusIndex) ? [focusIndex] : []) : list;
    for (const i of firsts) {
      for (const j of list) {
        if (i === j || (focusIndex < 0 && j < i)) continue;
        const [x, y] = docs[i].id < docs[j].id ? [i, j] : [j, i];
        const pair = `${x}:${y}`;
        if (seen.has(pair)) continue;
        seen.add(pair);
        const r = resemblance(sigs[x].shingles, sigs[y].shingles);
        if (r < COPY_RESEMBLANCE) continue;
        const which = whichCopy(docs[x], docs[y], sigs[x], sigs[y]);
        const share = Math.floor(r * 100);
        out.push({
          kind: 'copy',
          a: docs[x].id,
          b: docs[y].id,
          similarity: r,
          reason: 'function_redundant',
          explanation: `${r >= 0.999 ? 'The same text' : `${share}% of the text is the same`}; ${which.note}. Keep one, or keep both in step.`,
        });
      }
    }
  }
  return out.sort((p, q) => (p.a < q.a ? -1 : p.a > q.a ? 1 : p.b < q.b ? -1 : p.b > q.b ? 1 : 0));
}
