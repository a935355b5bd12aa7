// The checks of issue 47 through `skill-router check` (the built bundle, in process, lexical
// only): a byte order mark fails the check until it is removed, a long body and a piped install
// line are reported, two skills with one name point at each other, and an empty `metadata:` passes.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
type Main = (io: { argv: string[]; cwd: string; stdout: (s: string) => void; stderr: (s: string) => void; env?: Record<string, string | undefined> }) => Promise<number>;
interface Report {
  findings: { file: string; code: string; severity: string; message: string; line: number | null; related?: { file: string; message: string }[] }[];
}

describe('cli: check reports file.bom, body.too-long, body.pipe-to-shell and skill.duplicate-name', () => {
  let dir: string;
  const skill = (name: string, description: string, body = '# Steps\n', extra = '') => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}`;
  const write = (id: string, text: string | Uint8Array) => {
    mkdirSync(join(dir, 'lib', id), { recursive: true });
    writeFileSync(join(dir, 'lib', id, 'SKILL.md'), text);
  };
  const check = async (): Promise<{ code: number; report: Report; stderr: string }> => {
    const main = (require(join(ROOT, 'dist/cli.js')) as { main: Main }).main;
    const out = { stdout: '', stderr: '' };
    const code = await main({ argv: ['check', '--library', 'lib', '--no-model', '--quiet', '--cache', join(dir, 'cache'), '--format', 'json'], cwd: dir, stdout: (s) => void (out.stdout += s), stderr: (s) => void (out.stderr += s), env: {} });
    return { code, report: JSON.parse(out.stdout) as Report, stderr: out.stderr };
  };
  const of = (report: Report, code: string) => report.findings.filter((f) => f.code === code);

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sr-skill-checks-'));
    write('pdf-extract', new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(skill('pdf-extract', 'Extract text and tables from PDF files.'))]));
    // One collection (`ops`), two folders named k8s: each name matches its folder, and the agent still sees two "k8s".
    write('ops/k8s', skill('k8s', 'Deploy services to Kubernetes with Helm charts.'));
    write('ops/legacy/k8s', skill('k8s', 'Roll back a failed release of a web service.'));
    write('uv-setup', skill('uv-setup', 'Set up Python projects with uv.', 'Install:\n\n```bash\ncurl -LsSf https://astral.sh/uv/install.sh | sh\n```\n\nNever pipe curl into bash on a shared server.\n'));
    write('long-guide', skill('long-guide', 'Translate subtitle files between languages.', Array.from({ length: 600 }, (_, i) => `Step ${i}.`).join('\n') + '\n'));
    write('empty-meta', skill('empty-meta', 'Render charts from spreadsheet data.', '# Charts\n', 'metadata:\n'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reports each with its code, severity and line, and fails on the byte order mark', async () => {
    const { code, report, stderr } = await check();
    assert.equal(code, 1, stderr);
    const bom = of(report, 'file.bom');
    assert.deepEqual(bom.map((f) => [f.file, f.severity]), [['lib/pdf-extract/SKILL.md', 'error']]);
    assert.deepEqual(report.findings.filter((f) => f.file === 'lib/pdf-extract/SKILL.md' && !f.code.startsWith('skill.')).map((f) => f.code), ['file.bom'], 'the front matter is still read');

    const dup = of(report, 'skill.duplicate-name');
    assert.deepEqual(dup.map((f) => [f.file, f.severity, f.related?.map((r) => r.file)]), [
      ['lib/ops/k8s/SKILL.md', 'warning', ['lib/ops/legacy/k8s/SKILL.md']],
      ['lib/ops/legacy/k8s/SKILL.md', 'warning', ['lib/ops/k8s/SKILL.md']],
    ]);

    const pipe = of(report, 'body.pipe-to-shell');
    assert.deepEqual(pipe.map((f) => [f.file, f.severity, f.line]), [['lib/uv-setup/SKILL.md', 'info', 9]], 'the code line, not the prose that warns about it');

    const long = of(report, 'body.too-long');
    assert.deepEqual(long.map((f) => [f.file, f.severity, f.line]), [['lib/long-guide/SKILL.md', 'warning', 501]]);
    assert.match(long[0].message, /^SKILL\.md is 605 lines/);

    assert.deepEqual(report.findings.filter((f) => f.file === 'lib/empty-meta/SKILL.md' && !f.code.startsWith('skill.')), [], 'an empty metadata: passes');
  });

  it('passes the byte order mark check once the mark is removed, the rest unchanged', async () => {
    const before = (await check()).report.findings.filter((f) => f.code !== 'file.bom').map((f) => `${f.file} ${f.code}`).sort();
    write('pdf-extract', skill('pdf-extract', 'Extract text and tables from PDF files.'));
    const { code, report } = await check();
    assert.deepEqual(of(report, 'file.bom'), []);
    assert.equal(code, 0, JSON.stringify(report.findings.filter((f) => f.severity === 'error')));
    assert.deepEqual(report.findings.map((f) => `${f.file} ${f.code}`).sort(), before);
  });
});
