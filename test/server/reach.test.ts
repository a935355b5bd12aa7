/**
 * The real server over stdio (words only): `skill.unreachable` on an open skill whose body
 * answers its requests and whose description does not, after its cross-skill checks; its quick
 * fix adds the verified words; skills that are not open are not measured; the setting turns it off.
 * And `skillRouter/route` with `view`: the shown results' ranks in a client's listing, and why.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CodeActionRequest, type CodeAction, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { RouteRequest, type RouteResponse } from '../../src/shared/protocol';
import { applyEdits, copyFixture, removeDir, TestClient, uriOf } from './lspClient';

const unreachable = (ds: Diagnostic[]) => ds.filter((d) => d.code === 'skill.unreachable');

describe('server: skill.unreachable (reach workspace)', function () {
  this.timeout(90_000);
  let ws: string;
  let c: TestClient;
  const file = (id: string) => path.join(ws, id, 'SKILL.md');

  beforeEach(async () => {
    ws = copyFixture('reach');
    c = await TestClient.start({ folders: [ws] });
    await c.ready();
  });
  afterEach(async () => {
    assert.equal(await c.stop(), 0, 'the server exits cleanly');
    removeDir(ws);
    removeDir(c.cacheDir);
  });

  it('reports an open skill the listing loses, with the words; the quick fix adds them and the finding goes', async () => {
    const text = readFileSync(file('dotnet-ui'), 'utf8');
    await c.open(file('dotnet-ui'), text);
    const [d] = unreachable(await c.diagnosticsOf(file('dotnet-ui'), (x) => unreachable(x).length > 0, 'skill.unreachable on the open skill'));
    assert.match(d.message, /^0 of 3 requests \(probes written from its body: it has no tests or evals\) reach this skill first in Claude Code's listing \(0%, below 50%\); 3 do in the full text\. Add to the description: Blazor, EditForm, cascading/);
    assert.equal(d.severity, 3, 'information in the editor (an error in check)');
    assert.match(d.codeDescription!.href, /diagnostics\.md#skill\.unreachable$/);
    assert.equal(d.range.start.line, 2, 'on the description');
    assert.deepEqual((d.data as { words: string[] }).words, ['Blazor', 'EditForm', 'cascading']);
    assert.deepEqual(unreachable(c.current(file('blazor-intro'))), [], 'a skill that is not open is not measured');

    const actions = (await c.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri: uriOf(file('dotnet-ui')) }, range: d.range, context: { diagnostics: [d] } })) as CodeAction[];
    const add = actions.find((a) => a.title.startsWith('add: '));
    assert.equal(add?.title, 'add: Blazor, EditForm, cascading (to the description)');
    const fixed = applyEdits(text, add!.edit!.changes![uriOf(file('dotnet-ui'))]);
    assert.match(fixed, /^description: Builds \.NET user interfaces for desktop and web apps\. Blazor, EditForm, cascading$/m);
    const v = await c.change(file('dotnet-ui'), fixed);
    await c.diagnosticsOf(file('dotnet-ui'), (x, p) => p.version === v && unreachable(x).length === 0, 'measured again: reached');
  });

  it('skillRouter.reach.client off turns it off', async () => {
    await c.open(file('dotnet-ui'), readFileSync(file('dotnet-ui'), 'utf8'));
    await c.diagnosticsOf(file('dotnet-ui'), (x) => unreachable(x).length > 0);
    await c.setSettings({ reach: { client: 'off' } });
    await c.diagnosticsOf(file('dotnet-ui'), (x) => unreachable(x).length === 0, 'gone with the setting');
  });

  it('says nothing on a skill it has nothing to suggest for (no words to add, no cut of its own)', async () => {
    await c.open(file('ci-pipelines'), readFileSync(file('ci-pipelines'), 'utf8'));
    await c.open(file('dotnet-ui'), readFileSync(file('dotnet-ui'), 'utf8'));
    // Measured after dotnet-ui's (the open skills are measured in turn): ci-pipelines had its turn by then.
    await c.diagnosticsOf(file('dotnet-ui'), (x) => unreachable(x).length > 0);
    assert.deepEqual(unreachable(c.current(file('ci-pipelines'))), []);
  });

  it('skillRouter/route with view.of: where the full-text results rank in the listing, and why lower there', async () => {
    const query = 'Blazor components with EditForm validation and cascading parameters';
    const full = (await c.conn.sendRequest(RouteRequest, { query, k: 3 })) as RouteResponse;
    assert.equal(full.results[0].skillId, 'dotnet-ui');
    assert.equal(full.view, undefined);
    const uris = full.results.map((r) => r.uri);
    const res = (await c.conn.sendRequest(RouteRequest, { query, k: 1, view: { client: 'claude-code', of: uris } })) as RouteResponse;
    assert.deepEqual(res.view, { client: 'claude-code', label: 'Claude Code' });
    const ui = res.listing!.find((r) => r.skillId === 'dotnet-ui')!;
    assert.equal(ui.uri, uris[0], 'keyed by the URI asked');
    assert.ok(ui.rank === null || ui.rank > 1, `the listing ranks it lower: ${ui.rank}`);
    assert.deepEqual(ui.bodyOnly, ['Blazor', 'components', 'EditForm', 'validation', 'cascading']);
    assert.equal(res.results.length, 1);
    await assert.rejects(c.conn.sendRequest(RouteRequest, { query, view: { client: 'vim' } } as never), (err: { code?: number }) => err.code === -32602);
  });
});
