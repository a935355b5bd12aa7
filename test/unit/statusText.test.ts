/** The status bar item's text and tooltip, the long-index notification rule and the listing pick. */
import { strict as assert } from 'node:assert';
import { listingPickItems, listingPickTitle } from '../../src/client/listingPick';
import { LARGE_INDEX_TEXTS, statusText, statusTooltip, wantsNotification } from '../../src/client/statusText';
import type { IndexStatus, ListingResponse } from '../../src/shared/protocol';

const base: IndexStatus = {
  state: 'ready',
  skills: 2817,
  failed: 2,
  folders: [{ uri: 'file:///work/skills', state: 'ready', skills: 2817, failed: 2, cached: 2817, embedded: 0, indexMs: 3200, error: null }],
  model: 'use-lite-en@1',
  semanticDisabled: null,
  progress: null,
  analysis: null,
  timings: { indexMs: 3300, lastUpdateMs: 12, lastDiagnosticsMs: 95 },
  lastError: null,
  profiles: ['claude-code'],
  profilesFrom: '.claude/skills',
  budget: { profile: 'claude-code', used: 5210, budget: 8000 },
};

/** Lines of a Markdown string as it renders: a lone newline inside a paragraph would join two lines. */
function renderedLines(md: string): string[] {
  for (const paragraph of md.split('\n\n')) {
    const lines = paragraph.split('\n');
    const list = lines.every((l) => l.startsWith('- '));
    lines.slice(0, -1).forEach((l) => assert.ok(list || l.endsWith('  '), `"${l}" runs on into the next line`));
  }
  return md.split('\n').map((l) => l.trim()).filter(Boolean);
}

describe('status bar text', () => {
  it('shows skills and the listing meter, labelled, when ready', () => {
    assert.equal(statusText(base), '$(library) 2,817 skills · listing 5,210/8,000');
    assert.equal(statusText({ ...base, budget: { profile: null, used: 300, budget: null } }), '$(library) 2,817 skills · listing 300 chars');
    const tip = renderedLines(statusTooltip(base));
    assert.ok(tip.includes('Model: use-lite-en@1'));
    assert.ok(tip.includes('Listing budget (Claude Code): 5,210 of 8,000 characters of name + description (65%)'));
    assert.ok(tip.includes('- skills: ready, 2,817 skills in 3,200 ms (2,817 cached, 0 embedded)'));
    assert.ok(tip.includes('[$(list-ordered) Skills by listing cost](command:skillRouter.showListingCost)'));
    assert.ok(!tip.some((l) => l.startsWith('Server memory')), 'no memory line when the server reports none');
    const withMemory = renderedLines(statusTooltip({ ...base, memory: { rssMb: 1263, heapUsedMb: 795, heapTotalMb: 838, externalMb: 138 } }));
    assert.ok(withMemory.includes('Server memory: 1,263 MB (JavaScript heap 795 MB, buffers 138 MB)'), withMemory.join('\n'));
  });

  it('over budget: says what the client does and what the author can do, and links the list', () => {
    const over = statusTooltip({ ...base, skills: 692, budget: { profile: 'claude-code', used: 178299, budget: 8000 } });
    const lines = renderedLines(over);
    assert.ok(lines.includes('Listing budget (Claude Code): 178,299 of 8,000 characters of name + description (2229%), **over budget**'));
    assert.ok(lines.some((l) => /^Over budget: past the budget the client shortens descriptions or leaves skills out of the list it shows the model/.test(l)));
    assert.ok(lines.some((l) => /^What to do: shorten the longest descriptions/.test(l)));
    assert.match(over, /\(command:skillRouter\.showListingCost\)/);
  });

  it('indexing: the percentage, "loading model" while the model loads, never "semantic checks off" then', () => {
    assert.equal(statusText({ ...base, state: 'indexing', progress: { stage: 'embed', done: 10, total: 100, percent: 42 } }), '$(sync~spin) Skills 42%');
    const loading = { ...base, state: 'indexing' as const, model: null, progress: { stage: 'load model', done: 0, total: 1, percent: 0 } };
    assert.equal(statusText(loading), '$(sync~spin) Skills: loading model');
    assert.match(statusTooltip(loading), /Model: loading/);
    assert.doesNotMatch(statusTooltip(loading), /Semantic checks off/);
    assert.match(statusTooltip({ ...base, state: 'starting', model: null, progress: null }), /Model: loading/);
    const off = { ...base, model: null, semanticDisabled: 'semantic routing is off: model.onnx is missing' };
    assert.match(statusText(off), /\$\(warning\)$/);
    assert.match(statusTooltip(off), /Semantic checks off: semantic routing is off: model.onnx is missing/);
    assert.match(statusTooltip({ ...base, state: 'error', lastError: 'skills: boom' }), /Last error: skills: boom/);
  });

  it('cross-skill checks: the percentage while they run, "queued" (and what waits) while a recheck waits for typing to pause', () => {
    const running = { ...base, analysis: { done: 700, total: 2817, pass: 'analysis' as const } };
    assert.equal(statusText(running), '$(library) 2,817 skills · listing 5,210/8,000 · checks 24%');
    assert.match(statusTooltip(running), /Cross-skill checks \(near-duplicates, conflicts\): 700 of 2,817 skills/);
    const queued = { ...base, analysis: { done: 0, total: 692, pass: 'recheck' as const, waiting: { delayMs: 13840 } } };
    assert.equal(statusText(queued), '$(library) 2,817 skills · listing 5,210/8,000 · checks queued');
    assert.match(statusTooltip(queued), /queued\. A name or description changed, which moves term weights across the library: every skill's pairs \(692\) are checked again 14 s after the last edit/);
    assert.match(statusTooltip({ ...queued, analysis: { done: 100, total: 692, pass: 'recheck' } }), /recheck after an edit: 100 of 692 skills/);
  });

  it('the tooltip renders line by line (Markdown hard breaks), in every state', () => {
    for (const s of [base, { ...base, state: 'indexing' as const, progress: { stage: 'read', done: 1, total: 9, percent: 8 } }, { ...base, lastError: 'x', analysis: { done: 1, total: 2 } }]) {
      assert.ok(renderedLines(statusTooltip(s)).length >= 8);
    }
  });

  it('a notification only for a long index: many skills to embed, not a warm reopen or a small library', () => {
    const embed = (total: number) => ({ ...base, state: 'indexing' as const, progress: { stage: 'embed', done: 0, total, percent: 35 } });
    assert.equal(wantsNotification(embed(LARGE_INDEX_TEXTS)), true);
    assert.equal(wantsNotification(embed(LARGE_INDEX_TEXTS - 1)), false);
    assert.equal(wantsNotification({ ...embed(5000), progress: { stage: 'read', done: 1, total: 5000, percent: 5 } }), false);
    assert.equal(wantsNotification({ ...embed(5000), state: 'ready' }), false);
  });
});

describe('skills by listing cost (quick pick)', () => {
  const res: ListingResponse = {
    profile: 'claude-code',
    budget: 8000,
    used: 9000,
    skills: [
      { uri: 'file:///l/big/SKILL.md', skillId: 'big', name: 'big', chars: 6000, listed: 'cut' },
      { uri: 'file:///l/small/SKILL.md', skillId: 'team/small', name: 'small', chars: 3000, listed: 'full' },
    ],
  };

  it('titles the total against the budget and lists each skill with its share, most expensive first', () => {
    assert.equal(listingPickTitle(res), 'Skills by listing cost: 9,000 of 8,000 characters (Claude Code, 1,000 over)');
    assert.equal(listingPickTitle({ ...res, profile: 'copilot', budget: null }), 'Skills by listing cost: 9,000 characters of name + description (GitHub Copilot publishes no budget)');
    assert.deepEqual(listingPickItems(res), [
      { label: 'big', description: '6,000 characters · 66.7% · cut at the listing cap', detail: 'big', uri: 'file:///l/big/SKILL.md' },
      { label: 'small', description: '3,000 characters · 33.3%', detail: 'team/small', uri: 'file:///l/small/SKILL.md' },
    ]);
  });
});
