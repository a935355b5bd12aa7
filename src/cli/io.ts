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
  /** Whether stderr is a terminal (progress redraws one line). */
  isTTY?: boolean;
  /** Standard input, for `hook` (the prompt) and `mcp` (the protocol); default `process.stdin`. */
  stdin?: Readable;
  /** Standard output as a stream, for `mcp` (the protocol); default `process.stdout`. */
  stdoutStream?: Writable;
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

/** Progress on stderr: one redrawn line on a terminal, else a line per 10%. */
export function stderrProgress(io: CliIo, quiet = false): ProgressSink {
  let lastStage = '';
  let lastDecile = -1;
  return (stage, done, total) => {
    if (quiet) return;
    if (io.isTTY) {
      io.stderr(`\r${stage}: ${done}/${total}${done >= total ? '\n' : ''}`);
      return;
    }
    const decile = total ? Math.floor((done / total) * 10) : 10;
    if (stage !== lastStage || decile !== lastDecile) {
      if (total > 1 || done >= total) io.stderr(`${stage}: ${done}/${total}\n`);
      lastStage = stage;
      lastDecile = decile;
    }
  };
}
