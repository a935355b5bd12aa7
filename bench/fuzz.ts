/**
 * The fuzz properties of test/unit/fuzz.test.ts at full size: 100,000 generated inputs each
 * (`npm run fuzz`), with a fresh seed unless one is given. Prints one row per property: inputs,
 * failures, time and the slowest input (a super-linear path shows there); for a failure, the seed,
 * path and shrunk counterexample to keep in test/unit/fuzzRegressions.test.ts. Exit 1 on a failure.
 *
 *   node out/bench/fuzz.js [--runs N] [--seed S] [--only substring,substring...]
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fuzzProperties } from '../test/helpers/fuzzProperties';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function run(): Promise<number> {
  const runsFlag = flag('--runs');
  const seed = flag('--seed') !== undefined ? Number(flag('--seed')) : Math.floor(Math.random() * 0x7fffffff);
  const only = flag('--only')?.split(',');
  const tmp = mkdtempSync(path.join(tmpdir(), 'sr-fuzz-bench-'));
  let failures = 0;
  let inputs = 0;
  const started = performance.now();
  console.log(`fast-check seed ${seed}\n`);
  console.log('| property | inputs | failures | seconds | mean ms | slowest ms | inputs over 1 s |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  try {
    for (const p of fuzzProperties(tmp)) {
      if (only && !only.some((o) => p.name.includes(o))) continue;
      let slowest = 0;
      let overOneSecond = 0;
      let t = 0;
      // The hooks run around every input (shrinking included): they time the slowest one.
      const timed = (p.property as fc.IPropertyWithHooks<unknown[]>)
        .beforeEach((previous) => {
          previous();
          t = performance.now();
        })
        .afterEach((previous) => {
          previous();
          const ms = performance.now() - t;
          slowest = Math.max(slowest, ms);
          if (ms > 1000) overOneSecond++;
        });
      const t0 = performance.now();
      const details = await fc.check(timed, { numRuns: runsFlag ? Number(runsFlag) : p.benchRuns, seed });
      const seconds = (performance.now() - t0) / 1000;
      inputs += details.numRuns;
      if (details.failed) failures++;
      const mean = (seconds * 1000) / Math.max(1, details.numRuns);
      console.log(`| ${p.name} | ${details.numRuns.toLocaleString('en-US')} | ${details.failed ? 1 : 0} | ${seconds.toFixed(1)} | ${mean.toFixed(2)} | ${slowest.toFixed(0)} | ${overOneSecond} |`);
      if (details.failed) {
        console.log(`\nFAILED ${p.name}: seed ${details.seed}, path "${details.counterexamplePath}"`);
        console.log(`counterexample: ${fc.stringify(details.counterexample).slice(0, 2000)}`);
        const err = details.errorInstance;
        console.log(`${err instanceof Error ? err.stack : String(err)}\n`);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const minutes = (performance.now() - started) / 60000;
  console.log(`\n${inputs.toLocaleString('en-US')} inputs, ${failures} failing properties, ${minutes.toFixed(1)} min`);
  return failures ? 1 : 0;
}

void run().then((code) => (process.exitCode = code));
