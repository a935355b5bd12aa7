// `skill-router hook` as Claude Code runs it (a UserPromptSubmit JSON object on stdin) and as
// other clients do (plain text), spawned from the built bundle, and once through main() in
// process: the routed skills within the budget, exit 0 on any input (empty, 2 MB, binary, not
// JSON) with nothing printed when there is no prompt, and 1 (never 2, which would block the
// prompt) when the hook is set up wrong. Lexical routing (--no-model) on the check fixture.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';

const ROOT = resolve(__dirname, '../../..');
const CLI = join(ROOT, 'dist/cli.js');
const BIN = join(ROOT, 'bin/skill-router.js');
const LIB = join(ROOT, 'test/fixtures/check-lib/skills');

describe('cli: skill-router hook', function () {
  this.timeout(120_000);
  let cache: string;
  before(() => {
    cache = mkdtempSync(join(tmpdir(), 'skill-router-hook-'));
  });
  after(() => rmSync(cache, { recursive: true, force: true }));

  const hook = (input: string | Buffer, ...args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, 'hook', '--library', LIB, '--no-model', '--cache', cache, ...args], { input, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
    return { code: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  };
  const claudeCode = (prompt: string) =>
    JSON.stringify({ session_id: 'abc', transcript_path: '/tmp/t.jsonl', cwd: ROOT, permission_mode: 'default', hook_event_name: 'UserPromptSubmit', prompt });

  it("adds the routed skill for Claude Code's UserPromptSubmit input, within the default budget", () => {
    const r = hook(claudeCode('get the text out of this scanned PDF contract'));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^A skill for this request \(skill-router\):\n- pdf-extract: Extract text, tables and images from PDF files/);
    assert.ok(r.stdout.includes(join(LIB, 'pdf-extract', 'SKILL.md')));
    assert.ok(r.stdout.trimEnd().length <= 1500);
  });

  it('reads plain text too, and keeps to --budget', () => {
    const r = hook('this MySQL query times out, how do I add the right index?\n', '--budget', '200');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /sql-tuning/);
    assert.ok(r.stdout.trimEnd().length <= 200, `${r.stdout.trimEnd().length} characters`);
  });

  it("prints Claude Code's JSON form with --json", () => {
    const r = hook(claudeCode('summarise my staged changes as a conventional commit'), '--json');
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.hookSpecificOutput.hookEventName, 'UserPromptSubmit');
    assert.match(out.hookSpecificOutput.additionalContext, /commit-message/);
    assert.ok(out.hookSpecificOutput.additionalContext.length <= 1500);
  });

  it('exits 0 and prints nothing for input that holds no prompt: empty, blank, binary, JSON without a prompt', () => {
    for (const input of ['', '  \n\t\n', randomBytes(2 * 1024 * 1024), JSON.stringify({ hook_event_name: 'Stop', stop_hook_active: false })]) {
      const r = hook(input);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, '', `input ${String(input).slice(0, 20)}`);
    }
  });

  it('exits 0 within budget on huge input (2 MB of text, a 2 MB prompt in JSON) and on invalid JSON', () => {
    const huge = `plot a bar chart from a CSV file ${'with more words '.repeat(140_000)}`;
    assert.ok(huge.length > 2_000_000);
    for (const input of [huge, claudeCode(huge), '{"prompt": "plot a bar chart from', '{"prompt": }']) {
      const r = hook(input);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.stdout.trimEnd().length <= 1500);
    }
    assert.match(hook(huge).stdout, /csv-charts/, 'a long prompt is routed on its first words');
  });

  it('exits 1, never 2, when the hook is set up wrong, and says what to do', () => {
    const badBudget = hook('chart', '--budget', '50');
    assert.equal(badBudget.code, 1);
    assert.match(badBudget.stderr, /--budget must be at least 200 characters, got 50/);
    const badFlag = hook('chart', '--colour');
    assert.equal(badFlag.code, 1);
    assert.match(badFlag.stderr, /Run "skill-router hook --help" for usage/);
    const r = spawnSync(process.execPath, [CLI, 'hook', '--library', '/no/such/library', '--no-model'], { input: claudeCode('chart'), encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /library not found: \/no\/such\/library; pass --library <dir>/);
    assert.equal(r.stdout, '');
  });

  it('through bin/skill-router.js with no server running: the small first stop hands the prompt it read to the CLI, the same block', () => {
    const prompt = claudeCode('get the text out of this scanned PDF contract');
    const r = spawnSync(process.execPath, [BIN, 'hook', '--library', LIB, '--no-model', '--cache', cache, '--verbose'], { input: prompt, timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr.toString());
    assert.doesNotMatch(r.stderr.toString(), /answered by the running/);
    assert.equal(r.stdout.toString(), hook(prompt).stdout);
    assert.match(r.stdout.toString(), /pdf-extract/);
    const none = spawnSync(process.execPath, [BIN, 'hook', '--library', LIB, '--no-model', '--cache', cache], { input: JSON.stringify({ hook_event_name: 'Stop' }), timeout: 60_000 });
    assert.equal(none.status, 0);
    assert.equal(none.stdout.toString(), '');
  });

  it('--help prints the usage and exits 0', () => {
    const r = spawnSync(process.execPath, [CLI, 'hook', '--help'], { encoding: 'utf8' });
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^Usage: skill-router hook --library <dir> \[--budget 1500\] \[--json\]/);
    assert.match(r.stdout, /Never 2/);
  });

  it('main() in process reads the prompt from io.stdin', async () => {
    const main = (require(CLI) as { main: (io: object) => Promise<number> }).main;
    let stdout = '';
    let stderr = '';
    const code = await main({
      argv: ['hook', '--library', LIB, '--no-model', '--cache', cache],
      cwd: ROOT,
      stdout: (s: string) => void (stdout += s),
      stderr: (s: string) => void (stderr += s),
      env: {},
      stdin: Readable.from([Buffer.from(claudeCode('wire postgres and redis together with my node app in docker compose'))]),
    });
    assert.equal(code, 0, stderr);
    assert.match(stdout, /docker-compose/);
  });

  describe('with skill-router mcp of the library running', () => {
    let dir: string;
    let lib: string;
    let client: Client;
    let changed: Promise<void>;
    let onChange: () => void;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'skill-router-hook-mcp-'));
      lib = join(dir, 'skills');
      cpSync(LIB, lib, { recursive: true });
      const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--library', lib, '--no-model', '--cache', join(dir, 'server-cache')], stderr: 'pipe', cwd: ROOT });
      client = new Client({ name: 'hook-test', version: '1.0.0' });
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        if ((n.params.data as { event?: string })?.event === 'library-changed') onChange?.();
      });
      await client.connect(transport);
      // Answered once the index is in: the server's hook channel is open by then.
      await client.callTool({ name: 'search_skills', arguments: { request: 'pdf' } });
    });
    after(async () => {
      await client?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const hookOn = (prompt: string, ...args: string[]) => {
      const r = spawnSync(process.execPath, [CLI, 'hook', '--library', lib, '--no-model', '--cache', join(dir, 'hook-cache'), '--verbose', ...args], { input: claudeCode(prompt), timeout: 60_000 });
      return { code: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
    };

    it("answers from the running server, the same block as the hook's own routing", () => {
      for (const prompt of ['get the text out of this scanned PDF contract', 'summarise my staged changes as a conventional commit', 'what is the weather in Paris']) {
        const served = hookOn(prompt);
        assert.equal(served.code, 0, served.stderr);
        assert.match(served.stderr, /answered by the running skill-router mcp of this library/);
        const own = hookOn(prompt, '--no-server');
        assert.equal(own.code, 0, own.stderr);
        assert.doesNotMatch(own.stderr, /answered by the running/);
        assert.equal(served.stdout, own.stdout, prompt);
      }
    });

    it('answers through bin/skill-router.js (the small first stop) without loading the CLI, the same block', () => {
      const prompt = 'summarise my staged changes as a conventional commit';
      const r = spawnSync(process.execPath, [BIN, 'hook', '--library', lib, '--no-model', '--cache', join(dir, 'hook-cache'), '--verbose', '--json'], { input: claudeCode(prompt), timeout: 60_000 });
      assert.equal(r.status, 0, r.stderr.toString());
      assert.match(r.stderr.toString(), /answered by the running skill-router mcp of this library/);
      assert.equal(r.stdout.toString(), hookOn(prompt, '--no-server', '--json').stdout);
      // A server of the same library with other engine flags is not asked.
      const other = spawnSync(process.execPath, [BIN, 'hook', '--library', lib, '--no-model', '--no-bridge', '--cache', join(dir, 'hook-cache'), '--verbose'], { input: claudeCode(prompt), timeout: 60_000 });
      assert.equal(other.status, 0, other.stderr.toString());
      assert.doesNotMatch(other.stderr.toString(), /answered by the running/);
    });

    it('answers from the library as edited: a changed SKILL.md is in the next answer', async () => {
      const prompt = 'get the text out of this scanned PDF contract';
      assert.match(hookOn(prompt).stdout, /pdf-extract: Extract text, tables and images from PDF/);
      const file = join(lib, 'pdf-extract', 'SKILL.md');
      changed = new Promise<void>((resolve) => (onChange = resolve));
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^description: .*$/m, 'description: Bake sourdough bread at home with a starter.'));
      await changed;
      const served = hookOn(prompt);
      assert.match(served.stderr, /answered by the running/);
      assert.doesNotMatch(served.stdout, /Extract text, tables and images from PDF/, 'the old description is gone');
      assert.equal(served.stdout, hookOn(prompt, '--no-server').stdout);
    });
  });
});
