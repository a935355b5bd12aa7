/** The server's logger: levels over the LSP console, which the extension shows in its output channel. */
import type { Logger } from '../core/types';
import type { LogLevel } from './settings';

/** Where log lines go: the connection's console, or anything of that shape in tests. */
export interface LogSink {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  log(message: string): void;
}

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

export class ServerLogger implements Logger {
  level: LogLevel = 'info';

  constructor(private readonly sink: LogSink) {}

  debug(message: string): void {
    if (RANK[this.level] >= RANK.debug) this.sink.log(message);
  }

  info(message: string): void {
    if (RANK[this.level] >= RANK.info) this.sink.info(message);
  }

  warn(message: string): void {
    if (RANK[this.level] >= RANK.warn) this.sink.warn(message);
  }

  error(message: string): void {
    this.sink.error(message);
  }
}

/** The message of anything thrown, for logs and status. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
