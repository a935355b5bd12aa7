/**
 * What the Chinese-English bridge costs: dictionary load time and memory, lexical indexing with
 * and without bridge fields, and per-request bridge time. Prints a Markdown table. Not pass/fail.
 *
 *   node esbuild.mjs --bench && node --expose-gc out/bench/bridgeCost.js [--library DIR] [--queries FILE]
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { decodeSkillBytes, parseSkill } from '../src/core/parse/skillDoc';
import type { SkillDoc } from '../src/core/types';
import { LexicalIndex } from '../src/core/index/lexicalIndex';
import { Translator } from '../src/core/text/translator';
import { analyseRequest, libraryAssociation, libraryFamiliarity } from '../src/core/route/request';
import { DEFAULT_FIRST_STAGE } from '../src/core/route/settings';
import { lexicalFields, type TextContext } from '../src/core/route/skillText';
import { hasCjk } from '../src/core/text/analyse';
import { parseQueries } from '../src/core/eval/queries';
import { FsWorkspace } from '../src/node/fsWorkspace';
import { jiebaSegmenter } from '../src/node/jiebaSegmenter';
import { CedictDictionary } from '../src/node/cedictDictionary';

const { values } = parseArgs({
  options: {
    library: { type: 'string', default: path.resolve('../shared/corpus/skills') },
    queries: { type: 'string', default: path.resolve('../shared/queries/dev.jsonl') },
  },
});

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const heapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 1e6;
};

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
}

async function main() {
  const ws = new FsWorkspace(values.library!);
  const docs: SkillDoc[] = [];
  for (const ref of (await ws.list()).files) {
    const decoded = decodeSkillBytes(await ws.read(ref));
    const { text } = decoded;
    docs.push(parseSkill(ref, text, ['spec'], decoded));
  }
  const queries = parseQueries(readFileSync(values.queries!, 'utf8'), values.queries).map((q) => q.query);
  const segmenter = jiebaSegmenter();

  const h0 = heapMb();
  let t = performance.now();
  const dict = CedictDictionary.load();
  const loadMs = performance.now() - t;
  const dictMb = heapMb() - h0;

  const indexWith = (ctx: TextContext) => {
    const before = heapMb();
    const ix = new LexicalIndex();
    const start = performance.now();
    for (const d of docs) ix.upsert(d.id, lexicalFields(d, ctx));
    const ms = performance.now() - start;
    return { ix, ms, mb: heapMb() - before };
  };
  // Warm the analysis caches once so both runs compare like with like.
  indexWith({ segmenter });
  const plain = indexWith({ segmenter });
  const translator = new Translator(dict);
  const bridged = indexWith({ segmenter, translator });

  // The request analysis with the bridge of `ctx` (none without a translator), then the search.
  const times = (ctx: TextContext, ix: LexicalIndex) =>
    queries.map((q) => {
      const start = performance.now();
      const req = analyseRequest(q, ix, DEFAULT_FIRST_STAGE, ctx);
      ix.search(req.weights, undefined, req.translated);
      return performance.now() - start;
    });
  // The bridge alone on the Chinese requests: senses weighed by the dictionary and the library's
  // vocabulary, then also fitted to the request's other words. The first pass after an index
  // change builds the skill sets of the senses it meets (kept until the next change).
  const zhQueries = queries.filter((q) => hasCjk(q));
  const bridgeTimes = (fit: boolean) =>
    zhQueries.map((q) => {
      const start = performance.now();
      translator.translate(q, libraryFamiliarity(bridged.ix), fit ? libraryAssociation(bridged.ix, segmenter) : undefined);
      return performance.now() - start;
    });
  const beforeSets = heapMb();
  const fitCold = bridgeTimes(true);
  const setsMb = heapMb() - beforeSets;
  const noFit = bridgeTimes(false);
  const fitWarm = bridgeTimes(true);
  times({ segmenter, translator }, bridged.ix);
  const qPlain = times({ segmenter }, plain.ix);
  const qBridge = times({ segmenter, translator }, bridged.ix);
  const zh = docs.filter((d) => /[\u3400-\u9fff]/.test(d.description)).length;

  console.log(`| what | value |\n|---|--:|`);
  console.log(`| CC-CEDICT load (read + JSON.parse + index) | ${Math.round(loadMs)} ms |`);
  console.log(`| dictionary heap after load | ${dictMb.toFixed(0)} MB (${dict.size} headwords) |`);
  console.log(`| lexical index, ${docs.length} skills, no bridge | ${Math.round(plain.ms)} ms, ${plain.mb.toFixed(0)} MB heap |`);
  console.log(`| lexical index with bridge fields (${zh} Chinese skills) | ${Math.round(bridged.ms)} ms, ${bridged.mb.toFixed(0)} MB heap |`);
  console.log(`| lexical query p50 / p95, no bridge | ${pct(qPlain, 50).toFixed(1)} / ${pct(qPlain, 95).toFixed(1)} ms |`);
  console.log(`| lexical query p50 / p95, with bridge | ${pct(qBridge, 50).toFixed(1)} / ${pct(qBridge, 95).toFixed(1)} ms |`);
  const p = (xs: number[]) => `${pct(xs, 50).toFixed(1)} / ${pct(xs, 95).toFixed(1)} ms`;
  console.log(`| bridging a Chinese request (${zhQueries.length}) p50 / p95, senses by dictionary and library vocabulary | ${p(noFit)} |`);
  console.log(`| ... and fitted to the request's other words (first pass after an index change) | ${p(fitCold)} (+${setsMb.toFixed(1)} MB heap of skill sets) |`);
  console.log(`| ... and fitted, later requests | ${p(fitWarm)} |`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
