/** The snippet "Skill Router: Copy MCP configuration" copies (src/client/mcpConfig.ts). */
import { strict as assert } from 'node:assert';
import { MCP_SERVER_NAME, mcpConfigSnippet, mcpLaunch } from '../../src/client/mcpConfig';

describe('mcpConfig: the copied MCP settings snippet', () => {
  it('runs the bundled CLI with node and serves the folder', () => {
    assert.deepEqual(mcpLaunch('/ext/dist/cli.js', '/work/skills'), { command: 'node', args: ['/ext/dist/cli.js', 'mcp', '--library', '/work/skills'] });
  });

  it('is the mcpServers shape of .mcp.json and .cursor/mcp.json, and keeps Windows paths intact', () => {
    const cli = 'C:\\Users\\me\\.vscode\\extensions\\skill-router\\dist\\cli.js';
    const folder = 'D:\\skills library';
    const parsed = JSON.parse(mcpConfigSnippet(cli, folder));
    assert.deepEqual(Object.keys(parsed), ['mcpServers']);
    assert.deepEqual(parsed.mcpServers[MCP_SERVER_NAME], { command: 'node', args: [cli, 'mcp', '--library', folder] });
    assert.equal(MCP_SERVER_NAME, 'skill-router');
  });
});
