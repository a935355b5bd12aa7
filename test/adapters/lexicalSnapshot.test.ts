// The lexical index restored from its snapshot (lexical.bin) instead of built again: the same
// index (every search, document frequency and term), only for the batch it was built from, and a
// damaged file is reported and rebuilt with the same routing.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { LexicalSnapshotStore } from '../../src/core/index/caches';
import { countTerms, LexicalIndex, type FieldTerms, type LexicalState, type TermCounts } from '../../src/core/index/lexicalIndex';
import { batchSignature, LexicalSnapshots } from '../../src/core/index/lexicalSnapshots';
import { openLibrary } from '../../src/node/library';
import { FileLexicalSnapshot, LEXICAL_FILE } from '../../src/node/lexicalSnapshot';

const WORDS = ['pdf', 'table', 'chart', 'sql', 'index', 'deploy', 'helm', 'email', 'invoice', 'bread', 'levain', 'oven', 'test', 'mock', 'api'];
const terms = (i: number): FieldTerms => ({
  name: [WORDS[i % WORDS.length], `n${i}`],
  description: [WORDS[(i * 3) % WORDS.length], WORDS[(i * 5) % WORDS.length], `d${i % 7}`],
  headings: [WORDS[(i * 7) % WORDS.length]],
  body: Array.from({ length: 5 + (i % 11) }, (_, j) => WORDS[(i + j) % WORDS.length]),
  ...(i % 9 === 0 ? { bridge: ['chart', 'sales'] } : {}),
});
const batch = (n: number): [string, TermCounts][] => {
  const out = Array.from({ length: n }, (_, i): [string, TermCounts] => [`s${String(i).padStart(3, '0')}`, countTerms(terms(i))]);
  // One term over 255 times: its frequencies live in a wide array.
  out[5] = ['s005', countTerms({ ...terms(5), body: Array.from({ length: 300 }, () => 'line') })];
  return out;
};
const queries = [['pdf'], ['table', 'chart'], ['line'], ['sales', 'oven', 'n3'], ['api', 'mock', 'test', 'd2']].map((q) => new Map(q.map((t) => [t, 1])));
const same = (a: LexicalIndex, b: LexicalIndex) => {
  for (const q of queries) assert.deepEqual([...a.search(q)], [...b.search(q)]);
  assert.deepEqual([...a.frequencies()], [...b.frequencies()]);
  assert.equal(a.size, b.size);
  assert.equal(a.nativeDf('sales'), b.nativeDf('sales'));
};
const built = (n = 80) => {
  const ix = new LexicalIndex();
  ix.upsertManyCounts(batch(n));
  return ix;
};

describe('LexicalIndex state and restore', () => {
  it('restores the same index, and takes an edit afterwards as the built one does', () => {
    const a = built();
    const st = a.state()!;
    assert.ok(st && st.wide.length === 1, 'the wide term is in the state');
    const b = new LexicalIndex();
    b.restore(st);
    same(a, b);
    for (const ix of [a, b]) ix.upsert('s010', { name: ['pdf'], description: ['invoice'], headings: [], body: ['ocr'] });
    same(a, b);
    assert.equal(a.state(), null, 'an entry added one by one: no state until the next batch');
  });

  it('refuses a state that does not hold together, and stays empty', () => {
    const st = built().state()!;
    const broken: LexicalState[] = [
      { ...st, docs: Uint32Array.from(st.docs, (d, i) => (i === 3 ? 999 : d)) },
      { ...st, from: st.from.slice(0, -1) },
      { ...st, keys: [...st.keys.slice(1), st.keys[1]] },
      { ...st, wide: [[0, new Uint32Array(1)]] },
    ];
    for (const bad of broken) {
      const ix = new LexicalIndex();
      assert.throws(() => ix.restore(bad), /lexical state/);
      assert.equal(ix.size, 0);
      assert.deepEqual([...ix.search(queries[0])], []);
    }
    assert.throws(() => built().restore(st), /empty index/);
  });
});

class MemoryStore implements LexicalSnapshotStore {
  saved = new Map<string, LexicalState>();
  reads = 0;
  async read(signature: string) {
    this.reads++;
    return this.saved.get(signature) ?? null;
  }
  async write(signature: string, state: LexicalState) {
    this.saved.set(signature, state);
  }
}

describe('LexicalSnapshots', () => {
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  it('builds and keeps a batch, restores it on the next open, builds again for another batch', async () => {
    const store = new MemoryStore();
    const snaps = new LexicalSnapshots(store, silent);
    const b = batch(80);
    const keys = b.map(([k]) => `${k}:a1`);
    let builds = 0;
    const first = new LexicalIndex();
    await snaps.fill(first, b, keys, async () => void (builds++, first.upsertManyCounts(b)));
    await snaps.flush(first);
    assert.deepEqual([builds, store.saved.size], [1, 1]);
    assert.ok(store.saved.has(batchSignature(b.map(([k]) => k), keys)));
    const second = new LexicalIndex();
    await new LexicalSnapshots(store, silent).fill(second, b, keys, async () => void builds++);
    assert.equal(builds, 1, 'restored, not built');
    same(first, second);
    const other = new LexicalIndex();
    const edited = keys.map((k, i) => (i === 7 ? `${k}-edited` : k));
    await new LexicalSnapshots(store, silent).fill(other, b, edited, async () => void (builds++, other.upsertManyCounts(b)));
    assert.equal(builds, 2, 'one analysis differs: another signature');
  });

  it('does not keep an index that changed after its batch, nor a small batch', async () => {
    const store = new MemoryStore();
    const snaps = new LexicalSnapshots(store, silent);
    const b = batch(80);
    const ix = new LexicalIndex();
    await snaps.fill(ix, b, b.map(([k]) => k), async () => ix.upsertManyCounts(b));
    ix.remove('s001');
    await snaps.flush(ix);
    assert.equal(store.saved.size, 0);
    const small = batch(10);
    const iy = new LexicalIndex();
    await snaps.fill(iy, small, small.map(([k]) => k), async () => iy.upsertManyCounts(small));
    await snaps.flush(iy);
    assert.deepEqual([store.saved.size, store.reads], [0, 1], 'ten skills: not read, not written');
  });
});

describe('FileLexicalSnapshot', () => {
  let dir: string;
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sr-lexical-'));
    warnings.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips a state; another signature reads nothing; damage is reported', async () => {
    const a = built();
    const file = new FileLexicalSnapshot(dir, logger);
    assert.equal(await file.read('sig'), null, 'no file yet');
    await file.write('sig', a.state()!);
    const b = new LexicalIndex();
    b.restore((await file.read('sig'))!);
    same(a, b);
    assert.equal(await file.read('other'), null);
    assert.deepEqual(warnings, []);
    const f = path.join(dir, LEXICAL_FILE);
    const bytes = readFileSync(f);
    bytes[bytes.length - 10] ^= 4;
    writeFileSync(f, bytes);
    assert.equal(await file.read('sig'), null);
    assert.match(warnings.join('\n'), /lexical snapshot .* is corrupt \(checksum mismatch\); rebuilding it/);
  });
});

describe('lexical snapshot through openLibrary', () => {
  let tmp: string;
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
  before(() => {
    tmp = mkdtempSync(path.join(tmpdir(), 'sr-lexical-lib-'));
    for (let i = 0; i < 70; i++) {
      const t = terms(i);
      const dir = path.join(tmp, 'lib', `skill-${i}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: skill-${i}\ndescription: ${t.description.join(' ')} ${t.name[0]} work for case ${i}.\n---\n# ${t.headings[0]}\n${t.body.join(' ')}\n`);
    }
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  const route = async () => {
    const svc = await openLibrary({ root: path.join(tmp, 'lib'), noModel: true, cacheDir: path.join(tmp, 'cache'), logger, lexicalSnapshot: true });
    await svc.index();
    const out = [];
    for (const q of ['pdf table chart', 'deploy with helm', 'bake bread in the oven', 'mock the api in a test']) out.push((await svc.route(q, { k: 5 })).candidates.map((c) => [c.skillId, c.scores.final]));
    await svc.dispose();
    return out;
  };

  it('routes the same restored as built, and rebuilds a damaged snapshot with a warning', async () => {
    const cold = await route();
    const file = path.join(tmp, 'cache', LEXICAL_FILE);
    const written = statSync(file).mtimeMs;
    assert.deepEqual(await route(), cold);
    assert.equal(statSync(file).mtimeMs, written, 'restored: nothing built, nothing written');
    writeFileSync(file, readFileSync(file).subarray(0, 200));
    assert.deepEqual(await route(), cold);
    assert.match(warnings.join('\n'), /lexical snapshot .* is corrupt/);
    assert.notEqual(statSync(file).mtimeMs, written, 'written again');
  });
});
