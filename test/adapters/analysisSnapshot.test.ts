import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { countTerms, FIELDS, LexicalIndex, type FieldTerms, type TermCounts } from '../../src/core/index/lexicalIndex';
import type { SkillAnalysis } from '../../src/core/index/caches';
import { ANALYSIS_FILE, FileAnalysisCache } from '../../src/node/analysisSnapshot';
import { openLibrary } from '../../src/node/library';
import { lexicalFields } from '../../src/core/route/skillText';

const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLES = path.join(ROOT, 'examples/library');
const REQUESTS = [
  'extract the text and tables from a scanned PDF invoice',
  'tune a slow SQL query with an index',
  'deploy the service to kubernetes with a rolling update',
  'publish my package to npm',
  '把销售数据做成图表',
  'chart the quarterly sales data',
];

const analysis = (name: string[], body: string[]): SkillAnalysis => {
  const fields = { name, description: ['pdf'], headings: [], body };
  return { counts: countTerms(fields), feedback: [...name, 'pdf'] };
};
const plain = (a: SkillAnalysis | undefined) =>
  a && { lengths: [...a.counts.lengths], terms: [...a.counts.terms], tf: [...Array.from(a.counts.tf)], feedback: a.feedback, profile: a.profile };

describe('LexicalIndex batch upserts (the snapshot path)', () => {
  const docs: [string, FieldTerms][] = Array.from({ length: 40 }, (_, i) => [
    `s${i}`,
    {
      name: [`n${i % 7}`, 'tool'],
      description: ['pdf', `w${i % 5}`, `w${i % 3}`, 'pdf'],
      headings: [`h${i % 4}`],
      body: Array.from({ length: 5 + (i % 9) }, (_, j) => `b${(i * j) % 11}`),
      ...(i % 6 === 0 ? { bridge: ['chart', `w${i % 5}`] } : {}),
    },
  ]);
  const queries = [['pdf'], ['w1', 'b3'], ['n2', 'h1', 'chart'], ['tool', 'b0', 'b10', 'w4']].map((q) => new Map(q.map((t) => [t, 1])));
  const results = (ix: LexicalIndex) => queries.map((q) => [...ix.search(q)].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
  /** Counts as the snapshot hands them over: ids into one shared term table. */
  const withIds = (list: [string, TermCounts][]) => {
    const table: string[] = [];
    const id = new Map<string, number>();
    return list.map(([k, c]): [string, TermCounts] => {
      const ids = c.terms.map((t) => id.get(t) ?? (id.set(t, table.length), table.push(t), table.length - 1));
      return [k, { ...c, ids: Uint32Array.from(ids), table }];
    });
  };

  it('indexes a batch exactly as one by one, over an index that already holds some of it', () => {
    const one = new LexicalIndex();
    for (const [k, f] of docs) one.upsert(k, f);
    // Some documents first, with other terms, then the whole list as a batch (replacing them).
    const stale: [string, FieldTerms] = ['s3', { name: ['old'], description: ['gone'], headings: [], body: [] }];
    const counted = docs.map(([k, f]): [string, TermCounts] => [k, countTerms(f)]);
    for (const batch of [counted, withIds(counted)]) {
      const many = new LexicalIndex();
      many.upsert(...stale);
      many.upsert('s5', docs[5][1]);
      many.upsertManyCounts(batch);
      assert.equal(many.size, docs.length);
      assert.deepEqual(results(many), results(one));
      assert.equal(many.search(new Map([['gone', 1]])).size, 0, 'the replaced analysis is gone');
    }
    assert.ok(results(one).every((r) => r.length > 0));
  });

  it('keeps the last of two batch entries with the same key', () => {
    const many = new LexicalIndex();
    many.upsertManyCounts([
      ['a', countTerms({ name: ['x'], description: [], headings: [], body: [] })],
      ['a', countTerms({ name: ['y'], description: [], headings: [], body: [] })],
    ]);
    assert.equal(many.size, 1);
    assert.equal(many.search(new Map([['x', 1]])).size, 0);
    assert.deepEqual([...many.search(new Map([['y', 1]])).keys()], ['a']);
  });
});

describe('FileAnalysisCache', () => {
  let dir: string;
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sr-analysis-'));
    warnings.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function seeded() {
    const c = await FileAnalysisCache.open(dir, logger);
    c.set('a', analysis(['pdf', 'extract'], ['tabl', 'pdf', 'tabl']));
    c.set('b', { ...analysis(['数据'], []), profile: ['数据', 'chart', 'pdf'] });
    await c.flush(new Set(['a', 'b']));
  }

  it('round-trips counts and feedback, and drops keys not kept', async () => {
    await seeded();
    const c = await FileAnalysisCache.open(dir, logger);
    assert.equal(c.size, 2);
    assert.deepEqual(plain(c.get('a')), plain(analysis(['pdf', 'extract'], ['tabl', 'pdf', 'tabl'])));
    assert.deepEqual(plain(c.get('b')), plain({ ...analysis(['数据'], []), profile: ['数据', 'chart', 'pdf'] }));
    assert.equal(c.get('a')!.profile, undefined, 'an analysis without profile terms stays without');
    assert.equal(c.get('a')!.counts.tf.length, c.get('a')!.counts.terms.length * FIELDS.length);
    await c.flush(new Set(['b']));
    const d = await FileAnalysisCache.open(dir, logger);
    assert.equal(d.get('a'), undefined);
    assert.deepEqual(plain(d.get('b')), plain({ ...analysis(['数据'], []), profile: ['数据', 'chart', 'pdf'] }));
    assert.deepEqual(warnings, []);
  });

  it('compact() reads back what was written (the same analyses, the snapshot\'s objects) and keeps entries set since', async () => {
    const c = await FileAnalysisCache.open(dir, logger);
    const a = analysis(['pdf', 'extract'], ['tabl', 'pdf', 'tabl']);
    c.set('a', a);
    await c.flush(new Set(['a']));
    await c.compact();
    assert.notEqual(c.get('a'), a, 'replaced by the decoded form');
    assert.deepEqual(plain(c.get('a')), plain(a));
    const b = analysis(['csv'], ['row']);
    c.set('b', b);
    await c.compact();
    assert.equal(c.get('b'), b, 'not written yet: nothing is read back');
    assert.deepEqual(plain(c.get('a')), plain(a));
    truncateSync(path.join(dir, ANALYSIS_FILE), 20);
    await c.flush(new Set(['a', 'b']));
    writeFileSync(path.join(dir, ANALYSIS_FILE), 'damaged after the write');
    await c.compact();
    assert.equal(c.get('b'), b, 'a file that does not decode leaves the entries as they are');
    assert.equal(c.size, 2);
  });

  it('keeps term frequencies over 255 exactly (they are held in one byte otherwise)', async () => {
    const c = await FileAnalysisCache.open(dir, logger);
    const long = analysis(['log'], [...Array.from({ length: 300 }, () => 'line'), ...Array.from({ length: 70_000 }, () => 'byte'), 'pdf']);
    c.set('long', long);
    c.set('short', analysis(['pdf'], ['tabl']));
    await c.flush(new Set(['long', 'short']));
    const d = await FileAnalysisCache.open(dir, logger);
    assert.deepEqual(plain(d.get('long')), plain(long));
    assert.deepEqual(plain(d.get('short')), plain(analysis(['pdf'], ['tabl'])));
    // A batch of at least 64 builds the index's blocks, where such a term keeps its own array.
    const others = Array.from({ length: 70 }, (_, i): [string, TermCounts] => [`s${i}`, analysis([`n${i}`], ['byte', 'line']).counts]);
    const ix = new LexicalIndex();
    ix.upsertManyCounts([...others, ['long', d.get('long')!.counts]]);
    const fresh = new LexicalIndex();
    for (const [k, counts] of [...others, ['long', long.counts] as [string, TermCounts]]) fresh.upsertCounts(k, counts);
    const q = new Map([['byte', 1], ['line', 2]]);
    assert.deepEqual([...ix.search(q)], [...fresh.search(q)]);
  });

  for (const [what, damage] of [
    ['truncated', (f: string) => truncateSync(f, readFileSync(f).length - 4)],
    ['garbage', (f: string) => writeFileSync(f, 'not a snapshot')],
    // One flipped bit in the data: structurally valid, caught by the checksum.
    [
      'flipped-bit',
      (f: string) => {
        const b = readFileSync(f);
        b[b.length - 8] ^= 1;
        writeFileSync(f, b);
      },
    ],
  ] as const) {
    it(`reports a ${what} file, starts empty and writes a good one on the next flush`, async () => {
      await seeded();
      const file = path.join(dir, ANALYSIS_FILE);
      damage(file);
      const c = await FileAnalysisCache.open(dir, logger);
      assert.equal(c.size, 0);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /analysis snapshot .* is corrupt .*rebuilding it/);
      c.set('a', analysis(['pdf'], []));
      await c.flush(new Set(['a']));
      const d = await FileAnalysisCache.open(dir, logger);
      assert.equal(d.size, 1);
      assert.equal(warnings.length, 1);
    });
  }
});

describe('analysis snapshot through openLibrary', () => {
  let tmp: string;
  let lib: string;
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
  beforeEach(() => {
    tmp = mkdtempSync(path.join(tmpdir(), 'sr-analysis-lib-'));
    lib = path.join(tmp, 'lib');
    cpSync(EXAMPLES, lib, { recursive: true });
    warnings.length = 0;
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  const cache = () => path.join(tmp, 'cache');
  async function rankings(opts: { cacheDir?: string; model?: boolean } = {}) {
    const svc = await openLibrary({ root: lib, noModel: !opts.model, cacheDir: opts.cacheDir ?? cache(), logger });
    await svc.index();
    const out: Record<string, unknown> = {};
    for (const q of REQUESTS) {
      const r = await svc.route(q, { k: 10 });
      out[q] = r.candidates.map((c) => [c.skillId, c.scores.lexical, c.scores.dense, c.scores.final, c.passage?.text ?? null]);
    }
    await svc.dispose();
    return out;
  }

  it('routes the same from the snapshot as from a cold analysis', async () => {
    const cold = await rankings();
    const snap = await FileAnalysisCache.open(cache());
    assert.equal(snap.size, 13, 'every skill was saved');
    const warm = await rankings();
    assert.deepEqual(warm, cold);
    // And the same as a library opened without any snapshot.
    assert.deepEqual(await rankings({ cacheDir: path.join(tmp, 'other-cache') }), cold);
    assert.equal((cold[REQUESTS[0]] as unknown[][])[0][0], 'pdf-extract');
    assert.equal((cold[REQUESTS[4]] as unknown[][])[0][0], '数据可视化');
    assert.deepEqual(warnings, []);
  });

  it('with the model too: dense, fused and reranked scores are the same warm (both caches) as cold', async () => {
    const cold = await rankings({ model: true });
    const warm = await rankings({ model: true });
    assert.deepEqual(warm, cold);
    const first = cold[REQUESTS[0]] as unknown[][];
    assert.equal(first[0][0], 'pdf-extract');
    assert.deepEqual(warnings, []);
  });

  it("gives the reranker each skill's bridge terms as the analyser makes them, cold and from the snapshot", async () => {
    for (let run = 0; run < 2; run++) {
      const svc = await openLibrary({ root: lib, noModel: true, cacheDir: cache(), logger });
      await svc.index();
      // Engine internals: the entries the rerank features read, and the engine's text context.
      const engine = svc as unknown as { entries: Map<string, { doc: never; bridge: string[] }>; text: never };
      let bridged = 0;
      for (const [id, e] of engine.entries) {
        const want = lexicalFields(e.doc, engine.text).bridge ?? [];
        if (want.length) bridged++;
        assert.deepEqual(e.bridge, want, id);
      }
      assert.equal(bridged, 1, 'the Chinese skill has bridge terms');
      await svc.dispose();
    }
  });

  it('uses the snapshot: a planted analysis is what a reopen indexes', async () => {
    await rankings();
    // Swap the analyses of two skills in the snapshot: a reopen that re-analysed would not notice.
    const snap = await FileAnalysisCache.open(cache());
    const keys = [...(snap as unknown as { map: Map<string, SkillAnalysis> }).map.keys()];
    const pdf = keys.find((k) => plain(snap.get(k))!.terms.includes('invoic'))!;
    const sql = keys.find((k) => plain(snap.get(k))!.terms.includes('sql'))!;
    const [a, b] = [snap.get(pdf)!, snap.get(sql)!];
    snap.set(pdf, b);
    snap.set(sql, a);
    await snap.flush(new Set(keys));
    const svc = await openLibrary({ root: lib, noModel: true, cacheDir: cache(), logger });
    await svc.index();
    const r = await svc.route('scanned invoice tables', { k: 3, rerank: false });
    assert.equal(r.candidates[0].skillId, 'sql-query-tuning');
    await svc.dispose();
  });

  it('re-analyses a skill whose file changed, and drops its old analysis', async () => {
    await rankings();
    const file = path.join(lib, 'image-resize', 'SKILL.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^description: .*$/m, 'description: Transcode zeppelin telemetry into quokka spreadsheets.'));
    const svc = await openLibrary({ root: lib, noModel: true, cacheDir: cache(), logger });
    await svc.index();
    const r = await svc.route('zeppelin telemetry quokka', { k: 3, rerank: false });
    assert.equal(r.candidates[0]?.skillId, 'image-resize');
    await svc.dispose();
    const snap = await FileAnalysisCache.open(cache());
    const terms = [...(snap as unknown as { map: Map<string, SkillAnalysis> }).map.values()].flatMap((a) => [...a.counts.terms]);
    assert.ok(terms.includes('zeppelin'));
    assert.equal(snap.size, 13, 'the stale analysis is not kept');
    // A cold open of the edited library agrees.
    assert.deepEqual(await rankings(), await rankings({ cacheDir: path.join(tmp, 'other-cache') }));
  });

  it('a corrupt snapshot is reported through the logger, rebuilt, and routing is unchanged', async () => {
    const cold = await rankings();
    const file = path.join(cache(), ANALYSIS_FILE);
    const b = readFileSync(file);
    b[Math.floor(b.length * 0.75)] ^= 0x40;
    writeFileSync(file, b);
    assert.deepEqual(await rankings(), cold);
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0], /analysis snapshot .* is corrupt \(checksum mismatch\); rebuilding it/);
    assert.equal((await FileAnalysisCache.open(cache(), logger)).size, 13, 'rewritten whole');
    assert.equal(warnings.length, 1);
  });
});
