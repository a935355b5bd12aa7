// A trained query adapter through openLibrary with a real ONNX encoder (the tiny-bert fixture
// stands in for a user's model): found in the model folder's adapter/, named in results, applied
// to requests only; a missing or mismatched adapter is a warning and changes nothing.
import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adaptQuery, adapterId, type QueryAdapter } from '../../src/core/route/queryAdapter';
import { dot } from '../../src/core/route/denseStore';
import { prng } from '../../src/core/route/rerankTraining';
import type { Logger } from '../../src/core/types';
import { describeRouter, openLibrary, type OpenLibraryOptions } from '../../src/node/library';
import { OnnxEmbedder } from '../../src/node/onnxEmbedder';
import { writeAdapter } from '../../src/node/queryAdapterFile';

const BERT = join(__dirname, '../../../test/fixtures/models/tiny-bert');
const QUERY = 'extract the tables from a scanned pdf invoice';

function capture(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debug() {}, info() {}, warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) };
}

describe('a trained query adapter through openLibrary', function () {
  let root: string;
  let model: string;
  let adapter: QueryAdapter;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'sr-qa-lib-'));
    for (const [name, description] of [
      ['pdf-extract', 'extract text and tables from a scanned pdf invoice'],
      ['email-summary', 'summarize an email and send a short reply'],
    ]) {
      mkdirSync(join(root, name));
      writeFileSync(join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n`);
    }
    model = mkdtempSync(join(tmpdir(), 'sr-qa-model-'));
    cpSync(BERT, model, { recursive: true });
    const rand = prng(21);
    adapter = { base: 'tiny-bert@1', dims: 32, matrix: Float32Array.from({ length: 32 * 32 }, () => rand() - 0.5) };
    writeAdapter(join(model, 'adapter'), adapter, adapterId(adapter), {});
  });

  after(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(model, { recursive: true, force: true });
  });

  async function dense(opts: { adapterDir?: string | null }, log = capture()) {
    const cacheDir = mkdtempSync(join(tmpdir(), 'sr-qa-cache-'));
    const svc = await openLibrary({ root, modelDir: model, cacheDir, logger: log, ...opts });
    try {
      const stats = await svc.index();
      const r = await svc.route(QUERY, { k: 2 });
      return { stats, r, score: r.candidates.find((c) => c.skillId === 'pdf-extract')!.scores.dense!, log };
    } finally {
      await svc.dispose();
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }

  it('uses the model folder\'s adapter for requests and names it; skill vectors stay the encoder\'s', async () => {
    const { stats, r, score, log } = await dense({});
    const name = `tiny-bert@1 + ${adapterId(adapter)}`;
    assert.equal(stats.model, name);
    assert.deepEqual(r.dense, { model: name });
    assert.deepEqual(log.warnings, []);
    const enc = await OnnxEmbedder.load(model);
    try {
      const [q] = await enc.embed([QUERY], 'query');
      const [p] = await enc.embed(['pdf extract: extract text and tables from a scanned pdf invoice'], 'passage');
      assert.ok(Math.abs(score - dot(adaptQuery(adapter, q), p)) < 1e-4, `${score} vs adapted ${dot(adaptQuery(adapter, q), p)}`);
      assert.ok(Math.abs(dot(adaptQuery(adapter, q), p) - dot(q, p)) > 1e-3, 'the adapter changes the cosine');
      const off = await dense({ adapterDir: null });
      assert.equal(off.stats.model, 'tiny-bert@1');
      assert.ok(Math.abs(off.score - dot(q, p)) < 1e-4, `--no-adapter: ${off.score} vs ${dot(q, p)}`);
    } finally {
      await enc.dispose();
    }
  });

  it('warns and embeds requests as the encoder makes them when the named adapter is missing or for another encoder', async () => {
    const missing = await dense({ adapterDir: join(model, 'nowhere') });
    assert.equal(missing.stats.model, 'tiny-bert@1');
    assert.match(missing.log.warnings.join('\n'), /no query adapter in .*nowhere \(no manifest\.json\)/);
    const other = join(model, 'other-adapter');
    writeAdapter(other, { ...adapter, base: 'use-lite-en@1' }, 'qa-other', {});
    const mismatched = await dense({ adapterDir: other });
    assert.equal(mismatched.stats.model, 'tiny-bert@1');
    assert.match(mismatched.log.warnings.join('\n'), /not used: it was trained over use-lite-en@1, the encoder is tiny-bert@1; train one for this encoder/);
  });

  it('describeRouter tells the router openLibrary builds from the files alone: model, adapter, none', async () => {
    const other = join(model, 'other-adapter-2');
    writeAdapter(other, { ...adapter, base: 'use-lite-en@1' }, 'qa-other', {});
    const cases: Partial<OpenLibraryOptions>[] = [{}, { adapterDir: null }, { adapterDir: other }, { noModel: true }, { settings: { rerankDepth: 12 } }];
    const seen = new Set<string>();
    for (const opts of cases) {
      const cacheDir = mkdtempSync(join(tmpdir(), 'sr-qa-cache-'));
      const full = { root, modelDir: model, cacheDir, logger: capture(), ...opts };
      const svc = await openLibrary(full);
      try {
        await svc.index();
        assert.deepEqual(describeRouter(full), svc.pipeline.identity, JSON.stringify(opts));
        seen.add(JSON.stringify(svc.pipeline.identity));
      } finally {
        await svc.dispose();
        rmSync(cacheDir, { recursive: true, force: true });
      }
    }
    assert.equal(seen.size, 4, 'with and without the adapter, without a model and with other settings: four routers (the mismatched adapter is not used)');
    assert.equal(describeRouter({ root, rerankerDir: model }), null, 'a cross-encoder is told by loading it');
  });
});
