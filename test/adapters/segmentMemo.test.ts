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

  /** A memo file holding `runs`, written by the memo itself. */
  async function written(runs: [string, string[]][]): Promise<void> {
    const memo = new SegmentMemo(file, 'jieba@1', logger([]));
    for (const [run, words] of runs) memo.set(run, words);
    await memo.flush();
  }

  it('reads back many runs across its shards, and writes unread shards back as they were', async () => {
    const runs: [string, string[]][] = Array.from({ length: 2000 }, (_, i) => [`数据${i}`, ['数据', String(i)]]);
    await written(runs);
    const memo = new SegmentMemo(file, 'jieba@1', logger([]));
    assert.deepEqual(memo.get('数据7'), ['数据', '7']);
    memo.set('新词', ['新', '词']);
    await memo.flush();
    const again = new SegmentMemo(file, 'jieba@1', logger([]));
    for (const [run, words] of runs) assert.deepEqual(again.get(run), words);
    assert.deepEqual(again.get('新词'), ['新', '词']);
  });

  for (const [what, damage, all] of [
    ['cut short', (f: string) => writeFileSync(f, readFileSync(f).subarray(0, readFileSync(f).length - 9)), true],
    ['not a memo', (f: string) => writeFileSync(f, '{"version":3,"segmenter":"jieba@1","shards":[["数据",'), true],
    [
      'with a flipped bit in a shard',
      (f: string) => {
        // Inside the shard of '可视化' (after the header line, which names no run).
        const b = readFileSync(f);
        b[b.indexOf('可视', b.indexOf(10)) + 1] ^= 1;
        writeFileSync(f, b);
      },
      false,
    ],
  ] as const) {
    it(`a file ${what}: warned, then rebuilt from what is segmented next`, async () => {
      await written([['数据', ['数据']], ['可视化', ['可视化', '可视', '视化']]]);
      damage(file);
      const warnings: string[] = [];
      const memo = new SegmentMemo(file, 'jieba@1', logger(warnings));
      const kept = [memo.get('数据'), memo.get('可视化')].filter(Boolean).length;
      assert.ok(all ? kept === 0 : kept === 1, `a damaged shard loses its runs only (kept ${kept})`);
      assert.equal(warnings.length, 1, warnings.join('\n'));
      assert.ok(warnings[0].startsWith(`segmentation cache ${file} is corrupt`) && warnings[0].endsWith('rebuilding it'), warnings[0]);
      memo.set('数据', ['数据']);
      memo.set('可视化', ['可视化']);
      await memo.flush();
      const again = new SegmentMemo(file, 'jieba@1', logger(warnings));
      assert.deepEqual(again.get('数据'), ['数据']);
      assert.ok(again.get('可视化'));
      assert.equal(warnings.length, 1);
    });
  }

  it('a file of the older layout is dropped without a warning', async () => {
    writeFileSync(file, '{"version":1,"segmenter":"jieba@1","runs":[["数据",["数据"]]]}');
    const warnings: string[] = [];
    const memo = new SegmentMemo(file, 'jieba@1', logger(warnings));
    assert.equal(memo.get('数据'), undefined);
    assert.deepEqual(warnings, []);
  });

  it('another segmenter\'s file is dropped without a warning and rewritten', async () => {
    const old = new SegmentMemo(file, 'jieba@1', logger([]));
    old.set('数据', ['数据']);
    await old.flush();
    const warnings: string[] = [];
    const memo = new SegmentMemo(file, 'jieba@2', logger(warnings));
    assert.equal(memo.get('数据'), undefined);
    await memo.flush();
    assert.equal(JSON.parse(readFileSync(file, 'utf8').split('\n')[0]).segmenter, 'jieba@2');
    assert.deepEqual(warnings, []);
    assert.ok(!existsSync(`${file}.${process.pid}.tmp`));
  });
});
