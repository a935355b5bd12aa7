import { strict as assert } from 'node:assert';
import { analyse } from '../../src/core/text/analyse';
import { LexicalIndex } from '../../src/core/index/lexicalIndex';

describe('tokenization of technical requests', () => {
  it('keeps product and library names whole and also indexes their parts', () => {
    const t = analyse('Deploy the Next.js app with Node.js, C++ and C# on PostgreSQL via the OpenAI API');
    for (const whole of ['nextjs', 'nodejs', 'c++', 'c#', 'postgresql', 'openai', 'api']) assert.ok(t.includes(whole), whole);
    for (const part of ['next', 'node', 'js', 'open']) assert.ok(t.includes(part), part);
  });

  it('splits identifiers, file names and versions', () => {
    assert.deepEqual(analyse('getUserName'), ['getusername', 'get', 'user', 'name'].filter((w) => w !== 'get'));
    assert.ok(analyse('convert report.docx').includes('docx'));
    assert.deepEqual(analyse('gpt-4o'), ['gpt4o', 'gpt', '4o']);
    assert.ok(analyse('HikariPool-1 timed out').includes('hikari'));
  });

  it('drops long numbers, stop words and request filler', () => {
    assert.deepEqual(analyse('Please help me, I need to use something like 1234567'), []);
  });
});

describe('LexicalIndex document frequencies', () => {
  it('stay right across changes (they are cached between them)', () => {
    const ix = new LexicalIndex();
    const doc = (...body: string[]) => ({ name: [], description: [], headings: [], body });
    ix.upsert('a', doc('kafka'));
    assert.equal(ix.df('kafka'), 1);
    ix.upsert('b', doc('kafka', 'lag'));
    assert.equal(ix.df('kafka'), 2);
    ix.remove('a');
    assert.equal(ix.df('kafka'), 1);
    ix.upsert('b', doc('lag'));
    assert.equal(ix.df('kafka'), 0);
    assert.ok(ix.idf('lag') > 0);
  });

  it('gives the bridge field its own weight, and none to settings that predate it', () => {
    const ix = new LexicalIndex();
    ix.upsert('zh', { name: [], description: ['周报'], headings: [], body: [], bridge: ['weekly', 'report'] });
    ix.upsert('en', { name: [], description: ['invoice'], headings: [], body: [] });
    const q = new Map([['report', 1]]);
    assert.ok(ix.search(q).get('zh')! > 0);
    const old = { k1: 1.2, weights: [3, 2, 1.5, 1], b: [0.3, 0.5, 0.5, 0.75] };
    assert.equal(ix.search(q, old).size, 0);
  });

  it('lets translated request terms match the bridge field but not the body bridge', () => {
    const ix = new LexicalIndex();
    ix.upsert('zh', { name: [], description: ['周报'], headings: [], body: [], bridge: ['weekly'], bridgeBody: ['deadline'] });
    ix.upsert('en', { name: [], description: ['deadline'], headings: [], body: [] });
    const q = new Map([['weekly', 1], ['deadline', 1]]);
    const native = ix.search(q);
    assert.ok(native.get('zh')! > 0 && native.get('en')! > 0);
    const translated = ix.search(q, undefined, new Set(['weekly', 'deadline']));
    assert.ok(translated.get('zh')! > 0, 'bridge still matches');
    assert.ok(translated.get('zh')! < native.get('zh')!, 'bridgeBody does not');
    assert.equal(translated.get('en'), native.get('en'), 'other fields are unaffected');
  });
});
