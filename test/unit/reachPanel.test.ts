/** Both ranks in the query panel: `skillRouter/route` with `view`, its docs, and the panel's shapes. */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createSkillService } from '../../src/core/route/skillService';
import { toPanelListing } from '../../src/client/panelRouting';
import { routeFolder } from '../../src/server/listingRanks';
import { isRouteView, LISTING_RANK_KEYS, ROUTE_PARAM_KEYS } from '../../src/shared/protocol';
import { isHostMessage, isWebviewMessage, listingClientOf } from '../../src/shared/webviewProtocol';
import { BODY_ONLY_REQUEST, bodyOnlyLibrary, FakeEmbedder, MemoryWorkspace } from '../helpers/fakes';

const ROOT = path.resolve(__dirname, '..', '..', '..');

describe('panel: full-text and listing ranks', () => {
  it('docs/lsp-extensions.md lists every RouteParams key and every listing rank field', () => {
    const doc = readFileSync(path.join(ROOT, 'docs/lsp-extensions.md'), 'utf8');
    const route = doc.slice(doc.indexOf('## skillRouter/route'), doc.indexOf('## skillRouter/indexStatus'));
    const params = route.slice(route.indexOf('params: {'), route.indexOf('result: {'));
    for (const key of ROUTE_PARAM_KEYS) assert.match(params, new RegExp(`^\\s+${key}\\??:`, 'm'), `params.${key}`);
    const listing = route.slice(route.indexOf('listing?: {'));
    for (const key of LISTING_RANK_KEYS) assert.match(listing, new RegExp(`^\\s+${key}\\??:`, 'm'), `listing[].${key}`);
  });

  it('a view names a listing client, and at most 100 SKILL.md URIs to rank', () => {
    assert.ok(isRouteView({ client: 'claude-code' }));
    assert.ok(isRouteView({ client: 'cursor', of: ['file:///a/SKILL.md'] }));
    for (const bad of [null, 'claude-code', {}, { client: 'spec' }, { client: 'codex', of: 'x' }, { client: 'codex', of: Array(101).fill('u') }, { client: 'codex', extra: 1 }]) {
      assert.equal(isRouteView(bad), false, JSON.stringify(bad)?.slice(0, 60));
    }
  });

  it('ranks a folder over the listing and says where the asked skills rank there, and why', async () => {
    const files = bodyOnlyLibrary();
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder: new FakeEmbedder() });
    await svc.index();
    const uriOf = (p: string) => `file:///lib/${p}`;
    const q = BODY_ONLY_REQUEST;
    const full = await routeFolder(svc, q, { k: 3, rerank: true }, uriOf);
    assert.equal(full.result.candidates[0].skillId, 'forms');
    assert.deepEqual(full.ranks, [], 'no view, no ranks');
    const { result, ranks } = await routeFolder(svc, q, { k: 1, rerank: true, view: { client: 'claude-code', of: [uriOf('forms/SKILL.md'), 'file:///elsewhere/SKILL.md'] } }, uriOf);
    assert.equal(result.candidates.length, 1, 'k results, however deep the ranks are read');
    assert.equal(result.view?.client, 'claude-code');
    assert.equal(ranks.length, 1, 'only skills of this folder');
    const [forms] = ranks;
    assert.equal(forms.uri, uriOf('forms/SKILL.md'));
    assert.ok(forms.rank !== null && forms.rank > 1, `lower in the listing: ${forms.rank}`);
    assert.ok(!forms.cut && !forms.dropped && forms.listedChars === 'Builds .NET user interfaces.'.length);
    assert.deepEqual(forms.bodyOnly, ['Blazor', 'component', 'parameters', 'event', 'callbacks']);
  });

  it('the panel host keys the ranks by the URIs the panel shows; the messages carry the client and the ranks', () => {
    const rank = { uri: 'file:///w/a%20b/SKILL.md', skillId: 'a b', rank: 7, depth: 50, listedChars: 90, fullChars: 300, cut: true, dropped: false, omitted: false, why: 'cut at 90 characters', bodyOnly: ['Blazor'] };
    const listing = toPanelListing({ view: { client: 'codex', label: 'Codex' }, listing: [rank] }, 'codex', 'Codex', (u) => u.replace('%20', ' '));
    assert.deepEqual(listing, { client: 'codex', label: 'Codex', ranks: [{ uri: 'file:///w/a b/SKILL.md', rank: 7, depth: 50, listedChars: 90, fullChars: 300, cut: true, dropped: false, omitted: false, why: 'cut at 90 characters', bodyOnly: ['Blazor'] }] });
    assert.equal(toPanelListing({}, 'codex', 'Codex', (u) => u), undefined);
    assert.ok(isWebviewMessage({ type: 'route', requestId: 1, query: 'q', k: 10, client: 'copilot' }));
    assert.equal(isWebviewMessage({ type: 'route', requestId: 1, query: 'q', k: 10, client: 'spec' }), false);
    const results = { type: 'results', active: null, requestId: 1, query: 'q', k: 10, results: [], dense: { model: 'm' }, totalMs: 1 };
    assert.ok(isHostMessage({ ...results, listing }));
    assert.equal(isHostMessage({ ...results, listing: { ...listing, ranks: [{ ...listing!.ranks[0], rank: 0 }] } }), false);
    assert.equal(listingClientOf('spec'), undefined);
    assert.equal(listingClientOf('claude-code'), 'claude-code');
  });
});
