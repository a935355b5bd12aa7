/**
 * How long the server's event loop was held: the longest delay of a 10 ms timer over about the
 * last ten seconds (node's `monitorEventLoopDelay`, kept per second). A request arriving during a
 * hold waits that long to be read; the index status reports it (`timings.loopDelayMaxMs`), so a
 * stall shows apart from a slow client or a full pipe (bench/branchSwitch.ts reads it).
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { IndexStatus } from '../shared/protocol';

const WINDOW_MS = 1000;
const WINDOWS = 10;

export class LoopMonitor {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  /** The longest delay of each of the last WINDOWS full windows, in ms. */
  private readonly recent: number[] = [];
  private readonly timer: ReturnType<typeof setInterval>;

  constructor() {
    this.histogram.enable();
    this.timer = setInterval(() => {
      this.recent.push(this.current());
      if (this.recent.length > WINDOWS) this.recent.shift();
      this.histogram.reset();
    }, WINDOW_MS);
    this.timer.unref();
  }

  /** The longest hold over about the last ten seconds, in whole ms (0 before any was seen). */
  maxMs(): number {
    return Math.round(Math.max(this.current(), ...this.recent));
  }

  dispose(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }

  /** The current window's longest delay in ms (the histogram reports 0 until it has a sample). */
  private current(): number {
    return this.histogram.count ? this.histogram.max / 1e6 : 0;
  }
}

/** This process's memory for the index status (`IndexStatus.memory`), in whole MB. */
export function memoryNow(): NonNullable<IndexStatus['memory']> {
  const m = process.memoryUsage();
  const mb = (x: number) => Math.round(x / 2 ** 20);
  return { rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), heapTotalMb: mb(m.heapTotal), externalMb: mb(m.external) };
}
