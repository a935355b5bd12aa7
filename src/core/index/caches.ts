/**
 * Persisted work keyed by content, so a reopen skips what did not change: lexical analyses by
 * skill content, parsed skills by file stamp. The node layer stores them (src/node/*Snapshot.ts).
 */
import type { SkillDoc } from '../types';
import type { TermCounts } from './lexicalIndex';

/**
 * Bump when what a skill's lexical analysis produces changes in a way the probe in the engine's
 * analysis fingerprint would not notice (the dictionary bridge, passage splitting), so persisted
 * analyses are not reused.
 */
export const ANALYSIS_VERSION = 1;

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
  flush(keep: Set<string>): Promise<void>;
}

/**
 * Bump when what `parseSkill` produces for the same bytes changes (new fields, other findings),
 * so persisted parses are not reused.
 */
export const PARSE_VERSION = 2;

/**
 * Persistent parsed skills by file stamp (see `SkillWorkspace.stamp`): a reopen skips reading and
 * parsing unchanged files. Keys hold the file, its stamp, the profiles and `PARSE_VERSION`.
 */
export interface ParseCache {
  get(key: string): SkillDoc | undefined;
  set(key: string, doc: SkillDoc): void;
  /** Writes pending changes; `keep` lists the keys still in use (others may be dropped). */
  flush(keep: Set<string>): Promise<void>;
}
