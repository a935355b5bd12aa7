/**
 * Loads the query panel in headless Chromium the way VS Code does: the HTML from panelHtml (CSP
 * and nonce included) served from a fake webview origin, dist/webview/panel.js and
 * media/panel.css from disk, theme variables on <html> and the theme class on <body>, and a
 * stubbed `acquireVsCodeApi` that records what the panel posts and keeps its setState.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createNonce, panelHtml } from '../../src/client/panelHtml';

export const ROOT = path.resolve(__dirname, '../../..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ORIGIN = 'https://panel.webview.test';

export type ThemeKind = 'light' | 'dark' | 'high-contrast';

/** Theme colours of VS Code's default Light Modern, Dark Modern and High Contrast themes. */
export const THEMES: Record<ThemeKind, { bodyClass: string; vars: Record<string, string> }> = {
  light: {
    bodyClass: 'vscode-light',
    vars: {
      'editor-background': '#ffffff', foreground: '#3b3b3b', descriptionForeground: '#717171', focusBorder: '#005fb8',
      'input-background': '#ffffff', 'input-foreground': '#3b3b3b', 'input-border': '#cecece', 'input-placeholderForeground': '#767676',
      'dropdown-background': '#ffffff', 'dropdown-foreground': '#3b3b3b', 'dropdown-border': '#cecece',
      'button-background': '#005fb8', 'button-foreground': '#ffffff', 'button-hoverBackground': '#0258a8',
      'button-secondaryBackground': '#e5e5e5', 'button-secondaryForeground': '#3b3b3b', 'button-secondaryHoverBackground': '#cccccc',
      'badge-background': '#005fb8', 'badge-foreground': '#ffffff', 'textLink-foreground': '#005fb8',
      'editorWidget-background': '#f8f8f8', 'widget-border': '#e5e5e5', 'panel-border': '#e5e5e5', 'list-hoverBackground': '#f2f2f2',
      'editor-findMatchHighlightBackground': 'rgba(234, 92, 0, 0.33)', 'textBlockQuote-background': '#f8f8f8', 'textBlockQuote-border': '#e5e5e5',
      'charts-blue': '#1a85ff', 'charts-green': '#388a34', 'charts-purple': '#652d90', 'editorWarning-foreground': '#bf8803',
      errorForeground: '#e51400', 'testing-iconPassed': '#388a34', 'progressBar-background': '#005fb8',
      'inputValidation-errorBackground': '#f2dede', 'inputValidation-errorBorder': '#be1100',
    },
  },
  dark: {
    bodyClass: 'vscode-dark',
    vars: {
      'editor-background': '#1f1f1f', foreground: '#cccccc', descriptionForeground: '#9d9d9d', focusBorder: '#0078d4',
      'input-background': '#313131', 'input-foreground': '#cccccc', 'input-border': '#3c3c3c', 'input-placeholderForeground': '#989898',
      'dropdown-background': '#313131', 'dropdown-foreground': '#cccccc', 'dropdown-border': '#3c3c3c',
      'button-background': '#0078d4', 'button-foreground': '#ffffff', 'button-hoverBackground': '#026ec1',
      'button-secondaryBackground': '#313131', 'button-secondaryForeground': '#cccccc', 'button-secondaryHoverBackground': '#3c3c3c',
      'badge-background': '#0078d4', 'badge-foreground': '#ffffff', 'textLink-foreground': '#4daafc',
      'editorWidget-background': '#202020', 'widget-border': '#313131', 'panel-border': '#2b2b2b', 'list-hoverBackground': '#2a2d2e',
      'editor-findMatchHighlightBackground': 'rgba(234, 92, 0, 0.33)', 'textBlockQuote-background': '#2b2b2b', 'textBlockQuote-border': '#616161',
      'charts-blue': '#3794ff', 'charts-green': '#89d185', 'charts-purple': '#b180d7', 'editorWarning-foreground': '#cca700',
      errorForeground: '#f85149', 'testing-iconPassed': '#73c991', 'progressBar-background': '#0078d4',
      'inputValidation-errorBackground': '#5a1d1d', 'inputValidation-errorBorder': '#be1100',
    },
  },
  'high-contrast': {
    bodyClass: 'vscode-high-contrast',
    vars: {
      'editor-background': '#000000', foreground: '#ffffff', descriptionForeground: '#ffffff', focusBorder: '#f38518',
      contrastBorder: '#6fc3df', contrastActiveBorder: '#f38518',
      'input-background': '#000000', 'input-foreground': '#ffffff', 'input-border': '#6fc3df', 'input-placeholderForeground': 'rgba(255, 255, 255, 0.7)',
      'dropdown-background': '#000000', 'dropdown-foreground': '#ffffff', 'dropdown-border': '#6fc3df',
      'button-background': '#000000', 'button-foreground': '#ffffff', 'button-border': '#6fc3df',
      'button-secondaryBackground': '#000000', 'button-secondaryForeground': '#ffffff',
      'badge-background': '#000000', 'badge-foreground': '#ffffff', 'textLink-foreground': '#21a6ff',
      'editorWidget-background': '#0c141f', 'list-hoverBackground': '#000000',
      'textBlockQuote-background': '#000000', 'textBlockQuote-border': '#ffffff',
      'charts-blue': '#3794ff', 'charts-green': '#89d185', 'charts-purple': '#b180d7', 'editorWarning-foreground': '#fff50c',
      errorForeground: '#f48771', 'testing-iconPassed': '#73c991', 'progressBar-background': '#6fc3df',
      'inputValidation-errorBackground': '#000000', 'inputValidation-errorBorder': '#6fc3df',
    },
  },
};

const FONT_VARS: Record<string, string> = {
  'font-family': 'system-ui, "DejaVu Sans", sans-serif',
  'font-size': '13px',
  'editor-font-family': '"DejaVu Sans Mono", monospace',
};

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`DOM tests need Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export interface OpenOptions {
  /** What `getState()` returns at load (a previous `setState`). */
  stored?: unknown;
  theme?: ThemeKind;
  width?: number;
  height?: number;
}

/** The panel in a page, with the stubbed VS Code API. */
export class PanelPage {
  readonly html: string;
  readonly consoleMessages: string[] = [];
  readonly pageErrors: string[] = [];

  private constructor(readonly page: Page, html: string) {
    this.html = html;
  }

  static async open(browser: Browser, opts: OpenOptions = {}): Promise<PanelPage> {
    const page = await browser.newPage({ viewport: { width: opts.width ?? 760, height: opts.height ?? 900 }, reducedMotion: 'reduce' });
    const html = panelHtml({
      // As VS Code 1.100 gives it; the page's own origin is 'self'.
      cspSource: "'self' https://*.vscode-cdn.net",
      scriptUri: `${ORIGIN}/dist/webview/panel.js`,
      styleUri: `${ORIGIN}/media/panel.css`,
      nonce: createNonce(),
    });
    const panel = new PanelPage(page, html);
    page.on('console', (m) => panel.consoleMessages.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => panel.pageErrors.push(String(e)));
    await page.route(`${ORIGIN}/**`, async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/index.html') return route.fulfill({ status: 200, contentType: 'text/html', body: html });
      const allowed: Record<string, string> = { '/dist/webview/panel.js': 'text/javascript', '/media/panel.css': 'text/css' };
      const type = allowed[url.pathname];
      if (!type) return route.fulfill({ status: 404, body: '' });
      return route.fulfill({ status: 200, contentType: type, body: readFileSync(path.join(ROOT, url.pathname)) });
    });
    await page.addInitScript(stubScript(opts.stored));
    await page.goto(`${ORIGIN}/index.html`);
    await page.waitForSelector('#query');
    await panel.setTheme(opts.theme ?? 'dark');
    return panel;
  }

  async setTheme(kind: ThemeKind): Promise<void> {
    const theme = THEMES[kind];
    const vars = { ...FONT_VARS, ...theme.vars };
    await this.page.evaluate(`(() => {
      const root = document.documentElement;
      for (const name of [...root.style]) if (name.startsWith('--vscode-')) root.style.removeProperty(name);
      for (const [k, v] of Object.entries(${JSON.stringify(vars)})) root.style.setProperty('--vscode-' + k, v);
      document.body.classList.remove('vscode-light', 'vscode-dark', 'vscode-high-contrast');
      document.body.classList.add(${JSON.stringify(theme.bodyClass)});
    })()`);
  }

  /** Everything the panel posted so far. */
  async posted(): Promise<{ type: string; [key: string]: unknown }[]> {
    return (await this.page.evaluate('window.__panelTest.posted')) as { type: string }[];
  }

  /** Waits until the panel has posted `count` messages of `type`; returns them. */
  async waitForPosted(type: string, count = 1): Promise<{ type: string; [key: string]: unknown }[]> {
    await this.page.waitForFunction(`window.__panelTest.posted.filter((m) => m.type === ${JSON.stringify(type)}).length >= ${count}`);
    return (await this.posted()).filter((m) => m.type === type);
  }

  /** What the panel last passed to setState. */
  async state(): Promise<unknown> {
    return this.page.evaluate('window.__panelTest.state()');
  }

  /**
   * Delivers a message as the host would (a `message` event on window), then waits until the
   * panel has handled it: messages are handled in order, so a marker after it proves that.
   */
  async deliver(message: unknown): Promise<void> {
    await this.page.evaluate(`new Promise((resolve) => {
      window.postMessage(${JSON.stringify(message)}, '*');
      const done = (e) => { if (e.data === '__panel-test-marker') { window.removeEventListener('message', done); resolve(); } };
      window.addEventListener('message', done);
      window.postMessage('__panel-test-marker', '*');
    })`);
  }

  async text(selector: string): Promise<string> {
    return ((await this.page.textContent(selector)) ?? '').replace(/\s+/g, ' ').trim();
  }

  async cspViolations(): Promise<string[]> {
    return (await this.page.evaluate('window.__panelTest.violations')) as string[];
  }

  async close(): Promise<void> {
    await this.page.close();
  }
}

function stubScript(stored: unknown): string {
  return `(() => {
    const posted = [];
    const violations = [];
    let state = ${stored === undefined ? 'undefined' : JSON.stringify(stored)};
    let acquired = false;
    const copy = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
    window.__panelTest = { posted, violations, state: () => copy(state) };
    document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective + ' ' + e.blockedURI));
    window.acquireVsCodeApi = () => {
      if (acquired) throw new Error('acquireVsCodeApi may only be called once');
      acquired = true;
      return Object.freeze({
        postMessage: (m) => { posted.push(copy(m)); },
        getState: () => copy(state),
        setState: (s) => { state = copy(s); return s; },
      });
    };
  })();`;
}
