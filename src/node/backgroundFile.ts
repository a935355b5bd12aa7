/**
 * Reads the shipped background term statistics (models/background/df.bin, built by
 * bench/buildBackground.ts). Missing or unreadable, routing goes on with the library's own
 * statistics and says so once.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { BackgroundFrequencies } from '../core/index/background';
import { analysisTag } from '../core/index/caches';
import type { Logger } from '../core/types';

let loaded: BackgroundFrequencies | null | undefined;

/** The background statistics under `modelsDir` (cached per process), or null with a warning. */
export function loadBackground(modelsDir: string, log: Logger): BackgroundFrequencies | null {
  if (loaded !== undefined) return loaded;
  const dir = path.join(modelsDir, 'background');
  try {
    if (!existsSync(path.join(dir, 'df.bin'))) throw new Error(`${path.join(dir, 'df.bin')} is missing`);
    loaded = BackgroundFrequencies.decode(readFileSync(path.join(dir, 'df.bin')));
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { analysis?: string };
    if (manifest.analysis && manifest.analysis !== analysisTag()) {
      log.warn('the background term statistics were built with another text analysis; rebuild them with bench/buildBackground.ts');
    }
  } catch (err) {
    log.warn(`background term statistics are off (${(err as Error).message}); small libraries weigh terms by their own counts only`);
    loaded = null;
  }
  return loaded;
}
