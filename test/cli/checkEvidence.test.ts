// `skill-router check --format json` carries the routing evidence of every pair finding: the
// author's routing test first among the requests, both skills ranked within the top 3 for each,
// and the probes sent and taken; copies are reported across top-level folders, other pairs only
// within one; a second run reads the pair scan's result from the cache. Runs the built bundle
// (dist/cli.js) in process on a copy of the duplicates fixture workspace, lexical only.
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const WORKSPACES = join(ROOT, 'test/fixtures/workspaces');

type Main = (io: { argv: string[]; cwd: string; stdout: (s: string) => void; stderr: (s: string) => void; env?: Record<string, string | undefined> }) => Promise<number>;

interface Evidence {
  requests: { query: string; ranks: Record<string, number>; source: string; for: string }[];
  probes: { sent: number; taken: number };
}

interface JsonFinding {
  skillId: string;
  code: string;
  message: string;
  related: { skillId: string }[];
  evidence?: Evidence;
  suggestion?: string;
}

describe('cli: check reports pair findings with their routing evidence', () => {
  let dir: string;
  const QUERY = 'remove the duplicate rows and fix the delimiters of this CSV export';

  const check = async (): Promise<{ code: number; findings: JsonFinding[] }> => {
    const main = (require(join(ROOT, 'dist/cli.js')) as { main: Main }).main;
    const out = { stdout: '', stderr: '' };
    const code = await main({
      argv: ['check', '--library', 'lib', '--no-model', '--quiet', '--cache', join(dir, 'cache'), '--format', 'json'],
      cwd: dir,
      stdout: (s) => void (out.stdout += s),
      stderr: (s) => void (out.stderr += s),
      env: {},
    });
    assert.notEqual(code, 2, out.stderr);
    return { code, findings: (JSON.parse(out.stdout).findings as JsonFinding[]).filter((f) => f.code.startsWith('skill.')) };
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sr-check-evidence-'));
    cpSync(join(WORKSPACES, 'duplicates'), join(dir, 'lib', 'team'), { recursive: true });
    // A copy of one twin in another collection, and a routing test written for the other twin.
    mkdirSync(join(dir, 'lib', 'vendor', 'csv-cleaner'), { recursive: true });
    writeFileSync(join(dir, 'lib', 'vendor', 'csv-cleaner', 'SKILL.md'), readFileSync(join(dir, 'lib', 'team', 'csv-cleaner', 'SKILL.md')));
    writeFileSync(join(dir, 'lib', 'skill-router.tests.yaml'), `- query: ${QUERY}\n  expect: csv-tidy\n  top: 3\n`);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('puts the evidence on every near-duplicate and conflict, the author\'s test first', async () => {
    const { findings } = await check();
    const summary = findings.map((f) => `${f.skillId} ${f.code} ${f.related[0].skillId}`).sort();
    assert.deepEqual(summary, [
      'team/csv-cleaner skill.copy vendor/csv-cleaner',
      'team/csv-cleaner skill.near-duplicate team/csv-tidy',
      'team/csv-tidy skill.near-duplicate team/csv-cleaner',
      'vendor/csv-cleaner skill.copy team/csv-cleaner',
    ], 'a copy across collections; no near-duplicate across them');
    for (const f of findings) {
      if (f.code === 'skill.copy') {
        assert.equal(f.evidence, undefined);
        assert.equal(f.suggestion, undefined, 'no line to add for a copy');
        continue;
      }
      assert.ok(f.evidence, `${f.skillId}: evidence`);
      const [first] = f.evidence.requests;
      assert.equal(first.query, QUERY);
      assert.equal(first.source, 'test');
      assert.equal(first.for, 'team/csv-tidy');
      for (const r of f.evidence.requests) {
        assert.deepEqual(Object.keys(r.ranks).sort(), ['team/csv-cleaner', 'team/csv-tidy']);
        assert.ok(Object.values(r.ranks).every((k) => k <= 3), JSON.stringify(r));
      }
      assert.ok(f.evidence.probes.sent >= 2 && f.evidence.probes.taken >= 2 && f.evidence.probes.taken <= f.evidence.probes.sent);
      assert.match(f.message, new RegExp(QUERY));
    }
  });

  it('a second run reads the pair scan from the cache; an edit scans again', async () => {
    const first = await check();
    assert.ok(existsSync(join(dir, 'cache', 'pair-findings.json')), 'the result is kept beside the index cache');
    const cached = JSON.parse(readFileSync(join(dir, 'cache', 'pair-findings.json'), 'utf8'));
    assert.equal(cached.results.length, 1);
    assert.deepEqual((await check()).findings, first.findings);
    writeFileSync(join(dir, 'lib', 'team', 'csv-tidy', 'SKILL.md'), '---\nname: csv-tidy\ndescription: Translate restaurant menus into French for a chef.\n---\n\n# Menus\n');
    // The routing test still sends a CSV request to it (and the router to csv-cleaner): drop it too.
    rmSync(join(dir, 'lib', 'skill-router.tests.yaml'));
    const after = await check();
    assert.ok(!after.findings.some((f) => f.code === 'skill.near-duplicate'), 'the edited skill no longer competes');
    assert.equal(JSON.parse(readFileSync(join(dir, 'cache', 'pair-findings.json'), 'utf8')).results.length, 2);
  });
});
