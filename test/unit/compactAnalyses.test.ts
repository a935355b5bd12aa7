// After an index that analysed many skills (a cold one, a branch switch), the engine has the
// analysis snapshot read back compact: once per such index, not after a warm one, and the
// library routes the same afterwards.
import { strict as assert } from 'node:assert';
import type { AnalysisCache, SkillAnalysis } from '../../src/core/index/caches';
import { createSkillService } from '../../src/core/route/skillService';
import { MemoryWorkspace, skill } from '../helpers/fakes';

/** An analysis cache that remembers what it was given, and whose compaction hands back copies. */
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
    for (const [k, a] of this.map) this.map.set(k, { ...a, feedback: [...a.feedback], ...(a.profile ? { profile: [...a.profile] } : {}) });
  }
}

const TOPICS = ['pdf tables', 'csv rows', 'kubernetes deploys', 'sql indexes', 'npm packages', 'chart colours', 'email replies', 'image resizing'];

function library(n: number): Map<string, string> {
  const files = new Map<string, string>();
  for (let i = 0; i < n; i++) {
    const topic = TOPICS[i % TOPICS.length];
    files.set(`lib/s${i}/SKILL.md`, skill(`s${i}`, `Handle ${topic} for team ${i}. Use when working on ${topic}.`, `# ${topic}\n\nStep ${i}.`));
  }
  return files;
}

describe('engine: compact analyses after a large index', () => {
  it('compacts once after analysing 500 or more skills, not after a warm index, and routes the same', async () => {
    const cache = new RecordingCache();
    const files = library(520);
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder: null, analysisCache: cache });
    await svc.index();
    assert.equal(cache.compactions, 1);
    const route = async (s: typeof svc) => (await s.route('resize these images for the web', { k: 5 })).candidates.map((c) => [c.skillId, c.scores.final]);
    const before = await route(svc);
    const warm = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder: null, analysisCache: cache });
    await warm.index();
    assert.equal(cache.compactions, 1, 'every analysis came from the cache: nothing to compact');
    assert.deepEqual(await route(warm), before);
    const small = new RecordingCache();
    await createSkillService({ root: '/lib', workspace: new MemoryWorkspace(library(40)), embedder: null, analysisCache: small }).index();
    assert.equal(small.compactions, 0, 'a small index keeps what it analysed');
  });
});
