/**
 * Shared types of the routing engine. `core` is pure: it gets every capability
 * (file access, embedder, vector index, reranker, logger) injected.
 */

import type { PairEvidence } from './analysis/types';

/** A zero-based, end-exclusive text range, the same shape as an LSP range. */
export interface TextRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export type Severity = 'error' | 'warning' | 'info';

/** One problem found in one skill; becomes an LSP diagnostic or a CLI line. */
export interface Finding {
  /** Stable code, e.g. `frontmatter.name-mismatch`, `skill.near-duplicate`. */
  code: string;
  severity: Severity;
  message: string;
  range: TextRange;
  /** Client profile that raised it (`spec`, `claude-code`, `copilot`, `codex`), if any. */
  profile?: string;
  related?: { skillId: string; path: string; range: TextRange; message: string }[];
  /** For pair findings: the routing evidence behind the claim (requests and their ranks, probes). */
  evidence?: PairEvidence;
  /** For pair findings: a line a quick fix may add to this skill's description; for `skill.broken-reference`: the name a quick fix puts in place of the range. */
  suggestion?: string;
}

/** One parsed SKILL.md. */
export interface SkillDoc {
  /** Folder path relative to the library root, `/`-separated (e.g. `tools/pdf-extract`). */
  id: string;
  /** Path of the SKILL.md relative to the library root, `/`-separated. */
  path: string;
  name: string;
  description: string;
  /** Markdown body after the front matter. */
  body: string;
  /** Front matter as parsed (empty object when missing or malformed). */
  frontMatter: Record<string, unknown>;
  /** Ranges of top-level front-matter keys (key and value) for diagnostics. */
  keyRanges: Record<string, TextRange>;
  /** Zero-based line where the body starts. */
  bodyStartLine: number;
  /** `zh` when the description contains CJK characters, else `en`. */
  lang: 'en' | 'zh';
  /** Content hash of the file text; keys cached vectors. */
  hash: string;
  /** Parse and validation problems of this file. */
  findings: Finding[];
  /**
   * What follows `skill-router-ignore` in each `<!-- skill-router-ignore ... -->` comment of the
   * body, as the parser found them (empty when none): suppressions read these, so applying them
   * does not read the body (a reopened index keeps bodies as bytes until routing needs one).
   * Absent from documents made by hand; the body is read then.
   */
  ignoreComments?: string[];
}

/** Cancellation signal passed to every async engine call. */
export interface CancelToken {
  readonly isCancellationRequested: boolean;
}

export const NEVER_CANCELLED: CancelToken = { isCancellationRequested: false };

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

export function throwIfCancelled(token: CancelToken | undefined): void {
  if (token?.isCancellationRequested) throw new CancelledError();
}

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const SILENT_LOGGER: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** Progress of long work (indexing, model load): `done` of `total` units. */
export type ProgressSink = (stage: string, done: number, total: number) => void;

/** Describes a loaded sentence encoder. */
export interface EmbedderInfo {
  /** Stable id that keys caches, e.g. `use-lite-en@1`. */
  id: string;
  dims: number;
  /** Tokens the model reads; text past this is ignored by the model. */
  maxTokens: number;
  /**
   * Languages the model reads (ISO 639-1). Without `zh`, Chinese text reaches it as its English
   * bridge; absent means English only.
   */
  languages?: readonly string[];
  /** The trained query adapter applied to its request vectors, by id (queryAdapter.ts). */
  adapter?: string;
}

/** A bi-encoder: texts to unit-length vectors. */
export interface Embedder {
  readonly info: EmbedderInfo;
  /** `kind` lets models with instruction prefixes treat requests and passages differently. */
  embed(texts: string[], kind: 'query' | 'passage', token?: CancelToken): Promise<Float32Array[]>;
  /** Gives back memory the runtime kept for large batches (a cold index's passages); optional. */
  recycle?(): Promise<void>;
  dispose?(): Promise<void> | void;
}

/** A cross-encoder: one relevance logit per (query, passage) pair. */
export interface CrossEncoder {
  readonly id: string;
  score(query: string, passages: string[], token?: CancelToken): Promise<number[]>;
  dispose?(): Promise<void> | void;
}

/** Nearest-neighbour search over unit vectors by cosine similarity. */
export interface VectorIndex {
  readonly size: number;
  upsert(key: number, vector: Float32Array): void;
  remove(key: number): void;
  /** The `k` nearest keys with cosine similarity, best first. */
  search(vector: Float32Array, k: number): { key: number; score: number }[];
  /** Called once rows are in place; `signature` names the row set (to load a persisted graph). */
  prepare?(signature: string): Promise<void>;
}
