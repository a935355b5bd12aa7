/**
 * References between skills over the real server: definition, references, rename (applied to
 * the files, folder included), document links, and a broken reference fixed by its quick fix.
 */
import { strict as assert } from 'node:assert';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CodeActionRequest,
  DefinitionRequest,
  DocumentLinkRequest,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  type CodeAction,
  type Location,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol/node';
import { applyEdits, removeDir, TestClient, uriOf } from './lspClient';

/** Applies a workspace edit to the files, as an editor would: text edits, then file renames, in order. */
function applyToDisk(edit: WorkspaceEdit): void {
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) {
    const file = fileURLToPath(uri);
    writeFileSync(file, applyEdits(readFileSync(file, 'utf8'), edits));
  }
  for (const change of edit.documentChanges ?? []) {
    if ('kind' in change) {
      assert.equal(change.kind, 'rename');
      renameSync(fileURLToPath(change.oldUri), fileURLToPath(change.newUri));
    } else {
      const file = fileURLToPath(change.textDocument.uri);
      writeFileSync(file, applyEdits(readFileSync(file, 'utf8'), change.edits as TextEdit[]));
    }
  }
}

const skillText = (name: string, body: string) => `---\nname: ${name}\ndescription: "${name} does its one job. Use when asked about ${name}."\n---\n\n${body}\n`;

function workspace(): string {
  const ws = mkdtempSync(path.join(tmpdir(), 'sr-refs-'));
  const put = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    writeFileSync(path.join(ws, rel), text);
  };
  put('jira-search/SKILL.md', skillText('jira-search', '# Jira search\n\nQueries Jira with JQL.'));
  put('ship/SKILL.md', skillText('ship', '# Ship\n\nUse `jira-search` for JQL, then /verify.\nSee [fill](scripts/fill.py) and `references/forms.md`.\n\n```\njira-search in a code block\n```'));
  put('ship/scripts/fill.py', 'print(1)\n');
  put('verify/SKILL.md', skillText('verify', '# Verify\n\nAfter jira-search finds the issue, check https://x.io/jira-search.'));
  return ws;
}

describe('server: references between skills', function () {
  this.timeout(90_000);
  let ws: string;
  let c: TestClient;
  const file = (id: string) => path.join(ws, id, 'SKILL.md');
  /** Line and column of the first `needle` in a file (plus `offset` characters). */
  const pos = (f: string, needle: string, offset = 1) => {
    const lines = readFileSync(f, 'utf8').split('\n');
    const line = lines.findIndex((l) => l.includes(needle));
    assert.ok(line >= 0, `${needle} in ${f}`);
    return { line, character: lines[line].indexOf(needle) + offset };
  };
  const where = (locs: Location[]) => locs.map((l) => `${path.relative(ws, fileURLToPath(l.uri))}:${l.range.start.line}:${l.range.start.character}`).sort();

  beforeEach(async () => {
    ws = workspace();
    c = await TestClient.start({ folders: [ws], workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] } });
    await c.ready();
    for (const id of ['ship', 'jira-search']) await c.open(file(id), readFileSync(file(id), 'utf8'));
  });
  afterEach(async () => {
    assert.equal(await c.stop(), 0);
    removeDir(ws);
    removeDir(c.cacheDir);
  });

  it('goes from a reference to the named skill, and finds every reference from its name', async () => {
    const def = (await c.conn.sendRequest(DefinitionRequest.type, { textDocument: { uri: uriOf(file('ship')) }, position: pos(file('ship'), '`jira-search`', 3) })) as Location[];
    assert.deepEqual(where(def), ['jira-search/SKILL.md:1:0']);
    const refs = (await c.conn.sendRequest(ReferencesRequest.type, { textDocument: { uri: uriOf(file('jira-search')) }, position: pos(file('jira-search'), 'jira-search'), context: { includeDeclaration: true } }))!;
    // Not the fenced code block in ship, nor the URL in verify.
    assert.deepEqual(where(refs), ['jira-search/SKILL.md:1:0', 'ship/SKILL.md:7:5', 'verify/SKILL.md:7:6']);
  });

  it('links the files the body points at that exist', async () => {
    const links = (await c.conn.sendRequest(DocumentLinkRequest.type, { textDocument: { uri: uriOf(file('ship')) } }))!;
    assert.deepEqual(links.map((l) => [l.range.start.line, path.relative(ws, fileURLToPath(l.target!))]), [[8, path.join('ship', 'scripts', 'fill.py')]]);
  });

  it('renames the name, every reference and the folder in one edit', async () => {
    const at = { textDocument: { uri: uriOf(file('ship')) }, position: pos(file('ship'), '`jira-search`', 2) };
    const prep = await c.conn.sendRequest(PrepareRenameRequest.type, at);
    assert.deepEqual(prep, { range: { start: { line: 7, character: 5 }, end: { line: 7, character: 16 } }, placeholder: 'jira-search' });
    await assert.rejects(c.conn.sendRequest(RenameRequest.type, { ...at, newName: 'Jira Find' }), /not a valid skill name/);
    await assert.rejects(c.conn.sendRequest(RenameRequest.type, { ...at, newName: 'verify' }), /exists already/);
    const edit = (await c.conn.sendRequest(RenameRequest.type, { ...at, newName: 'jira-find' }))!;
    applyToDisk(edit);
    assert.ok(!existsSync(path.join(ws, 'jira-search')) && existsSync(file('jira-find')), 'the folder moved');
    assert.match(readFileSync(file('jira-find'), 'utf8'), /^---\nname: jira-find\n/);
    const ship = readFileSync(file('ship'), 'utf8');
    assert.match(ship, /Use `jira-find` for JQL/);
    assert.match(ship, /jira-search in a code block/, 'code blocks are left alone');
    assert.match(readFileSync(file('verify'), 'utf8'), /After jira-find finds the issue, check https:\/\/x\.io\/jira-search\./);
  });

  it('reports a misspelt reference, and its quick fix clears it', async () => {
    const text = readFileSync(file('ship'), 'utf8').replace('`jira-search`', '`jira-serach`');
    await c.change(file('ship'), text);
    const d = await c.diagnosticsOf(file('ship'), (x) => x.some((y) => y.code === 'skill.broken-reference'));
    const broken = d.find((y) => y.code === 'skill.broken-reference')!;
    assert.match(broken.message, /did you mean 'jira-search'/);
    assert.ok(d.some((y) => y.code === 'file.broken-link' && /references\/forms\.md/.test(y.message)), 'the missing file is reported too');
    const actions = (await c.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri: uriOf(file('ship')) }, range: broken.range, context: { diagnostics: [broken] } })) as CodeAction[];
    const fix = actions.find((a) => a.title === "Replace with 'jira-search'")!;
    assert.ok(fix, JSON.stringify(actions.map((a) => a.title)));
    const fixed = applyEdits(text, fix.edit!.changes![uriOf(file('ship'))]);
    assert.equal(fixed, readFileSync(file('ship'), 'utf8'));
    await c.change(file('ship'), fixed);
    await c.diagnosticsOf(file('ship'), (x, p) => p.version === 3 && !x.some((y) => y.code === 'skill.broken-reference'));
  });
});

describe('server: rename where the client cannot rename files', function () {
  this.timeout(90_000);
  it('renames the name and references, and leaves the folder', async () => {
    const ws = workspace();
    const c = await TestClient.start({ folders: [ws] });
    try {
      await c.ready();
      const ship = path.join(ws, 'ship', 'SKILL.md');
      await c.open(ship, readFileSync(ship, 'utf8'));
      const line = readFileSync(ship, 'utf8').split('\n').findIndex((l) => l.includes('`jira-search`'));
      const edit = (await c.conn.sendRequest(RenameRequest.type, { textDocument: { uri: uriOf(ship) }, position: { line, character: 7 }, newName: 'jira-find' }))!;
      assert.equal(edit.documentChanges, undefined);
      assert.deepEqual(Object.keys(edit.changes!).map((u) => path.relative(ws, fileURLToPath(u))).sort(), [path.join('jira-search', 'SKILL.md'), path.join('ship', 'SKILL.md'), path.join('verify', 'SKILL.md')]);
    } finally {
      assert.equal(await c.stop(), 0);
      removeDir(ws);
      removeDir(c.cacheDir);
    }
  });
});

describe('server: a skill renamed re-checks the skills that name it', function () {
  this.timeout(90_000);
  it('a reference one edit from the new name gets its warning without being edited', async () => {
    const ws = workspace();
    const ship = path.join(ws, 'ship', 'SKILL.md');
    writeFileSync(ship, readFileSync(ship, 'utf8').replace('`jira-search`', '`jira-finds`'));
    const c = await TestClient.start({ folders: [ws] });
    try {
      await c.ready();
      await c.diagnosticsOf(ship, (d) => !d.some((x) => x.code === 'skill.broken-reference'));
      const jira = path.join(ws, 'jira-search', 'SKILL.md');
      await c.open(jira, readFileSync(jira, 'utf8').replace('name: jira-search', 'name: jira-find'));
      const d = await c.diagnosticsOf(ship, (x) => x.some((y) => y.code === 'skill.broken-reference'));
      assert.match(d.find((y) => y.code === 'skill.broken-reference')!.message, /did you mean 'jira-find'/);
    } finally {
      assert.equal(await c.stop(), 0);
      removeDir(ws);
      removeDir(c.cacheDir);
    }
  });
});

describe('server: references in a real collection (obra__superpowers, from ../shared/corpus)', function () {
  this.timeout(120_000);
  const corpus = path.resolve(__dirname, '../../../../shared/corpus/skills/obra__superpowers');
  let ws: string;
  let c: TestClient;

  before(async function () {
    if (!existsSync(corpus)) return this.skip();
    ws = mkdtempSync(path.join(tmpdir(), 'sr-refs-corpus-'));
    cpSync(corpus, ws, { recursive: true });
    c = await TestClient.start({ folders: [ws], init: { model: { enabled: false } } });
    await c.ready();
  });
  after(async () => {
    if (!c) return;
    await c.stop();
    removeDir(ws);
    removeDir(c.cacheDir);
  });

  it('finds where the collection names test-driven-development, and each place leads back to it', async () => {
    const tdd = path.join(ws, 'test-driven-development', 'SKILL.md');
    const text = readFileSync(tdd, 'utf8');
    await c.open(tdd, text);
    const nameLine = text.split('\n').findIndex((l) => l.startsWith('name: '));
    const refs = ((await c.conn.sendRequest(ReferencesRequest.type, {
      textDocument: { uri: uriOf(tdd) }, position: { line: nameLine, character: 'name: t'.length }, context: { includeDeclaration: false },
    })) ?? []) as Location[];
    const elsewhere = refs.filter((r) => fileURLToPath(r.uri) !== tdd);
    assert.ok(elsewhere.length >= 2, `other skills name it: ${elsewhere.length}`);
    const opened = new Set<string>();
    for (const r of elsewhere) {
      const line = readFileSync(fileURLToPath(r.uri), 'utf8').split('\n')[r.range.start.line];
      assert.equal(line.slice(r.range.start.character, r.range.end.character), 'test-driven-development', line);
      const file = fileURLToPath(r.uri);
      if (!opened.has(file)) await c.open(file, readFileSync(file, 'utf8'));
      opened.add(file);
      const defs = ((await c.conn.sendRequest(DefinitionRequest.type, { textDocument: { uri: r.uri }, position: r.range.start })) ?? []) as Location[];
      assert.equal(defs.length, 1, `definition at ${file}:${r.range.start.line + 1}`);
      assert.equal(fileURLToPath(defs[0].uri), tdd);
    }
  });

  it('reports no broken reference for the example names of writing-skills ("`creating-skills` not `skill-creation`")', async () => {
    const file = path.join(ws, 'writing-skills', 'SKILL.md');
    const ds = await c.diagnosticsOf(file, () => true);
    const examples = ['creating-skills', 'skill-creation', 'async-test-helpers', 'flatten-with-flags', 'data-structure-refactoring'];
    const broken = ds.filter((d) => d.code === 'skill.broken-reference' && examples.some((e) => d.message.includes(e)));
    assert.deepEqual(broken.map((d) => d.message), []);
  });
});
