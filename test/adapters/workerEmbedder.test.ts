import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { CancelledError, type CancelToken, type Logger } from '../../src/core/types';
import { ModelLoadError } from '../../src/node/modelFolder';
import { OnnxEmbedder } from '../../src/node/onnxEmbedder';
import { embedWorkerFile, WorkerEmbedder } from '../../src/node/workerEmbedder';

const ROOT = resolve(__dirname, '../../..');
const MODEL = join(ROOT, 'models', 'use-lite');
const FIXTURES = join(ROOT, 'test/fixtures/models');
const TINY = join(FIXTURES, 'tiny-bert');
const CROSS = join(FIXTURES, 'tiny-cross');

/** The example library's SKILL.md files, whole and as front matter, plus requests and odd texts. */
function realTexts(): string[] {
  const library = join(ROOT, 'examples/library');
  const files = readdirSync(library).map((name) => readFileSync(join(library, name, 'SKILL.md'), 'utf8'));
  return [
    ...files,
    ...files.map((text) => text.split('\n---')[0]),
    'extract the text and tables from a scanned PDF invoice',
    '把这份 PDF 发票里的表格提取出来',
    '',
    '   ',
    'résumé   with\n\nodd   spacing',
  ];
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const record = (level: string) => (m: string) => lines.push(`${level}: ${m}`);
  return { lines, debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
}

/** The worker thread, which the tests stop from outside as a crash would. */
function threadOf(embedder: WorkerEmbedder): Worker {
  return (embedder as unknown as { worker: Worker }).worker;
}

async function loadError(load: () => Promise<unknown>): Promise<Error> {
  try {
    await load();
  } catch (err) {
    return err as Error;
  }
  assert.fail('expected the load to fail');
}

describe('WorkerEmbedder (OnnxEmbedder in a worker thread)', function () {
  this.timeout(120_000);
  const scratch: string[] = [];
  after(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  function copy(folder: string, damage: (dir: string) => void): string {
    const dir = join(mkdtempSync(join(tmpdir(), 'sr-worker-')), 'model');
    scratch.push(dirname(dir));
    cpSync(folder, dir, { recursive: true });
    damage(dir);
    return dir;
  }

  it('finds its worker bundle from the compiled tests', () => {
    assert.ok(embedWorkerFile(), 'out/embedWorker.js: run `node esbuild.mjs`');
  });

  it('gives the in-thread vectors on real texts with the built-in model, for passages and queries', async () => {
    const texts = realTexts();
    const inThread = await OnnxEmbedder.load(MODEL);
    const worker = await WorkerEmbedder.load(MODEL);
    try {
      assert.deepEqual(worker.info, inThread.info);
      for (const kind of ['passage', 'query'] as const) {
        const [expected, actual] = await Promise.all([inThread.embed(texts, kind), worker.embed(texts, kind)]);
        assert.equal(actual.length, texts.length);
        actual.forEach((vector, i) => {
          assert.ok(vector instanceof Float32Array, `${kind} ${i}`);
          assert.equal(vector.length, inThread.info.dims);
          for (let d = 0; d < vector.length; d++) {
            assert.ok(Math.abs(vector[d] - expected[i][d]) <= 1e-6, `${kind} ${i} [${d}]: ${vector[d]} vs ${expected[i][d]}`);
          }
        });
        assert.ok(actual.some((v) => v.some((x) => x !== 0)), 'not all zero');
      }
      assert.deepEqual(await worker.embed([], 'query'), []);
    } finally {
      await inThread.dispose();
      await worker.dispose();
    }
  });

  it('fails to load with the same ModelLoadError (file and fix) as in-thread', async () => {
    const cases: [string, string][] = [
      ['no folder', join(tmpdir(), 'sr-worker-no-such-model')],
      ['a cross-encoder', CROSS],
      ['damaged JSON', copy(TINY, (dir) => writeFileSync(join(dir, 'manifest.json'), '{"id": '))],
      ['wrong dims', copy(TINY, (dir) => {
        const file = join(dir, 'manifest.json');
        writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), dims: 7 }));
      })],
      ['a truncated model', copy(MODEL, (dir) => truncateSync(join(dir, 'onnx/model.onnx'), 4096))],
    ];
    for (const [what, folder] of cases) {
      const expected = await loadError(() => OnnxEmbedder.load(folder));
      const actual = await loadError(() => WorkerEmbedder.load(folder));
      assert.ok(expected instanceof ModelLoadError, `${what}: in-thread threw ${expected.message}`);
      assert.ok(actual instanceof ModelLoadError, `${what}: the worker threw ${actual.name}: ${actual.message}`);
      assert.equal(actual.message, expected.message, what);
      assert.equal(actual.file, expected.file, what);
      assert.equal(actual.fix, expected.fix, what);
      assert.equal(actual.problem, expected.problem, what);
    }
  });

  it("passes the worker's log lines to the caller's logger", async () => {
    const logger = recordingLogger();
    const embedder = await WorkerEmbedder.load(TINY, { device: 'cuda', logger });
    await embedder.dispose();
    assert.ok(logger.lines.some((l) => /^warn: tiny-bert@1: cannot use cuda \(.+\); falling back to the CPU$/.test(l)), logger.lines.join('\n'));
    assert.ok(logger.lines.some((l) => /^info: tiny-bert@1: loaded from /.test(l)), logger.lines.join('\n'));
  });

  it('stops the worker on dispose; later calls are refused', async () => {
    const embedder = await WorkerEmbedder.load(TINY);
    const thread = threadOf(embedder);
    const exited = new Promise<number>((done) => thread.once('exit', done));
    const pending = assert.rejects(embedder.embed(Array(200).fill('resize images for the web'), 'passage'), /tiny-bert@1: the embedder was disposed/);
    await embedder.dispose();
    await exited;
    assert.equal(thread.threadId, -1, 'the thread is gone');
    await pending;
    await assert.rejects(embedder.embed(['resize images'], 'passage'), /disposed/);
    await embedder.dispose(); // twice is harmless
  });

  it('recycle: the old worker answers its call and goes before a fresh one loads; calls meanwhile wait; vectors unchanged', async () => {
    const texts = realTexts();
    const embedder = await WorkerEmbedder.load(MODEL);
    try {
      const before = await embedder.embed(texts, 'passage');
      const first = threadOf(embedder);
      let firstGone = false;
      first.once('exit', () => (firstGone = true));
      const inFlight = embedder.embed(texts.concat(texts, texts), 'passage');
      const recycled = embedder.recycle();
      const during = embedder.embed(['resize images for the web'], 'query').then((v) => ({ v, firstGone }));
      assert.equal((await inFlight).length, texts.length * 3);
      const answered = await during;
      assert.equal(answered.v.length, 1);
      assert.ok(answered.firstGone, 'the call made during the recycle went to the fresh worker, after the first had gone');
      await recycled;
      assert.equal(first.threadId, -1, 'the first worker is gone');
      assert.notEqual(threadOf(embedder), first);
      const after = await embedder.embed(texts, 'passage');
      after.forEach((v, i) => assert.deepEqual(Array.from(v), Array.from(before[i]), `vector ${i}`));
    } finally {
      await embedder.dispose();
    }
  });

  it('recycle: a fresh worker that cannot load the model stops the embedder with the reason', async () => {
    const dir = copy(TINY, () => undefined);
    const embedder = await WorkerEmbedder.load(dir);
    try {
      rmSync(dir, { recursive: true, force: true });
      await embedder.recycle();
      await assert.rejects(embedder.embed(['resize images'], 'query'), /tiny-bert@1: the embedding worker could not start afresh \(.+\)/);
    } finally {
      await embedder.dispose();
    }
  });

  it('a worker whose model fails to load waits to be terminated, so its reason always arrives before its exit', async () => {
    const { Worker: Thread } = await import('node:worker_threads');
    const dir = copy(TINY, (d) => writeFileSync(join(d, 'manifest.json'), '{"id": '));
    const worker = new Thread(embedWorkerFile()!, { workerData: { folder: dir, options: {} } });
    let exited = false;
    worker.on('exit', () => (exited = true));
    const reason = await new Promise<{ type: string }>((resolve) => worker.on('message', (m: { type: string }) => m.type === 'loadFailed' && resolve(m)));
    assert.equal(reason.type, 'loadFailed');
    // Were the thread to end by itself after posting, the parent could read "exited (code 0)" first.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(exited, false, 'the thread is still there after its reason');
    await worker.terminate();
    assert.equal(exited, true);
  });

  it('rejects pending and later calls with a clear error when the worker dies', async () => {
    const embedder = await WorkerEmbedder.load(MODEL);
    try {
      const pending = assert.rejects(embedder.embed(realTexts().concat(realTexts(), realTexts()), 'passage'), /use-lite-en@1: the embedding worker exited \(code 1\)/);
      await threadOf(embedder).terminate();
      await pending;
      await assert.rejects(embedder.embed(['resize images'], 'query'), /use-lite-en@1: the embedding worker exited/);
    } finally {
      await embedder.dispose();
    }
  });

  it('rejects a cancelled call promptly and stays usable', async () => {
    const embedder = await WorkerEmbedder.load(MODEL);
    try {
      await assert.rejects(embedder.embed(['resize images'], 'query', { isCancellationRequested: true }), CancelledError);
      let cancel = false;
      const token: CancelToken = { get isCancellationRequested() { return cancel; } };
      const texts = Array.from({ length: 40 }, () => realTexts()).flat();
      const call = embedder.embed(texts, 'passage', token);
      const started = Date.now();
      cancel = true;
      await assert.rejects(call, CancelledError);
      const waited = Date.now() - started;
      const [after] = await embedder.embed(['resize images'], 'query');
      const inThread = await OnnxEmbedder.load(MODEL);
      const [expected] = await inThread.embed(['resize images'], 'query');
      await inThread.dispose();
      assert.deepEqual(Array.from(after), Array.from(expected));
      // The whole call takes seconds; the rejection does not wait for it.
      assert.ok(waited < 1_000, `rejected after ${waited} ms`);
    } finally {
      await embedder.dispose();
    }
  });
});
