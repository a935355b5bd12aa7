import { strict as assert } from 'node:assert';
import { SkillProfiles } from '../../src/core/analysis/conflicts';
import { checkModel, HeuristicReranker, LearnedReranker, modelScores, shippedReranker, softmax, type RerankInput } from '../../src/core/route/rerank';
import { FieldCache, listFeatures, POINT, POINT_FEATURES, type ListFeatures, type RerankRequest } from '../../src/core/route/rerankFeatures';
import { membersFirst, selectSet } from '../../src/core/route/setSelection';
import { createSkillService } from '../../src/core/route/skillService';
import type { SkillDoc } from '../../src/core/types';
import type { CrossEncoder } from '../../src/core/types';
import { analyse } from '../../src/core/text/analyse';
import { splitPassages } from '../../src/core/text/passages';
import { FakeEmbedder, MemoryWorkspace, skill } from '../helpers/fakes';

const library = () => new Map<string, string | Uint8Array>([
  ['a/pdf-extract/SKILL.md', skill('pdf-extract', 'Extract text and tables from PDF files and scanned invoices.', '## OCR\nRun OCR on scanned pages.')],
  ['b/pdf-extract/SKILL.md', skill('pdf-extract', 'Extract text and tables from PDF files and scanned invoices, with OCR.')],
  ['a/spreadsheet-report/SKILL.md', skill('spreadsheet-report', 'Build an Excel spreadsheet report with charts from extracted tables.')],
  ['a/rust-http/SKILL.md', skill('rust-http', 'Write an HTTP client in Rust with reqwest and tokio: retries, timeouts and JSON decoding.')],
  ['a/go-http/SKILL.md', skill('go-http', 'Write an HTTP client in Go with net/http: retries, timeouts and JSON decoding.')],
  ['a/k8s-deploy/SKILL.md', skill('k8s-deploy', 'Deploy services to a Kubernetes cluster with Helm charts.')],
]);

describe('learned reranker', () => {
  it('ships a model whose features match the code, with weights for both regimes', () => {
    assert.equal(checkModel(shippedReranker()), shippedReranker());
    assert.deepEqual(shippedReranker().pointFeatures, [...POINT_FEATURES]);
    assert.throws(() => checkModel({ ...shippedReranker(), pointFeatures: ['fused'] }), /do not match/);
    assert.ok(shippedReranker().regimes.dense.pass2.some((w) => w !== 0) && shippedReranker().regimes.lexical.pass2.some((w) => w !== 0));
  });

  it('names a retrained model apart from the shipped one (the pair scan keys its cache on the name)', () => {
    const shipped = shippedReranker();
    const retrained = { ...shipped, regimes: { ...shipped.regimes, dense: { ...shipped.regimes.dense, pass2: shipped.regimes.dense.pass2.map((w, i) => (i === 0 ? w + 0.5 : w)) } } };
    const recalibrated = { ...shipped, relevance: shipped.relevance && { ...shipped.relevance, floor: shipped.relevance.floor / 2 } };
    const ids = [new LearnedReranker(shipped).id, new LearnedReranker(retrained).id, new LearnedReranker(recalibrated).id];
    assert.equal(new Set(ids).size, 3, ids.join(' '));
    assert.equal(new LearnedReranker(shipped).id, new LearnedReranker().id);
  });

  for (const embedder of [new FakeEmbedder(), null]) {
    it(`routes with the learned reranker and reports the set (${embedder ? 'dense' : 'lexical'})`, async () => {
      const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder });
      await svc.index();
      const r = await svc.route('extract the tables from a scanned PDF invoice and build an Excel spreadsheet report with charts', { k: 6 });
      assert.equal(r.reranker, new LearnedReranker().id);
      assert.ok(r.reranker?.startsWith(`${shippedReranker().id}/`));
      const ids = r.candidates.map((c) => c.skillId);
      const lead = ids.slice(0, 2);
      const kept = lead.find((id) => id.endsWith('/pdf-extract'));
      assert.ok(lead.includes('a/spreadsheet-report') && kept, `the two skills the request needs lead: ${ids.join(' ')}`);
      const probabilities = r.candidates.map((c) => c.scores.rerank!);
      assert.ok(probabilities.every((p) => p > 0 && p < 1));
      assert.ok(r.set, 'a set is reported');
      // One order: no result below one with a lower final score; the set is marked over it.
      const finals = r.candidates.map((c) => c.scores.final);
      assert.deepEqual(finals, [...finals].sort((a, b) => b - a));
      assert.deepEqual(r.set.ids, r.candidates.filter((c) => c.inSet).map((c) => c.skillId));
      assert.equal(r.set.ids[0], ids[0]);
      for (const x of r.set.rejected) assert.ok(r.set.ids.includes(x.partnerId), `set aside for a member: ${JSON.stringify(x)}`);

      // A request for the copied job: the copy stays at its place, right behind, set aside for the kept one.
      const one = await svc.route('extract the text and tables from scanned PDF invoices', { k: 6 });
      const [first, second] = one.candidates;
      assert.ok(first.skillId.endsWith('/pdf-extract') && second.skillId.endsWith('/pdf-extract'), one.candidates.map((c) => c.skillId).join(' '));
      assert.equal(first.inSet, true);
      assert.deepEqual(second.setAsideFor, { id: first.skillId, reason: 'function_redundant', evidence: 'copies of pdf-extract' });
      assert.deepEqual(one.set?.rejected, [{ id: second.skillId, partnerId: first.skillId, reason: 'function_redundant', evidence: 'copies of pdf-extract' }]);
    });
  }

  it('keeps the first-stage order and reports no set with rerank off', async () => {
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder: new FakeEmbedder() });
    await svc.index();
    const r = await svc.route('http client with retries', { k: 6, rerank: false });
    assert.equal(r.set, undefined);
    assert.equal(r.reranker, undefined);
    const fused = r.candidates.map((c) => c.scores.fused);
    assert.deepEqual(fused, [...fused].sort((a, b) => b - a));
    const selected = await svc.route('http client with retries', { k: 6, rerank: false, select: true });
    assert.ok(selected.set, 'set selection can run on the first-stage order');
  });

  it('puts a skill for another stack than the top one behind the leading places, unless the request spans both', async () => {
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder: new FakeEmbedder() });
    await svc.index();
    const rust = await svc.route('write an HTTP client in Rust with reqwest: retries, timeouts and JSON decoding', { k: 6 });
    assert.equal(rust.candidates[0].skillId, 'a/rust-http');
    assert.ok(rust.set!.rejected.some((x) => x.id === 'a/go-http' && x.reason === 'language_ecosystem_mismatch'));
    const port = await svc.route('port our HTTP client from Go to Rust: retries, timeouts and JSON decoding', { k: 6 });
    assert.ok(!port.set!.rejected.some((x) => x.id === 'a/go-http' || x.id === 'a/rust-http'), JSON.stringify(port.set));
  });

  it('plugs a cross-encoder into the same stage, with set selection after it', async () => {
    const encoder: CrossEncoder = {
      id: 'fake-cross@1',
      // Prefers passages that mention Kubernetes, whatever the request.
      async score(_query, passages) {
        return passages.map((p) => (/kubernetes/i.test(p) ? 4 : /pdf/i.test(p) ? 1 : -2));
      },
    };
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder: new FakeEmbedder(), crossEncoder: encoder });
    await svc.index();
    const r = await svc.route('extract tables from a PDF and deploy with helm on kubernetes', { k: 6 });
    assert.equal(r.reranker, 'fake-cross@1');
    assert.equal(r.candidates[0].skillId, 'a/k8s-deploy');
    assert.ok(Math.abs(r.candidates[0].scores.rerank! - 1 / (1 + Math.exp(-4))) < 1e-9);
    const pdf = r.candidates.filter((c) => c.skillId.endsWith('/pdf-extract')).map((c) => c.rank);
    assert.equal(pdf.length, 2);
    assert.ok(r.set!.rejected.some((x) => x.reason === 'function_redundant'), 'set selection still separates the two copies');
  });
});

describe('features and set selection', () => {
  const docs: SkillDoc[] = [...library()].map(([path, text]) => {
    const id = path.slice(0, -'/SKILL.md'.length);
    const m = /name: (.*)\ndescription: (.*)\n---\n([\s\S]*)$/.exec(text as string)!;
    return { id, path, name: m[1], description: JSON.parse(m[2]), body: m[3], frontMatter: {}, keyRanges: {}, bodyStartLine: 4, lang: 'en', hash: id, findings: [] };
  });
  const byId = new Map(docs.map((d) => [d.id, d]));
  const request = (query: string, ids: string[]): RerankRequest => ({
    query,
    terms: analyse(query),
    head: ids.map((id, i) => ({ id, fused: 1 - i * 0.1, lexical: 1 - i * 0.1, dense: null })),
    profiles: new SkillProfiles(docs, (t) => analyse(t)),
    fields: new FieldCache((t) => analyse(t)),
    doc: (id) => byId.get(id)!,
    passages: (id) => splitPassages(byId.get(id)!.body),
  });

  /** What the rerank stage reads for a request of `request(...)`. */
  const rerankInput = (req: RerankRequest): RerankInput => ({
    request: { query: req.query, terms: [...req.terms], weights: new Map(), translated: new Set(), readAs: null, asked: req.query, declined: [] },
    head: req.head.map((c) => ({ ...c, denseNorm: 0, lexicalWeight: 1 })),
    features: listFeatures(req),
  });

  it('measures coverage of the request and the name mention', () => {
    const f = listFeatures(request('pdf extract: OCR the scanned pages', ['a/pdf-extract', 'a/k8s-deploy']));
    assert.equal(f.point[0][POINT.nameMention], 1);
    assert.equal(f.point[1][POINT.nameMention], 0);
    assert.ok(f.point[0][POINT.requestInHeadings] > 0, 'the OCR heading covers part of the request');
    assert.equal(f.point[1][POINT.requestInNameDescription], 0);
    assert.equal(f.pairs[0][1].reason, 'domain_mismatch');
  });

  it('keeps the scores\' order, and sizes the set by share and novelty over the members', () => {
    const lf: ListFeatures = listFeatures(request('extract pdf tables and build an excel spreadsheet report', ['a/pdf-extract', 'b/pdf-extract', 'a/spreadsheet-report', 'a/k8s-deploy']));
    const sel = selectSet(lf, [0.5, 0.3, 0.15, 0.05], { maxSize: 3, minShare: 0.2, minNovel: 0.05 });
    assert.deepEqual(sel.order.map((i) => lf.ids[i]), ['a/pdf-extract', 'b/pdf-extract', 'a/spreadsheet-report', 'a/k8s-deploy'], 'the copy keeps its place');
    assert.deepEqual(sel.members.map((i) => lf.ids[i]), ['a/pdf-extract', 'a/spreadsheet-report']);
    assert.equal(sel.size, 2, 'k8s-deploy has too small a share to join');
    assert.deepEqual(sel.rejected.map((r) => [lf.ids[r.index], lf.ids[r.partner], r.reason]), [['b/pdf-extract', 'a/pdf-extract', 'function_redundant']]);
    assert.deepEqual(membersFirst(sel.order, (i) => sel.members.includes(i)).map((i) => lf.ids[i]), ['a/pdf-extract', 'a/spreadsheet-report', 'b/pdf-extract', 'a/k8s-deploy']);
    const aside = (i: number) => sel.rejected.some((r) => r.index === i);
    assert.deepEqual(membersFirst(sel.order, (i) => sel.members.includes(i), aside).map((i) => lf.ids[i]), ['a/pdf-extract', 'a/spreadsheet-report', 'a/k8s-deploy', 'b/pdf-extract'], 'the set-aside copy last in the answer');
    const strict = selectSet(lf, [0.5, 0.3, 0.15, 0.05], { maxSize: 3, minShare: 0.5, minNovel: 0.05 });
    assert.equal(strict.size, 1);
  });

  it('sets aside a copy of a member below a full lead too, at its place', () => {
    const lf: ListFeatures = listFeatures(request('extract pdf tables and build an excel spreadsheet report', ['a/pdf-extract', 'a/spreadsheet-report', 'b/pdf-extract', 'a/k8s-deploy']));
    const sel = selectSet(lf, [0.5, 0.3, 0.15, 0.05], { maxSize: 2, minShare: 0.2, minNovel: 0.05 });
    assert.deepEqual(sel.members.map((i) => lf.ids[i]), ['a/pdf-extract', 'a/spreadsheet-report']);
    assert.deepEqual(sel.rejected.map((r) => [lf.ids[r.index], lf.ids[r.partner], r.reason]), [['b/pdf-extract', 'a/pdf-extract', 'function_redundant']]);
    assert.deepEqual(sel.order.map((i) => lf.ids[i]), ['a/pdf-extract', 'a/spreadsheet-report', 'b/pdf-extract', 'a/k8s-deploy'], 'the ranking does not move');
  });

  it('the learned model is deterministic and its probabilities sum to one', async () => {
    const lf = listFeatures(request('extract pdf tables', ['a/pdf-extract', 'b/pdf-extract', 'a/spreadsheet-report']));
    const a = modelScores(shippedReranker(), lf, false);
    const b = modelScores(shippedReranker(), lf, false);
    assert.deepEqual(a, b);
    const p = await new LearnedReranker().score(rerankInput(request('extract pdf tables', ['a/pdf-extract', 'b/pdf-extract', 'a/spreadsheet-report'])));
    assert.ok(Math.abs(p.reduce((x, y) => x + y, 0) - 1) < 1e-9);
    assert.deepEqual(softmax([0, 0]), [0.5, 0.5]);
    // k8s-deploy first by the first stage; pdf-extract is named by the request.
    const h = await new HeuristicReranker().score(rerankInput(request('pdf extract', ['a/k8s-deploy', 'a/pdf-extract'])));
    assert.ok(h[1] > h[0], `the heuristic rewards the name mention: ${h}`);
  });
});
