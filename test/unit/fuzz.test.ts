// Property-based fuzzing (fast-check) of discovery, front-matter parsing, validation, routing, the
// caches and the CLI: a few thousand generated inputs per property (a few hundred where each input
// writes files or indexes a library), with a fixed seed so a run is reproducible. `npm run fuzz`
// runs the same properties with 100,000 inputs each and a fresh seed; a failure found there is kept
// in fuzzRegressions.test.ts. FUZZ_SEED and FUZZ_RUNS override the seed and the counts.
import fc from 'fast-check';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fuzzProperties } from '../helpers/fuzzProperties';

const SEED = Number(process.env.FUZZ_SEED ?? 20251130);
const RUNS = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : undefined;

describe('fuzz: no input escapes as an exception', function () {
  this.timeout(300_000);
  // Made by the first property that writes files; nothing is created when the suite is filtered out.
  const tmp = path.join(tmpdir(), `sr-fuzz-${process.pid}-${Date.now()}`);
  after(() => rmSync(tmp, { recursive: true, force: true }));
  for (const p of fuzzProperties(tmp)) {
    const runs = RUNS ?? p.runs;
    it(`${p.name} (${runs} inputs, seed ${SEED})`, async () => {
      await fc.assert(p.property, { numRuns: runs, seed: SEED });
    });
  }
});
