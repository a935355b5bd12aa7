import { strict as assert } from 'node:assert';
import { parseFrontMatter } from '../../src/core/parse/frontMatter';

describe('parseFrontMatter', () => {
  it('parses YAML keys, the body and key ranges', () => {
    const r = parseFrontMatter('---\nname: pdf-tools\ndescription: >\n  Extract text\n  from PDFs\n---\n# Title\nBody');
    assert.equal(r.error, undefined);
    assert.equal(r.data.name, 'pdf-tools');
    assert.equal(r.data.description, 'Extract text from PDFs\n');
    assert.equal(r.bodyStartLine, 6);
    assert.equal(r.body, '# Title\nBody');
    assert.deepEqual(r.keyRanges.name, { start: { line: 1, character: 0 }, end: { line: 1, character: 15 } });
    assert.equal(r.keyRanges.description.start.line, 2);
    assert.equal(r.keyRanges.description.end.line, 4);
  });

  it('executes nothing in ---js or ---javascript front matter', () => {
    const g = globalThis as { __pwned?: boolean };
    delete g.__pwned;
    for (const lang of ['js', 'javascript']) {
      const r = parseFrontMatter(`---${lang}\n{ name: (globalThis.__pwned = true, "x") }\n---\nbody`);
      assert.equal(g.__pwned, undefined, `${lang} front matter ran code`);
      assert.ok(r.error, 'a refusal is reported');
      assert.match(r.error!.message, /JavaScript/);
      assert.deepEqual(r.data, {});
    }
  });

  it('does not construct JavaScript types from YAML tags', () => {
    const r = parseFrontMatter('---\nname: !!js/function "function(){ return 1 }"\n---\n');
    assert.ok(r.error);
    assert.equal(typeof r.data.name, 'undefined');
  });

  it('reports malformed YAML with the line of the problem', () => {
    const r = parseFrontMatter('---\nname: a\ndescription: [unclosed\nother: 1\n---\nbody');
    assert.ok(r.error);
    assert.match(r.error!.message, /not valid YAML/);
    assert.ok(r.error!.range.start.line >= 2 && r.error!.range.start.line <= 4, `line ${r.error!.range.start.line}`);
    assert.equal(r.body, 'body');
  });

  it('handles a missing, unclosed or non-mapping block, BOM and CRLF', () => {
    assert.equal(parseFrontMatter('# just markdown').hasFrontMatter, false);
    assert.match(parseFrontMatter('---\nname: a\n').error!.message, /not closed/);
    assert.match(parseFrontMatter('---\n- a\n- b\n---\n').error!.message, /mapping/);
    const r = parseFrontMatter('\ufeff---\r\nname: crlf\r\ndescription: d\r\n---\r\nbody');
    assert.equal(r.data.name, 'crlf');
    assert.equal(r.keyRanges.name.end.character, 'name: crlf'.length);
  });

  it('does not share results between calls (no global cache)', () => {
    const text = '---\nname: a\n---\n';
    const a = parseFrontMatter(text);
    (a.data as Record<string, unknown>).name = 'changed';
    assert.equal(parseFrontMatter(text).data.name, 'a');
  });
});
