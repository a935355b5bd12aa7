import { strict as assert } from 'node:assert';
import { ReverseBridge } from '../../src/core/text/reverseBridge';

const ENTRIES: [string, string[]][] = [
  ['提取', ['to withdraw (money)', 'to extract', 'to refine']],
  ['抽取', ['to extract; to draw out']],
  ['表格', ['form; table']],
  ['桌子', ['table; desk']],
  ['文件', ['document; file']],
  ['自动化', ['to automate']],
  ['报告', ['to inform', 'report (written or spoken)']],
  ['表', ['table (single character: never chosen)']],
  ['test', ['not Chinese']],
];

/** How often the library's Chinese text uses each word. */
const LIBRARY = new Map([
  ['提取', 9],
  ['抽取', 2],
  ['表格', 7],
  ['桌子', 1],
  ['文件', 5],
  ['自动化', 4],
  ['表', 50],
]);

describe('reverse bridge (English to Chinese training requests)', () => {
  const bridge = new ReverseBridge(ENTRIES, (w) => LIBRARY.get(w) ?? 0);

  it('picks the Chinese word the library uses most among those with the English word as a sense', () => {
    assert.equal(bridge.word('extract'), '提取');
    assert.equal(bridge.word('table'), '表格');
    assert.equal(bridge.word('tables'), '表格', 'inflected forms meet the gloss by stem');
    assert.equal(bridge.word('automate'), '自动化');
    assert.equal(bridge.word('report'), null, 'a word the library never uses is not chosen');
    assert.equal(bridge.word('desk'), '桌子');
    assert.equal(bridge.word('withdraw'), '提取');
  });

  it('follows the library: another library picks another word', () => {
    const other = new ReverseBridge(ENTRIES, (w) => (w === '抽取' ? 3 : w === '提取' ? 1 : 0));
    assert.equal(other.word('extract'), '抽取');
  });

  it('writes Chinese words, keeps technical terms and names, drops stop words and untranslatable words', () => {
    assert.equal(bridge.translate('Extract the tables from PDF files and automate the report'), '提取表格 PDF 文件自动化');
    assert.equal(bridge.translate('extract tables and files from a v2.1 export of Jira'), '提取表格文件 v2.1 Jira');
  });

  it('gives null for text that stays mostly English or is Chinese already', () => {
    assert.equal(bridge.translate('extract the tables'), null, 'two Chinese words are not a Chinese request');
    assert.equal(bridge.translate('report on the weather'), null);
    assert.equal(bridge.translate('提取表格文件'), null);
    assert.equal(bridge.translate(''), null);
  });
});
