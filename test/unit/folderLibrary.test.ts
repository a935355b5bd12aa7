/** One folder's library in the server: its queue, cache writes, closing, and what openLibrary gets. */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { CancellationTokenSource } from 'vscode-languageserver';
import { createSkillService } from '../../src/core/route/skillService';
import type { LiveSkillService } from '../../src/core/service';
import { SILENT_LOGGER } from '../../src/core/types';
import { FolderLibrary } from '../../src/server/folderLibrary';
import { DEFAULT_SETTINGS } from '../../src/server/settings';
import { MemoryWorkspace, skill } from '../helpers/fakes';

/** An engine that records its cache writes and its disposal. */
async function engine(events: string[]): Promise<LiveSkillService> {
  const files = new Map([['a/SKILL.md', skill('a', 'Clean CSV files.')]]);
  const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder: null });
  await svc.index();
  svc.flushCache = async () => void events.push('flush');
  svc.dispose = async () => void events.push('dispose');
  return svc;
}

describe('FolderLibrary', () => {
  it('runs queued work in order, a failure not stopping what follows', async () => {
    const lib = new FolderLibrary('file:///lib', '/lib', SILENT_LOGGER, 0);
    const order: string[] = [];
    const failed = lib.run(async () => {
      order.push('first');
      throw new Error('boom');
    });
    const second = lib.run(async () => (order.push('second'), 2));
    await assert.rejects(failed, /boom/);
    assert.equal(await second, 2);
    assert.deepEqual(order, ['first', 'second']);
  });

  it('work queued back to back lets the event loop in once it has held it 30 ms', async () => {
    const lib = new FolderLibrary('file:///lib', '/lib', SILENT_LOGGER, 0);
    const order: string[] = [];
    const busy = (name: string) => async () => {
      const until = performance.now() + 20;
      while (performance.now() < until);
      order.push(name);
    };
    // Queued together: without a turn in between, all four would run before the timer.
    const work = ['a', 'b', 'c', 'd'].map((n) => lib.run(busy(n)));
    setTimeout(() => order.push('timer'), 0);
    await Promise.all(work);
    const at = order.indexOf('timer');
    assert.ok(at > 0 && at < 4, order.join(' '));
    assert.deepEqual(order.filter((x) => x !== 'timer'), ['a', 'b', 'c', 'd'], 'still in order');
  });

  it('runIdle waits until nothing else is queued: work queued after it still goes first', async () => {
    const lib = new FolderLibrary('file:///lib', '/lib', SILENT_LOGGER, 0);
    lib.idleQuietMs = 0;
    const order: string[] = [];
    const tick = () => new Promise<void>((r) => setTimeout(r, 5));
    const a = lib.run(async () => (await tick(), order.push('a')));
    const idle = lib.runIdle(async () => (order.push('idle'), 'done'));
    const c = lib.run(async () => {
      await tick();
      order.push('c');
      // Queued by running work: also ahead of the idle job.
      void lib.run(async () => order.push('d'));
    });
    await Promise.all([a, c]);
    assert.equal(await idle, 'done');
    assert.deepEqual(order, ['a', 'c', 'd', 'idle']);
    assert.equal(await lib.runIdle(async () => 'at once'), 'at once', 'an idle queue runs it');
  });

  it('runIdle also waits for a quiet time after other work: a job queued within it goes first', async () => {
    const lib = new FolderLibrary('file:///lib', '/lib', SILENT_LOGGER, 0);
    lib.idleQuietMs = 300;
    const order: string[] = [];
    await lib.run(async () => void order.push('edit'));
    const idle = lib.runIdle(async () => void order.push('idle'));
    // The queue is empty now; the edit's next slice comes a moment later.
    await new Promise((r) => setTimeout(r, 10));
    await lib.run(async () => void order.push('next slice'));
    await idle;
    assert.deepEqual(order, ['edit', 'next slice', 'idle']);
    // The quiet time since 'next slice' has passed; the idle job itself does not start another.
    const again = lib.runIdle(async () => void order.push('idle again'));
    await new Promise((r) => setTimeout(r, 50));
    await lib.run(async () => void order.push('later'));
    await again;
    assert.deepEqual(order.slice(3), ['idle again', 'later'], 'idle work does not hold back idle work');
  });

  it('writes the cache once updates pause, on the queue', async () => {
    const events: string[] = [];
    const lib = new FolderLibrary('file:///lib', '/lib', SILENT_LOGGER, 0);
    lib.service = await engine(events);
    lib.flushLater();
    lib.flushLater(); // a second update restarts the wait: still one write
    await new Promise((r) => setTimeout(r, 0)); // the flush timer, set first, fires first
    await lib.run(async () => undefined);
    assert.deepEqual(events, ['flush']);
  });

  it('closing cancels the index run, drops older work and disposes of the engine after queued work', async () => {
    const events: string[] = [];
    const lib = new FolderLibrary('file:///lib', '/lib', SILENT_LOGGER, 60_000);
    lib.service = await engine(events);
    lib.cancel = new CancellationTokenSource();
    const token = lib.cancel.token;
    const generation = lib.generation;
    const queued = lib.run(async () => void events.push('queued'));
    lib.flushLater(); // pending: closing writes the cache itself and the timer is dropped
    await lib.close();
    await queued;
    assert.equal(token.isCancellationRequested, true);
    assert.equal(lib.generation, generation + 1);
    assert.equal(lib.service, null);
    assert.deepEqual(events, ['queued', 'flush', 'dispose']);
    await lib.close(); // nothing left to dispose of
    assert.deepEqual(events, ['queued', 'flush', 'dispose']);
  });

  it('gives openLibrary the folder\'s settings, the shared overlay and a cache folder per root', () => {
    const lib = new FolderLibrary('file:///work/my%20lib', path.resolve('/work/my lib'), SILENT_LOGGER, 0);
    lib.settings = { ...DEFAULT_SETTINGS, profiles: ['codex'], exclude: ['drafts'] };
    const overlay = new Map<string, string>();
    const opts = lib.openOptions({ cacheDir: '/cache', model: { enabled: false } }, overlay, SILENT_LOGGER, () => undefined);
    assert.equal(opts.root, lib.root);
    assert.equal(opts.noModel, true);
    assert.equal(opts.overlay, overlay);
    assert.deepEqual(opts.profiles, ['codex']);
    assert.deepEqual(opts.exclude, ['drafts']);
    assert.match(opts.cacheDir!, /[/\\]cache[/\\]index[/\\]my_lib-[0-9a-f]{12}$/);
    const other = new FolderLibrary('file:///elsewhere/my%20lib', path.resolve('/elsewhere/my lib'), SILENT_LOGGER, 0);
    assert.notEqual(other.openOptions({ cacheDir: '/cache' }, overlay, SILENT_LOGGER, () => undefined).cacheDir, opts.cacheDir);
    assert.equal(lib.openOptions({}, overlay, SILENT_LOGGER, () => undefined).cacheDir, undefined);
  });
});
