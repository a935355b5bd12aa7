import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CancelledError, type CancelToken, type Logger } from '../../src/core/types';
import { ModelLoadError, TextTokenizer, readManifest } from '../../src/node/modelFolder';
import type { ModelManifest } from '../../src/node/modelManifest';
import { OnnxCrossEncoder } from '../../src/node/onnxCrossEncoder';
import { OnnxEmbedder } from '../../src/node/onnxEmbedder';

const FIXTURES = join(__dirname, '../../../test/fixtures/models');
const BERT = join(FIXTURES, 'tiny-bert');
const CROSS = join(FIXTURES, 'tiny-cross');
const DECODER = join(FIXTURES, 'tiny-decoder');
const POOLED = join(FIXTURES, 'tiny-pooled');
const TOLERANCE = 1e-4;

interface BertGolden {
  maxTokens: number;
  longText: string;
  tokens: { text: string; ids: number[] }[];
  embeddings: { text: string; kind: 'query' | 'passage'; ids: number[]; mean: number[]; cls: number[]; 'last-token': number[]; meanRaw: number[] }[];
}
interface CrossGolden {
  maxTokens: number;
  padTokenId: number;
  queries: string[];
  passages: string[];
  pairs: { query: string; passage: string; ids: number[]; typeIds: number[]; logits: number[]; pairLogits: number[] }[];
}
interface DecoderGolden {
  padTokenId: number;
  embeddings: { text: string; kind: 'query' | 'passage'; ids: number[]; 'last-token': number[] }[];
}
interface PooledGolden {
  embeddings: { text: string; ids: number[]; idsWithoutCollapse: number[]; vector: number[] }[];
}

function golden<T>(folder: string): T {
  return JSON.parse(readFileSync(join(folder, 'golden.json'), 'utf8')) as T;
}

function assertClose(actual: ArrayLike<number>, expected: ArrayLike<number>, what: string, tolerance = TOLERANCE): void {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) {
    assert.ok(Math.abs(actual[i] - expected[i]) <= tolerance, `${what}[${i}]: ${actual[i]} vs ${expected[i]}`);
  }
}

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

const scratch: string[] = [];

/** A copy of a fixture folder whose manifest `edit` may change; removed after the suite. */
function copyFixture(folder: string, edit?: (m: ModelManifest & Record<string, unknown>) => void, under?: string): string {
  const root = mkdtempSync(join(tmpdir(), 'skill-router-onnx-'));
  scratch.push(root);
  const target = under ? join(root, under) : join(root, 'model');
  mkdirSync(join(target, '..'), { recursive: true });
  cpSync(folder, target, { recursive: true });
  if (edit) {
    const file = join(target, 'manifest.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as ModelManifest & Record<string, unknown>;
    edit(manifest);
    writeFileSync(file, JSON.stringify(manifest, null, 2));
  }
  return target;
}

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} };
}

async function loadError(load: () => Promise<unknown>): Promise<ModelLoadError> {
  try {
    await load();
  } catch (err) {
    assert.ok(err instanceof ModelLoadError, `expected a ModelLoadError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the load to fail');
}

describe('onnx models (OnnxEmbedder, OnnxCrossEncoder)', () => {
  after(() => {
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  });

  describe('tokenizer', () => {
    const bert = golden<BertGolden>(BERT);

    it('gives the golden ids, with [CLS]/[SEP], accents stripped, [UNK] and truncation at maxTokens', async () => {
      const tokenizer = await TextTokenizer.load(join(BERT, 'tokenizer.json'), bert.maxTokens, undefined);
      for (const { text, ids } of bert.tokens) assert.deepEqual(tokenizer.encode(text).ids, ids, text);
      const long = tokenizer.encode(bert.longText).ids;
      assert.equal(long.length, bert.maxTokens);
      assert.equal(long[long.length - 1], 3, 'the truncated text still ends with [SEP]');
    });

    it('encodes pairs with type ids and cuts the longer side first', async () => {
      const g = golden<CrossGolden>(CROSS);
      const tokenizer = await TextTokenizer.load(join(CROSS, 'tokenizer.json'), g.maxTokens, undefined);
      for (const pair of g.pairs) {
        const encoded = tokenizer.encodePair(pair.query, pair.passage);
        assert.deepEqual(encoded.ids, pair.ids, `${pair.query} | ${pair.passage}`);
        assert.deepEqual(encoded.typeIds, pair.typeIds, `${pair.query} | ${pair.passage}`);
      }
      assert.ok(g.pairs.some((p) => p.ids.length === g.maxTokens), 'some golden pair was truncated');
    });

    it("takes the pad id from tokenizer.json's padding, and the manifest's padTokenId over it", async () => {
      const cross = golden<CrossGolden>(CROSS);
      const decoder = golden<DecoderGolden>(DECODER);
      assert.equal((await TextTokenizer.load(join(CROSS, 'tokenizer.json'), 8, undefined)).padTokenId, cross.padTokenId);
      assert.equal((await TextTokenizer.load(join(DECODER, 'tokenizer.json'), 8, undefined)).padTokenId, decoder.padTokenId);
      assert.equal((await TextTokenizer.load(join(BERT, 'tokenizer.json'), 8, undefined)).padTokenId, 0);
      assert.equal((await TextTokenizer.load(join(CROSS, 'tokenizer.json'), 8, 7)).padTokenId, 7);
    });
  });

  describe('OnnxEmbedder', () => {
    const g = golden<BertGolden>(BERT);
    let mean: OnnxEmbedder;
    before(async () => {
      mean = await OnnxEmbedder.load(BERT, { threads: 1 });
    });
    after(async () => {
      await mean.dispose();
    });

    it('reports id, dims and maxTokens from the manifest', () => {
      assert.deepEqual(mean.info, { id: 'tiny-bert@1', dims: 32, maxTokens: g.maxTokens });
    });

    for (const kind of ['query', 'passage'] as const) {
      it(`mean pooling matches the torch vectors (${kind}, with its prefix)`, async () => {
        const cases = g.embeddings.filter((e) => e.kind === kind);
        const vectors = await mean.embed(cases.map((c) => c.text), kind);
        cases.forEach((c, i) => assertClose(vectors[i], c.mean, c.text));
      });
    }

    it('cls and last-token pooling match the torch vectors', async () => {
      for (const pooling of ['cls', 'last-token'] as const) {
        const embedder = await OnnxEmbedder.load(copyFixture(BERT, (m) => (m.pooling = pooling)));
        try {
          const cases = g.embeddings.filter((e) => e.kind === 'passage');
          const vectors = await embedder.embed(cases.map((c) => c.text), 'passage');
          cases.forEach((c, i) => assertClose(vectors[i], c[pooling], `${pooling}: ${c.text}`));
        } finally {
          await embedder.dispose();
        }
      }
    });

    it('leaves vectors unnormalised when normalize is false', async () => {
      const embedder = await OnnxEmbedder.load(copyFixture(BERT, (m) => (m.normalize = false)));
      try {
        const c = g.embeddings.find((e) => e.kind === 'passage')!;
        const [vector] = await embedder.embed([c.text], 'passage');
        assertClose(vector, c.meanRaw, c.text);
        assert.ok(Math.abs(Math.hypot(...vector) - 1) > 0.01, 'the raw mean is not unit length');
      } finally {
        await embedder.dispose();
      }
    });

    it('returns unit vectors', async () => {
      const vectors = await mean.embed(g.tokens.map((t) => t.text), 'passage');
      for (const v of vectors) assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
    });

    it('truncates at maxTokens: a long text embeds as its prefix that fills the window', async () => {
      // "passage: " takes 2 tokens and [CLS]/[SEP] 2, so 12 one-token words fill the 16.
      const words = g.longText.split(' ');
      const [long, fits, shorter] = await mean.embed(
        [g.longText, words.slice(0, 12).join(' '), words.slice(0, 11).join(' ')],
        'passage',
      );
      assertClose(long, fits, 'long vs 12-word prefix', 1e-6);
      assert.ok(maxDiff(long, shorter) > 1e-3, 'one word fewer changes the vector');
    });

    it('is padding invariant: a text alone and next to a longer one embed the same', async () => {
      for (const folder of [BERT, DECODER, POOLED]) {
        const embedder = folder === BERT ? mean : await OnnxEmbedder.load(folder);
        try {
          const [alone] = await embedder.embed(['resize images'], 'passage');
          const [batched, other] = await embedder.embed(['resize images', g.longText], 'passage');
          assertClose(batched, alone, `${folder}: batched vs alone`, 1e-5);
          assert.ok(maxDiff(alone, other) > 1e-3, 'the two texts differ');
        } finally {
          if (embedder !== mean) await embedder.dispose();
        }
      }
    });

    it('gives the same vectors whatever the batch size', async () => {
      const texts = g.tokens.map((t) => t.text);
      const small = await OnnxEmbedder.load(BERT, { batchSize: 2 });
      try {
        const a = await small.embed(texts, 'query');
        const b = await mean.embed(texts, 'query');
        a.forEach((v, i) => assertClose(v, b[i], texts[i], 1e-5));
      } finally {
        await small.dispose();
      }
    });

    it('prefixes make query and passage vectors of one text differ', async () => {
      const text = 'resize images';
      const [query] = await mean.embed([text], 'query');
      const [passage] = await mean.embed([text], 'passage');
      assert.ok(maxDiff(query, passage) > 1e-3);
      const plain = await OnnxEmbedder.load(copyFixture(BERT, (m) => {
        delete m.queryPrefix;
        delete m.passagePrefix;
      }));
      try {
        const [q, p] = [(await plain.embed([text], 'query'))[0], (await plain.embed([text], 'passage'))[0]];
        assertClose(q, p, 'without prefixes the kinds agree', 1e-6);
      } finally {
        await plain.dispose();
      }
    });

    it('last-token pooling on a decoder with position_ids and an instruction prefix matches torch', async () => {
      const d = golden<DecoderGolden>(DECODER);
      const embedder = await OnnxEmbedder.load(DECODER, { batchSize: 3 });
      try {
        for (const kind of ['query', 'passage'] as const) {
          const cases = d.embeddings.filter((e) => e.kind === kind);
          const vectors = await embedder.embed(cases.map((c) => c.text), kind);
          cases.forEach((c, i) => assertClose(vectors[i], c['last-token'], `${kind}: ${c.text}`));
        }
      } finally {
        await embedder.dispose();
      }
    });

    it('loads a USE-lite-like folder: pooling none, no special tokens, no token_type_ids, whitespace collapsed', async () => {
      const p = golden<PooledGolden>(POOLED);
      const tokenizer = await TextTokenizer.load(join(POOLED, 'tokenizer.json'), 12, undefined);
      for (const c of p.embeddings) assert.deepEqual(tokenizer.encode(c.text).ids, c.idsWithoutCollapse, c.text);
      const embedder = await OnnxEmbedder.load(POOLED);
      try {
        assert.equal(embedder.info.dims, 24);
        const vectors = await embedder.embed(p.embeddings.map((c) => c.text), 'passage');
        p.embeddings.forEach((c, i) => assertClose(vectors[i], c.vector, JSON.stringify(c.text)));
        const [spaced, lines] = await embedder.embed(['resize images', 'resize\n\nimages'], 'query');
        assertClose(lines, spaced, 'newlines collapse to a space', 1e-6);
      } finally {
        await embedder.dispose();
      }
      const raw = await OnnxEmbedder.load(copyFixture(POOLED, (m) => (m.collapseWhitespace = false)));
      try {
        const [spaced, lines] = await raw.embed(['resize images', 'resize\n\nimages'], 'query');
        assert.ok(maxDiff(spaced, lines) > 1e-3, 'without collapsing, the newline text reads as unknown');
      } finally {
        await raw.dispose();
      }
    });

    it('gives a zero vector to a text with no tokens', async () => {
      const embedder = await OnnxEmbedder.load(POOLED);
      try {
        const [empty, text] = await embedder.embed(['   ', 'resize images'], 'passage');
        assert.ok(empty.every((v) => v === 0));
        assert.ok(Math.abs(Math.hypot(...text) - 1) < 1e-5);
      } finally {
        await embedder.dispose();
      }
    });

    it('throws CancelledError between batches', async () => {
      const embedder = await OnnxEmbedder.load(BERT, { batchSize: 1 });
      try {
        let checks = 0;
        const token: CancelToken = {
          get isCancellationRequested() {
            return ++checks > 1; // the first check passes, the one before the second batch does not
          },
        };
        await assert.rejects(embedder.embed(['resize images', 'email the team'], 'passage', token), CancelledError);
        assert.equal(checks, 2);
        await assert.rejects(embedder.embed(['a'], 'passage', { isCancellationRequested: true }), CancelledError);
      } finally {
        await embedder.dispose();
      }
    });

    it('releases the session on dispose', async () => {
      const embedder = await OnnxEmbedder.load(BERT);
      await embedder.dispose();
      await assert.rejects(embedder.embed(['resize images'], 'passage'), /disposed/);
      await embedder.dispose(); // twice is harmless
    });

    it("falls back to the CPU with a warning when device 'cuda' cannot start", async () => {
      const logger = recordingLogger();
      const embedder = await OnnxEmbedder.load(BERT, { device: 'cuda', logger });
      try {
        assert.equal(logger.warnings.length, 1, logger.warnings.join('\n'));
        assert.match(logger.warnings[0], /tiny-bert@1: cannot use cuda \(.+\); falling back to the CPU/);
        const c = g.embeddings.find((e) => e.kind === 'query')!;
        assertClose((await embedder.embed([c.text], 'query'))[0], c.mean, c.text);
      } finally {
        await embedder.dispose();
      }
    });
  });

  describe('OnnxCrossEncoder', () => {
    const g = golden<CrossGolden>(CROSS);

    it('scores every pair with the golden logit, across batches', async () => {
      const reranker = await OnnxCrossEncoder.load(CROSS, { batchSize: 3 });
      try {
        assert.equal(reranker.id, 'tiny-cross@1');
        for (const query of g.queries) {
          const scores = await reranker.score(query, g.passages);
          const expected = g.passages.map((p) => g.pairs.find((x) => x.query === query && x.passage === p)!.logits[0]);
          assertClose(scores, expected, query);
        }
      } finally {
        await reranker.dispose();
      }
    });

    it('reads the last of two logits per pair', async () => {
      const reranker = await OnnxCrossEncoder.load(copyFixture(CROSS, (m) => (m.output = 'pair_logits')));
      try {
        const query = g.queries[0];
        const scores = await reranker.score(query, g.passages);
        const expected = g.passages.map((p) => g.pairs.find((x) => x.query === query && x.passage === p)!.pairLogits[1]);
        assertClose(scores, expected, query);
      } finally {
        await reranker.dispose();
      }
    });

    it('throws CancelledError between batches', async () => {
      const reranker = await OnnxCrossEncoder.load(CROSS, { batchSize: 2 });
      try {
        let checks = 0;
        const token: CancelToken = {
          get isCancellationRequested() {
            return ++checks > 1;
          },
        };
        await assert.rejects(reranker.score('resize images', g.passages, token), CancelledError);
        assert.equal(checks, 2);
      } finally {
        await reranker.dispose();
      }
    });
  });

  describe('load errors', () => {
    it('reads a valid manifest', async () => {
      const manifest = await readManifest(BERT);
      assert.equal(manifest.id, 'tiny-bert@1');
      assert.equal(manifest.pooling, 'mean');
    });

    it('missing folder', async () => {
      const folder = join(FIXTURES, 'no-such-model');
      const err = await loadError(() => OnnxEmbedder.load(folder));
      assert.equal(err.file, folder);
      assert.match(err.message, /no-such-model: the model folder does not exist/);
    });

    it('missing manifest', async () => {
      const folder = copyFixture(BERT);
      rmSync(join(folder, 'manifest.json'));
      const err = await loadError(() => readManifest(folder));
      assert.equal(err.file, join(folder, 'manifest.json'));
      assert.match(err.message, /manifest\.json: is missing\. Write a manifest\.json/);
    });

    it('malformed manifest JSON', async () => {
      const folder = copyFixture(BERT);
      writeFileSync(join(folder, 'manifest.json'), '{ "id": "x", ');
      const err = await loadError(() => OnnxEmbedder.load(folder));
      assert.equal(err.file, join(folder, 'manifest.json'));
      assert.match(err.message, /is not valid JSON/);
    });

    it('a bad pooling value', async () => {
      const folder = copyFixture(BERT, (m) => ((m as Record<string, unknown>).pooling = 'max'));
      const err = await loadError(() => OnnxEmbedder.load(folder));
      assert.equal(err.file, join(folder, 'manifest.json'));
      assert.match(err.message, /field `pooling` must be one of none, mean, cls, last-token \(it is "max"\)/);
      assert.match(err.fix, /docs\/models\.md/);
    });

    it('other bad fields: maxTokens, sha256, inputs', async () => {
      const edits: [(m: Record<string, unknown>) => void, RegExp][] = [
        [(m) => (m.maxTokens = 0), /`maxTokens` must be a positive integer/],
        [(m) => (m.sha256 = { 'tokenizer.json': 'abc' }), /`sha256` must be/],
        [(m) => (m.inputs = { ids: 'input_ids', masks: 'attention_mask' }), /`inputs` must be/],
        [(m) => delete m.kind, /`kind` must be one of bi-encoder, cross-encoder \(it is missing\)/],
      ];
      for (const [edit, pattern] of edits) {
        const err = await loadError(() => readManifest(copyFixture(BERT, edit)));
        assert.match(err.message, pattern);
      }
    });

    it('missing onnx file', async () => {
      const folder = copyFixture(BERT);
      rmSync(join(folder, 'onnx', 'model.onnx'));
      const err = await loadError(() => OnnxEmbedder.load(folder));
      assert.equal(err.file, join(folder, 'onnx', 'model.onnx'));
      assert.match(err.message, /model\.onnx: is missing \(manifest\.json `onnx`\)\. Re-download the file/);
    });

    it('missing tokenizer file', async () => {
      const folder = copyFixture(CROSS);
      rmSync(join(folder, 'tokenizer.json'));
      const err = await loadError(() => OnnxCrossEncoder.load(folder));
      assert.equal(err.file, join(folder, 'tokenizer.json'));
      assert.match(err.message, /tokenizer\.json: is missing \(manifest\.json `tokenizer`\)/);
    });

    it('malformed tokenizer.json', async () => {
      const folder = copyFixture(CROSS, (m) => delete m.sha256);
      writeFileSync(join(folder, 'tokenizer.json'), '{"model": ');
      const err = await loadError(() => OnnxCrossEncoder.load(folder));
      assert.equal(err.file, join(folder, 'tokenizer.json'));
      assert.match(err.message, /is not valid JSON/);
    });

    it('truncated, corrupt onnx file that onnxruntime rejects', async () => {
      const folder = copyFixture(BERT, (m) => delete m.sha256);
      const onnx = join(folder, 'onnx', 'model.onnx');
      truncateSync(onnx, Math.floor(statSync(onnx).size / 3));
      const err = await loadError(() => OnnxEmbedder.load(folder));
      assert.equal(err.file, onnx);
      assert.match(err.message, /onnxruntime cannot load it/);
      assert.match(err.fix, /Re-download the file/);
    });

    it('sha256 mismatch in a user model: re-download', async () => {
      const folder = copyFixture(BERT);
      const onnx = join(folder, 'onnx', 'model.onnx');
      writeFileSync(onnx, Buffer.concat([readFileSync(onnx), Buffer.from([0])]));
      const err = await loadError(() => OnnxEmbedder.load(folder));
      assert.equal(err.file, onnx);
      assert.match(err.message, /sha256 mismatch/);
      assert.match(err.fix, /Re-download the file/);
    });

    it('sha256 mismatch in a built-in model: npm run build:models', async () => {
      const folder = copyFixture(BERT, undefined, 'pkg/models/tiny-bert');
      writeFileSync(join(folder, '..', '..', 'package.json'), JSON.stringify({ name: 'skill-router' }));
      const tokenizer = join(folder, 'tokenizer.json');
      writeFileSync(tokenizer, readFileSync(tokenizer, 'utf8').replace('"resize"', '"resise"'));
      const err = await loadError(() => OnnxEmbedder.load(folder));
      assert.equal(err.file, tokenizer);
      assert.match(err.message, /tokenizer\.json: sha256 mismatch.*npm run build:models/);
      // Hash checks can be switched off; the edited tokenizer then loads.
      const embedder = await OnnxEmbedder.load(folder, { verifyHash: false });
      await embedder.dispose();
    });

    it('a cross-encoder folder loaded as an embedder', async () => {
      const err = await loadError(() => OnnxEmbedder.load(CROSS));
      assert.equal(err.file, join(CROSS, 'manifest.json'));
      assert.match(err.message, /describes a cross-encoder, but it was loaded as a bi-encoder/);
    });

    it('manifest that disagrees with the graph: output name, dims, pooling rank', async () => {
      const cases: [(m: ModelManifest) => void, RegExp][] = [
        [(m) => (m.output = 'pooled'), /output is "pooled", but the graph has no such output \(its outputs: last_hidden_state\)/],
        [(m) => (m.dims = 64), /dims is 64, but the model outputs 32-dimensional vectors/],
        [(m) => (m.pooling = 'none'), /has shape \[1, \d+, 32\], which pooling "none" cannot use/],
        [(m) => (m.inputs = { ids: 'ids' }), /inputs\.ids is "ids", but the graph has no such input/],
        [(m) => (m.maxTokens = 2), /maxTokens 2 leaves no room for text next to the 2 special tokens/],
      ];
      for (const [edit, pattern] of cases) {
        const folder = copyFixture(BERT, edit);
        const err = await loadError(() => OnnxEmbedder.load(folder));
        assert.equal(err.file, join(folder, 'manifest.json'));
        assert.match(err.message, pattern);
      }
    });
  });
});
