import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';

/** Paths with this machine's platform folders written as placeholders, sorted. */
function normalise(list: string[]): string[] {
  const { platform, arch } = process;
  return list
    .map((f) => f.replace(`napi-v6/${platform}/${arch}`, 'napi-v6/{platform}/{arch}').replaceAll(`${platform}-${arch}-`, '{platform}-{arch}-'))
    .sort();
}

describe('vsix contents', function () {
  this.timeout(300_000);
  let files: string[];

  before(() => {
    const out = execFileSync(process.execPath, ['scripts/package.mjs', '--ls'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    files = out.split('\n').map((l) => l.trim()).filter(Boolean);
  });

  it('packages exactly the committed allowlist (bundles, model, this platform\'s natives)', () => {
    const expected = readFileSync('test/fixtures/vsix-files.txt', 'utf8').split('\n').filter(Boolean);
    assert.deepEqual(normalise(files), expected);
  });

  it('ships no other platform\'s binaries, no sources, tests or source maps', () => {
    const others = ['darwin', 'win32', 'linux'].filter((p) => p !== process.platform);
    for (const f of files) {
      assert.ok(!others.some((p) => f.includes(`/napi-v6/${p}/`)), f);
      assert.ok(!/^(src|test|bench|scripts)\//.test(f) && !f.endsWith('.map') && !f.endsWith('.ts'), f);
    }
  });

  it('stays within the size budget (uncompressed 110 MB)', () => {
    const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
    assert.ok(bytes < 110 * 1048576, `${(bytes / 1048576).toFixed(1)} MB`);
  });
});
