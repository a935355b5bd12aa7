// bin/skill-router.js loads the CLI bundle through dist/launch.js with V8's code cache: the
// first run writes the cache, later runs use it with the same output; a damaged cache is
// replaced, an unwritable cache folder or SKILL_ROUTER_CODE_CACHE=off leaves the command as it is.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'bin/skill-router.js');
const LIB = join(ROOT, 'examples/library');

describe('cli: the code cache of the bundle', function () {
  this.timeout(120_000);
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'skill-router-codecache-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  const run = (env: Record<string, string> = {}) => {
    const r = spawnSync(process.execPath, [BIN, 'validate', LIB, '--json'], { env: { ...process.env, XDG_CACHE_HOME: home, ...env }, encoding: 'utf8', timeout: 60_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const cacheFiles = () => {
    try {
      return readdirSync(join(home, 'skill-router', 'code-cache'));
    } catch {
      return [];
    }
  };

  it('writes the cache on the first run and runs from it after, with the same output', () => {
    const first = run();
    assert.equal(first.code, 0, first.stderr);
    const files = cacheFiles();
    assert.equal(files.length, 1, 'one cache file for the bundle');
    assert.match(files[0], /^cli-[0-9a-f]{16}\.bin$/);
    const bytes = readFileSync(join(home, 'skill-router', 'code-cache', files[0]));
    assert.ok(bytes.length > 100_000, 'it holds compiled code');
    const second = run();
    assert.deepEqual(second, first);
    assert.deepEqual(readFileSync(join(home, 'skill-router', 'code-cache', files[0])), bytes, 'a cache V8 took is not rewritten');
  });

  it('a damaged cache is rejected and replaced; another build\'s cache is removed', () => {
    const clean = run();
    const [name] = cacheFiles();
    const file = join(home, 'skill-router', 'code-cache', name);
    writeFileSync(file, 'not a code cache');
    writeFileSync(join(home, 'skill-router', 'code-cache', 'cli-0000000000000000.bin'), 'an older build');
    const again = run();
    assert.deepEqual(again, clean);
    assert.notEqual(readFileSync(file, 'utf8').slice(0, 16), 'not a code cache');
    assert.deepEqual(cacheFiles(), [name]);
  });

  it('runs without one when the folder cannot be written, or when turned off', () => {
    const blocked = join(home, 'a-file');
    writeFileSync(blocked, '');
    const clean = run();
    // The index caches warn that they cannot be written there; the code cache says nothing.
    const unwritable = run({ XDG_CACHE_HOME: blocked });
    assert.deepEqual([unwritable.code, unwritable.stdout], [clean.code, clean.stdout]);
    assert.doesNotMatch(unwritable.stderr, /code-cache|launch\.js/);
    rmSync(join(home, 'skill-router'), { recursive: true, force: true });
    assert.deepEqual(run({ SKILL_ROUTER_CODE_CACHE: 'off' }), clean);
    assert.deepEqual(cacheFiles(), [], 'off writes nothing');
  });
});
