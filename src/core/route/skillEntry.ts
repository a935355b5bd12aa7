/**
 * One skill of the engine's library: its document, what its body names (crossRefs.ts), the
 * analysed terms pseudo-relevance feedback reads, and the own body and passages routing reads.
 */
import type { SkillDoc } from '../types';
import { splitPassages, type Passage } from '../text/passages';
import { blankLines, mentionLines, ownDescription } from './crossRefs';

/** The engine's state of one skill version. */
export class SkillEntry {
  private own: SkillDoc | undefined;
  constructor(
    readonly doc: SkillDoc,
    /** Reference keys of the description and body (`referenceKeys`), matched against the library's names. */
    readonly refKeys: readonly string[],
    /** Keys of other skills of the library its description or body names (see crossRefs.ts). */
    readonly mentions: readonly string[],
    /** Analysed name, description and bridge terms (pseudo-relevance feedback reads them). */
    readonly feedback: string[],
    /** How many of `feedback` come from the name and description (the rest are bridge terms). */
    private readonly ownTerms: number,
    /** The analysis snapshot's key of this version (`SkillService.analysisKey`), once made. */
    public analysisKey?: string,
  ) {}

  /**
   * The skill as routing reads it: its own description (sentences naming other skills dropped) and
   * body (lines naming other skills blanked), its own hash.
   * The same object on each call; its body is made again on each read from the document's, which
   * a skill read from the parse snapshot reads from the file each time (node/parseSnapshot.ts): a
   * pair scan meets every skill, and keeping each own body would hold most of the library's text.
   */
  get routing(): SkillDoc {
    if (this.own) return this.own;
    if (!this.mentions.length) return (this.own = this.doc);
    const doc = this.doc;
    let lines: number[] | undefined;
    let description: string | undefined;
    const own = {} as SkillDoc;
    const get = () => {
      const body = doc.body;
      return blankLines(body, (lines ??= mentionLines(body, this.mentions)));
    };
    const set = (value: string) => Object.defineProperty(own, 'body', { value, writable: true, enumerable: true, configurable: true });
    // Copied by property descriptors: a spread would read (decode) every field.
    return (this.own = Object.defineProperties(own, {
      ...Object.getOwnPropertyDescriptors(doc),
      body: { get, set, enumerable: true, configurable: true },
      // Made when first read (a description is small: kept once made).
      description: { get: () => (description ??= ownDescription(doc.description, this.mentions)), set: (value: string) => (description = value), enumerable: true, configurable: true },
      hash: { value: this.routingHash, writable: true, enumerable: true, configurable: true },
    }));
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
