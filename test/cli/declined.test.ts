// A request that says what not to do ("Create a PRD only; do not plan or implement"): the declined
// clause's words are not matched, so the skill for the declined step does not win the request,
// and the result says which clause was left out. Before core/text/declined.ts the planner took
// all three requests below (relevance 0.99). Runs the built bundle (dist/cli.js) in process, the
// real ONNX encoder included.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, writeLibrary } from '../helpers/cliInProcess';

const SKILLS: Record<string, string> = {
  'prd-writer': 'Author product requirement documents - problem statement, target users, goals, non-goals and acceptance criteria.',
  'implementation-planner': 'Implementation planning from a PRD - plan the work, plan tasks and milestones, then implement the plan step by step and implement each task with tests.',
  'haiku-poet': 'Write haiku and short poems about nature, seasons and feelings, with a 5-7-5 syllable count.',
};

interface Routed {
  query: string;
  declined?: string[];
  results: { id: string; relevant?: boolean }[];
}

describe('cli: what a request declines is not matched, with the model', function () {
  this.timeout(120_000);
  let dir: string;

  const run = async (query: string, json: boolean): Promise<string> => {
    const out = await runCli(['route', query, '--library', 'lib', '--cache', join(dir, 'cache'), '--top', '3', '--quiet', ...(json ? ['--json'] : [])], dir);
    assert.equal(out.code, 0, out.stderr);
    return out.stdout;
  };
  const route = async (query: string): Promise<Routed> => JSON.parse(await run(query, true)) as Routed;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sr-declined-'));
    writeLibrary(dir, SKILLS);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('routes to the asked step, not the declined one, and says which clause it left out', async () => {
    for (const [query, clause] of [
      ['Create a PRD only; do not plan or implement', 'do not plan or implement'],
      ["Write the PRD; don't plan the tasks or implement the code", "don't plan the tasks or implement the code"],
      ['Draft a PRD for export, but do not break it into tasks or write the code', 'do not break it into tasks or write the code'],
    ]) {
      const r = await route(query);
      assert.equal(r.results[0].id, 'prd-writer', `${query}: ${JSON.stringify(r.results)}`);
      assert.equal(r.results.find((x) => x.id === 'implementation-planner')?.relevant, false, query);
      assert.deepEqual(r.declined, [clause]);
      assert.equal(r.query, query, 'the request is shown as written');
    }
    const table = await run('Create a PRD only; do not plan or implement', false);
    assert.match(table, /^Not matched, because the request says not to: “do not plan or implement”$/m);
  });

  it('still routes the step when the request asks for it', async () => {
    const r = await route('Plan the tasks and implement the export feature from its PRD');
    assert.equal(r.results[0].id, 'implementation-planner', JSON.stringify(r.results));
    assert.equal(r.declined, undefined);
  });
});
