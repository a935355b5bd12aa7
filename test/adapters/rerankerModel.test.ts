// The shipped reranker file, a user cross-encoder through the same rerank stage, and (opt-in,
// slow) that retraining from the corpus reproduces the shipped weights.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkModel, type RerankerModel } from '../../src/core/route/rerank';
import { CONTEXT_FEATURES, POINT_FEATURES } from '../../src/core/route/rerankFeatures';
import { openLibrary } from '../../src/node/library';

const ROOT = join(__dirname, '../../..');
const MODEL = join(ROOT, 'models/reranker');
const CROSS = join(ROOT, 'test/fixtures/models/tiny-cross');
const CORPUS = join(ROOT, '../shared/corpus/skills');

describe('shipped reranker', () => {
  it('is a small file that its manifest describes', () => {
    const text = readFileSync(join(MODEL, 'weights.json'), 'utf8');
    const manifest = JSON.parse(readFileSync(join(MODEL, 'manifest.json'), 'utf8'));
    assert.equal(manifest.sha256, createHash('sha256').update(text).digest('hex'), 'manifest.json matches weights.json');
    assert.equal(manifest.bytes, Buffer.byteLength(text));
    assert.ok(manifest.bytes < 32_000, `${manifest.bytes} bytes`);
    const model = checkModel(JSON.parse(text) as RerankerModel);
    assert.equal(manifest.id, model.id);
    assert.equal(manifest.pointFeatures, POINT_FEATURES.length);
    assert.equal(manifest.contextFeatures, CONTEXT_FEATURES.length);
    assert.equal(model.training.seed, 7);
  });

  it('a user cross-encoder folder plugs into the same rerank stage, set selection included', async function () {
    this.timeout(60_000);
    const svc = await openLibrary({ root: join(ROOT, 'examples/library'), noModel: true, rerankerDir: CROSS, noBridge: true });
    try {
      await svc.index();
      const r = await svc.route('extract the text and tables from a scanned PDF invoice', { k: 5 });
      assert.equal(r.reranker, 'tiny-cross@1');
      assert.ok(r.candidates.length > 0);
      for (const c of r.candidates) assert.ok(c.scores.rerank !== null && c.scores.rerank > 0 && c.scores.rerank < 1, 'sigmoid of the logit');
      assert.ok(r.set && r.set.ids[0] === r.candidates[0].skillId);
      const plain = await svc.route('extract the text and tables from a scanned PDF invoice', { k: 5, rerank: false });
      assert.equal(plain.reranker, undefined);
    } finally {
      await svc.dispose();
    }
  });

  // Minutes of CPU: run with SKILL_ROUTER_RETRAIN=1 (after `node esbuild.mjs --bench`, with the real
  // libraries built under bench/realsuites by `node bench/realsuites/convert.mjs`).
  it('retraining from the corpus reproduces the shipped weights', function () {
    if (!process.env.SKILL_ROUTER_RETRAIN || !existsSync(CORPUS)) this.skip();
    this.timeout(3_600_000);
    const run = spawnSync(process.execPath, [join(ROOT, 'out/bench/trainReranker.js'), '--check', '--quiet', '--library', CORPUS], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /largest weight difference from the shipped model/);
  });
});
