/**
 * The MCP settings snippet that "Skill Router: Copy MCP configuration" puts on the clipboard: the
 * extension's bundled CLI (`dist/cli.js`) run by `node`, serving one workspace folder. The
 * `mcpServers` shape is what Claude Code (`.mcp.json`) and Cursor (`.cursor/mcp.json`) read; VS
 * Code's `.vscode/mcp.json` takes the same entry under `servers` (README: "Routing for the agent").
 * Pure, so it is unit-tested without VS Code.
 */

/** Name the server is registered under in the client's settings. */
export const MCP_SERVER_NAME = 'skill-router';

/** How a client starts the server. */
export interface McpLaunch {
  command: string;
  args: string[];
}

/** The launch of `node <cliPath> mcp --library <library>`. */
export function mcpLaunch(cliPath: string, library: string): McpLaunch {
  return { command: 'node', args: [cliPath, 'mcp', '--library', library] };
}

/** The launcher's file name in the extension's global storage (a path that survives updates). */
export const MCP_LAUNCHER = 'skill-router-mcp.js';

/**
 * The launcher script the snippet runs: it starts this extension version's CLI, and after an
 * update (the versioned folder gone) the newest installed version beside it. The extension
 * rewrites it on activation, so the path in a client's settings never goes stale.
 */
export function launcherScript(extensionPath: string): string {
  const folder = extensionPath.replace(/[\\/]+$/, '');
  const base = folder.split(/[\\/]/).pop() ?? '';
  // publisher.name-1.2.3 -> publisher.name-
  const prefix = base.replace(/\d+\.\d+\.\d+.*$/, '');
  return `#!/usr/bin/env node
// Written by the Skill Router extension: starts its bundled CLI wherever the current version lives.
'use strict';
const fs = require('fs');
const path = require('path');
let cli = path.join(${JSON.stringify(folder)}, 'dist', 'cli.js');
if (!fs.existsSync(cli)) {
  const parent = path.dirname(${JSON.stringify(folder)});
  const version = (n) => (n.slice(${JSON.stringify(prefix)}.length).match(/\\d+/g) || []).map(Number);
  const newer = (a, b) => { const x = version(a), y = version(b); for (let i = 0; i < 3; i++) if ((x[i] || 0) !== (y[i] || 0)) return (x[i] || 0) - (y[i] || 0); return 0; };
  const found = (fs.existsSync(parent) ? fs.readdirSync(parent) : [])
    .filter((n) => ${JSON.stringify(prefix)} && n.startsWith(${JSON.stringify(prefix)}) && fs.existsSync(path.join(parent, n, 'dist', 'cli.js')))
    .sort(newer)
    .pop();
  if (!found) {
    process.stderr.write('Skill Router: the extension is not installed any more; reinstall it, or run "npx skill-router mcp".\\n');
    process.exit(2);
  }
  cli = path.join(parent, found, 'dist', 'cli.js');
}
process.argv.splice(1, 1, cli);
require(cli);
`;
}

/** The JSON snippet for a client's MCP settings, pretty-printed. */
export function mcpConfigSnippet(cliPath: string, library: string): string {
  return JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: mcpLaunch(cliPath, library) } }, null, 2);
}
