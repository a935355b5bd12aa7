/**
 * The pair scan's results on disk (`pair-findings.json` beside a library's index cache), so a warm
 * `skill-router check` or a reopened editor reads the library's pair findings instead of routing
 * thousands of probe requests again. Results are keyed by the library's content signature; a
 * damaged or old file is ignored and rewritten. The scan's text entries (copy sketches, template
 * keys) live beside it in `copy-sketches.bin` (textEntryFile.ts), opened when a scan first needs them.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { PairScanCache, type PairCacheJson } from '../core/analysis/pairCache';
import type { Logger } from '../core/types';
import { SILENT_LOGGER } from '../core/types';
import { FileTextEntryStore } from './textEntryFile';

export const PAIR_CACHE_FILE = 'pair-findings.json';

/** The cache kept in folder `dir` (an empty one when there is none or it cannot be read), with its text entries there. */
export async function readPairCache(dir: string, log: Logger = SILENT_LOGGER): Promise<PairScanCache> {
  const cache = await readResults(dir, log);
  cache.attachTextStore(() => FileTextEntryStore.open(dir, log));
  return cache;
}

async function readResults(dir: string, log: Logger): Promise<PairScanCache> {
  const file = path.join(dir, PAIR_CACHE_FILE);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return new PairScanCache();
  }
  try {
    return PairScanCache.fromJSON(JSON.parse(text));
  } catch (err) {
    log.warn(`${file}: unreadable pair-findings cache, rebuilding it (${err instanceof Error ? err.message : err})`);
    return new PairScanCache();
  }
}

/**
 * Writes the cache to folder `dir` when it holds new results (a temporary file, then a rename),
 * and its text entries when new ones were made.
 */
export async function writePairCache(dir: string, cache: PairScanCache, log: Logger = SILENT_LOGGER): Promise<void> {
  if (cache.textsChanged) {
    await cache.flushTexts().catch((err: unknown) => log.warn(`could not write the copy sketches in ${dir}: ${err instanceof Error ? err.message : err}`));
  }
  if (!cache.dirty) return;
  const file = path.join(dir, PAIR_CACHE_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await fs.mkdir(dir, { recursive: true });
    await writeJson(tmp, cache.toJSON());
    await fs.rename(tmp, file);
    cache.dirty = false;
  } catch (err) {
    log.warn(`could not write the pair-findings cache ${file}: ${err instanceof Error ? err.message : err}`);
    await fs.rm(tmp, { force: true }).catch(() => undefined);
  }
}

/** Findings turned to text at a time: the whole file as one string was ~30 MB at 20,000 skills, made while the checks' memory peaked. */
const FINDINGS_PER_WRITE = 2000;

/** `JSON.stringify(json)` written to `file` a slice of the findings at a time. */
async function writeJson(file: string, json: PairCacheJson): Promise<void> {
  const out = await fs.open(file, 'w');
  try {
    await out.write(`{"version":${JSON.stringify(json.version)},"findings":[`);
    for (let i = 0; i < json.findings.length; i += FINDINGS_PER_WRITE) {
      const slice = JSON.stringify(json.findings.slice(i, i + FINDINGS_PER_WRITE));
      await out.write(`${i ? ',' : ''}${slice.slice(1, -1)}`);
    }
    await out.write(`],"results":${JSON.stringify(json.results)}}`);
  } finally {
    await out.close();
  }
}
