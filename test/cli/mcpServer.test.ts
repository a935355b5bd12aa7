// `skill-router mcp` driven by the MCP SDK's own client over stdio, against the real server
// process (`node dist/cli.js mcp`) on a copy of the check fixture library: initialise, list the
// tools, search (the answer's ids equal `route --json`'s, same order), read a skill, bad arguments
// (each a tool error, and the server keeps answering), a library edited while the server runs
// (waits for the server's "library-changed" log event, no sleeps), and a clean exit when stdin
// closes. Lexical routing (--no-model), except one case with the real model.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const ROOT = resolve(__dirname, '../../..');
const CLI = join(ROOT, 'dist/cli.js');
const FIXTURE = join(ROOT, 'test/fixtures/check-lib/skills');
const QUERIES = readFileSync(join(ROOT, 'test/fixtures/check-lib/queries.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => (JSON.parse(l) as { query: string }).query);

type Main = (io: { argv: string[]; cwd: string; stdout: (s: string) => void; stderr: (s: string) => void; env?: Record<string, string | undefined> }) => Promise<number>;

/** `route --json`'s ids for a request, from the same bundle in process. */
async function routeIds(args: string[]): Promise<string[]> {
  const main = (require(CLI) as { main: Main }).main;
  const out = { stdout: '', stderr: '' };
  const code = await main({ argv: ['route', ...args, '--json', '--quiet'], cwd: ROOT, stdout: (s) => void (out.stdout += s), stderr: (s) => void (out.stderr += s), env: {} });
  assert.equal(code, 0, out.stderr);
  // The tool answers with route's relevant results only (none when no skill fits).
  const json = JSON.parse(out.stdout) as { match?: string; results: { id: string; relevant?: boolean }[] };
  return json.match === 'none' ? [] : json.results.filter((r) => r.relevant !== false).map((r) => r.id);
}

interface Answer {
  match: string;
  message: string;
  truncated: boolean;
  set: { id: string; why?: string; path: string }[];
  others: { id: string }[];
}

interface Server {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  /** Resolves with the next `library-changed` event whose data satisfies `test`. */
  changed: (test: (data: { updated: string[]; removed: string[] }) => boolean, ms?: number) => Promise<void>;
}

async function startServer(lib: string, extra: string[]): Promise<Server> {
  assert.ok(existsSync(CLI), `${CLI} is missing: run node esbuild.mjs first`);
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--library', lib, ...extra], stderr: 'pipe', cwd: ROOT });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => void (stderr += d.toString()));
  const client = new Client({ name: 'skill-router-test', version: '1.0.0' });
  const waiters: { test: (d: { updated: string[]; removed: string[] }) => boolean; resolve: () => void }[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    const data = n.params.data as { event?: string; updated: string[]; removed: string[] };
    if (data?.event !== 'library-changed') return;
    for (const w of [...waiters]) {
      if (w.test(data)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  });
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => stderr,
    changed: (test, ms = 30_000) =>
      new Promise<void>((resolvePromise, reject) => {
        const timer = setTimeout(() => reject(new Error(`no library-changed event within ${ms} ms; stderr:\n${stderr}`)), ms);
        waiters.push({ test, resolve: () => (clearTimeout(timer), resolvePromise()) });
      }),
  };
}

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

async function search(s: Server, args: Record<string, unknown>): Promise<Answer & { text: string }> {
  const r = (await s.client.callTool({ name: 'search_skills', arguments: args })) as CallToolResult;
  assert.ok(!r.isError, text(r));
  return { ...(r.structuredContent as unknown as Answer), text: text(r) };
}

async function toolError(s: Server, name: string, args: Record<string, unknown>): Promise<string> {
  const r = (await s.client.callTool({ name, arguments: args })) as CallToolResult;
  assert.equal(r.isError, true, `${name}(${JSON.stringify(args).slice(0, 80)}) should fail, got: ${text(r).slice(0, 200)}`);
  return text(r);
}

describe('cli: skill-router mcp over stdio (the SDK client against the real server)', function () {
  this.timeout(120_000);
  let dir: string;
  let lib: string;
  let cache: string;
  let server: Server;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'skill-router-mcp-'));
    lib = join(dir, 'lib');
    cache = join(dir, 'cache');
    cpSync(FIXTURE, lib, { recursive: true });
    // A skill folder with more files, links out of the library, and a skill that is itself a link out.
    mkdirSync(join(lib, 'csv-charts', 'references'));
    writeFileSync(join(lib, 'csv-charts', 'references', 'api.md'), '# matplotlib notes\n');
    mkdirSync(join(dir, 'outside', 'linked-skill'), { recursive: true });
    mkdirSync(join(dir, 'elsewhere'));
    writeFileSync(join(dir, 'elsewhere', 'secret.txt'), 'not for agents\n');
    symlinkSync(join(dir, 'elsewhere', 'secret.txt'), join(lib, 'csv-charts', 'secret.txt'));
    symlinkSync(join(dir, 'elsewhere'), join(lib, 'csv-charts', 'elsewhere'));
    writeFileSync(join(dir, 'outside', 'linked-skill', 'SKILL.md'), '---\nname: linked-skill\ndescription: A skill that lives outside the library and is linked in.\n---\n');
    symlinkSync(join(dir, 'outside', 'linked-skill'), join(lib, 'linked-skill'));
    server = await startServer(lib, ['--no-model', '--cache', cache]);
  });

  after(async () => {
    await server?.client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('initialises: name, version, tools and logging, instructions that say when to call it', () => {
    const info = server.client.getServerVersion();
    assert.equal(info?.name, 'skill-router');
    assert.equal(info?.version, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    const caps = server.client.getServerCapabilities();
    assert.ok(caps?.tools && caps.logging);
    assert.match(server.client.getInstructions() ?? '', /call search_skills with the user's request/);
  });

  it('lists the three tools with input and output schemas', async () => {
    const { tools } = await server.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['list_skills', 'read_skill', 'search_skills']);
    const search = tools.find((t) => t.name === 'search_skills')!;
    const props = search.inputSchema.properties as Record<string, { type?: string; maxLength?: number; enum?: string[]; maximum?: number }>;
    assert.deepEqual(search.inputSchema.required, ['request']);
    assert.equal(props.request.maxLength, 16384);
    assert.equal(props.top_k.type, 'integer');
    assert.deepEqual(props.client.enum, ['spec', 'claude-code', 'copilot', 'codex']);
    for (const t of tools) {
      assert.equal(t.outputSchema?.type, 'object', `${t.name} has an output schema`);
      assert.equal(t.annotations?.readOnlyHint, true);
    }
    assert.deepEqual(Object.keys(search.outputSchema!.properties!).sort(), ['declined', 'library', 'match', 'message', 'others', 'readAs', 'request', 'set', 'truncated', 'unread', 'wordsOnly']);
  });

  it("routes each fixture request exactly as `route` does: the same relevant ids in the same order", async () => {
    for (const query of QUERIES) {
      const answer = await search(server, { request: query, top_k: 5 });
      const ids = [...answer.set, ...answer.others].map((s) => s.id);
      assert.deepEqual(ids, await routeIds([query, '--library', lib, '--no-model', '--cache', cache, '--top', '5']), query);
    }
  });

  it('answers with the set first, why, paths, and text that says what to use', async () => {
    const a = await search(server, { request: 'get the text out of this scanned PDF contract' });
    assert.equal(a.match, 'strong');
    assert.equal(a.set[0].id, 'pdf-extract');
    assert.equal(a.set[0].path, join(lib, 'pdf-extract', 'SKILL.md'));
    assert.match(a.set[0].why ?? '', /^Best match/);
    assert.match(a.text, /^Use pdf-extract\.\n/);
    assert.match(a.text, new RegExp(`SKILL\\.md: ${join(lib, 'pdf-extract', 'SKILL.md').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const codex = await search(server, { request: 'get the text out of this scanned PDF contract', client: 'codex' });
    assert.deepEqual(codex.set.map((x) => x.id), a.set.map((x) => x.id), 'a client changes how skills are shown, not the routing');
  });

  it('reads a skill: its SKILL.md, a file of its folder, and the file list without links that leave the library', async () => {
    const r = (await server.client.callTool({ name: 'read_skill', arguments: { id: 'csv-charts' } })) as CallToolResult;
    assert.ok(!r.isError, text(r));
    const s = r.structuredContent as { text: string; files: string[]; file: string; path: string };
    assert.equal(s.text, readFileSync(join(lib, 'csv-charts', 'SKILL.md'), 'utf8'));
    assert.equal(s.file, 'SKILL.md');
    assert.deepEqual(s.files, ['SKILL.md', 'references/api.md']);
    assert.match(text(r), /2 links to outside the library or to folders left out/);
    const ref = (await server.client.callTool({ name: 'read_skill', arguments: { id: 'csv-charts', file: 'references/api.md' } })) as CallToolResult;
    assert.equal((ref.structuredContent as { text: string }).text, '# matplotlib notes\n');
  });

  it('refuses bad arguments with a tool error that says what to send, and keeps answering', async () => {
    assert.match(await toolError(server, 'read_skill', { id: 'no-such-skill' }), /-32602.*unknown skill id "no-such-skill": use an id from search_skills or list_skills/);
    assert.match(await toolError(server, 'read_skill', { id: '../../etc' }), /unknown skill id/);
    assert.match(await toolError(server, 'read_skill', { id: 'csv-charts', file: '../../../etc/passwd' }), /outside the skill folder/);
    assert.match(await toolError(server, 'read_skill', { id: 'csv-charts', file: '/etc/passwd' }), /relative to the skill folder/);
    assert.match(await toolError(server, 'read_skill', { id: 'csv-charts', file: 'secret.txt' }), /link to outside the library/);
    assert.match(await toolError(server, 'read_skill', { id: 'csv-charts', file: 'elsewhere/secret.txt' }), /link to outside the library/);
    assert.match(await toolError(server, 'read_skill', { id: 'csv-charts', file: 'references' }), /is a folder/);
    assert.match(await toolError(server, 'read_skill', { id: 'linked-skill' }), /unknown skill id "linked-skill"/, 'a skill linked in from outside the library is not indexed');
    assert.match(await toolError(server, 'search_skills', { request: 'chart '.repeat(4000) }), /longer than 16384 characters/);
    assert.match(await toolError(server, 'search_skills', { request: 42 }), /expected string/);
    assert.match(await toolError(server, 'search_skills', { request: '' }), /request is empty/);
    assert.match(await toolError(server, 'search_skills', { request: 'chart', top_k: 0 }), /top_k/);
    assert.match(await toolError(server, 'search_skills', { request: 'chart', top_k: 'five' }), /top_k/);
    assert.match(await toolError(server, 'search_skills', { request: 'chart', client: 'emacs' }), /client/);
    assert.match(await toolError(server, 'search_skills', {}), /request/);
    assert.match(await toolError(server, 'list_skills', { limit: 100000 }), /limit/);
    // An unknown tool is a JSON-RPC error (-32602), not a tool result.
    await assert.rejects(server.client.callTool({ name: 'no_such_tool', arguments: {} }), (e: Error & { code?: number }) => e.code === -32602 && /Unknown tool: no_such_tool/.test(e.message));
    const after = await search(server, { request: 'plot a bar chart from a CSV file' });
    assert.equal(after.set[0].id, 'csv-charts', 'the server still answers');
  });

  it('routes only the first 2,000 words of a long request, and says so', async () => {
    const a = await search(server, { request: `plot a bar chart from a CSV file ${'and '.repeat(2100)}` });
    assert.equal(a.truncated, true);
    assert.match(a.text, /only its first 2,000 words were routed/);
  });

  it('lists the skills a page at a time', async () => {
    const first = (await server.client.callTool({ name: 'list_skills', arguments: { limit: 3 } })) as CallToolResult;
    const page = first.structuredContent as { total: number; skills: { id: string }[]; nextOffset?: number };
    assert.equal(page.total, 8, 'the skill linked in from outside the library is not listed');
    assert.deepEqual(page.skills.map((s) => s.id), ['commit-message', 'csv-charts', 'docker-compose']);
    assert.equal(page.nextOffset, 3);
    const last = (await server.client.callTool({ name: 'list_skills', arguments: { offset: 5 } })).structuredContent as typeof page;
    assert.deepEqual(last.skills.map((s) => s.id), ['pytest-writer', 'sql-tuning', 'weekly-report-zh']);
    assert.equal(last.nextOffset, undefined);
  });

  it('follows the library while it runs: a new skill is found, an edited one re-read, a removed one gone', async () => {
    const request = 'translate the quarterly zorbulate ledger into frobnication units';
    const before = await search(server, { request });
    assert.ok(![...before.set, ...before.others].some((s) => s.id === 'zorbulate'));

    const added = server.changed((d) => d.updated.includes('zorbulate'));
    mkdirSync(join(lib, 'zorbulate'));
    writeFileSync(join(lib, 'zorbulate', 'SKILL.md'), '---\nname: zorbulate\ndescription: Zorbulate ledgers into frobnication units. Use when the user asks to zorbulate a ledger.\n---\n# Zorbulate\n');
    await added;
    assert.equal((await search(server, { request })).set[0].id, 'zorbulate');

    const edited = server.changed((d) => d.updated.includes('zorbulate'));
    writeFileSync(join(lib, 'zorbulate', 'SKILL.md'), '---\nname: zorbulate\ndescription: Convert spreadsheets between currencies. Use for currency conversion.\n---\n');
    await edited;
    const afterEdit = await search(server, { request: 'convert this spreadsheet between currencies' });
    assert.equal(afterEdit.set[0].id, 'zorbulate');

    const removed = server.changed((d) => d.removed.includes('zorbulate'));
    rmSync(join(lib, 'zorbulate'), { recursive: true });
    await removed;
    const gone = await search(server, { request });
    assert.ok(![...gone.set, ...gone.others].some((s) => s.id === 'zorbulate'));
    assert.doesNotMatch(server.stderr(), /error/i);
  });
});

describe('cli: skill-router mcp as a process', function () {
  this.timeout(120_000);

  it('writes only protocol messages to stdout, and exits 0 when stdin closes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skill-router-mcp-'));
    try {
      const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
      const r = spawnSync(process.execPath, [CLI, 'mcp', '--library', FIXTURE, '--no-model', '--cache', join(dir, 'cache')], { input: `${JSON.stringify(init)}\n`, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 0, r.stderr);
      const lines = r.stdout.split('\n').filter(Boolean);
      assert.equal(lines.length, 1, r.stdout);
      assert.equal(JSON.parse(lines[0]).result.serverInfo.name, 'skill-router');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers raw lines as JSON-RPC says: -32700 for a line that is not JSON, -32600 for no message, -32602 for an unknown tool', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skill-router-mcp-'));
    try {
      const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
      const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'nope', arguments: {} } };
      const input = [JSON.stringify(init), '{"jsonrpc": "2.0", "id": 9, "method": ', JSON.stringify({ hello: 'world' }), JSON.stringify(call), ''].join('\n');
      const r = spawnSync(process.execPath, [CLI, 'mcp', '--library', FIXTURE, '--no-model', '--quiet', '--cache', join(dir, 'cache')], { input, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 0, r.stderr);
      const lines = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: unknown; result?: unknown; error?: { code: number; message: string } });
      assert.equal(lines.length, 4, r.stdout);
      assert.ok(lines.find((l) => l.id === 1 && l.result));
      const errors = lines.filter((l) => l.error).map((l) => [l.id, l.error!.code]);
      assert.deepEqual(errors, [[null, -32700], [null, -32600], [2, -32602]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--help prints the usage, and unknown flags exit 2 pointing at it', () => {
    const help = spawnSync(process.execPath, [CLI, 'mcp', '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^Usage: skill-router mcp --library <dir>/);
    const bad = spawnSync(process.execPath, [CLI, 'mcp', '--colour'], { encoding: 'utf8', input: '' });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /Run "skill-router mcp --help" for usage/);
    const usage = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
    assert.match(usage.stdout, /mcp --library <dir> +MCP server over stdio/);
    assert.match(usage.stdout, /hook --library <dir> +Prompt hook/);
  });

  it('exits 2 with a message for a library that does not exist', () => {
    const r = spawnSync(process.execPath, [CLI, 'mcp', '--library', '/no/such/library', '--no-model'], { input: '', encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /library not found: \/no\/such\/library; pass --library <dir>/);
    assert.equal(r.stdout, '');
  });

  it('with the real model: the answer equals `route` on the fixture', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skill-router-mcp-model-'));
    const cache = join(dir, 'cache');
    const s = await startServer(FIXTURE, ['--cache', cache, '--no-watch']);
    try {
      for (const query of QUERIES.slice(0, 4)) {
        const a = await search(s, { request: query, top_k: 5 });
        assert.deepEqual([...a.set, ...a.others].map((x) => x.id), await routeIds([query, '--library', FIXTURE, '--cache', cache, '--top', '5']), query);
      }
      assert.doesNotMatch(s.stderr(), /semantic routing is off/);
    } finally {
      await s.client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
