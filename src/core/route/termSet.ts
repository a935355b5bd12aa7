import { detach } from '../text/detach';

/**
 * Analysed terms of one field of a skill as sorted ids into a table shared by a field cache: 4
 * bytes a term where a `Set<string>` took ~40. The reranker keeps the fields of thousands of
 * skills (19,909-skill workspace, language server after 5 edits and 185 requests: RSS 1,529 →
 * 1,483 MB), and reads them by membership of a request's few terms, looked up once per request
 * (`TermTable.idOf`).
 */
export class TermTable {
  private readonly ids = new Map<string, number>();
  private readonly words: string[] = [];

  /** The id of `term`, -1 when no set of this table holds it. */
  find(term: string): number {
    return this.ids.get(term) ?? -1;
  }

  word(id: number): string {
    return this.words[id];
  }

  /**
   * The id of `term`, given it now when it has none: a request's terms take ids before the fields
   * analysed later in the same request (lazily) are made, so they must match what those get.
   */
  idOf(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      const own = detach(term); // a term is cut from a skill's text: the table keeps the term alone
      this.ids.set(own, (id = this.words.length));
      this.words.push(own);
    }
    return id;
  }

  /** The set of `terms`. */
  setOf(terms: Iterable<string>): TermSet {
    const out: number[] = [];
    for (const t of terms) out.push(this.idOf(t));
    const sorted = Uint32Array.from(out).sort();
    let n = 0;
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i];
    return new TermSet(n === sorted.length ? sorted : sorted.slice(0, n), this);
  }
}

export class TermSet implements Iterable<string> {
  constructor(
    private readonly ids: Uint32Array,
    private readonly table: TermTable,
  ) {}

  get size(): number {
    return this.ids.length;
  }

  /** Whether the set holds the term with id `id` (from this set's table). */
  hasId(id: number): boolean {
    const ids = this.ids;
    let lo = 0;
    let hi = ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = ids[mid];
      if (v === id) return true;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  has(term: string): boolean {
    const id = this.table.find(term);
    return id >= 0 && this.hasId(id);
  }

  *[Symbol.iterator](): Iterator<string> {
    for (const id of this.ids) yield this.table.word(id);
  }
}
