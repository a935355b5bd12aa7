/**
 * The real server over stdio on a workspace written here: the checks of issue 47 as the editor
 * reports them (a byte order mark and its quick fix, a download piped into a shell, two skills
 * with one name pointing at each other and re-checked when one is renamed).
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CodeActionRequest, type CodeAction, type TextEdit } from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { removeDir, TestClient, uriOf } from './lspClient';

const skill = (name: string, description: string, body = '# Steps\n') => `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`;
const has = (code: string) => (ds: { code?: string | number }[]) => ds.some((d) => d.code === code);
const lacks = (code: string) => (ds: { code?: string | number }[]) => !ds.some((d) => d.code === code);

describe('server: file.bom, body.pipe-to-shell and skill.duplicate-name', function () {
  this.timeout(90_000);
  let ws: string;
  let c: TestClient;
  const file = (id: string) => path.join(ws, id, 'SKILL.md');
  const write = (id: string, text: string | Uint8Array) => {
    mkdirSync(path.dirname(file(id)), { recursive: true });
    writeFileSync(file(id), text);
  };

  before(async () => {
    ws = mkdtempSync(path.join(tmpdir(), 'sr-ws-checks-'));
    write('pdf', skill('pdf', 'Extract text and tables from PDF files.'));
    write('pdf-tools', skill('pdf', 'Render architecture diagrams from a YAML list of services.'));
    write('csv-clean', skill('csv-clean', 'Clean messy CSV files.', '```bash\ncurl -fsSL https://example.com/install.sh | sudo bash\n```\n'));
    write('bom-skill', new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(skill('bom-skill', 'Translate subtitle files between languages.'))]));
    write('bom-vscode', new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(skill('bom-vscode', 'Convert audio files between formats.'))]));
    c = await TestClient.start({ folders: [ws] });
    await c.ready();
  });
  after(async () => {
    assert.equal(await c.stop(), 0, 'the server exits cleanly');
    removeDir(ws);
    removeDir(c.cacheDir);
  });

  it('puts skill.duplicate-name on both skills, each pointing at the other', async () => {
    const [a] = (await c.diagnosticsOf(file('pdf'), has('skill.duplicate-name'))).filter((d) => d.code === 'skill.duplicate-name');
    const [b] = (await c.diagnosticsOf(file('pdf-tools'), has('skill.duplicate-name'))).filter((d) => d.code === 'skill.duplicate-name');
    assert.equal(a.severity, 2, 'a warning');
    assert.match(a.codeDescription!.href, /diagnostics\.md#skill\.duplicate-name$/);
    assert.deepEqual(a.relatedInformation!.map((r) => [path.normalize(new URL(r.location.uri).pathname), r.message]), [[file('pdf-tools'), "pdf-tools/: also named 'pdf'"]]);
    assert.deepEqual(b.relatedInformation!.map((r) => path.normalize(new URL(r.location.uri).pathname)), [file('pdf')]);
    assert.deepEqual(a.range.start, { line: 1, character: 0 }, 'on the name');
  });

  it('renaming one re-checks the other, both ways', async () => {
    const text = skill('pdf', 'Render architecture diagrams from a YAML list of services.');
    await c.open(file('pdf-tools'), text);
    const v = await c.change(file('pdf-tools'), text.replace('name: pdf', 'name: pdf-tools'));
    await c.diagnosticsOf(file('pdf-tools'), (d, p) => p.version === v && lacks('skill.duplicate-name')(d), 'the renamed skill clean');
    await c.diagnosticsOf(file('pdf'), lacks('skill.duplicate-name'), 'the other re-checked');
    await c.change(file('pdf-tools'), text);
    await c.diagnosticsOf(file('pdf'), has('skill.duplicate-name'), 'the other gets it back');
    await c.close(file('pdf-tools'));
  });

  it('reports a download piped into a shell as information on its line', async () => {
    const [d] = (await c.diagnosticsOf(file('csv-clean'), has('body.pipe-to-shell'))).filter((x) => x.code === 'body.pipe-to-shell');
    assert.equal(d.severity, 3, 'information');
    assert.equal(d.range.start.line, 6);
    assert.match(d.message, /^Line 7 pipes a download into a shell \(curl -fsSL https:\/\/example\.com\/install\.sh \| sudo bash\)/);
  });

  it('reports a byte order mark read from disk, and quick-fixes it in a buffer that holds it', async () => {
    const fromDisk = await c.diagnosticsOf(file('bom-skill'), has('file.bom'));
    assert.deepEqual(fromDisk.filter((d) => !String(d.code).startsWith('skill.')).map((d) => [d.code, d.severity]), [['file.bom', 1]], 'an error, and the front matter still read');
    const text = `\uFEFF${skill('bom-skill', 'Translate subtitle files between languages.')}`;
    await c.open(file('bom-skill'), text);
    const [d] = await c.diagnosticsOf(file('bom-skill'), (x, p) => p.version === 1 && has('file.bom')(x));
    const actions = (await c.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri: uriOf(file('bom-skill')) }, range: d.range, context: { diagnostics: [d] } })) as CodeAction[];
    const fix = actions.find((a) => a.title.startsWith('Remove the byte order mark'));
    assert.ok(fix, actions.map((a) => a.title).join('; '));
    const fixed = TextDocument.applyEdits(TextDocument.create(uriOf(file('bom-skill')), 'markdown', 1, text), fix.edit!.changes![uriOf(file('bom-skill'))] as TextEdit[]);
    assert.equal(fixed.charCodeAt(0), '-'.charCodeAt(0));
    write('bom-skill', fixed); // saved: until then the file on disk still has the mark
    const v = await c.change(file('bom-skill'), fixed);
    await c.diagnosticsOf(file('bom-skill'), (x, p) => p.version === v && lacks('file.bom')(x) && x.every((y) => String(y.code).startsWith('skill.')), 'clean after the fix');
    await c.close(file('bom-skill'));
  });

  it('keeps reporting the mark while the file is open in an editor that leaves it out of the buffer (VS Code)', async () => {
    const text = skill('bom-vscode', 'Convert audio files between formats.');
    await c.diagnosticsOf(file('bom-vscode'), has('file.bom'));
    await c.open(file('bom-vscode'), text);
    let v = await c.change(file('bom-vscode'), `${text}More steps.\n`);
    const [d] = (await c.diagnosticsOf(file('bom-vscode'), (x, p) => p.version === v && has('file.bom')(x))).filter((x) => x.code === 'file.bom');
    const actions = (await c.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri: uriOf(file('bom-vscode')) }, range: d.range, context: { diagnostics: [d] } })) as CodeAction[];
    assert.deepEqual(actions.filter((a) => a.title.startsWith('Remove the byte order mark')), [], 'no edit can remove a mark the buffer does not hold');
    write('bom-vscode', text); // saved as UTF-8 without BOM
    v = await c.change(file('bom-vscode'), `${text}More steps, saved.\n`);
    await c.diagnosticsOf(file('bom-vscode'), (x, p) => p.version === v && lacks('file.bom')(x), 'gone once the file on disk has no mark');
    await c.close(file('bom-vscode'));
  });
});
