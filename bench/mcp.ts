/**
 * `skill-router mcp` as an agent meets it, on a real library (default: ../shared/corpus/skills)
 * with the index cache warm (the library's user cache folder, as the CLI and the editor use it):
 * the first answer after the server starts (spawn, initialise, first `search_skills`), then
 * `search_skills` latency p50/p95 over the dev requests, measured at the client (the round trip
 * over stdio), the server's RSS, and Hit@1 of the tool's first result; also the prompt hook's
 * wall time per prompt (a fresh process each time, as Claude Code runs it), with the server running (the hook asks it) and alone. Prints a table and
 * writes bench/results/mcp.json (or --out) with the load average. Never pass/fail. The Hit@1 is
 * there to compare with `eval` on the same requests: the tool's ranking is `route`'s.
 *
 *   node esbuild.mjs --bench && node out/bench/mcp.js [--library DIR] [--queries FILE.jsonl]
 *        [--limit N] [--hook-runs N] [--no-model] [--lean] [--cold] [--cache DIR] [--out FILE.json]
 *
 * `--cold` starts the server on a fresh cache folder (nothing cached): the first answer is then
 * words-only while the vectors are built, and the table adds when the first full answer came.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../src/shared/serverProcess';

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'dist/cli.js');
// The hook as a client runs it: through bin/skill-router.js, whose first stop for `hook` asks a running server.
const BIN = path.join(ROOT, 'bin/skill-router.js');
const { values } = parseArgs({
  options: {
    library: { type: 'string', default: path.resolve(ROOT, '../shared/corpus/skills') },
    queries: { type: 'string', default: path.resolve(ROOT, '../shared/queries/dev.jsonl') },
    limit: { type: 'string' },
    'hook-runs': { type: 'string', default: '5' },
    cache: { type: 'string' },
    'no-model': { type: 'boolean' },
    // The language server's memory settings (src/shared/serverProcess.ts), to compare.
    lean: { type: 'boolean' },
    out: { type: 'string', default: path.join(ROOT, 'bench/results/mcp.json') },
    // An uncached library: a fresh cache folder, the first answer (words only while the vectors
    // are built) and when the first full one came (searching again each 0.5 s).
    cold: { type: 'boolean' },
  },
});

interface Query {
  id: string;
  query: string;
  skill_ids: string[];
  also_ok?: string[];
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
const load = () => loadavg().map((l) => Number(l.toFixed(2)));

/** VmRSS and VmHWM of a process, in MB (Linux /proc; null elsewhere). */
function rssOf(pid: number | null): { rssMb: number; peakMb: number } | null {
  if (!pid) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: Number((kb('VmRSS') / 1024).toFixed(1)), peakMb: Number((kb('VmHWM') / 1024).toFixed(1)) };
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const library = path.resolve(String(values.library));
  const queries: Query[] = readFileSync(String(values.queries), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Query)
    .slice(0, values.limit ? Number(values.limit) : undefined);
  const engineFlags = values['no-model'] ? ['--no-model'] : [];
  const loadAtStart = load();

  // First answer after start: spawn, initialise, one search, with the cache warm.
  const t0 = performance.now();
  // --lean: the language server's own node flags and environment.
  const nodeArgs = values.lean ? [...SERVER_NODE_ARGS] : [];
  const env = { ...process.env, ...(values.lean ? SERVER_ENV : {}) } as Record<string, string>;
  const coldCache = values.cold ? mkdtempSync(path.join(tmpdir(), 'sr-mcp-cold-')) : undefined;
  const cacheFlags = coldCache ? ['--cache', coldCache] : values.cache ? ['--cache', path.resolve(values.cache)] : [];
  const transport = new StdioClientTransport({ command: process.execPath, args: [...nodeArgs, CLI, 'mcp', '--library', library, '--quiet', ...engineFlags, ...cacheFlags], stderr: 'pipe', env });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => void (stderr += d.toString()));
  const client = new Client({ name: 'skill-router-bench', version: '1' });
  await client.connect(transport);
  const initMs = performance.now() - t0;
  const call = async (request: string) => {
    const r = (await client.callTool({ name: 'search_skills', arguments: { request, top_k: 10 } })) as CallToolResult;
    if (r.isError) throw new Error(`search_skills failed: ${JSON.stringify(r.content)}\n${stderr}`);
    return r.structuredContent as { set: { id: string }[]; others: { id: string }[]; wordsOnly?: { embedded: number; total: number } };
  };
  const first = await call(queries[0].query);
  const firstAnswerMs = performance.now() - t0;
  let fullAnswerMs = firstAnswerMs;
  if (first.wordsOnly) {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (!(await call(queries[0].query)).wordsOnly) break;
    }
    fullAnswerMs = performance.now() - t0;
  }
  const rssReady = rssOf(transport.pid);

  // Steady state: every dev request once (the first already warmed the query path).
  const ms: number[] = [];
  let hits = 0;
  for (const q of queries) {
    const t = performance.now();
    const a = await call(q.query);
    ms.push(performance.now() - t);
    const top = a.set[0]?.id ?? a.others[0]?.id;
    if (top && (q.skill_ids.includes(top) || (q.also_ok ?? []).includes(top))) hits++;
  }
  const rssAfter = rssOf(transport.pid);
  const { tools } = await client.listTools();

  // The prompt hook: a fresh process per prompt, as Claude Code runs it; first with this server
  // running (the hook asks it, hookChannel.ts), then alone (`--no-server`: it opens the index).
  const hookRuns = (extra: string[]) => {
    const times: number[] = [];
    for (const q of queries.slice(0, Number(values['hook-runs']))) {
      const t = performance.now();
      const r = spawnSync(process.execPath, [BIN, 'hook', '--library', library, ...engineFlags, ...cacheFlags, ...extra], { input: JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: q.query }), encoding: 'utf8' });
      times.push(performance.now() - t);
      if (r.status !== 0) throw new Error(`hook failed (${r.status}): ${r.stderr}`);
    }
    return times;
  };
  const loadHook = load();
  const hookServedMs = hookRuns([]);
  await client.close();
  const hookMs = hookRuns(['--no-server']);
  if (coldCache) rmSync(coldCache, { recursive: true, force: true });

  const result = {
    library,
    requests: queries.length,
    model: !values['no-model'],
    lean: Boolean(values.lean),
    tools: tools.map((t) => t.name),
    initializeMs: Number(initMs.toFixed(1)),
    cold: Boolean(values.cold),
    firstAnswerMs: Number(firstAnswerMs.toFixed(1)),
    firstAnswerWordsOnly: first.wordsOnly ?? null,
    firstFullAnswerMs: Number(fullAnswerMs.toFixed(1)),
    searchMsP50: Number(pct(ms, 50).toFixed(1)),
    searchMsP95: Number(pct(ms, 95).toFixed(1)),
    searchMsMax: Number(Math.max(...ms).toFixed(1)),
    hit1: Number((hits / queries.length).toFixed(4)),
    serverRss: { ready: rssReady, afterRequests: rssAfter },
    hookMsP50: Number(pct(hookMs, 50).toFixed(1)),
    hookServedMsP50: Number(pct(hookServedMs, 50).toFixed(1)),
    hookServedMsMax: Number(Math.max(...hookServedMs).toFixed(1)),
    loadAtHooks: loadHook,
    hookRuns: hookMs.length,
    machine: { cpus: cpus().length, memGb: Number((totalmem() / 2 ** 30).toFixed(1)), node: process.version },
    loadAverage: { start: loadAtStart, end: load() },
  };
  console.log(`### skill-router mcp on ${path.basename(library)} (${queries.length} requests, ${result.model ? 'model' : 'words only'}, warm cache, load ${loadAtStart.join(' ')} on ${result.machine.cpus} cores)\n`);
  console.log('| measure | value |');
  console.log('|---|---:|');
  console.log(`| initialise (spawn to initialize answered) | ${f1(initMs)} ms |`);
  console.log(`| first answer after start (spawn, initialise, index ${values.cold ? 'uncached' : 'from cache'}, one search) | ${f1(firstAnswerMs)} ms${first.wordsOnly ? ` (words only: ${first.wordsOnly.embedded} of ${first.wordsOnly.total} texts embedded)` : ''} |`);
  if (first.wordsOnly) console.log(`| first full answer after start | ${f1(fullAnswerMs)} ms |`);
  console.log(`| search_skills p50 / p95 / max (round trip, top_k 10) | ${f1(result.searchMsP50)} / ${f1(result.searchMsP95)} / ${f1(result.searchMsMax)} ms |`);
  console.log(`| server RSS after first answer / after all requests (peak) | ${rssReady?.rssMb ?? '-'} / ${rssAfter?.rssMb ?? '-'} MB (${rssAfter?.peakMb ?? '-'}) |`);
  console.log(`| Hit@1 of the tool's first result | ${(result.hit1 * 100).toFixed(1)} |`);
  console.log(`| hook, fresh process per prompt, with this server running, p50 / max of ${hookServedMs.length} | ${f1(result.hookServedMsP50)} / ${f1(result.hookServedMsMax)} ms |`);
  console.log(`| hook, fresh process per prompt, alone (\`--no-server\`), p50 of ${hookMs.length} | ${f1(result.hookMsP50)} ms |`);
  const out = path.resolve(String(values.out));
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
