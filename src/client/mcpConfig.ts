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

/** The JSON snippet for a client's MCP settings, pretty-printed. */
export function mcpConfigSnippet(cliPath: string, library: string): string {
  return JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: mcpLaunch(cliPath, library) } }, null, 2);
}
