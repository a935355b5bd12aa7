/** The persisted jieba segmentations (src/node/segmentMemo.ts): read back, rebuilt when damaged, dropped for another jieba. */
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SEGMENTS_FILE, SegmentMemo } from '../../src/node/segmentMemo';

function logger(into: string[]) {
  return { debug() {}, info() {}, warn: (m: string) => into.push(m), error: (m: string) => into.push(m) };
}

describe('segmentation memo', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sr-segments-'));
    file = path.join(dir, SEGMENTS_FILE);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the runs it was given and reads them back; nothing is written when nothing was added', async () => {
    const warnings: string[] = [];
    const memo = new SegmentMemo(file, 'jieba@1', logger(warnings));
    assert.equal(memo.get('数据可视化'), undefined);
    memo.set('数据可视化', ['数据', '可视化', '可视', '视化']);
    await memo.flush();
    const again = new SegmentMemo(file, 'jieba@1', logger(warnings));
    assert.deepEqual(again.get('数据可视化'), ['数据', '可视化', '可视', '视化']);
    const before = readFileSync(file, 'utf8');
    await again.flush();
    assert.equal(readFileSync(file, 'utf8'), before);
    assert.deepEqual(warnings, []);
  });

  for (const [what, text] of [
    ['cut short', '{"version":1,"segmenter":"jieba@1","runs":[["数据",'],
    ['not the shape', '{"version":1,"segmenter":"jieba@1","runs":[["数据",[1,2]]]}'],
  ] as const) {
    it(`a file ${what}: warned, then rebuilt from what is segmented next`, async () => {
      writeFileSync(file, text);
      const warnings: string[] = [];
      const memo = new SegmentMemo(file, 'jieba@1', logger(warnings));
      assert.equal(memo.get('数据'), undefined);
      assert.ok(warnings.some((w) => w.startsWith(`segmentation cache ${file} is corrupt`) && w.endsWith('rebuilding it')), warnings.join('\n'));
      memo.set('数据', ['数据']);
      await memo.flush();
      assert.deepEqual(new SegmentMemo(file, 'jieba@1', logger(warnings)).get('数据'), ['数据']);
    });
  }

  it('another segmenter\'s file is dropped without a warning and rewritten', async () => {
    const old = new SegmentMemo(file, 'jieba@1', logger([]));
    old.set('数据', ['数据']);
    await old.flush();
    const warnings: string[] = [];
    const memo = new SegmentMemo(file, 'jieba@2', logger(warnings));
    assert.equal(memo.get('数据'), undefined);
    await memo.flush();
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).segmenter, 'jieba@2');
    assert.deepEqual(warnings, []);
    assert.ok(!existsSync(`${file}.${process.pid}.tmp`));
  });
});
