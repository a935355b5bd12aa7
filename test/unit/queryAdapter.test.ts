import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { adaptQuery, adapterId, adapterMismatch, trainQueryAdapter, withQueryAdapter, type AdapterExample, type QueryAdapter } from '../../src/core/route/queryAdapter';
import { prng } from '../../src/core/route/rerankTraining';
import type { Embedder } from '../../src/core/types';
import { readAdapter, writeAdapter } from '../../src/node/queryAdapterFile';

const unit = (xs: number[]) => {
  const n = Math.hypot(...xs) || 1;
  return Float32Array.from(xs, (x) => x / n);
};
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

/**
 * A toy library whose requests are systematically off their skills: request i points at skill i
 * through a fixed rotation plus noise, so the raw vectors rank the wrong skill first for most.
 */
function toy(seed: number, n = 12, d = 8) {
  const rand = prng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
  const skills = Array.from({ length: n }, () => unit(Array.from({ length: d }, gauss)));
  // The requests' "style": each coordinate moved to the next one.
  const shift = (v: Float32Array) => unit(Array.from(v, (_, i) => v[(i + 1) % d]));
  const request = (k: number) => shift(unit(Array.from(skills[k], (x) => x + 0.15 * gauss())));
  const examples: AdapterExample[] = [];
  for (let r = 0; r < 20; r++) for (let k = 0; k < n; k++) examples.push({ vector: request(k), targets: [k] });
  const heldOut = Array.from({ length: n }, (_, k) => ({ vector: request(k), target: k }));
  return { skills, examples, heldOut, d };
}

function hits(skills: Float32Array[], requests: { vector: Float32Array; target: number }[], adapter?: QueryAdapter) {
  return requests.filter(({ vector, target }) => {
    const q = adapter ? adaptQuery(adapter, vector) : vector;
    const scores = skills.map((s) => dot(q, s));
    return scores.indexOf(Math.max(...scores)) === target;
  }).length;
}

const OPTS = { epochs: 30, batch: 32, learningRate: 0.02, scale: 10, sibling: 0.25, seed: 3 };

describe('query adapter', () => {
  it('learns the requests\' systematic offset: held-out requests reach their skill after training', () => {
    const { skills, examples, heldOut, d } = toy(5);
    const before = hits(skills, heldOut);
    const adapter: QueryAdapter = { base: 'toy', dims: d, matrix: trainQueryAdapter(skills, examples, OPTS) };
    const after = hits(skills, heldOut, adapter);
    assert.ok(before <= heldOut.length / 2, `the toy must start mostly wrong (${before}/${heldOut.length})`);
    assert.ok(after >= heldOut.length - 1, `after training ${after}/${heldOut.length}`);
  });

  it('is deterministic for a seed and differs across seeds', () => {
    const { skills, examples } = toy(6);
    const a = trainQueryAdapter(skills, examples, { ...OPTS, epochs: 2 });
    const b = trainQueryAdapter(skills, examples, { ...OPTS, epochs: 2 });
    const c = trainQueryAdapter(skills, examples, { ...OPTS, epochs: 2, seed: 4 });
    assert.deepEqual(a, b);
    assert.notDeepEqual(a, c);
  });

  it('does not treat a multi-skill request\'s other targets as negatives', () => {
    // Two targets on opposite sides: the loss must not push the request away from either.
    const skills = [unit([1, 0, 0]), unit([0, 1, 0]), unit([0, 0, 1])];
    const examples = Array.from({ length: 50 }, () => ({ vector: unit([1, 1, 0.2]), targets: [0, 1] }));
    const adapter: QueryAdapter = { base: 'toy', dims: 3, matrix: trainQueryAdapter(skills, examples, { ...OPTS, epochs: 20 }) };
    const q = adaptQuery(adapter, unit([1, 1, 0.2]));
    assert.ok(dot(q, skills[0]) > dot(q, skills[2]) + 0.3 && dot(q, skills[1]) > dot(q, skills[2]) + 0.3, `${[...q]}`);
    assert.ok(Math.abs(dot(q, skills[0]) - dot(q, skills[1])) < 0.1, 'the two targets stay level');
  });

  it('adapts requests only, keeps the encoder id and names the adapter', async () => {
    const matrix = new Float32Array(4);
    matrix[1] = 1; // q' = (q0 + q1, q1)
    const adapter: QueryAdapter = { base: 'enc@1', dims: 2, matrix };
    const base: Embedder = { info: { id: 'enc@1', dims: 2, maxTokens: 8 }, embed: async (texts) => texts.map(() => unit([0, 1])) };
    const adapted = withQueryAdapter(base, adapter);
    assert.equal(adapted.info.id, 'enc@1');
    assert.match(adapted.info.adapter ?? '', /^qa-[0-9a-f]{10}$/);
    assert.deepEqual([...(await adapted.embed(['x'], 'passage'))[0]], [0, 1]);
    const [q] = await adapted.embed(['x'], 'query');
    assert.ok(Math.abs(q[0] - Math.SQRT1_2) < 1e-6 && Math.abs(q[1] - Math.SQRT1_2) < 1e-6, `${[...q]}`);
    assert.equal(adapterMismatch(adapter, base.info), null);
    assert.match(adapterMismatch(adapter, { ...base.info, id: 'other@2' }) ?? '', /trained over enc@1, the encoder is other@2/);
    assert.match(adapterMismatch(adapter, { ...base.info, dims: 3 }) ?? '', /2 dimensions, the encoder 3/);
  });

  it('round-trips through its folder and refuses a damaged or resized matrix with what is wrong', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sr-adapter-'));
    const adapter: QueryAdapter = { base: 'enc@1', dims: 3, matrix: Float32Array.from([0.1, -0.2, 0.3, 0, 0, 0, 1e-3, 2, -4]) };
    const manifest = writeAdapter(dir, adapter, adapterId(adapter), { note: 'test' });
    assert.equal(manifest.id, adapterId(adapter));
    assert.deepEqual(readAdapter(dir), adapter);
    const file = path.join(dir, manifest.file);
    const bytes = readFileSync(file);
    bytes[5] ^= 0xff;
    writeFileSync(file, bytes);
    assert.throws(() => readAdapter(dir), /does not match its checksum/);
    writeFileSync(file, bytes.subarray(0, 8));
    assert.throws(() => readAdapter(dir), /has 8 bytes, expected 36/);
    writeFileSync(path.join(dir, 'manifest.json'), '{"kind": "reranker"}');
    assert.throws(() => readAdapter(dir), /not a query adapter's manifest/);
  });
});
