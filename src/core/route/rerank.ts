/**
 * The built-in reranker over the fused top candidates: deterministic, no model. It rewards
 * evidence a bi-encoder and bag-of-words scoring miss: the request naming the skill, and the
 * request covering the skill's name and description words.
 */
import type { SkillDoc } from '../service';
import { analyze, type Segmenter } from '../text/analyze';

export interface RerankInput {
  id: string;
  fused: number;
}

export const RERANK_WEIGHTS = { fused: 1, nameMention: 0.25, nameCoverage: 0.1, descriptionCoverage: 0.15 };

export function builtinRerank(
  queryTerms: string[],
  head: RerankInput[],
  docOf: (id: string) => SkillDoc,
  segmenter?: Segmenter,
): Map<string, number> {
  const q = new Set(queryTerms);
  const out = new Map<string, number>();
  for (const c of head) {
    const doc = docOf(c.id);
    const nameTerms = [...new Set(analyze(doc.name.replace(/[-_]/g, ' '), { segmenter }))];
    const nameHits = nameTerms.filter((t) => q.has(t)).length;
    const nameCoverage = nameTerms.length ? nameHits / nameTerms.length : 0;
    // The whole name (two or more words) appearing in the request is a near-certain signal.
    const nameMention = nameTerms.length >= 2 && nameHits === nameTerms.length ? 1 : 0;
    const descTerms = new Set(analyze(doc.description, { segmenter }));
    let descHits = 0;
    for (const t of descTerms) if (q.has(t)) descHits++;
    const descriptionCoverage = descTerms.size ? descHits / Math.sqrt(descTerms.size * Math.max(q.size, 1)) : 0;
    out.set(
      c.id,
      RERANK_WEIGHTS.fused * c.fused +
        RERANK_WEIGHTS.nameMention * nameMention +
        RERANK_WEIGHTS.nameCoverage * nameCoverage +
        RERANK_WEIGHTS.descriptionCoverage * descriptionCoverage,
    );
  }
  return out;
}
