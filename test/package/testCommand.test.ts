import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The README's test command on a fresh machine: `npm test` brings what its suites need. */
describe('the README\'s test command on a fresh machine', () => {
  const ensure = (env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, ['scripts/ensureChromium.mjs'], { encoding: 'utf8', env: { ...process.env, ...env } });

  it('npm test makes sure of Chromium before it runs the suites, and CI runs that same command', () => {
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
    const steps = scripts.test.split('&&').map((s) => s.trim());
    const ensureAt = steps.indexOf('node scripts/ensureChromium.mjs');
    assert.ok(ensureAt >= 0, scripts.test);
    assert.ok(ensureAt < steps.findIndex((s) => s.startsWith('node test/run.mjs')), 'before the suites run');
    const ci = readFileSync('.ci/run', 'utf8');
    assert.match(ci, /^npm test 2>&1/m, '.ci/run calls the README\'s command');
    assert.doesNotMatch(ci, /apt-get install[^\n]*chromium/, '.ci/run installs nothing npm test would not');
    assert.match(readFileSync('README.md', 'utf8'), /```sh\nnpm ci && npm test\n```/);
  });

  it('a Chromium that is there is used as it is', () => {
    const r = ensure({ CHROMIUM_PATH: process.execPath });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
  });

  it('a CHROMIUM_PATH that does not exist stops with what to do, before any test runs', () => {
    const r = ensure({ CHROMIUM_PATH: '/nonexistent/chromium' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /CHROMIUM_PATH is \/nonexistent\/chromium, which does not exist; install it \(Debian\/Ubuntu: sudo apt-get install -y chromium\)/);
  });
});
