/**
 * The pseudo-requests a library's own text gives (src/core/route/rerankTraining.ts), with the
 * Chinese-English bridge both ways when the dictionary is there: what the reranker
 * (bench/trainReranker.ts) and the query adapter (bench/trainAdapter.ts) are trained on.
 */
import { SkillProfiles } from '../src/core/analysis/conflicts';
import { DEFAULT_PSEUDO, pseudoRequests, type PseudoRequest } from '../src/core/route/rerankTraining';
import { analyse } from '../src/core/text/analyse';
import { headings } from '../src/core/text/passages';
import { ReverseBridge } from '../src/core/text/reverseBridge';
import { Translator } from '../src/core/text/translator';
import type { SkillDoc } from '../src/core/types';
import { cedictDictionary } from '../src/node/cedictDictionary';
import { jiebaSegmenter } from '../src/node/jiebaSegmenter';

export function trainingRequests(docs: readonly SkillDoc[], seed: number, log: (msg: string) => void): PseudoRequest[] {
  const segmenter = jiebaSegmenter();
  // Requests come from the library text alone (TF-IDF profiles), so they do not depend on the model.
  const profiles = new SkillProfiles(docs, (t) => analyse(t, { segmenter }));
  let translate: ((text: string) => string | null) | undefined;
  try {
    const translator = new Translator(cedictDictionary());
    translate = (text) => translator.translate(text).text;
  } catch (err) {
    log(`no Chinese-English bridge (${(err as Error).message}); no cross-language requests`);
  }
  let toChinese: ((text: string) => string | null) | undefined;
  if (translate) {
    // Which Chinese word the library's own Chinese uses for an English one (descriptions and headings).
    const df = new Map<string, number>();
    for (const doc of docs) {
      if (doc.lang !== 'zh') continue;
      for (const t of new Set(analyse(`${doc.description}\n${headings(doc.body).join('\n')}`, { segmenter }))) df.set(t, (df.get(t) ?? 0) + 1);
    }
    const reverse = new ReverseBridge(cedictDictionary().headwords(), (w) => df.get(w) ?? 0);
    toChinese = (text) => reverse.translate(text);
  }
  return pseudoRequests(docs, profiles, { ...DEFAULT_PSEUDO, seed, translate, toChinese });
}
