import { strict as assert } from 'node:assert';
import { countTerms, LexicalIndex } from '../../src/core/index/lexicalIndex';

const doc = (name: string[], description: string[], body: string[] = []) => ({ name, description, headings: [], body });
const q = (...terms: string[]) => new Map(terms.map((t) => [t, 1]));

describe('LexicalIndex (BM25F)', () => {
  it('ranks by field-weighted term matches', () => {
    const ix = new LexicalIndex();
    ix.upsert('a', doc(['pdf'], ['extract', 'text'], ['pdf']));
    ix.upsert('b', doc(['docx'], ['edit', 'word'], ['pdf']));
    ix.upsert('c', doc(['slides'], ['make', 'deck']));
    const s = ix.search(q('pdf'));
    assert.ok(s.get('a')! > s.get('b')!, 'a name match beats a body match');
    assert.equal(s.has('c'), false);
  });

  it('uses idf: rare terms outweigh common ones', () => {
    const ix = new LexicalIndex();
    for (let i = 0; i < 10; i++) ix.upsert(`d${i}`, doc([], ['common', i === 3 ? 'rare' : 'x']));
    const s = ix.search(q('common', 'rare'));
    const top = [...s].sort((a, b) => b[1] - a[1])[0][0];
    assert.equal(top, 'd3');
    assert.ok(ix.idf('rare') > ix.idf('common'));
  });

  it('updates and removes incrementally, also across compaction', () => {
    const ix = new LexicalIndex();
    for (let i = 0; i < 200; i++) ix.upsert(`d${i}`, doc([`n${i}`], ['shared']));
    ix.upsert('d5', doc(['renamed'], ['shared']));
    assert.equal(ix.search(q('n5')).size, 0);
    assert.ok(ix.search(q('renamed')).has('d5'));
    for (let i = 0; i < 150; i++) if (i !== 5) ix.remove(`d${i}`);
    assert.equal(ix.size, 51);
    assert.equal(ix.df('shared'), 51);
    assert.ok(ix.search(q('renamed')).has('d5'));
    assert.ok(ix.search(q('n199')).has('d199'));
    assert.equal(ix.search(q('n10')).size, 0);
  });
});

describe('LexicalIndex storage', () => {
  const many = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i): [string, ReturnType<typeof countTerms>] => [
      `d${from + i}`,
      countTerms(doc([`n${(from + i) % 13}`], ['shared', `w${(from + i) % 7}`], Array.from({ length: (from + i) % 5 === 0 ? 400 : 3 }, () => `b${(from + i) % 3}`))),
    ]);
  const queries = [q('shared'), q('b0', 'w3'), q('n4', 'b1', 'b2')];
  const results = (ix: LexicalIndex) => queries.map((x) => [...ix.search(x)]);

  it('scores a batch (one block, frequencies over 255 included) exactly as one by one, in the same order', () => {
    const batch = new LexicalIndex();
    batch.upsertManyCounts(many(100));
    const one = new LexicalIndex();
    for (const [k, c] of many(100)) one.upsertCounts(k, c);
    assert.deepEqual(results(batch), results(one));
    // Edits after the batch append; removals past a quarter compact; a second batch rebuilds.
    for (const ix of [batch, one]) {
      for (const [k, c] of many(10, 95)) ix.upsertCounts(k, c);
      for (let i = 0; i < 40; i++) ix.remove(`d${i * 2}`);
      ix.upsertManyCounts(many(80, 200));
    }
    assert.deepEqual(results(batch), results(one));
    assert.equal(batch.df('b0'), one.df('b0'));
  });

  it('a sliced batch (term ids a slice at a time, pauses between steps) gives the same index, also when it replaces most of it', async () => {
    const sync = new LexicalIndex();
    const sliced = new LexicalIndex();
    let pauses = 0;
    const pause = async () => void pauses++;
    for (const ix of [sync, sliced]) ix.upsertManyCounts(many(100));
    // A branch switch: 70 of the 100 replaced (a compaction first), and 30 new ones.
    const next = [...many(70).map(([k], i): [string, ReturnType<typeof countTerms>] => [k, many(1, 500 + i)[0][1]]), ...many(30, 300)];
    sync.upsertManyCounts(next);
    await sliced.upsertManyCountsSliced(next, { sliceMs: 0, pause });
    assert.deepEqual(results(sliced), results(sync));
    assert.equal(sliced.size, sync.size);
    assert.equal(sliced.df('b1'), sync.df('b1'));
    assert.ok(pauses >= next.length, `with a zero budget it pauses after every skill's ids (${pauses})`);
  });

  it('a sliced batch pauses inside its compaction and its rebuild, and between pauses answers as before it less the batch', async () => {
    const sliced = new LexicalIndex();
    sliced.upsertManyCounts(many(900));
    // 800 of 900 replaced: a compaction, then a rebuild, each over more than one step.
    const next = many(800).map(([k], i): [string, ReturnType<typeof countTerms>] => [k, many(1, 2000 + i)[0][1]]);
    const untouched = new LexicalIndex();
    untouched.upsertManyCounts(many(100, 800));
    const expected = JSON.stringify(results(untouched));
    const old = JSON.stringify(results(sliced));
    const seen: string[] = [];
    let atIds = 0;
    await sliced.upsertManyCountsSliced(next, {
      sliceMs: 0,
      pause: async () => {
        atIds++;
        const now = JSON.stringify(results(sliced));
        seen.push(now === expected ? 'less the batch' : now === old ? 'before' : 'other');
      },
    });
    // One pause per skill's ids; the rest are the compaction's and the rebuild's steps.
    assert.ok(atIds > next.length + 4, `${atIds} pauses`);
    // The first pause comes before the batch's keys are taken out.
    assert.deepEqual([...new Set(seen)], ['before', 'less the batch']);
    assert.deepEqual(seen.slice(0, 2), ['before', 'less the batch']);
    const sync = new LexicalIndex();
    sync.upsertManyCounts(many(900));
    sync.upsertManyCounts(next);
    assert.deepEqual(results(sliced), results(sync));
  });
});
