/** The editor's side of reach: the quick fix's edit and action, the diagnostic hook, and the settings. */
import { strict as assert } from 'node:assert';
import type { Diagnostic, TextEdit } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parseFrontMatter } from '../../src/core/parse/frontMatter';
import { parseSkill } from '../../src/core/parse/skillDoc';
import { unreachableFinding } from '../../src/core/reach/finding';
import type { SkillReach } from '../../src/core/reach/measure';
import { codeActions } from '../../src/server/codeActions';
import { skillDiagnostics, type DiagnosticContext } from '../../src/server/diagnostics';
import { addWordsEdit } from '../../src/server/quickFixes';
import { DEFAULT_SETTINGS, sanitiseSettings } from '../../src/server/settings';

function apply(text: string, edits: TextEdit[] | null): string {
  assert.ok(edits, 'an edit');
  return TextDocument.applyEdits(TextDocument.create('file:///x/SKILL.md', 'markdown', 1, text), edits);
}

const TEXT = '---\nname: dotnet-ui\ndescription: Builds .NET user interfaces\n---\n## Blazor components\nEditForm.\n';

const reach = (over: Partial<SkillReach> = {}): SkillReach => ({
  id: 'dotnet-ui', name: 'dotnet-ui', requests: 3, sources: { probe: 3 }, reachedFull: 3, reachedListing: 0, lost: 3, flagged: true,
  listedChars: 28, fullChars: 28, cut: false, dropped: false, omitted: false, suggest: ['Blazor', 'component'], wonBack: 2, ownLost: 0, rejected: [], detail: [], ...over,
});

describe('reach in the editor', () => {
  it('the quick fix adds the words at the end of the description, or at its start when the listing cuts it', () => {
    const end = apply(TEXT, addWordsEdit(TEXT, ['Blazor', 'component'], false));
    assert.equal(parseFrontMatter(end).data.description, 'Builds .NET user interfaces. Blazor, component');
    const start = apply(TEXT, addWordsEdit(TEXT, ['Blazor', 'component'], true));
    assert.equal(parseFrontMatter(start).data.description, 'Blazor, component. Builds .NET user interfaces');
    const block = '---\nname: x\ndescription: >-\n  Builds UIs\n  for apps.\n---\n';
    assert.equal(parseFrontMatter(apply(block, addWordsEdit(block, ['Blazor'], false))).data.description, 'Builds UIs for apps. Blazor');
    assert.equal(addWordsEdit('no front matter', ['x'], false), null);
  });

  it('offers "add: ..." on skill.unreachable with verified words only', () => {
    const range = { start: { line: 2, character: 0 }, end: { line: 2, character: 40 } };
    const d = (data?: unknown): Diagnostic => ({ range, code: 'skill.unreachable', source: 'skill-router', message: 'm', ...(data ? { data } : {}) });
    const input = (diagnostics: Diagnostic[]) => ({ uri: 'file:///x/SKILL.md', text: TEXT, range, diagnostics, annotations: false });
    const [action] = codeActions(input([d({ words: ['Blazor', 'component'] })])).filter((a) => a.title.startsWith('add:'));
    assert.equal(action.title, 'add: Blazor, component (to the description)');
    assert.equal(action.isPreferred, true);
    assert.match(apply(TEXT, action.edit!.changes!['file:///x/SKILL.md']), /^description: Builds \.NET user interfaces\. Blazor, component$/m);
    assert.deepEqual(codeActions(input([d()])).filter((a) => a.title.startsWith('add:')), [], 'no words, no fix');
  });

  it('the diagnostic hook adds the finding to the skill\'s diagnostics; a severity override can hide it; the skill can dismiss it', () => {
    const doc = parseSkill({ id: 'dotnet-ui', path: 'dotnet-ui/SKILL.md', folderName: 'dotnet-ui' }, TEXT, ['claude-code']);
    const finding = unreachableFinding(doc, reach(), { label: 'Claude Code', min: 0.5, severity: 'warning', client: 'claude-code' })!;
    assert.match(finding.message, /^0 of 3 requests \(probes written from its body: it has no tests or evals\) reach this skill first in Claude Code's listing \(0%, below 50%\); 3 do in the full text\. Add to the description: Blazor, component \(wins 2 of 3 lost requests back\)\.$/);
    assert.deepEqual(finding.range, doc.keyRanges.description);
    const ctx = (severity: Record<string, 'off'> = {}): DiagnosticContext => ({
      settings: { ...DEFAULT_SETTINGS, diagnostics: { ...DEFAULT_SETTINGS.diagnostics, severity } },
      href: (c) => `docs#${c}`,
      skill: () => undefined,
      uriOf: () => '',
      reach: () => ({ finding, data: { words: ['Blazor', 'component'] } }),
    });
    const [diag] = skillDiagnostics(doc, [], ctx()).filter((x) => x.code === 'skill.unreachable');
    assert.deepEqual(diag.data, { words: ['Blazor', 'component'], profile: 'claude-code' });
    assert.match(diag.message, /\[claude-code\]$/);
    assert.deepEqual(skillDiagnostics(doc, [], ctx({ 'skill.unreachable': 'off' })).filter((x) => x.code === 'skill.unreachable'), []);
    assert.equal(unreachableFinding(doc, reach({ reachedListing: 2 }), { label: 'Claude Code', min: 0.5, severity: 'warning', client: 'claude-code' }), null, 'at or above the bar');
    const dismissed = parseSkill({ id: 'dotnet-ui', path: 'dotnet-ui/SKILL.md', folderName: 'dotnet-ui' }, `${TEXT}<!-- skill-router-ignore skill.unreachable -->\n`, ['claude-code']);
    assert.equal(unreachableFinding(dismissed, reach(), { label: 'Claude Code', min: 0.5, severity: 'warning', client: 'claude-code' }), null);
  });

  it('in the editor only with something to act on: words, or a cut or drop of its own; not for a library over budget', () => {
    const doc = parseSkill({ id: 'dotnet-ui', path: 'dotnet-ui/SKILL.md', folderName: 'dotnet-ui' }, TEXT, ['claude-code']);
    const editor = { label: 'Claude Code', min: 0.5, severity: 'info' as const, client: 'claude-code', actionableOnly: true };
    const overBudget = { suggest: [], wonBack: 0, dropped: true, overBudget: true as const, why: "the listing is over Claude Code's budget of 8,000 characters" };
    assert.ok(unreachableFinding(doc, reach(), editor), 'words to add');
    assert.ok(unreachableFinding(doc, reach({ suggest: [], wonBack: 0, cut: true, why: 'Claude Code lists the first 1536 characters' }), editor), 'its own description is cut');
    assert.equal(unreachableFinding(doc, reach(overBudget), editor), null, 'dropped because the whole library is over budget');
    assert.equal(unreachableFinding(doc, reach({ suggest: [], wonBack: 0 }), editor), null, 'no cause found and nothing to add');
    // check's reach gate (an explicit bar) reports every miss.
    assert.match(unreachableFinding(doc, reach(overBudget), { ...editor, actionableOnly: false })!.message, /lists its name only/);
  });

  it('settings: skillRouter.reach.client and .min are sanitised', () => {
    assert.deepEqual(DEFAULT_SETTINGS.reach, { client: 'claude-code', min: 0.5 });
    assert.deepEqual(sanitiseSettings({ reach: { client: 'off', min: 0.8 } }).settings.reach, { client: 'off', min: 0.8 });
    const bad = sanitiseSettings({ reach: { client: 'vim', min: 3 } });
    assert.deepEqual(bad.settings.reach, DEFAULT_SETTINGS.reach);
    assert.equal(bad.problems.length, 2);
  });
});
