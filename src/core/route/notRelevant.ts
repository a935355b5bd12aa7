/**
 * Why a candidate's relevance is 0 by rule, whatever the reranker's score, and how the CLI and
 * the panel say it (no imports: the panel's page reads it too).
 */
export type NotRelevant = 'excluded' | 'off-topic' | 'general-question';

/** `NotRelevant` in words. */
export const NOT_RELEVANT_WORDS: Record<NotRelevant, string> = {
  excluded: 'its description says it is not for what this request names',
  'off-topic': "off topic: none of the request's words in its name, description or headings, and far in meaning",
  'general-question': 'the request asks in general what something is or how it works, which the agent answers without a skill, and this skill does not offer explanations',
};

/** `NotRelevant` as a short badge. */
export const NOT_RELEVANT_BADGE: Record<NotRelevant, string> = {
  excluded: 'excluded',
  'off-topic': 'off topic',
  'general-question': 'general question',
};
