/** Public shape of the routing engine: what the CLI, the language server and the panel call. */
import type { ListingClient, ListingOptions } from './profiles';
import type { CancelToken, ProgressSink, SkillDoc } from './types';
import type { NotRelevant } from './route/notRelevant';

export interface StageScores {
  /** Cosine similarity of the best skill vector (null when no embedder is loaded). */
  dense: number | null;
  /** Normalised BM25 score, 0..1 within the query's candidates. */
  lexical: number;
  /** Weighted fusion of the normalised stage scores. */
  fused: number;
  /**
   * The dense score min-max normalised within the query's candidates, as it entered the fusion
   * (`fused = lexicalWeight * lexical + (1 - lexicalWeight) * denseNorm`). Absent without an embedder.
   */
  denseNorm?: number;
  /** Share of the lexical score in `fused` for this request (1 without an embedder). */
  lexicalWeight?: number;
  /** Reranker score (null when reranking is off). */
  rerank: number | null;
  /**
   * Calibrated relevance: the probability that the request needs this skill, comparable across
   * requests and libraries (absent when reranking is off or the reranker has no calibration).
   */
  relevance?: number;
  /** The score shown for the ranking: the relevance when there is one, else the rerank or fused score. */
  final: number;
}

export interface MatchedPassage {
  field: 'name' | 'description' | 'body';
  text: string;
  /** Section heading the passage sits under, if any. */
  heading?: string;
  /** Zero-based line of the passage in SKILL.md. */
  line?: number;
  /** Query terms found in the passage (for highlighting). */
  matchedTerms: string[];
}

export interface RouteCandidate {
  skillId: string;
  name: string;
  path: string;
  description: string;
  /** 1-based rank in the final order. */
  rank: number;
  scores: StageScores;
  passage: MatchedPassage | null;
  /**
   * Whether the router judges this skill relevant to the request (its calibrated relevance is at
   * or above the relevance floor, or it is set aside as doing the same job as a set member).
   * Results after the last relevant one are shown for context only.
   */
  relevant?: boolean;
  /** A member of the request's set (`RouteResult.set`). */
  inSet?: true;
  /** Set aside for a set member it conflicts with (redundant, another ecosystem or platform): use that one. */
  setAsideFor?: { id: string; reason: SkipReason; evidence: string };
  /**
   * Why its relevance is 0 whatever the reranker's score: the request names what its description
   * says it is not for (`excluded`), or none of the request's words is in its name, description or
   * headings and it is far from the request in meaning (`off-topic`).
   */
  notRelevant?: NotRelevant;
  /** For `excluded` by a "do not use it for ..." clause: what the description says it is not for, in its words. */
  notFor?: string;
  /** With `other-stack`: what the skill says it is for, and what the request names. */
  otherStack?: string;
  /**
   * The request invokes this skill by name, as the clients let a user do (`/adr`, `/sdd:adr` at the
   * start, `$adr` anywhere): the text that does. The skill is first, with relevance 1.
   */
  invoked?: string;
}

export interface RouteTimings {
  embedMs: number;
  denseMs: number;
  lexicalMs: number;
  fuseMs: number;
  rerankMs: number;
  totalMs: number;
}

export interface RouteResult {
  query: string;
  candidates: RouteCandidate[];
  timings: RouteTimings;
  /** Which model produced the dense scores, or why there are none. */
  dense: { model: string } | { disabled: string };
  /** The reranker that ordered the candidates (absent when reranking was off). */
  reranker?: string;
  /**
   * How the Chinese-English bridge read a request with Chinese in it (or the small glossaries one
   * with Korean, Thai or Russian: the words they know): its words in English, as the English-only encoder
   * reads them and as they meet English skills. Absent for other requests.
   */
  readAs?: string;
  /**
   * The script most of the request is written in when Skill Router reads none of it (no encoder
   * language, no dictionary bridge: Hangul, Thai, Japanese kana, ...), or the language of a request
   * in Latin letters whose function words are not English (Spanish, German, ...): only its other words were
   * matched, so `match` is never `none` while a skill shares a word with it (the engine cannot say
   * no skill fits a request it cannot read; the best is a weak answer). Absent otherwise.
   */
  unread?: string;
  /**
   * The clauses the request declines ("do not open a pull request", "不要修改"): their words were
   * not matched (see core/text/declined.ts). Absent when there are none.
   */
  declined?: string[];
  /**
   * The skills chosen to serve the request together, a selection over `candidates` (which stay in
   * final-score order). Absent when set selection is off, nothing matched, or no skill fits.
   */
  set?: RouteSet;
  /**
   * How well the library answers the request: `strong` (a clearly relevant skill), `weak` (the best
   * is only possibly relevant), `none` (no skill in this library fits: an agent should use none).
   */
  match?: 'strong' | 'weak' | 'none';
  /**
   * Characters of the request that were routed, when it was longer than the engine reads
   * (`MAX_REQUEST_CHARS`, `MAX_REQUEST_WORDS` in route/request.ts: a pasted log of megabytes is
   * routed by its first 16 KB); absent otherwise.
   */
  readChars?: number;
  /** What was ranked: the full text (absent) or one client's listing. */
  view?: { kind: 'listing'; client: ListingClient; label: string };
}

/** The compatible set of a routed request, and the partners set aside for a SKIP conflict. */
export interface RouteSet {
  /**
   * Skill ids of the set's members, in rank order. The first is the top result; the others need
   * not follow it directly (a set-aside twin keeps its place between them).
   */
  ids: string[];
  /** Estimated number of skills the request needs (1 to 3): `ids.length`. */
  size: number;
  /**
   * Candidates that scored among the members but conflict with one: redundant with it, or for
   * another language ecosystem or platform than the top skill. They keep their place in
   * `candidates`, marked there with `setAsideFor`.
   */
  rejected: { id: string; partnerId: string; reason: SkipReason; evidence: string }[];
}

export interface RouteOptions {
  k?: number;
  /** Rerank the top 20 (default true). */
  rerank?: boolean;
  /** Choose the compatible set over the ranking and report it in `set` (default true); the order is the same. */
  select?: boolean;
  /**
   * Rank over what a client lists (name and listed description, nothing of the body) instead of
   * the full text: a proxy for the agent's own choice (see route/listingView.ts).
   */
  view?: { client: ListingClient; listing?: ListingOptions };
  /** One part of the first stage alone (`words` or `dense`), for ablations; no rerank then. */
  only?: 'words' | 'dense';
  /** Find the best-matching passage of each result (default true; eval turns it off). */
  passages?: boolean;
  /**
   * Rank by words alone, as a library without an encoder is ranked (reranked, with a set and a
   * match), neither embedding the request nor reading the skills' vectors: for answers while
   * `index` is still embedding (see `IndexOptions.onWords`), when the encoder is busy with the
   * library and the vectors are incomplete. `dense` of the result says so.
   */
  wordsOnly?: boolean;
  token?: CancelToken;
}

export interface IndexStats {
  skills: number;
  /** Skills whose vectors came from the cache. */
  cached: number;
  /** Skills (re-)embedded in this call. */
  embedded: number;
  /** Files that could not be read or parsed as skills. */
  failed: number;
  ms: number;
  model: string | null;
  /** Why semantic routing is off, when it is. */
  denseDisabled?: string;
}

export interface IndexOptions {
  token?: CancelToken;
  progress?: ProgressSink;
  /**
   * Called once the skills are read and their words indexed, before `index` waits for their
   * vectors: from then on `skills()` lists them and `route` with `wordsOnly` answers (on a cold
   * library the encoder takes most of an index: seconds to a minute).
   */
  onWords?: () => void;
  /**
   * The skills as a parse-only library of the same root and profiles read them (`check` reads
   * first and opens in full only when it must route): they are not read again.
   */
  parsed?: { docs: readonly SkillDoc[]; failed: readonly { path: string; message: string }[] };
}

import type { SkillProfiles } from './analysis/conflicts';
import type { PairScanRun } from './analysis/scanRun';
import type { PairFinding, SkipReason } from './analysis/types';
import type { FlushOptions, SkillFileRef } from './workspace';
import type { TermFrequencies } from './reach/words';

/** A skill library opened for routing. Created by `createSkillService` (core) or `openLibrary` (node). */
export interface SkillService {
  /** Library root (folder, or a `.jsonl` library file). */
  readonly root: string;
  /** Reads, parses and embeds the library; reuses cached vectors. */
  index(opts?: IndexOptions): Promise<IndexStats>;
  /** Ranks skills for a request; call `index` first. */
  route(query: string, opts?: RouteOptions): Promise<RouteResult>;
  /** Parsed skills of the last `index` call, in id order. */
  skills(): readonly SkillDoc[];
  /**
   * Copy, near-duplicate and conflict findings between skills of the last `index` call, from
   * their text and from routing probe requests (analysis/pairScan.ts); only those involving
   * `skillId` when given. `run` passes the caches, the author's requests, scheduling and
   * cancellation.
   */
  pairFindings(skillId?: string, run?: PairScanRun): Promise<PairFinding[]>;
  /** The skills' conflict profiles, made on first use after a change (an idle moment may ask first). */
  profiles?(): SkillProfiles;
  /** Files that were found but could not be read as skills, with the reason. */
  failures(): readonly { path: string; message: string }[];
  /**
   * The index's term statistics (document frequencies, a skill's own terms, the analyser), read
   * from the index as it stands, for `reach`'s words; absent where a service has no index of words.
   */
  termFrequencies?(): TermFrequencies;
  dispose(): Promise<void>;
}

/** A library kept current one file at a time, as the language server needs it. */
export interface LiveSkillService extends SkillService {
  /**
   * Re-reads one skill from `bytes` (null: the file is gone) and updates the lexical and dense
   * indexes for it alone. Returns the parsed skill, or null when it was removed. Bytes that cannot
   * be a skill (binary, over 1 MB) remove it, list it in `failures()` and throw `SkillReadError`.
   */
  updateFile(ref: SkillFileRef, bytes: Uint8Array | null, opts?: { token?: CancelToken }): Promise<SkillDoc | null>;
  /** One skill of the current index by id. */
  skill(id: string): SkillDoc | undefined;
  /**
   * Writes what `updateFile` and routing added to the caches (`index` writes its own); with
   * `opts.minShare`, only the caches where that share of the entries changed (see `FlushOptions`).
   */
  flushCache(opts?: FlushOptions): Promise<void>;
  /**
   * Loads now what the library's skills will need on their first edit and was left to load on
   * first use (the Chinese segmenter and dictionary, when any skill is Chinese): an idle moment
   * pays for it instead of a keystroke.
   */
  warmUp?(): void;
}
