import { strict as assert } from 'node:assert';
import { MAX_REQUEST_CHARS } from '../../src/core/route/request';
import { topN } from '../../src/core/route/retrieve';
import { createSkillService } from '../../src/core/route/skillService';
import { prng } from '../../src/core/route/rerankTraining';
import { CancelledError, type CancelToken } from '../../src/core/types';
import type { VectorCache } from '../../src/core/workspace';
import { FakeEmbedder, GatedEmbedder, MemoryWorkspace, skill } from '../helpers/fakes';

function library() {
  return new Map<string, string | Uint8Array>([
    ['pdf-extract/SKILL.md', skill('pdf-extract', 'Extract text and tables from PDF files, including scanned invoices.', '# Usage\nRun OCR on scanned pages.')],
    ['docx-edit/SKILL.md', skill('docx-edit', 'Create and edit Word documents with tracked changes.')],
    ['k8s-deploy/SKILL.md', skill('k8s-deploy', 'Deploy services to a Kubernetes cluster with Helm charts.', '## Rollback\nUse helm rollback.')],
    ['broken/SKILL.md', '---\nname: [\n---\nbody'],
    ['binary/SKILL.md', new Uint8Array([0x2d, 0x2d, 0x2d, 0, 1, 2])],
  ]);
}

class MemoryCache implements VectorCache {
  map = new Map<string, Float32Array[]>();
  flushes = 0;
  get(k: string) { return this.map.get(k); }
  set(k: string, v: Float32Array[]) { this.map.set(k, v); }
  async flush(keep: Set<string>) {
    this.flushes++;
    for (const k of [...this.map.keys()]) if (!keep.has(k)) this.map.delete(k);
  }
}

describe('createSkillService', () => {
  it('routes on words when the encoder fails for a request, says so once, and still honours cancellation', async () => {
    class DyingEmbedder extends FakeEmbedder {
      dead = false;
      override async embed(texts: string[], kind: 'query' | 'passage', token?: CancelToken): Promise<Float32Array[]> {
        if (this.dead) throw new Error('fake@1: the embedding worker exited (code 1)');
        return super.embed(texts, kind, token);
      }
    }
    const embedder = new DyingEmbedder();
    const warnings: string[] = [];
    const logger = { debug: () => undefined, info: () => undefined, warn: (m: string) => void warnings.push(m), error: () => undefined };
    const files = new Map([
      ['a/pdf/SKILL.md', skill('pdf', 'Extract text and tables from PDF files.')],
      ['a/k8s/SKILL.md', skill('k8s', 'Deploy services to a Kubernetes cluster with Helm.')],
    ]);
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder, logger });
    await svc.index();
    const healthy = await svc.route('extract the tables from this PDF');
    assert.deepEqual(healthy.dense, { model: 'fake@1' });
    assert.ok(healthy.candidates[0].scores.dense !== null);

    embedder.dead = true;
    // Another request (a request's vector is remembered once made).
    const r = await svc.route('extract the tables from this PDF file');
    assert.equal(r.candidates[0].skillId, 'a/pdf');
    assert.equal(r.candidates[0].scores.dense, null);
    assert.ok('disabled' in r.dense && /embedding worker exited.*words only/.test(r.dense.disabled), JSON.stringify(r.dense));
    await svc.route('deploy to kubernetes');
    assert.equal(warnings.filter((w) => w.includes('embedding worker exited')).length, 1, warnings.join('\n'));
    await assert.rejects(svc.route('deploy to kubernetes', { token: { isCancellationRequested: true } }), CancelledError);
  });

  it('warmUp loads the segmenter and dictionary only for a library with Chinese skills', async () => {
    const calls = { seg: 0, dict: 0 };
    const init = (files: Map<string, string>) => ({
      root: '/lib',
      workspace: new MemoryWorkspace(files),
      embedder: null,
      segmenter: (run: string) => {
        calls.seg++;
        return [run];
      },
      dictionary: {
        maxWordLength: 4,
        glosses: () => {
          calls.dict++;
          return undefined;
        },
      },
    });
    const english = createSkillService(init(new Map([['a/pdf/SKILL.md', skill('pdf', 'Extract text from PDF files.')]])));
    await english.index();
    calls.seg = calls.dict = 0;
    assert.ok(english.warmUp, 'the engine can warm up');
    english.warmUp();
    assert.deepEqual(calls, { seg: 0, dict: 0 });

    const mixed = createSkillService(init(new Map([['a/pdf/SKILL.md', skill('pdf', 'Extract text from PDF files.')], ['b/zh/SKILL.md', skill('zh', '从 PDF 文件中提取文字。')]])));
    await mixed.index();
    calls.seg = calls.dict = 0;
    assert.ok(mixed.warmUp);
    mixed.warmUp();
    assert.ok(calls.seg > 0, 'segmenter used');
    assert.ok(calls.dict > 0, 'dictionary looked up');
  });

  it('indexes, keeps bad files out with a reason, and routes with stage scores', async () => {
    const embedder = new FakeEmbedder();
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder });
    const stats = await svc.index();
    assert.equal(stats.skills, 4, 'the malformed skill is still indexed');
    assert.equal(stats.failed, 1);
    assert.match(svc.failures()[0].message, /binary/);
    const broken = svc.skills().find((s) => s.id === 'broken')!;
    assert.equal(broken.findings[0].code, 'frontmatter.invalid-yaml');

    const r = await svc.route('pull the tables out of a scanned PDF invoice', { k: 3 });
    assert.equal(r.candidates[0].skillId, 'pdf-extract');
    const c = r.candidates[0];
    assert.ok(c.scores.dense !== null && c.scores.rerank !== null);
    assert.ok(c.scores.relevance !== undefined && c.scores.relevance > 0 && c.scores.relevance < 1);
    assert.equal(c.scores.final, c.scores.relevance, 'the score shown is the calibrated relevance');
    const finals = r.candidates.map((x) => x.scores.final);
    assert.deepEqual(finals, [...finals].sort((a, b) => b - a), 'and the ranking follows it');
    assert.ok(r.match, 'the result says how well the library answers');
    assert.ok(c.passage && c.passage.matchedTerms.length > 0);
    assert.deepEqual(r.candidates.map((x) => x.rank), r.candidates.map((_, i) => i + 1));
    assert.deepEqual(r.dense, { model: 'fake@1' });
  });

  it('lists the skills and ranks by words once their words are in, while the index still waits for their vectors (onWords, wordsOnly)', async () => {
    const embedder = new GatedEmbedder();
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder });
    let resolveWords!: () => void;
    const words = new Promise<void>((resolve) => (resolveWords = resolve));
    let indexed = false;
    const indexing = svc.index({ onWords: resolveWords }).then((stats) => ((indexed = true), stats));
    await words;
    assert.equal(indexed, false, 'the index is still embedding');
    assert.ok(embedder.waiting > 0, 'the encoder holds a batch');
    assert.deepEqual(svc.skills().map((d) => d.id), ['broken', 'docx-edit', 'k8s-deploy', 'pdf-extract']);
    const request = 'extract the tables from a scanned PDF invoice';
    const early = await svc.route(request, { wordsOnly: true, k: 3 });
    assert.deepEqual(early.dense, { disabled: 'the skill vectors are still being built' });
    assert.equal(early.candidates[0].skillId, 'pdf-extract');
    assert.ok(early.candidates.every((c) => c.scores.dense === null));
    // The same ranking as the library opened without a model.
    const lexical = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder: null });
    await lexical.index();
    const plain = await lexical.route(request, { k: 3 });
    assert.deepEqual(early.candidates.map((c) => [c.skillId, c.scores.final]), plain.candidates.map((c) => [c.skillId, c.scores.final]));
    assert.equal(early.match, plain.match);
    embedder.open();
    await indexing;
    const full = await svc.route(request, { k: 3 });
    assert.deepEqual(full.dense, { model: 'fake@1' });
    assert.ok(full.candidates[0].scores.dense !== null);
  });

  it('routes by words alone without an embedder and says why', async () => {
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder: null, embedderError: 'model missing' });
    const stats = await svc.index();
    assert.equal(stats.denseDisabled, 'model missing');
    const r = await svc.route('helm rollback on kubernetes', { rerank: false });
    assert.equal(r.candidates[0].skillId, 'k8s-deploy');
    assert.equal(r.candidates[0].scores.dense, null);
    assert.equal(r.candidates[0].scores.rerank, null);
    assert.deepEqual(r.dense, { disabled: 'model missing' });
  });

  it('re-embeds only changed skills and reuses the cache across instances', async () => {
    const files = library();
    const cache = new MemoryCache();
    const e1 = new FakeEmbedder();
    await createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder: e1, cache }).index();
    assert.ok(e1.texts > 0);
    const e2 = new FakeEmbedder();
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder: e2, cache });
    const warm = await svc.index();
    assert.equal(e2.texts, 0, 'a warm open embeds nothing');
    assert.equal(warm.cached, 4);
    files.set('docx-edit/SKILL.md', skill('docx-edit', 'Edit Word documents and convert them to PDF.'));
    files.delete('k8s-deploy/SKILL.md');
    const again = await svc.index();
    assert.equal(again.embedded, 1);
    assert.equal(again.skills, 3);
    assert.equal(cache.map.size, 3, 'stale cache entries are dropped');
    const r = await svc.route('kubernetes helm', { k: 5 });
    assert.ok(!r.candidates.some((c) => c.skillId === 'k8s-deploy'));
  });

  it('honours cancellation', async () => {
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder: new FakeEmbedder() });
    await assert.rejects(svc.index({ token: { isCancellationRequested: true } }), /cancelled/);
  });
});

describe('one ranking per request', () => {
  it('ranks the same whatever k asks for: the head is reranked at a fixed depth, the rest keeps the fused order', async () => {
    // 40 skills the request reaches by words, and a reranker that turns the head around, so that a
    // deeper head (the old depth = max(rerankDepth, k)) would change the leading places.
    const files = new Map<string, string>();
    for (let i = 0; i < 40; i++) files.set(`s${String(i).padStart(2, '0')}/SKILL.md`, skill(`s${i}`, `Parse invoices ${'and receipts '.repeat(i % 7)}from PDF files, batch ${i}.`));
    const reversing = { id: 'reverse@test', async score({ head }: { head: readonly unknown[] }) { return head.map((_, i) => i); } };
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), reranker: reversing, settings: { rerankDepth: 8 } });
    await svc.index();
    const shown = await svc.route('parse PDF invoices', { k: 5, passages: false });
    const deep = await svc.route('parse PDF invoices', { k: 30, passages: false });
    assert.equal(deep.candidates.length, 30);
    assert.deepEqual(deep.candidates.slice(0, 5).map((c) => c.skillId), shown.candidates.map((c) => c.skillId));
    assert.ok(deep.candidates.slice(0, 8).every((c) => c.scores.rerank !== null), 'the head is reranked');
    assert.ok(deep.candidates.slice(8).every((c) => c.scores.rerank === null), 'the rest is not');
    const tail = deep.candidates.slice(8).map((c) => c.scores.fused);
    assert.deepEqual(tail, [...tail].sort((a, b) => b - a), 'past the head, the fused order');
    const noRerank = await svc.route('parse PDF invoices', { k: 30, passages: false, rerank: false });
    assert.deepEqual(new Set(noRerank.candidates.slice(0, 8).map((c) => c.skillId)), new Set(deep.candidates.slice(0, 8).map((c) => c.skillId)), 'the reranked head is the fused head, reordered');
  });
});

describe('one part of the first stage alone (eval --only)', () => {
  it('ranks by words or by the encoder alone, with no rerank', async () => {
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder: new FakeEmbedder() });
    await svc.index();
    const words = await svc.route('pull the tables out of a scanned PDF invoice', { k: 3, passages: false, only: 'words' });
    assert.ok(words.candidates.length && words.candidates.every((c) => c.scores.dense === null && c.scores.rerank === null && c.scores.lexicalWeight === 1));
    assert.equal(words.candidates[0].skillId, 'pdf-extract');
    const dense = await svc.route('pull the tables out of a scanned PDF invoice', { k: 3, passages: false, only: 'dense' });
    assert.ok(dense.candidates.every((c) => c.scores.dense !== null && c.scores.rerank === null && c.scores.lexical === 0 && c.scores.lexicalWeight === 0));
    const cos = dense.candidates.map((c) => c.scores.dense!);
    assert.deepEqual(cos, [...cos].sort((a, b) => b - a), 'the encoder alone decides the order');
    assert.equal(dense.set, undefined);
  });
});

describe('long requests', () => {
  it('routes a pasted 2 MB log by its first 16 KB and says so', async () => {
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder: new FakeEmbedder() });
    await svc.index();
    const log = `extract the tables from this scanned PDF invoice\n${'2024-05-01 12:00:03 ERROR pool timeout at worker 17\n'.repeat(40_000)}`;
    assert.ok(log.length > 2_000_000);
    const r = await svc.route(log, { k: 3, passages: false });
    assert.equal(r.candidates[0].skillId, 'pdf-extract', 'the request up front still routes');
    assert.ok(r.readChars !== undefined && r.readChars <= MAX_REQUEST_CHARS, `read ${r.readChars}`);
    assert.equal(r.query, log, 'the result keeps the request as sent');
    const short = await svc.route('extract pdf tables', { k: 1, passages: false });
    assert.equal(short.readChars, undefined);
  });
});

describe('topN', () => {
  it('keeps the n best entries, best first, ties by key, as a full sort would', () => {
    const rand = prng(7);
    const sorted = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n);
    for (let trial = 0; trial < 200; trial++) {
      const m = new Map<string, number>();
      const size = Math.floor(rand() * 300);
      // Few distinct scores, so that many entries tie and the key decides.
      for (let i = 0; i < size; i++) m.set(`s${Math.floor(rand() * 1e6)}`, Math.floor(rand() * 12) / 4);
      for (const n of [0, 1, 5, 40, 500]) assert.deepEqual([...topN(m, n)], sorted(m, n), `trial ${trial}, n ${n}`);
    }
  });
});
