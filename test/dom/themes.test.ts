/**
 * The panel in VS Code's light, dark and high-contrast themes: colours come from the theme
 * variables, text stays readable (WCAG AA contrast), high contrast gets its borders, and a
 * screenshot of each goes to out/screenshots/ (docs/images/ with UPDATE_SCREENSHOTS=1).
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { INIT, LISTING, QUERY, resultsMessage, SET, uriOf, WS } from './fixtures';
import { launchChromium, PanelPage, ROOT, THEMES, type ThemeKind } from './harness';

type Rgba = [number, number, number, number];

function parseColor(css: string): Rgba {
  const m = /^rgba?\(([^)]+)\)$/.exec(css.trim());
  if (!m) throw new Error(`unexpected colour ${css}`);
  const [r, g, b, a = 1] = m[1].split(/[,\s/]+/).filter(Boolean).map(Number);
  return [r, g, b, a];
}

function hexColor(hex: string): Rgba {
  const h = hex.replace('#', '');
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16), 1];
}

/** `top` composited over `under` (opaque). */
function over(top: Rgba, under: Rgba): Rgba {
  const a = top[3];
  return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1) as Rgba;
}

function luminance([r, g, b]: Rgba): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Text colour and the backgrounds from the element up to the root, as computed. */
const COLOURS = `(selector) => {
  const el = document.querySelector(selector);
  if (!el) return null;
  const backgrounds = [];
  for (let n = el; n; n = n.parentElement) backgrounds.push(getComputedStyle(n).backgroundColor);
  return { color: getComputedStyle(el).color, backgrounds };
}`;

describe('query panel themes (DOM)', function () {
  this.timeout(60_000);
  let browser: Browser;

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  for (const kind of ['light', 'dark', 'high-contrast'] as ThemeKind[]) {
    it(`follows the ${kind} theme: theme colours, readable text, screenshot`, async () => {
      const panel = await PanelPage.open(browser, { theme: kind, width: 720, height: 1000 });
      try {
        const vars = THEMES[kind].vars;
        await panel.deliver(INIT);
        await panel.page.fill('#query', 'pull the tables out of a scanned invoice');
        await panel.page.press('#query', 'Enter');
        await panel.page.fill('#query', QUERY);
        await panel.page.press('#query', 'Enter');
        await panel.waitForPosted('route', 2);
        await panel.deliver(resultsMessage(2, { set: SET, listing: LISTING, active: { uri: uriOf('pdf-extract'), name: 'pdf-extract', folder: 'pdf-extract', rank: 1, depth: 4 } }));
        // The author marks the test; it ran and passed before it was saved.
        await panel.page.click('li.result:nth-child(1) .toggle.expect');
        await panel.page.click('li.result:nth-child(3) .toggle.not-expect');
        await panel.page.click('#save');
        await panel.waitForPosted('saveTest');
        await panel.deliver({ type: 'saved', file: 'skill-router.tests.yaml', uri: `${WS}/skill-router.tests.yaml`, query: QUERY, outcome: { passed: true, topN: 5, problems: [] } });

        const body = parseColor(await panel.page.evaluate('getComputedStyle(document.body).backgroundColor') as string);
        assert.deepEqual(body, hexColor(vars['editor-background']), 'page background is the editor background');
        const fg = parseColor(await panel.page.evaluate('getComputedStyle(document.body).color') as string);
        assert.deepEqual(fg, hexColor(vars.foreground), 'text is the theme foreground');

        // Every kind of text on the panel is readable on what is behind it (WCAG AA: 4.5:1).
        for (const selector of ['.name', '.folder', '.listing', '.stage', '.value', '.where', '.passage mark', '.badge', '#status',
          '.reason', '.explanation', '.toggle.expect[aria-pressed="true"]', '.toggle.not-expect', '#save', '.chip', '#query', '.saved p',
          '.listing-rank .ranks', '.listing-rank.lower .ranks', '.listing-rank .why']) {
          const c = (await panel.page.evaluate(`(${COLOURS})(${JSON.stringify(selector)})`)) as { color: string; backgrounds: string[] } | null;
          assert.ok(c, `${selector} is on the page`);
          const bg = c.backgrounds.map(parseColor).reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1] as Rgba);
          const ratio = contrast(over(parseColor(c.color), bg), bg);
          assert.ok(ratio >= 4.5, `${kind}: ${selector} contrast ${ratio.toFixed(2)} (${c.color} on ${bg.join(',')})`);
        }

        // Focus is drawn with the theme's focus border.
        await panel.page.focus('#query');
        await panel.page.keyboard.press('ArrowDown');
        const outline = parseColor(await panel.page.evaluate('getComputedStyle(document.activeElement).outlineColor') as string);
        assert.deepEqual(outline, hexColor(vars.focusBorder));
        await panel.page.focus('#query');

        if (kind === 'high-contrast') {
          // High contrast: cards, badges and bars are outlined with the contrast border.
          const border = hexColor(vars.contrastBorder);
          for (const selector of ['li.result', '.active-badge', '.bar', '#set-view', '#save-bar']) {
            const css = (await panel.page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).borderTopColor`)) as string;
            assert.deepEqual(parseColor(css), border, `${selector} border`);
          }
        } else {
          const mark = parseColor(await panel.page.evaluate('getComputedStyle(document.querySelector(".passage mark")).backgroundColor') as string);
          assert.deepEqual(mark, parseColor(vars['editor-findMatchHighlightBackground']), 'matched words use the find-match highlight');
        }

        const outDir = path.join(ROOT, 'out', 'screenshots');
        mkdirSync(outDir, { recursive: true });
        const file = path.join(outDir, `panel-${kind}.png`);
        // The whole panel in one viewport, so the sticky routing-test bar sits where it ends.
        const height = (await panel.page.evaluate('document.documentElement.scrollHeight')) as number;
        await panel.page.setViewportSize({ width: 720, height });
        await panel.page.screenshot({ path: file });
        if (process.env.UPDATE_SCREENSHOTS) {
          mkdirSync(path.join(ROOT, 'docs', 'images'), { recursive: true });
          copyFileSync(file, path.join(ROOT, 'docs', 'images', `panel-${kind}.png`));
        }
        assert.deepEqual(await panel.cspViolations(), []);
        assert.deepEqual(panel.pageErrors, []);
      } finally {
        await panel.close();
      }
    });
  }
});
