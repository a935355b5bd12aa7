/** DOM tests of the query panel (src/webview) in headless Chromium, with a stubbed VS Code API. */
import * as assert from 'node:assert/strict';
import { isWebviewMessage, MAX_READ_AS_LENGTH } from '../../src/shared/webviewProtocol';
import { INIT, LISTING, longDescription, QUERY, RESULTS, resultsMessage, SET, summary, uriOf } from './fixtures';
import { PanelPage } from './harness';
import { panelSuite } from './suite';

describe('query panel (DOM)', function () {
  this.timeout(60_000);
  let panel: PanelPage;
  const suite = panelSuite(() => panel, (opened) => (panel = opened));
  const { routed } = suite;

  it('posts ready, then a validated route request when the author types and presses Enter', async () => {
    panel = await PanelPage.open(suite.browser());
    assert.deepEqual(await panel.posted(), [{ type: 'ready' }]);
    await panel.deliver(INIT);
    await panel.page.fill('#query', `  ${QUERY}  `);
    await panel.page.press('#query', 'Enter');
    const [route] = await panel.waitForPosted('route');
    // The selected profile's client: the results come with their ranks in its listing.
    assert.deepEqual(route, { type: 'route', requestId: 1, query: QUERY, k: 10, client: 'claude-code' });
    assert.ok(isWebviewMessage(route));
    // Loading state until the answer comes.
    assert.match(await panel.text('#status'), /Routing “extract the tables/);
    assert.equal(await panel.page.getAttribute('#results', 'aria-busy'), 'true');
    assert.equal(await panel.page.evaluate('document.getElementById("app").classList.contains("loading")'), true);
  });

  it('does not post an empty request and says so', async () => {
    panel = await PanelPage.open(suite.browser());
    await panel.deliver(INIT);
    await panel.page.fill('#query', '   ');
    await panel.page.press('#query', 'Enter');
    assert.match(await panel.text('#error'), /Type a request first/);
    assert.equal((await panel.posted()).filter((m) => m.type === 'route').length, 0);
  });

  it('takes the default profile and K from init, and sends the K the author sets', async () => {
    panel = await PanelPage.open(suite.browser());
    await panel.deliver({ ...INIT, profiles: ['codex', 'spec'], k: 7 });
    assert.equal(await panel.page.inputValue('#profile'), 'codex');
    assert.equal(await panel.page.inputValue('#k'), '7');
    await panel.page.fill('#k', '3');
    await panel.page.dispatchEvent('#k', 'change');
    await panel.page.fill('#query', 'resize these photos');
    await panel.page.press('#query', 'Enter');
    const [route] = await panel.waitForPosted('route');
    assert.equal(route.k, 3);
    const [persist] = await panel.waitForPosted('persist');
    assert.equal((persist.snapshot as { profile: string }).profile, 'codex');
  });

  it('renders the ranked results: name, folder, description, stage bars with numbers, passage highlights', async () => {
    await routed();
    await panel.deliver(resultsMessage(1));
    const names = await panel.page.$$eval('li.result .name', (els) => els.map((e) => e.textContent));
    assert.deepEqual(names, RESULTS.map((r) => r.name));
    assert.deepEqual(await panel.page.$$eval('li.result .rank', (els) => els.map((e) => e.textContent)), ['1', '2', '3', '4']);
    const first = 'li.result:nth-child(1)';
    assert.equal(await panel.text(`${first} .folder`), 'pdf-extract');
    assert.equal(await panel.text(`${first} .description .listing`), RESULTS[0].description);
    // Bars: one per stage, width proportional to the score, the number next to it.
    const bars = await panel.page.$$eval(`${first} .score`, (els) =>
      els.map((e) => ({
        stage: e.getAttribute('data-stage'),
        value: e.querySelector('.value')!.textContent,
        width: (e.querySelector('.fill') as HTMLElement).style.width,
      })),
    );
    assert.deepEqual(bars, [
      { stage: 'dense', value: '0.81', width: '81.2%' },
      { stage: 'lexical', value: '1.00', width: '100%' },
      { stage: 'rerank', value: '0.95', width: '94.7%' },
    ]);
    // The passage, its place, and exactly the matched words marked.
    assert.equal(await panel.text(`${first} .passage .where`), '§ Scanned documents · line 18');
    assert.deepEqual(await panel.page.$$eval(`${first} .passage mark`, (els) => els.map((e) => e.textContent)), ['Scanned', 'invoices', 'extract', 'tables']);
    assert.equal(await panel.text(`${first} .passage .passage-text`), RESULTS[0].passage!.text);
    // CJK: the matched word inside an unspaced run is marked.
    assert.deepEqual(await panel.page.$$eval('li.result:nth-child(2) .passage mark', (els) => els.map((e) => e.textContent)), ['图表']);
    assert.match(await panel.text('#status'), /^4 skills for “extract the tables.*” · model use-lite-en@1 · 42 ms$/);
    assert.equal(await panel.page.getAttribute('#results', 'aria-busy'), 'false');
  });

  it('says how the bridge read a Chinese request, and drops a reading the checks refuse', async () => {
    await routed();
    await panel.deliver(resultsMessage(1, { readAs: 'extract invoice table' }));
    assert.equal(await panel.text('#status .read-as'), 'Read as: extract invoice table');
    assert.match((await panel.page.getAttribute('#status .read-as', 'title')) ?? '', /dictionary bridge/);
    assert.match(await panel.text('#status'), /^4 skills for “extract the tables.*” · model use-lite-en@1 · 42 ms/);
    // Over the bound: the whole message fails its check and is not shown.
    await panel.deliver(resultsMessage(1, { readAs: 'x'.repeat(MAX_READ_AS_LENGTH + 1) }));
    assert.equal(await panel.text('#status .read-as'), 'Read as: extract invoice table');
    // A Korean request read through the glossary: the reading, what read it, and that it was read in part.
    await panel.page.press('#query', 'Enter');
    await panel.waitForPosted('route', 2);
    await panel.deliver(resultsMessage(2, { readAs: 'vulnerable dependency upgrade test', unread: 'Hangul', match: 'weak' }));
    assert.equal(await panel.text('#status .read-as'), 'Read as: vulnerable dependency upgrade test');
    assert.match((await panel.page.getAttribute('#status .read-as', 'title')) ?? '', /Hangul glossary/);
    assert.match(await panel.text('#status .unread'), /reads only through a small glossary/);
  });

  it('says which clauses of the request were not matched, because it declines them', async () => {
    await routed();
    await panel.deliver(resultsMessage(1, { declined: ['do not open a pull request'] }));
    assert.equal(await panel.text('#status .declined'), 'Not matched, because the request says not to: “do not open a pull request”');
    await panel.page.press('#query', 'Enter');
    await panel.waitForPosted('route', 2);
    await panel.deliver(resultsMessage(2, {}));
    assert.equal(await panel.page.$('#status .declined'), null, 'a request that declines nothing shows no such line');
  });

  it('shows a stage that is off as "off" with an empty bar, and scales bars when scores exceed 1', async () => {
    await routed();
    const results = RESULTS.slice(0, 2).map((r, i) => ({ ...r, scores: { ...r.scores, dense: null, rerank: i === 0 ? 2 : 1 } }));
    await panel.deliver(resultsMessage(1, { results, dense: { disabled: 'no embedding model configured' } }));
    const dense = await panel.page.$eval('li.result:nth-child(1) .score[data-stage="dense"]', (e) => ({
      cls: e.className, value: e.querySelector('.value')!.textContent, width: (e.querySelector('.fill') as HTMLElement).style.width,
    }));
    assert.deepEqual(dense, { cls: 'score off', value: 'off', width: '0%' });
    const rerankWidths = await panel.page.$$eval('.score[data-stage="rerank"] .fill', (els) => els.map((e) => (e as HTMLElement).style.width));
    assert.deepEqual(rerankWidths, ['100%', '50%']);
    assert.match(await panel.text('#status'), /words only \(no embedding model configured\)/);
  });

  it('drops stale answers: only the latest request is rendered', async () => {
    await routed();
    await panel.page.fill('#query', 'resize these photos to 800px');
    await panel.page.press('#query', 'Enter');
    await panel.waitForPosted('route', 2);
    await panel.deliver(resultsMessage(1));
    assert.equal(await panel.page.locator('li.result').count(), 0);
    assert.match(await panel.text('#status'), /Routing “resize these photos/);
    await panel.deliver(resultsMessage(2, { query: 'resize these photos to 800px', results: [{ ...RESULTS[3], rank: 1 }] }));
    assert.deepEqual(await panel.page.$$eval('li.result .name', (els) => els.map((e) => e.textContent)), ['docx-edit']);
  });

  it('marks the skill of the active editor and says its rank', async () => {
    await routed();
    await panel.deliver(resultsMessage(1, { active: { uri: uriOf('pdf-build'), name: 'pdf-build', folder: 'pdf-build', rank: 3, depth: 4 } }));
    assert.deepEqual(await panel.page.$$eval('li.result', (els) => els.map((e) => !!e.querySelector('.active-badge'))), [false, false, true, false]);
    assert.equal(await panel.text('#active-notice'), 'The skill in the active editor, pdf-build, is #3.');
    // The editor changes: the badge follows.
    await panel.deliver({ type: 'active', active: { uri: uriOf('pdf-extract'), name: 'pdf-extract', folder: 'pdf-extract', rank: 1, depth: 4 } });
    assert.deepEqual(await panel.page.$$eval('li.result', (els) => els.map((e) => !!e.querySelector('.active-badge'))), [true, false, false, false]);
    await panel.deliver({ type: 'active', active: null });
    assert.equal(await panel.page.locator('.active-badge').count(), 0);
    assert.equal(await panel.page.isHidden('#active-notice'), true);
  });

  it('says at which rank the active skill is when it is not in the top K, or that it is not ranked', async () => {
    await routed();
    await panel.deliver(resultsMessage(1, { k: 4, active: { uri: uriOf('image-resize'), name: 'image-resize', folder: 'image-resize', rank: 14, depth: 50 } }));
    assert.equal(await panel.page.locator('.active-badge').count(), 0);
    assert.equal(await panel.text('#active-notice'), 'The skill in the active editor, image-resize, is not in the top 4; ranking the first 50 puts it at #14.');
    await panel.deliver({ type: 'active', active: { uri: uriOf('k8s-deploy'), name: 'k8s-deploy', folder: 'k8s-deploy', rank: null, depth: 50 } });
    assert.equal(await panel.text('#active-notice'), 'The skill in the active editor, k8s-deploy, is not among the first 50 ranked skills for this request.');
  });

  it('names the active skill as the results do: its front-matter name, with the folder where they differ', async () => {
    await routed();
    const renamed = RESULTS.map((r, i) => (i === 2 ? { ...r, name: 'pdf-maker' } : r));
    await panel.deliver(resultsMessage(1, { k: 4, results: renamed, active: { uri: uriOf('pdf-build'), name: 'pdf-maker', folder: 'pdf-build', rank: 3, depth: 4 } }));
    assert.equal(await panel.text('#active-notice'), 'The skill in the active editor, pdf-maker (folder pdf-build), is #3.');
    assert.equal(await panel.text('li.result:nth-child(3) .name'), 'pdf-maker');
    assert.equal(await panel.text('li.result:nth-child(3) .folder'), 'pdf-build');
    await panel.deliver({ type: 'active', active: { uri: uriOf('image-resize'), name: 'img-resize', folder: 'image-resize', rank: 14, depth: 50 } });
    assert.equal(await panel.text('#active-notice'), 'The skill in the active editor, img-resize (folder image-resize), is not in the top 4; ranking the first 50 puts it at #14.');
    // Before the server knows its name: the folder alone.
    await panel.deliver({ type: 'active', active: { uri: uriOf('image-resize'), name: '', folder: 'image-resize', rank: null, depth: 50 } });
    assert.match(await panel.text('#active-notice'), /^The skill in the active editor, image-resize, is not among/);
  });

  it('shows the description as the selected client sees it: cut by Claude Code, dropped by Codex', async () => {
    await routed();
    const long = longDescription(1600);
    const tooLong = longDescription(1100);
    const results = [
      { ...RESULTS[0], description: long },
      { ...RESULTS[1], description: tooLong },
      { ...RESULTS[2], description: 'Short.', whenToUse: 'When the user wants a PDF.' },
    ];
    await panel.deliver(resultsMessage(1, { results }));
    const card = (n: number) => `li.result:nth-child(${n})`;
    // Claude Code (the default): cut at 1536, with the rest behind a disclosure.
    assert.equal(await panel.page.getAttribute(`${card(1)} .description`, 'data-listing'), 'cut');
    assert.equal((await panel.page.textContent(`${card(1)} .listing`))!.length, 1536 + 1);
    assert.equal(await panel.text(`${card(1)} .listing-note`), 'Claude Code lists the first 1,536 of 1,600 characters.');
    assert.equal((await panel.page.textContent(`${card(1)} .unseen`))!.length, 64);
    assert.equal(await panel.page.getAttribute(`${card(2)} .description`, 'data-listing'), 'full');
    assert.equal(await panel.text(`${card(3)} .listing`), 'Short. When the user wants a PDF.');
    // Codex: drops descriptions over 1024 characters, cuts nothing.
    await panel.page.selectOption('#profile', 'codex');
    assert.equal(await panel.page.getAttribute(`${card(1)} .description`, 'data-listing'), 'dropped');
    assert.equal(await panel.text(`${card(1)} .listing-note`), 'Codex does not list this skill: its description has 1,600 characters (over 1,024).');
    assert.equal(await panel.page.getAttribute(`${card(2)} .description`, 'data-listing'), 'dropped');
    assert.equal(await panel.text(`${card(3)} .listing`), 'Short.');
    // The spec profile: everything, as written.
    await panel.page.selectOption('#profile', 'spec');
    assert.equal(await panel.text(`${card(1)} .listing`), long.replace(/\s+/g, ' ').trim());
    const [persisted] = (await panel.waitForPosted('persist', 3)).slice(-1);
    assert.equal((persisted.snapshot as { profile: string }).profile, 'spec');
  });

  it('shows the set view: skills needed together and probable SKIP conflicts with the reason', async () => {
    await routed();
    await panel.deliver(resultsMessage(1));
    assert.equal(await panel.page.isHidden('#set-view'), true, 'no set view without a set');
    assert.equal(await panel.page.locator('.set-badge, .skip-badge').count(), 0);
    await panel.page.press('#query', 'Enter');
    await panel.waitForPosted('route', 2);
    await panel.deliver(resultsMessage(2, { set: SET }));
    assert.equal(await panel.page.isVisible('#set-view'), true);
    assert.deepEqual(await panel.page.$$eval('#set-view .set-skills li', (els) => els.map((e) => e.textContent)), ['pdf-extract #1', '数据可视化 #2']);
    assert.equal(
      await panel.text('#set-view .conflict'),
      'SKIP pdf-build #3 with pdf-extract #1: redundant: does the same job — both take PDF requests; this one builds PDFs, the request reads one',
    );
    assert.equal(await panel.page.getAttribute('#set-view .conflict', 'data-reason'), 'function_redundant');
    assert.deepEqual(
      await panel.page.$$eval('li.result', (els) => els.map((e) => [!!e.querySelector('.set-badge'), !!e.querySelector('.skip-badge')])),
      [[true, false], [true, false], [false, true], [false, false]],
    );
    // A skill in the set view moves the focus to its result.
    await panel.page.click('#set-view .set-skills li:nth-child(2) button');
    assert.equal(await panel.page.evaluate('document.activeElement.dataset.skill'), '数据可视化');
  });

  it('a weak match says so in the set view instead of "one skill is enough"', async () => {
    await routed();
    await panel.deliver(resultsMessage(1, { set: { skills: ['pdf-extract'], skipped: [] }, match: 'weak' }));
    assert.equal(await panel.text('#set-view p'), 'Weak match: the best skill is only possibly what this request needs: pdf-extract #1');
    await panel.page.press('#query', 'Enter');
    await panel.waitForPosted('route', 2);
    await panel.deliver(resultsMessage(2, { set: { skills: ['pdf-extract'], skipped: [] }, match: 'strong' }));
    assert.equal(await panel.text('#set-view p'), 'One skill is enough for this request: pdf-extract #1');
  });

  it('shows errors, keeps the previous results dimmed, and ignores errors of stale requests', async () => {
    await routed();
    await panel.deliver(resultsMessage(1));
    await panel.page.press('#query', 'Enter');
    await panel.waitForPosted('route', 2);
    await panel.deliver({ type: 'error', requestId: 1, message: 'stale' });
    assert.equal(await panel.page.isHidden('#error'), true);
    await panel.deliver({ type: 'error', requestId: 2, message: 'The index is not ready yet (indexing 40%).' });
    assert.equal(await panel.text('#error'), 'The index is not ready yet (indexing 40%).');
    assert.equal(await panel.page.getAttribute('#error', 'role'), 'alert');
    assert.equal(await panel.page.getAttribute('#results', 'aria-busy'), 'false');
    assert.equal(await panel.page.evaluate('document.getElementById("results").classList.contains("stale")'), true);
    assert.equal(await panel.page.locator('li.result').count(), 4);
    // The next answer clears the error.
    await panel.page.press('#query', 'Enter');
    await panel.waitForPosted('route', 3);
    await panel.deliver(resultsMessage(3));
    assert.equal(await panel.page.isHidden('#error'), true);
  });

  it('ignores malformed messages and renders text as text', async () => {
    await routed();
    const bad: unknown[] = [
      null,
      'results',
      { type: 'nope' },
      { type: 'results' },
      { ...resultsMessage(1), results: [RESULTS[1], RESULTS[0]] }, // ranks out of order
      { ...resultsMessage(1), extra: true },
      { ...resultsMessage(1), results: [{ ...RESULTS[0], scores: { ...RESULTS[0].scores, lexical: 'high' } }] },
      { ...resultsMessage(1), set: { skills: ['a'], skipped: [{ skillId: 'b', conflictsWith: 'a', reason: 'because' }] } },
      { type: 'error', requestId: 1 },
      { type: 'init', profiles: ['vim'], k: 10, restore: null, active: null },
      { type: 'active', active: { uri: 'x', name: 'x', folder: 'x', rank: 0, depth: 1 } },
    ];
    const warnings = () => panel.consoleMessages.filter((m) => m.includes('ignored a malformed message')).length;
    const before = warnings();
    for (const m of bad) await panel.deliver(m);
    assert.equal(await panel.page.locator('li.result').count(), 0);
    assert.equal(await panel.page.isHidden('#error'), true);
    assert.match(await panel.text('#status'), /Routing/);
    // One warning per message, and one per delivery marker (a bare string, malformed too).
    assert.equal(warnings() - before, 2 * bad.length);
    // A well-formed answer with markup in it is shown as text, not parsed.
    const evil = { ...RESULTS[0], name: '<img src=x onerror="window.__pwned=1">', description: '<script>window.__pwned=1</script>' };
    await panel.deliver(resultsMessage(1, { results: [evil] }));
    assert.equal(await panel.text('li.result .name'), evil.name);
    assert.equal(await panel.page.locator('li.result img, li.result script').count(), 0);
    assert.equal(await panel.page.evaluate('window.__pwned === undefined'), true);
  });

  it('works from the keyboard: arrows move through results, Enter opens, Escape returns to the input', async () => {
    await routed();
    await panel.deliver(resultsMessage(1));
    const focused = () => panel.page.evaluate('document.activeElement.id || document.activeElement.dataset.skill');
    await panel.page.focus('#query');
    await panel.page.keyboard.press('ArrowDown');
    assert.equal(await focused(), 'pdf-extract');
    await panel.page.keyboard.press('ArrowDown');
    assert.equal(await focused(), '数据可视化');
    await panel.page.keyboard.press('End');
    assert.equal(await focused(), 'docx-edit');
    await panel.page.keyboard.press('ArrowDown'); // stays on the last
    assert.equal(await focused(), 'docx-edit');
    await panel.page.keyboard.press('Home');
    await panel.page.keyboard.press('ArrowDown');
    await panel.page.keyboard.press('Enter');
    const [open] = await panel.waitForPosted('open');
    assert.deepEqual(open, { type: 'open', uri: RESULTS[1].uri, line: 2 });
    // Only one card is in the tab order (roving tabindex).
    assert.deepEqual(await panel.page.$$eval('li.result', (els) => els.map((e) => e.getAttribute('tabindex'))), ['-1', '0', '-1', '-1']);
    // Tab reaches the card's buttons; Space there toggles, it does not open.
    await panel.page.keyboard.press('Tab');
    assert.equal(await panel.page.evaluate('document.activeElement.dataset.focusKey'), 'expect:数据可视化');
    await panel.page.keyboard.press('Space');
    assert.equal((await panel.posted()).filter((m) => m.type === 'open').length, 1);
    await panel.page.keyboard.press('Escape');
    assert.equal(await focused(), 'query');
    await panel.page.keyboard.press('ArrowDown');
    assert.equal(await focused(), '数据可视化', 'back to the card last focused');
    await panel.page.keyboard.press('ArrowUp');
    await panel.page.keyboard.press('ArrowUp');
    assert.equal(await focused(), 'query');
  });

  it('opens a SKILL.md on click, at the passage line', async () => {
    await routed();
    await panel.deliver(resultsMessage(1));
    await panel.page.click('li.result:nth-child(1) .name');
    const [open] = await panel.waitForPosted('open');
    assert.deepEqual(open, { type: 'open', uri: RESULTS[0].uri, line: 17 });
    // Clicking the toggles does not open.
    await panel.page.click('li.result:nth-child(3) .toggle.expect');
    assert.equal((await panel.posted()).filter((m) => m.type === 'open').length, 1);
  });

  it('keeps a history of requests, most recent first, that reruns on click and can be cleared', async () => {
    panel = await PanelPage.open(suite.browser());
    await panel.deliver(INIT);
    assert.equal(await panel.page.isHidden('#history'), true);
    for (const q of ['first request', 'second request', 'first request']) {
      await panel.page.fill('#query', q);
      await panel.page.press('#query', 'Enter');
    }
    assert.deepEqual(await panel.page.$$eval('#history .chip', (els) => els.map((e) => e.textContent)), ['first request', 'second request']);
    await panel.page.click('#history .chip >> text=second request');
    const routes = await panel.waitForPosted('route', 4);
    assert.deepEqual(routes.map((r) => r.query), ['first request', 'second request', 'first request', 'second request']);
    assert.deepEqual(routes.map((r) => r.requestId), [1, 2, 3, 4]);
    assert.equal(await panel.page.inputValue('#query'), 'second request');
    await panel.page.click('#history .clear-history');
    assert.equal(await panel.page.isHidden('#history'), true);
    const persisted = (await panel.waitForPosted('persist')).slice(-1)[0];
    assert.deepEqual((persisted.snapshot as { history: string[] }).history, []);
  });

  it('restores its state from getState when the webview is recreated', async () => {
    await routed();
    await panel.deliver(resultsMessage(1, { set: SET, active: { uri: uriOf('pdf-extract'), name: 'pdf-extract', folder: 'pdf-extract', rank: 1, depth: 4 } }));
    await panel.page.selectOption('#profile', 'codex');
    await panel.page.fill('#query', 'half-typed request');
    const stored = await panel.state();
    assert.equal((stored as { v: number }).v, 1);
    await panel.close();

    panel = await PanelPage.open(suite.browser(), { stored });
    // Before the host says anything, the page shows what it showed.
    assert.equal(await panel.page.inputValue('#query'), 'half-typed request');
    assert.equal(await panel.page.inputValue('#profile'), 'codex');
    assert.equal(await panel.page.locator('li.result').count(), 4);
    assert.equal(await panel.page.isVisible('#set-view'), true);
    assert.equal(await panel.page.locator('li.result:nth-child(1) .active-badge').count(), 1);
    // The host's init does not override it; request ids continue.
    await panel.deliver({ ...INIT, profiles: ['spec'] });
    assert.equal(await panel.page.inputValue('#profile'), 'codex');
    await panel.page.press('#query', 'Enter');
    const [route] = await panel.waitForPosted('route');
    assert.equal(route.requestId, 3, 'request 2 was the shown request routed again for Codex\'s listing ranks');
  });

  it('ignores stored state of another shape', async () => {
    panel = await PanelPage.open(suite.browser(), { stored: { v: 0, whatever: true } });
    await panel.deliver(INIT);
    assert.equal(await panel.page.inputValue('#query'), '');
    assert.equal(await panel.page.locator('li.result').count(), 0);
  });

  it('restores what the host kept when the panel is reopened without webview state', async () => {
    panel = await PanelPage.open(suite.browser());
    await panel.deliver({
      ...INIT,
      restore: { query: QUERY, k: 5, profile: 'copilot', history: [QUERY, 'older request'], last: summary(6, { k: 5 }) },
    });
    assert.equal(await panel.page.inputValue('#query'), QUERY);
    assert.equal(await panel.page.inputValue('#k'), '5');
    assert.equal(await panel.page.inputValue('#profile'), 'copilot');
    assert.deepEqual(await panel.page.$$eval('#history .chip', (els) => els.map((e) => e.textContent)), [QUERY, 'older request']);
    assert.equal(await panel.page.locator('li.result').count(), 4);
    await panel.page.press('#query', 'Enter');
    const [route] = await panel.waitForPosted('route');
    assert.equal(route.requestId, 7, 'ids continue after the restored answer');
  });

  it('draws a line after the last relevant result, and says when no skill of the library fits', async () => {
    await routed();
    const judged = RESULTS.map((r, i) => ({ ...r, relevant: i < 2 }));
    await panel.deliver(resultsMessage(1, { results: judged, match: 'strong' }));
    const items = await panel.page.$$eval('#results > li', (els) => els.map((e) => (e.classList.contains('relevance-line') ? '---' : e.querySelector('.name')?.textContent)));
    assert.deepEqual(items, ['pdf-extract', '数据可视化', '---', 'pdf-build', 'docx-edit']);
    assert.equal(await panel.text('.relevance-line'), 'Below: not judged relevant, shown for context');
    assert.equal(await panel.page.locator('li.result.context').count(), 2);
    assert.equal(await panel.page.locator('.zero-badge').count(), 0, 'no reason without one from the router');
    // Absent fields: every result counts as relevant, no line.
    await panel.page.press('#query', 'Enter');
    await panel.waitForPosted('route', 2);
    await panel.deliver(resultsMessage(2));
    assert.equal(await panel.page.locator('.relevance-line').count(), 0);
    await panel.page.press('#query', 'Enter');
    await panel.waitForPosted('route', 3);
    await panel.deliver(resultsMessage(3, { results: RESULTS.map((r) => ({ ...r, relevant: false })), match: 'none' }));
    const first = await panel.page.$$eval('#results > li', (els) => els.map((e) => e.className));
    assert.equal(first[0], 'relevance-line');
    assert.match(await panel.text('.relevance-line'), /^No skill in this library fits this request/);
    // Keyboard navigation still moves through the results only.
    await panel.page.focus('#query');
    await panel.page.keyboard.press('ArrowDown');
    assert.equal(await panel.page.evaluate('document.activeElement.dataset.skill'), 'pdf-extract');
  });

  it('says why a result has relevance 0 by rule: a general question, off topic, or excluded by its description', async () => {
    await routed();
    const judged = RESULTS.map((r, i) => ({ ...r, relevant: i < 1, ...(i === 1 ? { notRelevant: 'general-question' as const } : i === 2 ? { notRelevant: 'off-topic' as const } : i === 3 ? { notRelevant: 'excluded' as const, notFor: 'merging PDF files' } : {}) }));
    await panel.deliver(resultsMessage(1, { results: judged, match: 'strong' }));
    const badges = await panel.page.$$eval('li.result', (els) => els.map((e) => e.querySelector('.zero-badge')?.textContent ?? null));
    assert.deepEqual(badges, [null, 'general question', 'off topic', 'excluded']);
    assert.match((await panel.page.getAttribute('li.result:nth-child(3) .zero-badge', 'title')) ?? '', /^Relevance 0: the request asks in general what something is or how it works/);
    assert.match((await panel.page.getAttribute('li.result:nth-child(4) .zero-badge', 'title')) ?? '', /^Relevance 0: off topic: none of the request's words in its name, description or headings/);
    assert.equal(await panel.page.getAttribute('li.result:nth-child(5) .zero-badge', 'title'), 'Relevance 0: its description says it is not for "merging PDF files"');
  });

  it('marks the skill the request invokes by name, with the command in its badge', async () => {
    await routed();
    const invoked = RESULTS.map((r, i) => ({ ...r, relevant: i < 1, ...(i === 0 ? { invoked: '/docs:pdf-extract' } : {}) }));
    await panel.deliver(resultsMessage(1, { results: invoked, match: 'strong' }));
    const badges = await panel.page.$$eval('li.result', (els) => els.map((e) => e.querySelector('.invoked-badge')?.textContent ?? null));
    assert.deepEqual(badges, ['invoked: /docs:pdf-extract', null, null, null]);
    assert.match((await panel.page.getAttribute('li.result:nth-child(1) .invoked-badge', 'title')) ?? '', /^The request invokes this skill by name \(\/docs:pdf-extract\)/);
  });

  it('says which language a result is for when the request names another', async () => {
    await routed();
    const stacked = RESULTS.map((r, i) => ({ ...r, relevant: i < 1, ...(i === 1 ? { notRelevant: 'other-stack' as const, otherStack: 'python (the request names rust)' } : {}) }));
    await panel.deliver(resultsMessage(1, { results: stacked, match: 'strong' }));
    const badges = await panel.page.$$eval('li.result', (els) => els.map((e) => e.querySelector('.zero-badge')?.textContent ?? null));
    assert.deepEqual(badges, [null, 'other stack', null, null]);
    assert.equal(await panel.page.getAttribute('li.result:nth-child(3) .zero-badge', 'title'), 'Relevance 0: its description says it is for python (the request names rust)');
  });

  it('routes the shown request again when the host says a skill changed, keeping the input, the history and what the author marked', async () => {
    await routed();
    await panel.deliver(resultsMessage(1));
    await panel.page.click('li.result:nth-child(1) .toggle.expect');
    await panel.page.fill('#query', 'half-typed');
    await panel.deliver({ type: 'stale' });
    const again = (await panel.waitForPosted('route', 2))[1];
    assert.equal(again.query, QUERY);
    assert.equal(await panel.page.inputValue('#query'), 'half-typed', 'what the author is typing stays');
    await panel.deliver(resultsMessage(2));
    assert.equal(await panel.page.getAttribute('li.result:nth-child(1) .toggle.expect', 'aria-pressed'), 'true', 'the mark stays for the same request');
    assert.deepEqual(await panel.page.$$eval('.history-list button', (els) => els.map((e) => e.textContent)), [QUERY]);
  });

  it('routes nothing again on "stale" before any answer', async () => {
    panel = await PanelPage.open(suite.browser());
    await panel.deliver(INIT);
    await panel.deliver({ type: 'stale' });
    await panel.page.fill('#query', QUERY);
    await panel.page.press('#query', 'Enter');
    const routes = await panel.waitForPosted('route');
    assert.equal(routes.length, 1, 'only the typed request');
  });

  it('says a listing reason several results share (the budget) once above them, not on each card', async () => {
    await routed();
    const over = "the library is 7.6 times over Claude Code's budget";
    const ranks = LISTING.ranks.map((r, i) => (i === 0 ? r : { ...r, rank: null, listedChars: 0, dropped: true, why: over, bodyOnly: [] }));
    await panel.deliver(resultsMessage(1, { listing: { ...LISTING, ranks } }));
    assert.equal(await panel.page.locator('.listing-shared').count(), 1);
    assert.equal(await panel.text('.listing-shared'), `As Claude Code lists this library: ${over}.`);
    const lines = await panel.page.locator('li.result .listing-rank').allTextContents();
    assert.equal(lines.length, 3);
    assert.ok(lines.every((l) => !l.includes(over)), `no card repeats it: ${lines.join(' | ')}`);
    assert.match(lines[1], /description dropped: Claude Code lists the name only$/);
  });

  it('shows both ranks of each result and why it ranks lower in the listing; another profile routes again for its listing', async () => {
    await routed();
    const listing = LISTING;
    await panel.deliver(resultsMessage(1, { listing }));
    const line = (n: number) => panel.text(`li.result:nth-child(${n}) .listing-rank`);
    assert.equal(await line(1), 'full text #1 · as Claude Code lists it #1');
    assert.equal(await line(2), "full text #2 · as Claude Code lists it #7 — the request's key words appear only in the body: chart, monthly");
    assert.match(await line(3), /^full text #3 · as Claude Code lists it not in the first 20 — description dropped: Claude Code lists the name only/);
    assert.equal(await panel.page.locator('li.result:nth-child(4) .listing-rank').count(), 0, 'no rank sent: no line');
    assert.equal(await panel.page.locator('.listing-rank.lower').count(), 2);
    await panel.page.fill('#query', 'half-typed');
    await panel.page.selectOption('#profile', 'codex');
    assert.equal(await panel.page.locator('.listing-rank').count(), 0, "Claude Code's ranks are not shown for Codex");
    const again = (await panel.waitForPosted('route', 2))[1];
    assert.deepEqual({ query: again.query, client: again.client }, { query: QUERY, client: 'codex' }, 'the shown request again, for Codex');
    assert.equal(await panel.page.inputValue('#query'), 'half-typed', 'what the author is typing stays');
    await panel.deliver(resultsMessage(2, { listing: { ...listing, client: 'codex', label: 'Codex' } }));
    assert.equal(await line(1), 'full text #1 · as Codex lists it #1');
    await panel.page.selectOption('#profile', 'spec');
    assert.equal(await panel.page.locator('.listing-rank').count(), 0, 'the spec has no listing of its own');
    // Messages arrive in order: the next route posted is the author's own, so none was asked for the spec.
    await panel.page.press('#query', 'Enter');
    const next = (await panel.waitForPosted('route', 3))[2];
    assert.deepEqual({ query: next.query, client: next.client }, { query: 'half-typed', client: undefined });
  });

  it('says when no skill matches, and offers no routing test then', async () => {
    await routed();
    await panel.deliver(resultsMessage(1, { results: [] }));
    assert.equal(await panel.text('#results'), 'No skill matches this request.');
    assert.equal(await panel.page.isHidden('#save-bar'), true);
    // A request in a script Skill Router does not read: the empty list and the status say so.
    const again = async (requestId: number, over: Parameters<typeof resultsMessage>[1]) => {
      await panel.page.press('#query', 'Enter');
      await panel.waitForPosted('route', requestId);
      await panel.deliver(resultsMessage(requestId, over));
    };
    await again(2, { results: [], unread: 'Japanese kana' });
    assert.match(await panel.text('#results'), /^No skill matches this request\. Most of this request is in Japanese kana, which Skill Router does not read .* Write the request in English/);
    assert.match(await panel.text('#status .unread'), /^Most of this request is in Japanese kana, .*and none of its other words is in a skill/);
    await again(3, { unread: 'Thai', match: 'weak' });
    assert.match(await panel.text('#status .unread'), /^Most of this request is in Thai, which Skill Router reads only through a small glossary .*only the words it knows were matched, so it does not say that no skill fits/);
    await again(4, {});
    assert.equal(await panel.page.locator('#status .unread').count(), 0, 'a request it reads has no such note');
  });

  it('renders no inline handlers or style attributes, and builds the page under its CSP', async () => {
    await routed();
    await panel.deliver(resultsMessage(1, { set: SET, active: { uri: uriOf('pdf-extract'), name: 'pdf-extract', folder: 'pdf-extract', rank: 1, depth: 4 } }));
    const inline = await panel.page.evaluate(`[...document.querySelectorAll('*')].flatMap((el) =>
      [...el.attributes].filter((a) => /^on/i.test(a.name) || a.name === 'style' && el.closest('head')).map((a) => el.tagName + ' ' + a.name))`);
    assert.deepEqual(inline, []);
    const scripts = await panel.page.$$eval('script', (els) => els.map((e) => ({ src: e.getAttribute('src'), nonce: e.nonce, inline: (e.textContent ?? '').trim().length })));
    assert.equal(scripts.length, 1);
    assert.equal(scripts[0].inline, 0);
    assert.ok(scripts[0].nonce && panel.html.includes(`'nonce-${scripts[0].nonce}'`), 'the script carries the CSP nonce');
  });
});
