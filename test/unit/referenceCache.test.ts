import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { REFERENCE_VERSION } from '../../src/core/index/caches';
import { cachedReferenceKeys, referenceKey, referenceKeys } from '../../src/core/route/crossRefs';
import { FileReferenceCache, REFERENCE_FILE } from '../../src/node/referenceCache';

describe('FileReferenceCache (reference keys of skill bodies by content)', () => {
  let dir: string;
  const warnings: string[] = [];
  const infos: string[] = [];
  const logger = { debug() {}, info: (m: string) => infos.push(m), warn: (m: string) => warnings.push(m), error() {} };
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sr-refs-'));
    warnings.length = 0;
    infos.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function seeded(): Promise<void> {
    const c = await FileReferenceCache.open(dir, logger);
    c.set('a', ['dotnet-ui', 'pdf-extract']);
    c.set('b', []);
    c.set('c', ['数据-分析']);
    await c.flush(new Set(['a', 'b', 'c']));
  }

  it('round-trips keys and drops keys no longer kept', async () => {
    await seeded();
    const c = await FileReferenceCache.open(dir, logger);
    assert.equal(c.size, 3);
    assert.deepEqual(c.get('a'), ['dotnet-ui', 'pdf-extract']);
    assert.deepEqual(c.get('b'), []);
    assert.deepEqual(c.get('c'), ['数据-分析']);
    await c.flush(new Set(['a']));
    const d = await FileReferenceCache.open(dir, logger);
    assert.equal(d.size, 1);
    assert.equal(d.get('b'), undefined);
    assert.deepEqual(warnings, []);
  });

  it('with minShare, writes once that share of the entries changed, and a plain flush writes the rest', async () => {
    const c = await FileReferenceCache.open(dir, logger);
    const keys = Array.from({ length: 400 }, (_, i) => `k${i}`);
    for (const k of keys) c.set(k, [k]);
    await c.flush(new Set(keys), { minShare: 0.005 });
    const file = path.join(dir, REFERENCE_FILE);
    const written = readFileSync(file);
    // One edit: a new version set, the old one no longer kept: 2 changes.
    c.set('k0b', ['k0b']);
    const one = new Set([...keys.slice(1), 'k0b']);
    // A version set and superseded before any write counts for nothing.
    c.set('k0a', ['k0a']);
    await c.flush(one, { minShare: 0.01 }); // 2 < 4 of 400
    assert.deepEqual(readFileSync(file), written, 'a few changes leave the file as it was');
    assert.equal(c.get('k0a'), undefined, 'what is no longer kept is let go all the same');
    await c.flush(one, { minShare: 0.005 }); // 2 >= 2 of 400
    const d = await FileReferenceCache.open(dir, logger);
    assert.equal(d.size, 400);
    assert.deepEqual(d.get('k0b'), ['k0b']);
    assert.equal(d.get('k0'), undefined);
    c.set('k2b', ['k2b']);
    await c.flush(new Set([...one, 'k2b']), { minShare: 0.5 });
    assert.equal((await FileReferenceCache.open(dir, logger)).get('k2b'), undefined);
    await c.flush(new Set([...one, 'k2b']));
    assert.deepEqual((await FileReferenceCache.open(dir, logger)).get('k2b'), ['k2b'], 'a plain flush writes what was left');
    assert.deepEqual(warnings, []);
  });

  it('a file of another version is rebuilt quietly', async () => {
    writeFileSync(path.join(dir, REFERENCE_FILE), 'SRRF1\n{"version":0,"sha1":""}\n[]');
    const c = await FileReferenceCache.open(dir, logger);
    assert.equal(c.size, 0);
    assert.deepEqual(warnings, []);
    assert.match(infos.join('\n'), /reference-key cache .* has another layout; rebuilding it/);
  });

  for (const [what, damage] of [
    ['truncated', (f: string) => truncateSync(f, readFileSync(f).length - 7)],
    ['torn', (f: string) => truncateSync(f, Math.floor(readFileSync(f).length / 2))],
    ['garbage', (f: string) => writeFileSync(f, 'not a cache')],
    ['headerless', (f: string) => writeFileSync(f, 'SRRF1\n{"version":1')],
    [
      'flipped-bit',
      (f: string) => {
        const b = readFileSync(f);
        b[b.length - 5] ^= 1;
        writeFileSync(f, b);
      },
    ],
  ] as const) {
    it(`reports a ${what} file, starts empty and writes a good one on the next flush`, async () => {
      await seeded();
      damage(path.join(dir, REFERENCE_FILE));
      const c = await FileReferenceCache.open(dir, logger);
      assert.equal(c.size, 0);
      assert.equal(warnings.length, 1, warnings.join('\n'));
      assert.match(warnings[0], /reference-key cache .* is corrupt .*rebuilding it/);
      c.set('a', ['x-y']);
      await c.flush(new Set(['a']));
      assert.deepEqual((await FileReferenceCache.open(dir, logger)).get('a'), ['x-y']);
      assert.equal(warnings.length, 1);
    });
  }

  it('cachedReferenceKeys scans a body once per content and version, then reads the cache', async () => {
    const c = await FileReferenceCache.open(dir, logger);
    const doc = { hash: 'h1', description: 'Routes to csv-cleaner and chart-maker.', body: 'For deployment use [skill:dotnet-devops]; see `docx` and the pdf-extract skill.' };
    const scanned = cachedReferenceKeys(doc, c);
    assert.deepEqual(scanned, [...referenceKeys(doc.description), ...referenceKeys(doc.body)], 'the description is read as well as the body');
    assert.equal(referenceKey(doc), `h1:${REFERENCE_VERSION}`);
    assert.deepEqual(c.get(referenceKey(doc)), scanned);
    await c.flush(new Set([referenceKey(doc)]));
    // A reopen answers from the file: a planted key shows the body is not scanned again.
    const d = await FileReferenceCache.open(dir, logger);
    d.set(referenceKey(doc), ['planted-key']);
    assert.deepEqual(cachedReferenceKeys(doc, d), ['planted-key']);
    assert.deepEqual(cachedReferenceKeys({ ...doc, hash: 'h2' }, d), scanned);
  });
});
