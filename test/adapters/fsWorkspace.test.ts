import { strict as assert } from 'node:assert';
import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FsWorkspace } from '../../src/node/fsWorkspace';
import { JsonlWorkspace } from '../../src/node/jsonlWorkspace';
import { openLibrary } from '../../src/node/library';

function write(root: string, rel: string, text: string | Buffer) {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const ok = (name: string, description = `Does ${name} things.`) => `---\nname: ${name}\ndescription: ${description}\n---\nbody of ${name}\n`;

describe('FsWorkspace', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'sr-ws-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds SKILL.md files in nested and dot folders, skipping .git and node_modules', async () => {
    write(root, 'a/SKILL.md', ok('a'));
    write(root, 'group/b/SKILL.md', ok('b'));
    write(root, '.claude/skills/c/SKILL.md', ok('c'));
    write(root, '.github/skills/d/SKILL.md', ok('d'));
    write(root, '.agents/skills/e/SKILL.md', ok('e'));
    write(root, 'node_modules/x/SKILL.md', ok('x'));
    write(root, '.git/y/SKILL.md', ok('y'));
    write(root, 'a/notes.md', 'not a skill');
    const { files, problems } = await new FsWorkspace(root).list();
    assert.deepEqual(files.map((f) => f.id), ['.agents/skills/e', '.claude/skills/c', '.github/skills/d', 'a', 'group/b']);
    assert.deepEqual(files.find((f) => f.id === 'group/b'), { id: 'group/b', path: 'group/b/SKILL.md', folderName: 'b' });
    assert.deepEqual(problems, []);
  });

  it('a prefetched walk answers the next list once; the list after walks again', async () => {
    write(root, 'a/SKILL.md', ok('a'));
    const ws = new FsWorkspace(root);
    ws.prefetch();
    // Settled before the tree changes: what the walk saw is what the next list says.
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 5));
    write(root, 'b/SKILL.md', ok('b'));
    assert.deepEqual((await ws.list()).files.map((f) => f.id), ['a']);
    assert.deepEqual((await ws.list()).files.map((f) => f.id), ['a', 'b']);
    const gone = new FsWorkspace(path.join(root, 'missing'));
    gone.prefetch();
    await new Promise((r) => setTimeout(r, 20));
    await assert.rejects(gone.list(), /library folder not found/, 'a failed walk is the next list\'s failure, not an unhandled rejection');
    await assert.rejects(gone.list(), /library folder not found/);
  });

  it('survives symlink loops and broken links', async () => {
    write(root, 'a/SKILL.md', ok('a'));
    symlinkSync(root, path.join(root, 'a', 'loop'));
    symlinkSync(path.join(root, 'nowhere'), path.join(root, 'dangling'));
    const { files, problems } = await new FsWorkspace(root).list();
    assert.deepEqual(files.map((f) => f.id), ['a']);
    assert.ok(problems.some((p) => /loop/.test(p.message)), JSON.stringify(problems));
    assert.ok(problems.some((p) => p.path === 'dangling' && /broken/.test(p.message)));
  });

  it('never reads what lies outside the library: a linked skill folder or SKILL.md there is a problem, not a skill', async () => {
    const outside = mkdtempSync(path.join(tmpdir(), 'sr-outside-'));
    try {
      write(outside, 'away/SKILL.md', ok('away'));
      write(outside, 'file/SKILL.md', ok('file'));
      write(root, 'inside/SKILL.md', ok('inside'));
      symlinkSync(path.join(outside, 'away'), path.join(root, 'away'));
      mkdirSync(path.join(root, 'file'));
      symlinkSync(path.join(outside, 'file', 'SKILL.md'), path.join(root, 'file', 'SKILL.md'));
      // A link that stays inside the library is an alias, as before.
      symlinkSync(path.join(root, 'inside'), path.join(root, 'alias'));
      const { files, problems } = await new FsWorkspace(root).list();
      assert.deepEqual(files.map((f) => f.id), ['inside']);
      assert.deepEqual(problems.map((p) => p.path), ['away', 'file/SKILL.md']);
      assert.ok(problems.every((p) => /outside the library .*: not read; copy the skill into the library/.test(p.message)), JSON.stringify(problems));
      const svc = await openLibrary({ root, noModel: true, cacheDir: path.join(root, '.cache') });
      await svc.index();
      assert.deepEqual(svc.skills().map((d) => d.id), ['inside'], 'the engine indexes only what is inside');
      const routed = await svc.route('away skill', { k: 5 });
      assert.ok(routed.candidates.every((c) => c.skillId === 'inside'));
      await svc.dispose();
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('indexes the good skills when others are huge, binary, non-UTF-8 or unreadable', async () => {
    write(root, 'good/SKILL.md', ok('good'));
    write(root, 'huge/SKILL.md', `${ok('huge')}${'x'.repeat(10 * 1024 * 1024)}`);
    write(root, 'bin/SKILL.md', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1]));
    write(root, 'latin1/SKILL.md', Buffer.concat([Buffer.from(ok('latin1')), Buffer.from([0xe9, 0xe8])]));
    write(root, 'locked/SKILL.md', ok('locked'));
    chmodSync(path.join(root, 'locked/SKILL.md'), 0o000);
    const svc = await openLibrary({ root, noModel: true, cacheDir: path.join(root, '.cache') });
    const stats = await svc.index();
    const ids = svc.skills().map((s) => s.id);
    assert.ok(ids.includes('good') && ids.includes('latin1'));
    const failures = Object.fromEntries(svc.failures().map((f) => [f.path, f.message]));
    assert.match(failures['huge/SKILL.md'], /10\.0 MB.*not indexed/);
    assert.match(failures['bin/SKILL.md'], /binary/);
    if (process.getuid?.() !== 0) assert.ok(failures['locked/SKILL.md']);
    assert.equal(svc.skills().find((s) => s.id === 'latin1')!.findings[0].code, 'file.encoding');
    assert.equal(stats.skills, ids.length);
    await svc.dispose();
  });

  it('lets an open buffer win over disk', async () => {
    write(root, 'a/SKILL.md', ok('a', 'old text'));
    const overlay = new Map([[path.join(root, 'a/SKILL.md'), ok('a', 'fresh unsaved text')]]);
    const svc = await openLibrary({ root, noModel: true, overlay, cacheDir: path.join(root, '.cache') });
    await svc.index();
    assert.equal(svc.skills()[0].description, 'fresh unsaved text');
    await svc.dispose();
  });

  it('reads an R3-style .jsonl library', async () => {
    const file = path.join(root, 'skills.jsonl');
    writeFileSync(file, [
      JSON.stringify({ id: 's1', text: 'pdf-tools | Extract text from PDF files | # Body\nuse pdftotext' }),
      'not json',
      JSON.stringify({ id: 's2', text: 'k8s | Deploy to Kubernetes | helm | charts' }),
    ].join('\n'));
    const ws = new JsonlWorkspace(file);
    const { files, problems } = await ws.list();
    assert.deepEqual(files.map((f) => f.id), ['s1', 's2']);
    assert.match(problems[0].path, /:2$/);
    const svc = await openLibrary({ root: file, noModel: true, cacheDir: path.join(root, '.cache') });
    await svc.index();
    const s2 = svc.skills().find((s) => s.id === 's2')!;
    assert.equal(s2.name, 'k8s');
    assert.equal(s2.body.trim(), 'helm | charts');
    const r = await svc.route('extract text from a pdf');
    assert.equal(r.candidates[0].skillId, 's1');
    await svc.dispose();
  });
});
