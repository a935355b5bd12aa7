/**
 * The routing engine: indexes a library (lexical + dense), routes a request through
 * retrieve → fuse → rerank, and keeps per-stage scores for every candidate.
 */
import { decodeSkillBytes, parseSkill } from '../parse/skillDoc';
import type { ProfileId } from '../parse/validate';
import type {
  IndexOptions,
  IndexStats,
  MatchedPassage,
  RouteCandidate,
  RouteOptions,
  RouteResult,
  SkillDoc,
  SkillService,
} from '../service';
import { analyze, type Segmenter } from '../text/analyze';
import { cleanMarkdown, headings, splitPassages, type Passage } from '../text/passages';
import { LexicalIndex, type Bm25Params } from '../index/lexicalIndex';
import type { CrossEncoder, Embedder, Logger, VectorIndex } from '../types';
import { SILENT_LOGGER, throwIfCancelled } from '../types';
import type { SkillFileRef, SkillWorkspace, VectorCache } from '../workspace';
import { BruteForceIndex, DenseStore } from './denseStore';
import { builtinRerank } from './rerank';
import { DEFAULT_DUPLICATES, findNearDuplicates, type DuplicateOptions } from '../analysis/duplicates';
import type { PairFinding } from '../analysis/types';

/** Bump when what gets embedded per skill changes, so cached vectors are not reused. */
export const EMBED_LAYOUT_VERSION = 1;

export interface RoutingSettings {
  /** Body passages embedded per skill besides name + description. */
  bodyPassages: number;
  /** Weight of the normalised lexical score in the fusion (dense gets 1 - this). */
  lexicalWeight: number;
  /** Candidates taken from each first stage before fusion. */
  poolSize: number;
  /** Candidates the reranker sees. */
  rerankDepth: number;
  bm25?: Bm25Params;
}

export const DEFAULT_ROUTING: RoutingSettings = {
  bodyPassages: 1,
  lexicalWeight: 0.6,
  poolSize: 100,
  rerankDepth: 20,
};

export interface SkillServiceInit {
  /** Shown in results and messages (a folder path or a `.jsonl` library). */
  root: string;
  workspace: SkillWorkspace;
  /** Sentence encoder; null turns semantic routing off (say why in `embedderError`). */
  embedder?: Embedder | null;
  embedderError?: string;
  crossEncoder?: CrossEncoder | null;
  /** Vector cache for the embedder in use. */
  cache?: VectorCache;
  /** Makes the vector index; exact search when absent. */
  indexFactory?: (dims: number) => VectorIndex;
  segmenter?: Segmenter;
  profiles?: readonly ProfileId[];
  settings?: Partial<RoutingSettings>;
  duplicates?: Partial<DuplicateOptions>;
  logger?: Logger;
  /** Called when the service is disposed (close sessions, files). */
  onDispose?: () => Promise<void> | void;
}

interface Entry {
  doc: SkillDoc;
  passages: Passage[];
}

// Large chunks let the embedder sort texts by length across skills, so batches pad little.
const EMBED_BATCH = 256;
const READ_CONCURRENCY = 16;
/** Passages scanned for the best match of a result; long bodies rarely match past these. */
const MAX_PASSAGES_SCANNED = 40;

/** Creates the engine over injected capabilities. */
export function createSkillService(init: SkillServiceInit): SkillService {
  return new Engine(init);
}

class Engine implements SkillService {
  readonly root: string;
  private readonly settings: RoutingSettings;
  private readonly log: Logger;
  private readonly profiles: readonly ProfileId[];
  private readonly entries = new Map<string, Entry>();
  private readonly lexical: LexicalIndex;
  private dense: DenseStore | null = null;
  private failed: { path: string; message: string }[] = [];
  private sorted: SkillDoc[] = [];

  constructor(private readonly init: SkillServiceInit) {
    this.root = init.root;
    this.settings = { ...DEFAULT_ROUTING, ...init.settings };
    this.log = init.logger ?? SILENT_LOGGER;
    this.profiles = init.profiles ?? ['spec'];
    this.lexical = new LexicalIndex(this.settings.bm25);
    if (init.embedder) {
      const dims = init.embedder.info.dims;
      this.dense = new DenseStore(init.indexFactory ? init.indexFactory(dims) : new BruteForceIndex());
    }
  }

  skills(): readonly SkillDoc[] {
    return this.sorted;
  }

  failures(): readonly { path: string; message: string }[] {
    return this.failed;
  }

  pairFindings(skillId?: string): PairFinding[] {
    const terms = new Map<string, Set<string>>();
    const termsOf = (id: string) => {
      let t = terms.get(id);
      if (!t) {
        const doc = this.entries.get(id)?.doc;
        t = new Set(doc ? analyze(`${doc.name.replace(/[-_]/g, ' ')} ${doc.description}`, { segmenter: this.init.segmenter }) : []);
        terms.set(id, t);
      }
      return t;
    };
    const vectorOf = (id: string) => this.dense?.vectors(id)[0];
    return findNearDuplicates(this.sorted, vectorOf, termsOf, { ...DEFAULT_DUPLICATES, ...this.init.duplicates }, skillId);
  }

  async index(opts: IndexOptions = {}): Promise<IndexStats> {
    const t0 = Date.now();
    const { token, progress } = opts;
    const listed = await this.init.workspace.list();
    throwIfCancelled(token);
    const failed = [...listed.problems];
    const docs: { ref: SkillFileRef; doc: SkillDoc }[] = [];
    let done = 0;
    const files = listed.files;
    progress?.('read', 0, files.length);
    const queue = [...files];
    const worker = async () => {
      for (let ref = queue.shift(); ref; ref = queue.shift()) {
        throwIfCancelled(token);
        try {
          const bytes = await this.init.workspace.read(ref);
          const { text, invalidUtf8 } = decodeSkillBytes(bytes);
          docs.push({ ref, doc: parseSkill(ref, text, this.profiles, invalidUtf8) });
        } catch (err) {
          failed.push({ path: ref.path, message: err instanceof Error ? err.message : String(err) });
        }
        progress?.('read', ++done, files.length);
      }
    };
    await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));

    docs.sort((a, b) => (a.doc.id < b.doc.id ? -1 : a.doc.id > b.doc.id ? 1 : 0));
    const seen = new Set<string>();
    for (const { doc } of docs) {
      seen.add(doc.id);
      const prev = this.entries.get(doc.id);
      if (prev && prev.doc.hash === doc.hash) {
        prev.doc.findings = doc.findings;
        continue;
      }
      this.upsertLexical(doc);
    }
    for (const id of [...this.entries.keys()]) {
      if (!seen.has(id)) {
        this.entries.delete(id);
        this.lexical.remove(id);
        this.dense?.remove(id);
      }
    }
    this.failed = failed;
    this.resort();
    const { cached, embedded } = await this.embedMissing(opts);
    const stats: IndexStats = {
      skills: this.entries.size,
      cached,
      embedded,
      failed: failed.length,
      ms: Date.now() - t0,
      model: this.init.embedder?.info.id ?? null,
    };
    if (!this.init.embedder) stats.denseDisabled = this.init.embedderError ?? 'no embedding model configured';
    return stats;
  }

  private resort(): void {
    this.sorted = [...this.entries.values()].map((e) => e.doc).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private upsertLexical(doc: SkillDoc): void {
    const seg = this.init.segmenter;
    const passages = splitPassages(doc.body);
    this.entries.set(doc.id, { doc, passages });
    this.lexical.upsert(doc.id, {
      name: analyze(doc.name, { segmenter: seg }),
      description: analyze(doc.description, { segmenter: seg }),
      headings: analyze(headings(doc.body).join('\n'), { segmenter: seg }),
      body: analyze(cleanMarkdown(doc.body), { segmenter: seg }),
    });
  }

  /** What gets embedded for one skill: name + description, then the first body passages. */
  private embedTexts(entry: Entry): string[] {
    const { doc, passages } = entry;
    const texts = [`${doc.name.replace(/[-_]/g, ' ')}: ${doc.description}`];
    for (const p of passages.slice(0, this.settings.bodyPassages)) texts.push(p.heading ? `${p.heading}: ${p.text}` : p.text);
    return texts;
  }

  private cacheKey(doc: SkillDoc): string {
    return `${doc.hash}:${EMBED_LAYOUT_VERSION}:${this.settings.bodyPassages}`;
  }

  private async embedMissing(opts: IndexOptions): Promise<{ cached: number; embedded: number }> {
    const embedder = this.init.embedder;
    const dense = this.dense;
    if (!embedder || !dense) return { cached: 0, embedded: 0 };
    const cache = this.init.cache;
    let cached = 0;
    const todo: { entry: Entry; texts: string[] }[] = [];
    for (const entry of this.entries.values()) {
      if (dense.has(entry.doc.id) && this.embeddedHash.get(entry.doc.id) === entry.doc.hash) continue;
      const hit = cache?.get(this.cacheKey(entry.doc));
      if (hit && hit.length && hit[0].length === embedder.info.dims) {
        dense.upsert(entry.doc.id, hit);
        this.embeddedHash.set(entry.doc.id, entry.doc.hash);
        cached++;
      } else {
        todo.push({ entry, texts: this.embedTexts(entry) });
      }
    }
    const total = todo.reduce((n, t) => n + t.texts.length, 0);
    let done = 0;
    opts.progress?.('embed', 0, total);
    // Batches span skills so the encoder always sees full batches.
    const flat = todo.flatMap((t, i) => t.texts.map((text) => ({ i, text })));
    const vectors: Float32Array[][] = todo.map(() => []);
    for (let s = 0; s < flat.length; s += EMBED_BATCH) {
      throwIfCancelled(opts.token);
      const batch = flat.slice(s, s + EMBED_BATCH);
      const out = await embedder.embed(batch.map((b) => b.text), 'passage', opts.token);
      batch.forEach((b, j) => vectors[b.i].push(out[j]));
      done += batch.length;
      opts.progress?.('embed', done, total);
    }
    todo.forEach((t, i) => {
      dense.upsert(t.entry.doc.id, vectors[i]);
      this.embeddedHash.set(t.entry.doc.id, t.entry.doc.hash);
      cache?.set(this.cacheKey(t.entry.doc), vectors[i]);
    });
    if (dense.index.prepare) {
      opts.progress?.('vector index', 0, 1);
      await dense.index.prepare(dense.signature((id) => this.entries.get(id)?.doc.hash ?? ''));
      opts.progress?.('vector index', 1, 1);
    }
    if (cache) {
      const keep = new Set([...this.entries.values()].map((e) => this.cacheKey(e.doc)));
      await cache.flush(keep).catch((err) => this.log.warn(`could not write the vector cache: ${err instanceof Error ? err.message : err}`));
    }
    return { cached, embedded: todo.length };
  }

  private readonly embeddedHash = new Map<string, string>();

  async route(query: string, opts: RouteOptions = {}): Promise<RouteResult> {
    const k = opts.k ?? 10;
    const doRerank = opts.rerank ?? true;
    const t0 = performance.now();
    const timings = { embedMs: 0, denseMs: 0, lexicalMs: 0, fuseMs: 0, rerankMs: 0, totalMs: 0 };
    const seg = this.init.segmenter;

    let t = performance.now();
    const terms = analyze(query, { segmenter: seg });
    const qWeights = new Map<string, number>();
    for (const term of terms) qWeights.set(term, (qWeights.get(term) ?? 0) + 1);
    for (const [term, n] of qWeights) qWeights.set(term, 1 + Math.log(n));
    const lexAll = this.lexical.search(qWeights);
    const lexTop = topN(lexAll, this.settings.poolSize);
    timings.lexicalMs = performance.now() - t;

    let qVec: Float32Array | null = null;
    let denseTop = new Map<string, number>();
    if (this.init.embedder && this.dense && this.dense.skillCount) {
      t = performance.now();
      [qVec] = await this.init.embedder.embed([cleanQuery(query)], 'query', opts.token);
      timings.embedMs = performance.now() - t;
      t = performance.now();
      denseTop = this.dense.search(qVec, this.settings.poolSize);
      timings.denseMs = performance.now() - t;
    }
    throwIfCancelled(opts.token);

    t = performance.now();
    const pool = new Set<string>([...lexTop.keys(), ...denseTop.keys()]);
    const denseScore = new Map<string, number>();
    const denseRow = new Map<string, number>();
    if (qVec && this.dense) {
      for (const id of pool) {
        const s = this.dense.score(id, qVec);
        if (s) {
          denseScore.set(id, s.score);
          denseRow.set(id, s.row);
        }
      }
    }
    const lexNorm = normalise(pool, lexAll);
    const denseNorm = normalise(pool, denseScore);
    const wL = qVec ? this.settings.lexicalWeight : 1;
    const fused = [...pool].map((id) => ({
      id,
      lexical: lexNorm.get(id) ?? 0,
      dense: qVec ? (denseScore.get(id) ?? 0) : null,
      fused: wL * (lexNorm.get(id) ?? 0) + (1 - wL) * (denseNorm.get(id) ?? 0),
    }));
    fused.sort((a, b) => b.fused - a.fused || (a.id < b.id ? -1 : 1));
    timings.fuseMs = performance.now() - t;

    t = performance.now();
    const depth = Math.max(this.settings.rerankDepth, k);
    const head = fused.slice(0, depth);
    let rerank = new Map<string, number>();
    if (doRerank && head.length) {
      if (this.init.crossEncoder) {
        const texts = head.map((c) => this.rerankText(c.id));
        const logits = await this.init.crossEncoder.score(query, texts, opts.token);
        head.forEach((c, i) => rerank.set(c.id, sigmoid(logits[i])));
      } else {
        rerank = builtinRerank(terms, head, (id) => this.entries.get(id)!.doc, seg);
      }
    }
    timings.rerankMs = performance.now() - t;

    const ranked = head.map((c) => ({ ...c, rerank: rerank.has(c.id) ? rerank.get(c.id)! : null }));
    if (rerank.size) ranked.sort((a, b) => (b.rerank ?? 0) - (a.rerank ?? 0) || b.fused - a.fused || (a.id < b.id ? -1 : 1));
    const queryTerms = new Set(terms);
    const candidates: RouteCandidate[] = ranked.slice(0, k).map((c, i) => {
      const entry = this.entries.get(c.id)!;
      return {
        skillId: c.id,
        name: entry.doc.name,
        path: entry.doc.path,
        description: entry.doc.description,
        rank: i + 1,
        scores: {
          dense: c.dense,
          lexical: c.lexical,
          fused: c.fused,
          rerank: c.rerank,
          final: c.rerank ?? c.fused,
        },
        passage: opts.passages === false ? null : bestPassage(entry, queryTerms, denseRow.get(c.id), seg),
      };
    });
    timings.totalMs = performance.now() - t0;
    return {
      query,
      candidates,
      timings,
      dense: this.init.embedder
        ? { model: this.init.embedder.info.id }
        : { disabled: this.init.embedderError ?? 'no embedding model configured' },
    };
  }

  private rerankText(id: string): string {
    const { doc, passages } = this.entries.get(id)!;
    const first = passages[0]?.text ?? '';
    return `${doc.name}: ${doc.description}\n${first}`.slice(0, 2000);
  }

  async dispose(): Promise<void> {
    await this.init.embedder?.dispose?.();
    await this.init.crossEncoder?.dispose?.();
    await this.init.onDispose?.();
  }
}

/** Collapses whitespace and drops long pasted lines that are mostly symbols (logs, stack frames). */
export function cleanQuery(query: string): string {
  return query.replace(/\s+/g, ' ').trim();
}

function topN(scores: Map<string, number>, n: number): Map<string, number> {
  return new Map([...scores].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n));
}

/** Min-max over the candidate pool; missing candidates count as the pool's minimum. */
function normalise(pool: Set<string>, scores: Map<string, number>): Map<string, number> {
  let lo = Infinity;
  let hi = -Infinity;
  for (const id of pool) {
    const s = scores.get(id);
    if (s === undefined) continue;
    if (s < lo) lo = s;
    if (s > hi) hi = s;
  }
  const out = new Map<string, number>();
  if (!Number.isFinite(lo)) return out;
  const span = hi - lo;
  for (const id of pool) {
    const s = scores.get(id);
    out.set(id, s === undefined ? 0 : span > 0 ? (s - lo) / span : 1);
  }
  return out;
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/** The passage that best explains the match: most query terms, the dense winner as tie-break. */
function bestPassage(entry: Entry, queryTerms: Set<string>, denseRow: number | undefined, seg?: Segmenter): MatchedPassage | null {
  const { doc, passages } = entry;
  let best: { field: MatchedPassage['field']; text: string; heading?: string; line?: number; score: number } | undefined;
  const consider = (field: MatchedPassage['field'], text: string, heading: string | undefined, line: number | undefined, bonus: number) => {
    if (!text) return;
    let hits = 0;
    for (const t of new Set(analyze(text, { segmenter: seg }))) if (queryTerms.has(t)) hits++;
    const score = hits + bonus;
    if (!best || score > best.score) best = { field, text, heading, line, score };
  };
  consider('description', doc.description, undefined, doc.keyRanges.description?.start.line, denseRow === 0 ? 0.5 : 0);
  passages.slice(0, MAX_PASSAGES_SCANNED).forEach((p, i) => consider('body', p.text, p.heading || undefined, doc.bodyStartLine + p.line, denseRow === i + 1 ? 0.5 : 0));
  if (!best) return null;
  const { score: _score, ...chosen } = best;
  return { ...chosen, matchedTerms: matchedWords(chosen.text, queryTerms, seg) };
}

/** Surface words of `text` whose analysed form is a query term (for highlighting). */
function matchedWords(text: string, queryTerms: Set<string>, seg?: Segmenter): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}_.+#-]*/gu)) {
    const word = m[0];
    if (analyze(word, { segmenter: seg }).some((t) => queryTerms.has(t))) out.add(word);
    if (out.size >= 24) break;
  }
  return [...out];
}
