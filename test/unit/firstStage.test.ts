import { strict as assert } from 'node:assert';
import { BruteForceIndex, DenseStore } from '../../src/core/route/denseStore';
import { analyseRequest, denseQueryText, denseShare, isCodeLine, libraryAssociation, queryTerms, readShare, unreadRequest, unreadScript } from '../../src/core/route/request';
import { createSkillService } from '../../src/core/route/skillService';
import { FakeEmbedder, MemoryWorkspace } from '../helpers/fakes';
import { expandByFeedback, fuse, normalise } from '../../src/core/route/retrieve';
import { DEFAULT_FIRST_STAGE } from '../../src/core/route/settings';
import { embedTexts, lexicalFields } from '../../src/core/route/skillText';
import { LexicalIndex } from '../../src/core/index/lexicalIndex';
import { parseSkill } from '../../src/core/parse/skillDoc';
import { splitPassages } from '../../src/core/text/passages';
import { Translator } from '../../src/core/text/translator';
import { otherLatinLanguage } from '../../src/core/text/language';
import { skill } from '../helpers/fakes';

const doc = (id: string, text: string) => parseSkill({ id, path: `${id}/SKILL.md`, folderName: id }, text, ['spec']);
/** The defaults with query sharpening off, so weights below are easy to state. */
const S = { ...DEFAULT_FIRST_STAGE, idfPower: 0 };


function index(...docs: ReturnType<typeof doc>[]): LexicalIndex {
  const ix = new LexicalIndex();
  for (const d of docs) ix.upsert(d.id, lexicalFields(d, {}));
  return ix;
}

describe('requests the encoder cannot read', () => {
  it('a request mostly in a script none of its languages is written in is not embedded', () => {
    assert.match(unreadScript('스프링 트랜잭션 전파 설정을 검토해줘') ?? '', /mostly in Hangul, which the embedding model does not read/);
    assert.match(unreadScript('ช่วยรีเบสสาขานี้ให้หน่อย ก่อน merge') ?? '', /Thai/);
    assert.equal(unreadScript('Review the @Transactional propagation in this Spring service'), null);
    assert.equal(unreadScript('Spring @Transactional 설정 review please, with the JPA repository'), null, 'mostly Latin');
    assert.equal(unreadScript('스프링 트랜잭션', ['en', 'ko']), null, 'a model that reads Korean');
    assert.equal(unreadScript('1234 ---'), null, 'no letters');
  });

  it('a request Skill Router reads none of, whatever the model: Chinese counts as its bridged reading', () => {
    assert.equal(unreadRequest('새 캐시 기능 구현 계획만 세워줘. 아직 코드는 건드리지 마.', null), 'Hangul');
    assert.equal(unreadRequest('ช่วยรีเบสสาขานี้ให้หน่อย ก่อน merge', null), 'Thai');
    assert.equal(unreadRequest('Spring @Transactional 설정 review please, with the JPA repository', null), null, 'mostly Latin');
    assert.equal(unreadRequest('帮我从扫描的发票中提取表格', 'help extract table from scanned invoice'), null, 'read through the bridge');
    assert.equal(unreadRequest('帮我从扫描的发票中提取表格', null), null, 'Chinese is read by its words even where the bridge reads none');
    assert.equal(unreadRequest('このファイルをテキストに変換してください', null), 'Japanese kana');
  });

  it('a request in Latin letters whose function words are another language\'s is named for that language', () => {
    assert.equal(unreadRequest('Revisa si la ISR corrompe registros y si las llamadas respetan el ABI. Quiero un informe, no cambios.', null), 'Spanish');
    assert.equal(unreadRequest('Limpia este archivo CSV: corrige la codificación y quita las filas que están duplicadas', null), 'Spanish', 'not Galician, whose list holds the same words');
    assert.equal(otherLatinLanguage('Corrige le bug dans la fonction de connexion et ajoute un test'), 'French');
    assert.equal(otherLatinLanguage('Erstelle eine neue Komponente für das Formular und schreibe Tests dafür'), 'German');
    assert.equal(otherLatinLanguage('Limpe este arquivo CSV e remova as linhas duplicadas que estão no final'), 'Portuguese');
    // English, however technical, and too little to tell, are not.
    assert.equal(unreadRequest('Set up de-duplication for the CSV import and add a test for it', null), null);
    assert.equal(otherLatinLanguage('Build a REST API in Go with a Postgres database and deploy it'), null);
    assert.equal(otherLatinLanguage('la pila de SDK'), null, 'under four words');
    assert.equal(otherLatinLanguage('fix la casa del SDK client and add the retry for it'), null, 'more English function words than Spanish');
    assert.equal(otherLatinLanguage('请 limpia este archivo para que no tenga las filas duplicadas de la tabla'), 'Spanish', 'Latin letters are most of its letters');
    assert.equal(otherLatinLanguage('帮我把这个文件的编码修好，然后删掉重复的行 que están'), null, 'mostly Chinese: read through the dictionary');
  });

  it('routes it on words, saying why, with the same answer as without a model', async () => {
    const files = new Map([
      ['spring-tx/SKILL.md', '---\nname: spring-tx\ndescription: Spring 트랜잭션 전파와 격리 수준을 검토합니다.\n---\n# 트랜잭션\n'],
      ['spring-web/SKILL.md', '---\nname: spring-web\ndescription: Spring MVC 컨트롤러와 REST API를 설계합니다.\n---\n# 컨트롤러\n'],
    ]);
    const withModel = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder: new FakeEmbedder() });
    const words = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files) });
    await withModel.index();
    await words.index();
    // No word of this request is in the glossary (transaction, propagation, to look over).
    const q = '트랜잭션 전파를 살펴봐줘';
    const a = await withModel.route(q, { k: 2, passages: false });
    const b = await words.route(q, { k: 2, passages: false });
    assert.match('disabled' in a.dense ? a.dense.disabled : '', /Hangul/);
    assert.equal(a.readAs, undefined);
    assert.deepEqual(a.candidates.map((c) => [c.skillId, c.scores.final]), b.candidates.map((c) => [c.skillId, c.scores.final]));
    assert.ok('model' in (await withModel.route('review the transaction propagation', { k: 1, passages: false })).dense, 'an English request is embedded');
  });
});

describe('requests the encoder reads in part', () => {
  const halfThai = 'ซ่อม pack/index ที่เสียโดยห้าม prune และต้อง verify exact object';

  it('tells the share of the letters the encoder reads', () => {
    assert.equal(readShare('Review the @Transactional propagation').share, 1);
    assert.equal(readShare('1234 ---').share, 1, 'no letters');
    const { share, unread } = readShare(halfThai);
    assert.ok(share > 0.5 && share < 0.7, String(share));
    assert.equal(unread, 'Thai');
    assert.deepEqual(readShare('스프링 트랜잭션', ['en', 'ko']), { share: 1, unread: null }, 'a model that reads Korean');
    assert.equal(unreadScript(halfThai), null, 'more than half is read: it is embedded');
  });

  it("the dense part keeps its weight in proportion to what is read above half, none at half", () => {
    assert.equal(denseShare(1), 1);
    assert.equal(denseShare(0.75), 0.5);
    assert.equal(denseShare(0.5), 0);
    assert.equal(denseShare(0.2), 0);
  });

  it('a request half in a script the encoder does not read gives the words more of the fusion', async () => {
    const files = new Map([
      ['repair-repo/SKILL.md', '---\nname: repair-repo\ndescription: Repair a corrupt pack or index and verify every object.\n---\n# Repair\n'],
      ['large-repo/SKILL.md', '---\nname: large-repo\ndescription: Speed up a large repository with prune, gc and a commit graph.\n---\n# Large\n'],
    ]);
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder: new FakeEmbedder() });
    await svc.index();
    const weightOf = async (q: string) => (await svc.route(q, { k: 1, passages: false })).candidates[0].scores.lexicalWeight!;
    assert.equal(await weightOf('repair the broken pack index without prune and verify every object'), DEFAULT_FIRST_STAGE.lexicalWeight);
    // Half in Greek (Thai or Russian would be read through a glossary).
    const halfGreek = 'επισκεύασε pack/index χωρίς prune και έλεγξε exact object';
    const read = readShare(halfGreek).share;
    assert.ok(read > 0.5 && read < 0.7, String(read));
    const w = await weightOf(halfGreek);
    assert.ok(Math.abs(w - (1 - (1 - DEFAULT_FIRST_STAGE.lexicalWeight) * (2 * read - 1))) < 1e-9, `lexical weight ${w}`);
    assert.ok(w > DEFAULT_FIRST_STAGE.lexicalWeight && w < 1);
  });
});

describe('fusion', () => {
  it('keeps the dense differences of a pool whose cosines barely spread small (denseMinSpan)', () => {
    const lexical = new Map([['a', 2], ['b', 1], ['c', 0.5]]);
    const dense = new Map([['a', 0.5], ['b', 0.55], ['c', 0.52]]);
    const stretched = fuse(['a', 'b', 'c'], lexical, dense, 0.6);
    assert.equal(stretched.find((c) => c.id === 'b')!.denseNorm, 1, 'min-max: 0.05 of cosine becomes the whole range');
    const kept = fuse(['a', 'b', 'c'], lexical, dense, 0.6, 0.3);
    assert.ok(Math.abs(kept.find((c) => c.id === 'b')!.denseNorm - 0.05 / 0.3) < 1e-9);
    assert.equal(kept[0].id, 'a', 'the words decide when the encoder hardly tells the skills apart');
    const wide = new Map([['a', 0.1], ['b', 0.7], ['c', 0.4]]);
    assert.deepEqual(fuse(['a', 'b', 'c'], lexical, wide, 0.6, 0.3).map((c) => c.denseNorm), fuse(['a', 'b', 'c'], lexical, wide, 0.6).map((c) => c.denseNorm), 'a wide spread is normalised as before');
  });

  it('keeps a lexical runner-up 1% behind the best near it in a small pool (lexicalMinShare)', () => {
    const twins = new Map([['tidy', 10], ['cleaner', 9.9], ['copy', 9.9]]);
    const minMax = fuse(['tidy', 'cleaner', 'copy'], twins, null, 1);
    assert.equal(minMax.find((c) => c.id === 'cleaner')!.lexical, 0, 'min-max: a near twin at 0');
    const kept = fuse(['tidy', 'cleaner', 'copy'], twins, null, 1, 0, 0.5);
    assert.equal(kept[0].lexical, 1, 'the best stays 1');
    assert.ok(Math.abs(kept.find((c) => c.id === 'cleaner')!.lexical - 0.98) < 1e-9);
    const wide = new Map([['a', 10], ['b', 4], ['c', 1]]);
    assert.deepEqual(fuse(['a', 'b', 'c'], wide, null, 1, 0, 0.5).map((c) => c.lexical), fuse(['a', 'b', 'c'], wide, null, 1).map((c) => c.lexical), 'a wide spread is normalised as before');
  });
});

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
      assert.equal(expandByFeedback(weights, first, (id) => terms.get(id)!, ix, { ...S, prfDocs: 0 }), null);
      const expanded = expandByFeedback(weights, first, (id) => terms.get(id)!, ix, { ...S, prfDocs: 2, prfTerms: 2, prfWeight: 0.3 });
      assert.ok(expanded);
      assert.equal(weights.size, 1, "the request's own weights are not changed");
      assert.equal(expanded.get('kafka'), 1, 'request terms keep their weight');
      assert.equal(expanded.size, 3);
      assert.ok(!expanded.has('pdf'));
      assert.equal(Math.max(...[...expanded].filter(([t]) => t !== 'kafka').map(([, w]) => w)), 0.3);
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
      const { texts, bodyFrom } = embedTexts(zh, splitPassages(zh.body), 1, { translator });
      assert.equal(bodyFrom, 2);
      assert.match(texts[1], /analysis .*log/);
      assert.equal(texts.length, 3);
      const en = doc('en', skill('en', 'Analyse logs', 'Details at https://example.com/x here'));
      const plain = embedTexts(en, splitPassages(en.body), 1, { translator });
      assert.equal(plain.bodyFrom, 1);
      assert.equal(plain.texts[1], 'Details at here', 'URLs are not embedded');
    });

    it('adds weighted English senses of a Chinese request and returns English text for the encoder', () => {
      const ix = index(doc('a', skill('a', 'logs')));
      assert.equal(analyseRequest('analyse logs', ix, { ...S, bridgeWeight: 1 }, { translator }).readAs, null);
      const req = analyseRequest('帮我看Nginx日志', ix, { ...S, bridgeWeight: 0.5 }, { translator });
      assert.equal(req.readAs, 'Nginx log');
      assert.equal(req.weights.get('log'), 0.5);
      assert.equal(req.weights.get('nginx'), 1, "the request's own word keeps its weight");
      assert.deepEqual([...req.translated], ['log'], 'only terms the bridge added count as translated');
      const off = analyseRequest('日志', ix, { ...S, bridgeWeight: 0 }, { translator });
      assert.equal(off.readAs, 'log', 'the encoder still reads the English');
      assert.equal(off.translated.size, 0);
      assert.ok(!off.weights.has('log'), 'but no sense is weighted');
    });

    it("chooses among a word's senses the one the library uses with the request's other words", () => {
      // 质量 lists "mass" first; next to 手册 (manual) and 审核 (audit) it means "quality".
      const tr = new Translator(
        { glosses: (w) => ({ 质量: ['(physics) mass', 'quality'], 手册: ['handbook', 'manual'], 审核: ['to audit'] } as Record<string, string[]>)[w], maxWordLength: 2 },
        { glossary: new Map() },
      );
      const ix = index(
        doc('qms', skill('qms', 'Write the quality manual and plan the internal audit.')),
        doc('audit', skill('audit', 'Audit checklists and quality records.')),
        doc('physics', skill('physics', 'Simulate the mass and momentum of rigid bodies.')),
        doc('mass-mail', skill('mass-mail', 'Send mass email campaigns.')),
      );
      const req = analyseRequest('编写质量手册并审核', ix, { ...S, bridgeWeight: 1 }, { translator: tr });
      const w = req.weights;
      assert.equal(req.readAs, 'quality manual audit');
      assert.ok(w.get('qualiti')! > w.get('mass')!, `quality ${w.get('qualiti')} over mass ${w.get('mass')}`);
      // With nothing around it to fit, the dictionary's order stands.
      assert.equal(analyseRequest('质量', ix, { ...S, bridgeWeight: 1 }, { translator: tr }).readAs, 'mass');
    });

    it("measures how words go together by skills' own text, not the bridge's senses", () => {
      const tr = new Translator({ glosses: (w) => (w === '后' ? ['empress'] : undefined), maxWordLength: 1 }, { glossary: new Map() });
      const ix = index(doc('en1', skill('en1', 'deploy the app')), doc('en2', skill('en2', 'deploy then app rollback')), doc('zh', skill('zh', '之后')));
      ix.upsert('zh', lexicalFields(doc('zh', skill('zh', '后后后')), { translator: tr }));
      assert.equal(ix.df('empress'), 1, 'the bridge field holds it');
      assert.equal(ix.nativeDf('empress'), 0, "but no skill's own text does");
      assert.equal(ix.nativeDf('deploy'), 2);
      const assoc = libraryAssociation(ix);
      assert.equal(assoc('deploy', 'app'), 1);
      assert.equal(assoc('deploy', 'rollback'), (2 * 1) / (2 + 1));
      assert.equal(assoc('deploy app', 'rollback'), (2 * 1) / (2 + 1), 'a phrase: the skills holding all its words');
      assert.equal(assoc('deploy', 'empress'), 0);
      assert.equal(assoc('deploy', 'unheard'), 0);
      ix.remove('en2');
      assert.equal(ix.nativeDf('deploy'), 1, 'counts follow the index');
      assert.equal(libraryAssociation(ix)('deploy', 'rollback'), 0);
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

    it("the dense store aggregates a skill's rows: the best, body rows penalised, the row named for explanations", () => {
      const unit = (...xs: number[]) => {
        const n = Math.hypot(...xs);
        return Float32Array.from(xs, (x) => x / n);
      };
      const q = unit(1, 0, 0);
      const store = new DenseStore(new BruteForceIndex(), 0.1);
      // Cosines with q: description 0.5, body passage 0.55 (lowered to 0.45 by the penalty).
      store.upsert('a', [unit(0.5, Math.sqrt(0.75), 0), unit(0.55, Math.sqrt(1 - 0.55 ** 2), 0)], 1);
      const a = store.score('a', q)!;
      assert.ok(Math.abs(a.score - 0.5) < 1e-6 && a.row === 0, JSON.stringify(a));
      // Body passage 0.7 beats the description even after the penalty: row 1 is body passage 0.
      store.upsert('b', [unit(0.5, Math.sqrt(0.75), 0), unit(0.7, Math.sqrt(1 - 0.49), 0)], 1);
      const b = store.score('b', q)!;
      assert.ok(Math.abs(b.score - (0.7 - 0.1)) < 1e-6 && b.row === 1, JSON.stringify(b));
      assert.equal(store.score('b', q, 0)!.row, 0, 'with no body rows read, the description scores');
      // Two description rows (a Chinese skill's bridged English): either stands for the description.
      store.upsert('c', [unit(0.2, Math.sqrt(0.96), 0), unit(0.3, Math.sqrt(0.91), 0), unit(0.25, Math.sqrt(1 - 0.0625), 0)], 2);
      assert.equal(store.score('c', q)!.row, 0);
      assert.equal(store.score('nope', q), undefined);
    });
  });
});
