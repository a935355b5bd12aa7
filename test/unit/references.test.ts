import { strict as assert } from 'node:assert';
import { codeSpans, editDistance, LibraryNames, nameValueRange, referenceFindings, referenceGraph, resolvedReferences, scanBody } from '../../src/core/analysis/references';
import { parseSkill } from '../../src/core/parse/skillDoc';
import { skill } from '../helpers/fakes';

const doc = (id: string, name: string, body = '') => parseSkill({ id, path: `${id}/SKILL.md`, folderName: id.split('/').pop() }, skill(name, `${name} description`, body), ['spec']);

describe('references between skills', () => {
  const library = [doc('lib/jira-search', 'jira-search'), doc('lib/ship', 'ship'), doc('lib/verify', 'verify'), doc('lib/pdf-tools', 'pdf-tools'), doc('lib/docx', 'docx')];
  const names = new LibraryNames(library);
  const found = (body: string) => scanBody(body, names).references.map((r) => `${r.form}:${r.name}`);

  it('finds backticked, slash, $ and plain hyphenated names, with the columns of the name', () => {
    assert.deepEqual(found('Use `jira-search` for JQL, then /ship and $verify.\nThen pdf-tools, or [skill:docx].'), ['code:jira-search', 'slash:ship', 'dollar:verify', 'tag:docx', 'word:pdf-tools']);
    const [r] = scanBody('Run /ship now', names).references;
    assert.deepEqual([r.line, r.start, r.end], [0, 5, 9]);
    assert.deepEqual(found('`/ship --fast` ships, `$verify` checks'), ['slash:ship', 'dollar:verify']);
  });

  it('reads a plugin namespace before the name (superpowers:jira-search), in prose and in backticks', () => {
    assert.deepEqual(found('Use superpowers:jira-search first.'), ['word:jira-search']);
    assert.deepEqual(found('Use the `superpowers:jira-search` skill.'), ['code:jira-search']);
    const [r] = scanBody('x `acme:pdf-tools` y', names).references;
    assert.deepEqual([r.start, r.end], ['x `acme:'.length, 'x `acme:pdf-tools'.length]);
    assert.deepEqual(found('See https://example.com:jira-search and key=a:jira-search and `other:unknown-skill`.'), [], 'a URL, a value, another plugin\'s skill');
    assert.deepEqual(scanBody('Use `other:unknown-skill`.', names).unknown, [], 'another plugin\'s skill is no broken reference');
  });

  it('reads a one-word name as a reference only where marked', () => {
    assert.deepEqual(found('Write a docx file and verify it; ship it.'), []);
    assert.deepEqual(found('Convert to `docx` first.'), [], 'a one-word name in backticks is code unless the line says skill');
    assert.deepEqual(found('Then use the `docx` skill.'), ['code:docx']);
  });

  it('never in fenced code blocks, paths, URLs, link targets, flags, file names or env vars', () => {
    const body = [
      '```bash',
      'jira-search --all && /ship',
      '```',
      '~~~',
      '`jira-search`',
      '~~~',
      'See https://example.com/jira-search and www.pdf-tools.dev, <https://x.io/ship>.',
      'Files: lib/pdf-tools/x.py, ./pdf-tools/, pdf-tools.md, C:\\pdf-tools\\a, /usr/ship/bin.',
      'Flags: --pdf-tools, -jira-search; versions pdf-tools@1.2; mail ship@x.io.',
      'Vars: $PATH, ${verify}, $HOME/ship, agent="pdf-tools".',
      '[docs](../pdf-tools/SKILL.md) and [guide](https://github.com/o/jira-search).',
      'a longer word: pdf-tools-extra and jira-search2.',
    ].join('\n');
    assert.deepEqual(found(body), []);
  });

  it('code spans close on a run of the same length; a run that never closes is literal', () => {
    const spans = (t: string) => codeSpans(t).map((x) => t.slice(x.contentStart, x.contentEnd));
    assert.deepEqual(spans('a ``b ` c`` d `e` f ` g'), ['b ` c', 'e']);
    assert.deepEqual(spans('```x `y`'), ['y']);
    // The lone backtick pairs with the next one (CommonMark), which leaves jira-search a plain word.
    assert.deepEqual(found('an unclosed ` then `jira-search` and [x](<a b.md>) /ship'), ['word:jira-search', 'slash:ship']);
  });

  it('a fence closes only on the same marker at least as long', () => {
    assert.deepEqual(found('````\n```\n/ship\n````\n/ship'), ['slash:ship']);
  });

  it('reports a typo with the skill it meant, an unknown name that says it is a skill, and nothing else', () => {
    const d = doc('lib/ship', 'ship', 'Use `jira-serach` for JQL.\nThe `release-notes` skill writes notes.\nRun `make-build` and /auth.\nWhen building a `pdf-editor` skill, see $verfy.\nExample: the `big-query` skill.');
    const f = referenceFindings(d, names);
    assert.deepEqual(f.map((x) => [x.code, x.severity, x.range.start.line, x.range.start.character, x.suggestion]), [
      ['skill.broken-reference', 'warning', 4, 5, 'jira-search'],
      ['skill.broken-reference', 'info', 5, 5, undefined],
    ]);
    assert.match(f[0].message, /did you mean 'jira-search'/);
    assert.deepEqual(referenceFindings(doc('lib/jira-search', 'jira-search', 'Not for `jira-serach`.'), names), [], 'one edit from its own name is a sibling, not a typo');
  });

  it('reports links and path mentions that do not exist in the skill folder', () => {
    const d = doc('lib/ship', 'ship', 'See [forms](references/forms.md#top), [fill](./scripts/fill.py), `scripts/run.sh` and `assets/logo.png`.\n[web](https://x.io/a.md) [up](../../../outside.md) [anchor](#x)');
    const have = new Set(['lib/ship/scripts/fill.py', 'lib/ship/assets/logo.png']);
    const f = referenceFindings(d, names, (p) => have.has(p));
    assert.deepEqual(f.map((x) => [x.code, x.message]), [
      ['file.broken-link', "No file at 'references/forms.md' (from the skill's folder)"],
      ['file.broken-link', "No file at 'scripts/run.sh' (from the skill's folder)"],
    ]);
    assert.deepEqual(referenceFindings(d, names).filter((x) => x.code === 'file.broken-link'), [], 'no file findings when the host cannot tell');
  });

  it('resolves a name to the copy in the same collection', () => {
    const two = new LibraryNames([{ id: 'a/lint', name: 'lint-fix' }, { id: 'b/lint', name: 'lint-fix' }]);
    assert.deepEqual(two.resolve('lint-fix', 'b/other'), ['b/lint']);
    assert.deepEqual(two.resolve('lint-fix', 'c/other').sort(), ['a/lint', 'b/lint']);
    const r = resolvedReferences({ id: 'b/x', body: 'see lint-fix', bodyStartLine: 4 }, two);
    assert.deepEqual([r[0].toIds, r[0].range.start.line], [['b/lint'], 4]);
  });

  it('counts an adjacent swap as one edit', () => {
    assert.equal(editDistance('jira-serach', 'jira-search'), 1);
    assert.equal(editDistance('vitest-skill', 'pytest-skill'), 2);
  });

  it('finds the name value on its line, inside quotes', () => {
    assert.deepEqual(nameValueRange(['---', 'name: "ship-it" # x'], { start: { line: 1, character: 0 }, end: { line: 1, character: 19 } }), { start: { line: 1, character: 7 }, end: { line: 1, character: 14 } });
  });

  it('the reference graph: who names whom, a hub names most of its library', () => {
    const hub = doc('lib/index', 'index-skill', '| Jira | `jira-search` |\n| PDF | pdf-tools |\n| Release | /ship |\n| Check | $verify |\nMe: index-skill');
    const g = referenceGraph([...library, hub, doc('lib/other', 'other-one', 'after /ship')]);
    assert.deepEqual([...g.outgoing.get('lib/index')!].sort(), ['lib/jira-search', 'lib/pdf-tools', 'lib/ship', 'lib/verify']);
    assert.deepEqual([...g.incoming.get('lib/ship')!].sort(), ['lib/index', 'lib/other']);
    assert.equal(g.outgoing.get('lib/ship')!.size, 0);
    assert.ok(!g.incoming.get('lib/index')!.has('lib/index'), 'naming itself is not an edge');
  });
});
