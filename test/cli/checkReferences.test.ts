// `check` reports references to skills the library does not have and links to files the skill
// folder does not have, as the editor does (core/analysis/references.ts); --strict fails on them.
// Runs the built bundle (dist/cli.js) in process, lexical only.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
type Main = (io: { argv: string[]; cwd: string; stdout: (s: string) => void; stderr: (s: string) => void; env?: Record<string, string | undefined> }) => Promise<number>;
interface Report {
  findings: { file: string; code: string; severity: string; message: string; suggestion?: string; line: number | null }[];
}

describe('cli: check and references between skills', () => {
  let dir: string;
  const put = (rel: string, text: string) => {
    mkdirSync(join(dir, 'lib', rel, '..'), { recursive: true });
    writeFileSync(join(dir, 'lib', rel), text);
  };
  const skill = (name: string, body: string) => `---\nname: ${name}\ndescription: ${name} does one thing. Use when asked to ${name}.\n---\n\n${body}\n`;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sr-refs-check-'));
    put('jira-search/SKILL.md', skill('jira-search', '# Jira\n\nRun `scripts/query.py`.'));
    put('jira-search/scripts/query.py', 'print(1)\n');
    put('ship/SKILL.md', skill('ship', '# Ship\n\nUse `jira-serach` for JQL.\nSee [forms](references/forms.md).\n\n```\n`jira-serach` in code\n```'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (...extra: string[]) => {
    const main = (require(join(ROOT, 'dist/cli.js')) as { main: Main }).main;
    const out = { stdout: '', stderr: '' };
    const code = await main({ argv: ['check', '--library', 'lib', '--no-model', '--quiet', '--cache', join(dir, 'cache'), '--format', 'json', ...extra], cwd: dir, stdout: (s) => void (out.stdout += s), stderr: (s) => void (out.stderr += s), env: {} });
    return { code, report: JSON.parse(out.stdout) as Report, stderr: out.stderr };
  };

  it('reports the misspelt skill with the name it meant, and the missing file, once each', async () => {
    const { code, report, stderr } = await run();
    assert.equal(code, 0, stderr);
    const ours = report.findings.filter((f) => f.code === 'skill.broken-reference' || f.code === 'file.broken-link').map((f) => [f.file, f.code, f.severity, f.line, f.suggestion]).sort((a, b) => String(a[1]).localeCompare(String(b[1])));
    assert.deepEqual(ours, [
      [join('lib', 'ship', 'SKILL.md'), 'file.broken-link', 'warning', 9, undefined],
      [join('lib', 'ship', 'SKILL.md'), 'skill.broken-reference', 'warning', 8, 'jira-search'],
    ]);
  });

  it('fails with --strict', async () => {
    assert.equal((await run('--strict')).code, 1);
  });
});
