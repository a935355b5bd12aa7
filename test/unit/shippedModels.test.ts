/**
 * The shipped background statistics and reranker were built with this build's analysis: an
 * analyser change (a new split, a stop word, ANALYSIS_VERSION) changes every term they count or
 * read, and they must be rebuilt with it (`node out/bench/buildBackground.js`, then
 * `node out/bench/trainReranker.js`; each has `--check`). Twice the analysis changed and the
 * shipped files did not (docs/retrieval-log.md §27).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { analysisTag } from '../../src/core/index/caches';

const ROOT = path.resolve(__dirname, '../../..');

describe('shipped models', () => {
  for (const model of ['background', 'reranker']) {
    it(`${model}: built with this build's analysis`, () => {
      const manifest = JSON.parse(readFileSync(path.join(ROOT, 'models', model, 'manifest.json'), 'utf8')) as { analysis?: string };
      assert.equal(
        manifest.analysis,
        analysisTag(),
        `models/${model} was built with analysis ${manifest.analysis}; this build analyses as ${analysisTag()}: rebuild it (node out/bench/buildBackground.js, then node out/bench/trainReranker.js)`,
      );
    });
  }
});
