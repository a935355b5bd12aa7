/**
 * The language server under random edit sequences at full size (issue 11; `npm run fuzz:lsp`):
 * 1,000 seeded sequences of open / change / save / close / rename / delete / create across two
 * workspace folders, each checked against a fresh server on the final disk state (see
 * test/server/lspFuzz.ts). Prints the count, crashes, mismatches and the seeds of any failure
 * (keep those in test/server/fuzz.test.ts REGRESSIONS). Exit 1 on a failure.
 *
 *   node esbuild.mjs --bench && node out/bench/lspFuzz.js [--runs 1000] [--seed S] [--ops N] [--seeds a,b,c]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { runSequence, type SequenceResult } from '../test/server/lspFuzz';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    seed: { type: 'string' },
    ops: { type: 'string' },
    /** Re-runs these seeds only (e.g. the failing seeds of an earlier run). */
    seeds: { type: 'string' },
  },
});

async function main(): Promise<number> {
  const only = values.seeds?.split(',').map(Number);
  const runs = only ? only.length : Number(values.runs);
  const base = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 0x7fffffff);
  const ops = values.ops ? Number(values.ops) : undefined;
  console.log(`seed ${base}, ${runs} sequences (load ${loadavg().map((x) => x.toFixed(1)).join(' ')})`);
  const t0 = performance.now();
  const failed: SequenceResult[] = [];
  let crashes = 0;
  let mismatches = 0;
  let total = 0;
  let peakRss = 0;
  for (let i = 0; i < runs; i++) {
    const r = await runSequence(only ? only[i] : base + i, { ops });
    total += r.ops.length;
    if (r.crash) crashes++;
    if (r.mismatches.length) mismatches++;
    if (r.crash || r.mismatches.length) {
      failed.push(r);
      console.log(`\nFAILED seed ${r.seed}: ${r.crash ?? `${r.mismatches.length} mismatches`}\n  ${r.mismatches.slice(0, 5).join('\n  ')}\n  ops: ${r.ops.join('; ')}`);
    }
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    if ((i + 1) % 50 === 0) console.error(`${i + 1}/${runs}: ${failed.length} failed, ${((performance.now() - t0) / 60000).toFixed(1)} min`);
  }
  const minutes = (performance.now() - t0) / 60000;
  console.log('\n| sequences | operations | crashes | mismatches | minutes | runner peak RSS MB |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  console.log(`| ${runs} | ${total} | ${crashes} | ${mismatches} | ${minutes.toFixed(1)} | ${(peakRss / 2 ** 20).toFixed(0)} |`);
  if (failed.length) console.log(`\nfailing seeds: ${failed.map((r) => r.seed).join(', ')}`);
  return failed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(2);
  },
);
