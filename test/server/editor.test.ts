/**
 * The real server over stdio as the VS Code extension starts it (editor version, progress drawn
 * from the status): what it reports where VS Code reports nothing itself, the YAML mistakes and
 * their quick fix, the listing behind the budget meter, the queued recheck, and cancelling an index.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CodeActionRequest, type CodeAction } from 'vscode-languageserver-protocol/node';
import { CancelIndexNotification, IndexStatusRequest, ListingRequest, ReindexRequest } from '../../src/shared/protocol';
import { applyEdits, copyFixture, removeDir, TestClient, uriOf } from './lspClient';

const codes = (ds: { code?: string | number }[]) => ds.map((d) => String(d.code)).filter((c) => !c.startsWith('skill.')).sort();

describe('server: as the VS Code extension starts it (duplicates workspace)', function () {
  this.timeout(90_000);
  let ws: string;
  let c: TestClient;
  let progressCreated = 0;
  const file = (id: string) => path.join(ws, id, 'SKILL.md');

  before(async () => {
    ws = copyFixture('duplicates');
    c = await TestClient.start({
      folders: [ws],
      init: { editor: { name: 'vscode', version: '1.100.3' }, progressFromStatus: true },
      recheckMs: 1500,
      onProgressCreate: () => progressCreated++,
    });
    await c.ready();
  });
  after(async () => {
    assert.equal(await c.stop(), 0);
    removeDir(ws);
    removeDir(c.cacheDir);
  });

  it('draws no work-done progress when the client shows progress from the status', () => {
    assert.equal(progressCreated, 0);
    assert.equal(c.progress.length, 0);
    assert.ok(c.statuses.some((s) => s.state === 'indexing' && s.progress), 'the status carried the progress');
  });

  it('reports name-mismatch and unknown-key: VS Code 1.100 reports nothing on SKILL.md, so the editor and check agree', async () => {
    const text = readFileSync(file('k8s-deploy'), 'utf8').replace('name: k8s-deploy', 'name: k8s-deployer').replace('---\n\n', 'tags: [k8s]\n---\n\n');
    await c.open(file('k8s-deploy'), text);
    const d = await c.diagnosticsOf(file('k8s-deploy'), (x, p) => p.version === 1 && codes(x).length > 0);
    assert.deepEqual(codes(d), ['frontmatter.name-mismatch', 'frontmatter.unknown-key']);
    await c.close(file('k8s-deploy'));
  });

  it('explains an unquoted ": " at its column and quick-fixes it by quoting', async () => {
    const original = readFileSync(file('k8s-deploy'), 'utf8');
    const broken = original.replace(/^description: .*$/m, 'description: Deploy services to Kubernetes: Helm charts, rollbacks and probes.');
    await c.open(file('k8s-deploy'), broken);
    const [d] = await c.diagnosticsOf(file('k8s-deploy'), (x, p) => p.version === 1 && x.some((y) => y.code === 'frontmatter.invalid-yaml'));
    assert.equal(d.message, "front matter is not valid YAML: the description contains ': ', which YAML reads as a nested key; put the value in quotes or use `description: >-`");
    assert.deepEqual(d.range.start, { line: 2, character: 'description: Deploy services to Kubernetes'.length });
    const actions = (await c.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri: uriOf(file('k8s-deploy')) }, range: d.range, context: { diagnostics: [d] } })) as CodeAction[];
    assert.deepEqual(actions.map((a) => a.title), ['Put the description in double quotes', 'Write the description as a folded block (description: >-)']);
    assert.equal(actions[0].isPreferred, true);
    const fixed = applyEdits(broken, actions[0].edit!.changes![uriOf(file('k8s-deploy'))]);
    assert.match(fixed, /^description: "Deploy services to Kubernetes: Helm charts, rollbacks and probes\."$/m);
    const v = await c.change(file('k8s-deploy'), fixed);
    await c.diagnosticsOf(file('k8s-deploy'), (x, p) => p.version === v && codes(x).length === 0);
    await c.close(file('k8s-deploy'));
    await c.diagnosticsOf(file('k8s-deploy'), (_x, p) => p.version === undefined || p.version === null, 'disk wins again');
  });

  it('offers the YAML quick fix on a skill the index does not know yet (a new folder)', async () => {
    const fresh = path.join(ws, 'docx-writer', 'SKILL.md');
    const text = '---\nname: docx-writer\ndescription: Create and edit Word (.docx) documents: headings, styles, tables.\n---\n\n# Word\n';
    await c.open(fresh, text);
    const [d] = await c.diagnosticsOf(fresh, (x) => x.some((y) => y.code === 'frontmatter.invalid-yaml'));
    const actions = (await c.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri: uriOf(fresh) }, range: d.range, context: { diagnostics: [d] } })) as CodeAction[];
    assert.equal(actions[0]?.title, 'Put the description in double quotes');
    await c.close(fresh);
    // Not on disk: closing drops it from the index again (and its diagnostics).
    await c.diagnosticsOf(fresh, (x) => x.length === 0, 'the closed buffer cleared');
  });

  it('names the twin\'s folder in related information (every file is a SKILL.md)', async () => {
    const [d] = await c.diagnosticsOf(file('csv-tidy'), (x) => x.some((y) => y.code === 'skill.near-duplicate'));
    assert.equal(d.relatedInformation![0].message, 'csv-cleaner/: near-duplicate skill "csv-cleaner"');
  });

  it('skillRouter/listing: every skill by listing cost, most expensive first, summing to the meter', async () => {
    const res = await c.conn.sendRequest(ListingRequest);
    assert.equal(res.profile, 'claude-code');
    assert.equal(res.budget, 8000);
    assert.equal(res.skills.length, 3);
    const chars = res.skills.map((s) => s.chars);
    assert.deepEqual(chars, [...chars].sort((a, b) => b - a));
    assert.equal(chars.reduce((a, b) => a + b, 0), res.used);
    assert.equal(res.used, (await c.conn.sendRequest(IndexStatusRequest)).budget.used);
    assert.equal(res.skills[0].uri, uriOf(file(res.skills[0].skillId)));
  });

  it('a description edit queues the recheck: the status says it waits, then it runs and ends', async () => {
    const text = readFileSync(file('k8s-deploy'), 'utf8');
    await c.open(file('k8s-deploy'), text);
    const from = c.statuses.length;
    const edited = text.replace('Deploy a service', 'Deploy and scale a service');
    assert.notEqual(edited, text, 'the edit changes the description');
    await c.change(file('k8s-deploy'), edited);
    const waiting = await c.waitFor(() => c.statuses.slice(from).find((s) => s.analysis?.waiting), 'a status with the recheck waiting');
    assert.equal(waiting.analysis!.pass, 'recheck');
    assert.equal(waiting.analysis!.done, 0);
    assert.ok(waiting.analysis!.waiting!.delayMs >= 1500);
    const i = c.statuses.indexOf(waiting);
    await c.waitFor(() => c.statuses.slice(i + 1).some((s) => s.analysis === null), 'the recheck to end');
    await c.change(file('k8s-deploy'), text);
    await c.close(file('k8s-deploy'));
  });

  it('skillRouter/cancelIndex stops an index: the folder ends cancelled, and a reindex brings it back', async () => {
    const answer = c.conn.sendRequest(ReindexRequest);
    await c.conn.sendNotification(CancelIndexNotification);
    const s = await answer;
    assert.equal(s.state, 'cancelled');
    assert.equal((await c.conn.sendRequest(ReindexRequest)).state, 'ready');
  });
});
