/**
 * Persisted work keyed by content, so a reopen skips what did not change: lexical analyses and
 * body reference keys by skill content, parsed skills by file stamp. The node layer stores them
 * (src/node/*Snapshot.ts, src/node/referenceCache.ts).
 */
import { analyse } from '../text/analyse';
import { cleanMarkdown, splitPassages } from '../text/passages';
import type { SkillDoc } from '../types';
import type { FlushOptions } from '../workspace';
import type { LexicalState, TermCounts } from './lexicalIndex';

/**
 * Bump when what a skill's lexical analysis produces changes in a way the probe in the engine's
 * analysis fingerprint would not notice (the dictionary bridge, passage splitting), so persisted
 * analyses are not reused (2: a hub's routing description, crossRefs.ts `ownDescription`).
 */
export const ANALYSIS_VERSION = 2;

/** The analysed form of one skill: its counted lexical terms and its feedback terms. */
export interface SkillAnalysis {
  counts: TermCounts;
  /** Analysed name, description and bridge terms, in that order. */
  feedback: string[];
  /** Analysed `profileText` (what the conflict profiles read); absent in older snapshots. */
  profile?: string[];
}

/** Persistent analyses by content key: a reopen skips analysing unchanged skills. */
export interface AnalysisCache {
  get(key: string): SkillAnalysis | undefined;
  set(key: string, analysis: SkillAnalysis): void;
  /** Writes pending changes; `keep` lists the keys still in use (others may be dropped). */
  flush(keep: Set<string>, opts?: FlushOptions): Promise<void>;
  /**
   * After a flush, holds the entries in the compact form a reopen reads (a cold index of 7,000
   * skills: 551 → 327 MB of heap); optional.
   */
  compact?(): Promise<void>;
}

/**
 * Bump when what `parseSkill` produces for the same bytes changes (new fields, other findings),
 * so persisted parses are not reused.
 */
export const PARSE_VERSION = 4;

/**
 * Persistent parsed skills by file stamp (see `SkillWorkspace.stamp`): a reopen skips reading and
 * parsing unchanged files. Keys hold the file, its stamp, the profiles and `PARSE_VERSION`.
 */
export interface ParseCache {
  /**
   * A document of the caller's own (a new object each call; findings included), which may decode
   * some fields (the body) when they are first read.
   */
  get(key: string): SkillDoc | undefined;
  set(key: string, doc: SkillDoc): void;
  /** Writes pending changes; `keep` lists the keys still in use (others may be dropped). */
  flush(keep: Set<string>, opts?: FlushOptions): Promise<void>;
  /**
   * After a flush, holds the entries as a reopen reads them (fields as bytes, decoded when read),
   * so `get` gives such documents; a cache with changes not yet written keeps its entries.
   */
  compact?(): Promise<void>;
}

/**
 * Bump when what `referenceKeys` (route/crossRefs.ts) finds in the same skill changes, so
 * persisted keys are not reused (2: the description is read as well as the body).
 */
export const REFERENCE_VERSION = 2;

/**
 * Persistent reference keys of skills (the names a description or body could cite, see crossRefs.ts) by
 * skill content: a reopen matches them against the library's names without scanning every body.
 * Keys hold the skill's hash and `REFERENCE_VERSION`.
 */
export interface ReferenceCache {
  get(key: string): readonly string[] | undefined;
  set(key: string, refKeys: readonly string[]): void;
  /** Writes pending changes; `keep` lists the keys still in use (others may be dropped). */
  flush(keep: Set<string>, opts?: FlushOptions): Promise<void>;
}

/**
 * Bump when what the reranker's field analysis (route/rerankFeatures.ts `FieldCache`) makes of
 * the same skill changes in a way the analysis fingerprint would not notice (which fields, how
 * many passages), so persisted fields are not reused.
 */
export const FIELDS_VERSION = 2;

/** The analysed fields of one skill version the reranker and the explanations read, as term lists in first-seen order. */
export interface StoredFields {
  name: string[];
  description: string[];
  headings: string[];
  body: string[];
  passages: string[][];
}

/**
 * Persistent reranker fields by skill content: a warm `route` reads its candidates' fields
 * instead of analysing their bodies and passages again. Keys hold the skill's routing hash, the
 * analysis tag and `FIELDS_VERSION`.
 */
export interface FieldStore {
  get(key: string): StoredFields | undefined;
  set(key: string, fields: StoredFields): void;
  /** Writes pending changes; `keep` lists the keys still in use (others may be dropped). */
  flush(keep: Set<string>, opts?: FlushOptions): Promise<void>;
}

/**
 * A library's lexical index as a batch built it, keyed by what the batch was (each skill's id and
 * analysis key, in order: see `LexicalSnapshots`), so a reopen restores it instead of building
 * its postings again. `read` gives null for another signature, no file or a damaged one.
 */
export interface LexicalSnapshotStore {
  read(signature: string): Promise<LexicalState | null>;
  write(signature: string, state: LexicalState): Promise<void>;
}

/**
 * A short hash of what the analyser makes of a probe text (identifiers, stemming, stop words,
 * Markdown), so a snapshot written by a build that analyses differently is not reused.
 */
export function analysisFingerprint(): string {
  const probe =
    '# Extracting PDFs\nUse `pdfPlumber.extract_tables()` on scanned invoices; the CLI\'s --json flag, C++ and node.js.\n' +
    '- [docs](https://example.com/a_b) <b>running</b> reports, analyses, e-mails 2024-05-01\n```\nconst x = 1;\n```';
  const text = JSON.stringify([analyse(probe), analyse(cleanMarkdown(probe)), splitPassages(probe)]);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/**
 * The analysis a shipped model was built with (`ANALYSIS_VERSION` and the fingerprint): the
 * background statistics and the reranker record it in their manifests, and a test compares it with
 * this build's, so an analyser change without a rebuild does not ship.
 */
export function analysisTag(): string {
  return `${ANALYSIS_VERSION}.${analysisFingerprint()}`;
}
