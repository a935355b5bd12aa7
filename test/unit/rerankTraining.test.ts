import { strict as assert } from 'node:assert';
import { judgePair, SkillProfiles } from '../../src/core/analysis/conflicts';
import { modelScores, orderBy, shippedReranker, type RerankerModel } from '../../src/core/route/rerank';
import { isHardConflict } from '../../src/core/route/rerankFeatures';
import { fitSetThresholds, requestFeatures, gradeList, prng, pseudoRequests, trainListNet, trainRegime, withoutCandidates, type TrainingList } from '../../src/core/route/rerankTraining';
import { createSkillService } from '../../src/core/route/skillService';
import { analyse } from '../../src/core/text/analyse';
import { FakeEmbedder, MemoryWorkspace, skill } from '../helpers/fakes';

const library = () => new Map<string, string | Uint8Array>([
  ['a/pdf-extract/SKILL.md', skill('pdf-extract', 'Extract text and tables from PDF files and scanned invoices. Use when the user has a PDF to read.', '## Scanned pages\nRun OCR first.\n## Tables\nKeep table structure.')],
  ['b/pdf-extract/SKILL.md', skill('pdf-extract', 'Extract text and tables from PDF files and scanned invoices.')],
  ['a/excel-report/SKILL.md', skill('excel-report', 'Build Excel spreadsheet reports with pivot tables and charts from tabular data.', '## Charts\nPick a chart per question.')],
  ['a/csv-clean/SKILL.md', skill('csv-clean', 'Clean CSV tables: fix headers, types, duplicates and missing values before analysis.')],
  ['a/rust-http/SKILL.md', skill('rust-http', 'Write HTTP clients in Rust with reqwest and tokio: retries, timeouts, JSON decoding.')],
  ['a/go-http/SKILL.md', skill('go-http', 'Write HTTP clients in Go with net/http: retries, timeouts, JSON decoding.')],
  ['a/k8s-deploy/SKILL.md', skill('k8s-deploy', 'Deploy services to a Kubernetes cluster with Helm charts and rollbacks.', '## Rollback\nUse helm rollback.')],
  ['a/docker-build/SKILL.md', skill('docker-build', 'Write Dockerfiles and build small, cached container images for services.')],
  ['a/sql-tune/SKILL.md', skill('sql-tune', 'Tune slow SQL queries with indexes and EXPLAIN plans in PostgreSQL.')],
  ['a/release-notes/SKILL.md', skill('release-notes', 'Write release notes and changelogs from merged pull requests.')],
  ['a/pitch-deck/SKILL.md', skill('pitch-deck', 'Draft an investor pitch deck: problem, market, traction and the ask.')],
  ['a/sourdough/SKILL.md', skill('sourdough', 'Plan a sourdough bake: levain, hydration, proofing times.')],
]);

/** Routes pseudo-requests through a fake-embedder service's pipeline, taking the rerank stage's features. */
async function record(seed: number): Promise<TrainingList[]> {
  const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder: new FakeEmbedder() });
  await svc.index();
  const docs = svc.skills();
  const requests = pseudoRequests(docs, new SkillProfiles(docs, (t) => analyse(t)), { seed, singleRate: 1, pairs: 6, triples: 2 });
  const lists: TrainingList[] = [];
  for (const r of requests) {
    const features = await requestFeatures(svc.pipeline, r.query);
    if (!features) continue;
    const grades = gradeList(features.ids, r.targets, (g, c) => isHardConflict(svc.judgeSet([g, c]).pairs[0]?.reason ?? null));
    lists.push({ features, grades, size: r.targets.length });
  }
  return lists;
}

describe('reranker training', () => {
  it('the PRNG is seeded and uniform enough', () => {
    const a = prng(42);
    const b = prng(42);
    const xs = Array.from({ length: 1000 }, () => a());
    assert.deepEqual(xs.slice(0, 5), Array.from({ length: 5 }, () => b()));
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    assert.ok(mean > 0.45 && mean < 0.55);
    assert.notDeepEqual(xs.slice(0, 5), Array.from({ length: 5 }, prng(43)));
  });

  it('writes pseudo-requests from skill text, and joins only compatible skills', async () => {
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder: null });
    await svc.index();
    const docs = svc.skills();
    const profiles = new SkillProfiles(docs, (t) => analyse(t));
    const requests = pseudoRequests(docs, profiles, { seed: 3, singleRate: 1, pairs: 8, triples: 2 });
    assert.deepEqual(requests, pseudoRequests(docs, profiles, { seed: 3, singleRate: 1, pairs: 8, triples: 2 }));
    assert.notDeepEqual(requests, pseudoRequests(docs, profiles, { seed: 4, singleRate: 1, pairs: 8, triples: 2 }));
    const singles = requests.filter((r) => r.targets.length === 1);
    assert.ok(singles.length >= 10);
    const multi = requests.filter((r) => r.targets.length > 1);
    assert.ok(multi.length > 0, 'some multi-skill requests');
    for (const r of multi) {
      for (let i = 0; i < r.targets.length; i++) {
        for (let j = i + 1; j < r.targets.length; j++) {
          const reason = judgePair(profiles.get(r.targets[i])!, profiles.get(r.targets[j])!).reason;
          assert.equal(reason, null, `${r.targets.join(' + ')}: ${reason}`);
        }
      }
    }
    const rustGo = requests.some((r) => r.targets.includes('a/rust-http') && r.targets.includes('a/go-http'));
    assert.ok(!rustGo, 'two stacks are never one request');
  });

  it('writes Chinese requests for the English original of a translated skill, the translation hidden', async () => {
    const files = library();
    files.set('zh/pdf-extract/SKILL.md', skill('pdf-extract', '从 PDF 文件和扫描发票中提取文字和表格，保留表格结构。用户有 PDF 要读取时使用。'));
    files.set('zh/sourdough-zh/SKILL.md', skill('sourdough-zh', '规划酸面包烘焙：酵头、含水量和发酵时间。'));
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder: new FakeEmbedder() });
    await svc.index();
    const docs = svc.skills();
    const profiles = new SkillProfiles(docs, (t) => analyse(t));
    const requests = pseudoRequests(docs, profiles, { seed: 3, singleRate: 0, pairs: 0, triples: 0, twinRate: 1 });
    // Only the skill with an English copy gets one (a folder name alone in Chinese has none).
    assert.equal(requests.length, 1);
    const [r] = requests;
    assert.match(r.query, /[\u4e00-\u9fff]/u);
    assert.deepEqual(r.targets.sort(), ['a/pdf-extract', 'b/pdf-extract']);
    assert.deepEqual(r.hidden, ['zh/pdf-extract']);
    assert.deepEqual(pseudoRequests(docs, profiles, { seed: 3, singleRate: 0, pairs: 0, triples: 0, twinRate: 0 }), []);

    const full = await requestFeatures(svc.pipeline, 'PDF 文件 提取 表格');
    assert.ok(full && full.ids.includes('zh/pdf-extract'));
    const kept = withoutCandidates(full, r.hidden!);
    const at = full.ids.indexOf('zh/pdf-extract');
    assert.equal(kept.ids.length, full.ids.length - 1);
    assert.ok(!kept.ids.includes('zh/pdf-extract'));
    for (const [i, id] of kept.ids.entries()) {
      const j = full.ids.indexOf(id);
      assert.equal(kept.point[i], full.point[j]);
      assert.equal(kept.covers[i], full.covers[j]);
      assert.equal(kept.facets[i], full.facets[j]);
      assert.equal(kept.pairs[i].length, kept.ids.length);
      for (const [k, other] of kept.ids.entries()) if (k !== i) assert.equal(kept.pairs[i][k], full.pairs[j][full.ids.indexOf(other)]);
    }
    assert.ok(at >= 0);
    assert.equal(withoutCandidates(full, ['nobody']), full);
  });

  it('writes Chinese requests for English skills through a reverse bridge, single and multi-skill', async () => {
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder: null });
    await svc.index();
    const docs = svc.skills();
    const profiles = new SkillProfiles(docs, (t) => analyse(t));
    const seen: string[] = [];
    const toChinese = (text: string) => {
      seen.push(text);
      return `中文请求${text.length}`;
    };
    const plain = pseudoRequests(docs, profiles, { seed: 5, singleRate: 0, pairs: 4, triples: 0 });
    assert.ok(plain.every((r) => !/[\u4e00-\u9fff]/u.test(r.query)));
    const requests = pseudoRequests(docs, profiles, { seed: 5, singleRate: 0, pairs: 4, triples: 0, toChinese, reverseRate: 1 });
    const singles = requests.filter((r) => r.targets.length === 1);
    assert.ok(singles.length >= docs.length - 2, `${singles.length} of ${docs.length} skills`);
    for (const r of singles) assert.match(r.query, /中文请求\d+/u);
    const multi = requests.filter((r) => r.targets.length > 1);
    assert.ok(multi.length > 0 && multi.every((r) => (r.query.match(/中文请求/gu) ?? []).length === r.targets.length));
    assert.ok(seen.length >= singles.length + 2 * multi.length);
    // A text the bridge cannot render gives no request rather than an English one.
    assert.deepEqual(pseudoRequests(docs, profiles, { seed: 5, singleRate: 0, pairs: 0, triples: 0, toChinese: () => null, reverseRate: 1 }), []);
  });

  it('grades required 3, SKIP partners 1, others 0', () => {
    assert.deepEqual(gradeList(['x', 'y', 'z'], ['y'], (g, c) => g === 'y' && c === 'z'), [0, 3, 1]);
  });

  it('ListNet moves the target to the top of a separable toy problem', () => {
    const x = [[[1, 0], [0, 1], [0, 0]], [[0, 0], [1, 0], [0, 1]]];
    const p = [[1, 0, 0], [0, 1, 0]];
    const { w, losses } = trainListNet({ x, p }, 2, { iterations: 200, learningRate: 0.1, l2: 0 });
    assert.ok(w[0] > w[1]);
    assert.ok(losses[losses.length - 1] < losses[0] / 4);
  });

  it('retraining on the same library reproduces the model, which beats the first-stage order on its lists', async () => {
    const lists = await record(11);
    assert.ok(lists.length >= 12);
    const a = trainRegime(lists, { iterations: 150, learningRate: 0.05, l2: 1e-3 });
    const b = trainRegime(await record(11), { iterations: 150, learningRate: 0.05, l2: 1e-3 });
    assert.deepEqual(a.weights, b.weights, 'bit-identical weights');
    assert.ok(a.losses.pass2[a.losses.pass2.length - 1] < a.losses.pass2[0]);
    const model: RerankerModel = { ...shippedReranker(), regimes: { dense: a.weights, lexical: a.weights } };
    const usable = lists.filter((l) => l.grades.includes(3));
    const hits = (score: (l: TrainingList) => number[]) => usable.filter((l) => l.grades[orderBy(score(l))[0]] === 3).length;
    const first = hits((l) => l.features.point.map((x) => x[0]));
    const learned = hits((l) => modelScores(model, l.features, true).pass2);
    assert.ok(learned >= first, `learned ${learned} vs first stage ${first} of ${usable.length}`);
    const set = fitSetThresholds(model, lists.map((list) => ({ list, dense: true })));
    assert.ok(set.accuracy > 0 && set.accuracy <= 1);
  });
});
