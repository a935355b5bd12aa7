/**
 * One skill of the engine's library: its document, what its body names (crossRefs.ts), the
 * analysed terms pseudo-relevance feedback reads, and the own body and passages routing reads.
 */
import type { SkillDoc } from '../types';
import { splitPassages, type Passage } from '../text/passages';
import { ownBody } from './crossRefs';

/** The engine's state of one skill version. */
export class SkillEntry {
  private own: SkillDoc | undefined;
  constructor(
    readonly doc: SkillDoc,
    /** Reference keys of the body (`referenceKeys`), matched against the library's names. */
    readonly refKeys: readonly string[],
    /** Keys of other skills of the library its body names (see crossRefs.ts). */
    readonly mentions: readonly string[],
    /** Analysed name, description and bridge terms (pseudo-relevance feedback reads them). */
    readonly feedback: string[],
    /** How many of `feedback` come from the name and description (the rest are bridge terms). */
    private readonly ownTerms: number,
  ) {}

  /** The skill as routing reads it: its own body (lines naming other skills blanked), its own hash. */
  get routing(): SkillDoc {
    this.own ??= this.mentions.length ? { ...this.doc, body: ownBody(this.doc.body, this.mentions), hash: this.routingHash } : this.doc;
    return this.own;
  }

  /** The hash of `routing`, without blanking the body. */
  get routingHash(): string {
    return this.mentions.length ? `${this.doc.hash}~${this.mentions.join(',')}` : this.doc.hash;
  }

  /** The skill's bridge terms, as `lexicalFields` made them. */
  get bridge(): string[] {
    return this.feedback.slice(this.ownTerms);
  }

  /**
   * Body passages of the own body, split on each call. Not kept: they are new strings about the
   * size of the body, a pair scan meets every skill, and what is made of them is kept by those
   * who need it (the reranker's fields, for the skills used last; the passage vectors).
   */
  get passages(): Passage[] {
    return splitPassages(this.routing.body);
  }
}
