/**
 * The `skill.unreachable` finding: too few of a skill's requests reach it first in a client's
 * listing. One wording and one rule for `check`'s reach gate and the editor's diagnostic, with
 * the verified words (the quick fix adds them) and the skill's own dismissal
 * (`<!-- skill-router-ignore skill.unreachable -->`, as for every code).
 */
import { isSuppressed, readSuppressions } from '../policy/suppression';
import type { Finding, Severity, SkillDoc } from '../types';
import type { SkillReach } from './measure';

/** The finding's code (docs/diagnostics.md). */
export const UNREACHABLE = 'skill.unreachable';

/** The sentence of the finding. */
export function unreachableMessage(s: SkillReach, label: string, min: number): string {
  const share = (n: number) => `${Math.round((n / (s.requests || 1)) * 100)}%`;
  const probes = s.sources.probe === s.requests ? ' (probes written from its body: it has no tests or evals)' : '';
  let text =
    `${s.reachedListing} of ${s.requests} requests${probes} reach this skill first in ${label}'s listing (${share(s.reachedListing)}, below ${Math.round(min * 100)}%); ` +
    `${s.reachedFull} ${s.reachedFull === 1 ? 'does' : 'do'} in the full text.`;
  if (s.omitted) text += ` ${label} does not list it${s.why ? ` (${s.why})` : ''}.`;
  else if (s.dropped) text += ` ${label} lists its name only${s.why ? ` (${s.why})` : ''}: no words in the description help.`;
  else if (s.cut) text += ` Its description is cut at ${s.listedChars} of ${s.fullChars} characters.`;
  if (s.suggest.length) text += ` Add to the description: ${s.suggest.join(', ')} (wins ${s.wonBack} of ${s.lost} lost requests back).`;
  return text;
}

/**
 * Whether the finding gives the author something to do about this skill: words to add, or a cut or
 * drop of its own description. A skill short of its requests only because the whole library is
 * over the budget (the library's one `budget.listing-over` says so) or for no cause found has none.
 */
export function actionable(s: SkillReach): boolean {
  return s.suggest.length > 0 || ((s.cut || s.dropped || s.omitted) && !s.overBudget);
}

export interface UnreachableOptions {
  /** The client's label ("Claude Code"). */
  label: string;
  /** Lowest share of the requests that must reach the skill first in the listing. */
  min: number;
  severity: Severity;
  /** The client, as the finding's profile. */
  client: string;
  /** Only when `actionable` (the editor: a finding with nothing to do is noise there; `check`'s gate reports every miss). */
  actionableOnly?: boolean;
}

/** The finding for one skill's reach, or null (reach at or above the bar, no requests, or dismissed by the skill). */
export function unreachableFinding(doc: Pick<SkillDoc, 'keyRanges' | 'frontMatter' | 'body'>, s: SkillReach, opts: UnreachableOptions): Finding | null {
  if (!s.requests || s.reachedListing / s.requests >= opts.min) return null;
  if (opts.actionableOnly && !actionable(s)) return null;
  if (isSuppressed(readSuppressions(doc), UNREACHABLE)) return null;
  const at = { line: 0, character: 0 };
  return {
    code: UNREACHABLE,
    severity: opts.severity,
    message: unreachableMessage(s, opts.label, opts.min),
    range: doc.keyRanges.description ?? doc.keyRanges.name ?? { start: at, end: at },
    profile: opts.client,
  };
}
