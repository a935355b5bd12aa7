// A skill linked in from outside the library (issue 46): `check` leaves it out and says so once,
// as information, and passes; nothing of the outside file reaches the report. Runs the built
// bundle (dist/cli.js) in process, lexical only.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
type Main = (io: { argv: string[]; cwd: string; stdout: (s: string) => void; stderr: (s: string) => void; env?: Record<string, string | undefined> }) => Promise<number>;

describe('cli: check and links out of the library', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sr-outside-check-'));
    const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`;
    mkdirSync(join(dir, 'lib', 'pdf-extract'), { recursive: true });
    writeFileSync(join(dir, 'lib', 'pdf-extract', 'SKILL.md'), skill('pdf-extract', 'Extract text and tables from PDF files.'));
    mkdirSync(join(dir, 'outside', 'secret-notes'), { recursive: true });
    writeFileSync(join(dir, 'outside', 'secret-notes', 'SKILL.md'), skill('secret-notes', 'Private notes about the quarterly payroll.'));
    symlinkSync(join(dir, 'outside', 'secret-notes'), join(dir, 'lib', 'secret-notes'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reports the link once as information, indexes nothing of it, and passes', async () => {
    const main = (require(join(ROOT, 'dist/cli.js')) as { main: Main }).main;
    const out = { stdout: '', stderr: '' };
    const code = await main({ argv: ['check', '--library', 'lib', '--no-model', '--quiet', '--cache', join(dir, 'cache'), '--format', 'json'], cwd: dir, stdout: (s) => void (out.stdout += s), stderr: (s) => void (out.stderr += s), env: {} });
    assert.equal(code, 0, out.stderr + out.stdout);
    const report = JSON.parse(out.stdout) as { skills: number; findings: { code: string; severity: string; message: string }[] };
    assert.equal(report.skills, 1);
    const notes = report.findings.filter((f) => f.code === 'file.outside-library');
    assert.equal(notes.length, 1, JSON.stringify(report.findings));
    assert.equal(notes[0].severity, 'info');
    assert.match(notes[0].message, /outside the library .*not read/);
    assert.doesNotMatch(out.stdout, /payroll/, 'nothing of the outside file is shown');
  });
});
