/**
 * What the lexical index keeps of a document: its analysed terms counted per field (see
 * `LexicalIndex`; also what the analysis snapshot stores).
 */

export const FIELDS = ['name', 'description', 'headings', 'body', 'bridge', 'bridgeBody'] as const;
export type Field = (typeof FIELDS)[number];
/**
 * Analysed terms per field. `bridge` and `bridgeBody` hold English senses of a Chinese skill's
 * description and headings, and of its body (see `Translator`); other skills leave them out.
 */
export type FieldTerms = Record<Exclude<Field, 'bridge' | 'bridgeBody'>, string[]> & { bridge?: string[]; bridgeBody?: string[] };
/** A document's terms counted per field: what `LexicalIndex` keeps, and what a snapshot stores. */
export interface TermCounts {
  /** Terms per field, in FIELDS order. */
  lengths: number[];
  /** Distinct terms in first-seen order. */
  terms: string[];
  /** FIELDS.length frequencies per entry of `terms`. */
  tf: ArrayLike<number>;
  /**
   * The same terms as indexes into `table`, when the counts come from a snapshot with a shared
   * term table: a batch of such counts is indexed without a string lookup per term.
   */
  ids?: ArrayLike<number>;
  table?: readonly string[];
}

/** Counts analysed terms per field (the first half of `LexicalIndex.upsert`). */
export function countTerms(terms: FieldTerms): TermCounts {
  const F = FIELDS.length;
  const lengths: number[] = [];
  const index = new Map<string, number>();
  const out: string[] = [];
  const tf: number[] = [];
  FIELDS.forEach((field, f) => {
    const list = terms[field] ?? [];
    lengths.push(list.length);
    for (const t of list) {
      let i = index.get(t);
      if (i === undefined) {
        index.set(t, (i = out.length));
        out.push(t);
        for (let g = 0; g < F; g++) tf.push(0);
      }
      tf[i * F + f]++;
    }
  });
  return { lengths, terms: out, tf };
}
