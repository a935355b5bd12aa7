import { strict as assert } from 'node:assert';
import type { TextEdit } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parseFrontMatter } from '../../src/core/parse/frontMatter';
import { codeActions } from '../../src/server/codeActions';
import { validateFrontMatter } from '../../src/core/parse/validate';
import {
  addDescriptionLineEdit,
  descriptionLimit,
  ignoreCommentEdit,
  ignoreMetadataEdit,
  replaceDescriptionEdit,
  setNameEdit,
  trimDescriptionEdit,
  trimText,
  yamlScalar,
} from '../../src/server/quickFixes';
import { readSuppressions } from '../../src/core/policy/suppression';

function apply(text: string, edits: TextEdit[] | null): string {
  assert.ok(edits, 'an edit');
  return TextDocument.applyEdits(TextDocument.create('file:///x/SKILL.md', 'markdown', 1, text), edits);
}

const data = (text: string) => {
  const fm = parseFrontMatter(text);
  assert.equal(fm.error, undefined, `valid YAML after the fix:\n${text}`);
  return fm.data;
};

describe('quick fixes', () => {
  it('sets name to the folder name, or adds it when missing', () => {
    assert.equal(data(apply('---\nname: old-name\ndescription: d\n---\nbody\n', setNameEdit('---\nname: old-name\ndescription: d\n---\nbody\n', 'pdf-tools'))).name, 'pdf-tools');
    const noName = '---\ndescription: d\n---\n';
    assert.equal(data(apply(noName, setNameEdit(noName, 'pdf-tools'))).name, 'pdf-tools');
    const multi = '---\nname:\n  spread over lines\ndescription: d\n---\n';
    const fixed = apply(multi, setNameEdit(multi, '数据可视化'));
    assert.deepEqual(data(fixed), { name: '数据可视化', description: 'd' });
    assert.equal(setNameEdit('no front matter', 'x'), null);
  });

  it('quotes YAML scalars only when needed', () => {
    assert.equal(yamlScalar('plain words'), 'plain words');
    for (const v of ['a: b', '- list', 'true', '123', "it's # here", ' lead', 'ends:']) {
      assert.equal(data(`---\nk: ${yamlScalar(v)}\n---\n`).k, v, v);
    }
  });

  it('rewrites a description in place, keeping block scalars block scalars', () => {
    const plain = '---\nname: a\ndescription: old text\nlicense: MIT\n---\n';
    assert.deepEqual(data(apply(plain, replaceDescriptionEdit(plain, 'new: text'))), { name: 'a', description: 'new: text', license: 'MIT' });
    const block = '---\nname: a\ndescription: |\n    line one\n    line two\nlicense: MIT\n---\n';
    const out = apply(block, replaceDescriptionEdit(block, 'line one\nline three'));
    assert.match(out, /description: \|\n {4}line one\n {4}line three\nlicense/);
    assert.equal(data(out).description, 'line one\nline three\n');
  });

  it('trims at the last sentence that fits, else at a word, never over the limit', () => {
    const text = 'First sentence is here. Second sentence is a little longer. Third one.';
    assert.equal(trimText(text, 65), 'First sentence is here. Second sentence is a little longer.');
    assert.equal(trimText('word '.repeat(40).trim(), 52).length <= 52, true);
    assert.ok(!trimText('alpha beta gamma delta', 14).endsWith(' '));
    assert.equal(trimText('short', 10), 'short');
  });

  it('trims a too-long description and says what it cuts', () => {
    const desc = 'Summarise meeting transcripts into decisions. '.repeat(30).trim();
    const text = `---\nname: notes\ndescription: ${desc}\n---\nbody\n`;
    const fix = trimDescriptionEdit(text, 1024)!;
    const after = data(apply(text, fix.edits)).description as string;
    assert.ok(after.length <= 1024);
    assert.ok(after.endsWith('.'));
    assert.equal(after, fix.kept);
    assert.ok(fix.removed.length > 0);
    assert.equal(trimDescriptionEdit('---\nname: a\ndescription: short\n---\n', 1024), null);
  });

  it('the limit depends on the profile: Codex drops over 1024, Claude Code caps description + when_to_use at 1536', () => {
    assert.equal(descriptionLimit({ description: 'x' }, undefined), 1024);
    assert.equal(descriptionLimit({ description: 'x' }, 'codex'), 1024);
    assert.equal(descriptionLimit({ description: 'x', when_to_use: 'y'.repeat(99) }, 'claude-code'), 1536 - 100);
    assert.equal(descriptionLimit({ description: 'x' }, 'copilot'), null);
  });

  it('adds the suggested line to the description (a sentence, or a new line in a literal block), once', () => {
    const line = 'For R users or readr, use csv-tidy.';
    const text = '---\nname: csv-cleaner\ndescription: Clean CSV files with pandas.\n---\n';
    const out = apply(text, addDescriptionLineEdit(text, line));
    assert.equal(data(out).description, `Clean CSV files with pandas. ${line}`);
    assert.equal(addDescriptionLineEdit(out, line), null, 'not twice');
    const literal = '---\nname: a\ndescription: |\n  Clean CSV.\n---\n';
    assert.equal(data(apply(literal, addDescriptionLineEdit(literal, line))).description, `Clean CSV.\n${line}\n`);
    // Not past the spec's 1,024 characters: that skill would fail its checks.
    const full = `---\nname: csv-cleaner\ndescription: ${'Clean CSV files. '.repeat(60).trim()}\n---\n`;
    assert.ok(String(data(full).description).length + line.length + 1 > 1024 && String(data(full).description).length <= 1024);
    assert.equal(addDescriptionLineEdit(full, line), null);
  });

  it('dismisses a twin by comment or metadata, and the result is read back as a suppression', () => {
    const text = '---\nname: a\ndescription: d\n---\n# Body\n';
    const withComment = apply(text, ignoreCommentEdit(text, 'skill.near-duplicate', 'csv-tidy'));
    const fm1 = parseFrontMatter(withComment);
    assert.deepEqual([...readSuppressions({ frontMatter: fm1.data, body: fm1.body }).twins.get('skill.near-duplicate')!], ['csv-tidy']);
    const withMeta = apply(text, ignoreMetadataEdit(text, 'csv-tidy'));
    assert.deepEqual(data(withMeta).metadata, { 'skill-router': { ignore: ['csv-tidy'] } });
    assert.equal(ignoreMetadataEdit(withMeta, 'other'), null, 'an existing metadata block is left alone');
  });
});

describe('code actions', () => {
  const uri = 'file:///lib/pdf-tools/SKILL.md';
  const base = { uri, folderName: 'pdf-tools', annotations: true };
  const line = (l: number) => ({ start: { line: l, character: 0 }, end: { line: l, character: 0 } });

  it('offers "set name to the folder name" on the name line even when only VS Code reports it', () => {
    const text = '---\nname: pdf-tool\ndescription: d\n---\n';
    const [a] = codeActions({ ...base, text, range: line(1), diagnostics: [] });
    assert.equal(a.title, 'Set name to the folder name "pdf-tools"');
    assert.equal(a.isPreferred, true);
    assert.equal(codeActions({ ...base, text, range: line(2), diagnostics: [] }).length, 0);
  });

  it('every name fix yields a name the checks pass; none writes a folder name the spec rejects', () => {
    const nameCodes = /^frontmatter\.name-(?:chars|case|hyphen|empty|too-long)$/;
    for (const [folder, name] of [['android--virtual-agent', 'Android Virtual Agent'], ['android--virtual-agent', 'android-virtual-agent'], ['pdf-tools', 'PDF Tools'], ['pdf-tools', 'pdf-tool']] as const) {
      const text = `---\nname: ${name}\ndescription: d\n---\n`;
      const findings = validateFrontMatter(parseFrontMatter(text), folder);
      const diagnostics = findings.map((f) => ({ range: f.range, message: f.message, code: f.code, source: 'skill-router' }));
      const actions = codeActions({ uri: `file:///lib/${folder}/SKILL.md`, folderName: folder, annotations: true, text, range: line(1), diagnostics });
      for (const a of actions.filter((x) => x.title.startsWith('Set name'))) {
        const edits = a.edit!.changes![`file:///lib/${folder}/SKILL.md`];
        const after = validateFrontMatter(parseFrontMatter(apply(text, edits)), folder);
        assert.deepEqual(after.filter((f) => nameCodes.test(f.code)).map((f) => f.code), [], `${folder} / ${name}: "${a.title}" leaves a name error`);
      }
      if (folder === 'android--virtual-agent') assert.ok(!actions.some((a) => a.title.includes('folder name')), 'the folder name breaks the spec: not offered');
    }
  });

  it('trims with a preview (change annotation that needs confirmation)', () => {
    const text = `---\nname: pdf-tools\ndescription: ${'Extract PDF tables. '.repeat(60).trim()}\n---\n`;
    const d = { range: line(2), message: 'too long', code: 'frontmatter.description-too-long', source: 'skill-router' };
    const [a] = codeActions({ ...base, text, range: line(2), diagnostics: [d] });
    assert.match(a.title, /^Trim the description to \d+ characters \(cuts "…/);
    assert.equal(a.edit?.changeAnnotations?.trim.needsConfirmation, true);
    const [b] = codeActions({ ...base, annotations: false, text, range: line(2), diagnostics: [d] });
    assert.ok(b.edit?.changes?.[uri]);
  });

  it('offers the suggested line and both dismissals on a pair finding', () => {
    const text = '---\nname: pdf-tools\ndescription: d\n---\n';
    const twin = { id: 'csv-tidy', name: 'csv-tidy', uri: 'file:///lib/csv-tidy/SKILL.md' };
    const d = { range: line(2), message: 'dup', code: 'skill.near-duplicate', source: 'skill-router', data: { twin, suggestion: 'For R users, use csv-tidy.' } };
    const actions = codeActions({ ...base, text, range: line(2), diagnostics: [d] });
    assert.deepEqual(actions.map((a) => a.title), [
      'Add to the description: "For R users, use csv-tidy."',
      'Ignore skill.near-duplicate about "csv-tidy" in this skill (comment)',
      'Ignore every finding about "csv-tidy" in this skill (front matter metadata)',
    ]);
    assert.match(JSON.stringify(actions[0].edit), /d For R users, use csv-tidy\./);
    const foreign = { ...d, source: 'other-linter' };
    assert.equal(codeActions({ ...base, text, range: line(2), diagnostics: [foreign] }).length, 0);
  });

  it('never edits the description for a copy, nor without a suggestion from core', () => {
    const text = '---\nname: pdf-tools\ndescription: d\n---\n';
    const twin = { id: 'b/pdf-tools', name: 'pdf-tools', uri: 'file:///lib/b/pdf-tools/SKILL.md' };
    const copy = { range: line(2), message: 'copy', code: 'skill.copy', source: 'skill-router', data: { twin, suggestion: 'For d, use pdf-tools.' } };
    const bare = { ...copy, code: 'skill.near-duplicate', data: { twin } };
    for (const d of [copy, bare]) {
      const titles = codeActions({ ...base, text, range: line(2), diagnostics: [d] }).map((a) => a.title);
      assert.ok(titles.every((t) => t.startsWith('Ignore')), titles.join('; '));
      assert.equal(titles.length, 2);
    }
  });
});
