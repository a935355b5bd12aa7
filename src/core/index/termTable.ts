/**
 * Analyses in the form a reopen reads them (node/analysisSnapshot.ts): term ids into one table
 * shared by a library's analyses and frequencies as bytes, the strings only when asked for. A
 * fresh analysis holds a string per term and six numbers of eight bytes beside it, ~5x this form:
 * a cold index of 20,000 skills held ~650 MB of them until it wrote its snapshot and read it back.
 * So the cold index's batch (`SkillService.index`) keeps each analysis in this form as it is made.
 */
import type { SkillAnalysis } from './caches';
import { FIELDS, type TermCounts } from './lexicalIndex';

const F = FIELDS.length;
/** Elements per pooled block: many small typed arrays share one buffer. */
const BLOCK = 1 << 18;

/** Counts over a shared term table: `ids` into `table`, `FIELDS.length` frequencies per term in `tf`. */
export class TableCounts implements TermCounts {
  constructor(
    readonly lengths: number[],
    readonly ids: Uint32Array,
    readonly tf: Uint8Array | Uint32Array,
    readonly table: readonly string[],
  ) {}

  /** The terms as strings: a new array on each read (readers go through `ids` and `table`). */
  get terms(): string[] {
    return Array.from(this.ids, (id) => this.table[id]);
  }
}

/** The term at `i` of `counts`, without making the strings of a `TableCounts`. */
export function termAt(counts: TermCounts, i: number): string {
  return counts.ids && counts.table ? counts.table[counts.ids[i]] : counts.terms[i];
}

/** How many distinct terms `counts` holds. */
export function termCount(counts: TermCounts): number {
  return counts.ids ? counts.ids.length : counts.terms.length;
}

/** One table of terms for many analyses, and the pooled blocks their ids and frequencies live in. */
export class TermTable {
  readonly terms: string[] = [];
  private readonly index = new Map<string, number>();
  private ids = new Uint32Array(0);
  private idsAt = 0;
  private tfs = new Uint8Array(0);
  private tfsAt = 0;

  /** The id of `term`, added when new. */
  id(term: string): number {
    let i = this.index.get(term);
    if (i === undefined) {
      this.index.set(term, (i = this.terms.length));
      this.terms.push(term);
    }
    return i;
  }

  /** The table's copy of `term` (one string for every analysis that has it). */
  intern(term: string): string {
    return this.terms[this.id(term)];
  }

  /** `analysis` over this table: the same counts, feedback and profile terms in the compact form. */
  compact(analysis: SkillAnalysis): SkillAnalysis {
    const { counts } = analysis;
    const n = termCount(counts);
    const ids = this.takeIds(n);
    for (let i = 0; i < n; i++) ids[i] = this.id(termAt(counts, i));
    let wide = false;
    for (let i = 0; i < n * F && !wide; i++) wide = counts.tf[i] > 255;
    const tf = wide ? new Uint32Array(n * F) : this.takeTfs(n * F);
    for (let i = 0; i < n * F; i++) tf[i] = counts.tf[i];
    const out: SkillAnalysis = {
      counts: new TableCounts(counts.lengths, ids, tf, this.terms),
      feedback: analysis.feedback.map((t) => this.intern(t)),
    };
    if (analysis.profile) out.profile = analysis.profile.map((t) => this.intern(t));
    return out;
  }

  private takeIds(n: number): Uint32Array {
    if (this.idsAt + n > this.ids.length) {
      this.ids = new Uint32Array(Math.max(BLOCK, n));
      this.idsAt = 0;
    }
    this.idsAt += n;
    return this.ids.subarray(this.idsAt - n, this.idsAt);
  }

  private takeTfs(n: number): Uint8Array {
    if (this.tfsAt + n > this.tfs.length) {
      this.tfs = new Uint8Array(Math.max(BLOCK * F, n));
      this.tfsAt = 0;
    }
    this.tfsAt += n;
    return this.tfs.subarray(this.tfsAt - n, this.tfsAt);
  }
}
