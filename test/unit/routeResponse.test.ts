/** How the route answers of several workspace folders meet in one `skillRouter/route` response. */
import { strict as assert } from 'node:assert';
import type { RouteCandidate, RouteResult } from '../../src/core/service';
import { routeResponse, type FolderRanking } from '../../src/server/routeResponse';

const timings = (ms: number) => ({ embedMs: ms, denseMs: ms, lexicalMs: ms, fuseMs: ms, rerankMs: ms, totalMs: ms });

function candidate(skillId: string, rank: number, final: number): RouteCandidate {
  return {
    skillId,
    name: skillId,
    path: `${skillId}/SKILL.md`,
    description: `About ${skillId}.`,
    rank,
    scores: { dense: null, lexical: final, fused: final, rerank: null, final },
    passage: null,
  };
}

function ranking(folder: string, finals: [string, number][], extra: Partial<RouteResult> = {}): FolderRanking {
  return {
    folder,
    result: { query: 'q', candidates: finals.map(([id, f], i) => candidate(id, i + 1, f)), timings: timings(1), dense: { disabled: 'no model' }, ...extra },
    uriOf: (relPath) => `${folder}/${relPath}`,
  };
}

describe('routeResponse', () => {
  it('merges folders by final score, renumbers the ranks and keeps the top k', () => {
    const r = routeResponse('q', 3, [ranking('file:///a', [['a1', 0.9], ['a2', 0.4]]), ranking('file:///b', [['b1', 0.7], ['b2', 0.5]])]);
    assert.deepEqual(r.results.map((x) => [x.rank, x.skillId, x.folder]), [[1, 'a1', 'file:///a'], [2, 'b1', 'file:///b'], [3, 'b2', 'file:///b']]);
    assert.equal(r.results[1].uri, 'file:///b/b1/SKILL.md');
    assert.deepEqual(r.timings, timings(2), 'timings add up over folders');
  });

  it('one folder keeps its own order, even where final scores disagree with it (set selection reorders)', () => {
    const r = routeResponse('q', 10, [ranking('file:///a', [['a1', 0.5], ['a2', 0.9]])]);
    assert.deepEqual(r.results.map((x) => x.skillId), ['a1', 'a2']);
    // A second folder asked but gone meanwhile still makes it a merge by score.
    const merged = routeResponse('q', 10, [ranking('file:///a', [['a1', 0.5], ['a2', 0.9]])], 2);
    assert.deepEqual(merged.results.map((x) => x.skillId), ['a2', 'a1']);
  });

  it('takes the set of the top result\'s folder, and the first folder\'s reading of a Chinese request', () => {
    const set = (id: string) => ({ ids: [id], size: 1, rejected: [] });
    const r = routeResponse('q', 2, [
      ranking('file:///a', [['a1', 0.3]], { set: set('a1'), readAs: 'invoice tables', declined: ['do not deploy'] }),
      ranking('file:///b', [['b1', 0.8]], { set: set('b1'), readAs: 'other' }),
    ]);
    assert.deepEqual(r.set, set('b1'));
    assert.equal(r.readAs, 'invoice tables');
    assert.deepEqual(r.declined, ['do not deploy']);
    const none = routeResponse('q', 2, []);
    assert.deepEqual(none.results, []);
    assert.deepEqual(none.dense, { disabled: 'no library' });
    assert.ok(!('set' in none) && !('readAs' in none) && !('declined' in none));
  });
});

describe('routeResponse: the calibrated relevance', () => {
  it('forwards each result\'s relevant and the match; across folders the best match, unknown if any folder is', () => {
    const judged = ranking('file:///a', [['a1', 0.9], ['a2', 0.2]], { match: 'weak' });
    judged.result.candidates[0].relevant = true;
    judged.result.candidates[1].relevant = false;
    const r = routeResponse('q', 10, [judged]);
    assert.deepEqual(r.results.map((x) => x.relevant), [true, false]);
    assert.equal(r.match, 'weak');
    assert.equal(routeResponse('q', 10, [judged, ranking('file:///b', [['b1', 0.5]], { match: 'strong' })]).match, 'strong');
    assert.equal(routeResponse('q', 10, [ranking('file:///c', [['c1', 0.1]], { match: 'none' }), ranking('file:///d', [['d1', 0.1]], { match: 'none' })]).match, 'none');
    const unjudged = routeResponse('q', 10, [judged, ranking('file:///b', [['b1', 0.5]])]);
    assert.equal(unjudged.match, undefined);
    assert.equal('relevant' in unjudged.results.find((x) => x.skillId === 'b1')!, false, 'absent stays absent');
  });

  it('forwards why a result has relevance 0 by rule, with the author\'s "not for" item', () => {
    const judged = ranking('file:///a', [['a1', 0.9], ['a2', 0], ['a3', 0]], { match: 'strong' });
    Object.assign(judged.result.candidates[1], { relevant: false, notRelevant: 'excluded', notFor: 'active penetration testing' });
    Object.assign(judged.result.candidates[2], { relevant: false, notRelevant: 'off-topic' });
    const r = routeResponse('q', 10, [judged]);
    assert.deepEqual(r.results.map((x) => [x.notRelevant, x.notFor]), [[undefined, undefined], ['excluded', 'active penetration testing'], ['off-topic', undefined]]);
    assert.equal('notRelevant' in r.results[0], false);
  });
});
