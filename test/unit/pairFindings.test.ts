/** The language server's pair-findings store: splicing an edited skill's pairs, rechecks, pass bookkeeping. */
import { strict as assert } from 'node:assert';
import { PairScanCache } from '../../src/core/analysis/pairCache';
import type { PairFinding } from '../../src/core/analysis/types';
import { pairInputKey, PairFindingsStore, PassState, samePairs, type PairSource } from '../../src/server/pairFindings';

const pair = (a: string, b: string, similarity = 0.9): PairFinding => ({
  kind: 'near-duplicate',
  a: a < b ? a : b,
  b: a < b ? b : a,
  similarity,
  explanation: `${a} ~ ${b}`,
});

/** An engine in miniature: skills and the pairs a scan of each finds now. */
function source(pairs: PairFinding[], skills = new Set(pairs.flatMap((p) => [p.a, p.b]))): PairSource & { pairs: PairFinding[]; skills: Set<string> } {
  return {
    pairs,
    skills,
    skill(id) {
      return this.skills.has(id) ? { id } : undefined;
    },
    async pairFindings(id) {
      return this.pairs.filter((p) => p.a === id || p.b === id);
    },
  };
}

describe('PairFindingsStore', () => {
  it('refresh splices an edited skill\'s new pairs into its twins\' lists and names the twins before and after', async () => {
    const store = new PairFindingsStore();
    const engine = source([pair('a', 'b'), pair('b', 'c')], new Set(['a', 'b', 'c', 'd']));
    for (const id of ['a', 'b', 'c', 'd']) await store.refresh(engine, id, false);
    assert.deepEqual(store.of('b').map((p) => p.a + p.b), ['ab', 'bc']);
    // An edit to b: it is now close to d, no longer to a.
    engine.pairs = [pair('b', 'c'), pair('b', 'd')];
    const twins = await store.refresh(engine, 'b');
    assert.deepEqual([...twins].sort(), ['a', 'c', 'd']);
    assert.deepEqual(store.of('a'), []);
    assert.deepEqual(store.of('c').map((p) => p.a + p.b), ['bc']);
    assert.deepEqual(store.of('d').map((p) => p.a + p.b), ['bd']);
  });

  it('a skill gone from the library is forgotten and taken out of its twins\' lists', async () => {
    const store = new PairFindingsStore();
    const engine = source([pair('a', 'b')]);
    await store.refresh(engine, 'a', false);
    await store.refresh(engine, 'b', false);
    engine.skills.delete('b');
    engine.pairs = [];
    assert.deepEqual([...(await store.refresh(engine, 'b'))], ['a']);
    assert.equal(store.has('b'), false);
    assert.deepEqual(store.of('a'), []);
  });

  it('finds the twins of a skill never analysed itself from their lists, unless told not to', async () => {
    for (const findMentions of [true, false]) {
      const engine = source([pair('a', 'b')]);
      const store = new PairFindingsStore();
      await store.refresh(engine, 'a', false); // a's scan names b; b itself was never analysed
      engine.pairs = []; // b's edit makes it unlike a
      assert.deepEqual([...(await store.refresh(engine, 'b', findMentions))], findMentions ? ['a'] : [], `findMentions ${findMentions}`);
      assert.equal(store.of('a').length, findMentions ? 0 : 1);
    }
  });

  it('replace takes a rechecked list only when it differs, in any order', () => {
    const store = new PairFindingsStore();
    assert.equal(store.replace('a', [pair('a', 'b'), pair('a', 'c')]), true);
    assert.equal(store.replace('a', [pair('a', 'c'), pair('a', 'b')]), false);
    assert.equal(store.replace('a', [pair('a', 'c', 0.8), pair('a', 'b')]), true);
    assert.equal(store.of('a')[0].similarity, 0.8);
    assert.equal(samePairs(undefined, []), false, 'nothing known is not the same as no pairs');
    assert.equal(samePairs([], []), true);
    store.clear();
    assert.equal(store.has('a'), false);
  });

  it('fill takes a library-wide scan\'s pairs for the skills no edit rescanned meanwhile', async () => {
    const store = new PairFindingsStore();
    const engine = source([pair('a', 'b', 0.7)]);
    await store.refresh(engine, 'a', false); // an edit's scan, newer than the pass
    const took = store.fill([pair('a', 'b'), pair('b', 'c')], ['a', 'b', 'c', 'd']);
    assert.deepEqual(took, ['b', 'c', 'd']);
    assert.equal(store.of('a')[0].similarity, 0.7, 'the edit\'s scan stays');
    assert.deepEqual(store.of('b').map((p) => p.a + p.b), ['ab', 'bc']);
    assert.deepEqual(store.of('d'), []);
    assert.equal(store.has('d'), true, 'analysed, with no pairs');
  });

  it('persists its scan cache through the storage it was attached to', async () => {
    const store = new PairFindingsStore();
    const written: string[] = [];
    const stored = new PairScanCache();
    stored.setResult('lib', [pair('a', 'b')]);
    await store.attach({ read: async () => PairScanCache.fromJSON(JSON.parse(JSON.stringify(stored))), write: async (c) => void written.push(JSON.stringify(c)) });
    assert.equal(store.cache.result('lib')?.length, 1, 'read back');
    await store.persist();
    assert.equal(written.length, 0, 'nothing new to write');
    store.cache.setResult('lib2', []);
    await store.persist();
    assert.equal(written.length, 1);
  });

  it('shows the analysis ahead of a recheck', () => {
    const store = new PairFindingsStore();
    assert.equal(store.progress(), null);
    store.recheck.supersede(10);
    assert.deepEqual(store.progress(), { done: 0, total: 10 });
    const run = store.analysis.begin(4);
    run.report(2, 4);
    assert.deepEqual(store.progress(), { done: 2, total: 4 });
    run.end();
    assert.deepEqual(store.progress(), { done: 0, total: 10 });
  });
});

describe('PassState', () => {
  it('a newer run supersedes the one in flight; only the current run reports and ends', () => {
    const pass = new PassState();
    const first = pass.begin(3);
    assert.equal(pass.running, true);
    const second = pass.begin(5);
    assert.equal(first.live(), false);
    first.report(3, 3);
    first.end();
    assert.deepEqual(pass.progress, { done: 0, total: 5 }, 'the superseded run changes nothing');
    assert.equal(pass.running, true);
    second.report(4, 5);
    assert.deepEqual(pass.progress, { done: 4, total: 5 });
    second.end();
    assert.equal(pass.running, false);
    assert.equal(pass.progress, null);
  });

  it('supersede stops the run in flight and marks the next one due (or none)', () => {
    const pass = new PassState();
    const run = pass.begin(2);
    pass.supersede(7);
    assert.equal(run.live(), false);
    assert.deepEqual(pass.progress, { done: 0, total: 7 });
    assert.equal(pass.running, true, 'a run is still in flight until it notices');
    pass.supersede(null);
    assert.equal(pass.progress, null);
  });
});

describe('pairInputKey', () => {
  it('changes with what other skills\' probes meet (name, description, language), not with the body', () => {
    const doc = { name: 'csv', description: 'Clean CSV files.', lang: 'en' as const };
    const withBody = { ...doc, body: '## Usage\nRun it.' };
    assert.equal(pairInputKey(doc), pairInputKey(withBody));
    assert.notEqual(pairInputKey(doc), pairInputKey({ ...doc, description: 'Plot charts.' }));
    assert.notEqual(pairInputKey(doc), pairInputKey({ ...doc, lang: 'zh' }));
    assert.equal(pairInputKey(undefined), '');
  });
});
