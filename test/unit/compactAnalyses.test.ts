// A batch of analyses (a cold index, a branch switch) is kept compact as it is made: term ids
// over one table shared by the batch, frequencies as bytes (`TermTable`), so the engine never
// holds a large library's fresh analyses together; it routes as with fresh analyses.
import { strict as assert } from 'node:assert';
import type { AnalysisCache, SkillAnalysis } from '../../src/core/index/caches';
import { countTerms, FIELDS } from '../../src/core/index/lexicalIndex';
import { TableCounts, termAt, termCount, TermTable } from '../../src/core/index/termTable';
import { createSkillService } from '../../src/core/route/skillService';
import { MemoryWorkspace, skill } from '../helpers/fakes';

/** An analysis cache that remembers what it was given and counts its compactions. */
class RecordingCache implements AnalysisCache {
  readonly map = new Map<string, SkillAnalysis>();
  compactions = 0;
  get(key: string) {
    return this.map.get(key);
  }
  set(key: string, a: SkillAnalysis) {
    this.map.set(key, a);
  }
  async flush(keep: Set<string>) {
    for (const k of [...this.map.keys()]) if (!keep.has(k)) this.map.delete(k);
  }
  async compact() {
    this.compactions++;
  }
}

const TOPICS = ['pdf tables', 'csv rows', 'kubernetes deploys', 'sql indexes', 'npm packages', 'chart colours', 'email replies', 'image resizing'];

function library(n: number): Map<string, string> {
  const files = new Map<string, string>();
  for (let i = 0; i < n; i++) {
    const topic = TOPICS[i % TOPICS.length];
    files.set(`s${i}/SKILL.md`, skill(`s${i}`, `Handle ${topic} for team ${i}. Use when working on ${topic}.`, `# ${topic}\n\nStep ${i}: ${topic} ${topic}.`));
  }
  return files;
}

const route = async (s: ReturnType<typeof createSkillService>, q: string) => (await s.route(q, { k: 5 })).candidates.map((c) => [c.skillId, c.scores.final]);
const REQUESTS = ['resize these images for the web', 'add an index to a slow sql query', 'reply to this email politely'];

describe('engine: a batch of analyses kept compact', () => {
  it('a cold index keeps every analysis over one shared table, with no snapshot read back', async () => {
    const cache = new RecordingCache();
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library(520)), embedder: null, analysisCache: cache });
    await svc.index();
    assert.equal(cache.map.size, 520);
    const tables = new Set([...cache.map.values()].map((a) => (a.counts instanceof TableCounts ? a.counts.table : null)));
    assert.equal(tables.size, 1, 'one table for the batch');
    assert.ok([...tables][0] !== null, 'every analysis is compact');
    assert.equal(cache.compactions, 0, 'nothing fresh left to read back compact');
  });

  it('routes exactly as an index of the same skills analysed one at a time (fresh analyses)', async () => {
    const files = library(40);
    const cold = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder: null, analysisCache: new RecordingCache() });
    await cold.index();
    const oneByOne = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(new Map()), embedder: null, analysisCache: new RecordingCache() });
    await oneByOne.index();
    for (const [p, text] of files) await oneByOne.updateFile({ id: p.split('/')[0], path: p, folderName: p.split('/')[0] }, new TextEncoder().encode(text));
    for (const q of REQUESTS) assert.deepEqual(await route(cold, q), await route(oneByOne, q), q);
    assert.deepEqual(cold.skills().map((d) => d.id).sort(), oneByOne.skills().map((d) => d.id).sort());
  });
});

describe('TermTable', () => {
  const analysis = (i: number): SkillAnalysis => {
    const words = Array.from({ length: 1 + (i % 37) }, (_, j) => `w${(i * 7 + j) % 300}`);
    const counts = countTerms({ name: [`s${i}`], description: words, headings: [], body: [...words, ...words.slice(0, 3)] });
    return { counts, feedback: [`s${i}`, ...words], ...(i % 2 ? { profile: words.slice(0, 4) } : {}) };
  };

  it('keeps terms, lengths, frequencies, feedback and profile of each analysis, across pooled blocks', () => {
    const table = new TermTable();
    const made = Array.from({ length: 20_000 }, (_, i) => analysis(i));
    const kept = made.map((a) => table.compact(a));
    made.forEach((a, i) => {
      const k = kept[i];
      assert.equal(termCount(k.counts), a.counts.terms.length);
      for (let t = 0; t < a.counts.terms.length; t++) assert.equal(termAt(k.counts, t), a.counts.terms[t]);
      assert.deepEqual(Array.from(k.counts.tf), Array.from(a.counts.tf), `frequencies of ${i}`);
      assert.deepEqual(k.counts.lengths, a.counts.lengths);
      assert.deepEqual(k.feedback, a.feedback);
      assert.deepEqual(k.profile, a.profile);
    });
    assert.ok(table.terms.length <= 300 + 20_000, 'one entry per distinct term');
    assert.equal(new Set(table.terms).size, table.terms.length);
  });

  it('keeps frequencies over 255 exactly', () => {
    const many = Array.from({ length: 300 }, () => 'again');
    const a = { counts: countTerms({ name: [], description: [], headings: [], body: many }), feedback: [] };
    const k = new TermTable().compact(a);
    assert.ok(k.counts.tf instanceof Uint32Array);
    assert.equal(k.counts.tf[FIELDS.indexOf('body')], 300);
  });
});
