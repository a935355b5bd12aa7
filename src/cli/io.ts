/** What a CLI command gets from its host; `main()` is callable in process with fakes. */
import { readFile } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import type { Logger, ProgressSink } from '../core/types';

export interface CliIo {
  argv: string[];
  cwd: string;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env?: Record<string, string | undefined>;
  /** Whether stderr is a terminal: progress is one line redrawn in place there, and nothing elsewhere. */
  isTTY?: boolean;
  /** Standard input, for `hook` (the prompt) and `mcp` (the protocol); default `process.stdin`. */
  stdin?: Readable;
  /** Standard output as a stream, for `mcp` (the protocol); default `process.stdout`. */
  stdoutStream?: Writable;
  /** Set by `withProgressLine` (main does): where the engine's progress goes. */
  progressLine?: ProgressSink;
}

export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_FAILURE = 2;

/** A usage or input error: printed without a stack, exit 2. */
export class UsageError extends Error {}

/** `1 skill`, `2 skills`. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** A file's text; an unreadable file is a UsageError naming `what` and the file. */
export async function readText(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

export function stderrLogger(io: CliIo, verbose = false): Logger {
  return {
    debug: (m) => verbose && io.stderr(`debug: ${m}\n`),
    info: (m) => verbose && io.stderr(`${m}\n`),
    warn: (m) => io.stderr(`warning: ${m}\n`),
    error: (m) => io.stderr(`error: ${m}\n`),
  };
}

/** The engine's progress for a command: the terminal's progress line, or nothing (`--quiet`, or not a terminal). */
export function stderrProgress(io: CliIo, quiet = false): ProgressSink {
  return !quiet && io.progressLine ? io.progressLine : () => undefined;
}

const ERASE_LINE = '\r\x1b[K';

/**
 * The CLI's output with a terminal's progress line. On a terminal, progress is one stderr line
 * redrawn in place (at most ten times a second, and at each new stage) and erased before
 * anything else is written, so warnings and the report start on a clean line; `endProgress`
 * erases it at the end. Off a terminal (a git hook, CI, a pipe) there is no progress at all:
 * only warnings and the report.
 */
export function withProgressLine(io: CliIo, now: () => number = () => performance.now()): CliIo & { endProgress(): void } {
  if (!io.isTTY) return { ...io, progressLine: undefined, endProgress: () => undefined };
  let shown = false;
  let lastAt = -Infinity;
  let lastStage = '';
  const erase = () => {
    if (!shown) return;
    io.stderr(ERASE_LINE);
    shown = false;
  };
  return {
    ...io,
    stdout: (s) => {
      erase();
      io.stdout(s);
    },
    stderr: (s) => {
      erase();
      io.stderr(s);
    },
    progressLine: (stage, done, total) => {
      if (stage === lastStage && done < total && now() - lastAt < 100) return;
      lastAt = now();
      lastStage = stage;
      const pct = total > 1 ? ` (${Math.floor((done / total) * 100)}%)` : '';
      io.stderr(`${ERASE_LINE}${stage}: ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}${pct}`);
      shown = true;
    },
    endProgress: erase,
  };
}
