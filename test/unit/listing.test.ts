import { strict as assert } from 'node:assert';
import { overBudgetNote, simulateListing, type ListableSkill } from '../../src/core/profiles';
import { listedDoc } from '../../src/core/route/listingView';
import { createSkillService } from '../../src/core/route/skillService';
import type { SkillDoc } from '../../src/core/types';
import { BODY_ONLY_REQUEST, bodyOnlyLibrary, FakeEmbedder, MemoryWorkspace } from '../helpers/fakes';

const s = (name: string, description: string, extra: Record<string, unknown> = {}): ListableSkill => ({ id: `lib/${name}`, name, frontMatter: { name, description, ...extra } });

describe('the library over its listing budget, said once (core/profiles overBudgetNote)', () => {
  const doc = (name: string, description: string) => ({ ...s(name, description), path: `${name}/SKILL.md`, description });

  it('on the skill whose entry costs the most, with how far over and what the client does', () => {
    const skills = [doc('alpha', 'a'.repeat(60)), doc('beta', 'b'.repeat(300)), doc('zeta', 'z'.repeat(80))];
    const note = overBudgetNote(skills, 'claude-code', 100)!;
    assert.equal(note.skillId, 'lib/beta');
    assert.match(note.message, /^The 3 skills list 453 characters of name \+ description, 4\.5 times Claude Code's budget of 100: Claude Code lists 2 of them by name only or not at all\. This skill's entry is the longest \(304 characters\): shorten the longest descriptions/);
    assert.match(overBudgetNote(skills, 'claude-code', 400)!.message, /13% over Claude Code's budget of 400/);
    assert.equal(overBudgetNote(skills, 'claude-code', 1000), null, 'within budget');
  });
});

describe('client listings (core/profiles simulateListing)', () => {
  it('Claude Code lists description + when_to_use capped at 1,536 and leaves out skills it may not invoke', () => {
    const l = simulateListing([s('a', 'x'.repeat(1500), { when_to_use: 'y'.repeat(100) }), s('b', 'short'), s('c', 'hidden', { 'disable-model-invocation': true })], 'claude-code', { budget: null });
    const [a, b, c] = l.entries;
    assert.equal(a.text.length, 1536);
    assert.ok(a.cut && !a.descriptionDropped && /1536 characters/.test(a.why ?? ''));
    assert.equal(b.text, 'short');
    assert.ok(c.omitted && c.text === '' && /disable-model-invocation/.test(c.why ?? ''));
    assert.equal(l.used, 1 + 1536 + 1 + 5);
  });

  it('Claude Code over its budget drops whole descriptions, keeping names, in name order', () => {
    const l = simulateListing([s('zeta', 'z'.repeat(50)), s('alpha', 'a'.repeat(50)), s('mid', 'm'.repeat(50))], 'claude-code', { budget: 120 });
    const by = Object.fromEntries(l.entries.map((e) => [e.name, e]));
    assert.equal(by.alpha.text.length, 50);
    assert.equal(by.mid.text.length, 50);
    assert.ok(by.zeta.descriptionDropped && by.zeta.text === '' && !by.zeta.omitted, 'the last by name loses its description');
    assert.ok(l.used <= 120 && l.full > 120);
  });

  it('Codex over its budget shortens every description to one length, then lists names only, then leaves skills out', () => {
    const skills = [s('a', 'a'.repeat(10)), s('b', 'b'.repeat(100)), s('c', 'c'.repeat(200))];
    const l = simulateListing(skills, 'codex', { budget: 3 + 150 });
    const [a, b, c] = l.entries;
    assert.equal(a.text.length, 10, 'a short description fits whole');
    assert.equal(b.text.length, 70);
    assert.equal(c.text.length, 70, 'the rest share what is left equally');
    assert.ok(b.cut && c.cut && /Codex shortens every description to 70/.test(c.why ?? ''));
    assert.ok(l.used <= 153);
    const names = simulateListing(skills, 'codex', { budget: 2 });
    assert.deepEqual(names.entries.map((e) => [e.omitted, e.text]), [[false, ''], [false, ''], [true, '']], 'no room for descriptions: names while they fit');
  });

  it('Copilot and Cursor publish no budget: everything is listed; cutAt asks what a shorter description would do', () => {
    const skills = [s('a', 'x'.repeat(5000))];
    assert.equal(simulateListing(skills, 'cursor').entries[0].text.length, 5000);
    assert.equal(simulateListing(skills, 'copilot').budget, null);
    const cut = simulateListing([s('a', 'Build Blazor components with forms and validation for .NET apps, and much more after that.')], 'cursor', { cutAt: 20 });
    assert.equal(cut.entries[0].text, 'Build Blazor compone');
    assert.ok(cut.entries[0].cut);
  });
});

describe('routing over a listing (route view)', () => {
  it('a listed skill is made without reading its body (a snapshot decodes a body when read, for good)', () => {
    let reads = 0;
    const doc = { id: 'a/pdf', name: 'pdf', description: 'Extract PDF tables.', hash: 'h1', findings: [{ code: 'x' }] } as unknown as SkillDoc;
    Object.defineProperty(doc, 'body', { enumerable: true, configurable: true, get: () => (reads++, '# Tables\nUse pdfplumber.') });
    const listed = listedDoc(doc, 'Extract PDF…');
    assert.equal(reads, 0);
    assert.deepEqual([listed.description, listed.body, listed.findings, listed.name], ['Extract PDF…', '', [], 'pdf']);
    assert.match(listed.hash, /^h1~listed:/);
    assert.deepEqual(Object.keys(listed), Object.keys(doc), 'the same fields in the same order');
    assert.equal(doc.body, '# Tables\nUse pdfplumber.', 'the skill itself keeps its body');
    assert.equal(doc.description, 'Extract PDF tables.');
  });

  it('ranks what the client lists: a skill found by its body falls when only its name and description are seen', async () => {
    const files = bodyOnlyLibrary();
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder: new FakeEmbedder() });
    await svc.index();
    const q = BODY_ONLY_REQUEST;
    const full = await svc.route(q, { k: 3, passages: false });
    const listed = await svc.route(q, { k: 3, passages: false, view: { client: 'claude-code' } });
    assert.equal(full.candidates[0].skillId, 'forms', 'the body answers in the full text');
    assert.equal(listed.candidates[0].skillId, 'blazor-intro', 'the listing has only names and descriptions');
    assert.deepEqual(listed.view, { kind: 'listing', client: 'claude-code', label: 'Claude Code' });
    assert.equal(full.view, undefined);
    // The view follows the library: the same pipeline until the skills change.
    assert.equal(await svc.listingPipeline('claude-code'), await svc.listingPipeline('claude-code'));
    await svc.updateFile({ id: 'ci', path: 'ci/SKILL.md', folderName: 'ci' }, null);
    const after = await svc.route(q, { k: 5, passages: false, view: { client: 'claude-code' } });
    assert.ok(!after.candidates.some((c) => c.skillId === 'ci'), 'a removed skill leaves the listing too');
  });
});
