import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, readFileSync, writeFileSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FileVectorCache, VECTOR_FILE } from '../../src/node/vectorCache';

const vec = (...xs: number[]) => Float32Array.from(xs);

describe('FileVectorCache', () => {
  let dir: string;
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sr-cache-'));
    warnings.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function seeded() {
    const c = await FileVectorCache.open(dir, 'm@1', 3, logger);
    c.set('a', [vec(1, 2, 3), vec(4, 5, 6)]);
    c.set('b', [vec(7, 8, 9)]);
    await c.flush(new Set(['a', 'b']));
  }

  it('round-trips vectors and drops keys not kept', async () => {
    await seeded();
    const c = await FileVectorCache.open(dir, 'm@1', 3, logger);
    assert.deepEqual(c.get('a')!.map((v) => [...v]), [[1, 2, 3], [4, 5, 6]]);
    await c.flush(new Set(['b']));
    const d = await FileVectorCache.open(dir, 'm@1', 3, logger);
    assert.equal(d.get('a'), undefined);
    assert.deepEqual([...d.get('b')![0]], [7, 8, 9]);
    assert.deepEqual(warnings, []);
  });

  it('starts empty and warns when the file is truncated or garbage', async () => {
    await seeded();
    const file = path.join(dir, VECTOR_FILE);
    truncateSync(file, readFileSync(file).length - 5);
    const c = await FileVectorCache.open(dir, 'm@1', 3, logger);
    assert.equal(c.size, 0);
    assert.match(warnings[0], /corrupt.*rebuilding/);
    writeFileSync(file, 'garbage');
    assert.equal((await FileVectorCache.open(dir, 'm@1', 3, logger)).size, 0);
    assert.equal(warnings.length, 2);
  });

  it('ignores a cache built by another model', async () => {
    await seeded();
    const c = await FileVectorCache.open(dir, 'other@2', 3, logger);
    assert.equal(c.get('a'), undefined);
  });
});
