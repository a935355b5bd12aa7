/** Findings about pairs of skills: near-duplicates and probable SKIP conflicts. */

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

export interface PairFinding {
  kind: 'near-duplicate' | 'conflict';
  /** Skill ids; `a` < `b`. */
  a: string;
  b: string;
  /** Similarity that triggered the finding, 0..1. */
  similarity: number;
  /** For conflicts: the predicted SKIP reason class. */
  reason?: SkipReason;
  /** A request for which both would be routed (for conflicts). */
  exampleRequest?: string;
  /** One sentence an author can act on. */
  explanation: string;
}
