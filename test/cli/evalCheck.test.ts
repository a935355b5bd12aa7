// `skill-router eval` and `skill-router check` on the fixture library, each case run twice: by
// spawning bin/skill-router.js and by calling main() of the same bundle in process. Both must
// match the committed snapshot in __snapshots__/ (paths and timings sanitised). Lexical routing
// only (--no-model), so the rankings are fast and stable. After an intended output change, run
// `UPDATE_SNAPSHOTS=1 node test/run.mjs cli` and review the diff of __snapshots__/.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'bin/skill-router.js');
const SNAPSHOTS = join(ROOT, 'test/cli/__snapshots__');
const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';
const LIB = 'test/fixtures/check-lib';

interface Case {
  name: string;
  args: string[];
  exit: number;
  /** What stderr must show (progress and engine notes are not snapshotted). */
  stderr?: RegExp;
}

const CASES: Case[] = [
  {
    name: 'eval-text',
    args: ['eval', '--library', `${LIB}/skills`, '--queries', `${LIB}/queries.jsonl`, '--no-model', '--quiet'],
    exit: 0,
    stderr: /1 skill id in test\/fixtures\/check-lib\/queries\.jsonl is not in the library and can never be hit \(other-collection\/commit-message\)/,
  },
  {
    name: 'eval-json',
    args: ['eval', '--library', `${LIB}/skills`, '--queries', `${LIB}/queries.jsonl`, '--no-model', '--json', '--quiet'],
    exit: 0,
  },
  {
    name: 'eval-missing-queries',
    args: ['eval', '--library', `${LIB}/skills`, '--no-model'],
    exit: 2,
    stderr: /eval needs --queries\nRun "skill-router eval --help" for usage\./,
  },
  {
    name: 'eval-unreadable-queries',
    args: ['eval', '--library', `${LIB}/skills`, '--queries', `${LIB}/no-such.jsonl`, '--no-model'],
    exit: 2,
    stderr: /cannot read queries file .*no-such\.jsonl: ENOENT/,
  },
  {
    name: 'check-text',
    args: ['check', '--config', `${LIB}/skill-router.yaml`, '--no-model', '--quiet'],
    exit: 1,
  },
  {
    name: 'check-json',
    args: ['check', '--config', `${LIB}/skill-router.yaml`, '--no-model', '--quiet', '--format', 'json'],
    exit: 1,
  },
  {
    name: 'check-sarif',
    args: ['check', '--config', `${LIB}/skill-router.yaml`, '--no-model', '--quiet', '--format', 'sarif'],
    exit: 1,
  },
  {
    name: 'check-junit',
    args: ['check', '--config', `${LIB}/skill-router.yaml`, '--no-model', '--quiet', '--format', 'junit'],
    exit: 1,
  },
  {
    name: 'check-pass',
    args: ['check', '--config', `${LIB}/skill-router.pass.yaml`, '--no-model', '--quiet'],
    exit: 0,
  },
  {
    name: 'check-bad-format',
    args: ['check', '--config', `${LIB}/skill-router.yaml`, '--no-model', '--format', 'html'],
    exit: 2,
    stderr: /unknown format "html"; use text, json, sarif, junit/,
  },
];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function sanitise(text: string): string {
  return text
    .split(ROOT)
    .join('<repo>')
    .replace(/\b\d+(?:\.\d+)? ms\b/g, '<n> ms')
    .replace(/"(indexMs|queryMsP50|queryMsP95)": [\d.]+/g, '"$1": "<n>"');
}

function render(c: Case, run: Run): string {
  return `$ skill-router ${c.args.join(' ')}\nexit ${run.code}\n--- stdout\n${sanitise(run.stdout)}`;
}

function compare(c: Case, run: Run, how: string, write: boolean): void {
  assert.equal(run.code, c.exit, `${how}: exit code\n--- stderr\n${run.stderr}`);
  if (c.stderr) assert.match(run.stderr, c.stderr, `${how}: stderr`);
  const file = join(SNAPSHOTS, `${c.name}.txt`);
  const actual = render(c, run);
  if (write) {
    mkdirSync(SNAPSHOTS, { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  assert.ok(existsSync(file), `no snapshot ${file}; create it with UPDATE_SNAPSHOTS=1`);
  assert.equal(actual, readFileSync(file, 'utf8'), `${how} differs from ${c.name}.txt`);
}

type Main = (io: {
  argv: string[];
  cwd: string;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env?: Record<string, string | undefined>;
  isTTY?: boolean;
}) => Promise<number>;

function loadMain(): Main {
  // The built bundle, as bin/skill-router.js loads it: the in-process run exercises the same code.
  const bundle = join(ROOT, 'dist/cli.js');
  assert.ok(existsSync(bundle), `${bundle} is missing: run node esbuild.mjs first`);
  return (require(bundle) as { main: Main }).main;
}

describe('cli: eval and check against snapshots', () => {
  for (const c of CASES) {
    describe(c.name, () => {
      it('spawned binary', () => {
        const r = spawnSync(process.execPath, [BIN, ...c.args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
        assert.equal(r.error, undefined);
        compare(c, { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }, 'spawned', UPDATE);
      });

      it('main() in process', async () => {
        const main = loadMain();
        const out = { stdout: '', stderr: '' };
        const code = await main({
          argv: c.args,
          cwd: ROOT,
          stdout: (s) => void (out.stdout += s),
          stderr: (s) => void (out.stderr += s),
          env: {},
          isTTY: false,
        });
        compare(c, { code, ...out }, 'in process', false);
      });
    });
  }
});
