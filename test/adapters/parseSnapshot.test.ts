import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { SkillDoc } from '../../src/core/types';
import { FsWorkspace } from '../../src/node/fsWorkspace';
import { openLibrary } from '../../src/node/library';
import { FileParseCache, PARSE_FILE } from '../../src/node/parseSnapshot';

const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLES = path.join(ROOT, 'examples/library');
const REQUESTS = [
  'extract the text and tables from a scanned PDF invoice',
  'tune a slow SQL query with an index',
  'deploy the service to kubernetes with a rolling update',
  '把销售数据做成图表',
  'zeppelin telemetry quokka',
];
/** Files older than the racy window (see `FsWorkspace.stamp`), so their parses are reused. */
const PAST = new Date(Date.now() - 3_600_000);

function ageFiles(dir: string, when = PAST): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) ageFiles(p, when);
    else utimesSync(p, when, when);
  }
}

const doc = (id: string, extra: Partial<SkillDoc> = {}): SkillDoc => ({
  id,
  path: `${id}/SKILL.md`,
  name: id,
  description: `does ${id}`,
  body: '# Usage\n\ntext',
  frontMatter: { name: id, description: `does ${id}`, metadata: { updated: new Date('2024-05-01T00:00:00Z'), tags: ['a', 1, true, null] } },
  keyRanges: Object.assign(Object.create(null), { name: { start: { line: 1, character: 0 }, end: { line: 1, character: 9 } } }),
  bodyStartLine: 4,
  lang: 'en',
  hash: `h-${id}`,
  findings: [],
  ...extra,
});

describe('FileParseCache (parsed skills by file stamp)', () => {
  let dir: string;
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sr-parse-'));
    warnings.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function seeded(): Promise<void> {
    const c = await FileParseCache.open(dir, logger);
    c.set('a', doc('a'));
    c.set('b', doc('b', { lang: 'zh', description: '数据' }));
    await c.flush(new Set(['a', 'b']));
  }

  it('round-trips documents (front-matter dates included) and drops keys no longer kept', async () => {
    await seeded();
    const c = await FileParseCache.open(dir, logger);
    assert.equal(c.size, 2);
    assert.deepEqual(c.get('a'), doc('a'));
    assert.ok((c.get('a')!.frontMatter.metadata as { updated: unknown }).updated instanceof Date);
    assert.deepEqual(c.get('b'), doc('b', { lang: 'zh', description: '数据' }));
    await c.flush(new Set(['b']));
    const d = await FileParseCache.open(dir, logger);
    assert.equal(d.get('a'), undefined);
    assert.equal(d.size, 1);
    assert.deepEqual(warnings, []);
  });

  it('decodes a body, front matter, key ranges and findings when first read, keeps the keys in place, and writes unread ones back unchanged', async () => {
    await seeded();
    const c = await FileParseCache.open(dir, logger);
    const a = c.get('a')!;
    for (const f of ['body', 'frontMatter', 'keyRanges', 'findings']) assert.equal(typeof Object.getOwnPropertyDescriptor(a, f)!.get, 'function', `${f} not decoded yet`);
    assert.deepEqual(Object.keys(a), Object.keys(doc('a')));
    assert.equal(a.body, doc('a').body);
    assert.equal(typeof Object.getOwnPropertyDescriptor(a, 'body')!.get, 'function', 'the body is read again on each read, not kept');
    assert.equal(a.body, doc('a').body);
    assert.equal(Object.getPrototypeOf(a.keyRanges), null);
    assert.equal(Object.getOwnPropertyDescriptor(a, 'keyRanges')!.get, undefined, 'the other fields are decoded once, then plain values');
    assert.ok((a.frontMatter.metadata as { updated: unknown }).updated instanceof Date);
    // Each get is a document of the caller's own.
    c.get('b')!.findings.push({ code: 'x' } as never);
    assert.deepEqual(c.get('b')!.findings, []);
    assert.notEqual(c.get('a'), c.get('a'));
    // What one document decoded, the next is given as a value; the body is read from the file.
    assert.equal(Object.getOwnPropertyDescriptor(c.get('a')!, 'frontMatter')!.get, undefined);
    assert.equal(typeof Object.getOwnPropertyDescriptor(c.get('a')!, 'body')!.get, 'function');
    const findings = c.get('b')!.findings;
    assert.notEqual(findings, c.get('b')!.findings, 'a list of its own each time');
    // A change elsewhere rewrites the file: 'b' was never read and goes back as its bytes.
    c.set('c', doc('c', { body: 'ünïcode — body\nwith lines\n' }));
    await c.flush(new Set(['a', 'b', 'c']));
    const d = await FileParseCache.open(dir, logger);
    assert.deepEqual({ ...d.get('a') }, doc('a'));
    assert.deepEqual({ ...d.get('b') }, doc('b', { lang: 'zh', description: '数据' }));
    assert.equal(d.get('c')!.body, 'ünïcode — body\nwith lines\n');
    const b = d.get('b')!;
    b.body = 'replaced';
    assert.equal(b.body, 'replaced');
    assert.equal(d.get('b')!.body, doc('b').body, 'the cache keeps what it read');
    assert.deepEqual(warnings, []);
  });

  it('reads the lazy fields from the file it checked: a rewrite of the file (by rename) or its removal leaves them readable', async () => {
    await seeded();
    const c = await FileParseCache.open(dir, logger);
    const a = c.get('a')!;
    const file = path.join(dir, PARSE_FILE);
    // Another process writes the snapshot anew: the documents read before still read their own bytes.
    const other = await FileParseCache.open(path.join(dir, 'other'), logger);
    other.set('a', doc('a', { body: 'another body altogether, longer than the first one was' }));
    await other.flush(new Set(['a']));
    renameSync(path.join(dir, 'other', PARSE_FILE), file);
    assert.equal(a.body, doc('a').body);
    assert.equal(c.get('b')!.body, doc('b').body);
    rmSync(file);
    assert.deepEqual({ ...c.get('a') }, doc('a'));
    // Its own write keeps the entries read from the old file, and the new file reads back whole.
    c.set('c', doc('c'));
    assert.equal(Object.getOwnPropertyDescriptor(c.get('c')!, 'body')!.get, undefined, 'set in this process: in memory');
    await c.flush(new Set(['a', 'b', 'c']));
    assert.equal(a.body, doc('a').body);
    // What it wrote it keeps as entries of the new file, not in memory.
    assert.equal(typeof Object.getOwnPropertyDescriptor(c.get('c')!, 'body')!.get, 'function');
    assert.deepEqual({ ...c.get('c') }, doc('c'));
    await c.compact();
    assert.deepEqual({ ...c.get('b') }, doc('b', { lang: 'zh', description: '数据' }));
    const d = await FileParseCache.open(dir, logger);
    assert.deepEqual({ ...d.get('b') }, doc('b', { lang: 'zh', description: '数据' }));
    assert.deepEqual(warnings, []);
  });

  it('does not store what JSON would change', async () => {
    const c = await FileParseCache.open(dir, logger);
    c.set('nan', doc('nan', { frontMatter: { n: Number.NaN } }));
    c.set('undef', doc('undef', { frontMatter: { u: undefined } }));
    c.set('map', doc('map', { frontMatter: { m: new Map() } }));
    c.set('tag', doc('tag', { frontMatter: { '\u0000date': 'x' } }));
    c.set('proto', doc('proto', { keyRanges: {} }));
    c.set('surrogate', doc('surrogate', { body: 'half a pair: \ud800' }));
    c.set('ok', doc('ok'));
    assert.equal(c.size, 1);
    await c.flush(new Set(['nan', 'undef', 'map', 'tag', 'proto', 'surrogate', 'ok']));
    assert.equal((await FileParseCache.open(dir, logger)).size, 1);
  });

  for (const [what, damage] of [
    ['truncated', (f: string) => truncateSync(f, readFileSync(f).length - 7)],
    ['garbage', (f: string) => writeFileSync(f, 'not a snapshot')],
    ['headerless', (f: string) => writeFileSync(f, 'SRPS1\n{"version":1')],
    [
      'flipped-bit',
      (f: string) => {
        const b = readFileSync(f);
        b[b.length - 20] ^= 1;
        writeFileSync(f, b);
      },
    ],
  ] as const) {
    it(`reports a ${what} file, starts empty and writes a good one on the next flush`, async () => {
      await seeded();
      damage(path.join(dir, PARSE_FILE));
      const c = await FileParseCache.open(dir, logger);
      assert.equal(c.size, 0);
      assert.equal(warnings.length, 1, warnings.join('\n'));
      assert.match(warnings[0], /parsed-skill snapshot .* is corrupt .*rebuilding it/);
      c.set('a', doc('a'));
      await c.flush(new Set(['a']));
      assert.equal((await FileParseCache.open(dir, logger)).size, 1);
      assert.equal(warnings.length, 1);
    });
  }

  it('a file of another version is rebuilt quietly', async () => {
    writeFileSync(path.join(dir, PARSE_FILE), 'SRPS1\n{"version":0,"sha1":""}\n[]');
    const c = await FileParseCache.open(dir, logger);
    assert.equal(c.size, 0);
    assert.deepEqual(warnings, []);
  });
});

describe('FsWorkspace.stamp', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(path.join(tmpdir(), 'sr-stamp-'));
    cpSync(path.join(EXAMPLES, 'pdf-extract'), path.join(tmp, 'pdf-extract'), { recursive: true });
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));
  const ref = { id: 'pdf-extract', path: 'pdf-extract/SKILL.md', folderName: 'pdf-extract' };

  it('is undefined for a just-written file, an open buffer and a missing file; changes with the file', async () => {
    const file = path.join(tmp, ref.path);
    assert.equal(await new FsWorkspace(tmp).stamp(ref), undefined, 'racy: modified just now');
    utimesSync(file, PAST, PAST);
    const before = await new FsWorkspace(tmp).stamp(ref);
    assert.ok(before);
    assert.equal(await new FsWorkspace(tmp).stamp(ref), before, 'stable');
    assert.equal(await new FsWorkspace(tmp, { overlay: new Map([[file, 'x']]) }).stamp(ref), undefined);
    // Same size, same mtime restored: the change time still tells.
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('PDF', 'FDP'));
    utimesSync(file, PAST, PAST);
    assert.equal(statSync(file).size, Buffer.byteLength(text));
    const after = await new FsWorkspace(tmp).stamp(ref);
    assert.ok(after);
    assert.notEqual(after, before);
    rmSync(file);
    assert.equal(await new FsWorkspace(tmp).stamp(ref), undefined);
  });
});

describe('parsed-skill snapshot through openLibrary', () => {
  let tmp: string;
  let lib: string;
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
  beforeEach(() => {
    tmp = mkdtempSync(path.join(tmpdir(), 'sr-parse-lib-'));
    lib = path.join(tmp, 'lib');
    cpSync(EXAMPLES, lib, { recursive: true });
    ageFiles(lib);
    warnings.length = 0;
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  const cache = () => path.join(tmp, 'cache');
  async function opened(opts: { cacheDir?: string; model?: boolean; overlay?: Map<string, string> } = {}) {
    const svc = await openLibrary({ root: lib, noModel: !opts.model, cacheDir: opts.cacheDir ?? cache(), overlay: opts.overlay, logger });
    await svc.index();
    const out: Record<string, unknown> = {};
    for (const q of REQUESTS) {
      const r = await svc.route(q, { k: 10 });
      out[q] = r.candidates.map((c) => [c.skillId, c.scores.lexical, c.scores.dense, c.scores.final, c.passage?.text ?? null]);
    }
    const skills = svc.skills().map((d) => ({ ...d }));
    const failures = svc.failures();
    await svc.dispose();
    return { out, skills, failures };
  }
  const cold = () => opened({ cacheDir: path.join(tmp, `cold-${Math.random()}`) });

  it('reopens from the snapshot with the same skills (findings included) and the same routing, with the model', async () => {
    // A skill with findings (the example library validates clean): they come back from the snapshot too.
    const broken = path.join(lib, 'docx-edit', 'SKILL.md');
    writeFileSync(broken, readFileSync(broken, 'utf8').replace(/^description: "(.*)"$/m, 'description: $1'));
    ageFiles(lib);
    const first = await opened({ model: true });
    assert.equal((await FileParseCache.open(cache())).size, 13, 'every skill was saved');
    const warm = await opened({ model: true });
    assert.deepEqual(warm, first);
    assert.deepEqual(warm, await opened({ model: true, cacheDir: path.join(tmp, 'other') }));
    assert.ok(first.skills.find((d) => d.id === 'docx-edit')!.findings.some((f) => f.code === 'frontmatter.invalid-yaml'), 'the broken skill carries its finding');
    assert.deepEqual(warnings, []);
  });

  it('uses the snapshot: a planted parse is what a reopen indexes (so unchanged files are not read)', async () => {
    await opened();
    const snap = await FileParseCache.open(cache());
    const map = (snap as unknown as { map: Map<string, unknown> }).map;
    const key = [...map.keys()].find((k) => snap.get(k)!.id === 'image-resize')!;
    const d = snap.get(key)!;
    const planted = 'Transcode zeppelin telemetry into quokka spreadsheets.';
    snap.set(key, { ...d, description: planted });
    await snap.flush(new Set(map.keys()));
    const warm = await opened();
    assert.equal(warm.skills.find((x) => x.id === 'image-resize')!.description, planted);
  });

  it('picks up a changed (same size, same mtime), an added and a removed file, as a cold open does', async () => {
    await opened();
    const file = path.join(lib, 'image-resize', 'SKILL.md');
    const text = readFileSync(file, 'utf8');
    const desc = /^description: (.*)$/m.exec(text)![1];
    const repl = 'Transcode zeppelin telemetry into quokka spreadsheets'.padEnd(desc.length, '.').slice(0, desc.length);
    writeFileSync(file, text.replace(desc, repl));
    utimesSync(file, PAST, PAST);
    cpSync(path.join(lib, 'pdf-extract'), path.join(lib, 'pdf-extract-copy'), { recursive: true });
    ageFiles(path.join(lib, 'pdf-extract-copy'));
    rmSync(path.join(lib, 'k8s-deploy'), { recursive: true });
    const warm = await opened();
    assert.equal((warm.out[REQUESTS[4]] as unknown[][])[0][0], 'image-resize');
    const ids = warm.skills.map((d) => d.id);
    assert.ok(ids.includes('pdf-extract-copy'));
    assert.ok(!ids.includes('k8s-deploy'));
    assert.deepEqual(warm, await cold());
    assert.equal((await FileParseCache.open(cache())).size, 13, 'the removed and stale parses are not kept');
    // A file edited just now (inside the racy window) is read, whatever its stamp.
    writeFileSync(file, text);
    assert.deepEqual(await opened(), await cold());
  });

  it('an open editor buffer wins over the snapshot', async () => {
    await opened();
    const file = path.join(lib, 'image-resize', 'SKILL.md');
    const text = readFileSync(file, 'utf8').replace(/^description: .*$/m, 'description: Transcode zeppelin telemetry into quokka spreadsheets.');
    const warm = await opened({ overlay: new Map([[file, text]]) });
    assert.equal((warm.out[REQUESTS[4]] as unknown[][])[0][0], 'image-resize');
  });

  it('a corrupt or truncated snapshot is reported through the logger, rebuilt, and routing is unchanged', async () => {
    const first = await opened();
    const file = path.join(cache(), PARSE_FILE);
    const b = readFileSync(file);
    b[Math.floor(b.length * 0.75)] ^= 0x40;
    writeFileSync(file, b);
    assert.deepEqual(await opened(), first);
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0], /parsed-skill snapshot .* is corrupt \(checksum mismatch\); rebuilding it/);
    assert.equal((await FileParseCache.open(cache(), logger)).size, 13, 'rewritten whole');
    truncateSync(file, Math.floor(b.length / 2));
    assert.deepEqual(await opened(), first);
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.match(warnings[1], /parsed-skill snapshot .* is corrupt/);
    assert.equal((await FileParseCache.open(cache())).size, 13);
  });
});

describe('a cold index of many skills keeps their bodies as the snapshot holds them', () => {
  let tmp: string;
  beforeEach(() => (tmp = mkdtempSync(path.join(tmpdir(), 'sr-parse-cold-'))));
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  /** `n` skills over a few topics, the files aged so a reopen reuses their parses. */
  function library(n: number): string {
    const lib = path.join(tmp, `lib-${n}`);
    const topics = ['pdf tables', 'csv rows', 'kubernetes deploys', 'sql indexes', 'chart colours', 'image resizing'];
    for (let i = 0; i < n; i++) {
      const topic = topics[i % topics.length];
      const dir = path.join(lib, `s${i}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: s${i}\ndescription: Handle ${topic} for team ${i}. Use when working on ${topic}.\n---\n# ${topic}\n\nStep ${i}: ${topic} — done.\n`);
    }
    ageFiles(lib);
    return lib;
  }
  const lazy = (d: SkillDoc) => typeof Object.getOwnPropertyDescriptor(d, 'body')?.get === 'function';

  it('after 500 or more fresh parses the skills are the snapshot\'s lazy documents, equal to the parses, routing the same', async () => {
    const lib = library(520);
    const cold = await openLibrary({ root: lib, noModel: true, cacheDir: path.join(tmp, 'cache') });
    await cold.index();
    assert.ok(cold.skills().every(lazy), 'every body is bytes until read');
    const route = async (s: typeof cold) => (await s.route('resize these images for the web', { k: 5 })).candidates.map((c) => [c.skillId, c.scores.final, c.passage?.text ?? null]);
    const routed = await route(cold);
    const skills = cold.skills().map((d) => ({ ...d }));
    await cold.dispose();
    // Read and parsed only (as `validate`): the documents as the parser makes them.
    const fresh = await openLibrary({ root: lib, parseOnly: true, cacheDir: path.join(tmp, 'other') });
    await fresh.index();
    const parsed = fresh.skills().map((d) => ({ ...d }));
    assert.ok(!fresh.skills().some(lazy));
    await fresh.dispose();
    assert.deepEqual(skills, parsed);
    const warm = await openLibrary({ root: lib, noModel: true, cacheDir: path.join(tmp, 'cache') });
    await warm.index();
    assert.deepEqual(await route(warm), routed);
    await warm.dispose();
  });

  it('a small cold index keeps the documents it parsed', async () => {
    const svc = await openLibrary({ root: library(40), noModel: true, cacheDir: path.join(tmp, 'cache') });
    await svc.index();
    assert.ok(!svc.skills().some(lazy));
    await svc.dispose();
  });
});
