import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  creditedHits,
  METRIC_KEYS,
  ndcgFromHits,
  percentile,
  scoreQuery,
  summarize,
  type QueryMetrics,
  type ScoredQuery,
} from '../../src/core/eval/metrics';
import { parseQueries, QueryFileError } from '../../src/core/eval/queries';
import { formatEvalTable, runEval } from '../../src/cli/eval';
import { withProgressLine } from '../../src/cli/io';
import type { RouteResult, SkillService } from '../../src/core/service';
import type { SkillDoc } from '../../src/core/types';

const L2 = 1 / Math.log2(3); // discount of rank 2
const L3 = 1 / Math.log2(4); // rank 3 = 0.5
const close = (actual: number | null, expected: number, msg?: string): void => {
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-9, `${msg ?? ''} expected ${expected}, got ${actual}`);
};

describe('metrics: single-skill queries', () => {
  it('scores a hit at rank 1 as 1 everywhere', () => {
    const m = scoreQuery(['a', 'x', 'y'], { required: ['a'] });
    for (const key of METRIC_KEYS) if (key !== 'set_compat') assert.equal(m[key], 1, key);
    assert.equal(m.set_compat, null);
  });

  it('discounts a hit at rank 2 by 1/log2(3) and keeps recall at 1', () => {
    const m = scoreQuery(['x', 'a'], { required: ['a'] });
    assert.equal(m['hit@1'], 0);
    close(m['ndcg@5'], L2); // 0.6309
    assert.equal(m['recall@5'], 1);
    assert.equal(m['comp@5'], 1);
  });

  it('counts a hit at rank 12 only from @15 on', () => {
    const top = ['x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7', 'x8', 'x9', 'x10', 'x11', 'a'];
    const m = scoreQuery(top, { required: ['a'] });
    assert.equal(m['recall@5'], 0);
    assert.equal(m['recall@10'], 0);
    assert.equal(m['recall@15'], 1);
    assert.equal(m['recall@20'], 1);
    assert.equal(m['ndcg@10'], 0);
    close(m['ndcg@15'], 1 / Math.log2(13));
  });

  it('scores an empty ranking as all zeros (short rankings are padded with misses)', () => {
    const m = scoreQuery([], { required: ['a'] });
    for (const key of METRIC_KEYS) if (key !== 'set_compat') assert.equal(m[key], 0, key);
  });
});

describe('metrics: multi-skill queries', () => {
  it('hand-computed NDCG, recall and set-compat for G = {a, b}', () => {
    const m = scoreQuery(['a', 'x', 'b'], { required: ['a', 'b'] });
    // DCG = 1 + 1/log2(4) = 1.5; IDCG = 1 + 1/log2(3) = 1.6309
    close(m['ndcg@5'], 1.5 / (1 + L2));
    assert.equal(m['recall@5'], 1);
    assert.equal(m['comp@5'], 1);
    assert.equal(m.set_compat, 0, 'b is outside top[:2]');
    assert.equal(scoreQuery(['b', 'a', 'x'], { required: ['a', 'b'] }).set_compat, 1);
  });

  it('G = {a, b, c} found at ranks 3 and 12', () => {
    const top = ['x1', 'x2', 'a', 'x4', 'x5', 'x6', 'x7', 'x8', 'x9', 'x10', 'x11', 'b'];
    const m = scoreQuery(top, { required: ['a', 'b', 'c'] });
    const idcg = 1 + L2 + L3;
    close(m['recall@5'], 1 / 3);
    close(m['recall@10'], 1 / 3);
    close(m['recall@15'], 2 / 3);
    close(m['recall@20'], 2 / 3);
    close(m['comp@10'], 1 / 3);
    close(m['ndcg@5'], L3 / idcg);
    close(m['ndcg@15'], (L3 + 1 / Math.log2(13)) / idcg);
    assert.equal(m.set_compat, 0);
  });

  it('a short ranking that holds one of two required skills', () => {
    const m = scoreQuery(['a'], { required: ['a', 'b'] });
    assert.equal(m['hit@1'], 1);
    close(m['ndcg@10'], 1 / (1 + L2)); // 0.6131
    assert.equal(m['recall@20'], 0.5);
    assert.equal(m['comp@10'], 0.5);
    assert.equal(m.set_compat, 0);
  });

  it('Comp@k divides by min(|G|, k): six required skills, all in the top 6', () => {
    const g = ['a', 'b', 'c', 'd', 'e', 'f'];
    const m = scoreQuery(g, { required: g });
    close(m['recall@5'], 5 / 6);
    assert.equal(m['comp@5'], 1);
    assert.equal(m['ndcg@5'], 1, 'ideal DCG over min(k, |G|) = 5 items');
    assert.equal(m.set_compat, 1);
  });

  it('ignores a repeated id in the ranking', () => {
    assert.deepEqual(creditedHits(['a', 'a', 'b'], { required: ['a', 'b'] }), [true, false, true]);
  });
});

describe('metrics: also_ok stands in for the required skill it duplicates', () => {
  it('single-skill: an also_ok hit counts as the required skill found', () => {
    const m = scoreQuery(['copy/a', 'x'], { required: ['orig/a'], alsoOk: ['copy/a'] });
    assert.equal(m['hit@1'], 1);
    assert.equal(m['ndcg@10'], 1);
    assert.equal(m['recall@5'], 1);
    assert.equal(m['comp@5'], 1);
  });

  it('single-skill: the original after its copy adds nothing, and neither do more copies', () => {
    const judgement = { required: ['orig/a'], alsoOk: ['copy/a', 'copy2/a'] };
    assert.deepEqual(creditedHits(['copy/a', 'copy2/a', 'orig/a'], judgement), [true, false, false]);
    const m = scoreQuery(['copy/a', 'copy2/a', 'orig/a'], judgement);
    assert.equal(m['ndcg@5'], 1, 'never above 1');
    assert.equal(m['recall@5'], 1, 'never above 1');
  });

  it('single-skill: an also_ok at rank 2 scores like the required skill at rank 2', () => {
    const withCopy = scoreQuery(['x', 'copy/a'], { required: ['orig/a'], alsoOk: ['copy/a'] });
    const withOriginal = scoreQuery(['x', 'orig/a'], { required: ['orig/a'] });
    assert.deepEqual(withCopy, withOriginal);
  });

  it('multi-skill: a copy fills only the slot of the required skill with its folder name', () => {
    const judgement = { required: ['c1/pdf', 'c1/chart'], alsoOk: ['c2/pdf'] };
    const top = ['c2/pdf', 'c1/pdf', 'x', 'c1/chart'];
    assert.deepEqual(creditedHits(top, judgement), [true, false, false, true]);
    const m = scoreQuery(top, judgement);
    close(m['ndcg@5'], (1 + 1 / Math.log2(5)) / (1 + L2)); // 0.8772
    assert.equal(m['recall@5'], 1);
    assert.equal(m.set_compat, 0, 'the chart slot is empty within top[:2]');
    assert.equal(scoreQuery(['c1/chart', 'c2/pdf'], judgement).set_compat, 1, 'copy + the other required skill complete the set');
  });

  it('multi-skill: the copy never fills a slot its name does not match', () => {
    const m = scoreQuery(['c2/pdf', 'c1/pdf'], { required: ['c1/pdf', 'c1/chart'], alsoOk: ['c2/pdf'] });
    assert.equal(m['recall@20'], 0.5);
    assert.equal(m.set_compat, 0);
  });

  it('multi-skill: an also_ok with no matching folder name stands in for any one required skill', () => {
    const judgement = { required: ['a/x', 'a/y'], alsoOk: ['b/z'] };
    assert.deepEqual(creditedHits(['b/z', 'a/y'], judgement), [true, true]);
    assert.equal(scoreQuery(['b/z', 'a/y'], judgement).set_compat, 1);
    // b/z first takes a slot, moves over when a/x arrives; a/y then finds both slots filled.
    assert.deepEqual(creditedHits(['b/z', 'q', 'a/x', 'a/y'], judgement), [true, false, true, false]);
    // It can stand in for one required skill only.
    assert.deepEqual(creditedHits(['b/z', 'c/z'], { required: ['a/x', 'a/y'], alsoOk: ['b/z', 'c/z'] }), [true, true]);
    assert.deepEqual(creditedHits(['b/z', 'b/z'], judgement), [true, false]);
  });

  it('an id listed in both required and also_ok counts as required', () => {
    assert.deepEqual(creditedHits(['a', 'b'], { required: ['a', 'b'], alsoOk: ['a'] }), [true, true]);
  });
});

describe('metrics: ndcgFromHits and percentile', () => {
  it('ndcgFromHits has an ideal DCG over min(k, size) items', () => {
    assert.equal(ndcgFromHits([true, true], 3, 1), 1);
    close(ndcgFromHits([false, true], 1, 5), L2);
    assert.equal(ndcgFromHits([], 0, 5), 0);
  });

  it('percentile is nearest-rank', () => {
    assert.equal(percentile([], 50), 0);
    assert.equal(percentile([5, 1, 3], 50), 3);
    assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95), 10);
    assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50), 5);
  });
});

describe('metrics: summarize', () => {
  const metrics = (hit: number, setCompat: number | null): QueryMetrics => {
    const m = scoreQuery(hit ? ['a'] : ['x'], { required: ['a'] });
    return { ...m, set_compat: setCompat };
  };
  const rows: ScoredQuery[] = [
    { size: 1, direction: 'zh2en', metrics: metrics(1, null) },
    { size: 1, direction: 'en2en', metrics: metrics(0, null) },
    { size: 2, direction: 'en2en', metrics: metrics(1, 1) },
    { size: 3, direction: 'xx2yy', metrics: metrics(1, 0) },
    { size: 2, metrics: metrics(0, 0) },
  ];

  it('averages overall, by |G| and by direction', () => {
    const s = summarize(rows);
    assert.equal(s.n, 5);
    assert.equal(s.overall.n, 5);
    close(s.overall['hit@1'], 3 / 5);
    close(s.overall.set_compat, 1 / 3, 'set_compat averages only multi-skill queries');
    assert.deepEqual(Object.keys(s.byK), ['1', '2', '3']);
    assert.equal(s.byK['1'].set_compat, null, 'null when the group has no multi-skill query');
    assert.equal(s.byK['2'].n, 2);
    close(s.byK['2']['hit@1'], 0.5);
    assert.deepEqual(Object.keys(s.byDirection), ['en2en', 'zh2en', 'xx2yy'], 'known first, in order; then others');
    assert.equal(s.byDirection.en2en.n, 2);
    assert.equal(
      Object.values(s.byDirection).reduce((n, g) => n + g.n, 0),
      4,
      'a query without direction joins no direction group',
    );
  });

  it('has every metric key in every group', () => {
    const s = summarize(rows);
    for (const group of [s.overall, ...Object.values(s.byK), ...Object.values(s.byDirection)]) {
      assert.deepEqual(Object.keys(group).sort(), ['n', ...METRIC_KEYS].sort());
    }
  });

  it('prints a table with percent and "-" for an empty Set-Compat', () => {
    const table = formatEvalTable(summarize(rows));
    const lines = table.trimEnd().split('\n');
    assert.match(lines[0], /^\| group +\| +n \| Hit@1 \| NDCG@10 \| Recall@10 \| Recall@20 \| Comp@10 \| Set-Compat \|$/);
    assert.match(lines[1], /^\|-+\|-+:\|/);
    assert.match(lines[2], /^\| overall \| +5 \| +60\.0 \|/);
    assert.match(table, /\| k=1 +\| +2 \| +50\.0 \|.*\| +- \|\n/);
    assert.equal(lines.length, 2 + 1 + 3 + 3);
  });
});

describe('queries file', () => {
  it('parses records, skips blank lines, ignores unknown keys and defaults the id', () => {
    const text = [
      '{"id": "q1", "query": "pdf tables", "skill_ids": ["a"], "also_ok": ["b", "a"], "k": 1, "direction": "en2en", "style": "terse"}',
      '',
      '{"query": "two things", "skill_ids": ["a", "c", "a"]}',
    ].join('\n');
    const qs = parseQueries(text);
    assert.equal(qs.length, 2);
    assert.deepEqual(qs[0], { id: 'q1', line: 1, query: 'pdf tables', skillIds: ['a'], alsoOk: ['b'], not: [], noSkill: false, k: 1, direction: 'en2en' });
    assert.deepEqual(qs[1], { id: 'line-3', line: 3, query: 'two things', skillIds: ['a', 'c'], alsoOk: [], not: [], noSkill: false });
  });

  it('reports every problem with its line number', () => {
    const text = [
      '{"id": "q1", "query": "ok", "skill_ids": ["a"]}',
      '{"id": "q2", "query": ',
      '{"id": "q3", "skill_ids": ["a"]}',
      '{"id": "q4", "query": "x", "skill_ids": ["a", "b"], "k": 1}',
      '{"id": "q1", "query": "again", "skill_ids": []}',
      '[1, 2]',
      '{"id": "q7", "query": "x", "skill_ids": "a", "also_ok": [3]}',
    ].join('\n');
    assert.throws(
      () => parseQueries(text, 'dev.jsonl'),
      (err: unknown) => {
        assert.ok(err instanceof QueryFileError);
        const lines = err.problems.map((p) => p.line);
        assert.deepEqual([...new Set(lines)], [2, 3, 4, 5, 6, 7]);
        assert.match(err.message, /^dev\.jsonl:2: not valid JSON/m);
        assert.match(err.message, /^dev\.jsonl:3: "query" must be a non-empty string$/m);
        assert.match(err.message, /^dev\.jsonl:4: "k" is 1 but "skill_ids" has 2 skills$/m);
        assert.match(err.message, /^dev\.jsonl:5: duplicate id "q1" \(first on line 1\)$/m);
        assert.match(err.message, /^dev\.jsonl:6: expected a JSON object$/m);
        assert.match(err.message, /^dev\.jsonl:7: "skill_ids" must be an array/m);
        assert.match(err.message, /^dev\.jsonl:7: "also_ok" must be an array/m);
        return true;
      },
    );
  });

  it('reads negatives: no skill should answer ("skill_ids": [] or "not": []), or named skills must not come first (a "not" list alone says only that)', () => {
    const qs = parseQueries(
      [
        '{"id": "n1", "query": "Explain TCP and UDP", "not": [], "category": "negative"}',
        '{"id": "n2", "query": "Write a Flask API", "skill_ids": []}',
        '{"id": "b1", "query": "Blazor component", "skill_ids": ["ui"], "not": ["devops"]}',
        '{"id": "b2", "query": "only a boundary", "not": ["router"], "skill_ids": ["api"]}',
        '{"id": "b3", "query": "Repair this corrupt pack", "not": ["diagnose"]}',
        '{"id": "n3", "query": "Write a Flask API", "skill_ids": [], "not": ["api"]}',
      ].join('\n'),
    );
    assert.deepEqual(
      qs.map((q) => [q.id, q.skillIds, q.not, q.noSkill]),
      [['n1', [], [], true], ['n2', [], [], true], ['b1', ['ui'], ['devops'], false], ['b2', ['api'], ['router'], false], ['b3', [], ['diagnose'], false], ['n3', [], ['api'], true]],
    );
    assert.throws(() => parseQueries('{"query": "x", "skill_ids": ["a"], "not": ["a"]}'), /both in "skill_ids" and in "not"/);
    assert.throws(() => parseQueries('{"query": "x"}'), /"skill_ids" must be an array/, 'a request with neither is still a mistake');
  });

  it('accepts a byte-order mark and CRLF line ends', () => {
    const qs = parseQueries('\uFEFF{"query": "a", "skill_ids": ["x"]}\r\n{"query": "b", "skill_ids": ["y"]}\r\n');
    assert.deepEqual(qs.map((q) => q.query), ['a', 'b']);
  });
});

// A deterministic in-memory library: ranks skills by the number of query words in their
// description, ties by id; skills sharing no word with the query are left out.
function fakeLibrary(skills: { id: string; description: string }[], withRelevance = false): SkillService & { disposed: boolean; routes: number } {
  const docs: SkillDoc[] = skills.map((s) => ({
    id: s.id,
    path: `${s.id}/SKILL.md`,
    name: s.id.split('/').pop()!,
    description: s.description,
    body: '',
    frontMatter: {},
    keyRanges: {},
    bodyStartLine: 3,
    lang: 'en',
    hash: s.id,
    findings: [],
  }));
  const words = (t: string) => new Set(t.toLowerCase().split(/\W+/).filter(Boolean));
  return {
    root: '/fake',
    disposed: false,
    routes: 0,
    async index() {
      return { skills: docs.length, cached: 0, embedded: 0, failed: 0, ms: 1, model: null, denseDisabled: 'fake' };
    },
    pairFindings: async () => [],
    async route(query, opts) {
      this.routes++;
      const q = words(query);
      const scored = docs
        .map((d) => ({ d, score: [...words(d.description)].filter((w) => q.has(w)).length }))
        .filter((x) => x.score > 0)
        .sort((a, b) => b.score - a.score || (a.d.id < b.d.id ? -1 : 1))
        .slice(0, opts?.k ?? 10);
      const result: RouteResult = {
        query,
        candidates: scored.map((x, i) => ({
          skillId: x.d.id,
          name: x.d.name,
          path: x.d.path,
          description: x.d.description,
          rank: i + 1,
          scores: { dense: null, lexical: x.score, fused: x.score, rerank: null, final: x.score },
          passage: null,
        })),
        timings: { embedMs: 0, denseMs: 0, lexicalMs: 0, fuseMs: 0, rerankMs: 0, totalMs: 0 },
        dense: { disabled: 'fake' },
      };
      // With relevance: a skill sharing two words is relevant; no such skill, no skill fits.
      if (withRelevance) {
        result.candidates.forEach((c, i) => (c.relevant = scored[i].score >= 2));
        result.match = result.candidates.some((c) => c.relevant) ? 'strong' : 'none';
      }
      return result;
    },
    skills: () => docs,
    failures: () => [],
    async dispose() {
      this.disposed = true;
    },
  };
}

describe('runEval with a fake library', () => {
  let dir: string;
  let lib: ReturnType<typeof fakeLibrary>;
  const io = () => {
    const out = { stdout: '', stderr: '' };
    return {
      out,
      io: { argv: [], cwd: dir, stdout: (s: string) => void (out.stdout += s), stderr: (s: string) => void (out.stderr += s) },
    };
  };
  const deps = { openLibrary: async () => lib };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sr-eval-'));
    lib = fakeLibrary([
      { id: 'c/pdf', description: 'extract tables from pdf files' },
      { id: 'c/chart', description: 'plot charts from csv tables' },
      { id: 'c/mail', description: 'write an email' },
    ]);
    writeFileSync(
      join(dir, 'q.jsonl'),
      [
        '{"id": "1", "query": "pdf tables", "skill_ids": ["c/pdf"], "direction": "en2en"}',
        '{"id": "2", "query": "csv charts then email", "skill_ids": ["c/chart", "c/mail"], "direction": "en2en"}',
        '{"id": "3", "query": "charts", "skill_ids": ["c/mail"], "also_ok": ["gone/mail"], "direction": "zh2en"}',
      ].join('\n'),
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('counts negatives apart from the metrics: no-skill requests, boundary skills, and positives abstained', async () => {
    lib = fakeLibrary(
      [
        { id: 'c/pdf', description: 'extract tables from pdf files' },
        { id: 'c/chart', description: 'plot charts from csv tables' },
      ],
      true,
    );
    writeFileSync(
      join(dir, 'n.jsonl'),
      [
        '{"id": "p1", "query": "pdf tables", "skill_ids": ["c/pdf"]}',
        '{"id": "p2", "query": "charts", "skill_ids": ["c/chart"]}',
        '{"id": "n1", "query": "explain tcp and udp", "not": []}',
        '{"id": "n2", "query": "pdf files question", "skill_ids": []}',
        '{"id": "b1", "query": "csv tables charts", "skill_ids": ["c/chart"], "not": ["c/pdf"]}',
        // An author's "not a job for c/chart" test: c/pdf may answer it, and does.
        '{"id": "b2", "query": "pdf tables", "not": ["c/chart"]}',
        '{"id": "b3", "query": "csv charts plot", "not": ["c/chart"]}',
      ].join('\n'),
    );
    const { out, io: cli } = io();
    assert.equal(await runEval(['--library', 'lib', '--queries', 'n.jsonl', '--json', '--quiet', '--per-query', 'pq.jsonl'], cli, deps), 0, out.stderr);
    const report = JSON.parse(out.stdout);
    assert.equal(report.n, 3, 'metrics over the three requests that need a skill');
    assert.deepEqual(report.negatives, { n: 5, passed: 3, noSkill: { n: 2, passed: 1 }, boundary: { n: 3, passed: 2 } }, 'a `not` list alone is a boundary test, not a no-skill request');
    assert.equal(report.abstained, 1, '"charts" shares one word only: no skill fits, though it needs one');
    const lines = readFileSync(join(dir, 'pq.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => [l.id, l.negative_held ?? null, l.match]), [['p1', null, 'strong'], ['p2', null, 'none'], ['n1', true, 'none'], ['n2', false, 'strong'], ['b1', true, 'strong'], ['b2', true, 'strong'], ['b3', false, 'strong']]);
    const text = io();
    assert.equal(await runEval(['--library', 'lib', '--queries', 'n.jsonl', '--quiet'], text.io, deps), 0);
    assert.match(text.out.stdout, /negatives: 3 of 5 held \(no skill should answer: 1\/2; named skills kept off the top: 2\/3\)/);
    assert.match(text.out.stdout, /abstained: 1 of 3 requests that need a skill got "no skill fits"/);
  });

  it('prints the documented JSON shape with fractions and disposes the library', async () => {
    const { out, io: cli } = io();
    const code = await runEval(['--library', 'lib', '--queries', 'q.jsonl', '--json', '--quiet', '--per-query', 'pq.jsonl'], cli, deps);
    assert.equal(code, 0, out.stderr);
    const report = JSON.parse(out.stdout);
    assert.deepEqual(Object.keys(report), ['n', 'skills', 'top', 'dense', 'rerank', 'overall', 'byK', 'byDirection', 'view', 'negatives', 'abstained', 'timing']);
    assert.equal(report.n, 3);
    assert.equal(report.top, 20);
    assert.equal(report.dense, null);
    // q1 hit; q2 both in top 2 -> hit; q3 ranks c/chart only -> miss.
    assert.equal(report.overall['hit@1'], 0.6667);
    assert.equal(report.overall.set_compat, 1);
    assert.deepEqual(Object.keys(report.byK), ['1', '2']);
    assert.deepEqual(Object.keys(report.byDirection), ['en2en', 'zh2en']);
    assert.equal(report.byDirection.zh2en['recall@20'], 0);
    assert.deepEqual(Object.keys(report.timing), ['indexMs', 'queryMsP50', 'queryMsP95']);
    assert.match(out.stderr, /1 skill id in q\.jsonl is not in the library and can never be hit \(gone\/mail\)/);
    assert.equal(lib.disposed, true);
    const perQuery = readFileSync(join(dir, 'pq.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(perQuery.length, 3);
    assert.deepEqual(perQuery[2].ranks, { 'c/mail': null, 'gone/mail': null });
    assert.equal(perQuery[1].top[0].id, 'c/chart');
  });

  it('prints a table in text mode, and progress only on a terminal (one line, redrawn)', async () => {
    const tty = io();
    assert.equal(await runEval(['--library', 'lib', '--queries', 'q.jsonl'], withProgressLine({ ...tty.io, isTTY: true }), deps), 0);
    assert.match(tty.out.stderr, /\r\x1b\[Keval: 3\/3 \(100%\)/);
    const { out, io: cli } = io();
    assert.equal(await runEval(['--library', 'lib', '--queries', 'q.jsonl'], withProgressLine(cli), deps), 0);
    assert.doesNotMatch(out.stderr, /eval: \d+\/3/, 'no progress off a terminal');
    assert.match(out.stdout, /^3 queries, 3 skills, top 20, dense off, rerank off\n\n\| group/);
    assert.match(out.stdout, /\| overall \| 3 \| +66\.7 \|/);
    assert.match(out.stdout, /\ntiming: index [\d.]+ ms, query p50 [\d.]+ ms, p95 [\d.]+ ms\n$/);
  });

  it('exits 2 on bad arguments, unreadable or invalid files, without opening the library twice', async () => {
    const cases: [string[], RegExp][] = [
      [['--queries', 'q.jsonl'], /eval needs --library/],
      [['--library', 'lib'], /eval needs --queries/],
      [['--library', 'lib', '--queries', 'missing.jsonl'], /cannot read queries file .*missing\.jsonl: ENOENT/],
      [['--library', 'lib', '--queries', 'q.jsonl', '--top', '0'], /--top must be a positive integer/],
      [['--library', 'lib', '--queries', 'q.jsonl', '--bogus'], /Unknown option '--bogus'[\s\S]*--help/],
      [['--library', 'lib', '--queries', 'q.jsonl', '--model', 'm', '--no-model'], /exclude each other/],
      [['--library', 'lib', '--queries', 'bad.jsonl'], /bad\.jsonl:1: "skill_ids" must be an array/],
    ];
    writeFileSync(join(dir, 'bad.jsonl'), '{"query": "x"}\n');
    for (const [args, message] of cases) {
      const { out, io: cli } = io();
      assert.equal(await runEval(args, cli, deps), 2, args.join(' '));
      assert.match(out.stderr, message);
      assert.equal(out.stdout, '');
    }
    assert.equal(lib.routes, 0);
  });

  it('exits 2 when the engine fails', async () => {
    const { out, io: cli } = io();
    const failing = { openLibrary: async () => Promise.reject(new Error('model file is corrupt')) };
    assert.equal(await runEval(['--library', 'lib', '--queries', 'q.jsonl'], cli, failing), 2);
    assert.match(out.stderr, /skill-router eval: model file is corrupt/);
  });
});
