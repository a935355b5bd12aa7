import { strict as assert } from 'node:assert';
import { PAIR_SCAN_VERSION, PairScanCache } from '../../src/core/analysis/pairCache';
import type { PairFinding } from '../../src/core/analysis/types';

/** A copy finding of `a` and `b`, as a scan makes it (a new object each time). */
const copy = (a: string, b: string, explanation = `${b} is longer`): PairFinding =>
  ({ kind: 'copy', a, b, similarity: 0.95, reason: 'function_redundant', explanation }) as PairFinding;

describe('PairScanCache results: kept results share their findings, in memory and on disk', () => {
  it('a new result takes the equal findings of the one before; changed ones stay its own', () => {
    const cache = new PairScanCache();
    cache.setResult('lib-1', [copy('x/a', 'y/a'), copy('x/b', 'y/b'), copy('x/c', 'y/c')]);
    cache.setResult('lib-2', [copy('x/a', 'y/a'), copy('x/b', 'y/b', 'y/b is newer'), copy('x/d', 'y/d')]);
    const [one, two] = [cache.result('lib-1')!, cache.result('lib-2')!];
    assert.equal(two[0], one[0], 'an equal finding is the same object');
    assert.notEqual(two[1], one[1], 'a finding whose text changed is not shared');
    assert.equal(two[1].explanation, 'y/b is newer');
    assert.deepEqual(two[2], copy('x/d', 'y/d'));
  });

  it('writes each finding once and reads the results back equal, still sharing', () => {
    const cache = new PairScanCache();
    const shared = Array.from({ length: 50 }, (_, i) => copy(`x/${i}`, `y/${i}`));
    cache.setResult('lib-1', shared.map((f) => ({ ...f })));
    cache.setResult('lib-2', [...shared.map((f) => ({ ...f })), copy('x/new', 'y/new')]);
    const json = JSON.parse(JSON.stringify(cache));
    assert.equal(json.findings.length, 51, 'fifty shared findings and one new, each written once');
    assert.deepEqual(json.results.map(([k, ids]: [string, number[]]) => [k, ids.length]), [['lib-1', 50], ['lib-2', 51]]);
    const back = PairScanCache.fromJSON(json);
    assert.deepEqual(back.result('lib-1'), cache.result('lib-1'));
    assert.deepEqual(back.result('lib-2'), cache.result('lib-2'));
    assert.equal(back.result('lib-1')![7], back.result('lib-2')![7]);
    assert.equal(back.latest(), back.result('lib-2'));
  });

  it('reads the older layout (each result in full), sharing equal findings, and leaves out a damaged result', () => {
    const old = { version: PAIR_SCAN_VERSION, results: [['lib-1', [copy('x/a', 'y/a')]], ['lib-2', [copy('x/a', 'y/a'), copy('x/b', 'y/b')]]] };
    const back = PairScanCache.fromJSON(JSON.parse(JSON.stringify(old)));
    assert.equal(back.result('lib-2')![0], back.result('lib-1')![0]);
    assert.equal(back.result('lib-2')!.length, 2);
    const damaged = PairScanCache.fromJSON({ version: PAIR_SCAN_VERSION, findings: [copy('x/a', 'y/a')], results: [['lib-1', [0]], ['lib-2', [0, 3]]] });
    assert.equal(damaged.result('lib-1')!.length, 1);
    assert.equal(damaged.result('lib-2'), undefined, 'an index past the table: the result is not read');
  });
});
