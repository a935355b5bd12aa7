import { strict as assert } from 'node:assert';
import { LexicalIndex } from '../../src/core/index/lexicalIndex';

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
