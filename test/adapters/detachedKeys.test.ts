/**
 * Memos and caches keyed by a piece of a skill's body keep the piece, not the body (V8 keeps a
 * substring of 13 or more characters as a view of the string it was cut from). Each case cuts a
 * key from a large body, lets the body go and collects: the heap must give the body back.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { cachedReferenceKeys } from '../../src/core/route/crossRefs';
import { FileReferenceCache } from '../../src/node/referenceCache';
import { SEGMENTS_FILE, SegmentMemo } from '../../src/node/segmentMemo';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;
const silent = { debug() {}, info() {}, warn() {}, error() {} };

function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/** The heap still held after `use` took keys from a body of ~`mb` MB that nobody else keeps. */
function heldAfter(make: () => string, use: (body: string) => void): number {
  const before = heapMb();
  let body: string | undefined = make();
  use(body);
  body = undefined;
  return heapMb() - before;
}

/** A string equal to `s` made of its characters (not a view of what `s` was cut from). */
const copyOf = (s: string) => Array.from(s).join('');

// Made afresh on each call (a literal would be kept by the code itself): ~24 MB of text.
const chineseBody = () => `数据可视化与图表设计指南第${Date.now()}版` + '，图表'.repeat(4_000_000);
const englishBody = () => `Hand the upload to the pdf-extraction-toolkit skill (${Date.now()}).\n` + 'words and more words\n'.repeat(1_200_000);

describe('keys cut from bodies do not keep the bodies', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'sr-detach-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('the segmentation memo keeps its runs only', () => {
    const memo = new SegmentMemo(path.join(dir, SEGMENTS_FILE), 'jieba@1', silent);
    let run = '';
    const held = heldAfter(chineseBody, (body) => {
      const cut = body.slice(0, 18);
      run = copyOf(cut); // the test's own copy: the cut would keep the body itself
      memo.set(cut, ['数据', '可视化']);
    });
    assert.ok(held < 8, `${held.toFixed(1)} MB held`);
    assert.deepEqual(memo.get(run), ['数据', '可视化']);
  });

  it('the segmentation memo, full, holds its runs in a few MB', () => {
    // 100,000 distinct runs of 4-9 characters, each with words cut as jieba gives them (two
    // characters, then the rest), made here so that only the memo keeps them.
    const chars = '数据可视化图表设计指南文件处理网络安全测试模型训练部署服务';
    const runOf = (i: number) => {
      let run = '';
      for (let n = i; n > 0 || run.length < 4; n = Math.floor(n / chars.length)) run += chars[n % chars.length];
      return run + chars[i % 7].repeat(i % 6);
    };
    const wordsOf = (run: string) => [run.slice(0, 2), ...Array.from({ length: Math.ceil((run.length - 2) / 2) }, (_, j) => run.slice(2 + 2 * j, 4 + 2 * j))].map(copyOf);
    const memo = new SegmentMemo(path.join(dir, SEGMENTS_FILE), 'jieba@1', silent);
    const before = heapMb();
    for (let i = 0; i < 100_000; i++) {
      const run = copyOf(runOf(i));
      memo.set(run, wordsOf(run));
    }
    const held = heapMb() - before;
    // As a Map of word arrays the same runs took 22 MB (10 MB joined).
    assert.ok(held < 14, `${held.toFixed(1)} MB held`);
    assert.deepEqual(memo.get(runOf(99_999)), wordsOf(runOf(99_999)));
    assert.equal(memo.get(runOf(100_000)), undefined);
  });

  it('reference keys, per skill and in their cache, keep the keys only', async () => {
    const cache = await FileReferenceCache.open(dir, silent);
    let keys: readonly string[] = [];
    const held = heldAfter(englishBody, (body) => (keys = cachedReferenceKeys({ hash: 'h1', description: '', body }, cache)));
    assert.ok(held < 8, `${held.toFixed(1)} MB held`);
    assert.ok(keys.includes('pdf-extraction-toolkit'), keys.join(' '));
  });
});
