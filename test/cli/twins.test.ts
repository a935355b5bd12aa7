// Twins written in other words (issue 44): `check` flags csv-cleaner and tabular-data-cleanup as
// near-duplicates in a 3-skill library, with the default encoder, and every example request of
// the finding, pasted into `route`, ranks both skills where the finding says. Runs the built bundle (dist/cli.js) in process, the real ONNX encoder included.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, writeLibrary } from '../helpers/cliInProcess';

const SKILLS: Record<string, string> = {
  'csv-cleaner':
    'Clean messy CSV files - fix encodings, trim whitespace, normalise dates and drop duplicate rows. Use when a CSV export is dirty before loading it into a spreadsheet or database.',
  'tabular-data-cleanup': 'Tidy dirty CSV exports before analysis - repair encodings, strip stray whitespace, standardise dates and remove duplicate rows.',
  'haiku-poet': 'Write haiku and short poems about nature, seasons and feelings, with a 5-7-5 syllable count.',
};

interface JsonFinding {
  skillId: string;
  code: string;
  message: string;
  related: { skillId: string }[];
  evidence?: { requests: { query: string; ranks: Record<string, number> }[] };
}

describe('cli: twins in other words are near-duplicates, and their evidence reproduces in route', function () {
  this.timeout(120_000);
  let dir: string;

  const run = (argv: string[]) => runCli(argv, dir);

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sr-twins-'));
    writeLibrary(dir, SKILLS);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('flags the pair on both skills, and each example request routes as the message says', async () => {
    const r = await run(['check', '--library', 'lib', '--quiet', '--cache', join(dir, 'cache'), '--format', 'json']);
    assert.notEqual(r.code, 2, r.stderr);
    const findings = (JSON.parse(r.stdout).findings as JsonFinding[]).filter((f) => f.code.startsWith('skill.'));
    const dups = findings.filter((f) => f.code === 'skill.near-duplicate');
    assert.deepEqual(
      dups.map((f) => `${f.skillId} ${f.related[0].skillId}`).sort(),
      ['csv-cleaner tabular-data-cleanup', 'tabular-data-cleanup csv-cleaner'],
      JSON.stringify(findings, null, 1),
    );
    const requests = dups.flatMap((f) => f.evidence?.requests ?? []);
    assert.ok(requests.length >= 1);
    for (const e of requests) {
      const routed = await run(['route', e.query, '--library', 'lib', '--cache', join(dir, 'cache'), '--top', '5', '--json', '--quiet']);
      assert.equal(routed.code, 0, routed.stderr);
      const results = JSON.parse(routed.stdout).results as { id: string; relevant?: boolean }[];
      const ids = results.map((x) => x.id);
      for (const [id, rank] of Object.entries(e.ranks)) {
        assert.equal(ids.indexOf(id) + 1, rank, `${e.query}: ${id} in ${ids.join(', ')}`);
        // Both twins answer the request: neither is shown below "not relevant to this request".
        assert.notEqual(results[rank - 1].relevant, false, `${e.query}: ${id} judged not relevant`);
      }
      assert.equal(results.find((x) => x.id === 'haiku-poet')?.relevant, false, 'the unrelated skill stays context');
    }
  });

  it('a twin under the same name written another way is one skill listed twice: keep one, no line sending each to the other', async () => {
    const alt = mkdtempSync(join(tmpdir(), 'sr-twice-'));
    try {
      const skills: Record<string, string> = { 'csv-cleaner': SKILLS['csv-cleaner'], csv_cleaner: SKILLS['tabular-data-cleanup'], 'haiku-poet': SKILLS['haiku-poet'] };
      writeLibrary(alt, skills);
      const r = await run(['check', '--library', join(alt, 'lib'), '--quiet', '--cache', join(alt, '.cache'), '--format', 'json']);
      assert.notEqual(r.code, 2, r.stderr);
      const dups = (JSON.parse(r.stdout).findings as (JsonFinding & { suggestion?: string })[]).filter((f) => f.code === 'skill.near-duplicate');
      assert.deepEqual(dups.map((f) => f.skillId).sort(), ['csv-cleaner', 'csv_cleaner'], r.stdout);
      for (const f of dups) {
        assert.match(f.message, /the same skill under its name written another way/, f.message);
        assert.match(f.message, /Keep one/, f.message);
        assert.equal(f.suggestion, undefined, `no "For ..., use" line for one skill listed twice: ${f.suggestion}`);
      }
    } finally {
      rmSync(alt, { recursive: true, force: true });
    }
  });
});
