/**
 * The options of the pair scan as the engine's composition passes them (`SkillServiceInit.duplicates`,
 * `OpenLibraryOptions.duplicates`): near-duplicates are decided by routing now (pairScan.ts).
 */
export type { PairScanOptions as DuplicateOptions } from './scanRun';
