/** Findings about pairs of skills: copies, near-duplicates (competitors) and conflicts. */
import type { FacetFamily } from './facets';

/** Why two topically close skills should not be selected together (the SKIP taxonomy). */
export type SkipReason =
  | 'function_redundant'
  | 'language_ecosystem_mismatch'
  | 'platform_exclusive'
  | 'domain_mismatch'
  | 'audience_mismatch'
  | 'granularity_mismatch'
  | 'business_layer_mismatch'
  | 'forced_chaining';

export const SKIP_REASONS: readonly SkipReason[] = [
  'function_redundant',
  'language_ecosystem_mismatch',
  'platform_exclusive',
  'domain_mismatch',
  'audience_mismatch',
  'granularity_mismatch',
  'business_layer_mismatch',
  'forced_chaining',
];

/**
 * What a pair finding is:
 * - `copy`: the same (or nearly the same) text in two places;
 * - `near-duplicate`: two skills the router cannot keep apart: each takes the other's requests;
 * - `conflict`: they take each other's requests, and the author can say what sets them apart
 *   (another platform, language or framework; an umbrella over a task skill).
 */
export type PairKind = 'copy' | 'near-duplicate' | 'conflict';

/** Where a probe request comes from. */
export type ProbeSource = 'test' | 'eval' | 'description' | 'heading';

/** A request the author wrote for a skill: a routing test expecting it, or a trigger eval. */
export interface AuthoredRequest {
  query: string;
  source: 'test' | 'eval';
}

/** One probe request routed: the skills of its scope in the router's order, with their scores. */
export interface ScopedRanking {
  query: string;
  source: ProbeSource;
  /** The skill the probe was written for. */
  for: string;
  /** Ids in rank order within the scope (the first few). */
  ids: string[];
  /**
   * For each of `ids`, whether it stands close to the skill the probe was written for on the
   * first stage's scores (see `closeTo` in competition.ts): the reranker's softmax puts nearly
   * all its mass on one skill even when two do the same job, so closeness is read before it.
   */
  close: boolean[];
  /**
   * For each of `ids`, whether the router judged it relevant to the request (calibrated relevance
   * at or above the floor); absent without a relevance model (then every one counts).
   */
  relevant?: boolean[];
  /**
   * For each of `ids`, its calibrated relevance to the request (0 past the reranked head), and
   * the relevance floor of the ranking; absent without a relevance model.
   */
  relevance?: number[];
  floor?: number;
  /** The request in bridged English, for a Chinese request (glossed, for a Korean, Thai or Russian one). */
  readAs?: string;
}

/** One routed request behind a claim: what was asked and where the router ranked each skill of the pair. */
export interface EvidenceRequest {
  query: string;
  /** 1-based ranks among the skills of the pair's scope (a rank beyond the ranking read: absent). */
  ranks: Record<string, number>;
  /** Whose request it is: the skill it was written for, or whose author wrote it. */
  for: string;
  source: ProbeSource;
  /** How the bridge read a Chinese request in English (what the English-only encoder saw). */
  readAs?: string;
}

/**
 * The routing evidence of a near-duplicate or conflict, so that any claim can be re-checked:
 * requests the router ranked both skills within its top 3 for (the author's tests and evals
 * first), and how many probe requests were sent for the pair and how many of them the other
 * skill took (ranked in the top 3 beside the skill they were written for).
 */
export interface PairEvidence {
  requests: EvidenceRequest[];
  probes: { sent: number; taken: number };
}

/** What the routing evidence showed about a pair (see competition.ts). */
export type Verdict =
  /**
   * The same job twice; `twice` when the names tell it is one skill listed twice: the same name
   * written two ways (docker-hub-automation, docker_hub-automation) or the same name with a
   * language suffix on a translation (qmd, qmd-zh).
   */
  | { kind: 'near-duplicate'; twice?: 'spelling' | 'language' }
  /** The same job for two platforms, languages or frameworks; `unnamed`: skills whose first sentence does not name theirs. */
  | { kind: 'variant'; family: FacetFamily | 'product'; values: Record<string, string[]>; unnamed: string[] }
  /**
   * One covers the other's job as a part of a broader one, told `by`: the umbrella is a hub of
   * the reference graph (its body names many of the others), or presents itself as an umbrella
   * and spreads its requests over more skills, or is a role (`-pro`, `-developer`) over a skill
   * of patterns or templates (`-patterns`, `-templates`).
   */
  | { kind: 'umbrella'; umbrella: string; task: string; by: 'hub' | 'spread' | 'role' }
  /** Two steps of one piece of work: `first`'s job comes before `then`'s (`words`: the verbs that say so). */
  | { kind: 'sequence'; first: string; then: string; words: [string, string] };

/** What the probes written for one skill say about the other: sent, taken (both in the top 3), first (the other ranked first). */
export interface ProbeDirection {
  /** Probes written for the skill. */
  sent: number;
  /** ... that rank the other in the top 3 beside it, close. */
  taken: number;
  /** ... that rank the other first. */
  first: number;
  /** ... that rank the two first and second, next to each other and close (either way round). */
  behind: number;
}

export interface PairFinding {
  kind: PairKind;
  /** Skill ids; `a` < `b`. */
  a: string;
  b: string;
  /**
   * How strong the finding is, 0..1: for a copy the share of word sequences the two texts share;
   * otherwise the share of the pair's probe requests the other skill took.
   */
  similarity: number;
  /** The SKIP class the finding stands for (benches read it; messages say it in words). */
  reason?: SkipReason;
  /** One sentence an author can act on, in words (no class names). */
  explanation: string;
  /** Routing evidence (every near-duplicate and conflict has it). */
  evidence?: PairEvidence;
  /**
   * The line a quick fix may add to each skill's description, by skill id: "For …, use <other>."
   * built from the words that set the other skill apart, never from the skill's own text.
   */
  suggestions?: Record<string, string>;
  /** The verdict behind a near-duplicate or conflict. */
  detail?: Verdict;
  /** Per skill of the pair: what its probes said about the other. */
  directions?: Record<string, ProbeDirection>;
}
