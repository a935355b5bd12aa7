// `skill-router check` applies the same finding policy as the editor: a near-duplicate or
// conflict the author dismissed in a skill (front matter `metadata.skill-router.ignore`, or a
// `<!-- skill-router-ignore -->` comment) is neither reported nor fails the check, while an
// undismissed one still is; the config's `conflict` limits work as the editor's settings. Runs the
// built bundle (dist/cli.js), in process and spawned, on a copy of the server's fixture
// workspaces, lexical only (--no-model).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'bin/skill-router.js');
const WORKSPACES = join(ROOT, 'test/fixtures/workspaces');

type Main = (io: {
  argv: string[];
  cwd: string;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env?: Record<string, string | undefined>;
}) => Promise<number>;

function loadMain(): Main {
  const bundle = join(ROOT, 'dist/cli.js');
  assert.ok(existsSync(bundle), `${bundle} is missing: run node esbuild.mjs first`);
  return (require(bundle) as { main: Main }).main;
}

interface JsonFinding {
  file: string;
  code: string;
  severity: string;
  related: { skillId: string }[];
}

describe('cli: check honours suppression and the conflict limits', () => {
  let dir: string;
  const skillFile = (id: string) => join(dir, 'lib', id, 'SKILL.md');
  /** Adds text right after a skill's front matter, or a front-matter block before its closing line. */
  const edit = (id: string, how: { frontMatter?: string; body?: string }) => {
    const text = readFileSync(skillFile(id), 'utf8');
    const close = text.indexOf('\n---\n', 4);
    const head = text.slice(0, close + 1) + (how.frontMatter ?? '');
    writeFileSync(skillFile(id), `${head}---\n${how.body ?? ''}${text.slice(close + 5)}`);
  };

  const check = async (...extra: string[]) => {
    const out = { stdout: '', stderr: '' };
    const code = await loadMain()({
      argv: ['check', '--library', 'lib', '--no-model', '--quiet', '--strict', '--cache', join(dir, 'cache'), '--format', 'json', ...extra],
      cwd: dir,
      stdout: (s) => void (out.stdout += s),
      stderr: (s) => void (out.stderr += s),
      env: {},
    });
    assert.notEqual(code, 2, out.stderr);
    const pairs = (JSON.parse(out.stdout).findings as JsonFinding[])
      .filter((f) => f.code.startsWith('skill.'))
      .map((f) => `${f.file} ${f.code} ${f.related[0]?.skillId}`);
    return { code, pairs };
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sr-check-policy-'));
    for (const ws of ['duplicates', 'conflicts']) cpSync(join(WORKSPACES, ws), join(dir, 'lib'), { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const ALL = [
    'lib/csv-cleaner/SKILL.md skill.near-duplicate csv-tidy',
    'lib/csv-tidy/SKILL.md skill.near-duplicate csv-cleaner',
    'lib/react-component-tests/SKILL.md skill.conflict vue-component-tests',
    'lib/vue-component-tests/SKILL.md skill.conflict react-component-tests',
  ];

  it('reports and fails on findings nobody dismissed', async () => {
    const r = await check();
    assert.deepEqual(r.pairs, ALL);
    assert.equal(r.code, 1, 'near-duplicates are warnings: --strict fails on them');
  });

  it('leaves out what a skill dismisses, by metadata or by comment, on that skill only', async () => {
    edit('csv-cleaner', { frontMatter: 'metadata:\n  skill-router:\n    ignore: [csv-tidy]\n' });
    edit('react-component-tests', { body: '<!-- skill-router-ignore skill.conflict vue-component-tests -->\n' });
    const oneSide = await check();
    assert.deepEqual(oneSide.pairs, [ALL[1], ALL[3]], 'the twins that did not dismiss still report');
    assert.equal(oneSide.code, 1, 'the undismissed near-duplicate still fails');

    edit('csv-tidy', { body: '<!-- skill-router-ignore skill.near-duplicate csv-cleaner -->\n' });
    const dismissed = await check();
    assert.deepEqual(dismissed.pairs, [ALL[3]]);
    assert.equal(dismissed.code, 0, 'nothing left that fails');

    const spawned = spawnSync(process.execPath, [BIN, 'check', '--library', 'lib', '--no-model', '--quiet', '--strict', '--cache', join(dir, 'cache')], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(spawned.status, 0, spawned.stderr);
    assert.doesNotMatch(spawned.stdout, /skill\.near-duplicate/);
    assert.match(spawned.stdout, /check passed: 0 of 0 tests passed, 0 errors, 0 warnings/);
  });

  it('a code alone in a comment dismisses that code in the file', async () => {
    edit('csv-tidy', { body: '<!-- skill-router-ignore skill.near-duplicate -->\n' });
    assert.deepEqual((await check()).pairs, [ALL[0], ALL[2], ALL[3]]);
  });

  it('takes conflict.threshold and conflict.maxPerSkill from the config', async () => {
    writeFileSync(join(dir, 'skill-router.yaml'), 'library: lib\nconflict:\n  threshold: 1\n');
    const strong = (await check()).pairs;
    assert.deepEqual(strong.slice(0, 2), ALL.slice(0, 2), 'near-duplicates are not conflicts: the threshold leaves them');
    writeFileSync(join(dir, 'skill-router.yaml'), 'library: lib\nnearDuplicate:\n  threshold: 1\nconflict:\n  threshold: 1\n');
    assert.ok((await check()).pairs.length <= strong.length, 'a stricter share reports no more');
    writeFileSync(join(dir, 'skill-router.yaml'), 'library: lib\nconflict:\n  maxPerSkill: 1\n  threshold: 0\n');
    assert.deepEqual((await check()).pairs, ALL);
    writeFileSync(join(dir, 'skill-router.yaml'), 'library: lib\nconflict:\n  maxPerSkill: 0\n');
    const out = { stderr: '' };
    const code = await loadMain()({ argv: ['check', '--no-model', '--quiet'], cwd: dir, stdout: () => undefined, stderr: (s) => void (out.stderr += s) });
    assert.equal(code, 2);
    assert.match(out.stderr, /skill-router\.yaml: "conflict\.maxPerSkill" must be a whole number from 1 to 1000/);
  });
});
