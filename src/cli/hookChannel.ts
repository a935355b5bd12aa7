/**
 * The prompt hook's way to a running `skill-router mcp` of the same library: the server listens on
 * a local socket (a Unix socket in the temporary folder, a named pipe on Windows) named after the
 * library and the engine options that change a ranking, and answers one prompt per connection
 * with the hook's context block, from its index as it stands (kept current by its watcher). The
 * hook asks there first: a fresh process then skips opening the index (~1.5 s warm on the corpus,
 * most of a hook's time) and gets the same answer. No server, another library or other options,
 * or no answer in time: the hook opens the library itself.
 *
 * One JSON line each way: `{"prompt", "truncated", "budget"}` in, `{"block"}` (or `{"error"}`)
 * back. The server reads at most `MAX_ASK_BYTES` and answers read-only routing of its own library.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Logger } from '../core/types';
import type { OpenLibraryOptions } from '../node/library';

/** What a hook sends. */
export interface HookAsk {
  prompt: string;
  truncated: boolean;
  budget: number;
}

/** Bytes a server reads of one ask (a prompt is capped at 16 KB of characters before it is sent). */
export const MAX_ASK_BYTES = 256 * 1024;

/** Engine options that change what a ranking is (the cache folder, threads and device do not). */
function rankingKey(opts: OpenLibraryOptions): string {
  return JSON.stringify({
    root: path.resolve(opts.root),
    model: opts.noModel ? null : (opts.modelDir ?? 'default'),
    adapter: opts.adapterDir === undefined ? 'default' : opts.adapterDir,
    reranker: opts.rerankerDir ?? null,
    bridge: !opts.noBridge,
    profiles: opts.profiles ?? null,
    exclude: opts.exclude ?? null,
  });
}

/** The socket (or pipe) of the server for a library opened with `opts`, one per user. */
export function hookChannelPath(opts: OpenLibraryOptions): string {
  const hash = createHash('sha256').update(rankingKey(opts)).digest('hex').slice(0, 20);
  const user = typeof process.getuid === 'function' ? String(process.getuid()) : os.userInfo().username.replace(/[^\w-]/g, '_');
  if (process.platform === 'win32') return `\\\\.\\pipe\\skill-router-${user}-${hash}`;
  // A Unix socket path is limited to ~104 bytes: the temporary folder and a short name.
  return path.join(os.tmpdir(), `skill-router-${user}-${hash}.sock`);
}

/** A listening channel; `close` stops it and removes its socket. */
export interface HookChannel {
  readonly path: string;
  close(): Promise<void>;
}

/**
 * Listens on the channel of `opts` and answers each ask with `answer`. Resolves to null when
 * another live server of the same library and options holds it, or it cannot be opened (said
 * through `log`): the hook then asks that one, or opens the library itself.
 */
export async function serveHookChannel(opts: OpenLibraryOptions, answer: (ask: HookAsk) => Promise<string>, log: Logger): Promise<HookChannel | null> {
  const where = hookChannelPath(opts);
  const server = net.createServer((socket) => void handle(socket, answer, log));
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(where, () => {
        server.off('error', reject);
        resolve();
      });
    });
  try {
    await listen();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || process.platform === 'win32' || (await answers(where))) {
      log.info(`the prompt hook's channel ${where} is ${(err as NodeJS.ErrnoException).code === 'EADDRINUSE' ? 'served by another skill-router mcp of this library' : `not open: ${(err as Error).message}`}`);
      return null;
    }
    // A socket left by a server that died: nobody answers on it.
    await fs.rm(where, { force: true });
    try {
      await listen();
    } catch (again) {
      log.info(`the prompt hook's channel ${where} is not open: ${(again as Error).message}`);
      return null;
    }
  }
  // A failing channel must not take the MCP server down with it: the hook then routes itself.
  server.on('error', (err) => log.warn(`the prompt hook's channel ${where}: ${err.message}`));
  // Only this user may ask (the folder is shared; the socket's mode is what guards it).
  if (process.platform !== 'win32') await fs.chmod(where, 0o600).catch(() => undefined);
  server.unref();
  log.info(`answering the prompt hook on ${where}`);
  return {
    path: where,
    close: () =>
      new Promise<void>((resolve) => {
        // Closing a listening Unix socket server removes its file.
        server.close(() => resolve());
      }),
  };
}

async function handle(socket: net.Socket, answer: (ask: HookAsk) => Promise<string>, log: Logger): Promise<void> {
  socket.setTimeout(30_000, () => socket.destroy());
  socket.on('error', () => undefined);
  let buf = '';
  let done = false;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    if (done) return;
    buf += chunk;
    const nl = buf.indexOf('\n');
    if (nl < 0 && buf.length < MAX_ASK_BYTES) return;
    done = true;
    void reply(socket, nl < 0 ? null : buf.slice(0, nl), answer, log);
  });
}

async function reply(socket: net.Socket, line: string | null, answer: (ask: HookAsk) => Promise<string>, log: Logger): Promise<void> {
  let out: { block: string } | { error: string };
  try {
    const ask = line === null ? null : parseAsk(line);
    if (!ask) throw new Error('not a hook request');
    out = { block: await answer(ask) };
  } catch (err) {
    log.warn(`prompt hook request: ${(err as Error).message}`);
    out = { error: (err as Error).message };
  }
  socket.end(`${JSON.stringify(out)}\n`);
}

function parseAsk(line: string): HookAsk | null {
  try {
    const v = JSON.parse(line) as Partial<HookAsk>;
    if (typeof v.prompt !== 'string' || typeof v.truncated !== 'boolean' || !Number.isInteger(v.budget) || (v.budget as number) < 1) return null;
    return { prompt: v.prompt, truncated: v.truncated, budget: v.budget as number };
  } catch {
    return null;
  }
}

/** Whether something answers on `where` (a live server), within a short wait. */
function answers(where: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(where);
    const finish = (live: boolean) => {
      socket.destroy();
      resolve(live);
    };
    socket.setTimeout(500, () => finish(true));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/**
 * The context block from the running server of `opts`, or null when there is none or it does not
 * answer within `timeoutMs` (the hook then routes itself).
 */
export function askHookChannel(opts: OpenLibraryOptions, ask: HookAsk, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect(hookChannelPath(opts));
    let buf = '';
    let settled = false;
    const finish = (block: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(block);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    socket.setEncoding('utf8');
    socket.once('error', () => finish(null));
    socket.once('connect', () => socket.write(`${JSON.stringify(ask)}\n`));
    socket.on('data', (chunk: string) => {
      buf += chunk;
      if (buf.length > 4 * MAX_ASK_BYTES) finish(null);
    });
    socket.once('end', () => {
      try {
        const v = JSON.parse(buf) as { block?: unknown };
        finish(typeof v.block === 'string' ? v.block : null);
      } catch {
        finish(null);
      }
    });
  });
}
