import { strict as assert } from 'node:assert';
import { allowedKeys } from '../../src/core/profiles';
import { frontMatterCompletions, frontMatterHover, keyDocumentation } from '../../src/server/frontMatterHelp';

const text = '---\nname: pdf-tools\ndescription: Extract tables from PDF files.\nwhen_to_use: scanned invoices\n---\n# Body\n';
const hoverText = (line: number, character: number, profiles: Parameters<typeof frontMatterHover>[2] = ['claude-code']) => {
  const h = frontMatterHover(text, { line, character }, profiles);
  return h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : null;
};

describe('front-matter hover', () => {
  it('explains a key with its limits under the selected profiles and the value length', () => {
    const md = hoverText(2, 3)!;
    assert.match(md, /^\*\*description\*\*: Required/);
    assert.match(md, /at most 1024 characters/);
    assert.match(md, /Claude Code: lists only the first 1536 characters of description \+ when_to_use/);
    assert.match(md, /This value: 30 characters/);
    const codex = hoverText(2, 3, ['codex'])!;
    assert.match(codex, /Codex: does not load a skill whose description is over 1024/);
    assert.doesNotMatch(codex, /1536/);
  });

  it('says when the selected profiles do not accept a key', () => {
    assert.match(hoverText(3, 1, ['spec'])!, /Accepted by: Claude Code \(not by the selected profiles\)/);
    assert.match(hoverText(3, 1, ['claude-code'])!, /Accepted by: Claude Code\.$/m);
  });

  it('is silent outside keys: values, the body, delimiters, unknown keys', () => {
    assert.equal(hoverText(2, 20), null);
    assert.equal(hoverText(5, 1), null);
    assert.equal(hoverText(0, 1), null);
    assert.equal(frontMatterHover('---\nfoo: 1\n---\n', { line: 1, character: 1 }, ['spec']), null);
    assert.equal(keyDocumentation('foo', ['spec']), null);
  });
});

describe('front-matter completion', () => {
  it('offers the keys the profiles allow that the file lacks, at the start of a line', () => {
    const doc = '---\nname: a\n\n---\n';
    const labels = frontMatterCompletions(doc, { line: 2, character: 0 }, ['spec']).map((c) => c.label);
    assert.deepEqual(labels, ['description', 'license', 'compatibility', 'metadata', 'allowed-tools']);
    const claude = frontMatterCompletions(doc, { line: 2, character: 0 }, ['claude-code']).map((c) => c.label);
    assert.ok(claude.includes('when_to_use') && claude.includes('disable-model-invocation'));
    assert.deepEqual(allowedKeys(['copilot']).slice(-3), ['argument-hint', 'user-invocable', 'disable-model-invocation']);
  });

  it('filters by the typed prefix and replaces it with "key: "', () => {
    const doc = '---\nname: a\ndesc\n---\n';
    const [item] = frontMatterCompletions(doc, { line: 2, character: 4 }, ['spec']);
    assert.equal(item.label, 'description');
    assert.deepEqual(item.textEdit, { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 4 } }, newText: 'description: ' });
  });

  it('offers nothing in values, in the body, or without front matter; works in an unclosed block', () => {
    assert.equal(frontMatterCompletions('---\nname: a\n---\nbody\n', { line: 3, character: 0 }, ['spec']).length, 0);
    assert.equal(frontMatterCompletions('---\nname: a\n---\n', { line: 1, character: 7 }, ['spec']).length, 0);
    assert.equal(frontMatterCompletions('# title\n', { line: 0, character: 0 }, ['spec']).length, 0);
    assert.ok(frontMatterCompletions('---\nname: a\n', { line: 2, character: 0 }, ['spec']).length > 0);
  });
});
