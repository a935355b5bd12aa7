/**
 * `skill-router reach` results kept in the library's cache folder, keyed by everything they were
 * computed from (the skills' content, the requests, the client and its listing options, the
 * engine and the reach options): a rerun on an unchanged library reads its report instead of
 * routing every request again. A few keys are kept (one per client and option set in use).
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../core/types';
import { SILENT_LOGGER } from '../core/types';

/** Reports kept per library. */
const KEEP = 8;

/** A stable key for a JSON-able value. */
export function reachCacheKey(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 32);
}

export class ReachCache {
  private readonly dir: string;

  /** `cacheRoot`: the library's cache folder (`defaultCacheDir`, or `--cache`). */
  constructor(cacheRoot: string, private readonly log: Logger = SILENT_LOGGER) {
    this.dir = path.join(cacheRoot, 'reach');
  }

  /** The report stored under `key`, or undefined (none, or unreadable). */
  async get<T>(key: string): Promise<T | undefined> {
    try {
      const text = await fs.readFile(path.join(this.dir, `${key}.json`), 'utf8');
      return JSON.parse(text) as T;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.log.warn(`reach cache ${key} unreadable; computing again`);
      return undefined;
    }
  }

  /** Stores a report (temporary file, then rename) and drops the oldest beyond a few. */
  async set(key: string, value: unknown): Promise<void> {
    try {
      await fs.mkdir(this.dir, { recursive: true });
      const file = path.join(this.dir, `${key}.json`);
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.writeFile(tmp, JSON.stringify(value));
      await fs.rename(tmp, file);
      const names = (await fs.readdir(this.dir)).filter((n) => n.endsWith('.json'));
      if (names.length <= KEEP) return;
      const stamped = await Promise.all(names.map(async (n) => ({ n, t: (await fs.stat(path.join(this.dir, n))).mtimeMs })));
      for (const { n } of stamped.sort((a, b) => b.t - a.t).slice(KEEP)) await fs.rm(path.join(this.dir, n), { force: true });
    } catch (err) {
      this.log.warn(`could not write the reach cache: ${err instanceof Error ? err.message : err}`);
    }
  }
}
