/**
 * Entry of the Skill Router language server: `node dist/server.js --stdio` (or `--node-ipc`,
 * `--socket=<port>`, `--pipe=<name>`, as vscode-languageserver reads them).
 */
import { setFlagsFromString } from 'node:v8';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { HEAP_GROWING_FLAG } from '../shared/serverProcess';
import { SERVER_VERSION, startServer } from './server';

const TRANSPORTS = ['--stdio', '--node-ipc', '--socket', '--pipe', '--clientProcessId'];
const args = process.argv.slice(2);

if (args.includes('--version')) {
  process.stdout.write(`${SERVER_VERSION}\n`);
} else if (args.includes('--help') || !args.some((a) => TRANSPORTS.some((t) => a === t || a.startsWith(`${t}=`)))) {
  process.stderr.write('Usage: node dist/server.js --stdio | --node-ipc | --socket=<port> | --pipe=<name>\n');
  process.exitCode = args.includes('--help') ? 0 : 2;
} else {
  setFlagsFromString(HEAP_GROWING_FLAG);
  const connection = createConnection(ProposedFeatures.all);
  // The server must outlive bad input: log what escaped a handler instead of dying.
  process.on('uncaughtException', (err) => connection.console.error(`uncaught: ${err.stack ?? err.message}`));
  process.on('unhandledRejection', (reason) => connection.console.error(`unhandled rejection: ${reason instanceof Error ? reason.stack : String(reason)}`));
  startServer(connection);
  connection.listen();
}
