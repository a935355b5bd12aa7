// How much of the main thread the encoder takes: the same passages embedded in calls of 256 (as
// a cold index does) by OnnxEmbedder on this thread and by WorkerEmbedder, with the event loop's
// utilisation and its longest stall measured meanwhile. Prints a Markdown table. Not pass/fail.
//
//   node esbuild.mjs --bench && node out/bench/embedLoop.js [--texts 1024] [--threads N]
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Embedder } from '../src/core/types';
import { OnnxEmbedder } from '../src/node/onnxEmbedder';
import { WorkerEmbedder } from '../src/node/workerEmbedder';

const ROOT = resolve(__dirname, '../..');
const MODEL_DIR = join(ROOT, 'models', 'use-lite');
const CALL = 256;

const { values } = parseArgs({ options: { texts: { type: 'string', default: '1024' }, threads: { type: 'string' } } });
const threads = values.threads === undefined ? undefined : Number(values.threads);

function passages(n: number): string[] {
  const library = join(ROOT, 'examples/library');
  const files = readdirSync(library).map((name) => readFileSync(join(library, name, 'SKILL.md'), 'utf8'));
  // Numbered so that no two texts are the same.
  return Array.from({ length: n }, (_, i) => `${files[i % files.length]}\n(${i})`);
}

async function measure(name: string, embedder: Embedder, texts: string[]) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const before = performance.eventLoopUtilization();
  const start = performance.now();
  delay.enable();
  for (let s = 0; s < texts.length; s += CALL) await embedder.embed(texts.slice(s, s + CALL), 'passage');
  delay.disable();
  const seconds = (performance.now() - start) / 1000;
  const utilisation = performance.eventLoopUtilization(before).utilization;
  await embedder.dispose?.();
  return {
    name,
    seconds,
    perSecond: texts.length / seconds,
    utilisation,
    maxStallMs: delay.max / 1e6,
    p99StallMs: delay.percentile(99) / 1e6,
  };
}

async function main() {
  const texts = passages(Number(values.texts));
  const load = loadavg().map((x) => x.toFixed(2)).join(' ');
  const opts = { threads };
  const rows = [
    await measure('OnnxEmbedder (this thread)', await OnnxEmbedder.load(MODEL_DIR, opts), texts),
    await measure('WorkerEmbedder', await WorkerEmbedder.load(MODEL_DIR, opts), texts),
  ];
  console.log(`${texts.length} passages in calls of ${CALL}, onnxruntime threads ${threads ?? 'default'}, load before ${load}, after ${loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);
  console.log('| embedder | s | passages/s | event loop busy | longest stall ms | p99 stall ms |');
  console.log('|---|--:|--:|--:|--:|--:|');
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.seconds.toFixed(1)} | ${r.perSecond.toFixed(1)} | ${(r.utilisation * 100).toFixed(0)}% | ${r.maxStallMs.toFixed(0)} | ${r.p99StallMs.toFixed(0)} |`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
