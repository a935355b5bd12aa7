import { strict as assert } from 'node:assert';
import { bestK, BruteForceIndex } from '../../src/core/route/denseStore';
import { prng } from '../../src/core/route/rerankTraining';

describe('exact dense search', () => {
  it('bestK gives the k highest scores, highest first, ties in index order, as a stable full sort', () => {
    const rand = prng(11);
    for (let trial = 0; trial < 200; trial++) {
      // Few distinct values, so that ties are common.
      const scores = Array.from({ length: Math.floor(rand() * 400) }, () => Math.floor(rand() * 9) / 8 - 0.5);
      const sorted = scores.map((s, i) => ({ s, i })).sort((a, b) => b.s - a.s).map((x) => x.i);
      for (const k of [0, 1, 7, 60, 1000]) assert.deepEqual(bestK(scores, k), sorted.slice(0, k), `trial ${trial}, k ${k}`);
    }
  });

  it('BruteForceIndex ranks vectors by cosine with the request and returns at most k', () => {
    const index = new BruteForceIndex();
    const unit = (...xs: number[]) => {
      const n = Math.hypot(...xs);
      return Float32Array.from(xs, (x) => x / n);
    };
    index.upsert(10, unit(1, 0, 0));
    index.upsert(11, unit(0, 1, 0));
    index.upsert(12, unit(1, 1, 0));
    index.upsert(13, unit(1, 1, 0)); // the same vector: ties keep insertion order
    const hits = index.search(unit(1, 0.2, 0), 3);
    assert.deepEqual(hits.map((h) => h.key), [10, 12, 13]);
    assert.ok(hits[0].score > hits[1].score && hits[1].score === hits[2].score);
    index.remove(10);
    assert.deepEqual(index.search(unit(1, 0.2, 0), 10).map((h) => h.key), [12, 13, 11]);
  });
});
