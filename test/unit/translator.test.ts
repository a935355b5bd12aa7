import { strict as assert } from 'node:assert';
import { fitSenses, Translator, type BilingualDictionary } from '../../src/core/text/translator';
import { GLOSSARY } from '../../src/core/text/glossary';

/** A dictionary over a few entries, in CC-CEDICT's style. */
function dict(entries: Record<string, string[]>): BilingualDictionary {
  return { glosses: (w) => entries[w], maxWordLength: Math.max(...Object.keys(entries).map((w) => w.length)) };
}

const DICT = dict({
  提取: ['to withdraw (money)', 'to collect (left luggage)', 'to extract', 'to refine'],
  数据: ['data; numbers; digital'],
  数据库: ['(computing) database'],
  日志: ['journal', 'log (computing)'],
  文件: ['document', 'file', 'CL:份[fen4]'],
  表: ['exterior surface', 'table', 'watch (timepiece)'],
  格式: ['form; style', '(computing) format'],
  苹果: ['apple', 'Apple (company)'],
  集群: ['clan', 'to clan together', 'to flock together'],
  的: ['of; ~\'s (possessive particle)'],
  里: ['lining', 'interior', 'inside'],
});

describe('Translator (Chinese-English bridge)', () => {
  const tr = new Translator(DICT, { glossary: new Map([['集群', ['cluster']]]) });

  it('splits Chinese runs into the longest known words', () => {
    assert.deepEqual(tr.segment('数据库日志'), ['数据库', '日志']);
    assert.deepEqual(tr.segment('提取文件格式'), ['提取', '文件', '格式']);
    // Unknown characters come out one by one.
    assert.deepEqual(tr.segment('某数据'), ['某', '数据']);
  });

  it('lets the glossary override the dictionary', () => {
    assert.deepEqual(tr.translateWord('集群'), [{ text: 'cluster', weight: 1 }]);
  });

  it("weighs senses by the library's vocabulary before keeping the best four", () => {
    const queen = new Translator(dict({ 后: ['empress', 'queen', '(archaic) monarch', 'ruler', 'back', 'behind'] }), { glossary: new Map() });
    assert.ok(!queen.translateWord('后').some((e) => e.text === 'back'), 'the dictionary alone keeps its first four');
    const familiar = (w: string) => (w === 'back' || w === 'behind' ? 1 : 0);
    assert.equal(queen.translateWord('后', familiar)[0].text, 'back', 'a familiar late sense is not cut before the library is asked');
  });

  it('re-weighs senses by how they fit the other words of the text, the best staying at the word scale', () => {
    const tr2 = new Translator(DICT, { glossary: new Map() });
    assert.equal(tr2.translate('数据库表').text, 'database exterior');
    const assoc = (a: string, b: string) => (a === 'table' && b === 'database' ? 0.4 : 0);
    const fitted = tr2.translate('数据库表', undefined, assoc);
    assert.equal(fitted.text, 'database table');
    const table = fitted.words[1].english;
    assert.equal(table[0].text, 'table');
    assert.equal(table[0].weight, tr2.translateWord('表')[0].weight, 'a single character keeps its lower scale');
    const plain = fitSenses(tr2.translate('数据库表').words, () => 0);
    assert.deepEqual(plain, tr2.translate('数据库表').words, 'no association, no change');
    // A pasted document: only its first 1,000 words are fitted, so it cannot hold a request up.
    const long = tr2.translate('数据库表'.repeat(600), undefined, assoc).words;
    assert.equal(long.length, 1200);
    assert.equal(long[999].english[0].text, 'table');
    assert.equal(long[1001].english[0].text, 'exterior');
  });

  it("follows the dictionary's cross-references, once", () => {
    const refs = new Translator(
      dict({
        健康检查: ['see 體格檢查|体格检查[ti3 ge2 jian3 cha2]'],
        体格检查: ['physical examination', 'clinical examination', 'health checkup'],
        一个劲儿: ['erhua variant of 一個勁|一个劲[yi1 ge4 jin4]'],
        一个劲: ['continuously', 'persistently'],
        甲乙: ['see 乙甲[yi3 jia3]'],
        乙甲: ['variant of 甲乙[jia3 yi3]'],
        丙丁: ['see XYZ'],
      }),
      { glossary: new Map() },
    );
    const check = refs.translateWord('健康检查');
    assert.deepEqual(check.map((e) => e.text).sort(), refs.translateWord('体格检查').map((e) => e.text).sort());
    assert.ok(check.some((e) => e.text === 'examination') && check[0].weight === 1, JSON.stringify(check));
    assert.equal(refs.translateWord('一个劲儿')[0].text, 'continuously');
    assert.deepEqual(refs.translateWord('甲乙'), [], 'a reference to a reference stops there');
    assert.deepEqual(refs.translateWord('丙丁'), [], 'a reference to no Chinese word gives nothing');
    assert.equal(refs.translate('健康检查失败').text, refs.translateWord('体格检查')[0].text, 'the compound is read, not dropped');
  });

  it('prefers computing senses and drops classifier and variant lines', () => {
    const log = tr.translateWord('日志');
    assert.equal(log[0].text, 'log', 'the (computing) sense wins over the first listed one');
    const file = tr.translateWord('文件').map((t) => t.text);
    assert.ok(file.includes('file') && file.includes('document'));
    assert.ok(!file.some((w) => /cl|fen/.test(w)), 'classifier lines are not senses');
    assert.equal(tr.translateWord('数据库')[0].text, 'database');
  });

  it('re-weights dictionary senses by how familiar the library finds them', () => {
    const plain = tr.translateWord('提取').map((t) => t.text);
    assert.equal(plain[0], 'withdraw', 'dictionary order alone puts the banking sense first');
    const familiar = (w: string) => (w === 'extract' ? 1 : 0);
    const weighted = tr.translateWord('提取', familiar);
    assert.equal(weighted[0].text, 'extract');
    assert.equal(weighted[0].weight, 1);
    assert.ok(weighted.every((t, i) => i === 0 || t.weight < 1));
  });

  it('skips function words and keeps Latin-script terms as written', () => {
    assert.deepEqual(tr.translateWord('的'), []);
    assert.deepEqual(tr.translateWord('里'), []);
    const out = tr.translate('把PDF里的表提取到Excel，再看日志');
    assert.match(out.text, /^PDF /);
    assert.ok(out.text.includes('Excel'));
    assert.ok(out.text.includes('log'));
    assert.deepEqual(out.words.map((w) => w.source), ['表', '提取', '日志']);
    // Single characters are less certain than words.
    assert.ok(out.words[0].english[0].weight < 1);
  });

  it('works without a dictionary (glossary only) and keeps at most maxSenses', () => {
    const bare = new Translator(null);
    assert.equal(bare.translateWord('数据库')[0].text, 'database');
    assert.deepEqual(bare.translateWord('苹果树'), []);
    const few = new Translator(DICT, { maxSenses: 1, minWeight: 0 });
    assert.equal(few.translateWord('提取').length, 1);
  });

  it('has a glossary of single words and short phrases', () => {
    assert.ok(GLOSSARY.size > 300);
    for (const [zh, en] of GLOSSARY) {
      assert.match(zh, /^[\u3400-\u9fff]+$/, zh);
      assert.ok(en.length >= 1 && en.every((e) => /^[a-z0-9][a-z0-9 .+-]*$/i.test(e)), `${zh}: ${en.join('|')}`);
    }
  });
});
