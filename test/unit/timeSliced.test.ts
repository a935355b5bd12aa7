/** The time-sliced job helper: slicing by the clock, yielding, progress, superseding, cancelling. */
import { strict as assert } from 'node:assert';
import { runTimeSliced, yieldToLoop } from '../../src/core/jobs/timeSliced';
import { CancelledError } from '../../src/core/types';

/** A clock that moves `stepMs` each time it is read. */
function fakeClock(stepMs: number) {
  let t = 0;
  return () => (t += stepMs);
}

describe('runTimeSliced', () => {
  it('does items in slices of about sliceMs, yields between slices only, and reports after each', async () => {
    const items = Array.from({ length: 12 }, (_, i) => i);
    const done: number[] = [];
    const log: string[] = [];
    const ok = await runTimeSliced(items, (item) => void done.push(item), {
      sliceMs: 50,
      now: fakeClock(10),
      runSlice: async (slice) => {
        log.push('slice');
        await slice();
      },
      yieldToOthers: async () => void log.push('yield'),
      progress: (n, total) => void log.push(`${n}/${total}`),
    });
    assert.equal(ok, true);
    assert.deepEqual(done, items);
    // The clock (10 ms a read) is read at the start of a slice and before each item but the
    // first: 5 items fit in 50 ms.
    assert.deepEqual(log, ['slice', '5/12', 'yield', 'slice', '10/12', 'yield', 'slice', '12/12']);
  });

  it('does at least one item per slice, however slow an item is', async () => {
    const slices: number[] = [];
    await runTimeSliced([1, 2, 3], () => undefined, {
      sliceMs: 50,
      now: fakeClock(1000),
      progress: (n) => void slices.push(n),
      yieldToOthers: async () => undefined,
    });
    assert.deepEqual(slices, [1, 2, 3]);
  });

  it('stops quietly before the next item once superseded, with no progress after', async () => {
    let current = true;
    const done: number[] = [];
    const reports: number[] = [];
    const ok = await runTimeSliced([1, 2, 3, 4], (item) => {
      done.push(item);
      if (item === 2) current = false; // a newer run started while this slice ran
    }, { live: () => current, progress: (n) => void reports.push(n) });
    assert.equal(ok, false);
    assert.deepEqual(done, [1, 2]);
    assert.deepEqual(reports, []);
  });

  it('throws CancelledError at the next slice once the token is cancelled', async () => {
    const token = { isCancellationRequested: false };
    const done: number[] = [];
    const job = runTimeSliced([1, 2, 3], (item) => void done.push(item), {
      token,
      sliceMs: 50,
      now: fakeClock(1000), // one item per slice
      yieldToOthers: async () => {
        token.isCancellationRequested = true;
      },
    });
    await assert.rejects(job, CancelledError);
    assert.deepEqual(done, [1]);
  });

  it('by default yields to the timer queue between slices (a zero-delay timer set in one slice runs before the next)', async () => {
    let fired = false;
    const seenBySecond: boolean[] = [];
    await runTimeSliced([1, 2], (item) => {
      if (item === 1) setTimeout(() => (fired = true), 0);
      else seenBySecond.push(fired);
    }, { sliceMs: 50, now: fakeClock(1000) });
    assert.deepEqual(seenBySecond, [true]);
  });

  it('jobs yielding at once take turns with the rest of the loop: an immediate set in one slice runs before any other slice', async () => {
    // Three jobs of one-item slices (each item holds the thread 2 ms). With a zero-delay timer
    // each, all three timers are due in one timers phase and their slices ran back to back,
    // I/O and immediates waiting behind all of them.
    const busy = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    let pending = false;
    let slices = 0;
    const missed: number[] = [];
    const job = (name: string) =>
      runTimeSliced([1, 2, 3, 4, 5, 6], () => {
        if (pending) missed.push(slices);
        slices++;
        busy(2);
        pending = true;
        setImmediate(() => (pending = false));
      }, { sliceMs: 1 }).then(() => name);
    await yieldToLoop();
    assert.deepEqual(await Promise.all([job('a'), job('b'), job('c')]), ['a', 'b', 'c']);
    assert.equal(slices, 18);
    // The three first slices start together, before any turn (the jobs' first items run at once).
    assert.deepEqual(missed.filter((n) => n >= 3), []);
  });

  it('yieldToLoop lets waiters go in the order they came, each on a turn of its own', async () => {
    const order: string[] = [];
    const waits = ['a', 'b', 'c'].map((name) => yieldToLoop().then(() => {
      order.push(name);
      setImmediate(() => order.push(`${name}'s immediate`));
    }));
    await Promise.all(waits);
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.deepEqual(order, ['a', "a's immediate", 'b', "b's immediate", 'c', "c's immediate"]);
  });

  it('runs each slice through runSlice, so work queued there before a slice runs before it', async () => {
    let queue: Promise<unknown> = Promise.resolve();
    const order: string[] = [];
    const enqueue = <T>(fn: () => Promise<T>) => {
      const next = queue.then(fn);
      queue = next.catch(() => undefined);
      return next;
    };
    const job = runTimeSliced(['a', 'b'], (item) => void order.push(item), {
      sliceMs: 50,
      now: fakeClock(1000),
      runSlice: enqueue,
      yieldToOthers: async () => {
        void enqueue(async () => void order.push('edit'));
      },
    });
    await job;
    assert.deepEqual(order, ['a', 'edit', 'b']);
  });

  it('an empty job is done at once, without a slice', async () => {
    let slices = 0;
    assert.equal(await runTimeSliced([], () => undefined, { runSlice: async (s) => (slices++, s()) }), true);
    assert.equal(slices, 0);
  });
});
