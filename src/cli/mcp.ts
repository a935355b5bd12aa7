/**
 * `skill-router mcp`: a Model Context Protocol server over stdio for one library (the tools are in
 * mcpTools.ts). The library is opened like every other command (`openLibrary`, the same index
 * cache), indexed while the client initialises, and watched: a changed SKILL.md is re-read alone.
 * stdout carries the protocol only; everything else goes to stderr. Returns when the client
 * closes the connection (or on SIGINT / SIGTERM), after writing the index cache.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { version } from '../../package.json';
import type { LiveSkillService, SkillService } from '../core/service';
import { SKIP_DIRS } from '../node/fsWorkspace';
import { watchFolder, type FolderWatcher } from '../node/folderWatcher';
import { EXIT_OK, plural, stderrLogger, UsageError, type CliIo } from './io';
import { LiveLibrary, type LibraryChange } from './liveLibrary';
import { answerUnknownTools, createSkillRouterServer, TOOL_NAMES } from './mcpTools';
import { serveHookChannel, type HookChannel } from './hookChannel';
import { HOOK_TOP_K, hookBlock, MIN_BUDGET } from './hook';
import { capRequest, shapeAnswer } from './routeAnswer';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const PARSE_ERROR = ErrorCode.ParseError;
const INVALID_REQUEST = ErrorCode.InvalidRequest;
import { engineOptions, ENGINE_OPTIONS, parseFlags, type LibraryDeps } from './options';

export const MCP_USAGE = `Usage: skill-router mcp --library <dir> [--no-watch] [engine flags]

Serves the library to an agent over the Model Context Protocol (stdio): tools search_skills,
read_skill and list_skills. Register it in the agent's MCP settings (README: "Routing for the
agent"); it is not meant to be run by hand. Logs go to stderr; stdout is the protocol.

  --library <dir>   Skill library folder (default: current folder)
  --no-watch        Do not watch the library for changes (it is indexed once)
  --no-hook-channel Do not answer "skill-router hook" of this library on a local socket
  --model <dir> | --no-model, --no-bridge, --reranker <dir>, --cache <dir>,
  --device <d>, --threads <n>, --quiet, --verbose   as for every command (docs/cli.md)

Exit codes: 0 the client closed the connection, 2 bad arguments or no such library.
`;

const MCP_OPTIONS = {
  library: { type: 'string' },
  ...ENGINE_OPTIONS,
  'no-watch': { type: 'boolean' },
  'no-hook-channel': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function isLive(service: SkillService): service is LiveSkillService {
  return typeof (service as LiveSkillService).updateFile === 'function';
}

/** Runs the MCP server until the client disconnects. */
export async function runMcp(args: string[], io: CliIo, deps: LibraryDeps): Promise<number> {
  const { values } = parseFlags(() => parseArgs({ args, options: MCP_OPTIONS }), 'mcp');
  if (values.help) {
    io.stdout(MCP_USAGE);
    return EXIT_OK;
  }
  const opts = engineOptions(values, io, values.library ?? '.');
  const st = await fs.stat(opts.root).catch(() => null);
  if (!st) throw new UsageError(`library not found: ${opts.root}; pass --library <dir>, a folder with a SKILL.md in each skill's folder`);
  const log = stderrLogger(io, values.verbose);
  const service = await deps.openLibrary(opts);
  if (!isLive(service)) {
    await service.dispose();
    throw new UsageError('this engine cannot be kept current one file at a time');
  }
  const started = Date.now();
  const library = new LiveLibrary(service, { logger: log });
  const server = createSkillRouterServer(library, { name: 'skill-router', version });
  const stdin = io.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, io.stdoutStream ?? process.stdout);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  // JSON-RPC's own errors, as the specification asks: a line that is not JSON is answered
  // -32700 (Parse error) and one that is no JSON-RPC message -32600 (Invalid Request), with a null
  // id (there is none to read); the SDK's transport would only report them here.
  server.server.onerror = (err) => {
    log.warn(`MCP: ${err.message}`);
    const code = err.name === 'SyntaxError' ? PARSE_ERROR : err.name === 'ZodError' ? INVALID_REQUEST : null;
    if (code !== null) {
      const message = code === PARSE_ERROR ? `Parse error: ${err.message}` : 'Invalid Request: not a JSON-RPC 2.0 message';
      transport.send({ jsonrpc: '2.0', id: null, error: { code, message } } as unknown as JSONRPCMessage).catch(() => undefined);
    }
  };
  // The transport does not notice a closed stdin by itself: the client went away.
  const onEnd = () => void server.close();
  stdin.on('end', onEnd);
  const onSignal = () => void server.close();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let watcher: FolderWatcher | undefined;
  let channel: HookChannel | null = null;
  try {
    await server.connect(transport);
    // Before any await: a client's first lines may already be waiting on stdin.
    answerUnknownTools(transport, TOOL_NAMES);
    // The prompt hook of the same library asks here instead of opening the index (hookChannel.ts).
    if (!values['no-hook-channel']) {
      channel = await serveHookChannel(
        opts,
        async (ask) => {
          // Capped here as the hook caps it (the first stop sends the prompt's first ASK_PROMPT_CHARS).
          const request = capRequest(ask.prompt);
          if (!request.text) return '';
          const result = await library.route(request.text, { k: HOOK_TOP_K });
          return hookBlock(shapeAnswer(result, { root: library.root, truncated: ask.truncated || request.truncated }), Math.max(MIN_BUDGET, ask.budget));
        },
        log,
      );
    }
    library.words.then(
      () => {
        const now = library.building();
        // Only when the vectors are still to come: otherwise the ready line below says it all.
        if (now && !values.quiet) {
          io.stderr(`skill-router mcp: ${plural(library.skills().length, 'skill')} read and their words indexed in ${((Date.now() - started) / 1000).toFixed(1)} s; searches are answered by words (marked so) while the vectors are built\n`);
        }
      },
      () => undefined,
    );
    library.ready.then(
      (stats) => {
        if (stats.skills === 0) log.warn(`no SKILL.md found under ${library.root} yet; search_skills answers that no skill fits`);
        if (stats.denseDisabled && !values['no-model']) log.warn(`${stats.denseDisabled}; routing by words only`);
        if (!values.quiet) io.stderr(`skill-router mcp: ${plural(stats.skills, 'skill')} of ${library.root} ready in ${(stats.ms / 1000).toFixed(1)} s\n`);
      },
      (err) => log.error(`the library could not be indexed: ${(err as Error).message}; every tool call will say so`),
    );
    const changed = (change: LibraryChange) => {
      if (!change.updated.length && !change.removed.length) return;
      const what = `${change.full ? 're-read the library: ' : ''}${change.updated.length} updated${change.updated.length ? ` (${change.updated.slice(0, 5).join(', ')}${change.updated.length > 5 ? ', ...' : ''})` : ''}, ${change.removed.length} removed`;
      log.info(`library changed: ${what}`);
      // Clients that show server logs see the index move; tests wait for this event.
      server.server.sendLoggingMessage({ level: 'info', logger: 'skill-router', data: { event: 'library-changed', ...change } }).catch(() => undefined);
    };
    const apply = (paths: string[] | 'all') => library.apply(paths).then(changed, (err) => log.warn(`re-reading changed skills: ${(err as Error).message}`));
    if (!values['no-watch'] && st.isDirectory()) {
      watcher = await watchFolder(opts.root, (paths) => void apply(paths), {
        skip: (name) => SKIP_DIRS.has(name),
        logger: log,
        onLost: () => void apply('all'),
      });
      log.info(`watching ${opts.root} (${watcher.mode}, ${plural(watcher.folders, 'folder')})`);
    } else if (!values['no-watch']) {
      log.info(`${path.basename(opts.root)} is a file: not watched; restart the server after editing it`);
    }
    await closed;
  } finally {
    stdin.off('end', onEnd);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    watcher?.close();
    await channel?.close();
    await library.close().catch((err) => log.warn(`closing the library: ${(err as Error).message}`));
  }
  return EXIT_OK;
}
