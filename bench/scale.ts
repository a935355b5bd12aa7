/**
 * The engine on generated libraries of 10k and 100k skills: index build time by stage, query
 * latency p50/p95 (with and without rerank) and recall@20 of the HNSW graph against exact search
 * on the same vectors, with the peak RSS of each size's process. Never pass/fail.
 *
 * What is synthetic, stated in the output too: skill text is made of pseudo-words drawn from
 * topics (a `.jsonl` library written line by line, so generation never holds the library), and
 * vectors come from a bag-of-words random projection (each word a fixed random unit vector,
 * a text the normalised sum of its words' vectors), not from the model: 100k model embeddings
 * would take hours on this machine. Texts that share words are near, as with a real encoder,
 * which gives the graph realistic structure; the dimension is the default model's (512).
 *
 *   npm run bench -- --only scale [--sizes 10000,100000] [--scale-queries 200]
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { createSkillService } from '../src/core/route/skillService';
import type { Embedder } from '../src/core/types';
import { HnswIndex } from '../src/node/hnswIndex';
import { JsonlWorkspace } from '../src/node/jsonlWorkspace';
import { defaultCacheDir, HNSW_EF_SEARCH } from '../src/node/library';
import { OnnxEmbedder } from '../src/node/onnxEmbedder';
import { FileVectorCache, VECTOR_FILE } from '../src/node/vectorCache';
import { stageClock } from './stageClock';
import { prng as rng } from '../src/core/route/rerankTraining';

const ROOT = path.resolve(__dirname, '../..');
const DIMS = 512;
const TOPICS = 800;
const WORDS_PER_TOPIC = 24;
const COMMON = 300;

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    size: { type: 'string' },
    'scale-queries': { type: 'string', default: '200' },
  },
  allowPositionals: true,
  strict: false,
});


const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'vo', 'pe', 'da', 'zu', 'fi', 'go', 'ha', 'je', 'ku', 'ly', 'mo', 'nu', 'po', 'qu', 'ra', 'si', 'to', 'ul', 'ex', 'or', 'an'];
function pseudoWord(r: () => number): string {
  const n = 2 + Math.floor(r() * 3);
  let w = '';
  for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
  return w;
}

/** Topic vocabularies and common words, the same in every process. */
function vocabulary() {
  const r = rng(42);
  const seen = new Set<string>();
  const fresh = () => {
    for (;;) {
      const w = pseudoWord(r);
      if (!seen.has(w)) {
        seen.add(w);
        return w;
      }
    }
  };
  const topics = Array.from({ length: TOPICS }, () => Array.from({ length: WORDS_PER_TOPIC }, fresh));
  const common = Array.from({ length: COMMON }, fresh);
  return { topics, common };
}

function skillOf(i: number, vocab: ReturnType<typeof vocabulary>) {
  const r = rng(1000 + i);
  const t = Math.floor(r() * TOPICS);
  const topic = vocab.topics[t];
  const other = vocab.topics[Math.floor(r() * TOPICS)];
  const pick = (list: string[]) => list[Math.floor(r() * list.length)];
  const words = (n: number, topicShare: number) =>
    Array.from({ length: n }, () => (r() < topicShare ? pick(topic) : r() < 0.3 ? pick(other) : pick(vocab.common))).join(' ');
  const name = `${pick(topic)}-${pick(topic)}-${i}`;
  const description = `${words(14 + Math.floor(r() * 12), 0.6)}. Use when the request mentions ${pick(topic)} or ${pick(topic)}.`;
  const body = `# ${words(3, 0.8)}\n\n${words(40 + Math.floor(r() * 40), 0.4)}\n\n## ${words(2, 0.8)}\n\n${words(30, 0.4)}\n`;
  return { id: `s${i}`, name, description, body, topic: t };
}

/** Writes the library one line at a time (bounded memory whatever the size). */
async function writeLibrary(file: string, n: number, vocab: ReturnType<typeof vocabulary>): Promise<void> {
  const out = createWriteStream(file);
  for (let i = 0; i < n; i++) {
    const s = skillOf(i, vocab);
    const line = `${JSON.stringify({ id: s.id, name: s.name, description: s.description, body: s.body })}\n`;
    if (!out.write(line)) await new Promise<void>((res) => out.once('drain', () => res()));
  }
  await new Promise<void>((res, rej) => out.end((err?: Error | null) => (err ? rej(err) : res())));
}

/** A fixed random vector for a string. */
function randomVector(seedText: string): Float32Array {
  let h = 2166136261;
  for (let i = 0; i < seedText.length; i++) h = Math.imul(h ^ seedText.charCodeAt(i), 16777619);
  const r = rng(h);
  const v = new Float32Array(DIMS);
  for (let d = 0; d < DIMS; d++) v[d] = r() - 0.5;
  return v;
}

/**
 * Bag-of-words projection: a topic word's vector is its topic's centre plus as much word-specific
 * noise (words of a topic are related, as an encoder sees them); other words are random. A text
 * is the normalised sum of its words' vectors.
 */
class ProjectionEmbedder implements Embedder {
  readonly info = { id: 'random-projection@bench', dims: DIMS, maxTokens: 512 };
  private readonly words = new Map<string, Float32Array>();
  private readonly topicOf = new Map<string, number>();

  constructor(vocab: ReturnType<typeof vocabulary>) {
    vocab.topics.forEach((words, t) => words.forEach((w) => this.topicOf.set(w, t)));
  }

  private wordVector(w: string): Float32Array {
    let v = this.words.get(w);
    if (!v) {
      v = randomVector(w);
      const t = this.topicOf.get(w);
      if (t !== undefined) {
        const centre = randomVector(`topic ${t}`);
        for (let d = 0; d < DIMS; d++) v[d] += centre[d];
      }
      if (this.words.size < 200_000) this.words.set(w, v);
    }
    return v;
  }

  embedOne(text: string): Float32Array {
    const out = new Float32Array(DIMS);
    for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) {
      const v = this.wordVector(w);
      for (let d = 0; d < DIMS; d++) out[d] += v[d];
    }
    let n = 0;
    for (let d = 0; d < DIMS; d++) n += out[d] * out[d];
    n = Math.sqrt(n) || 1;
    for (let d = 0; d < DIMS; d++) out[d] /= n;
    return out;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
}

/** One size, in its own process so its peak RSS is its own. */
async function runSize(n: number, nQueries: number) {
  const dir = mkdtempSync(path.join(tmpdir(), 'sr-scale-'));
  try {
    const vocab = vocabulary();
    const file = path.join(dir, 'library.jsonl');
    let t = performance.now();
    await writeLibrary(file, n, vocab);
    const generateMs = performance.now() - t;
    const embedder = new ProjectionEmbedder(vocab);
    let index: HnswIndex | undefined;
    const { progress, first, last } = stageClock();
    const svc = createSkillService({
      root: file,
      workspace: new JsonlWorkspace(file),
      embedder,
      indexFactory: (dims) => (index = new HnswIndex(dims, { efSearch: HNSW_EF_SEARCH })),
    });
    t = performance.now();
    const stats = await svc.index({ progress });
    const end = performance.now();
    const readEnd = last.get('read') ?? t;
    const embedStart = first.get('embed') ?? end;
    const embedEnd = last.get('embed') ?? embedStart;
    const indexStart = first.get('vector index') ?? embedEnd;
    const stages = {
      'list + parse': readEnd - t,
      'lexical analysis + index': embedStart - readEnd,
      'embed (projection)': embedEnd - embedStart,
      'HNSW build': (last.get('vector index') ?? indexStart) - indexStart,
    };
    const buildMs = end - t;

    // Requests: words of a random skill's topic and description, as a user might paraphrase.
    const r = rng(7);
    const requests = Array.from({ length: nQueries }, () => {
      const s = skillOf(Math.floor(r() * n), vocab);
      const words = s.description.split(/\W+/).filter(Boolean);
      const pick = () => words[Math.floor(r() * words.length)];
      return `I need something that handles ${pick()} ${pick()} and ${pick()} for ${vocab.topics[s.topic][Math.floor(r() * WORDS_PER_TOPIC)]}`;
    });
    await svc.route(requests[0]);
    const lat = { noRerank: [] as number[], rerank: [] as number[], dense: [] as number[], lexical: [] as number[] };
    for (const q of requests) {
      const a = await svc.route(q, { k: 10, rerank: false, passages: false });
      lat.noRerank.push(a.timings.totalMs);
      lat.dense.push(a.timings.denseMs);
      lat.lexical.push(a.timings.lexicalMs);
      const b = await svc.route(q, { k: 10, rerank: true });
      lat.rerank.push(b.timings.totalMs);
    }

    // Recall@20 of the graph against exact search over the same rows (the engine searches with
    // HNSW_EF_SEARCH; other ef values on the same graph show the trade-off).
    const inner = index as unknown as {
      exact: { search(v: Float32Array, k: number): { key: number }[] };
      hnsw: { setEf(ef: number): void; searchKnn(v: number[], k: number): { neighbors: number[] } } | null;
    };
    let hit = 0;
    let total = 0;
    const annMs: number[] = [];
    const exactMs: number[] = [];
    const efs = [64, 128, 256, 512];
    const efHits = efs.map(() => 0);
    for (const q of requests) {
      const v = embedder.embedOne(q);
      let s = performance.now();
      const ann = index!.search(v, 20);
      annMs.push(performance.now() - s);
      s = performance.now();
      const truth = inner.exact.search(v, 20);
      exactMs.push(performance.now() - s);
      const got = new Set(ann.map((x) => x.key));
      for (const x of truth) if (got.has(x.key)) hit++;
      total += truth.length;
      if (inner.hnsw) {
        efs.forEach((ef, i) => {
          inner.hnsw!.setEf(ef);
          const near = new Set(inner.hnsw!.searchKnn(Array.from(v), 20).neighbors);
          for (const x of truth) if (near.has(x.key)) efHits[i]++;
        });
      }
    }
    await svc.dispose();
    return {
      skills: stats.skills,
      approximate: index!.approximate,
      generateMs,
      buildMs,
      stages,
      query: {
        n: requests.length,
        noRerankP50: pct(lat.noRerank, 50),
        noRerankP95: pct(lat.noRerank, 95),
        rerankP50: pct(lat.rerank, 50),
        rerankP95: pct(lat.rerank, 95),
        denseP50: pct(lat.dense, 50),
        lexicalP50: pct(lat.lexical, 50),
      },
      recallAt20: hit / total,
      recallAt20ByEf: inner.hnsw ? Object.fromEntries(efs.map((ef, i) => [ef, efHits[i] / total])) : null,
      hnswSearchP50Ms: pct(annMs, 50),
      exactSearchP50Ms: pct(exactMs, 50),
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Recall@20 of an HNSW graph (forced on, same settings) over the real model vectors of the corpus
 * cache, for the model's embeddings of the dev requests: real data, at the corpus's size.
 */
async function realRecall(): Promise<Record<string, unknown> | null> {
  const library = path.resolve(ROOT, '../shared/corpus/skills');
  const queryFile = path.resolve(ROOT, '../shared/queries/dev.jsonl');
  const dir = path.join(defaultCacheDir(library), 'use-lite-en@1');
  if (!existsSync(path.join(dir, VECTOR_FILE)) || !existsSync(queryFile)) return null;
  const cache = await FileVectorCache.open(dir, 'use-lite-en@1', DIMS);
  const rows = [...(cache as unknown as { map: Map<string, Float32Array[]> }).map.values()].flat();
  const index = new HnswIndex(DIMS, { exactBelow: 0, efSearch: HNSW_EF_SEARCH });
  rows.forEach((v, i) => index.upsert(i, v));
  await index.prepare('bench');
  const exact = (index as unknown as { exact: { search(v: Float32Array, k: number): { key: number }[] } }).exact;
  const embedder = await OnnxEmbedder.load(path.join(ROOT, 'models', 'use-lite'));
  const queries = readFileSync(queryFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).query as string);
  const vectors = await embedder.embed(queries, 'query');
  await embedder.dispose();
  let hit = 0;
  let total = 0;
  for (const v of vectors) {
    const got = new Set(index.search(v, 20).map((x) => x.key));
    const truth = exact.search(v, 20);
    for (const x of truth) if (got.has(x.key)) hit++;
    total += truth.length;
  }
  return { rows: rows.length, queries: queries.length, recallAt20: hit / total, approximate: index.approximate };
}

async function main() {
  const nQueries = Number(values['scale-queries']);
  if (typeof values.size === 'string') {
    process.stdout.write(`RESULT ${JSON.stringify(await runSize(Number(values.size), nQueries))}\n`);
    return;
  }
  const sizes = String(values.sizes).split(',').map(Number);
  const rows: Record<string, unknown>[] = [];
  const f1 = (x: number) => x.toFixed(1);
  console.log('### Scale (generated libraries; vectors: bag-of-words projection with topic-clustered word vectors, 512 dims, not the model; HNSW (M 16, efConstruction 100) from 20,000 rows)\n');
  console.log(
    `| skills | generate s | build s (parse / lexical / embed / HNSW) | query p50 / p95 ms, no rerank | with rerank | dense p50 | lexical p50 | recall@20 HNSW vs exact (engine ef ${HNSW_EF_SEARCH}) | by ef 64/128/256/512 | HNSW / exact search p50 ms | peak RSS MB | load |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const n of sizes) {
    const loadBefore = loadavg()[0];
    // Its own process and heap cap, so one size cannot take the machine's memory.
    const r = spawnSync(process.execPath, ['--max-old-space-size=6144', __filename, '--size', String(n), '--scale-queries', String(nQueries)], {
      encoding: 'utf8',
      maxBuffer: 16 << 20,
    });
    const line = /RESULT (.*)/.exec(r.stdout ?? '');
    if (!line) {
      console.log(`| ${n} | failed (${r.status}): ${(r.stderr ?? '').slice(-300).replace(/\n/g, ' ')} |`);
      continue;
    }
    const res = JSON.parse(line[1]);
    rows.push({ ...res, loadAverageBefore: loadBefore });
    const st = Object.values(res.stages as Record<string, number>).map((v) => f1(v / 1000)).join(' / ');
    console.log(
      `| ${res.skills} | ${f1(res.generateMs / 1000)} | ${f1(res.buildMs / 1000)} (${st}) | ${f1(res.query.noRerankP50)} / ${f1(res.query.noRerankP95)} | ` +
        `${f1(res.query.rerankP50)} / ${f1(res.query.rerankP95)} | ${f1(res.query.denseP50)} | ${f1(res.query.lexicalP50)} | ${res.recallAt20.toFixed(3)}${res.approximate ? '' : ' (exact)'} | ` +
        `${res.recallAt20ByEf ? Object.values(res.recallAt20ByEf as Record<string, number>).map((x) => x.toFixed(3)).join(' / ') : '–'} | ` +
        `${res.hnswSearchP50Ms.toFixed(2)} / ${res.exactSearchP50Ms.toFixed(2)} | ${f1(res.peakRssMb)} | ${loadBefore.toFixed(2)} → ${res.loadAverage[0]} |`,
    );
  }
  const real = await realRecall().catch((err) => ({ error: String(err) }));
  if (real && 'recallAt20' in real) {
    console.log(`\nReal vectors: recall@20 of HNSW (forced on, same settings) vs exact over the corpus's ${real.rows} model vectors, ${real.queries} dev requests embedded by the model: ${(real.recallAt20 as number).toFixed(3)}`);
  }
  mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(
    path.join(ROOT, 'bench', 'results', 'scale.json'),
    `${JSON.stringify({ date: new Date().toISOString(), cpus: cpus().length, node: process.version, realVectors: real, vectors: 'bag-of-words projection, topic words = topic centre + word noise, 512 dims (not the model)', rows }, null, 2)}\n`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
