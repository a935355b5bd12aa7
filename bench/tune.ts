/**
 * Tunes the first stage (lexical BM25F + dense USE-lite + fusion) on a labelled query set with
 * k-fold cross-validation by query, reusing the engine's own pieces (src/core/route/firstStage.ts,
 * the lexical index, the translator). Prints Markdown tables; writes bench/results/tune.json.
 *
 *   node esbuild.mjs --bench && node out/bench/tune.js [--library DIR] [--queries FILE]
 *     [--folds 5] [--no-model] [--no-bridge] [--only lexical|all]
 *
 * Vectors of every text any setting may embed are cached by text hash in
 * bench/results/tune-vectors/ (first run: minutes; later runs: seconds). Tuning is coordinate
 * ascent over small grids on the training folds; the held-out fold scores the chosen setting.
 * The objective is Recall@20 + NDCG@10 of the fused first-stage list (before reranking).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { parseSkill, decodeSkillBytes } from '../src/core/parse/skillDoc';
import type { SkillDoc } from '../src/core/types';
import { LexicalIndex, DEFAULT_BM25, type Bm25Params } from '../src/core/index/lexicalIndex';
import { splitPassages, type Passage } from '../src/core/text/passages';
import { contentHash } from '../src/core/text/hash';
import { Translator } from '../src/core/text/translator';
import { hasCjk } from '../src/core/text/analyze';
import { parseQueries, type EvalQuery } from '../src/core/eval/queries';
import { scoreQuery, summarize, type QueryMetrics } from '../src/core/eval/metrics';
import {
  DEFAULT_FIRST_STAGE,
  aggregateRows,
  bridgeQuery,
  denseQueryText,
  embedTexts,
  expandByFeedback,
  fuse,
  lexicalFields,
  queryTerms,
  type FirstStageSettings,
  type TextContext,
} from '../src/core/route/firstStage';
import { dot } from '../src/core/route/denseStore';
import { FsWorkspace } from '../src/node/fsWorkspace';
import { jiebaSegmenter } from '../src/node/jiebaSegmenter';
import { CedictDictionary } from '../src/node/cedictDictionary';
import { OnnxEmbedder } from '../src/node/onnxEmbedder';
import { FileVectorCache } from '../src/node/vectorCache';

const { values } = parseArgs({
  options: {
    library: { type: 'string', default: path.resolve('../shared/corpus/skills') },
    queries: { type: 'string', default: path.resolve('../shared/queries/dev.jsonl') },
    folds: { type: 'string', default: '5' },
    'no-model': { type: 'boolean' },
    'no-bridge': { type: 'boolean' },
    only: { type: 'string', default: 'all' },
    ablation: { type: 'boolean' },
  },
});

const MAX_BODY_ROWS = 3;
/** Coordinate-ascent passes over the grid (a second pass rarely moved anything in trials). */
const PASSES = Number(process.env.TUNE_PASSES ?? 1);
const POOL = 100;

interface Setting extends FirstStageSettings {
  k1: number;
  wName: number;
  wDesc: number;
  wHead: number;
  wBody: number;
  wBridge: number;
  wBridgeBody: number;
  bBody: number;
  /** Which text of a Chinese request the encoder reads: its own, or the bridged English. */
  denseCjk: 'original' | 'bridged';
  /** Whether Chinese skills use their bridged-English dense row (ablation only; the engine always does). */
  bridgedRow: boolean;
}

const START: Setting = {
  ...DEFAULT_FIRST_STAGE,
  k1: DEFAULT_BM25.k1,
  wName: DEFAULT_BM25.weights[0],
  wDesc: DEFAULT_BM25.weights[1],
  wHead: DEFAULT_BM25.weights[2],
  wBody: DEFAULT_BM25.weights[3],
  wBridge: DEFAULT_BM25.weights[4],
  wBridgeBody: DEFAULT_BM25.weights[5],
  bBody: DEFAULT_BM25.b[3],
  // What the engine does: an English-only encoder reads a Chinese request's bridged English.
  denseCjk: 'bridged',
  bridgedRow: true,
};

// Round 4: the settings round 3 left at the end of its grid, extended. Rounds 1-3 are in
// docs/retrieval-log.md.
const GRID: { [K in keyof Setting]?: Setting[K][] } = {
  k1: [4, 5, 6, 8],
  wBridgeBody: [0.5, 1, 1.5, 2.5],
  bridgeWeight: [1, 1.5, 2, 3],
  wName: [4, 5, 7],
  wDesc: [3, 4, 5],
  lexicalWeight: [0.5, 0.6, 0.7],
  lexicalWeightCjk: [0.7, 0.8, 0.9],
};

function bm25Of(s: Setting): Bm25Params {
  return {
    k1: s.k1,
    weights: [s.wName, s.wDesc, s.wHead, s.wBody, s.wBridge, s.wBridgeBody],
    b: [DEFAULT_BM25.b[0], DEFAULT_BM25.b[1], DEFAULT_BM25.b[2], s.bBody, DEFAULT_BM25.b[4], DEFAULT_BM25.b[5]],
  };
}

interface Skill {
  doc: SkillDoc;
  passages: Passage[];
  /** Row texts, in embedTexts order with MAX_BODY_ROWS body rows. */
  texts: string[];
  bodyFrom: number;
  feedback: string[];
}

async function loadSkills(root: string): Promise<SkillDoc[]> {
  const ws = new FsWorkspace(root);
  const { files } = await ws.list();
  const docs: SkillDoc[] = [];
  for (const ref of files) {
    const { text, invalidUtf8 } = decodeSkillBytes(await ws.read(ref));
    docs.push(parseSkill(ref, text, ['spec'], invalidUtf8));
  }
  return docs.sort((a, b) => (a.id < b.id ? -1 : 1));
}

async function main() {
  const t0 = performance.now();
  const docs = await loadSkills(values.library!);
  const queries = parseQueries(readFileSync(values.queries!, 'utf8'), values.queries);
  const segmenter = jiebaSegmenter();
  let translator: Translator | null = null;
  let bridgeMs = 0;
  if (!values['no-bridge']) {
    const tb = performance.now();
    translator = new Translator(CedictDictionary.load());
    bridgeMs = performance.now() - tb;
  }
  const ctx: TextContext = { segmenter, translator };
  const tl = performance.now();
  const lexical = new LexicalIndex();
  const skills: Skill[] = docs.map((doc) => {
    const passages = splitPassages(doc.body);
    const fields = lexicalFields(doc, ctx);
    lexical.upsert(doc.id, fields);
    const { texts, bodyFrom } = embedTexts(doc, passages, { bodyPassages: MAX_BODY_ROWS }, ctx);
    return { doc, passages, texts, bodyFrom, feedback: [...fields.name, ...fields.description, ...(fields.bridge ?? [])] };
  });
  const lexicalMs = performance.now() - tl;
  const byId = new Map(skills.map((s) => [s.doc.id, s]));
  console.log(`${skills.length} skills, ${queries.length} queries; read ${Math.round(tl - t0)} ms (bridge load ${Math.round(bridgeMs)} ms), lexical index ${Math.round(lexicalMs)} ms`);

  // Dense: every row text and every query text variant, cached by text hash.
  const useModel = !values['no-model'];
  const rowVec: Float32Array[][] = skills.map(() => []);
  const queryText = (q: EvalQuery, variant: 'original' | 'bridged'): string => {
    if (variant === 'bridged' && translator && hasCjk(q.query)) return denseQueryText(q.query, bridgeQuery(q.query, new Map(), lexical, { ...START, bridgeWeight: 0 }, ctx));
    return denseQueryText(q.query);
  };
  const qVec = new Map<string, Float32Array>();
  if (useModel) {
    const dir = path.resolve('bench/results/tune-vectors');
    mkdirSync(dir, { recursive: true });
    // The built-in model (models/use-lite, made by `npm run setup`).
    const embedder = await OnnxEmbedder.load(path.resolve(__dirname, '../../models/use-lite'));
    const cache = await FileVectorCache.open(dir, embedder.info.id, embedder.info.dims);
    const wanted = new Set<string>();
    for (const s of skills) for (const t of s.texts) wanted.add(t);
    for (const q of queries) for (const v of ['original', 'bridged'] as const) wanted.add(queryText(q, v));
    const missing = [...wanted].filter((t) => !cache.get(contentHash(t)));
    console.log(`dense: ${wanted.size} texts, ${missing.length} to embed`);
    const te = performance.now();
    for (let i = 0; i < missing.length; i += 512) {
      const batch = missing.slice(i, i + 512);
      const vecs = await embedder.embed(batch, 'passage');
      batch.forEach((t, j) => cache.set(contentHash(t), [vecs[j]]));
      if ((i / 512) % 4 === 3 || i + 512 >= missing.length) {
        await cache.flush(wanted.size ? new Set([...wanted].map(contentHash)) : new Set());
        console.log(`  embedded ${Math.min(i + 512, missing.length)}/${missing.length} (${Math.round((performance.now() - te) / 1000)} s)`);
      }
    }
    // Query vectors: the engine embeds requests as 'query'; USE-lite has no prefixes, so the same.
    for (const q of queries) for (const v of ['original', 'bridged'] as const) qVec.set(`${q.id}:${v}`, cache.get(contentHash(queryText(q, v)))![0]);
    skills.forEach((s, i) => (rowVec[i] = s.texts.map((t) => cache.get(contentHash(t))![0])));
    await embedder.dispose();
  }

  // Row cosines per query and variant, computed once.
  const cosCache = new Map<string, Float32Array[]>();
  const cosines = (q: EvalQuery, variant: 'original' | 'bridged'): Float32Array[] => {
    const key = `${q.id}:${variant}`;
    let c = cosCache.get(key);
    if (!c) {
      const v = qVec.get(key)!;
      c = rowVec.map((rows) => Float32Array.from(rows.map((r) => dot(v, r))));
      cosCache.set(key, c);
    }
    return c;
  };

  const lexCache = new Map<string, Map<string, number>>();
  const weightCache = new Map<string, { w: Map<string, number>; translated: Set<string> }>();
  const lexicalKeys: (keyof Setting)[] = ['k1', 'wName', 'wDesc', 'wHead', 'wBody', 'wBridge', 'wBridgeBody', 'bBody', 'idfPower', 'codeLineWeight', 'bridgeWeight', 'prfWeight', 'prfDocs'];
  const lexicalFor = (q: EvalQuery, s: Setting): Map<string, number> => {
    const key = `${q.id}|${lexicalKeys.map((k) => s[k]).join(',')}`;
    let r = lexCache.get(key);
    if (!r) {
      const wKey = `${q.id}|${s.idfPower},${s.codeLineWeight},${s.bridgeWeight}`;
      let base = weightCache.get(wKey);
      if (!base) {
        const translated = new Set<string>();
        const w = queryTerms(q.query, lexical, s, ctx);
        bridgeQuery(q.query, w, lexical, s, ctx, translated);
        base = { w, translated };
        weightCache.set(wKey, base);
      }
      const weights = new Map(base.w);
      const p = bm25Of(s);
      r = lexical.search(weights, p, base.translated);
      if (expandByFeedback(weights, r, (id) => byId.get(id)!.feedback, lexical, s)) r = lexical.search(weights, p, base.translated);
      lexCache.set(key, r);
    }
    return r;
  };

  const lexTopCache = new Map<Map<string, number>, string[]>();
  const denseCache = new Map<string, { all: Map<string, number>; top: string[] }>();
  const rank = (q: EvalQuery, s: Setting): string[] => {
    const lex = lexicalFor(q, s);
    let lexTop = lexTopCache.get(lex);
    if (!lexTop) {
      lexTop = topIds(lex, POOL);
      lexTopCache.set(lex, lexTop);
    }
    let dense: { all: Map<string, number>; top: string[] } | null = null;
    if (useModel) {
      const variant = hasCjk(q.query) ? s.denseCjk : 'original';
      const key = `${q.id}|${variant}|${s.bodyPassages}|${s.bodyRowPenalty}|${s.bridgedRow}`;
      dense = denseCache.get(key) ?? null;
      if (!dense) {
        const cos = cosines(q, variant);
        const all = new Map<string, number>();
        skills.forEach((sk, i) => {
          let rows: ArrayLike<number> = cos[i].subarray(0, sk.bodyFrom + s.bodyPassages);
          let from = sk.bodyFrom;
          if (!s.bridgedRow && sk.bodyFrom === 2) {
            rows = [rows[0], ...Array.from(rows).slice(2)];
            from = 1;
          }
          all.set(sk.doc.id, aggregateRows(rows, from, s));
        });
        dense = { all, top: topIds(all, POOL) };
        denseCache.set(key, dense);
      }
    }
    const pool = new Set(lexTop);
    if (dense) for (const id of dense.top) pool.add(id);
    const denseInPool = dense ? new Map([...pool].map((id) => [id, dense!.all.get(id)!])) : null;
    const w = hasCjk(q.query) ? s.lexicalWeightCjk : s.lexicalWeight;
    return fuse(pool, lex, denseInPool, w).slice(0, 20).map((c) => c.id);
  };

  const metricsCache = new Map<string, QueryMetrics[]>();
  const evaluate = (s: Setting): QueryMetrics[] => {
    const key = JSON.stringify(s);
    let m = metricsCache.get(key);
    if (!m) {
      m = queries.map((q) => scoreQuery(rank(q, s), { required: q.skillIds, alsoOk: q.alsoOk }));
      metricsCache.set(key, m);
    }
    return m;
  };
  const objective = (m: QueryMetrics[], idx: number[]): number => idx.reduce((a, i) => a + m[i]['recall@20'] + m[i]['ndcg@10'], 0) / Math.max(1, idx.length);

  const tunable = (Object.keys(GRID) as (keyof Setting)[]).filter((k) => {
    if (!useModel && ['bodyPassages', 'bodyRowPenalty', 'lexicalWeight', 'lexicalWeightCjk', 'denseCjk'].includes(k)) return false;
    if (!translator && ['wBridge', 'bridgeWeight', 'denseCjk'].includes(k)) return false;
    if (values.only === 'lexical' && ['bodyPassages', 'bodyRowPenalty', 'lexicalWeight', 'lexicalWeightCjk', 'denseCjk'].includes(k)) return false;
    return true;
  });
  const tune = (idx: number[]): Setting => {
    let best: Setting = { ...START };
    let bestScore = objective(evaluate(best), idx);
    for (let pass = 0; pass < PASSES; pass++) {
      let changed = false;
      for (const k of tunable) {
        for (const v of GRID[k]!) {
          const cand = { ...best, [k]: v } as Setting;
          const sc = objective(evaluate(cand), idx);
          if (sc > bestScore + 1e-9) {
            best = cand;
            bestScore = sc;
            changed = true;
          }
        }
      }
      if (!changed) break;
    }
    return best;
  };

  const table = (title: string, m: QueryMetrics[]) => {
    const rows = queries.map((q, i) => ({ size: q.skillIds.length, direction: q.direction, metrics: m[i] }));
    const sum = summarize(rows);
    const line = (g: string, x: typeof sum.overall) =>
      `| ${g} | ${x.n} | ${pct(x['hit@1'])} | ${pct(x['ndcg@10'])} | ${pct(x['recall@10'])} | ${pct(x['recall@20'])} | ${pct(x.set_compat)} |`;
    console.log(`\n${title}\n\n| group | n | Hit@1 | NDCG@10 | Recall@10 | Recall@20 | Set-Compat |\n|---|--:|--:|--:|--:|--:|--:|`);
    console.log(line('overall', sum.overall));
    for (const [d, x] of Object.entries(sum.byDirection)) console.log(line(d, x));
    return sum;
  };
  const ts = performance.now();
  const start = table('first stage (fused top 20, no rerank), starting setting', evaluate(START));
  console.log(`\n(one setting scored in ${Math.round(performance.now() - ts)} ms)\n`);

  if (values.ablation) {
    // Each change on top of the previous ones, from the pre-issue engine to the tuned one.
    const base: Setting = {
      ...START,
      k1: 1.2,
      wName: 3,
      wDesc: 2,
      wHead: 1.5,
      wBody: 1,
      wBridge: 0,
      wBridgeBody: 0,
      bBody: 0.75,
      idfPower: 0,
      codeLineWeight: 1,
      bridgeWeight: 0,
      bodyPassages: 1,
      bodyRowPenalty: 0,
      lexicalWeight: 0.6,
      lexicalWeightCjk: 0.6,
      denseCjk: 'original',
      bridgedRow: false,
    };
    const steps: [string, Partial<Setting>][] = [
      ['A0 pre-issue first stage (BM25F k1 1.2, weights 3/2/1.5/1, no bridge, 0.6/0.4 fusion)', {}],
      ['A1 + query term weighting by rarity (idfPower 1)', { idfPower: START.idfPower, codeLineWeight: START.codeLineWeight }],
      ['A2 + tuned BM25F (k1, field weights, body length normalisation)', { k1: START.k1, wName: START.wName, wDesc: START.wDesc, wHead: START.wHead, wBody: START.wBody, bBody: START.bBody }],
      ['A3 + bridge, request side: English senses of Chinese request words', { bridgeWeight: START.bridgeWeight }],
      ['A4 + bridge, skill side: `bridge` field of Chinese skills', { wBridge: START.wBridge }],
      ['A4b + bridge, skill side: `bridgeBody` field (request words only)', { wBridgeBody: START.wBridgeBody }],
      ['A5 + bridge for the encoder: bridged request text, bridged skill row', { denseCjk: 'bridged', bridgedRow: true }],
      ['A6 + dense rows: description rows only (no body passage)', { bodyPassages: START.bodyPassages, bodyRowPenalty: START.bodyRowPenalty }],
      ['A7 + tuned fusion weights (= the engine default)', { lexicalWeight: START.lexicalWeight, lexicalWeightCjk: START.lexicalWeightCjk }],
    ];
    let s = base;
    for (const [title, change] of steps) {
      s = { ...s, ...change };
      table(`${title}${useModel ? '' : ' (lexical only)'}`, evaluate(s));
    }
    return;
  }

  // Folds: queries ordered by a hash of their id, dealt round-robin.
  const folds = Number(values.folds);
  const order = queries.map((q, i) => ({ i, h: contentHash(q.id) })).sort((a, b) => (a.h < b.h ? -1 : 1)).map((x) => x.i);
  const foldOf = new Map(order.map((qi, j) => [qi, j % folds]));
  const heldOut: QueryMetrics[] = new Array(queries.length);
  const chosen: Setting[] = [];
  const tt = performance.now();
  for (let f = 0; f < folds; f++) {
    const train = queries.map((_, i) => i).filter((i) => foldOf.get(i) !== f);
    const test = queries.map((_, i) => i).filter((i) => foldOf.get(i) === f);
    const s = tune(train);
    chosen.push(s);
    const m = evaluate(s);
    for (const i of test) heldOut[i] = m[i];
    console.log(`fold ${f + 1}/${folds}: ${diff(s)} (${Math.round((performance.now() - tt) / 1000)} s, ${metricsCache.size} settings scored)`);
  }
  const all = queries.map((_, i) => i);
  const final = tune(all);
  console.log(`all queries: ${diff(final)}`);

  const cv = table(`first stage, ${folds}-fold cross-validated (each fold scored with the setting tuned on the others)`, heldOut);
  const fit = table('first stage, setting tuned on all queries (in-sample, optimistic)', evaluate(final));
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/tune.json', JSON.stringify({ start: START, final, chosen, summary: { start, cv, fit } }, null, 2));
}

/** Ids of the `n` best scores, best first (ties by id). */
function topIds(scores: Map<string, number>, n: number): string[] {
  return [...scores].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n).map(([id]) => id);
}

function diff(s: Setting): string {
  return (Object.keys(s) as (keyof Setting)[]).filter((k) => s[k] !== START[k]).map((k) => `${k}=${s[k]}`).join(' ') || '(start)';
}

function pct(v: number | null): string {
  return v === null ? '-' : (v * 100).toFixed(1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
