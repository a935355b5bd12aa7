/** The library-wide passes over pair findings: the analysis after an index and the recheck after listing changes. */
import { strict as assert } from 'node:assert';
import { PairScanCache } from '../../src/core/analysis/pairCache';
import { createSkillService, type RoutingEngine } from '../../src/core/route/skillService';
import type { Logger, SkillDoc } from '../../src/core/types';
import { FolderLibrary } from '../../src/server/folderLibrary';
import { PairPasses } from '../../src/server/pairPasses';
import { MemoryWorkspace, skill } from '../helpers/fakes';

/** The body two copy-pasted twins share: their requests meet there. */
const CSV_BODY = '# Fixing delimiters\n\n# Dropping duplicate rows\n';

const SILENT: Logger = { debug() {}, info() {}, warn() {}, error() {} };

async function setup(open: string[] = [], hooks: { written?: () => Promise<void>; publish?: () => void } = {}) {
  const files = new Map<string, string | Uint8Array>([
    ['csv-cleaner/SKILL.md', skill('csv-cleaner', 'Clean messy CSV files: fix delimiters and drop duplicate rows.', CSV_BODY)],
    ['csv-tidy/SKILL.md', skill('csv-tidy', 'Clean messy CSV files: fix delimiters and remove duplicate rows.', CSV_BODY)],
    ['k8s-deploy/SKILL.md', skill('k8s-deploy', 'Deploy services to Kubernetes with Helm charts.')],
  ]);
  const lib = new FolderLibrary('file:///lib', '/lib', SILENT, 60_000);
  lib.service = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder: null });
  await lib.service.index();
  lib.state = 'ready';
  const published: string[] = [];
  const infos: string[] = [];
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  /** Resolves once a pass logs a line matching `re`. */
  const logged = (re: RegExp) =>
    new Promise<string>((resolve) => {
      const check = () => {
        const line = infos.find((l) => re.test(l));
        if (line) {
          listeners.delete(check);
          resolve(line);
        }
      };
      listeners.add(check);
      check();
    });
  let progressed = 0;
  const passes = new PairPasses(
    {
      publishSkill: (_lib, doc: SkillDoc) => {
        published.push(doc.id);
        hooks.publish?.();
      },
      written: hooks.written ?? (() => Promise.resolve()),
      shouldPublish: () => true,
      openIds: () => new Set(open),
      progressed: () => void progressed++,
      fail: (what, err) => assert.fail(`${what}: ${String(err)}`),
      log: { ...SILENT, info: (m) => (infos.push(m), notify()) },
    },
    0,
  );
  return { lib, passes, published, infos, logged, progressed: () => progressed };
}

describe('PairPasses', () => {
  it('the analysis publishes every skill once its pairs are known, open skills first', async () => {
    const t = await setup(['k8s-deploy']);
    await t.passes.analyse(t.lib, ['csv-cleaner', 'csv-tidy', 'k8s-deploy']);
    assert.deepEqual(t.published, ['k8s-deploy', 'csv-cleaner', 'csv-tidy']);
    assert.equal(t.lib.pairs.of('csv-tidy')[0]?.kind, 'near-duplicate');
    assert.equal(t.lib.pairs.progress(), null, 'no pass shows once it is done');
    assert.ok(t.progressed() >= 2, 'progress and the end are reported');
  });

  it('after an analysis read from the cache, the copy index and template counts are built for the next edit', async () => {
    const first = await setup();
    await first.passes.analyse(first.lib, ['csv-cleaner', 'csv-tidy', 'k8s-deploy']);
    // A restart: the scan's result comes from its cache file, so the analysis makes no text entry.
    const t = await setup();
    t.lib.pairs.cache = PairScanCache.fromJSON(JSON.parse(JSON.stringify(first.lib.pairs.cache)));
    const pipeline = (t.lib.service as RoutingEngine).pipeline;
    const rank = pipeline.rank.bind(pipeline);
    let ranks = 0;
    pipeline.rank = (...args: Parameters<typeof rank>) => (ranks++, rank(...args));
    await t.passes.analyse(t.lib, ['csv-cleaner', 'csv-tidy', 'k8s-deploy']);
    assert.equal(ranks, 0, 'the result was read, not scanned');
    assert.deepEqual(t.published.sort(), ['csv-cleaner', 'csv-tidy', 'k8s-deploy']);
    assert.equal(t.lib.pairs.cache.textsMade, 3, "every skill's text entry is made after the analysis");
    await t.lib.pairs.refresh(t.lib.service!, 'csv-tidy');
    assert.equal(t.lib.pairs.cache.textsMade, 3, 'the edit makes none');
  });

  it('the analysis waits for what it published to be written before it publishes the next slice', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let waits = 0;
    // Each publish outlasts a slice (50 ms), so each skill is a slice of its own.
    const slow = () => {
      const until = performance.now() + 60;
      while (performance.now() < until);
    };
    const t = await setup([], { publish: slow, written: () => (waits++, gate) });
    const pass = t.passes.analyse(t.lib, ['csv-cleaner', 'csv-tidy', 'k8s-deploy']);
    for (let i = 0; i < 50 && waits === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 30));
    assert.deepEqual(t.published, ['csv-cleaner'], 'the second slice waits for the first one\'s messages');
    open();
    await pass;
    assert.deepEqual(t.published, ['csv-cleaner', 'csv-tidy', 'k8s-deploy']);
    assert.equal(waits, 2, 'a wait between each two slices');
  });

  it('a newer index stops the analysis at the next skill', async () => {
    const t = await setup();
    // Queued ahead of the pass's first slice, after the pass began.
    const reindexed = t.lib.run(async () => void t.lib.generation++);
    await Promise.all([reindexed, t.passes.analyse(t.lib, ['csv-cleaner', 'csv-tidy', 'k8s-deploy'])]);
    assert.deepEqual(t.published, []);
    assert.equal(t.lib.pairs.has('csv-cleaner'), false);
  });

  it('the recheck re-publishes the skills whose pairs moved, and only those', async () => {
    const t = await setup();
    await t.passes.analyse(t.lib, ['csv-cleaner', 'csv-tidy', 'k8s-deploy']);
    t.published.length = 0;
    t.lib.pairs.replace('csv-tidy', []); // stale, as after an edit elsewhere shifted term weights
    t.passes.scheduleRecheck(t.lib);
    assert.deepEqual(t.lib.pairs.progress(), { done: 0, total: 3, waiting: { delayMs: 0 } }, 'a recheck shows as waiting from when it is due');
    const line = await t.logged(/cross-skill recheck of 3 skills/);
    assert.match(line, /1 re-published/);
    assert.deepEqual(t.published, ['csv-tidy']);
    assert.equal(t.lib.pairs.of('csv-tidy').length, 1);
    assert.equal(t.lib.pairs.progress(), null);
  });

  it('typing postpones a recheck only when one is due; a stopped recheck never starts', async () => {
    const t = await setup();
    await t.passes.analyse(t.lib, ['csv-cleaner', 'csv-tidy', 'k8s-deploy']);
    t.passes.postponeRecheck(t.lib);
    assert.equal(t.lib.pairs.progress(), null, 'nothing due: typing schedules nothing');
    t.passes.scheduleRecheck(t.lib);
    t.passes.stopRecheck(t.lib);
    // The recheck's zero-delay timer, set before this one, would have fired (and the pass begun) first.
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(t.lib.pairs.progress(), null, 'a stopped recheck does not start');
    assert.deepEqual(t.infos.filter((l) => /recheck/.test(l)), []);
    t.passes.postponeRecheck(t.lib);
    assert.equal(t.lib.pairs.progress(), null, 'nor is it due again');
    t.passes.scheduleRecheck(t.lib);
    t.passes.postponeRecheck(t.lib);
    assert.deepEqual(t.lib.pairs.progress(), { done: 0, total: 3, waiting: { delayMs: 0 } });
    await t.logged(/cross-skill recheck of 3 skills/);
  });
});
