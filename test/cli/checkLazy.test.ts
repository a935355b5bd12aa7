// `skill-router check` opens a library in full only when something must route: a warm run whose
// pair findings are cached for this library and this router reads the skills as `validate` does,
// loads no model, and reports exactly what the full run reported; an edit, trigger evals or
// routing tests open it in full. Runs the CLI in process with the real openLibrary (a real ONNX
// encoder, the tiny-bert fixture) and counts how it opens the library.
import * as assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../src/cli/main';
import { describeRouter, openLibrary, type OpenLibraryOptions } from '../../src/node/library';

const ROOT = resolve(__dirname, '../../..');
const BERT = join(ROOT, 'test/fixtures/models/tiny-bert');

describe('cli: check loads what it needs', function () {
  this.timeout(120_000);
  let dir: string;

  /** One check run: its exit code, stdout, and how it opened the library ('parse' or 'full', in order). */
  const check = async (...extra: string[]) => {
    const opens: string[] = [];
    const deps = {
      openLibrary: (o: OpenLibraryOptions) => (opens.push(o.parseOnly ? 'parse' : 'full'), openLibrary(o)),
      routerIdentity: describeRouter,
    };
    const out = { stdout: '', stderr: '' };
    const code = await main(
      {
        argv: ['check', '--library', 'lib', ...(extra.includes('--no-model') ? [] : ['--model', BERT]), '--quiet', '--cache', join(dir, 'cache'), '--format', 'json', ...extra],
        cwd: dir,
        stdout: (s) => void (out.stdout += s),
        stderr: (s) => void (out.stderr += s),
        env: {},
      },
      deps,
    );
    assert.notEqual(code, 2, out.stderr);
    return { code, stdout: out.stdout, opens };
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sr-check-lazy-'));
    cpSync(join(ROOT, 'test/fixtures/workspaces/duplicates'), join(dir, 'lib', 'team'), { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a warm run reads the cached pair findings without the model and reports the same; an edit opens it in full', async () => {
    const cold = await check();
    assert.deepEqual(cold.opens, ['parse', 'full'], 'nothing cached: read, then opened in full to scan');
    assert.ok(JSON.parse(cold.stdout).findings.some((f: { code: string }) => f.code === 'skill.near-duplicate'), 'the fixture has a near-duplicate pair');
    const warm = await check();
    assert.deepEqual(warm.opens, ['parse']);
    assert.equal(warm.stdout, cold.stdout);
    assert.equal(warm.code, cold.code);
    // Another router (no model) is another key: scanned again, then cached under its own.
    assert.deepEqual((await check('--no-model')).opens, ['parse', 'full']);
    assert.deepEqual((await check('--no-model')).opens, ['parse']);
    assert.deepEqual((await check()).opens, ['parse'], 'the model\'s result is still there');
    appendFileSync(join(dir, 'lib', 'team', 'csv-tidy', 'SKILL.md'), '\n## Encodings\n\nConvert the file to UTF-8 first.\n');
    assert.deepEqual((await check()).opens, ['parse', 'full']);
  });

  it('trigger evals and routing tests route: the library is opened in full', async () => {
    await check();
    mkdirSync(join(dir, 'lib', 'team', 'csv-tidy', 'evals'));
    writeFileSync(
      join(dir, 'lib', 'team', 'csv-tidy', 'evals', 'evals.json'),
      JSON.stringify([{ query: 'tidy up the delimiters of this CSV export', should_trigger: true }]),
    );
    const evals = await check();
    assert.deepEqual(evals.opens, ['parse', 'full'], 'evals found while reading: opened in full to run them');
    assert.equal(JSON.parse(evals.stdout).tests.length, 1);
    writeFileSync(join(dir, 'lib', 'skill-router.tests.yaml'), '- query: deploy this service to kubernetes\n  expect: k8s-deploy\n');
    const tests = await check();
    assert.deepEqual(tests.opens, ['full'], 'a tests file: opened in full at once (the model loads while the skills are read)');
    assert.equal(JSON.parse(tests.stdout).tests.length, 2);
  });
});
