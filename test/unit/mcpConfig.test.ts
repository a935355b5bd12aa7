/** The snippet "Skill Router: Copy MCP configuration" copies (src/client/mcpConfig.ts). */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launcherScript, MCP_SERVER_NAME, mcpConfigSnippet, mcpLaunch } from '../../src/client/mcpConfig';

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

  it('the launcher outlives an update: it runs this version\'s CLI, and the newest installed one when that is gone', () => {
    const root = mkdtempSync(join(tmpdir(), 'sr-launcher-'));
    try {
      const version = (v: string) => {
        const dir = join(root, `skill-router.skill-router-${v}`);
        mkdirSync(join(dir, 'dist'), { recursive: true });
        writeFileSync(join(dir, 'dist', 'cli.js'), `process.stdout.write(JSON.stringify({ v: ${JSON.stringify(v)}, args: process.argv.slice(2) }));`);
        return dir;
      };
      const current = version('0.9.0');
      const launcher = join(root, 'storage', 'skill-router-mcp.js');
      mkdirSync(join(root, 'storage'));
      writeFileSync(launcher, launcherScript(current));
      const run = () => spawnSync(process.execPath, [launcher, 'mcp', '--library', '/lib'], { encoding: 'utf8' });
      assert.deepEqual(JSON.parse(run().stdout), { v: '0.9.0', args: ['mcp', '--library', '/lib'] });
      version('0.10.0');
      version('0.9.5');
      rmSync(current, { recursive: true });
      assert.deepEqual(JSON.parse(run().stdout), { v: '0.10.0', args: ['mcp', '--library', '/lib'] }, 'the newest version, compared as numbers');
      rmSync(join(root, 'skill-router.skill-router-0.10.0'), { recursive: true });
      rmSync(join(root, 'skill-router.skill-router-0.9.5'), { recursive: true });
      const gone = run();
      assert.equal(gone.status, 2);
      assert.match(gone.stderr, /not installed any more; reinstall it, or run "npx skill-router mcp"/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
