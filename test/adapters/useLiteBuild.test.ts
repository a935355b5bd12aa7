import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { onnx } from 'onnx-proto';
import { buildUseLite } from '../../src/node/buildModels';
import type { ModelManifest } from '../../src/node/modelManifest';

const ROOT = resolve(__dirname, '../../..');
const MANIFEST = join(ROOT, 'models', 'use-lite', 'manifest.json');

describe('buildUseLite', function () {
  const committed = JSON.parse(readFileSync(MANIFEST, 'utf8')) as ModelManifest;
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'use-lite-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds the same bytes twice, with the sha256 the committed manifest lists', async () => {
    const first = await buildUseLite({ outDir: join(dir, 'a') });
    const second = await buildUseLite({ outDir: join(dir, 'b') });
    assert.deepEqual(first.sha256, second.sha256);
    assert.deepEqual(first.sha256, committed.sha256);
  });

  it('writes the dense signature with symbolic dimensions and opset 17', async () => {
    const { onnxPath } = await buildUseLite({ outDir: dir });
    const model = onnx.ModelProto.decode(readFileSync(onnxPath));
    assert.deepEqual(model.opsetImport.map((o) => [o.domain, Number(o.version)]), [['', 17]]);
    const shape = (v: onnx.IValueInfoProto) =>
      v.type!.tensorType!.shape!.dim!.map((d) => d.dimParam || Number(d.dimValue));
    const graph = model.graph!;
    assert.deepEqual(graph.input!.map((v) => [v.name, v.type!.tensorType!.elemType, shape(v)]), [
      ['input_ids', onnx.TensorProto.DataType.INT64, ['batch', 'sequence']],
      ['attention_mask', onnx.TensorProto.DataType.INT64, ['batch', 'sequence']],
    ]);
    assert.deepEqual(graph.output!.map((v) => [v.name, v.type!.tensorType!.elemType, shape(v)]), [
      ['embeddings', onnx.TensorProto.DataType.FLOAT, ['batch', 512]],
    ]);
  });

  it('skips a folder that matches its manifest and rebuilds a damaged file', async () => {
    copyFileSync(MANIFEST, join(dir, 'manifest.json'));
    const logs: string[] = [];
    const log = (m: string) => logs.push(m);
    const built = await buildUseLite({ outDir: dir, log });
    assert.deepEqual(built.sha256, committed.sha256);
    const mtime = statSync(built.onnxPath).mtimeMs;

    logs.length = 0;
    await buildUseLite({ outDir: dir, log });
    assert.ok(logs.some((m) => /up to date/.test(m)), logs.join('\n'));
    assert.equal(statSync(built.onnxPath).mtimeMs, mtime);

    writeFileSync(built.tokenizerPath, '{}');
    logs.length = 0;
    const rebuilt = await buildUseLite({ outDir: dir, log });
    assert.ok(!logs.some((m) => /up to date/.test(m)));
    assert.deepEqual(rebuilt.sha256, committed.sha256);
  });

  it('fails, naming the folder, when the source model is missing', async () => {
    const missing = join(dir, 'no-such-package');
    await assert.rejects(buildUseLite({ outDir: join(dir, 'out'), sourceDir: missing }), (err: Error) => {
      assert.match(err.message, /no TF\.js model/);
      assert.ok(err.message.includes(missing));
      return true;
    });
  });

  it('fails when a rebuild does not match the manifest instead of shipping other bytes', async () => {
    const manifest = { ...committed, sha256: { 'onnx/model.onnx': '0'.repeat(64), 'tokenizer.json': '0'.repeat(64) } };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    await assert.rejects(buildUseLite({ outDir: dir }), /do not match/);
  });
});
