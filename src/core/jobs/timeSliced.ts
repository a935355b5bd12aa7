/**
 * Long jobs over many items (every skill's pair findings, a library's lexical analysis) that must
 * not hold the event loop: requests, edits and the encoder's batches are served between slices.
 * One loop for them all, so that slicing, yielding, progress and being superseded work alike in
 * the language server and in the engine.
 */
import { throwIfCancelled, type CancelToken } from '../types';

/** How a time-sliced job runs; every field is optional. */
export interface TimeSlicedOptions {
  /** Work per slice before others get a turn, in ms (default SLICE_MS). */
  sliceMs?: number;
  /**
   * False once a newer run (a newer index, an edit) supersedes this one: the job stops quietly.
   * Checked before every item, so that a slice stops as soon as its work is stale.
   */
  live?: () => boolean;
  /** Cancelled: the job throws `CancelledError` (checked at the start of every slice). */
  token?: CancelToken;
  /**
   * Runs one slice, e.g. on the queue that orders all work on the state the items touch
   * (default: at once). Whatever it resolves with is ignored.
   */
  runSlice?: (slice: () => Promise<void>) => Promise<unknown>;
  /** After every slice the job is still live after: items done so far, and their total. */
  progress?: (done: number, total: number) => void;
  /** Lets other work run between slices (default: `yieldToLoop`, a turn of the loop, which lets I/O in). */
  yieldToOthers?: () => Promise<void>;
  /** Clock in ms (default `performance.now`). */
  now?: () => number;
}

/** Work per slice before others get a turn, in ms: what every sliced job of the engine uses by default. */
export const SLICE_MS = 50;

/**
 * Jobs waiting for a turn of the event loop, first come first served. A zero-delay timer each
 * would not do: every job whose timer is due runs in the same timers phase, so three jobs of 50 ms
 * slices ran back to back and I/O waited for all of them to finish (a request answered after 3 s;
 * at a branch switch, the re-read's analysis, the encoder's text preparation and the library's
 * queue held the language server 200-340 ms at a time). One job goes per timer, and the timer for
 * the next is set before it runs, so requests and I/O get in between any two slices.
 */
const waiting: (() => void)[] = [];
let turnSet = false;

function nextTurn(): void {
  const next = waiting.shift();
  turnSet = waiting.length > 0;
  if (turnSet) setTimeout(nextTurn, 0);
  next?.();
}

/**
 * Lets requests and I/O in between two long steps of one job: resolves on a turn of the loop of
 * its own (a zero-delay timer shared by every job that waits; see `waiting`).
 */
export function yieldToLoop(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (turnSet) return;
    turnSet = true;
    setTimeout(nextTurn, 0);
  });
}

/**
 * Calls `step` on each of `items` in order, in slices of about `sliceMs`, yielding between
 * slices. A slice does at least one item, so a job always advances. Resolves with true once every
 * item was stepped, false when `live` turned false first; rejects with `CancelledError` when
 * `token` is cancelled, and with whatever `step` or `runSlice` throw.
 */
export async function runTimeSliced<T>(
  items: readonly T[],
  step: (item: T, index: number) => void,
  opts: TimeSlicedOptions = {},
): Promise<boolean> {
  const { sliceMs = SLICE_MS, live = () => true, token, runSlice = (slice) => slice(), progress, yieldToOthers = yieldToLoop } = opts;
  const now = opts.now ?? (() => performance.now());
  let i = 0;
  while (i < items.length && live()) {
    await runSlice(async () => {
      throwIfCancelled(token);
      const start = now();
      const first = i;
      while (i < items.length && live() && (i === first || now() - start < sliceMs)) {
        step(items[i], i);
        i++;
      }
    });
    if (!live()) return false;
    progress?.(i, items.length);
    if (i < items.length) await yieldToOthers();
  }
  return i >= items.length;
}
