/**
 * The library watcher on a real folder, in both modes (per folder, as on Linux, and Node's
 * recursive watch): a file written in a folder created after the watch started is reported, a
 * burst of writes comes as one batch, skipped folders stay silent, a removed folder is reported.
 * Waits for the batches themselves, with a deadline; no sleeps.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { watchFolder, type FolderWatcher } from '../../src/node/folderWatcher';

/** Batches as they come, and a way to wait for one that contains a path. */
function recorder() {
  const batches: string[][] = [];
  const waiting: { test: (b: string[]) => boolean; done: (b: string[]) => void }[] = [];
  return {
    batches,
    onChange(paths: string[]) {
      batches.push(paths);
      for (const w of [...waiting]) {
        if (w.test(paths)) {
          waiting.splice(waiting.indexOf(w), 1);
          w.done(paths);
        }
      }
    },
    /** The first batch from index `from` on that passes `test`. */
    until(test: (paths: string[]) => boolean, from = 0, ms = 10_000): Promise<string[]> {
      const seen = batches.slice(from).find(test);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching batch in ${ms} ms; got ${JSON.stringify(batches)}`)), ms);
        waiting.push({ test, done: (b) => (clearTimeout(timer), resolve(b)) });
      });
    },
  };
}

for (const recursive of [false, true]) {
  describe(`folderWatcher (${recursive ? 'recursive' : 'per folder'})`, () => {
    let dir: string;
    let watcher: FolderWatcher | undefined;
    beforeEach(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'skill-router-watch-'));
      mkdirSync(path.join(dir, 'a'));
      mkdirSync(path.join(dir, 'node_modules', 'pkg'), { recursive: true });
    });
    afterEach(() => {
      watcher?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('reports files in new folders, in one batch per burst, and a removed folder', async () => {
      const rec = recorder();
      watcher = await watchFolder(dir, rec.onChange, { recursive, skip: (n) => n === 'node_modules', debounceMs: 50 });
      assert.equal(watcher.mode, recursive ? 'recursive' : 'per-folder');
      mkdirSync(path.join(dir, 'new', 'deep'), { recursive: true });
      writeFileSync(path.join(dir, 'new', 'deep', 'SKILL.md'), 'one');
      writeFileSync(path.join(dir, 'a', 'SKILL.md'), 'two');
      writeFileSync(path.join(dir, 'node_modules', 'pkg', 'SKILL.md'), 'skipped');
      const first = await rec.until((b) => b.includes(path.join(dir, 'a', 'SKILL.md')) && b.some((p) => p.startsWith(path.join(dir, 'new'))));
      assert.ok(!first.some((p) => p.includes('node_modules')), 'skipped folders are not reported');
      // Written after its folder's watcher exists: reported by name.
      let from = rec.batches.length;
      writeFileSync(path.join(dir, 'new', 'deep', 'SKILL.md'), 'three');
      await rec.until((b) => b.includes(path.join(dir, 'new', 'deep', 'SKILL.md')), from);
      from = rec.batches.length;
      rmSync(path.join(dir, 'new'), { recursive: true });
      await rec.until((b) => b.includes(path.join(dir, 'new')), from);
      assert.ok(rec.batches.flat().every((p) => !p.includes('node_modules')));
    });
  });
}
