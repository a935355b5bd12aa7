import { strict as assert } from 'node:assert';
import { createSkillService } from '../../src/core/route/skillService';
import type { BilingualDictionary } from '../../src/core/text/translator';
import { FakeEmbedder, MemoryWorkspace, skill } from '../helpers/fakes';

const DICT: BilingualDictionary = {
  glosses: (w) => ({ 幻灯片: ['slide (photography)', 'slide show'], 演讲: ['lecture', 'speech'], 发票: ['invoice'] } as Record<string, string[]>)[w],
  maxWordLength: 3,
};

function library() {
  return new Map<string, string>([
    ['pdf-invoice/SKILL.md', skill('pdf-invoice', 'Extract line items and totals from PDF invoices into a spreadsheet.')],
    ['slides/SKILL.md', skill('slides', 'Build a slide deck for a talk from an outline.')],
    ['k8s/SKILL.md', skill('k8s', 'Roll out services to a Kubernetes cluster.')],
    ['zh-weekly/SKILL.md', skill('zh-weekly', '撰写周报：汇总本周工作进展和下周计划。')],
    ['zh-logs/SKILL.md', skill('zh-logs', '分析服务器日志，定位报错原因并给出修复建议。')],
  ]);
}

describe('routing across Chinese and English', () => {
  for (const embedder of [null, new FakeEmbedder()]) {
    const label = embedder ? 'with an embedder' : 'lexical only';

    it(`routes a Chinese request to an English skill through the dictionary (${label})`, async () => {
      const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder, dictionary: DICT, settings: { bridgeWeight: 0.8 } });
      await svc.index();
      const r = await svc.route('帮我把这些PDF发票的金额提取到表格里', { k: 3 });
      assert.equal(r.candidates[0].skillId, 'pdf-invoice');
      assert.match(r.readAs ?? '', /PDF invoice/, 'the result says how the bridge read the request');
      const bare = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder, settings: { bridgeWeight: 0.8 } });
      await bare.index();
      const without = await bare.route('给我的演讲做一套幻灯片', { k: 3 });
      const withBridge = await svc.route('给我的演讲做一套幻灯片', { k: 3 });
      assert.equal(withBridge.candidates[0].skillId, 'slides');
      assert.notEqual(without.candidates[0]?.skillId, 'slides', 'nothing else carries the request across');
    });

    it(`routes an English request to a Chinese skill through its bridge field (${label})`, async () => {
      const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder, dictionary: DICT });
      await svc.index();
      const r = await svc.route('find out why the server logs show this error and suggest a fix', { k: 3 });
      assert.equal(r.candidates[0].skillId, 'zh-logs');
      assert.equal(r.readAs, undefined, 'an English request is read as it is');
      const weekly = await svc.route('write my weekly report: progress this week and the plan for next week', { k: 3 });
      assert.equal(weekly.candidates[0].skillId, 'zh-weekly');
    });
  }

  it('explains a match across the languages with the words that matched, not whole clauses', async () => {
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder: null, dictionary: DICT });
    await svc.index();
    const words = async (query: string, id: string) => {
      const c = (await svc.route(query, { k: 5 })).candidates.find((x) => x.skillId === id);
      assert.ok(c?.passage, `${id} is routed with a passage`);
      return c.passage.matchedTerms;
    };
    // A Chinese request and a Chinese skill: a run of Chinese is one "word" to a space-based
    // pattern; only its matching pieces may be marked, never the clause around them.
    const zh = await words('帮我看看服务器日志', 'zh-logs');
    assert.ok(zh.includes('日志'), `日志 in ${zh.join(' ')}`);
    assert.ok(zh.every((w) => w.length <= 4 && !w.includes('修复')), `pieces only: ${zh.join(' ')}`);
    // A Chinese request and an English skill: the bridge's senses (发票 -> invoice) explain it.
    const en = await words('帮我把这些PDF发票的金额提取到表格里', 'pdf-invoice');
    assert.ok(en.includes('invoices') && en.includes('PDF'), `invoices, PDF in ${en.join(' ')}`);
    // An English request and a Chinese skill: the Chinese words whose senses it names.
    const back = await words('find out why the server logs show this error', 'zh-logs');
    assert.ok(back.includes('日志'), `日志 in ${back.join(' ')}`);
    assert.ok(!back.includes('建议'), `only words the request names: ${back.join(' ')}`);
  });

  it('embeds a bridged-English row for Chinese skills when the bridge is on', async () => {
    const embedder = new FakeEmbedder();
    const plain = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder });
    await plain.index();
    const plainTexts = embedder.texts;
    assert.equal(plainTexts, 5, 'one row per skill without bodies');
    const bridged = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library()), embedder, dictionary: DICT });
    await bridged.index();
    assert.equal(embedder.texts - plainTexts, 7, 'Chinese skills get a bridged-English row');
  });
});
