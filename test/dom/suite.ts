/** The hooks every DOM suite of the query panel shares, and a panel that has routed once. */
import * as assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { HostMessage } from '../../src/shared/webviewProtocol';
import { INIT, QUERY } from './fixtures';
import { launchChromium, PanelPage } from './harness';

export interface PanelSuite {
  /** The suite's Chromium (launched before its first test). */
  browser(): Browser;
  /** A connected panel that has routed QUERY once (request 1) and is waiting for the answer. */
  routed(opts?: Parameters<typeof PanelPage.open>[1], init?: HostMessage): Promise<PanelPage>;
}

/**
 * Registers the suite's hooks: one Chromium for the suite, and after each test the page it left
 * open (`current()`; `routed` hands its page to `opened`) closed; a test that passed must also have had nothing blocked by the CSP and
 * nothing thrown in the page.
 */
export function panelSuite(current: () => PanelPage | undefined, opened: (panel: PanelPage) => void): PanelSuite {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });
  afterEach(async function () {
    const panel = current();
    if (!panel) return;
    const violations = await panel.cspViolations();
    const errors = panel.pageErrors;
    await panel.close();
    if (this.currentTest?.state === 'passed') {
      assert.deepEqual(violations, [], 'CSP violations');
      assert.deepEqual(errors, [], 'page errors');
    }
  });
  return {
    browser: () => browser,
    async routed(opts = {}, init = INIT) {
      const panel = await PanelPage.open(browser, opts);
      await panel.deliver(init);
      await panel.page.fill('#query', QUERY);
      await panel.page.press('#query', 'Enter');
      await panel.waitForPosted('route');
      opened(panel);
      return panel;
    },
  };
}
