/** DOM tests of the query panel's routing tests (saving a request as a test of the library), in headless Chromium, with a stubbed VS Code API. */
import * as assert from 'node:assert/strict';
import { isWebviewMessage } from '../../src/shared/webviewProtocol';
import { QUERY, RESULTS, resultsMessage, SET, uriOf } from './fixtures';
import { PanelPage } from './harness';
import { panelSuite } from './suite';

describe('query panel (DOM): saving a routing test', function () {
  this.timeout(60_000);
  let panel: PanelPage;
  const suite = panelSuite(() => panel, (opened) => (panel = opened));
  const { routed } = suite;

  it('pre-fills nothing: not the router\'s set, not the active skill; Save waits for the author to mark', async () => {
    await routed();
    await panel.deliver(resultsMessage(1, { set: SET, active: { uri: uriOf('pdf-build'), name: 'pdf-build', folder: 'pdf-build', rank: 3, depth: 4 } }));
    assert.equal(await panel.text('#expect-list'), '—');
    assert.equal(await panel.text('#not-expect-list'), '—');
    assert.equal(await panel.page.isChecked('#save-set'), false);
    assert.equal(await panel.page.isDisabled('#save'), true);
    assert.match(await panel.text('#save-bar .hint'), /nothing is marked for you/);
    assert.deepEqual(await panel.page.$$eval('.toggle[aria-pressed="true"]', (els) => els.length), 0);
  });

  it('runs the test before saving it, and says that it passes', async () => {
    await routed();
    await panel.deliver(resultsMessage(1));
    await panel.page.click('li.result:nth-child(1) .toggle.expect');
    await panel.page.click('li.result:nth-child(2) .toggle.expect');
    await panel.page.click('li.result:nth-child(4) .toggle.not-expect');
    assert.equal(await panel.text('#expect-list'), 'pdf-extract, 数据可视化');
    assert.equal(await panel.text('#not-expect-list'), 'docx-edit');
    assert.equal(await panel.page.getAttribute('li.result:nth-child(1) .toggle.expect', 'aria-pressed'), 'true');
    await panel.page.check('#save-set');
    await panel.page.fill('#save-top', '3');
    await panel.page.dispatchEvent('#save-top', 'change');
    await panel.page.click('#save');
    const [save] = await panel.waitForPosted('saveTest');
    assert.deepEqual(save, {
      type: 'saveTest',
      test: { query: QUERY, expect: ['pdf-extract', '数据可视化'], notExpect: ['docx-edit'], top: 3, set: true },
    });
    assert.ok(isWebviewMessage(save));
    assert.equal(await panel.page.isDisabled('#save'), true, 'no double save while the test runs');
    assert.equal(await panel.text('#save'), 'Running the test…');
    await panel.deliver({ type: 'saved', file: 'skill-router.tests.yaml', uri: 'file:///work/skills/skill-router.tests.yaml', query: QUERY, outcome: { passed: true, topN: 3, problems: [] } });
    assert.equal(await panel.text('.saved'), 'Saved to skill-router.tests.yaml. It passes now (top 3). Open the tests file');
    assert.equal(await panel.page.locator('.saved.pass').count(), 1);
    await panel.page.click('.saved button');
    const opens = await panel.waitForPosted('open');
    assert.deepEqual(opens[0], { type: 'open', uri: 'file:///work/skills/skill-router.tests.yaml' });
  });

  it('a test that would fail check at once is not saved: the panel says why, and "Save anyway" saves it', async () => {
    await routed();
    await panel.deliver(resultsMessage(1));
    await panel.page.click('li.result:nth-child(4) .toggle.not-expect');
    await panel.page.click('#save');
    await panel.waitForPosted('saveTest');
    const problem = 'expected "docx-edit" outside the top 5, but it ranked 4';
    await panel.deliver({ type: 'tested', query: QUERY, outcome: { passed: false, topN: 5, problems: [problem] } });
    assert.match(await panel.text('.test-result.fail'), /^Fails now \(top 5\): skill-router check would fail on this test at once, so it was not saved\./);
    assert.deepEqual(await panel.page.$$eval('.test-problems li', (els) => els.map((e) => e.textContent)), [problem]);
    assert.equal(await panel.page.isEnabled('#save'), true);
    await panel.page.click('#save-anyway');
    const saves = await panel.waitForPosted('saveTest', 2);
    assert.deepEqual(saves[1], { type: 'saveTest', test: { query: QUERY, expect: [], notExpect: ['docx-edit'] }, force: true });
    assert.ok(isWebviewMessage(saves[1]));
    await panel.deliver({ type: 'saved', file: 'skill-router.tests.yaml', uri: 'file:///work/skills/skill-router.tests.yaml', query: QUERY, outcome: { passed: false, topN: 5, problems: [problem] } });
    assert.match(await panel.text('.saved'), /^Saved to skill-router\.tests\.yaml\. It fails now \(top 5\)\. Open the tests file/);
    // Changing the expectation is another test: the old verdict goes.
    await panel.page.click('li.result:nth-child(4) .toggle.not-expect');
    assert.equal(await panel.page.locator('.test-result').count(), 0);
  });

  it('names skills by id in a saved test when two shown skills share a name', async () => {
    await routed();
    const results = [RESULTS[0], { ...RESULTS[1], name: 'pdf-extract', skillId: 'vendor__pdf-extract', uri: uriOf('vendor__pdf-extract') }];
    await panel.deliver(resultsMessage(1, { results }));
    await panel.page.click('li.result:nth-child(1) .toggle.expect');
    await panel.page.click('li.result:nth-child(2) .toggle.not-expect');
    await panel.page.click('#save');
    const [save] = await panel.waitForPosted('saveTest');
    assert.deepEqual(save.test, { query: QUERY, expect: ['pdf-extract'], notExpect: ['vendor__pdf-extract'] });
  });
});
