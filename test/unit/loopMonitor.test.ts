// The language server's event-loop monitor: a synchronous hold shows as the longest delay (a lower
// bound only: a slow machine can only add delay).
import { strict as assert } from 'node:assert';
import { LoopMonitor } from '../../src/server/loopMonitor';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('LoopMonitor', () => {
  it('reports a 150 ms hold of the loop', async () => {
    const m = new LoopMonitor();
    try {
      await sleep(30);
      const end = Date.now() + 150;
      while (Date.now() < end) {
        // hold the loop
      }
      await sleep(40);
      assert.ok(m.maxMs() >= 130, `after a 150 ms hold: ${m.maxMs()} ms`);
    } finally {
      m.dispose();
    }
  });
});
