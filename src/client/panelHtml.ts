/**
 * The HTML of the "test a query" webview: a locked-down page that loads one script and one
 * stylesheet. Pure (no `vscode`), so tests build the very page the extension serves.
 */
import { randomBytes } from 'node:crypto';

export interface PanelHtmlOptions {
  /** `webview.cspSource`: the origin the webview's own resources are served from. */
  cspSource: string;
  /** `asWebviewUri` of dist/webview/panel.js. */
  scriptUri: string;
  /** `asWebviewUri` of media/panel.css. */
  styleUri: string;
  /** From `createNonce()`; a fresh one each time the HTML is set. */
  nonce: string;
}

/** 128 random bits, base64: the script nonce of one page load. */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The Content-Security-Policy of the panel: nothing by default; styles, images and fonts only from
 * the extension's own resources; scripts only with this page's nonce (so no inline handlers and no
 * `eval`); no forms posted and no `<base>`.
 */
export function panelCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export function panelHtml(opts: PanelHtmlOptions): string {
  if (!/^[A-Za-z0-9+/=]{16,}$/.test(opts.nonce)) throw new Error('panelHtml: the nonce must be base64 from createNonce()');
  // VS Code's cspSource is a source list such as `'self' https://*.vscode-cdn.net`; a `;` would start another directive.
  if (/[;,"<>\r\n]/.test(opts.cspSource)) throw new Error('panelHtml: unexpected characters in cspSource');
  const nonce = opts.nonce;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(panelCsp(opts.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(opts.styleUri)}">
<title>Test a Query</title>
</head>
<body>
<main id="app" aria-busy="true"></main>
<script nonce="${nonce}" src="${escapeAttr(opts.scriptUri)}"></script>
</body>
</html>
`;
}
