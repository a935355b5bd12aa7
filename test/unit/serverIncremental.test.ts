/** The engine's one-file updates the language server relies on, and path → skill resolution. */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { SkillReadError } from '../../src/core/parse/skillDoc';
import { createSkillService } from '../../src/core/route/skillService';
import { CancelledError, type CancelToken } from '../../src/core/types';
import type { VectorCache } from '../../src/core/workspace';
import { skillRefFor } from '../../src/node/fsWorkspace';
import { FakeEmbedder, MemoryWorkspace, skill } from '../helpers/fakes';

/** The body two copy-pasted twins share: their requests meet there. */
const CSV_BODY = '# Fixing delimiters\n\n# Dropping duplicate rows\n';

const enc = (s: string) => new TextEncoder().encode(s);

function files() {
  return new Map<string, string | Uint8Array>([
    ['csv-cleaner/SKILL.md', skill('csv-cleaner', 'Clean messy CSV files: fix delimiters and drop duplicate rows.', CSV_BODY)],
    ['csv-tidy/SKILL.md', skill('csv-tidy', 'Clean messy CSV files: fix delimiters and remove duplicate rows.', CSV_BODY)],
    ['k8s-deploy/SKILL.md', skill('k8s-deploy', 'Deploy services to Kubernetes with Helm charts.')],
  ]);
}

class MemoryCache implements VectorCache {
  map = new Map<string, Float32Array[]>();
  flushed: string[][] = [];
  get(k: string) { return this.map.get(k); }
  set(k: string, v: Float32Array[]) { this.map.set(k, v); }
  async flush(keep: Set<string>) {
    for (const k of [...this.map.keys()]) if (!keep.has(k)) this.map.delete(k);
    this.flushed.push([...this.map.keys()]);
  }
}

describe('LiveSkillService.updateFile', () => {
  async function open() {
    const embedder = new FakeEmbedder();
    const cache = new MemoryCache();
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files()), embedder, cache });
    await svc.index();
    return { svc, embedder, cache };
  }
  const ref = (id: string) => ({ id, path: `${id}/SKILL.md`, folderName: id });

  it('re-parses and re-embeds one skill; the pair findings follow the edit', async () => {
    const { svc, embedder } = await open();
    assert.equal((await svc.pairFindings('csv-tidy')).length, 1);
    const before = embedder.texts;
    const doc = await svc.updateFile(ref('csv-tidy'), enc(skill('csv-tidy', 'Plot charts from spreadsheets.')));
    assert.equal(doc?.description, 'Plot charts from spreadsheets.');
    assert.equal(svc.skill('csv-tidy'), doc);
    assert.ok(embedder.texts - before >= 1 && embedder.texts - before <= 3, 'only this skill is embedded');
    assert.equal((await svc.pairFindings('csv-tidy')).length, 0);
    const r = await svc.route('plot a chart from a spreadsheet', { k: 1 });
    assert.equal(r.candidates[0].skillId, 'csv-tidy');
  });

  it('keeps the skill list when a body edit leaves names and descriptions alone (list-derived caches stay valid)', async () => {
    const { svc } = await open();
    const list = svc.skills();
    await svc.updateFile(ref('k8s-deploy'), enc(skill('k8s-deploy', 'Deploy services to Kubernetes with Helm charts.', '## Rollback\nhelm rollback')));
    assert.equal(svc.skills(), list, 'same list object');
    assert.match(svc.skill('k8s-deploy')!.body, /helm rollback/);
    assert.equal(svc.skills().find((s) => s.id === 'k8s-deploy'), svc.skill('k8s-deploy'));
    await svc.updateFile(ref('k8s-deploy'), enc(skill('k8s-deploy', 'Roll out to Kubernetes.')));
    assert.notEqual(svc.skills(), list, 'a new description gives a new list');
  });

  it('embeds nothing when the text is unchanged, and reuses cached vectors', async () => {
    const { svc, embedder } = await open();
    const before = embedder.texts;
    await svc.updateFile(ref('k8s-deploy'), enc(skill('k8s-deploy', 'Deploy services to Kubernetes with Helm charts.')));
    assert.equal(embedder.texts, before);
    await svc.updateFile(ref('k8s-deploy'), enc(skill('k8s-deploy', 'Roll out to Kubernetes.')));
    const after = embedder.texts;
    await svc.updateFile(ref('k8s-deploy'), enc(skill('k8s-deploy', 'Deploy services to Kubernetes with Helm charts.')));
    assert.equal(embedder.texts, after, 'back to a version the cache holds');
  });

  it('adds a new skill and removes one (null bytes)', async () => {
    const { svc } = await open();
    await svc.updateFile(ref('pdf-extract'), enc(skill('pdf-extract', 'Extract text from PDF files.')));
    assert.deepEqual(svc.skills().map((s) => s.id), ['csv-cleaner', 'csv-tidy', 'k8s-deploy', 'pdf-extract']);
    assert.equal(await svc.updateFile(ref('csv-tidy'), null), null);
    assert.equal(svc.skill('csv-tidy'), undefined);
    assert.deepEqual(await svc.pairFindings(), []);
    const r = await svc.route('clean a csv', { k: 5 });
    assert.ok(!r.candidates.some((c) => c.skillId === 'csv-tidy'));
  });

  it('unreadable bytes remove the skill, list it in failures() and throw SkillReadError; a good save clears it', async () => {
    const { svc } = await open();
    await assert.rejects(svc.updateFile(ref('k8s-deploy'), new Uint8Array([45, 45, 45, 0, 1])), SkillReadError);
    assert.equal(svc.skill('k8s-deploy'), undefined);
    assert.deepEqual(svc.failures().map((f) => f.path), ['k8s-deploy/SKILL.md']);
    await svc.updateFile(ref('k8s-deploy'), enc(skill('k8s-deploy', 'Deploy.')));
    assert.deepEqual(svc.failures(), []);
  });

  it('a cancelled update is completed by the next one', async () => {
    const { svc, embedder } = await open();
    const cancelled: CancelToken = { isCancellationRequested: true };
    const original = embedder.embed.bind(embedder);
    embedder.embed = async (texts, kind, token) => {
      if (token?.isCancellationRequested) throw new CancelledError();
      return original(texts, kind, token);
    };
    await assert.rejects(svc.updateFile(ref('csv-tidy'), enc(skill('csv-tidy', 'Plot charts.')), { token: cancelled }), CancelledError);
    const before = embedder.texts;
    await svc.updateFile(ref('csv-tidy'), enc(skill('csv-tidy', 'Plot charts.')));
    assert.ok(embedder.texts > before, 'the same text is embedded on the next update');
  });

  it('flushCache writes the vectors of updated skills and drops the stale ones', async () => {
    const { svc, cache } = await open();
    await svc.updateFile(ref('csv-tidy'), enc(skill('csv-tidy', 'Plot charts.')));
    await svc.flushCache();
    assert.equal(cache.flushed[cache.flushed.length - 1].length, 3);
  });
});

describe('skillRefFor', () => {
  const root = path.resolve('/work/lib');
  it('names a SKILL.md as FsWorkspace.list does', () => {
    assert.deepEqual(skillRefFor(root, path.join(root, 'tools', 'pdf', 'SKILL.md')), { id: 'tools/pdf', path: 'tools/pdf/SKILL.md', folderName: 'pdf' });
    assert.deepEqual(skillRefFor(root, path.join(root, 'SKILL.md')), { id: '.', path: 'SKILL.md', folderName: 'lib' });
  });

  it('refuses other files, files outside the root, and skipped or excluded folders', () => {
    assert.equal(skillRefFor(root, path.join(root, 'pdf', 'README.md')), undefined);
    assert.equal(skillRefFor(root, path.resolve('/work/other/pdf/SKILL.md')), undefined);
    assert.equal(skillRefFor(root, path.join(root, 'node_modules', 'x', 'SKILL.md')), undefined);
    assert.equal(skillRefFor(root, path.join(root, 'drafts', 'x', 'SKILL.md'), ['drafts']), undefined);
  });
});
