/** The query panel's pure parts: message validation, the host's mapping, the webview's state rules. */
import { strict as assert } from 'node:assert';
import { locateActive, toPanelSet, toRouteSummary } from '../../src/client/panelRouting';
import type { RouteItem, RouteResponse } from '../../src/shared/protocol';
import {
  ACTIVE_RANK_DEPTH,
  isHostMessage,
  isRoutingTestEntry,
  isRouteSummary,
  isWebviewMessage,
  MAX_HISTORY,
  pushHistory,
  skillLabel,
  type RouteSummary,
} from '../../src/shared/webviewProtocol';
import { highlightSegments } from '../../src/webview/highlight';
import { defaultExpectation, initialState, readStored, testEntry, toggleExpectation, toStored } from '../../src/webview/state';

function item(rank: number, id: string, over: Partial<RouteItem> = {}): RouteItem {
  return {
    rank,
    uri: `file:///ws/${id}/SKILL.md`,
    folder: 'file:///ws',
    skillId: id,
    name: id,
    description: `${id} does things`,
    scores: { dense: 0.5, lexical: 0.4, fused: 0.45, rerank: 0.6, final: 0.6 },
    passage: { field: 'body', text: 'Extract the tables', heading: 'Tables', line: 9, matchedTerms: ['Extract', 'tables'] },
    ...over,
  };
}

function response(ids: string[], set?: unknown): Omit<RouteResponse, 'set'> & { set?: unknown } {
  return {
    query: 'extract tables',
    results: ids.map((id, i) => item(i + 1, id)),
    dense: { model: 'm@1' },
    timings: { embedMs: 1, denseMs: 1, lexicalMs: 1, fuseMs: 1, rerankMs: 1, totalMs: 5 },
    ...(set !== undefined ? { set } : {}),
  };
}

const summaryOf = (ids: string[], k = 10, set?: unknown): RouteSummary =>
  toRouteSummary(response(ids, set), 1, k, (i) => i.skillId, (u) => u);

describe('webview protocol', () => {
  it('accepts each well-formed message and rejects near misses', () => {
    assert.ok(isWebviewMessage({ type: 'ready' }));
    assert.ok(isWebviewMessage({ type: 'route', requestId: 3, query: 'q', k: 10 }));
    assert.ok(isWebviewMessage({ type: 'open', uri: 'file:///a/SKILL.md', line: 4 }));
    assert.ok(isWebviewMessage({ type: 'persist', snapshot: { query: '', k: 5, profile: 'codex', history: ['a'] } }));
    for (const bad of [
      null, 'ready', {}, { type: 'ready', extra: 1 }, { type: 'route', requestId: 0, query: 'q', k: 10 },
      { type: 'route', requestId: 1, query: '   ', k: 10 }, { type: 'route', requestId: 1, query: 'q', k: 51 },
      { type: 'route', requestId: 1, query: 'x'.repeat(2001), k: 10 }, { type: 'route', requestId: 1.5, query: 'q', k: 10 },
      { type: 'open', uri: '' }, { type: 'open', uri: 'u', line: -1 }, { type: 'toString' }, { type: '__proto__' },
      { type: 'persist', snapshot: { query: '', k: 5, profile: 'vim', history: [] } },
      { type: 'persist', snapshot: { query: '', k: 5, profile: 'spec', history: Array(MAX_HISTORY + 1).fill('q') } },
    ]) {
      assert.equal(isWebviewMessage(bad), false, JSON.stringify(bad));
    }
  });

  it('checks saved routing tests by the rules of the tests file', () => {
    assert.ok(isRoutingTestEntry({ query: 'q', expect: ['a'] }));
    assert.ok(isRoutingTestEntry({ query: 'q', expect: [], notExpect: ['a'] }));
    assert.ok(isRoutingTestEntry({ query: 'q', expect: ['a', 'b'], set: true, top: 2 }));
    assert.equal(isRoutingTestEntry({ query: 'q', expect: [] }), false, 'nothing to check');
    assert.equal(isRoutingTestEntry({ query: 'q', expect: [], notExpect: ['a'], set: true }), false, 'set needs expect');
    assert.equal(isRoutingTestEntry({ query: 'q', expect: ['a'], top: 0 }), false);
    assert.equal(isRoutingTestEntry({ query: 'q', expect: [''] }), false);
    assert.equal(isWebviewMessage({ type: 'saveTest', test: { query: 'q', expect: ['a'] } }), true);
  });

  it('accepts host messages only when results are coherent', () => {
    const s = summaryOf(['a', 'b']);
    assert.ok(isHostMessage({ type: 'results', active: null, ...s }));
    assert.equal(isHostMessage({ type: 'results', active: null, ...s, k: 1 }), false, 'more results than K');
    assert.equal(isHostMessage({ type: 'results', active: null, ...s, results: [s.results[1], s.results[0]] }), false, 'ranks out of order');
    assert.ok(isHostMessage({ type: 'init', profiles: ['spec'], k: 10, restore: { query: 'q', k: 3, profile: 'spec', history: [], last: s }, active: null }));
    assert.equal(isHostMessage({ type: 'init', profiles: [], k: 10, restore: null, active: null }), false);
    assert.equal(isHostMessage({ type: 'init', profiles: ['spec'], k: 10, restore: { query: 'q', k: 3, profile: 'spec', history: [] }, active: null }), false);
    assert.ok(isHostMessage({ type: 'active', active: { uri: 'u', name: 'n', folder: 'f', rank: null, depth: 50 } }));
    assert.ok(isHostMessage({ type: 'run', query: 'q' }));
    assert.equal(isHostMessage({ type: 'route', requestId: 1, query: 'q', k: 1 }), false, 'a webview message is not a host message');
  });

  it('keeps history most recent first, without duplicates, capped', () => {
    assert.deepEqual(pushHistory(['b', 'a'], ' a '), ['a', 'b']);
    assert.deepEqual(pushHistory(['a'], '  '), ['a']);
    const long = Array.from({ length: MAX_HISTORY }, (_, i) => `q${i}`);
    assert.equal(pushHistory(long, 'new').length, MAX_HISTORY);
    assert.equal(pushHistory(long, 'new')[0], 'new');
  });
});

describe('query panel host mapping', () => {
  it('maps a route answer to the panel shape, at most K results, URIs normalised', () => {
    const s = toRouteSummary(response(['a', 'b', 'c']), 7, 2, (i) => `ws/${i.skillId}`, (u) => u.toUpperCase());
    assert.ok(isRouteSummary(s));
    assert.equal(s.requestId, 7);
    assert.deepEqual(s.results.map((r) => [r.rank, r.folder, r.uri]), [[1, 'ws/a', 'FILE:///WS/A/SKILL.MD'], [2, 'ws/b', 'FILE:///WS/B/SKILL.MD']]);
    assert.deepEqual(s.results[0].passage, { field: 'body', text: 'Extract the tables', heading: 'Tables', line: 9, matchedTerms: ['Extract', 'tables'] });
    assert.equal(s.set, undefined);
  });

  it('turns the engine\'s set into the set view, and drops a set it cannot read', () => {
    const engineSet = { ids: ['a', 'b'], size: 2, rejected: [{ id: 'c', partnerId: 'a', reason: 'platform_exclusive', evidence: 'macOS only' }] };
    assert.deepEqual(toPanelSet(engineSet), {
      skills: ['a', 'b'],
      skipped: [{ skillId: 'c', conflictsWith: 'a', reason: 'platform_exclusive', explanation: 'macOS only' }],
    });
    assert.deepEqual(summaryOf(['a', 'b', 'c'], 10, engineSet).set?.skills, ['a', 'b']);
    assert.equal(toPanelSet({ ids: ['a'], rejected: [{ id: 'c', partnerId: 'a', reason: 'vibes' }] }), undefined);
    assert.equal(toPanelSet('set'), undefined);
    assert.deepEqual(toPanelSet({ skills: ['a'], skipped: [] }), { skills: ['a'], skipped: [] });
  });

  it('passes the calibrated relevance on: relevant false and the match; an absent one stays absent', () => {
    const res = { ...response(['a', 'b']), match: 'weak' as const };
    res.results[1] = { ...res.results[1], relevant: false };
    res.results[0] = { ...res.results[0], relevant: true };
    const s = toRouteSummary(res, 1, 10, (i) => i.skillId, (u) => u);
    assert.deepEqual(s.results.map((r) => r.relevant), [undefined, false]);
    assert.equal(s.match, 'weak');
    assert.ok(isRouteSummary(s));
    assert.equal('match' in summaryOf(['a']), false);
  });

  it('finds the active skill among the results without asking the server again', async () => {
    let calls = 0;
    const deeper = async () => {
      calls++;
      return [];
    };
    const s = summaryOf(['a', 'b']);
    assert.deepEqual(await locateActive('file:///ws/b/SKILL.md', 'b', s, deeper), { uri: 'file:///ws/b/SKILL.md', name: 'b', folder: 'b', rank: 2, depth: 2 });
    assert.equal(calls, 0);
    assert.equal(await locateActive(null, '', s, deeper), null);
    assert.deepEqual(await locateActive('file:///ws/z/SKILL.md', 'z', null, deeper, async () => 'zed'), { uri: 'file:///ws/z/SKILL.md', name: 'zed', folder: 'z', rank: null, depth: 0 });
    assert.equal(calls, 0);
  });

  it('routes deeper to rank an active skill outside the top K, and names it by its front-matter name', async () => {
    const s = summaryOf(['a', 'b'], 2);
    const asked: number[] = [];
    const deeper = async (k: number) => {
      asked.push(k);
      return ['a', 'b', 'x', 'y', 'z'].map((id) => ({ uri: `file:///ws/${id}/SKILL.md`, name: `${id}-name` }));
    };
    assert.deepEqual(await locateActive('file:///ws/y/SKILL.md', 'y', s, deeper), { uri: 'file:///ws/y/SKILL.md', name: 'y-name', folder: 'y', rank: 4, depth: 5 });
    assert.deepEqual(asked, [ACTIVE_RANK_DEPTH]);
    // Ranked nowhere: the name comes from the server's listing (empty when it does not know it).
    assert.deepEqual(await locateActive('file:///ws/q/SKILL.md', 'q', s, deeper, async () => 'q-name'), { uri: 'file:///ws/q/SKILL.md', name: 'q-name', folder: 'q', rank: null, depth: 5 });
    assert.equal((await locateActive('file:///ws/q/SKILL.md', 'q', s, deeper, async () => { throw new Error('down'); }))!.name, '');
  });

  it('names a skill one way everywhere: its front-matter name, and the folder where they differ', () => {
    assert.equal(skillLabel({ name: 'pdf-extract', folder: 'pdf-extract' }), 'pdf-extract');
    assert.equal(skillLabel({ name: 'pdf-tools', folder: 'pdf-extract' }), 'pdf-tools (folder pdf-extract)');
    assert.equal(skillLabel({ name: 'pdf-extract', folder: 'team-a/pdf-extract' }), 'pdf-extract');
    assert.equal(skillLabel({ name: '', folder: 'pdf-extract' }), 'pdf-extract');
  });
});

describe('query panel webview state', () => {
  it('expects nothing the author did not mark: not the set, not the active skill, not the first result', () => {
    const withSet = summaryOf(['a', 'b', 'c'], 10, { ids: ['a', 'b'], rejected: [] });
    assert.deepEqual(defaultExpectation(withSet), { requestId: 1, expect: [], notExpect: [], set: false, top: null });
    assert.deepEqual(defaultExpectation(summaryOf(['a'])).expect, []);
  });

  it('toggles expect / not expected exclusively, dropping set below two', () => {
    let e = { ...defaultExpectation(summaryOf(['a', 'b', 'c'])), expect: ['a', 'b'], set: true };
    e = toggleExpectation(e, 'c', 'notExpect');
    assert.deepEqual([e.expect, e.notExpect, e.set], [['a', 'b'], ['c'], true]);
    e = toggleExpectation(e, 'c', 'expect');
    assert.deepEqual([e.expect, e.notExpect], [['a', 'b', 'c'], []]);
    e = toggleExpectation(toggleExpectation(e, 'c', 'expect'), 'b', 'expect');
    assert.deepEqual([e.expect, e.set], [['a'], false]);
  });

  it('writes names, ids for shared names, and only the fields in use', () => {
    const s = summaryOf(['a', 'b', 'c']);
    s.results[2] = { ...s.results[2], name: 'a' };
    const e = { requestId: 1, expect: ['a', 'b'], notExpect: ['c'], set: true, top: 4 };
    s.results[1] = { ...s.results[1], name: 'bee' };
    assert.deepEqual(testEntry(s, e), { query: 'extract tables', expect: ['a', 'bee'], notExpect: ['c'], top: 4, set: true });
    // `a` is shared by skills a and c: both by id.
    assert.deepEqual(testEntry(s, e).expect[0], 'a');
    s.results[0] = { ...s.results[0], name: 'shared', skillId: 'x/a' };
    s.results[2] = { ...s.results[2], name: 'shared' };
    assert.deepEqual(testEntry(s, { ...e, expect: ['x/a'], notExpect: ['c'], set: false, top: null }), { query: 'extract tables', expect: ['x/a'], notExpect: ['c'] });
    assert.ok(isRoutingTestEntry(testEntry(s, e)));
  });

  it('round-trips its stored state and refuses other shapes', () => {
    const state = { ...initialState(null), last: summaryOf(['a']), expectation: defaultExpectation(summaryOf(['a'])), nextId: 4 };
    const stored = JSON.parse(JSON.stringify(toStored(state)));
    assert.deepEqual(readStored(stored), toStored(state));
    assert.equal(readStored(undefined), null);
    assert.equal(readStored({ ...stored, v: 2 }), null);
    assert.equal(readStored({ ...stored, profiles: ['vim'] }), null);
    assert.equal(readStored({ ...stored, last: { ...stored.last, results: 'x' } }), null);
  });
});

describe('passage highlighting', () => {
  const marked = (text: string, terms: string[]) => highlightSegments(text, terms).filter((s) => s.mark).map((s) => s.text);

  it('marks whole matched words only, ignoring case and trailing punctuation', () => {
    assert.deepEqual(marked('Extract tables; the table extractor extracts TABLES.', ['extract', 'tables.']), ['Extract', 'tables', 'TABLES']);
    assert.deepEqual(marked('node.js and Node', ['node.js']), ['node.js']);
    assert.deepEqual(marked('C++ or C, not C#', ['C++', 'C#']), ['C++', 'C#']);
    assert.deepEqual(marked('nothing here', []), []);
  });

  it('keeps every character, in order', () => {
    const text = 'Scanned invoices: run OCR, then extract.';
    assert.equal(highlightSegments(text, ['Scanned', 'extract']).map((s) => s.text).join(''), text);
  });

  it('marks a CJK term inside an unspaced run', () => {
    assert.deepEqual(marked('绘制数据图表：折线图', ['图表']), ['图表']);
    assert.deepEqual(marked('数据可视化', ['数据可视化']), ['数据可视化']);
  });
});
