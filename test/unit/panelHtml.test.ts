import { strict as assert } from 'node:assert';
import { createNonce, panelCsp, panelHtml } from '../../src/client/panelHtml';

/** `webview.cspSource` as VS Code 1.100 gives it. */
const SOURCE = "'self' https://*.vscode-cdn.net";
const ORIGIN = 'https://file+.vscode-resource.vscode-cdn.net';
const html = (nonce = createNonce()) =>
  panelHtml({ cspSource: SOURCE, scriptUri: `${ORIGIN}/ext/dist/webview/panel.js`, styleUri: `${ORIGIN}/ext/media/panel.css`, nonce });

describe('panel HTML', () => {
  it('carries a CSP that allows nothing but its own styles and the nonce script', () => {
    const nonce = createNonce();
    const page = html(nonce);
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page);
    assert.ok(meta, 'CSP meta tag');
    const csp = meta[1].replace(/&#39;|&apos;/g, "'");
    assert.equal(csp, panelCsp(SOURCE, nonce));
    const directives = Object.fromEntries(csp.split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    assert.deepEqual(directives['default-src'], ["'none'"]);
    assert.deepEqual(directives['script-src'], [`'nonce-${nonce}'`]);
    assert.deepEqual(directives['style-src'], ["'self'", 'https://*.vscode-cdn.net']);
    assert.equal(Object.keys(directives).length, 7, 'the source list adds no directive');
    assert.ok(!/unsafe-(inline|eval)/.test(csp));
  });

  it('has one script, with the nonce, and no inline script, handler or style', () => {
    const nonce = createNonce();
    const page = html(nonce);
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.match(scripts[0][1], new RegExp(`nonce="${nonce.replace(/[+/=]/g, '\\$&')}"`));
    assert.match(scripts[0][1], /src="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/dist\/webview\/panel\.js"/);
    assert.equal(scripts[0][2].trim(), '');
    assert.ok(!/\son[a-z]+\s*=/i.test(page), 'no inline event handlers');
    assert.ok(!/<style\b|\sstyle\s*=/i.test(page), 'no inline styles');
    assert.ok(!/javascript:/i.test(page));
  });

  it('uses a fresh 128-bit nonce each time and refuses a weak one', () => {
    const nonces = new Set(Array.from({ length: 50 }, createNonce));
    assert.equal(nonces.size, 50);
    for (const n of nonces) assert.equal(Buffer.from(n, 'base64').length, 16);
    assert.throws(() => html('abc'), /nonce/);
    assert.throws(() => html('"><script>x</script>'), /nonce/);
  });

  it('escapes resource URIs', () => {
    const page = panelHtml({ cspSource: SOURCE, scriptUri: 'https://x/a".js', styleUri: 'https://x/<b>.css', nonce: createNonce() });
    assert.ok(page.includes('src="https://x/a&quot;.js"'));
    assert.ok(page.includes('href="https://x/&lt;b&gt;.css"'));
    assert.throws(() => panelHtml({ cspSource: "x; script-src 'unsafe-inline'", scriptUri: 's', styleUri: 's', nonce: createNonce() }), /cspSource/);
  });
});
