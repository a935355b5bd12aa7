import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { HnswIndex } from '../../src/node/hnswIndex';
import { BruteForceIndex } from '../../src/core/route/denseStore';

function rng(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) - 0.5;
}

function unit(r: () => number, d: number) {
  const v = Float32Array.from({ length: d }, r);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

describe('HnswIndex', () => {
  const d = 32;
  const r = rng(7);
  const data = Array.from({ length: 3000 }, () => unit(r, d));
  const queries = Array.from({ length: 30 }, () => unit(r, d));

  it('matches exact search (recall@20 >= 0.95) once above the threshold, and honours removal', () => {
    const exact = new BruteForceIndex();
    const ann = new HnswIndex(d, { exactBelow: 1000 });
    data.forEach((v, i) => {
      exact.upsert(i, v);
      ann.upsert(i, v);
    });
    let found = 0;
    for (const q of queries) {
      const truth = new Set(exact.search(q, 20).map((h) => h.key));
      const got = ann.search(q, 20);
      found += got.filter((h) => truth.has(h.key)).length;
      assert.ok(Math.abs(got[0].score - exact.search(q, 1)[0].score) < 1e-3 || !truth.has(got[0].key));
    }
    assert.ok(ann.approximate);
    assert.ok(found / (queries.length * 20) >= 0.95, `recall ${found / 600}`);
    const top = ann.search(queries[0], 1)[0].key;
    ann.remove(top);
    assert.notEqual(ann.search(queries[0], 1)[0].key, top);
  });

  it('stays exact below the threshold', () => {
    const ann = new HnswIndex(d);
    data.slice(0, 100).forEach((v, i) => ann.upsert(i, v));
    ann.search(queries[0], 5);
    assert.equal(ann.approximate, false);
  });

  it('persists the graph under its signature and reloads it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sr-hnsw-'));
    try {
      const a = new HnswIndex(d, { exactBelow: 1000, dir });
      data.forEach((v, i) => a.upsert(i, v));
      await a.prepare('sig1');
      assert.deepEqual(readdirSync(dir).sort(), ['hnsw-sig1.bin', 'hnsw-sig1.bin.sha256']);
      const b = new HnswIndex(d, { exactBelow: 1000, dir });
      data.forEach((v, i) => b.upsert(i, v));
      await b.prepare('sig1');
      assert.ok(b.approximate);
      assert.deepEqual(b.search(queries[1], 5).map((h) => h.key), a.search(queries[1], 5).map((h) => h.key));
      const c = new HnswIndex(d, { exactBelow: 1000, dir });
      data.forEach((v, i) => c.upsert(i, v));
      await c.prepare('sig2');
      assert.deepEqual(readdirSync(dir).sort(), ['hnsw-sig2.bin', 'hnsw-sig2.bin.sha256'], 'the stale graph is replaced');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
