import { strict as assert } from 'node:assert';
import {
  DEFAULT_FIRST_STAGE,
  aggregateRows,
  bestRow,
  bridgeQuery,
  denseQueryText,
  embedTexts,
  expandByFeedback,
  fuse,
  isCodeLine,
  lexicalFields,
  normalise,
  queryTerms,
} from '../../src/core/route/firstStage';
import { LexicalIndex } from '../../src/core/index/lexicalIndex';
import { parseSkill } from '../../src/core/parse/skillDoc';
import { splitPassages } from '../../src/core/text/passages';
import { Translator } from '../../src/core/text/translator';
import { skill } from '../helpers/fakes';

const doc = (id: string, text: string) => parseSkill({ id, path: `${id}/SKILL.md`, folderName: id }, text, ['spec']);
/** The defaults with query sharpening off, so weights below are easy to state. */
const S = { ...DEFAULT_FIRST_STAGE, idfPower: 0 };


function index(...docs: ReturnType<typeof doc>[]): LexicalIndex {
  const ix = new LexicalIndex();
  for (const d of docs) ix.upsert(d.id, lexicalFields(d, {}));
  return ix;
}

describe('first stage', () => {
  describe('long, noisy requests', () => {
    it('tells pasted code, logs and stack traces from prose', () => {
      for (const line of ['  at com.acme.Checkout.run(Checkout.java:42)', 'Traceback (most recent call last):', 'const x = await fetch(url, { method: "POST" });', '2024-05-01 12:00:03 ERROR pool timeout', '$ kubectl get pods -n prod', '{"level":"warn","msg":"slow"}']) {
        assert.ok(isCodeLine(line), line);
      }
      for (const line of ['Walk me through a fast triage of the checkout service.', 'We use Node.js 20 and PostgreSQL 16 (managed).', '']) {
        assert.ok(!isCodeLine(line), line);
      }
    });

    it('weights terms seen only on code lines by codeLineWeight, prose terms by 1 + log(tf)', () => {
      const ix = index(doc('a', skill('a', 'deploy services')), doc('b', skill('b', 'pool timeout')));
      const q = 'Deploy the checkout service again, deploy it today.\n2024-05-01 12:00:03 ERROR pool timeout checkout';
      const w = queryTerms(q, ix, { ...S, codeLineWeight: 0.5 }, {});
      assert.equal(w.get('deploy'), 1 + Math.log(2));
      assert.equal(w.get('pool'), 0.5, 'log-only term');
      assert.equal(w.get('checkout'), 1, 'a term in prose keeps its prose weight');
    });

    it('sharpens by idf when idfPower > 0: rare terms gain on common ones', () => {
      const docs = Array.from({ length: 20 }, (_, i) => doc(`d${i}`, skill(`d${i}`, i === 0 ? 'report kafka' : 'report')));
      const ix = index(...docs);
      const flat = queryTerms('report kafka', ix, S, {});
      assert.equal(flat.get('report'), flat.get('kafka'));
      const sharp = queryTerms('report kafka', ix, { ...S, idfPower: 1 }, {});
      assert.ok(sharp.get('kafka')! > 3 * sharp.get('report')!);
    });

    it('feeds the encoder prose only, unless the request is all code', () => {
      assert.equal(denseQueryText('Fix this crash\n  at a.b(C.java:1)\n\nin   the  app'), 'Fix this crash in the app');
      assert.equal(denseQueryText('SELECT * FROM t;'), 'SELECT * FROM t;');
    });

    it('adds pseudo-relevance feedback terms from the top documents, not over the request', () => {
      const ix = index(doc('a', skill('a', 'kafka consumer lag')), doc('b', skill('b', 'kafka topic')), doc('c', skill('c', 'pdf')));
      const weights = new Map([['kafka', 1]]);
      const first = ix.search(weights);
      const terms = new Map([['a', ['kafka', 'consum', 'lag']], ['b', ['kafka', 'topic']], ['c', ['pdf']]]);
      assert.equal(expandByFeedback(weights, first, (id) => terms.get(id)!, ix, { ...S, prfDocs: 0 }), false);
      assert.ok(expandByFeedback(weights, first, (id) => terms.get(id)!, ix, { ...S, prfDocs: 2, prfTerms: 2, prfWeight: 0.3 }));
      assert.equal(weights.get('kafka'), 1, 'request terms keep their weight');
      assert.equal(weights.size, 3);
      assert.ok(!weights.has('pdf'));
      assert.equal(Math.max(...[...weights].filter(([t]) => t !== 'kafka').map(([, w]) => w)), 0.3);
    });
  });

  describe('cross-language', () => {
    const translator = new Translator({ glosses: () => undefined, maxWordLength: 1 });
    const zh = doc('zh', skill('zh-log', '分析日志并生成图表', '# 导出报告\n正文'));

    it('gives Chinese skills an English bridge field and an English dense row', () => {
      const fields = lexicalFields(zh, { translator });
      assert.ok(fields.bridge && ['log', 'chart', 'report', 'generat'].every((t) => fields.bridge!.includes(t)), String(fields.bridge));
      assert.equal(lexicalFields(zh, {}).bridge, undefined);
      assert.deepEqual(fields.bridgeBody, ['export', 'report'], 'the body as written (its heading included; "正文" has no glossary sense)');
      const withBody = lexicalFields(doc('zb', skill('zb', '数据', '# 说明\n导出日志')), { translator });
      assert.ok(withBody.bridgeBody!.includes('export') && withBody.bridgeBody!.includes('log'), String(withBody.bridgeBody));
      const { texts, bodyFrom } = embedTexts(zh, splitPassages(zh.body), { bodyPassages: 1 }, { translator });
      assert.equal(bodyFrom, 2);
      assert.match(texts[1], /analysis .*log/);
      assert.equal(texts.length, 3);
      const en = doc('en', skill('en', 'Analyse logs', 'Details at https://example.com/x here'));
      const plain = embedTexts(en, splitPassages(en.body), { bodyPassages: 1 }, { translator });
      assert.equal(plain.bodyFrom, 1);
      assert.equal(plain.texts[1], 'Details at here', 'URLs are not embedded');
    });

    it('adds weighted English senses of a Chinese request and returns English text for the encoder', () => {
      const ix = index(doc('a', skill('a', 'logs')));
      const w = new Map<string, number>([['nginx', 1]]);
      assert.equal(bridgeQuery('analyse logs', w, ix, { ...S, bridgeWeight: 1 }, { translator }), null);
      const translated = new Set<string>();
      const text = bridgeQuery('帮我看Nginx日志', w, ix, { ...S, bridgeWeight: 0.5 }, { translator }, translated);
      assert.equal(text, 'Nginx log');
      assert.equal(w.get('log'), 0.5);
      assert.deepEqual([...translated], ['log'], 'only terms the bridge added count as translated');
      const off = new Map<string, number>();
      bridgeQuery('日志', off, ix, { ...S, bridgeWeight: 0 }, { translator });
      assert.equal(off.size, 0);
    });
  });

  describe('fusion', () => {
    it('min-max normalises over the pool, absent scores count 0', () => {
      const n = normalise(['a', 'b', 'c'], new Map([['a', 2], ['b', 4]]));
      assert.deepEqual([...n], [['a', 0], ['b', 1], ['c', 0]]);
      assert.deepEqual([...normalise(['a'], new Map([['a', 3]]))], [['a', 1]]);
    });

    it('fuses weighted normalised scores and reports each part', () => {
      const lex = new Map([['a', 10], ['b', 5], ['c', 0]]);
      const dense = new Map([['a', 0.2], ['b', 0.6], ['c', 0.4]]);
      const out = fuse(['a', 'b', 'c'], lex, dense, 0.6);
      const a = out.find((c) => c.id === 'a')!;
      const b = out.find((c) => c.id === 'b')!;
      assert.equal(a.fused, 0.6 * 1 + 0.4 * 0);
      assert.equal(b.fused, 0.6 * 0.5 + 0.4 * 1);
      assert.equal(b.dense, 0.6);
      assert.equal(b.lexicalWeight, 0.6);
      assert.deepEqual(out.map((c) => c.id), ['b', 'a', 'c']);
      const lexOnly = fuse(['a', 'b', 'c'], lex, null, 0.3);
      assert.deepEqual(lexOnly.map((c) => [c.id, c.fused, c.dense]), [['a', 1, null], ['b', 0.5, null], ['c', 0, null]]);
    });

    it('aggregates a skill\'s rows: the best, body rows penalised', () => {
      assert.equal(aggregateRows([0.5, 0.55], 1, { bodyRowPenalty: 0.1 }), 0.5);
      assert.equal(bestRow([0.5, 0.55], 1, { bodyRowPenalty: 0.1 }), 0);
      assert.equal(aggregateRows([0.5, 0.7], 1, { bodyRowPenalty: 0.1 }), 0.7 - 0.1);
      assert.equal(bestRow([0.2, 0.3, 0.7], 2, { bodyRowPenalty: 0 }), 2);
    });
  });
});
