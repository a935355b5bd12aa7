// A long request on the command line, with the real model in its worker thread: onnxruntime-node's
// session creation takes stack in proportion to the process's command line, and a 20,000-character
// `route` request crashed the worker (segmentation fault) at Node's default worker stack. The
// worker now gets a stack to match (src/node/workerEmbedder.ts `workerLimits`), and the engine
// routes the first 16 KB of a request (`readChars` says so).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { workerLimits } from '../../src/node/workerEmbedder';

const ROOT = resolve(__dirname, '../../..');
const CLI = join(ROOT, 'dist/cli.js');
const LIB = join(ROOT, 'examples/library');

describe('cli: a long request on the command line', function () {
  this.timeout(180_000);
  let cache: string;
  before(() => {
    cache = mkdtempSync(join(tmpdir(), 'skill-router-long-'));
  });
  after(() => rmSync(cache, { recursive: true, force: true }));

  it('gives the worker a stack to match a long command line, and Node\'s default otherwise', () => {
    assert.equal(workerLimits(['node', 'cli.js', 'route', 'short request']), undefined);
    const long = workerLimits(['node', 'cli.js', 'route', 'x '.repeat(10_000)]);
    assert.ok(long && long.stackSizeMb >= 48, JSON.stringify(long));
    assert.ok(workerLimits(['x'.repeat(131_072)])!.stackSizeMb >= 128, 'the longest argument Linux passes');
  });

  it('routes a 20,000-character request with the real model, reading its first 16 KB', () => {
    const request = `extract the text and tables from a scanned PDF invoice ${'and the log says timeout '.repeat(800)}`;
    assert.ok(request.length > 20_000);
    const r = spawnSync(process.execPath, [CLI, 'route', request, '--library', LIB, '--cache', cache, '--top', '3', '--json', '--quiet'], { encoding: 'utf8', timeout: 150_000, maxBuffer: 16 * 1024 * 1024 });
    assert.equal(r.signal, null, `killed by ${r.signal}`);
    assert.equal(r.status, 0, r.stderr);
    const json = JSON.parse(r.stdout) as { readChars?: number; dense: { model?: string }; results: { id: string }[] };
    assert.equal(json.dense.model, 'use-lite-en@1', 'the model ran');
    assert.ok(json.readChars !== undefined && json.readChars <= 16_384);
    assert.equal(json.results[0].id, 'pdf-extract');
  });
});
