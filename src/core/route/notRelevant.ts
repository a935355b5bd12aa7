/**
 * Why a candidate's relevance is 0 by rule, whatever the reranker's score, and how the CLI and
 * the panel say it (no imports: the panel's page reads it too).
 */
export type NotRelevant = 'excluded' | 'off-topic' | 'general-question' | 'other-stack';

/** `NotRelevant` in words. */
export const NOT_RELEVANT_WORDS: Record<NotRelevant, string> = {
  excluded: 'its description says it is not for what this request names',
  'off-topic': "off topic: none of the request's words in its name, description or headings, and far in meaning",
  'general-question': 'the request asks in general what something is or how it works, which the agent answers without a skill, and this skill does not offer explanations',
  'other-stack': 'its description\'s first sentence says it is for another language or framework than the one the request names',
};

/** `NotRelevant` as a short badge. */
export const NOT_RELEVANT_BADGE: Record<NotRelevant, string> = {
  excluded: 'excluded',
  'off-topic': 'off topic',
  'general-question': 'general question',
  'other-stack': 'other stack',
};

/** The words for a result with relevance 0 by rule, with its evidence where it has some. */
export function notRelevantWords(r: { notRelevant: NotRelevant; notFor?: string; otherStack?: string }): string {
  if (r.notFor) return `its description says it is not for "${r.notFor}"`;
  if (r.otherStack) return `its description says it is for ${r.otherStack}`;
  return NOT_RELEVANT_WORDS[r.notRelevant];
}

/**
 * The scripts (as `readShare` names them) and languages Skill Router reads only through its small
 * glossaries (core/text/wordGlossary.ts, russianGlossary.ts, spanishGlossary.ts).
 */
export const GLOSSED_READINGS: readonly string[] = ['Hangul', 'Thai', 'Cyrillic', 'Spanish'];

/**
 * How Skill Router reads a script it does not read whole, in words for a message: "does not
 * read" or "reads only through a small glossary of technical words"; with `named`, the script in
 * its place ("does not read Hangul", "reads Hangul only through ...").
 */
export function howRead(script: string, named = false): string {
  if (!GLOSSED_READINGS.includes(script)) return named ? `does not read ${script}` : 'does not read';
  return `reads ${named ? `${script} ` : ''}only through a small glossary of technical words`;
}

/** Which of a request's words were matched, in a script read whole or not: "the words it knows" or "its other words". */
export function matchedWords(script: string): string {
  return GLOSSED_READINGS.includes(script) ? 'the words it knows' : 'its other words';
}

/**
 * What the CLI, the panel and the MCP tool say of a request mostly in a script or language Skill
 * Router does not read (`RouteResult.unread`): which words were matched, and what to do to test it.
 */
export function unreadNote(script: string, matched: boolean): string {
  const what = `Most of this request is in ${script}, which Skill Router ${howRead(script)} (it reads English, and Chinese through its dictionary)`;
  const words = matchedWords(script);
  return matched
    ? `${what}: only ${words} were matched, so it does not say that no skill fits. Write the request in English to test how the library routes it.`
    : `${what}, and none of ${words} is in a skill. Write the request in English to test how the library routes it.`;
}
