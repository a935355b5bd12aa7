/** The real server over stdio: multi-root folders, custom requests, progress, editor features. */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  CodeActionRequest,
  CompletionRequest,
  HoverRequest,
  ResponseError,
  type CodeAction,
  type CompletionItem,
  type MarkupContent,
} from 'vscode-languageserver-protocol/node';
import { IndexStatusRequest, ReindexRequest, RouteRequest } from '../../src/shared/protocol';
import { copyFixture, removeDir, TestClient, uriOf } from './lspClient';

describe('server: multi-root workspace', function () {
  this.timeout(90_000);
  let root: string;
  let c: TestClient;
  const a = () => path.join(root, 'team-a');
  const b = () => path.join(root, 'team-b');

  before(async () => {
    root = copyFixture('multi-root');
    c = await TestClient.start({ folders: [a(), b()] });
    await c.ready();
  });
  after(async () => {
    assert.equal(await c.stop(), 0);
    removeDir(root);
    removeDir(c.cacheDir);
  });

  it('indexes every folder and reports each in indexStatus', async () => {
    const s = await c.conn.sendRequest(IndexStatusRequest);
    assert.equal(s.state, 'ready');
    assert.equal(s.skills, 4);
    assert.deepEqual(s.folders.map((f) => [path.basename(new URL(f.uri).pathname), f.state, f.skills]), [['team-a', 'ready', 2], ['team-b', 'ready', 2]]);
    assert.equal(s.model, null);
    assert.match(s.semanticDisabled!, /no model/);
    assert.equal(s.budget.profile, 'claude-code');
    assert.equal(s.budget.budget, 8000);
    assert.ok(s.budget.used > 100);
    assert.ok(s.timings.indexMs !== null);
    assert.equal(s.lastError, null);
  });

  it('finds near-duplicates within a folder', async () => {
    const d = await c.diagnosticsOf(path.join(b(), 'helm-release', 'SKILL.md'), (x) => x.length > 0);
    assert.equal(d[0].code, 'skill.near-duplicate');
    await c.diagnosticsOf(path.join(a(), 'pdf-extract', 'SKILL.md'), (x) => x.length === 0);
  });

  it('skillRouter/route ranks skills of all folders with stage scores and passages', async () => {
    const r = await c.conn.sendRequest(RouteRequest, { query: 'pull the tables out of a scanned PDF invoice', k: 3 });
    assert.equal(r.results[0].skillId, 'pdf-extract');
    assert.equal(r.results[0].folder, uriOf(a()));
    assert.equal(r.results[0].uri, uriOf(path.join(a(), 'pdf-extract', 'SKILL.md')));
    assert.deepEqual(r.results.map((x) => x.rank), r.results.map((_, i) => i + 1));
    assert.ok(r.results.length <= 3);
    const s = r.results[0].scores;
    assert.equal(s.dense, null);
    assert.ok(s.lexical > 0 && s.final > 0);
    assert.ok(r.results[0].passage && r.results[0].passage.matchedTerms.length > 0);
    assert.ok('disabled' in r.dense);
    // The engine's set travels with the answer, for the panel's set view: its members lead the list.
    assert.ok(r.set, 'route with rerank carries the set');
    assert.deepEqual(r.set.ids, r.results.slice(0, r.set.size).map((x) => x.skillId));
    const unranked = await c.conn.sendRequest(RouteRequest, { query: 'pull the tables out of a scanned PDF invoice', k: 3, rerank: false });
    assert.equal(unranked.set, undefined);
    const onlyB = await c.conn.sendRequest(RouteRequest, { query: 'pdf tables', folder: uriOf(b()) });
    assert.ok(onlyB.results.every((x) => x.folder === uriOf(b())));
    await assert.rejects(c.conn.sendRequest(RouteRequest, { query: '  ' }), (e: ResponseError<unknown>) => e.code === -32602);
    // A Chinese request: routed through the dictionary bridge, which says how it read it.
    assert.equal(r.readAs, undefined);
    const zh = await c.conn.sendRequest(RouteRequest, { query: '把扫描的PDF发票里的表格提取出来', k: 3 });
    assert.equal(zh.results[0].skillId, 'pdf-extract');
    assert.match(zh.readAs ?? '', /\bPDF invoice\b.*\btable\b.*\bextract\b/);
    // A request that declines a step: the clause comes back as written, and was not matched.
    assert.equal(r.declined, undefined);
    const declining = await c.conn.sendRequest(RouteRequest, { query: 'pull the tables out of a scanned PDF invoice, but do not deploy anything', k: 3 });
    assert.equal(declining.results[0].skillId, 'pdf-extract');
    assert.deepEqual(declining.declined, ['do not deploy anything']);
  });

  it('drops a removed folder with its diagnostics, and indexes an added one', async () => {
    const helm = path.join(b(), 'helm-release', 'SKILL.md');
    await c.diagnosticsOf(helm, (x) => x.length > 0);
    await c.foldersChanged([], [b()]);
    await c.diagnosticsOf(helm, (x) => x.length === 0, 'cleared with its folder');
    await c.waitFor(() => c.statuses[c.statuses.length - 1].folders.length === 1, 'one folder left');
    await c.foldersChanged([b()], []);
    await c.waitFor(() => {
      const s = c.statuses[c.statuses.length - 1];
      return s.folders.length === 2 && s.folders.every((f) => f.state === 'ready');
    }, 'both folders again');
    await c.diagnosticsOf(helm, (x) => x.length > 0);
  });
});

describe('server: requests and editor features (duplicates workspace)', function () {
  this.timeout(90_000);
  let ws: string;
  let c: TestClient;
  const file = (id: string) => path.join(ws, id, 'SKILL.md');

  before(async () => {
    ws = copyFixture('duplicates');
    c = await TestClient.start({ folders: [ws] });
    await c.ready();
  });
  after(async () => {
    assert.equal(await c.stop(), 0);
    removeDir(ws);
    removeDir(c.cacheDir);
  });

  it('reports indexing as cancellable work-done progress, begin to end', async () => {
    const kinds = c.progress.map((p) => p.value.kind);
    assert.equal(kinds[0], 'begin');
    assert.equal(kinds[kinds.length - 1], 'end');
    assert.equal(c.progress[0].value.cancellable, true);
    assert.ok(c.registrations.includes('workspace/didChangeWatchedFiles'));
    assert.ok(c.registrations.includes('workspace/didChangeConfiguration'));
  });

  it('skillRouter/reindex re-reads the folder and answers with the status', async () => {
    const before = c.progress.length;
    const s = await c.conn.sendRequest(ReindexRequest);
    assert.equal(s.state, 'ready');
    assert.equal(s.skills, 3);
    assert.ok(c.progress.length > before, 'a new progress report');
  });

  it('hover explains a front-matter key; completion offers the keys the profile allows', async () => {
    const text = readFileSync(file('csv-tidy'), 'utf8');
    await c.open(file('csv-tidy'), text);
    const hover = await c.conn.sendRequest(HoverRequest.type, { textDocument: { uri: uriOf(file('csv-tidy')) }, position: { line: 2, character: 2 } });
    assert.match((hover!.contents as MarkupContent).value, /^\*\*description\*\*/);
    const v = await c.change(file('csv-tidy'), text.replace('---\n\n', '\n---\n\n'));
    await c.diagnosticsOf(file('csv-tidy'), (_d, p) => p.version === v);
    const complete = async () =>
      ((await c.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: uriOf(file('csv-tidy')) }, position: { line: 3, character: 0 } })) as CompletionItem[]).map((i) => i.label);
    // A folder that is no client's skill folder: the spec alone.
    const labels = await complete();
    assert.ok(labels.includes('license') && !labels.includes('when_to_use'), labels.join(', '));
    assert.ok(!labels.includes('name'), 'present keys are not offered');
    await c.setSettings({ profiles: ['claude-code'] });
    const deadline = Date.now() + 30_000;
    while (!(await complete()).includes('when_to_use')) {
      assert.ok(Date.now() < deadline, 'Claude Code\'s keys offered once the profile is set');
      await new Promise((r) => setTimeout(r, 50));
    }
    await c.setSettings({});
    await c.ready();
    await c.close(file('csv-tidy'));
  });

  it('quick fixes on a near-duplicate: dismissals, and no line made of incidental words when the two say the same', async () => {
    const text = readFileSync(file('csv-tidy'), 'utf8');
    await c.open(file('csv-tidy'), text);
    const [d] = await c.diagnosticsOf(file('csv-tidy'), (x, p) => p.version === 1 && x.length === 1);
    const actions = (await c.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: uriOf(file('csv-tidy')) },
      range: d.range,
      context: { diagnostics: [d] },
    })) as CodeAction[];
    assert.deepEqual(actions.map((x) => x.title), [
      'Ignore skill.near-duplicate about "csv-cleaner" in this skill (comment)',
      'Ignore every finding about "csv-cleaner" in this skill (front matter metadata)',
    ]);
    assert.doesNotMatch(JSON.stringify(actions.map((a) => a.edit)), /Clean messy CSV files before analysis/, 'nothing of its own text is offered back');
    await c.close(file('csv-tidy'));
  });

  it('offers "set name to the folder name" on a mismatched name', async () => {
    const text = readFileSync(file('k8s-deploy'), 'utf8').replace('name: k8s-deploy', 'name: k8s-deployer');
    await c.open(file('k8s-deploy'), text);
    const actions = (await c.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: uriOf(file('k8s-deploy')) },
      range: { start: { line: 1, character: 3 }, end: { line: 1, character: 3 } },
      context: { diagnostics: [] },
    })) as CodeAction[];
    assert.equal(actions[0].title, 'Set name to the folder name "k8s-deploy"');
    assert.equal(actions[0].edit!.changes![uriOf(file('k8s-deploy'))][0].newText, 'name: k8s-deploy');
    await c.close(file('k8s-deploy'));
  });

  it('answers an unknown document without failing', async () => {
    const hover = await c.conn.sendRequest(HoverRequest.type, { textDocument: { uri: 'file:///nowhere/SKILL.md' }, position: { line: 0, character: 0 } });
    assert.equal(hover, null);
  });
});
