// `skill-router diff --base <ref>` on a git fixture (issue 48): a library committed, then three
// edits in the working tree (a twin of csv-charts added, pdf-extract's description trimmed,
// sql-tuning renamed): each movement reported exactly, the routing test that names the old name
// breaks (exit 1), and with no change one line says nothing moved. Runs the built bundle
// (dist/cli.js) in process, lexical only, against a real git repository.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RoutingDiff } from '../../src/cli/diff';

const ROOT = resolve(__dirname, '../../..');
type Main = (io: { argv: string[]; cwd: string; stdout: (s: string) => void; stderr: (s: string) => void; env?: Record<string, string | undefined> }) => Promise<number>;

describe('cli: diff, what a change does to routing', function () {
  this.timeout(120_000);
  let dir: string;
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });
  const diff = async (...extra: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    const main = (require(join(ROOT, 'dist/cli.js')) as { main: Main }).main;
    const out = { stdout: '', stderr: '' };
    const code = await main({ argv: ['diff', '--base', 'HEAD', '--library', 'lib', '--no-model', '--quiet', '--cache', join(dir, '.cache'), ...extra], cwd: dir, stdout: (s) => void (out.stdout += s), stderr: (s) => void (out.stderr += s), env: {} });
    return { code, ...out };
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sr-diff-'));
    cpSync(join(ROOT, 'test/fixtures/check-lib/skills'), join(dir, 'lib'), { recursive: true });
    writeFileSync(join(dir, 'lib', 'skill-router.tests.yaml'), '- query: speed up a slow SQL query with an index\n  expect: sql-tuning\n  top: 1\n');
    writeFileSync(join(dir, '.gitignore'), '.cache/\n');
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'base');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('says in one line that nothing moved when nothing changed', async () => {
    const r = await diff();
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Nothing moved: every request goes to the same skill first/m);
  });

  it('reports the twin, the trim and the rename exactly, and exits 1 for the broken test', async () => {
    mkdirSync(join(dir, 'lib', 'chart-maker'));
    writeFileSync(join(dir, 'lib', 'chart-maker', 'SKILL.md'), '---\nname: chart-maker\ndescription: Draw bar, line and scatter charts from CSV spreadsheets with matplotlib and save them as PNG images.\n---\n\n# Charts from CSV\n\nLoad the CSV with pandas, plot with matplotlib, save as PNG.\n');
    const pdf = join(dir, 'lib', 'pdf-extract', 'SKILL.md');
    writeFileSync(pdf, readFileSync(pdf, 'utf8').replace(/^description: .*$/m, 'description: Work with PDF files.'));
    renameSync(join(dir, 'lib', 'sql-tuning'), join(dir, 'lib', 'sql-query-tuning'));
    const sql = join(dir, 'lib', 'sql-query-tuning', 'SKILL.md');
    writeFileSync(sql, readFileSync(sql, 'utf8').replace(/^name: sql-tuning$/m, 'name: sql-query-tuning'));

    const r = await diff('--format', 'json');
    assert.equal(r.code, 1, r.stderr);
    const d = JSON.parse(r.stdout) as RoutingDiff;
    assert.deepEqual(d.skills.added, ['chart-maker', 'sql-query-tuning']);
    assert.deepEqual(d.skills.removed, ['sql-tuning']);
    assert.deepEqual(d.skills.changed, ['pdf-extract']);
    // Every request sql-tuning had goes to the renamed skill; the twin takes a CSV chart request.
    const sqlMoves = d.moved.filter((m) => m.from === 'sql-tuning');
    assert.ok(sqlMoves.length >= 1 && sqlMoves.every((m) => m.to === 'sql-query-tuning'), JSON.stringify(d.moved));
    const lostBySql = d.bySkill.find((k) => k.id === 'sql-tuning')!;
    assert.equal(lostBySql.after, 0);
    assert.equal(lostBySql.lost.length, lostBySql.before);
    assert.ok(d.moved.some((m) => m.from === 'csv-charts' && m.to === 'chart-maker'), 'the twin takes requests from csv-charts');
    assert.ok(d.moved.every((m) => ['sql-tuning', 'csv-charts', 'pdf-extract'].includes(m.from ?? '')), JSON.stringify(d.moved));
    assert.deepEqual(d.tests.map((t) => [t.query, t.before, t.after]), [['speed up a slow SQL query with an index', true, false]], 'the test that names the old name breaks');
    assert.deepEqual(d.findings.added.map((f) => `${f.kind} ${f.a} ${f.b}`), ['near-duplicate chart-maker csv-charts']);
    const claude = d.budgets.find((b) => b.client === 'claude-code')!;
    assert.ok(claude.after < claude.before, 'the trimmed description costs less of the listing');

    const md = await diff('--format', 'markdown');
    assert.match(md.stdout, /^### Routing diff: `HEAD` → this change/m);
    assert.match(md.stdout, /\| speed up a slow SQL query with an index \(lib\/skill-router\.tests\.yaml:1\) \| pass \| \*\*fail\*\* \|/);
    assert.match(md.stdout, /<details><summary>\d+ requests? that now go to another skill first<\/summary>/);
    assert.equal((await diff('--max-moved', '100')).code, 1, 'the broken test fails it whatever the movement');

    // check --base: the check's report, then the diff; the broken test fails the check.
    const main = (require(join(ROOT, 'dist/cli.js')) as { main: Main }).main;
    const out = { stdout: '', stderr: '' };
    const code = await main({ argv: ['check', '--library', 'lib', '--no-model', '--quiet', '--cache', join(dir, '.cache'), '--base', 'HEAD'], cwd: dir, stdout: (x) => void (out.stdout += x), stderr: (x) => void (out.stderr += x), env: {} });
    assert.equal(code, 1, out.stderr);
    assert.match(out.stdout, /^Routing diff of .*lib: HEAD -> working tree/m);
    assert.match(out.stdout, /"speed up a slow SQL query with an index": pass -> fail/);
  });

  it('--staged compares what the next commit holds, not the working tree', async () => {
    // The edits of the test above are in the working tree, none staged: nothing moves.
    const clean = await diff('--staged', '--format', 'json');
    assert.equal(clean.code, 0, clean.stderr);
    assert.equal((JSON.parse(clean.stdout) as RoutingDiff).moved.length, 0);
    assert.equal((JSON.parse(clean.stdout) as RoutingDiff).head, 'staged');
    git('add', 'lib/chart-maker');
    const staged = JSON.parse((await diff('--staged', '--format', 'json')).stdout) as RoutingDiff;
    assert.deepEqual(staged.skills.added, ['chart-maker'], 'only the staged twin');
    assert.deepEqual(staged.skills.removed, []);
    assert.ok(staged.moved.length >= 1 && staged.moved.every((m) => m.to === 'chart-maker'));
  });

  it('names what is wrong: no --base, an unknown ref', async () => {
    const main = (require(join(ROOT, 'dist/cli.js')) as { main: Main }).main;
    let err = '';
    assert.equal(await main({ argv: ['diff', '--library', 'lib'], cwd: dir, stdout: () => undefined, stderr: (s) => void (err += s), env: {} }), 2);
    assert.match(err, /diff needs --base <git-ref>/);
    const r = await diff('--base', 'no-such-branch');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown git ref "no-such-branch"/);
  });
});
