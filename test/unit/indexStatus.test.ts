/** The workspace status from its folders: least advanced state, summed counts, passes, index progress. */
import { strict as assert } from 'node:assert';
import { createSkillService } from '../../src/core/route/skillService';
import { SILENT_LOGGER } from '../../src/core/types';
import { FolderLibrary } from '../../src/server/folderLibrary';
import { indexPercent, indexStatus, type StatusExtras } from '../../src/server/indexStatus';
import { MemoryWorkspace, skill } from '../helpers/fakes';

const EXTRAS: StatusExtras = {
  progress: null,
  timings: { indexMs: 12, lastUpdateMs: null, lastDiagnosticsMs: null },
  lastError: null,
  budget: { profile: null, used: 0, budget: null },
};

async function library(name: string, skills: number): Promise<FolderLibrary> {
  const files = new Map<string, string>();
  for (let i = 0; i < skills; i++) files.set(`${name}-${i}/SKILL.md`, skill(`${name}-${i}`, `Skill ${i} of ${name}.`));
  const lib = new FolderLibrary(`file:///${name}`, `/${name}`, SILENT_LOGGER, 60_000);
  lib.service = createSkillService({ root: lib.root, workspace: new MemoryWorkspace(files), embedder: null });
  lib.stats = await lib.service.index();
  lib.state = 'ready';
  return lib;
}

describe('indexStatus', () => {
  it('sums the folders and is as far as the least advanced one', async () => {
    const a = await library('a', 2);
    const b = await library('b', 3);
    let s = indexStatus([a, b], EXTRAS);
    assert.equal(s.state, 'ready');
    assert.equal(s.skills, 5);
    assert.deepEqual(s.folders.map((f) => [f.uri, f.state, f.skills]), [['file:///a', 'ready', 2], ['file:///b', 'ready', 3]]);
    assert.match(s.semanticDisabled ?? '', /./, 'no embedder: says why');
    b.state = 'indexing';
    assert.equal(indexStatus([a, b], EXTRAS).state, 'indexing');
    b.state = 'error';
    b.error = 'boom';
    s = indexStatus([a, b], EXTRAS);
    assert.equal(s.state, 'error');
    assert.equal(s.folders[1].error, 'boom');
    assert.equal(indexStatus([], EXTRAS).state, 'ready', 'no folder: nothing to wait for');
  });

  it('a folder still starting reads as indexing while the index reports progress', () => {
    const lib = new FolderLibrary('file:///a', '/a', SILENT_LOGGER, 60_000);
    assert.equal(indexStatus([lib], EXTRAS).state, 'starting');
    const progress = { stage: 'read', done: 1, total: 2, percent: 20 };
    assert.equal(indexStatus([lib], { ...EXTRAS, progress }).state, 'indexing');
  });

  it('sums the cross-skill passes of every folder (analysis or recheck)', async () => {
    const a = await library('a', 1);
    const b = await library('b', 1);
    assert.equal(indexStatus([a, b], EXTRAS).analysis, null);
    a.pairs.analysis.begin(4).report(1, 4);
    b.pairs.recheck.supersede(6, 2000);
    assert.deepEqual(indexStatus([a, b], EXTRAS).analysis, { done: 1, total: 10, pass: 'analysis' }, 'a pass runs: not waiting');
    a.pairs.analysis.begin(4).end();
    // Only the recheck is due, and it waits for typing to pause: nothing runs, so not "0%".
    assert.deepEqual(indexStatus([a, b], EXTRAS).analysis, { done: 0, total: 6, pass: 'recheck', waiting: { delayMs: 2000 } });
    b.pairs.recheck.begin(6).report(2, 6);
    assert.deepEqual(indexStatus([a, b], EXTRAS).analysis, { done: 2, total: 6, pass: 'recheck' });
  });

  it('copies the timings (a later update does not change a status already sent)', () => {
    const timings = { ...EXTRAS.timings };
    const s = indexStatus([], { ...EXTRAS, timings });
    timings.indexMs = 99;
    assert.equal(s.timings.indexMs, 12);
  });
});

describe('indexPercent', () => {
  it('places each stage in its share of a folder and each folder in its share of the run', () => {
    assert.equal(indexPercent('load model', 0, 1, 0, 1), 0);
    assert.equal(indexPercent('read', 1, 2, 0, 1), 20);
    assert.equal(indexPercent('embed', 10, 10, 0, 1), 98);
    assert.equal(indexPercent('vector index', 1, 1, 0, 2), 50);
    assert.equal(indexPercent('read', 0, 0, 0, 1), 5, 'nothing to read yet: the stage\'s start');
    assert.equal(indexPercent('unknown stage', 5, 10, 0, 1), 50);
  });
});
