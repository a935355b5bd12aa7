/**
 * Why a candidate's relevance is 0 by rule, whatever the reranker's score, and how the CLI and
 * the panel say it (no imports: the panel's page reads it too).
 */
export type NotRelevant = 'excluded' | 'off-topic';

/** `NotRelevant` in words. */
export const NOT_RELEVANT_WORDS: Record<NotRelevant, string> = {
  excluded: 'its description says it is not for what this request names',
  'off-topic': "off topic: none of the request's words in its name, description or headings, and far in meaning",
};
