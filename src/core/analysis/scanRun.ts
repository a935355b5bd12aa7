/**
 * What one pair scan is given: the options that decide its findings, the router it routes probes
 * through, and the context of a call (caches, the author's requests, scheduling, cancellation).
 * Kept apart from the scan itself so the engine's public types (service.ts) name them without
 * reaching into the routing pipeline.
 */
import type { CancelToken } from '../types';
import type { PairScanCache } from './pairCache';
import type { AuthoredRequest } from './types';

/** How strong the routing evidence of a pair must be. */
export interface CompetitionOptions {
  /** Share of each skill's probes the other must take (both in the top 3, with close scores). */
  share: number;
  /** Probes each skill needs before its pair is judged. */
  minProbes: number;
  /** Share of each side's probes that must rank the two first and second, close, for twins (default `TWIN_SHARE`). */
  twinShare?: number;
}

/**
 * Half of each side's probes: "3 of 4 requests written for X reach Y" is what an author calls a
 * competitor, and on the labelled decisions it flags few pairs a request needs together.
 */
export const DEFAULT_COMPETITION: CompetitionOptions = { share: 0.5, minProbes: 1 };

/** What decides the scan's findings (settings `skillRouter.nearDuplicate.threshold`, `skillRouter.pairs.acrossFolders`). */
export interface PairScanOptions extends CompetitionOptions {
  /** Judge pairs across top-level folders too (default: copies only). */
  acrossFolders: boolean;
}

export const DEFAULT_PAIR_SCAN: PairScanOptions = { ...DEFAULT_COMPETITION, acrossFolders: false };

/** One routed request, as much of the pipeline's ranking as the scan reads. */
export interface ProbeRanking {
  candidates: readonly { id: string; fused: number; dense: number | null; relevance?: number | null; alone?: number | null }[];
  /** Relevance at or above which a candidate is relevant; null or absent without a relevance model. */
  floor?: number | null;
  request: { readAs: string | null };
  /** `{disabled}` when the encoder failed on this request (the scan then keeps no result). */
  dense: unknown;
}

/**
 * What orders a router's rankings, known without routing: the rerank stage's id, the encoder's
 * label (with its adapter; null without one) and the routing settings. Part of the pair scan's
 * cache key, so `check` can tell from the model's files alone whether cached findings still hold.
 */
export interface RouterIdentity {
  reranker: string;
  encoder: string | null;
  settings: unknown;
}

/** `{...DEFAULT_PAIR_SCAN, ...engine, ...run}`: the options a scan runs with. */
export function resolveScanOptions(engine?: Partial<PairScanOptions>, run?: Partial<PairScanOptions>): PairScanOptions {
  return { ...DEFAULT_PAIR_SCAN, ...engine, ...run };
}

/**
 * The routing the scan needs: the engine's pipeline (`RoutingPipeline`) fits it. Probes are
 * routed exactly as requests are; the screen reads the first stage's lexical scores.
 */
export interface ProbeRouter<Request = unknown, Settings = unknown> {
  rank(query: string, opts: { select?: boolean; token?: CancelToken }): Promise<ProbeRanking>;
  readonly identity: RouterIdentity;
  readonly settings: Settings;
  analyse(query: string): Request;
  readonly firstStage: { lexicalScores(req: Request, s: Settings): Map<string, number> };
}

/** One call's context: caches, the author's requests, scheduling and cancellation. */
export interface PairScanRun {
  cache?: PairScanCache;
  options?: Partial<PairScanOptions>;
  /** Requests the author wrote for a skill (routing tests expecting it, trigger evals). */
  authored?: (id: string) => readonly AuthoredRequest[];
  /** Runs each slice of routing (the server puts them on the library's queue); default: at once. */
  schedule?: <T>(work: () => Promise<T>) => Promise<T>;
  progress?: (done: number, total: number) => void;
  token?: CancelToken;
  /**
   * Finds nothing: brings the cache's copy index and template counts to the library, in slices,
   * so the first edit's one-skill scan does not build them (~0.4 s at 19,909 skills).
   */
  prepareOnly?: boolean;
}
