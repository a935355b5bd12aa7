// The user-supplied model path end to end: a library opened through openLibrary with a model
// folder whose manifest sets instruction prefixes, mean pooling and `languages` (the tiny,
// random-weight fixtures of test/fixtures/models stand in for e5, bge-m3 or SR-Emb).
import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLibrary } from '../../src/node/library';
import { OnnxEmbedder } from '../../src/node/onnxEmbedder';
import { dot } from '../../src/core/route/denseStore';

const BERT = join(__dirname, '../../../test/fixtures/models/tiny-bert');

const SKILLS: Record<string, [string, string]> = {
  'pdf-extract': ['pdf-extract', 'extract text and tables from a scanned pdf invoice'],
  'email-summary': ['email-summary', 'summarize an email and send a short reply'],
  'report-zh': ['report-zh', '生成周报：汇总本周的任务和会议'],
};

describe('a user-supplied multilingual model through openLibrary', function () {
  let root: string;
  let cache: string;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'sr-ml-lib-'));
    cache = mkdtempSync(join(tmpdir(), 'sr-ml-cache-'));
    for (const [folder, [name, description]] of Object.entries(SKILLS)) {
      mkdirSync(join(root, folder));
      writeFileSync(join(root, folder, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n`);
    }
  });

  after(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  });

  it('embeds skills with the passage prefix, requests with the query prefix, and routes', async () => {
    const svc = await openLibrary({ root, modelDir: BERT, cacheDir: cache });
    try {
      const stats = await svc.index();
      assert.equal(stats.model, 'tiny-bert@1');
      assert.equal(stats.skills, 3);
      const query = 'extract the tables from a scanned pdf invoice';
      const r = await svc.route(query, { k: 3 });
      assert.deepEqual(r.dense, { model: 'tiny-bert@1' });
      assert.equal(r.candidates[0].skillId, 'pdf-extract');

      // The dense score the library reports is the cosine of the prefixed request and skill
      // vectors (one row per English skill without a body), not of unprefixed ones.
      const enc = await OnnxEmbedder.load(BERT);
      try {
        const [q] = await enc.embed([query], 'query');
        const [p] = await enc.embed(['pdf extract: extract text and tables from a scanned pdf invoice'], 'passage');
        const [qAsPassage] = await enc.embed([query], 'passage');
        const pdf = r.candidates.find((c) => c.skillId === 'pdf-extract')!;
        assert.ok(Math.abs(pdf.scores.dense! - dot(q, p)) < 1e-4, `${pdf.scores.dense} vs ${dot(q, p)}`);
        assert.ok(Math.abs(dot(qAsPassage, p) - dot(q, p)) > 1e-4, 'the prefixes change the vectors');
        assert.equal(pdf.scores.fused, pdf.scores.lexicalWeight! * pdf.scores.lexical + (1 - pdf.scores.lexicalWeight!) * pdf.scores.denseNorm!);
      } finally {
        await enc.dispose();
      }
    } finally {
      await svc.dispose();
    }
  });

  it('feeds Chinese as written to a model whose manifest lists zh, and bridged English otherwise', async () => {
    const query = '帮我生成本周的周报';
    const denseOf = async (modelDir: string) => {
      const svc = await openLibrary({ root, modelDir, cacheDir: mkdtempSync(join(cache, 'c-')) });
      try {
        await svc.index();
        const r = await svc.route(query, { k: 3 });
        assert.equal(r.candidates[0].skillId, 'report-zh', 'the Chinese skill matches by its own words');
        return r.candidates[0].scores.dense!;
      } finally {
        await svc.dispose();
      }
    };
    const multi = join(cache, 'tiny-bert-multilingual');
    cpSync(BERT, multi, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(multi, 'manifest.json'), 'utf8'));
    writeFileSync(join(multi, 'manifest.json'), JSON.stringify({ ...manifest, id: 'tiny-bert-ml@1', languages: ['en', 'zh'] }));

    const enc = await OnnxEmbedder.load(multi);
    try {
      assert.deepEqual(enc.info.languages, ['en', 'zh']);
      const [q] = await enc.embed([query], 'query');
      const [p] = await enc.embed(['report zh: 生成周报：汇总本周的任务和会议'], 'passage');
      assert.ok(Math.abs((await denseOf(multi)) - dot(q, p)) < 1e-4, 'a multilingual model reads the Chinese request and skill as written');
    } finally {
      await enc.dispose();
    }
    const english = await denseOf(BERT);
    assert.ok(Number.isFinite(english));
  });

  it('rejects a malformed languages field with the fix', async () => {
    const bad = join(cache, 'tiny-bert-bad-languages');
    cpSync(BERT, bad, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(bad, 'manifest.json'), 'utf8'));
    writeFileSync(join(bad, 'manifest.json'), JSON.stringify({ ...manifest, languages: 'zh' }));
    await assert.rejects(OnnxEmbedder.load(bad), /field `languages` must be a list of language codes/);
  });
});
