/** The real server over stdio: diagnostics on fixture workspaces (words only, no model). */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { IndexStatusRequest } from '../../src/shared/protocol';
import { copyFixture, removeDir, TestClient } from './lspClient';

const codes = (ds: { code?: string | number }[]) => ds.map((d) => String(d.code)).sort();
/** Codes of one file's own problems (pair findings between broken skills are another test's business). */
const ownCodes = (ds: { code?: string | number }[]) => codes(ds).filter((c) => c !== 'skill.conflict' && c !== 'skill.near-duplicate');

describe('server: near-duplicates across an edit (duplicates workspace)', function () {
  this.timeout(90_000);
  let ws: string;
  let c: TestClient;
  const file = (id: string) => path.join(ws, id, 'SKILL.md');

  beforeEach(async () => {
    ws = copyFixture('duplicates');
    c = await TestClient.start({ folders: [ws] });
    await c.ready();
  });
  afterEach(async () => {
    assert.equal(await c.stop(), 0, 'the server exits cleanly');
    removeDir(ws);
    removeDir(c.cacheDir);
  });

  it('puts skill.near-duplicate on both twins, each pointing at the other', async () => {
    const tidy = await c.diagnosticsOf(file('csv-tidy'), (d) => d.length > 0);
    const cleaner = await c.diagnosticsOf(file('csv-cleaner'), (d) => d.length > 0);
    assert.deepEqual(codes(tidy), ['skill.near-duplicate']);
    assert.match(tidy[0].message, /^Near-duplicate of "csv-cleaner" \(csv-cleaner\): the router cannot keep them apart\. \d of \d requests written for/);
    const evidence = (tidy[0].data as { evidence: { requests: { query: string; ranks: Record<string, number> }[]; probes: { sent: number; taken: number } } }).evidence;
    assert.ok(evidence.requests.length >= 1 && evidence.probes.taken >= 2, JSON.stringify(evidence));
    for (const r of evidence.requests) assert.deepEqual(Object.keys(r.ranks).sort(), ['csv-cleaner', 'csv-tidy']);
    assert.equal(tidy[0].source, 'skill-router');
    assert.match(tidy[0].codeDescription!.href, /diagnostics\.md#skill\.near-duplicate$/);
    assert.equal(path.normalize(new URL(tidy[0].relatedInformation![0].location.uri).pathname), file('csv-cleaner'));
    assert.equal(path.normalize(new URL(cleaner[0].relatedInformation![0].location.uri).pathname), file('csv-tidy'));
    await c.diagnosticsOf(file('k8s-deploy'), (d) => d.length === 0, 'an unrelated skill published clean');
  });

  it('editing one twin re-checks the other, both ways; the open buffer wins over disk', async () => {
    await c.diagnosticsOf(file('csv-cleaner'), (d) => d.length === 1);
    const original = readFileSync(file('csv-tidy'), 'utf8');
    await c.open(file('csv-tidy'), original);
    const unrelated = original.replace(/^description: .*$/m, 'description: Render architecture diagrams from a YAML description of services and their links.');
    const v = await c.change(file('csv-tidy'), unrelated);
    // The open skill's own reach (skill.unreachable: its body is about CSV files now) is not this test's business.
    const pairs = (d: { code?: string | number }[]) => d.filter((x) => x.code !== 'skill.unreachable');
    await c.diagnosticsOf(file('csv-tidy'), (d, p) => p.version === v && pairs(d).length === 0, 'the edited twin clean');
    await c.diagnosticsOf(file('csv-cleaner'), (d) => d.length === 0, 'the other twin re-checked');
    const v2 = await c.change(file('csv-tidy'), original);
    await c.diagnosticsOf(file('csv-tidy'), (d, p) => p.version === v2 && pairs(d).length === 1);
    await c.diagnosticsOf(file('csv-cleaner'), (d) => d.length === 1, 'the other twin gets it back');
    assert.equal(readFileSync(file('csv-tidy'), 'utf8'), original, 'disk untouched');
  });

  it('a suppression comment dismisses the finding on that skill only', async () => {
    const text = readFileSync(file('csv-tidy'), 'utf8');
    await c.open(file('csv-tidy'), text);
    const v = await c.change(file('csv-tidy'), `${text}\n<!-- skill-router-ignore skill.near-duplicate csv-cleaner -->\n`);
    await c.diagnosticsOf(file('csv-tidy'), (d, p) => p.version === v && d.length === 0);
    assert.deepEqual(codes(c.current(file('csv-cleaner'))), ['skill.near-duplicate']);
  });

  it('drops stale results: a burst of edits publishes the last version, never an older one after it', async () => {
    const text = readFileSync(file('csv-tidy'), 'utf8');
    await c.open(file('csv-tidy'), text);
    let last = 1;
    for (let i = 0; i < 8; i++) last = await c.change(file('csv-tidy'), text.replace('Clean messy', `Clean messy (${i})`));
    await c.diagnosticsOf(file('csv-tidy'), (_d, p) => p.version === last);
    const versions = c.history.filter((p) => p.uri.endsWith('csv-tidy/SKILL.md') && p.version !== undefined && p.version !== null).map((p) => p.version!);
    assert.deepEqual([...versions].sort((a, b) => a - b), versions, 'versions only go up');
    assert.equal(versions[versions.length - 1], last);
  });

  it('files on disk: created, changed and deleted SKILL.md files, and deleted folders', async () => {
    const copy = path.join(ws, 'csv-copy', 'SKILL.md');
    mkdirSync(path.dirname(copy));
    writeFileSync(copy, readFileSync(file('csv-cleaner'), 'utf8').replace('name: csv-cleaner', 'name: csv-copy'));
    await c.filesChanged([{ file: copy, type: 1 }]);
    const pairCodes = (d: { code?: string | number; relatedInformation?: { location: { uri: string } }[] }[]) =>
      d.map((x) => `${x.code} ${path.basename(path.dirname(new URL(x.relatedInformation![0].location.uri).pathname))}`).sort();
    await c.diagnosticsOf(copy, (d) => pairCodes(d).includes('skill.copy csv-cleaner') && pairCodes(d).includes('skill.near-duplicate csv-tidy'), 'the new file is a copy of one twin and a near-duplicate of the other');
    await c.diagnosticsOf(file('csv-cleaner'), (d) => d.length === 2 && pairCodes(d).includes('skill.copy csv-copy'), 'an old twin sees the new file');
    writeFileSync(copy, '---\nname: csv-copy\ndescription: Draw charts.\n---\n');
    await c.filesChanged([{ file: copy, type: 2 }]);
    await c.diagnosticsOf(copy, (d) => d.length === 0);
    await c.diagnosticsOf(file('csv-cleaner'), (d) => d.length === 1);
    rmSync(path.join(ws, 'csv-tidy'), { recursive: true });
    await c.filesChanged([{ file: path.join(ws, 'csv-tidy'), type: 3 }]);
    await c.diagnosticsOf(file('csv-cleaner'), (d) => d.length === 0, 'the twin of a deleted folder is clean');
    const status = await c.conn.sendRequest(IndexStatusRequest);
    assert.equal(status.skills, 3);
    assert.equal(typeof status.timings.loopDelayMaxMs, 'number', 'the server reports its event loop\'s longest hold');
    const m = status.memory!;
    assert.ok(m, 'the server reports its memory');
    assert.ok(m.heapUsedMb > 0 && m.heapUsedMb <= m.heapTotalMb && m.heapTotalMb < m.rssMb && m.externalMb >= 0, JSON.stringify(m));
  });
});

describe('server: a library over its listing budget (duplicates workspace)', function () {
  this.timeout(90_000);

  it('says so once, on the skill whose entry costs the most, and takes it back within budget', async () => {
    const ws = copyFixture('duplicates');
    const c = await TestClient.start({ folders: [ws], settings: { listingBudget: 100 } });
    try {
      await c.ready();
      const ids = ['csv-cleaner', 'csv-tidy', 'k8s-deploy'];
      const file = (id: string) => path.join(ws, id, 'SKILL.md');
      const cost = (id: string) => {
        const fm = readFileSync(file(id), 'utf8');
        return /^name: (.*)$/m.exec(fm)![1].length + /^description: (.*)$/m.exec(fm)![1].length;
      };
      const costliest = [...ids].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b))[0];
      const over = await c.diagnosticsOf(file(costliest), (d) => d.some((x) => x.code === 'budget.listing-over'));
      const [d] = over.filter((x) => x.code === 'budget.listing-over');
      assert.match(d.message, /^The 3 skills list [\d,]+ characters of name \+ description, [\d.]+ times Claude Code's budget of 100: Claude Code lists \d of them by name only or not at all\. This skill's entry is the longest/);
      for (const id of ids.filter((x) => x !== costliest)) assert.ok(!c.current(file(id)).some((x) => x.code === 'budget.listing-over'), `${id} does not repeat it`);
      // Shortened, it no longer costs the most: the finding moves to the skill that now does.
      const text = readFileSync(file(costliest), 'utf8');
      await c.open(file(costliest), text);
      const v = await c.change(file(costliest), text.replace(/^description: .*$/m, 'description: Short.'));
      await c.diagnosticsOf(file(costliest), (ds, p) => p.version === v && !ds.some((x) => x.code === 'budget.listing-over'), 'moved off the shortened skill');
      const next = ids.filter((x) => x !== costliest).sort((a, b) => cost(b) - cost(a) || a.localeCompare(b))[0];
      await c.diagnosticsOf(file(next), (ds) => ds.some((x) => x.code === 'budget.listing-over'), `moved to ${next}`);
      await c.change(file(costliest), text);
      await c.setSettings({});
      await c.diagnosticsOf(file(costliest), (ds) => !ds.some((x) => x.code === 'budget.listing-over'), 'within the default budget: gone');
    } finally {
      assert.equal(await c.stop(), 0);
      removeDir(ws);
      removeDir(c.cacheDir);
    }
  });
});

describe('server: malformed files (malformed workspace)', function () {
  this.timeout(90_000);
  let ws: string;
  let c: TestClient;
  const marker = path.join(tmpdir(), 'skill-router-js-front-matter-ran');
  const file = (id: string) => path.join(ws, id, 'SKILL.md');

  before(async () => {
    rmSync(marker, { force: true });
    ws = copyFixture('malformed');
    mkdirSync(path.join(ws, 'binary'));
    writeFileSync(file('binary'), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0xff, 0x00, 0x01]));
    mkdirSync(path.join(ws, 'huge'));
    writeFileSync(file('huge'), `---\nname: huge\ndescription: big\n---\n${'x'.repeat(1_500_000)}\n`);
    c = await TestClient.start({ folders: [ws] });
    await c.ready();
  });
  after(async () => {
    assert.equal(await c.stop(), 0);
    removeDir(ws);
    removeDir(c.cacheDir);
  });

  it('reports each problem with its code and keeps indexing the rest', async () => {
    assert.deepEqual(ownCodes(await c.diagnosticsOf(file('bad-yaml'), (d) => ownCodes(d).length > 0)), ['frontmatter.invalid-yaml']);
    assert.deepEqual(ownCodes(await c.diagnosticsOf(file('no-front-matter'), (d) => ownCodes(d).length > 0)), ['frontmatter.missing']);
    assert.deepEqual(ownCodes(await c.diagnosticsOf(file('long-description'), (d) => ownCodes(d).length > 0)), ['frontmatter.description-too-long']);
    assert.deepEqual(ownCodes(await c.diagnosticsOf(file('binary'), (d) => ownCodes(d).length > 0)), ['file.unreadable']);
    const huge = await c.diagnosticsOf(file('huge'), (d) => ownCodes(d).length > 0);
    assert.match(huge[0].message, /1\.4 MB/);
    await c.diagnosticsOf(file('valid-skill'), (d) => ownCodes(d).length === 0);
    const status = await c.conn.sendRequest(IndexStatusRequest);
    assert.equal(status.failed, 2);
    assert.equal(status.skills, 7);
  });

  it('never runs ---js front matter', async () => {
    assert.deepEqual(ownCodes(await c.diagnosticsOf(file('js-front-matter'), (d) => ownCodes(d).length > 0)), ['frontmatter.invalid-yaml']);
    assert.equal(existsSync(marker), false);
  });

  it('reports what no editor is known to report itself (as check does), with reportBuiltInChecks on or off', async () => {
    assert.deepEqual(ownCodes(await c.diagnosticsOf(file('wrong-name'), (d) => ownCodes(d).length > 0)), ['frontmatter.name-mismatch']);
    assert.deepEqual(ownCodes(await c.diagnosticsOf(file('unknown-key'), (d) => ownCodes(d).length > 0)), ['frontmatter.unknown-key']);
    await c.setSettings({ diagnostics: { reportBuiltInChecks: true } });
    assert.deepEqual(ownCodes(await c.diagnosticsOf(file('wrong-name'), (d) => ownCodes(d).length > 0)), ['frontmatter.name-mismatch']);
    // Settle before the next test: a settings change re-publishes every skill.
    const sent = c.statuses.length;
    await c.setSettings({});
    await c.waitFor(() => c.statuses.length > sent, 'the status after the settings change');
  });

  it('survives hostile buffers: binary text, a 3 MB buffer, broken YAML while typing', async () => {
    const target = file('valid-skill');
    await c.open(target, readFileSync(target, 'utf8'));
    let v = await c.change(target, '\u0000\u0001 binary \u0000');
    assert.deepEqual(ownCodes(await c.diagnosticsOf(target, (_d, p) => p.version === v)), ['file.unreadable']);
    v = await c.change(target, `---\nname: valid-skill\ndescription: ${'y'.repeat(3_000_000)}\n---\n`);
    assert.deepEqual(ownCodes(await c.diagnosticsOf(target, (_d, p) => p.version === v)), ['file.unreadable']);
    v = await c.change(target, '---\nname: valid-skill\ndescription: "unterminated\n---\n');
    assert.deepEqual(ownCodes(await c.diagnosticsOf(target, (_d, p) => p.version === v)), ['frontmatter.invalid-yaml']);
    v = await c.change(target, readFileSync(target, 'utf8'));
    await c.diagnosticsOf(target, (d, p) => p.version === v && ownCodes(d).length === 0);
    await c.close(target);
    const status = await c.conn.sendRequest(IndexStatusRequest);
    assert.equal(status.state, 'ready');
    assert.equal(c.proc.exitCode, null, 'still running');
  });

  it('checks a SKILL.md outside every workspace folder (front matter only)', async () => {
    const outside = path.join(tmpdir(), `sr-outside-${process.pid}`, 'my-skill', 'SKILL.md');
    mkdirSync(path.dirname(outside), { recursive: true });
    try {
      await c.open(outside, '---\nname: My_Skill\ndescription: d\n---\n');
      const d = await c.diagnosticsOf(outside, (x) => x.length > 0);
      // Upper case and an underscore: one problem, one diagnostic.
      assert.deepEqual(codes(d).filter((x) => x.startsWith('frontmatter.name')), ['frontmatter.name-chars', 'frontmatter.name-mismatch']);
      await c.close(outside);
      await c.diagnosticsOf(outside, (x) => x.length === 0, 'cleared on close');
    } finally {
      removeDir(path.dirname(path.dirname(outside)));
    }
  });
});

describe('server: SKIP conflicts (conflicts workspace)', function () {
  this.timeout(90_000);
  let ws: string;
  let c: TestClient;
  const file = (id: string) => path.join(ws, id, 'SKILL.md');

  before(async () => {
    ws = copyFixture('conflicts');
    c = await TestClient.start({ folders: [ws] });
    await c.ready();
  });
  after(async () => {
    assert.equal(await c.stop(), 0);
    removeDir(ws);
    removeDir(c.cacheDir);
  });

  it('puts skill.conflict on both skills with the reason in words, a verified request and who should name the framework', async () => {
    for (const [id, twin] of [['react-component-tests', 'vue-component-tests'], ['vue-component-tests', 'react-component-tests']]) {
      const [d] = await c.diagnosticsOf(file(id), (x) => x.length > 0);
      assert.equal(d.code, 'skill.conflict');
      assert.equal(d.severity, 3, 'information by default');
      assert.match(d.message, new RegExp(`^Conflict with "${twin}"`));
      assert.match(d.message, /the same job with another framework \((React vs Vue|Vue vs React)\)/i);
      assert.doesNotMatch(d.message, /_mismatch/);
      assert.match(d.message, /e\.g\. ".+"/);
      assert.match(d.message, id === 'vue-component-tests' ? /Name Vue in the first sentence of this description/ : /This description names React first/);
      assert.ok((d.data as { evidence?: { requests: unknown[] } }).evidence?.requests.length, 'evidence in data');
      assert.ok(d.relatedInformation![0].location.uri.endsWith(`${twin}/SKILL.md`));
    }
  });

  it('front matter metadata dismisses the conflict on one side; settings change its severity or threshold', async () => {
    const text = readFileSync(file('react-component-tests'), 'utf8');
    await c.open(file('react-component-tests'), text.replace('---\n\n', 'metadata:\n  skill-router:\n    ignore: [vue-component-tests]\n---\n\n'));
    await c.diagnosticsOf(file('react-component-tests'), (d, p) => p.version === 1 && d.length === 0);
    assert.equal(c.current(file('vue-component-tests')).length, 1);
    await c.close(file('react-component-tests'));
    await c.setSettings({ diagnostics: { severity: { 'skill.conflict': 'warning' } } });
    await c.diagnosticsOf(file('vue-component-tests'), (d) => d[0]?.severity === 2);
    await c.setSettings({ diagnostics: { severity: { 'skill.conflict': 'off' } } });
    await c.diagnosticsOf(file('vue-component-tests'), (d) => d.length === 0);
  });
});
