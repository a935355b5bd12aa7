import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { StoredFields } from '../../src/core/index/caches';
import { FieldCache } from '../../src/core/route/rerankFeatures';
import { TermTable } from '../../src/core/route/termSet';
import type { SkillDoc } from '../../src/core/types';
import { analyse } from '../../src/core/text/analyse';
import { splitPassages } from '../../src/core/text/passages';
import { FIELD_FILE, FileFieldStore } from '../../src/node/fieldStore';
import { openLibrary } from '../../src/node/library';

const ROOT = path.resolve(__dirname, '../../..');
const fields = (word: string): StoredFields => ({ name: [word], description: [word, 'desc'], headings: ['head'], body: [word, 'bodi', '数据'], passages: [[word], ['other']] });

describe('FileFieldStore (reranker fields by skill content)', () => {
  let dir: string;
  const warnings: string[] = [];
  const infos: string[] = [];
  const logger = { debug() {}, info: (m: string) => infos.push(m), warn: (m: string) => warnings.push(m), error() {} };
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sr-fields-'));
    warnings.length = 0;
    infos.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function seeded(): Promise<void> {
    const s = await FileFieldStore.open(dir, logger);
    s.set('a', fields('alpha'));
    s.set('b', fields('beta'));
    await s.flush(new Set(['a', 'b']));
  }

  it('round-trips fields, writes unread entries back unchanged and drops keys no longer kept', async () => {
    await seeded();
    const s = await FileFieldStore.open(dir, logger);
    assert.equal(s.size, 2);
    assert.deepEqual(s.get('a'), fields('alpha'));
    s.set('c', fields('gamma'));
    await s.flush(new Set(['a', 'b', 'c']));
    const t = await FileFieldStore.open(dir, logger);
    assert.deepEqual(t.get('b'), fields('beta'), 'never read, written back as it was');
    assert.deepEqual(t.get('c'), fields('gamma'));
    await t.flush(new Set(['c']));
    const u = await FileFieldStore.open(dir, logger);
    assert.equal(u.size, 1);
    assert.equal(u.get('a'), undefined);
    assert.deepEqual(warnings, []);
  });

  it('a file of another version is rebuilt quietly', async () => {
    await seeded();
    const file = path.join(dir, FIELD_FILE);
    writeFileSync(file, readFileSync(file, 'latin1').replace('"version":1', '"version":0'), 'latin1');
    const s = await FileFieldStore.open(dir, logger);
    assert.equal(s.size, 0);
    assert.deepEqual(warnings, []);
    assert.match(infos.join('\n'), /field cache .* has another layout; rebuilding it/);
  });

  for (const [what, damage] of [
    ['truncated', (f: string) => truncateSync(f, readFileSync(f).length - 7)],
    ['torn', (f: string) => truncateSync(f, Math.floor(readFileSync(f).length / 2))],
    ['garbage', (f: string) => writeFileSync(f, 'not a field cache')],
  ] as const) {
    it(`reports a ${what} file, starts empty and writes a good one on the next flush`, async () => {
      await seeded();
      damage(path.join(dir, FIELD_FILE));
      const s = await FileFieldStore.open(dir, logger);
      assert.equal(s.size, 0);
      assert.equal(warnings.length, 1, warnings.join('\n'));
      assert.match(warnings[0], /field cache .* is corrupt .*rebuilding it/);
      s.set('a', fields('alpha'));
      await s.flush(new Set(['a']));
      assert.deepEqual((await FileFieldStore.open(dir, logger)).get('a'), fields('alpha'));
      assert.equal(warnings.length, 1);
    });
  }

  it('a damaged entry is reported when read, dropped and not written back; the others are kept', async () => {
    await seeded();
    const file = path.join(dir, FIELD_FILE);
    const b = readFileSync(file);
    b[b.lastIndexOf('beta') + 1] ^= 1;
    writeFileSync(file, b);
    const s = await FileFieldStore.open(dir, logger);
    assert.deepEqual(warnings, [], 'entries are checked when read');
    assert.equal(s.get('b'), undefined);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /field cache .*: an entry is corrupt \(checksum mismatch\); analysing it again/);
    assert.deepEqual(s.get('a'), fields('alpha'));
    await s.flush(new Set(['a', 'b']));
    const t = await FileFieldStore.open(dir, logger);
    assert.equal(t.size, 1);
    assert.deepEqual(t.get('a'), fields('alpha'));
  });

  it('keeps the 1,000 skills set most recently', async () => {
    const s = await FileFieldStore.open(dir, logger);
    for (let i = 0; i < 1005; i++) s.set(`k${i}`, fields(`w${i}`));
    assert.equal(s.size, 1000);
    assert.equal(s.get('k4'), undefined);
    s.set('k5', fields('again'));
    s.set('new', fields('new'));
    assert.equal(s.size, 1000);
    assert.equal(s.get('k6'), undefined, 'k5 was set again: the next oldest went');
    assert.deepEqual(s.get('k5'), fields('again'));
    assert.deepEqual(s.get('k1004'), fields('w1004'));
  });

  it('FieldCache reads fields from the store for a known version and hands it the ones it analysed', async () => {
    const store = await FileFieldStore.open(dir, logger);
    const body = '# Usage\n\nExtract tables from PDF invoices.\n\n## Notes\n\nScanned pages need OCR.';
    const doc = { id: 'pdf', name: 'pdf-tables', description: 'Extract tables from PDFs', body, hash: 'h1' } as SkillDoc;
    const cache = new FieldCache((t) => analyse(t), undefined, { fields: store, tag: 't' });
    const made = cache.get(doc, () => splitPassages(body));
    cache.save();
    const key = cache.storeKey('h1')!;
    assert.deepEqual(store.get(key), { name: [...made.name], description: [...made.description], headings: [...made.headings], body: [...made.body], passages: made.passages.map((p) => [...p]) });
    // A planted entry is what a fresh cache reads (so the body is not analysed again).
    store.set(key, fields('planted'));
    const warm = new FieldCache(() => assert.fail('analysed again'), undefined, { fields: store, tag: 't' });
    const read = warm.get(doc, () => assert.fail('passages split for fields the store holds'));
    assert.deepEqual([...read.name], ['planted']);
    assert.deepEqual(read.passages.map((p) => [...p]), [['planted'], ['other']]);
    assert.notEqual(cache.storeKey('h2'), key);
  });

  it('FieldCache keeps the skills used most recently, analyses an evicted one again, splits passages only to analyse', () => {
    const analysed: string[] = [];
    const cache = new FieldCache((t) => (analysed.push(t), analyse(t)), undefined, undefined, 2);
    const docs = ['alpha', 'beta', 'gamma'].map((w, i) => ({ id: w, name: w, description: `${w} tables`, body: `# ${w}\n\nText.`, hash: `h${i}` }) as SkillDoc);
    const [a, b, c] = docs;
    let splits = 0;
    const get = (d: SkillDoc) => cache.get(d, () => (splits++, splitPassages(d.body)));
    const first = get(a);
    get(b);
    assert.equal(get(a), first, 'a hit is the same object');
    assert.equal(splits, 2, 'a hit splits nothing');
    get(c); // evicts b: a was used after it
    assert.equal(cache.size, 2);
    const before = analysed.length;
    assert.equal(get(a), first, 'a stayed');
    assert.equal(analysed.length, before, 'a was not analysed again');
    get(b);
    assert.equal(splits, 4, 'b, evicted, is split and analysed again');
    assert.ok(analysed.slice(before).includes('beta tables'), 'b\'s description analysed again');
    assert.equal(cache.size, 2);
  });

  it('FieldCache.save with a budget hands the fields over a part at a time, all of them in the end', async () => {
    const store = await FileFieldStore.open(dir, logger);
    const cache = new FieldCache((t) => analyse(t), undefined, { fields: store, tag: 't' });
    const docs = ['alpha', 'beta', 'gamma'].map((w, i) => ({ id: w, name: w, description: `${w} tables`, body: `# ${w}\n\nText.`, hash: `h${i}` }) as SkillDoc);
    for (const d of docs) cache.get(d, () => splitPassages(d.body));
    const rounds: number[] = [];
    while (!cache.save(0)) rounds.push(docs.filter((d) => store.get(cache.storeKey(d.hash)!)).length);
    assert.deepEqual(rounds, [1, 2], 'one skill a call with a zero budget');
    for (const d of docs) assert.ok(store.get(cache.storeKey(d.hash)!), d.id);
    assert.equal(cache.save(0), true, 'nothing left');
  });

  it('through openLibrary: a route writes its candidates\' fields and a reopen routes the same from them', async () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'sr-fields-lib-'));
    try {
      const lib = path.join(tmp, 'lib');
      cpSync(path.join(ROOT, 'examples/library'), lib, { recursive: true });
      const cacheDir = path.join(tmp, 'cache');
      const routed = async () => {
        const svc = await openLibrary({ root: lib, noModel: true, cacheDir, logger });
        await svc.index();
        const r = await svc.route('extract the text and tables from a scanned PDF invoice', { k: 10 });
        await svc.dispose();
        return r.candidates.map((c) => [c.skillId, c.scores.final, c.passage?.text ?? null, c.passage?.matchedTerms ?? null]);
      };
      const first = await routed();
      const stored = await FileFieldStore.open(cacheDir, logger);
      assert.ok(stored.size > 0, 'the candidates\' fields were written');
      assert.deepEqual(await routed(), first);
      assert.deepEqual(warnings, []);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('TermSet (the field cache\'s compact term sets)', () => {
  it('holds each term once, answers by term or by id, and iterates its terms', () => {
    const table = new TermTable();
    const early = table.idOf('ocr');
    const set = table.setOf(['scan', 'ocr', 'pages', 'ocr']);
    assert.equal(set.size, 3);
    assert.ok(set.has('ocr') && set.hasId(early), 'an id given before the set was made is the one it holds');
    assert.equal(set.has('invoice'), false);
    assert.equal(set.hasId(table.idOf('invoice')), false);
    assert.deepEqual([...set].sort(), ['ocr', 'pages', 'scan']);
    assert.equal(table.setOf([]).size, 0);
    assert.equal(table.setOf(['scan']).hasId(table.find('scan')), true, 'sets of one table share ids');
  });
});
