// `skill-router reach` and `check`'s reach gate on the fixture library, each case run by spawning
// bin/skill-router.js and by calling main() of the same bundle in process; both must match the
// snapshot in __snapshots__/reach-*.txt (paths and timings sanitised). Lexical routing only
// (--no-model), every description cut to 40 characters so that the listing loses requests. After
// an intended change: `UPDATE_SNAPSHOTS=1 node test/run.mjs cli --grep reach`, and review the diff.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'bin/skill-router.js');
const SNAPSHOTS = join(ROOT, 'test/cli/__snapshots__');
const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';
const LIB = 'test/fixtures/check-lib';
const REACH = ['reach', '--library', `${LIB}/skills`, '--tests', `${LIB}/skill-router.tests.pass.yaml`, '--cut', '40', '--no-model', '--quiet'];

interface Case {
  name: string;
  args: (cache: string) => string[];
  exit: number;
  stderr?: RegExp;
  /** What the run's stdout must say besides matching the snapshot. */
  check?: (stdout: string) => void;
}

const CASES: Case[] = [
  {
    name: 'reach-text',
    args: (cache) => [...REACH, '--cache', cache],
    exit: 0,
    check: (out) => assert.match(out, /^pdf-extract +2 /m, 'a routing test and a trigger eval for pdf-extract'),
  },
  {
    name: 'reach-json',
    args: (cache) => [...REACH, '--json', '--cache', cache],
    exit: 0,
    check: (out) => {
      const j = JSON.parse(out);
      assert.equal(j.client, 'claude-code');
      assert.equal(j.view, 'listing:claude-code:cut40');
      for (const s of j.skills) for (const key of ['id', 'requests', 'reachedFull', 'reachedListing', 'listedChars', 'dropped', 'suggest']) assert.ok(key in s, key);
      const pdf = j.skills.find((s: { id: string }) => s.id === 'pdf-extract');
      assert.deepEqual(pdf.sources, { test: 1, eval: 1 });
      assert.ok(j.skills.some((s: { sources: { probe?: number } }) => s.sources.probe), 'skills without tests get probes');
    },
  },
  {
    name: 'reach-bad-client',
    args: () => ['reach', '--library', `${LIB}/skills`, '--client', 'vim', '--no-model'],
    exit: 2,
    stderr: /unknown client "vim"; use one of claude-code, codex, copilot, cursor/,
  },
  ...(['text', 'json', 'sarif', 'junit'] as const).map((format) => ({
    name: `check-reach-${format}`,
    args: (cache: string) => ['check', '--config', `${LIB}/skill-router.reach.yaml`, '--no-model', '--quiet', '--format', format, '--cache', cache],
    exit: 1,
    check: (out: string) => assert.match(out, /skill\.unreachable/),
  })),
];

function sanitise(text: string, cache: string): string {
  return text
    .split(cache)
    .join('<cache>')
    .split(ROOT)
    .join('<repo>')
    .replace(/\b\d+(?:\.\d+)? (ms|s)\b/g, '<n> $1')
    .replace(/"(ms|indexMs)": [\d.]+/g, '"$1": "<n>"');
}

function compare(c: Case, run: { code: number; stdout: string; stderr: string }, cache: string, how: string): void {
  assert.equal(run.code, c.exit, `${how}: exit code\n--- stderr\n${run.stderr}`);
  if (c.stderr) assert.match(run.stderr, c.stderr, `${how}: stderr`);
  c.check?.(run.stdout);
  const file = join(SNAPSHOTS, `${c.name}.txt`);
  const actual = `$ skill-router ${c.args('<cache>').join(' ')}\nexit ${run.code}\n--- stdout\n${sanitise(run.stdout, cache)}`;
  if (UPDATE && how === 'spawned') {
    mkdirSync(SNAPSHOTS, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  assert.ok(existsSync(file), `no snapshot ${file}; create it with UPDATE_SNAPSHOTS=1`);
  assert.equal(actual, readFileSync(file, 'utf8'), `${how} differs from ${c.name}.txt`);
}

type Main = (io: { argv: string[]; cwd: string; stdout: (s: string) => void; stderr: (s: string) => void; env?: Record<string, string | undefined>; isTTY?: boolean }) => Promise<number>;

describe('cli: reach and the reach gate against snapshots', () => {
  // A fresh cache folder per run: the second run of a case would read the first one's report.
  const caches: string[] = [];
  const freshCache = () => {
    caches.push(mkdtempSync(join(tmpdir(), 'reach-cache-')));
    return caches[caches.length - 1];
  };
  after(() => caches.forEach((c) => rmSync(c, { recursive: true, force: true })));

  for (const c of CASES) {
    describe(c.name, () => {
      it('spawned binary', () => {
        const cache = freshCache();
        const r = spawnSync(process.execPath, [BIN, ...c.args(cache)], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
        assert.equal(r.error, undefined);
        compare(c, { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }, cache, 'spawned');
      });

      it('main() in process', async () => {
        const cache = freshCache();
        const bundle = join(ROOT, 'dist/cli.js');
        const main = (require(bundle) as { main: Main }).main;
        const out = { stdout: '', stderr: '' };
        const code = await main({ argv: c.args(cache), cwd: ROOT, stdout: (s) => void (out.stdout += s), stderr: (s) => void (out.stderr += s), env: {}, isTTY: false });
        compare(c, { code, ...out }, cache, 'in process');
      });
    });
  }

  it('a second run reads the report from the cache; a changed skill measures again', () => {
    const lib = mkdtempSync(join(tmpdir(), 'reach-lib-'));
    try {
      for (const name of ['pdf-extract', 'sql-tuning', 'csv-charts']) {
        mkdirSync(join(lib, name), { recursive: true });
        writeFileSync(join(lib, name, 'SKILL.md'), readFileSync(join(ROOT, LIB, 'skills', name, 'SKILL.md')));
      }
      const run = () => spawnSync(process.execPath, [BIN, 'reach', '--library', lib, '--no-model', '--quiet', '--cache', join(lib, '.cache'), '--json'], { cwd: ROOT, encoding: 'utf8' });
      const first = JSON.parse(run().stdout);
      const second = JSON.parse(run().stdout);
      assert.equal(first.cached, false);
      assert.equal(second.cached, true);
      assert.deepEqual(second.skills, first.skills);
      writeFileSync(join(lib, 'sql-tuning', 'SKILL.md'), readFileSync(join(lib, 'sql-tuning', 'SKILL.md'), 'utf8').replace('Speed up', 'Make faster'));
      assert.equal(JSON.parse(run().stdout).cached, false);
    } finally {
      rmSync(lib, { recursive: true, force: true });
    }
  });
});
