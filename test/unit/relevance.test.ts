import { strict as assert } from 'node:assert';
import { excludedFacets, excludes, splitNegated } from '../../src/core/analysis/facets';
import { BackgroundFrequencies, blendedIdf } from '../../src/core/index/background';
import { applyExclusions, MEMBER_RELEVANCE_SHARE, setOf } from '../../src/core/route/pipeline';
import { aloneRows, matchOf, OFF_TOPIC_COSINE, offTopic, RELEVANCE_FEATURES, relevanceOf, relevanceRows, type RelevanceWeights } from '../../src/core/route/relevance';
import { trainRelevance, type RelevanceList } from '../../src/core/route/relevanceTraining';
import { POINT, POINT_FEATURES, type ListFeatures } from '../../src/core/route/rerankFeatures';
import { prng } from '../../src/core/route/rerankTraining';
import { createSkillService } from '../../src/core/route/skillService';
import { FakeEmbedder, MemoryWorkspace, skill } from '../helpers/fakes';

/** Point-feature rows with the named columns set. */
function list(rows: Partial<Record<(typeof POINT_FEATURES)[number], number>>[]): ListFeatures {
  return {
    ids: rows.map((_, i) => `s${i}`),
    point: rows.map((r) => POINT_FEATURES.map((name) => r[name] ?? 0)),
    pairs: [],
    covers: rows.map(() => []),
    termWeights: [1],
    requestFacets: {},
    facets: rows.map(() => ({})),
    libraryCoverage: 1,
  };
}

describe('calibrated relevance', () => {
  it('calls a candidate off topic only with nothing of the request in its name, description or headings, no shared term, and a far cosine', () => {
    const row = (r: Parameters<typeof list>[0][number]) => list([r]).point[0];
    const bodyOnly = row({ requestInBody: 1, requestInBestPassage: 0.5 });
    assert.equal(offTopic(bodyOnly, -0.03), true, 'a body mention and a far cosine');
    assert.equal(offTopic(bodyOnly, OFF_TOPIC_COSINE), false, 'close enough in meaning');
    assert.equal(offTopic(bodyOnly, null), false, 'never without the encoder: words alone cannot tell a paraphrase');
    assert.equal(offTopic(row({ requestInNameDescription: 0.1 }), 0), false, 'a request word in its description');
    assert.equal(offTopic(row({ requestInHeadings: 0.2 }), 0), false, 'a request word in a heading');
    assert.equal(offTopic(row({ tfidfCosine: 0.01 }), 0), false, 'a term in common');
  });

  it("rows describe the best candidate, and a candidate's gap below it", () => {
    const lf = list([{ requestInNameDescription: 0.2 }, { requestInNameDescription: 0.9, dense: 0.7 }, {}]);
    const rows = relevanceRows(lf, [0.2, 0.7, 0.1]);
    const col = (name: (typeof RELEVANCE_FEATURES)[number]) => RELEVANCE_FEATURES.indexOf(name);
    assert.equal(rows[1][col('gap')], 0, 'the best has no gap');
    assert.ok(Math.abs(rows[0][col('gap')] - Math.log(0.2 / 0.7)) < 1e-12);
    for (const r of rows) assert.equal(r[col('bestNameDescription')], 0.9, 'every row reads the best candidate');
    assert.equal(rows[2][col('bestDense')], 0.7);
  });

  it("rows 'alone' read each candidate's own text, with no gap and the request's peak", () => {
    const lf = list([{ requestInNameDescription: 0.2 }, { requestInNameDescription: 0.9, dense: 0.7 }, { requestInNameDescription: 0.85, dense: 0.6 }]);
    const probs = [0.001, 0.998, 0.001];
    const rows = aloneRows(lf, probs);
    const col = (name: (typeof RELEVANCE_FEATURES)[number]) => RELEVANCE_FEATURES.indexOf(name);
    assert.deepEqual(rows.map((r) => r[col('bestNameDescription')]), [0.2, 0.9, 0.85]);
    assert.deepEqual(rows.map((r) => r[col('gap')]), [0, 0, 0]);
    assert.deepEqual(rows.map((r) => r[col('bestProbability')]), [0.998, 0.998, 0.998]);
    // A twin the softmax left almost nothing to is relevant on its own text; the third is not.
    const w: RelevanceWeights = { mean: RELEVANCE_FEATURES.map(() => 0), std: RELEVANCE_FEATURES.map(() => 1), weights: RELEVANCE_FEATURES.map((n) => (n === 'gap' ? 1 : n === 'bestNameDescription' ? 10 : 0)), bias: -5 };
    const inOrder = relevanceOf(w, relevanceRows(lf, probs));
    const alone = relevanceOf(w, rows);
    assert.ok(inOrder[2] < 0.1 && alone[2] > 0.9, `twin: ${inOrder[2]} in order, ${alone[2]} alone`);
    assert.ok(alone[0] < 0.1);
  });

  it('weighted lists count for more in the fit', () => {
    // Two kinds of positives disagree on a feature; the weighted kind decides its sign.
    const lists = (weightA: number): RelevanceList[] =>
      Array.from({ length: 80 }, (_, i) => {
        const kind = i % 4;
        // kind 0: positive with high dense; 1: positive with low dense; 2, 3: negatives in between.
        const dense = kind === 0 ? 0.9 : kind === 1 ? 0.1 : 0.5;
        return { rows: relevanceRows(list([{ dense }]), [1]), labels: [kind < 2], negative: kind >= 2, weight: kind === 0 ? weightA : 1 };
      });
    const denseWeight = (weightA: number) => trainRelevance(lists(weightA)).weights[RELEVANCE_FEATURES.indexOf('bestDense')];
    assert.ok(denseWeight(5) > 0 && denseWeight(0.2) < 0, `${denseWeight(5)} ${denseWeight(0.2)}`);
  });

  it('relevance follows the reranker within a request when the gap weight is positive', () => {
    const w: RelevanceWeights = { mean: RELEVANCE_FEATURES.map(() => 0), std: RELEVANCE_FEATURES.map(() => 1), weights: RELEVANCE_FEATURES.map((n) => (n === 'gap' ? 1 : 0.5)), bias: 0 };
    const probs = [0.1, 0.6, 0.3];
    const r = relevanceOf(w, relevanceRows(list([{}, {}, {}]), probs));
    assert.deepEqual([0, 1, 2].sort((a, b) => r[b] - r[a]), [1, 2, 0]);
    assert.equal(matchOf(undefined, { floor: 0.1, strong: 0.5 }), 'none');
    assert.equal(matchOf(0.05, { floor: 0.1, strong: 0.5 }), 'none');
    assert.equal(matchOf(0.3, { floor: 0.1, strong: 0.5 }), 'weak');
    assert.equal(matchOf(0.5, { floor: 0.1, strong: 0.5 }), 'strong');
  });

  it('training separates lists whose best is needed from negatives, and keeps the gap weight >= 0', () => {
    const rand = prng(5);
    const lists: RelevanceList[] = [];
    for (let i = 0; i < 200; i++) {
      const negative = i % 2 === 1;
      // Positives: the best covers much of the request; negatives: little.
      const cover = negative ? 0.1 * rand() : 0.5 + 0.4 * rand();
      const lf = list([{ requestInNameDescription: cover, dense: 0.5 + 0.2 * rand() }, { requestInNameDescription: cover * 0.5 }, {}]);
      const probs = [0.6, 0.3, 0.1];
      lists.push({ rows: relevanceRows(lf, probs), labels: negative ? [false, false, false] : [true, false, false], negative });
    }
    const w = trainRelevance(lists);
    assert.ok(w.weights[RELEVANCE_FEATURES.indexOf('gap')] >= 0);
    const best = (l: RelevanceList) => Math.max(...relevanceOf(w, l.rows));
    const pos = lists.filter((l) => !l.negative).map(best);
    const neg = lists.filter((l) => l.negative).map(best);
    assert.ok(Math.min(...pos) > Math.max(...neg), `positives ${Math.min(...pos)} above negatives ${Math.max(...neg)}`);
  });
});

describe('the set agrees with relevance', () => {
  const selection = { order: [0, 1, 2, 3], members: [0, 1, 2], size: 3, rejected: [{ index: 3, partner: 2, reason: 'function_redundant' as const, evidence: 'same job' }] };
  const ids = ['first', 'close', 'far', 'twin'];

  it('keeps a further member only when it is relevant and near the first in relevance', () => {
    const set = setOf(selection, ids, [0.8, 0.8 * MEMBER_RELEVANCE_SHARE + 0.01, 0.8 * MEMBER_RELEVANCE_SHARE - 0.01, 0.02], 'strong', 0.01);
    assert.deepEqual(set?.ids, ['first', 'close']);
    assert.deepEqual(set?.rejected, [], 'nothing is set aside for a skill that left the set');
  });

  it('has one member for a one-skill answer and none when no skill fits', () => {
    assert.deepEqual(setOf(selection, ids, [0.39, 0.118, 0.016, 0.01], 'weak', 0.01)?.ids, ['first']);
    assert.equal(setOf(selection, ids, [0.005, 0.004, 0.003, 0.002], 'none', 0.01), null);
  });
});

describe("authors' exclusions", () => {
  it('reads what a description says it is not for, apart from what it is for', () => {
    const text = 'Detects .NET intent for C# and ASP.NET Core work. Do not use for clearly non-.NET tasks (Python, JavaScript, Go).';
    assert.match(splitNegated(text).negated, /Python, JavaScript, Go/);
    assert.deepEqual(excludedFacets(text), { language: ['go', 'javascript', 'python'] });
    assert.deepEqual(excludedFacets('Python data pipelines. Not for Java services.'), { language: ['java'] });
    assert.deepEqual(excludedFacets('Build Python and Go services. Not for Go generics.'), {}, 'a value the skill also claims is not excluded');
    assert.ok(excludes({ language: ['python'] }, { language: ['python'] }));
    assert.ok(!excludes({ language: ['python'] }, { language: ['dotnet'] }));
  });

  it('lowers excluded candidates, keeping probabilities a distribution', () => {
    const lf = list([{ requestExcluded: 1 }, {}, {}]);
    const out = applyExclusions([0.7, 0.2, 0.1], lf);
    assert.ok(out[0] < out[2] && out[1] > out[2]);
    assert.ok(Math.abs(out.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    assert.deepEqual(applyExclusions([2, 1], list([{}, {}])), [2, 1], 'nothing excluded: unchanged');
    assert.deepEqual(applyExclusions([0.9, 0.5], list([{ requestExcluded: 1 }, {}])).map((x) => Number(x.toFixed(6))), [0.00009, 0.5], 'sigmoid scores are not renormalised');
  });

  it('lowers a skill for another stack, or one a general question rules out, as an exclusion', () => {
    const lf = { ...list([{}, {}, {}]), otherStack: [null, 'python (the request names rust)', null] };
    const out = applyExclusions([0.2, 0.7, 0.1], lf);
    assert.ok(out[1] < out[2] && out[0] > out[2], `${out}`);
    const gq = { ...list([{}, {}]), generalQuestion: [true, false] };
    const g = applyExclusions([0.9, 0.1], gq);
    assert.ok(g[0] < g[1], `${g}`);
  });

  it('gives the others the list as if an excluded candidate that held nearly all the mass were not there', () => {
    const out = applyExclusions([0.999999, 0.0000006, 0.0000004], list([{ requestExcluded: 1 }, {}, {}]));
    assert.ok(Math.abs(out.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    assert.ok(Math.abs(out[1] / out[2] - 1.5) < 1e-9, 'the others keep their ratio');
    assert.ok(out[1] > 0.59 && out[2] > 0.39, `the others share what the excluded held: ${out}`);
    assert.ok(out[0] < out[2], 'the excluded stays below');
    const all = applyExclusions([0.6, 0.4], list([{ requestExcluded: 1 }, { requestExcluded: 1 }]));
    assert.deepEqual(all.map((x) => Number(x.toFixed(6))), [0.6, 0.4], 'every candidate excluded: the order and shares stay');
  });

  it('routes a request for one language away from a skill that says it is for another', async () => {
    const files = new Map([
      ['atheris/SKILL.md', skill('atheris', 'Atheris is a coverage-guided Python fuzzer. Write fuzzing harnesses, seed corpora and triage crashes.')],
      ['rust-crates/SKILL.md', skill('rust-crates', 'Maintain Rust crates with cargo: workspaces, clippy lints, fuzzing setup and releases.')],
    ]);
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder: new FakeEmbedder() });
    await svc.index();
    const r = await svc.route('write fuzzing harnesses and triage crashes for my Rust crate', { k: 2, passages: false });
    const py = r.candidates.find((c) => c.skillId === 'atheris')!;
    assert.equal(py.notRelevant, 'other-stack');
    assert.equal(py.otherStack, 'python (the request names rust)');
    assert.equal(py.relevant, false);
    assert.equal(r.candidates[0].skillId, 'rust-crates');
    assert.deepEqual(r.set?.ids, ['rust-crates'], 'the set is led by the skill shown first, never by one ruled out');
  });

  it('never calls a twin relevant beside a member when a rule gave it relevance 0', async () => {
    const text = 'Clean messy CSV exports: fix encodings, trim whitespace, normalise dates and drop duplicate rows.';
    const files = new Map([
      ['csv-cleaner/SKILL.md', skill('csv-cleaner', text)],
      ['csv-tidy/SKILL.md', skill('csv-tidy', `${text} Not for Excel workbooks.`)],
      ['haiku-poet/SKILL.md', skill('haiku-poet', 'Write haiku poems about nature and the seasons.')],
    ]);
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder: new FakeEmbedder() });
    await svc.index();
    const r = await svc.route('clean the CSV export of my Excel workbooks: fix encodings and drop duplicate rows', { k: 3, passages: false });
    const twin = r.candidates.find((c) => c.skillId === 'csv-tidy')!;
    assert.equal(r.candidates[0].skillId, 'csv-cleaner');
    assert.equal(twin.notRelevant, 'excluded', 'its "not for" clause names what the request asks for');
    assert.equal(twin.setAsideFor?.id, 'csv-cleaner', 'set aside for the member it duplicates');
    assert.equal(twin.setAsideFor?.reason, 'function_redundant');
    assert.equal(twin.relevant, false, 'a twin of a member is relevant, unless a rule ruled it out');
  });

  it('routes a request away from the skill whose author excluded what it names', async () => {
    const files = new Map([
      ['using-dotnet/SKILL.md', skill('using-dotnet', 'Detects .NET intent for any C#, ASP.NET Core or REST API request. Do not use for clearly non-.NET tasks (Python, JavaScript, Go).')],
      ['api-design/SKILL.md', skill('api-design', 'Design REST API endpoints: resources, pagination, errors.')],
    ]);
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder: new FakeEmbedder() });
    await svc.index();
    const r = await svc.route('Write me a Python Flask REST API for a book library', { k: 2, passages: false });
    assert.equal(r.candidates[0].skillId, 'api-design');
    const dotnet = r.candidates.find((c) => c.skillId === 'using-dotnet')!;
    assert.equal(dotnet.relevant, false, 'the excluded skill is not relevant');
    assert.ok(POINT.requestExcluded >= 0);
  });
});

describe('background term statistics', () => {
  it('a count-min sketch never reads back less than a term was counted, and round-trips its file form', () => {
    const counts: [string, number][] = Array.from({ length: 3000 }, (_, i) => [`term${i}`, 1 + (i % 40)]);
    const sketch = BackgroundFrequencies.build(counts, 2817, { rows: 2, bits: 10 });
    for (const [t, n] of counts) assert.ok(sketch.df(t) >= n, t);
    const back = BackgroundFrequencies.decode(sketch.encode());
    assert.equal(back.size, 2817);
    for (const [t] of counts.slice(0, 50)) assert.equal(back.df(t), sketch.df(t));
    assert.throws(() => BackgroundFrequencies.decode(new Uint8Array([1, 2, 3])), /not an SRBG file/);
    assert.throws(() => BackgroundFrequencies.decode(sketch.encode().slice(0, 100)), /truncated or malformed/);
  });

  it('blends idf geometrically: a library-wide word stays uninformative, a rare word keeps its weight', () => {
    const bg = BackgroundFrequencies.build([['blazor', 5], ['build', 1500], ['dotnet', 30]], 3000, { rows: 2, bits: 8 });
    const prior = { frequencies: bg, weight: 0.5 };
    const idf = (df: number, n: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const own = (t: string, df: number) => blendedIdf(t, df, 9, null, idf);
    const blended = (t: string, df: number) => blendedIdf(t, df, 9, prior, idf);
    assert.equal(own('blazor', 4), idf(4, 9), 'no background: the library alone');
    assert.ok(blended('blazor', 4) > own('blazor', 4), 'a rare word in 4 of 9 skills gains');
    assert.ok(blended('blazor', 4) > 2 * blended('build', 4), 'and weighs more than a common word with the same library count');
    assert.ok(blended('dotnet', 9) < blended('blazor', 4), 'a word in every skill of the library stays below');
    assert.equal(blendedIdf('x', 3, 9, { frequencies: bg, weight: 0 }, idf), idf(3, 9));
  });
});
