/**
 * The prompt hook's first stop in a fresh process (bin/skill-router.js loads this small bundle,
 * dist/hookFast.js, for `hook` before the CLI's): it reads the prompt and asks a running
 * `skill-router mcp` of the library for the block (hookChannel.ts). Only when that answers does it
 * print and end here; otherwise, and for anything it does not handle itself (--help, --no-server,
 * a bad flag or budget, no such library, a terminal on stdin), it hands over to the whole CLI,
 * with the stdin it read and `--no-server` so the server is not asked twice. Loading the CLI
 * bundle is most of a served hook's time.
 */
import { statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { askHookChannel } from './hookChannel';
import { ASK_PROMPT_CHARS, ASK_TIMEOUT_MS, DEFAULT_BUDGET, hookOutput, MIN_BUDGET, parseHookArgs, promptOf, readInput } from './hookInput';
import type { OpenLibraryOptions } from '../node/library';
import { engineOptions } from './options';

/** How the whole CLI is started: with the stdin already read and arguments to add, or as is. */
export type FullCli = (handover?: { stdin: Readable; addArgs: string[] }) => void;

/** Runs `skill-router hook` from `process.argv`, answered by a running server, else by `full`. */
export function runHookFast(full: FullCli): void {
  fastHook(process.argv.slice(3)).then(
    (served) => {
      if (served.handover) full(served.handover);
      else if (!served.done) full();
    },
    () => full(),
  );
}

async function fastHook(args: string[]): Promise<{ done?: true; handover?: { stdin: Readable; addArgs: string[] } }> {
  let values: ReturnType<typeof parseHookArgs>;
  try {
    values = parseHookArgs(args);
  } catch {
    return {};
  }
  const budget = values.budget === undefined ? DEFAULT_BUDGET : Number(values.budget);
  if (values.help || values['no-server'] || !Number.isInteger(budget) || budget < MIN_BUDGET || process.stdin.isTTY) return {};
  let opts: OpenLibraryOptions;
  try {
    // The same mapping as the CLI's, so the channel is the one `skill-router mcp` opened.
    opts = engineOptions(values, { argv: [], cwd: process.cwd(), stdout: () => undefined, stderr: () => undefined }, values.library ?? '.');
  } catch {
    return {};
  }
  if (!statSync(opts.root, { throwIfNoEntry: false })) return {};
  const input = await readInput(process.stdin);
  const handover = { stdin: Readable.from([input.bytes]), addArgs: ['--no-server'] };
  const prompt = promptOf(input.bytes, input.cut);
  if (prompt === null) return { done: true };
  // The server caps the request as the hook would.
  const block = await askHookChannel(opts, { prompt: prompt.slice(0, ASK_PROMPT_CHARS), truncated: false, budget }, ASK_TIMEOUT_MS);
  if (block === null) return { handover };
  if (values.verbose) process.stderr.write('skill-router hook: answered by the running skill-router mcp of this library\n');
  process.stdout.write(hookOutput(block, values.json));
  return { done: true };
}
