// A request that invokes a skill by name (`/sdd:adr`, `$adr`) routes to that skill first, with
// relevance 1, and says so, whatever its words: the user chose the skill. A command named in
// passing does not. Runs the built bundle (dist/cli.js) in process, the real ONNX encoder included.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, writeLibrary } from '../helpers/cliInProcess';

const SKILLS: Record<string, string> = {
  adr: 'Create a new Architecture Decision Record (ADR) in MADR format when the user wants to document an architectural decision.',
  list: 'List all architecture decisions and specs with their status, grouped by domain.',
  graph: 'Build and query the artifact graph of decisions and specs: impact, ancestors, orphans and cycles.',
  'haiku-poet': 'Write haiku and short poems about nature, seasons and feelings, with a 5-7-5 syllable count.',
  qa: 'Run the release checklist: smoke tests, accessibility spot checks and a sign-off note.',
};

interface Routed {
  match: string;
  set?: { ids: string[] };
  results: { id: string; relevant?: boolean; inSet?: boolean; invoked?: string; scores: { relevance?: number; final: number } }[];
}

describe('cli: a request that invokes a skill by name', function () {
  this.timeout(120_000);
  let dir: string;

  const run = async (query: string, json: boolean): Promise<string> => {
    const out = await runCli(['route', query, '--library', 'lib', '--cache', join(dir, 'cache'), '--top', '4', '--quiet', ...(json ? ['--json'] : [])], dir);
    assert.equal(out.code, 0, out.stderr);
    return out.stdout;
  };
  const route = async (query: string): Promise<Routed> => JSON.parse(await run(query, true)) as Routed;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sr-invoked-'));
    writeLibrary(dir, SKILLS);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('puts the skill a plugin slash command names first, relevant, in the set, and says why', async () => {
    // Without the command the words go elsewhere: "list" and "decisions" are the list skill's.
    const plain = await route('list the decisions and their status');
    assert.equal(plain.results[0].id, 'list');
    const r = await route('/sdd:adr list the decisions and their status');
    assert.equal(r.results[0].id, 'adr', JSON.stringify(r.results));
    assert.equal(r.results[0].invoked, '/sdd:adr');
    assert.equal(r.results[0].scores.relevance, 1);
    assert.equal(r.results[0].relevant, true);
    assert.equal(r.match, 'strong');
    assert.equal(r.set?.ids[0], 'adr');
    // No result below it has a higher final score, and no other result is marked.
    assert.ok(r.results.every((x) => x.scores.final <= r.results[0].scores.final), JSON.stringify(r.results));
    assert.ok(r.results.slice(1).every((x) => x.invoked === undefined));
    const table = await run('/sdd:adr list the decisions and their status', false);
    assert.match(table.split('\n').find((l) => l.includes('(adr)')) ?? '', /\[invoked as \/sdd:adr\]/, table);
  });

  it('reads a Codex `$name` mention, and the bare command alone', async () => {
    const r = await route('record this with $graph please');
    assert.equal(r.results[0].id, 'graph');
    assert.equal(r.results[0].invoked, '$graph');
    const bare = await route('/haiku-poet');
    assert.equal(bare.results[0].id, 'haiku-poet');
    assert.equal(bare.match, 'strong');
    // A two-letter name, found by its folder.
    const short = await route('/qa write a haiku about autumn');
    assert.equal(short.results[0].id, 'qa', JSON.stringify(short.results));
    assert.equal(short.results[0].invoked, '/qa');
  });

  it('leaves a command named in passing to the words', async () => {
    const r = await route('list the decisions and their status so that /sdd:graph can link them');
    assert.ok(r.results.every((x) => x.invoked === undefined), JSON.stringify(r.results));
    assert.notEqual(r.results.find((x) => x.id === 'graph')?.scores.relevance, 1);
  });
});
