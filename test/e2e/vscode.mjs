// Runs Skill Router inside a real VS Code: code-server (VS Code 1.100.3) driven by headless Chromium.
//   node test/e2e/vscode.mjs int   the mocha suite out/test/e2e/*.test.js inside the extension host
//   node test/e2e/vscode.mjs ui    the workbench like a user: status bar, squiggle, hover, screenshots
// Env: E2E_TOOLS (code-server install, see setup.sh), E2E_OUT (logs, screenshots).
// Random loopback port, temp folders; stops only the server it started. Prints "N passed, N failed".
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { chromium } from 'playwright-core';

const mode = process.argv[2] ?? 'int';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const TOOLS = process.env.E2E_TOOLS ?? path.join(ROOT, '.e2e', 'tools');
const OUT = process.env.E2E_OUT ?? path.join(ROOT, '.e2e', 'out');
mkdirSync(OUT, { recursive: true });
const tmp = mkdtempSync(path.join(tmpdir(), 'skill-router-e2e-'));
const WS = path.join(tmp, 'ws');
cpSync(path.join(ROOT, 'test', 'fixtures', 'workspaces', 'duplicates'), WS, { recursive: true });
mkdirSync(path.join(tmp, 'user', 'User'), { recursive: true });
writeFileSync(path.join(tmp, 'user', 'User', 'settings.json'), JSON.stringify({
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'skillRouter.logLevel': 'debug',
}));
const RESULT = path.join(tmp, 'result.json');
const t0 = Date.now();
const lap = (m) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);

let server;
let browser;

async function startServer() {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const log = openSync(path.join(OUT, `code-server-${mode}.log`), 'w');
  const env = { ...process.env, E2E_WS: WS, E2E_RESULT_FILE: RESULT };
  server = spawn(path.join(TOOLS, 'node_modules', '.bin', 'code-server'), [
    '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check',
    '--disable-workspace-trust', '--config', path.join(tmp, 'config.yaml'),
    '--user-data-dir', path.join(tmp, 'user'), '--extensions-dir', path.join(tmp, 'ext'),
  ], { env, stdio: ['ignore', log, log] });
  for (let i = 0; ; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/`);
      if (r.status < 500) break;
    } catch {
      // not up yet
    }
    if (i > 300) throw new Error('code-server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  lap(`code-server up on ${port}`);
  return port;
}

function workbenchUrl(port, withTests) {
  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [['extensionDevelopmentPath', remote(ROOT)]];
  if (withTests) payload.push(['extensionTestsPath', remote(path.join(ROOT, 'out', 'test', 'e2e', 'index.js'))]);
  return `http://127.0.0.1:${port}/?folder=${encodeURIComponent(WS)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

async function openBrowser() {
  browser = await chromium.launchPersistentContext(path.join(tmp, 'chrome'), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  browser.setDefaultTimeout(120_000);
  return browser.pages()[0] ?? (await browser.newPage());
}

async function runInt() {
  const port = await startServer();
  const page = await openBrowser();
  const exit = new Promise((resolve) => page.exposeFunction('codeAutomationExit', (code) => resolve(code)));
  page.on('console', async (m) => {
    // The extension host's console arrives as ('%c INFO', 'color: ...', format, ...args).
    let args = await Promise.all(m.args().map((a) => a.jsonValue().catch(() => '?')));
    if (typeof args[0] === 'string' && args[0].startsWith('%c')) args = args.slice(2);
    const line = format(...args);
    if (/open-vsx|ERR_NAME_NOT_RESOLVED|Failed to load resource|iframe which has both/.test(line)) return;
    appendFileSync(path.join(OUT, 'extension-host-console.log'), `${line}\n`);
    if (/passing|failing|pending|✔|✓|\d+\) |AssertionError/.test(line)) console.log(`  ${line}`);
  });
  await page.goto(workbenchUrl(port, true));
  const code = await Promise.race([exit, new Promise((r) => setTimeout(() => r('timeout'), 420_000).unref())]);
  const res = existsSync(RESULT) ? JSON.parse(readFileSync(RESULT, 'utf8')) : { passes: 0, failures: 1 };
  lap(`extension host exit code ${code}`);
  console.log(`${res.passes} passed, ${res.failures} failed`);
  return code === 0 && res.failures === 0 ? 0 : 1;
}

async function runUi() {
  const port = await startServer();
  const page = await openBrowser();
  let passed = 0;
  const step = async (name, fn) => {
    await fn();
    passed++;
    lap(`✔ ${name}`);
  };
  await page.goto(workbenchUrl(port, false));
  await page.waitForSelector('.monaco-workbench', { timeout: 120_000 });
  await step('status bar shows the indexed skills and the listing budget', async () => {
    await page.locator('.statusbar-item', { hasText: /3 skills · [\d,]+\/8,000/ }).first().waitFor({ timeout: 180_000 });
  });
  await page.screenshot({ path: path.join(OUT, '1-status-bar.png') });
  await step('opening csv-tidy/SKILL.md shows the near-duplicate squiggle', async () => {
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
    await page.keyboard.type('csv-tidy/SKILL.md');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'SKILL.md' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.monaco-editor .squiggly-warning').first().waitFor();
  });
  await step('hovering the squiggle shows the message naming the twin', async () => {
    // The squiggle is drawn under the text; hover the words it underlines.
    await page.locator('.monaco-editor .view-line span', { hasText: 'Clean messy CSV' }).first().hover();
    await page.locator('.monaco-hover-content', { hasText: 'Near-duplicate of "csv-cleaner"' }).first().waitFor();
  });
  await page.screenshot({ path: path.join(OUT, '2-near-duplicate-hover.png') });
  // The query panel (a webview: its page sits in iframe#active-frame inside iframe.webview).
  const panel = page.frameLocator('iframe.webview').first().frameLocator('iframe#active-frame');
  const request = 'roll back a failed Kubernetes deployment with Helm';
  await step('"Test a Query" opens the panel; a typed request routes k8s-deploy first', async () => {
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
    await page.keyboard.type('Skill Router: Test a Query');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Test a Query' }).first().waitFor();
    await page.keyboard.press('Enter');
    await panel.locator('#query').waitFor();
    await panel.locator('#query').fill(request);
    await panel.locator('#query').press('Enter');
    await panel.locator('li.result').first().locator('.name', { hasText: /^k8s-deploy$/ }).waitFor();
    // csv-tidy/SKILL.md is the active editor: its result carries the badge.
    await panel.locator('li.result', { hasText: 'csv-tidy' }).locator('.active-badge').waitFor();
  });
  await page.screenshot({ path: path.join(OUT, '3-query-panel.png') });
  await step('"Save as routing test" appends the request to skill-router.tests.yaml', async () => {
    // Expect k8s-deploy alone, whatever the panel proposed.
    const cards = panel.locator('li.result');
    for (let i = 0; i < (await cards.count()); i++) {
      const card = cards.nth(i);
      const want = (await card.locator('.name').textContent()) === 'k8s-deploy';
      if ((await card.locator('.toggle.expect').getAttribute('aria-pressed')) !== String(want)) await card.locator('.toggle.expect').click();
    }
    await panel.locator('#save').click();
    await panel.locator('.saved', { hasText: 'skill-router.tests.yaml' }).waitFor();
    const saved = readFileSync(path.join(WS, 'skill-router.tests.yaml'), 'utf8');
    if (!saved.includes(`- query: ${request}\n  expect: k8s-deploy\n`)) throw new Error(`unexpected tests file:\n${saved}`);
  });
  console.log(`${passed} passed, 0 failed`);
  return 0;
}

(mode === 'int' ? runInt() : runUi())
  .then((code) => (process.exitCode = code), (err) => {
    console.error(`E2E FAILED (${mode}): ${String(err.message).split('\n').slice(0, 8).join('\n')}`);
    console.log('0 passed, 1 failed');
    process.exitCode = 1;
  })
  .finally(async () => {
    if (process.exitCode) await browser?.pages()[0]?.screenshot({ path: path.join(OUT, `failure-${mode}.png`) }).catch(() => {});
    await browser?.close().catch(() => {});
    if (server && server.exitCode === null) {
      const gone = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
    }
    rmSync(tmp, { recursive: true, force: true });
    process.exit(process.exitCode ?? 0);
  });
