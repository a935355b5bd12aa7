/**
 * How a routed request becomes the agent's answer (src/cli/routeAnswer.ts), shared by the MCP
 * tool and the prompt hook: the set first and in the engine's order, SKIP partners on both sides,
 * `match: 'none'` and `relevant: false` (the calibrated relevance of the routing work) leaving
 * nothing, the request cap, and the hook's context block within its budget.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type { RouteCandidate, RouteResult } from '../../src/core/service';
import { hookBlock, promptOf } from '../../src/cli/hook';
import { answerText } from '../../src/cli/mcpTools';
import { ASK_PROMPT_CHARS } from '../../src/cli/hookInput';
import { capRequest, MAX_REQUEST_CHARS, MAX_REQUEST_WORDS, shapeAnswer } from '../../src/cli/routeAnswer';

const ROOT = path.resolve('/lib');

function candidate(skillId: string, rank: number, final: number, extra: Partial<RouteCandidate> = {}, matched: string[] = []): RouteCandidate {
  return {
    skillId,
    name: skillId.split('/').pop()!,
    path: `${skillId}/SKILL.md`,
    description: `About ${skillId}: ${'words '.repeat(30).trim()}.`,
    rank,
    scores: { dense: null, lexical: final, fused: final, rerank: final, final },
    passage: matched.length ? { field: 'description', text: matched.join(' '), matchedTerms: matched } : null,
    ...extra,
  };
}

function result(candidates: RouteCandidate[], extra: Partial<RouteResult> = {}): RouteResult {
  return {
    query: 'make a chart from sales.csv and email it',
    candidates,
    timings: { embedMs: 0, denseMs: 0, lexicalMs: 0, fuseMs: 0, rerankMs: 0, totalMs: 0 },
    dense: { disabled: 'no model' },
    ...extra,
  };
}

/** A set of two (charts, email), a redundant copy of charts set aside, and one more result. */
const ROUTED = result(
  [
    candidate('tools/csv-charts', 1, 0.91234, {}, ['chart', 'CSV']),
    candidate('tools/email', 2, 0.6, {}, ['email', 'chart']),
    candidate('copies/csv-charts', 3, 0.88, {}, ['chart', 'CSV']),
    candidate('tools/pdf', 4, 0.1),
  ],
  {
    set: {
      ids: ['tools/csv-charts', 'tools/email'],
      size: 2,
      rejected: [{ id: 'copies/csv-charts', partnerId: 'tools/csv-charts', reason: 'function_redundant', evidence: 'same name and description' }],
    },
  },
);

describe('routeAnswer: shapeAnswer', () => {
  it('puts the set first, keeps the engine order, and says to use the set together', () => {
    const a = shapeAnswer(ROUTED, { root: ROOT });
    assert.equal(a.match, 'strong', 'an absent match reads as strong');
    assert.deepEqual(a.set.map((s) => s.id), ['tools/csv-charts', 'tools/email']);
    assert.deepEqual(a.others.map((s) => s.id), ['copies/csv-charts', 'tools/pdf']);
    assert.deepEqual([...a.set, ...a.others].map((s) => s.id), ROUTED.candidates.map((c) => c.skillId), 'same ids in the same order as route');
    assert.equal(a.message, 'Use these 2 skills together: csv-charts, email.');
    assert.equal(a.set[0].relevance, 0.912);
    assert.equal(a.set[0].path, path.join(ROOT, 'tools', 'csv-charts', 'SKILL.md'));
  });

  it('says why each member belongs, in the request words it adds', () => {
    const [first, second] = shapeAnswer(ROUTED, { root: ROOT }).set;
    assert.match(first.why!, /^Best match for the request \(it matches: chart, CSV\)\.$/);
    assert.equal(second.why, 'Covers email, which csv-charts does not; not redundant with it.');
  });

  it('names the SKIP partners on both sides: left out of the set, and set aside for a member', () => {
    const a = shapeAnswer(ROUTED, { root: ROOT });
    assert.deepEqual(a.set[0].leftOut, [{ id: 'copies/csv-charts', reason: 'function_redundant', evidence: 'same name and description' }]);
    assert.equal(a.set[1].leftOut, undefined);
    assert.deepEqual(a.others[0].setAsideFor, { id: 'tools/csv-charts', reason: 'function_redundant', evidence: 'same name and description' });
    assert.equal(a.others[1].setAsideFor, undefined);
  });

  it("match 'none' answers that no skill fits, with no results", () => {
    const a = shapeAnswer({ ...ROUTED, match: 'none' }, { root: ROOT });
    assert.equal(a.match, 'none');
    assert.deepEqual([a.set, a.others], [[], []]);
    assert.match(a.message, /^No skill in this library fits this request/);
    assert.equal(hookBlock(a, 1500), '', 'the hook prints nothing');
  });

  it('leaves out results judged not relevant; none relevant is no fit', () => {
    const marked = result(
      ROUTED.candidates.map((c, i) => ({ ...c, relevant: i < 2 })),
      { set: ROUTED.set, match: 'strong' },
    );
    const a = shapeAnswer(marked, { root: ROOT });
    assert.deepEqual(a.set.map((s) => s.id), ['tools/csv-charts', 'tools/email']);
    assert.deepEqual(a.others, []);
    const none = shapeAnswer(result(ROUTED.candidates.map((c) => ({ ...c, relevant: false }))), { root: ROOT });
    assert.equal(none.match, 'none');
    assert.equal(shapeAnswer(result([]), { root: ROOT }).match, 'none', 'an empty ranking fits nothing');
  });

  it('a request mostly in a script the router does not read: never "go ahead without one", and the agent is told why', () => {
    const none = shapeAnswer(result([], { unread: 'Japanese kana' }), { root: ROOT });
    assert.equal(none.match, 'none');
    assert.equal(none.unread, 'Japanese kana');
    assert.match(none.message, /^The router does not read Japanese kana, in which most of this request is written, and none of its other words is in a skill: decide from the skill list yourself\.$/);
    const weak = shapeAnswer({ ...ROUTED, match: 'weak', unread: 'Greek' }, { root: ROOT });
    assert.match(answerText(weak), /^\(most of the request is in Greek, which the router does not read: these skills matched its other words only; read their descriptions to judge\)/);
    // Korean and Thai are read through a small glossary: the words it knows, and it says so.
    const korean = shapeAnswer(result([], { unread: 'Hangul' }), { root: ROOT });
    assert.match(korean.message, /^The router reads Hangul only through a small glossary of technical words, in which most of this request is written, and none of the words it knows is in a skill/);
    const thai = shapeAnswer({ ...ROUTED, match: 'weak', unread: 'Thai' }, { root: ROOT });
    assert.match(answerText(thai), /^\(most of the request is in Thai, which the router reads only through a small glossary of technical words: these skills matched the words it knows only;/);
    assert.doesNotMatch(answerText(shapeAnswer({ ...ROUTED, match: 'weak' }, { root: ROOT })), /does not read/);
  });

  it('tells the agent which clauses of the request were not matched, because it declines them', () => {
    const a = shapeAnswer({ ...ROUTED, declined: ['do not open a pull request'] }, { root: ROOT });
    assert.deepEqual(a.declined, ['do not open a pull request']);
    assert.match(answerText(a), /^\(Not matched, because the request says not to: “do not open a pull request”\)$/m);
    assert.equal(shapeAnswer(ROUTED, { root: ROOT }).declined, undefined);
    assert.doesNotMatch(answerText(shapeAnswer(ROUTED, { root: ROOT })), /Not matched/);
  });

  it("match 'weak' keeps the results and says to check them", () => {
    const a = shapeAnswer({ ...ROUTED, match: 'weak' }, { root: ROOT });
    assert.equal(a.set.length, 2);
    assert.match(a.message, /No skill clearly fits/);
    assert.match(hookBlock(a, 1500), /weak match/);
  });

  it('shows the description as a client lists it when asked', () => {
    const listing = (id: string) => (id === 'tools/email' ? { text: 'About tools/email', cut: true, dropped: false } : id === 'tools/pdf' ? { text: '', cut: false, dropped: true } : undefined);
    const a = shapeAnswer(ROUTED, { root: ROOT, listing });
    assert.equal(a.set[1].description, 'About tools/email');
    assert.equal(a.set[1].listing, 'cut');
    assert.equal(a.others[1].listing, 'dropped');
    assert.equal(a.others[1].description, ROUTED.candidates[3].description, 'a dropped skill keeps its own description');
    assert.equal(a.set[0].listing, undefined);
  });

  it('without a set, the first relevant result is the set', () => {
    const a = shapeAnswer(result(ROUTED.candidates.slice(0, 2)), { root: ROOT });
    assert.deepEqual(a.set.map((s) => s.id), ['tools/csv-charts']);
    assert.equal(a.message, 'Use csv-charts (tools/csv-charts).');
  });
});

describe('routeAnswer: capRequest', () => {
  it('keeps a normal request as it is', () => {
    assert.deepEqual(capRequest('  Extract the tables from this PDF  '), { text: 'Extract the tables from this PDF', truncated: false });
  });

  it(`routes the first ${MAX_REQUEST_WORDS} words and the first ${MAX_REQUEST_CHARS} characters`, () => {
    const words = capRequest('word '.repeat(MAX_REQUEST_WORDS + 50));
    assert.equal(words.text.split(' ').length, MAX_REQUEST_WORDS);
    assert.ok(words.truncated);
    const exactly = capRequest('w '.repeat(MAX_REQUEST_WORDS));
    assert.equal(exactly.truncated, false, 'exactly the cap is not cut');
    const chars = capRequest('x'.repeat(MAX_REQUEST_CHARS * 3));
    assert.equal(chars.text.length, MAX_REQUEST_CHARS);
    assert.ok(chars.truncated);
  });

  it("a prompt's prefix sent to a running server (hook) is capped as the whole prompt is", () => {
    assert.ok(ASK_PROMPT_CHARS > MAX_REQUEST_CHARS);
    for (const prompt of ['x'.repeat(MAX_REQUEST_CHARS * 3), `${'a'.repeat(MAX_REQUEST_CHARS - 1)}😀tail`, 'word '.repeat(MAX_REQUEST_WORDS + 50), `${'\u0001'.repeat(ASK_PROMPT_CHARS)}pdf`]) {
      assert.deepEqual(capRequest(prompt.slice(0, ASK_PROMPT_CHARS)), capRequest(prompt));
    }
  });

  it('does not split a surrogate pair at the cut, and blanks control characters', () => {
    const text = `${'a'.repeat(MAX_REQUEST_CHARS - 1)}😀tail`;
    const capped = capRequest(text);
    assert.equal(capped.text, 'a'.repeat(MAX_REQUEST_CHARS - 1));
    assert.equal(capRequest('chart\u0000from\u0007csv').text, 'chart from csv');
  });
});

describe('prompt hook: promptOf and hookBlock', () => {
  const enc = (s: string) => new TextEncoder().encode(s);

  it("reads Claude Code's UserPromptSubmit JSON and plain text", () => {
    const json = JSON.stringify({ session_id: 's', transcript_path: '/t', cwd: '/w', hook_event_name: 'UserPromptSubmit', prompt: 'chart my CSV' });
    assert.equal(promptOf(enc(json)), 'chart my CSV');
    assert.equal(promptOf(enc('\uFEFFchart my CSV\n')), 'chart my CSV');
    assert.equal(promptOf(enc('{ not json, a prompt that starts with a brace')), '{ not json, a prompt that starts with a brace');
  });

  it('finds no prompt in empty, binary, prompt-less or cut JSON input', () => {
    assert.equal(promptOf(enc('')), null);
    assert.equal(promptOf(enc(' \n\t ')), null);
    assert.equal(promptOf(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 1, 2])), null);
    assert.equal(promptOf(Uint8Array.from({ length: 4096 }, (_, i) => 0x80 + (i % 64))), null, 'invalid UTF-8 throughout');
    assert.equal(promptOf(enc(JSON.stringify({ hook_event_name: 'Stop' }))), null);
    assert.equal(promptOf(enc(JSON.stringify({ prompt: 42 }))), null);
    assert.equal(promptOf(enc('{"prompt": "cut off'), true), null);
  });

  it('keeps the block within the budget, cutting descriptions before dropping skills', () => {
    const a = shapeAnswer(ROUTED, { root: ROOT });
    const full = hookBlock(a, 10_000);
    assert.match(full, /^Skills for this request, to use together \(skill-router\):\n- csv-charts \(tools\/csv-charts\): About/);
    assert.ok(full.includes(path.join(ROOT, 'tools', 'email', 'SKILL.md')));
    assert.ok(!full.includes('copies/csv-charts'), 'only the set is offered');
    for (const budget of [200, 260, 400, 700, 1500]) {
      const block = hookBlock(a, budget);
      assert.ok(block.length <= budget, `${block.length} <= ${budget}`);
      assert.match(block, /csv-charts/, `the first skill is always there (budget ${budget})`);
    }
    assert.match(hookBlock(a, 400), /…/, 'descriptions are cut to fit');
  });
});
