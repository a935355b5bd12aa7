/**
 * The server killed while it writes its cache (issue 24): caches are replaced by rename, so a kill
 * leaves the old file whole and a partial `<file>.<pid>.tmp` beside it; a file torn anyway (a
 * copy cut short, a disk that lost the tail) is damaged in place. The next start warns about the
 * torn file, rebuilds it, keeps the other caches (no skill is embedded again), removes the partial
 * temporary file, and routes; the start after that is quiet.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readdirSync, readFileSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ANALYSIS_FILE } from '../../src/node/analysisSnapshot';
import { PARSE_FILE } from '../../src/node/parseSnapshot';
import { VECTOR_FILE } from '../../src/node/vectorCache';
import { RouteRequest } from '../../src/shared/protocol';
import { copyFixture, removeDir, TestClient } from './lspClient';

/** A process id no process has (above Linux's pid_max). */
const DEAD_PID = 4_194_399;

describe('server: killed while writing its cache', function () {
  this.timeout(120_000);
  let ws: string;
  let cacheDir: string;

  before(() => {
    ws = copyFixture('duplicates');
    // Files written this instant get no stamp (see FsWorkspace.stamp) and no parsed-skill snapshot.
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const id of readdirSync(ws)) utimesSync(path.join(ws, id, 'SKILL.md'), hourAgo, hourAgo);
    cacheDir = mkdtempSync(path.join(tmpdir(), 'sr-cache-torn-'));
  });
  after(() => {
    removeDir(ws);
    removeDir(cacheDir);
  });

  const start = () => TestClient.start({ folders: [ws], init: { cacheDir, model: { enabled: true } } });

  /** The library's cache folder under the server's cache folder. */
  function libraryCache(): string {
    const index = path.join(cacheDir, 'index');
    const [name] = readdirSync(index);
    return path.join(index, name);
  }

  it('warns, rebuilds the torn file, keeps the rest, and routes', async () => {
    const first = await start();
    try {
      const s = await first.ready();
      assert.equal(s.folders[0].embedded, 3);
    } finally {
      assert.equal(await first.stop(), 0);
    }
    const dir = libraryCache();
    const analysis = path.join(dir, ANALYSIS_FILE);
    const parsed = path.join(dir, PARSE_FILE);
    const model = readdirSync(dir).find((f) => !f.includes('.'))!;
    const vectors = path.join(dir, model, VECTOR_FILE);
    for (const f of [analysis, parsed, vectors]) assert.ok(existsSync(f), f);
    const parsedBefore = readFileSync(parsed);
    // Torn in place, and a write cut short before its rename.
    truncateSync(analysis, Math.floor(readFileSync(analysis).length / 2));
    const partial = `${vectors}.${DEAD_PID}.tmp`;
    writeFileSync(partial, readFileSync(vectors).subarray(0, 100));

    const second = await start();
    try {
      const s = await second.ready();
      assert.deepEqual([s.folders[0].cached, s.folders[0].embedded], [3, 0], 'the vectors were kept');
      assert.ok(
        second.logs.some((l) => l.includes(`analysis snapshot ${analysis} is corrupt`) && l.includes('rebuilding it')),
        second.logs.join('\n'),
      );
      assert.ok(!existsSync(partial), 'the partial write is removed');
      const r = await second.conn.sendRequest(RouteRequest, { query: 'remove duplicate rows from a csv file', k: 3 });
      assert.ok(r.results.length > 0);
      assert.match(r.results[0].skillId, /^csv-/);
    } finally {
      assert.equal(await second.stop(), 0);
    }
    assert.ok(readFileSync(parsed).equals(parsedBefore), 'the parsed-skill snapshot was kept as it was');

    const third = await start();
    try {
      const s = await third.ready();
      assert.deepEqual([s.folders[0].cached, s.folders[0].embedded], [3, 0]);
      assert.ok(!third.logs.some((l) => /is corrupt|rebuilding it|left by a write/.test(l)), third.logs.join('\n'));
    } finally {
      assert.equal(await third.stop(), 0);
    }
  });
});
