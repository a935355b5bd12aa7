/**
 * The common ways SKILL.md front matter breaks, each from a real file: the message says what YAML
 * made of the text, the range starts at the offending character, and the quick fix's edit parses
 * back to the value the author meant.
 *
 * Sources (excerpts, cut short): the `: ` cases are the shipped examples before they were fixed
 * (examples/library/docx-edit) and the corpus's L-LesterYu__OpenClaw-hot-skills-zh/marketing-skills-zh;
 * the mis-nested quotes are kscz0000__antigravity-awesome-skills-CN/complexity-cuts; the list where
 * text belongs is sickn33__antigravity-awesome-skills/daily-news-report's `argument-hint: [optional: date]`
 * moved onto `description`. The corpus has no tab-indented or `#`-cut front matter (its builder
 * dropped files that did not parse): those two take a real description (examples/library/pdf-extract,
 * github__awesome-copilot/unit-test-vue-pinia's tab-indented body) and make the mistake in it.
 */
import { strict as assert } from 'node:assert';
import { parseFrontMatter, type YamlFix } from '../../src/core/parse/frontMatter';
import { validateFrontMatter } from '../../src/core/parse/validate';

/** `text` with the edits of `fix` applied (ranges of one document, applied from the end). */
function apply(text: string, fix: YamlFix): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const edits = [...fix.edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of edits) out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}

const fm = (...lines: string[]) => `---\n${lines.join('\n')}\n---\n# Body\n`;

describe('YAML mistakes in front matter', () => {
  it('an unquoted description with ": " says so, at the colon, and quoting it parses back to the text', () => {
    const text = fm('name: docx-edit', 'description: Create and edit Word (.docx) documents: headings, styles, tables, tracked changes and comments.');
    const r = parseFrontMatter(text);
    assert.equal(
      r.error?.message,
      "front matter is not valid YAML: the description contains ': ', which YAML reads as a nested key; put the value in quotes or use `description: >-`",
    );
    assert.deepEqual(r.error!.range.start, { line: 2, character: 'description: Create and edit Word (.docx) documents'.length });
    const [quote, folded] = r.error!.fixes!;
    assert.equal(quote.title, 'Put the description in double quotes');
    const fixed = parseFrontMatter(apply(text, quote));
    assert.equal(fixed.error, undefined);
    assert.equal(fixed.data.description, 'Create and edit Word (.docx) documents: headings, styles, tables, tracked changes and comments.');
    assert.equal(parseFrontMatter(apply(text, folded)).data.description, fixed.data.description);
  });

  it('": " right after a word (TL;DR: ...) and on a continuation line are found too', () => {
    const zh = fm('name: marketing-skills-zh', 'description: TL;DR: 23个营销实战手册（CRO、SEO、文案）。');
    const r = parseFrontMatter(zh);
    assert.match(r.error!.message, /contains ': '/);
    assert.equal(r.error!.range.start.character, 'description: TL;DR'.length);
    assert.equal(parseFrontMatter(apply(zh, r.error!.fixes![0])).data.description, 'TL;DR: 23个营销实战手册（CRO、SEO、文案）。');

    const folded = fm('name: pdf-extract', 'description: Extract text, tables and form fields', '  from PDF files: scanned invoices and receipts.');
    const c = parseFrontMatter(folded);
    assert.match(c.error!.message, /contains ': '/);
    assert.deepEqual(c.error!.range.start, { line: 3, character: '  from PDF files'.length });
    assert.equal(parseFrontMatter(apply(folded, c.error!.fixes![0])).data.description,
      'Extract text, tables and form fields from PDF files: scanned invoices and receipts.');
  });

  it('quotes that close early are named, and re-quoting the whole value escapes the inner ones', () => {
    const text = fm('name: complexity-cuts', 'description: "通过"一次只做一个变换"的剧本来降低既有代码的 Big-O。"');
    const r = parseFrontMatter(text);
    assert.match(r.error!.message, /the double quote that opens the description closes after "通过" and more text follows; quote the whole value and write a quote inside it as \\"/);
    assert.equal(r.error!.range.start.character, 'description: "通过'.length);
    const fixed = apply(text, r.error!.fixes![0]);
    assert.match(fixed, /description: "通过\\"一次只做一个变换\\"的剧本/);
    assert.equal(parseFrontMatter(fixed).data.description, '通过"一次只做一个变换"的剧本来降低既有代码的 Big-O。');

    const apostrophe = fm('name: docx-edit', "description: 'Don't use for spreadsheets'");
    const a = parseFrontMatter(apostrophe);
    assert.match(a.error!.message, /inside single quotes an apostrophe is written ''/);
    assert.equal(parseFrontMatter(apply(apostrophe, a.error!.fixes![0])).data.description, "Don't use for spreadsheets");
  });

  it('a quote that is never closed is named at the quote', () => {
    const text = fm('name: pdf-extract', 'description: "Extract text, tables and form fields from PDF files', 'license: MIT');
    const r = parseFrontMatter(text);
    assert.match(r.error!.message, /the description opens a double quote \("\) that is never closed/);
    assert.equal(r.error!.range.start.line, 2);
    assert.equal(r.error!.range.start.character, 'description: '.length);
    const fixed = parseFrontMatter(apply(text, r.error!.fixes![0]));
    assert.equal(fixed.data.description, 'Extract text, tables and form fields from PDF files');
    assert.equal(fixed.data.license, 'MIT');
  });

  it('tab indentation is an error even where js-yaml would misread it quietly, and the fix indents with spaces', () => {
    // js-yaml 3 reads this as two top-level keys (metadata: null, author: ...); YAML forbids it.
    const text = fm('name: unit-test-vue-pinia', 'description: Write and review unit tests for Vue 3 and Pinia.', 'metadata:', '\tauthor: github', '\tversion: "1.0"');
    const r = parseFrontMatter(text);
    assert.equal(r.error?.message, 'front matter is not valid YAML: line 5 is indented with a tab, which YAML does not allow in indentation; indent with spaces');
    assert.deepEqual(r.error!.range, { start: { line: 4, character: 0 }, end: { line: 4, character: 1 } });
    assert.equal(r.error!.fixes![0].title, 'Indent the 2 tab-indented lines with spaces');
    assert.deepEqual(parseFrontMatter(apply(text, r.error!.fixes![0])).data.metadata, { author: 'github', version: '1.0' });
    // A tab inside a quoted value, or after the spaces of a block scalar, is text.
    assert.equal(parseFrontMatter(fm('name: a', 'description: >-', '  Extract\ttext')).error, undefined);
  });

  it('a " #" that cuts the description is a warning that shows what clients see', () => {
    const text = fm('name: pdf-extract', 'description: Extract text from PDF files #ocr #invoices, then export them as CSV.');
    const r = parseFrontMatter(text);
    assert.equal(r.error, undefined);
    assert.equal(r.data.description, 'Extract text from PDF files');
    const [f] = validateFrontMatter(r, 'pdf-extract');
    assert.equal(f.code, 'frontmatter.value-cut');
    assert.equal(f.severity, 'warning');
    assert.match(f.message, /the description is cut at ' #': YAML reads ' #' as the start of a comment, so clients see only "Extract text from PDF files"/);
    assert.equal(f.range.start.character, 'description: Extract text from PDF files '.length);
    const fixed = parseFrontMatter(apply(text, r.pitfalls[0].fixes[0]));
    assert.equal(fixed.data.description, 'Extract text from PDF files #ocr #invoices, then export them as CSV.');
    // Quoted, or a comment on a key that is not listed: nothing to say.
    assert.deepEqual(parseFrontMatter(fm('name: a', 'description: "a #b"', 'license: MIT # see LICENSE')).pitfalls, []);
  });

  it('a list where the description belongs says why, and the fix makes it text', () => {
    const flow = fm('name: daily-news-report', 'description: [optional: date] Collect the day\'s news.');
    const r = parseFrontMatter(flow);
    // `[...]` followed by text fails to parse; alone it is a list.
    assert.match(r.error!.message, /the description starts with '\[', which YAML reads as the start of a list/);
    assert.equal(parseFrontMatter(apply(flow, r.error!.fixes![0])).data.description, "[optional: date] Collect the day's news.");
    const list = fm('name: daily-news-report', 'description: [optional: date]');
    const l = parseFrontMatter(list);
    assert.deepEqual(l.data.description, [{ optional: 'date' }]);
    const [f] = validateFrontMatter(l, 'daily-news-report');
    assert.equal(f.code, 'frontmatter.description-empty');
    assert.match(f.message, /must be a non-empty string \(YAML reads a value in \[brackets\] as a list; put it in quotes if the brackets are part of the text\)/);
    assert.equal(parseFrontMatter(apply(list, l.pitfalls[0].fixes[0])).data.description, '[optional: date]');

    const block = fm('name: pdf-extract', 'description:', '  - Extract text from PDF files.', '  - Fill PDF forms.', 'license: MIT');
    const b = parseFrontMatter(block);
    assert.match(validateFrontMatter(b, 'pdf-extract')[0].message, /YAML reads lines that start with "- " as list items/);
    const joined = parseFrontMatter(apply(block, b.pitfalls[0].fixes[0]));
    assert.equal(joined.data.description, 'Extract text from PDF files. Fill PDF forms.');
    assert.equal(joined.data.license, 'MIT');
  });

  it('a value that starts with a YAML indicator says which', () => {
    const r = parseFrontMatter(fm('name: a', 'description: *Always* use this for PDFs.'));
    assert.match(r.error!.message, /the description starts with '\*', which YAML reads as an alias/);
    assert.equal(parseFrontMatter(apply(fm('name: a', 'description: *Always* use this for PDFs.'), r.error!.fixes![0])).data.description, '*Always* use this for PDFs.');
  });

  it('an error it cannot explain keeps the parser reason at the parser column', () => {
    const r = parseFrontMatter(fm('name: a', 'metadata:', '  a: 1', ' b: 2'));
    assert.match(r.error!.message, /^front matter is not valid YAML: /);
    assert.equal(r.error!.fixes, undefined);
    assert.equal(r.error!.range.start.line, 4);
  });
});

describe('the shipped example library', () => {
  it('parses and validates clean (it had four descriptions with an unquoted ": ")', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const path = await import('node:path');
    const root = path.resolve(__dirname, '..', '..', '..', 'examples', 'library');
    const folders = readdirSync(root);
    assert.equal(folders.length, 13);
    for (const folder of folders) {
      const text = readFileSync(path.join(root, folder, 'SKILL.md'), 'utf8');
      assert.deepEqual(validateFrontMatter(parseFrontMatter(text), folder, ['spec', 'claude-code']), [], folder);
    }
  });
});
