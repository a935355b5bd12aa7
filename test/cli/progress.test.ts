// The CLI in a git hook and in a terminal: off a terminal `check --changed-only` prints nothing
// but the report (no progress lines on stderr); in a terminal (a real pseudo-terminal, through
// util-linux `script`) progress is one line redrawn in place and erased before the report.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { withProgressLine } from '../../src/cli/io';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'bin/skill-router.js');

describe('cli: progress in a hook and in a terminal', function () {
  this.timeout(120_000);
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sr-progress-'));
    cpSync(join(ROOT, 'examples', 'library'), join(dir, 'library'), { recursive: true });
    writeFileSync(join(dir, 'skill-router.yaml'), 'library: library\n');
    writeFileSync(join(dir, 'skill-router.tests.yaml'), '- query: merge two PDF files into one\n  expect: [pdf-build]\n');
    const git = (...args: string[]) => spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
    git('init', '-q');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'add', '.');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'library');
    writeFileSync(join(dir, 'library', 'pdf-build', 'SKILL.md'), '---\nname: pdf-build\ndescription: Create, merge and split PDF files.\n---\n# PDF\n');
    git('add', '.');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('off a terminal (a git hook): stderr has no progress, stdout only the report', () => {
    const r = spawnSync(process.execPath, [BIN, 'check', '--changed-only', '--no-model', '--cache', join(dir, '.cache')], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr + r.stdout);
    assert.equal(r.stderr.replace(/^note: .*\n/gm, ''), '', `stderr: ${JSON.stringify(r.stderr)}`);
    assert.doesNotMatch(r.stdout, /read: |embed: |\r/);
    assert.match(r.stdout, /Routing tests: 1 run, 1 passed/);
  });

  it('in a terminal: one progress line, redrawn in place, erased before the report', function () {
    if (!existsSync('/usr/bin/script')) this.skip();
    const cmd = [process.execPath, BIN, 'index', '--library', join(dir, 'library'), '--no-model', '--cache', join(dir, '.cache-tty')].map((a) => `'${a}'`).join(' ');
    const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: dir, encoding: 'utf8', env: { ...process.env, TERM: 'dumb' } });
    assert.equal(r.status, 0, r.stdout);
    const out = r.stdout.replace(/\r\n/g, '\n');
    assert.match(out, /\r\x1b\[Kread: 13\/13 \(100%\)/, 'the line is redrawn in place');
    assert.doesNotMatch(out, /read: \d+\/13[^\r\x1b]*\n/, 'no progress line ends in a newline');
    assert.match(out, /\r\x1b\[K13 skills indexed/, 'erased before the report');
  });

  it('withProgressLine: throttled redraws, a new stage at once, erased before output and at the end', () => {
    let t = 0;
    const err: string[] = [];
    const out: string[] = [];
    const io = withProgressLine({ argv: [], cwd: '/', isTTY: true, stdout: (s) => out.push(s), stderr: (s) => err.push(s) }, () => t);
    io.progressLine!('read', 1, 10);
    t = 50;
    io.progressLine!('read', 2, 10); // within 100 ms: skipped
    io.progressLine!('embed', 0, 40); // a new stage: drawn
    t = 200;
    io.progressLine!('embed', 40, 40);
    assert.deepEqual(err, ['\r\x1b[Kread: 1/10 (10%)', '\r\x1b[Kembed: 0/40 (0%)', '\r\x1b[Kembed: 40/40 (100%)']);
    io.stdout('report\n');
    assert.deepEqual([err.at(-1), out], ['\r\x1b[K', ['report\n']]);
    io.endProgress();
    assert.equal(err.length, 4, 'nothing left to erase');
    const quiet = withProgressLine({ argv: [], cwd: '/', isTTY: false, stdout: () => undefined, stderr: (s) => err.push(s) });
    assert.equal(quiet.progressLine, undefined);
  });
});
