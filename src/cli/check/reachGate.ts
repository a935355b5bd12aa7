/**
 * `check`'s reach gate (config `reach: {client, min}`): a skill whose requests reach it first in
 * the client's listing less often than `min` is a `skill.unreachable` error on its description,
 * with the words `reach` verified as winning lost requests back. Measured as `skill-router reach`
 * measures it (cli/reachRun.ts), so the two agree, and read from the same cache.
 */
import { LISTING_RULES } from '../../core/profiles';
import type { SkillReach } from '../../core/reach/measure';
import type { SkillService } from '../../core/service';
import type { SkillDoc } from '../../core/types';
import { defaultCacheDir } from '../../node/library';
import { requestsFromTests, runReach } from '../reachRun';
import type { ReachGate } from './config';
import type { CheckFinding } from './report';
import type { RoutingTest } from './routingTests';

/** The code of the finding (docs/diagnostics.md; the editor reports the same). */
export const UNREACHABLE = 'skill.unreachable';

export interface ReachGateInput {
  service: SkillService;
  gate: ReachGate;
  tests: readonly RoutingTest[];
  rerank: boolean;
  model: string | null;
  root: string;
  cacheDir?: string;
  /** Only these skills (--changed-only); all when absent. */
  only?: ReadonlySet<string> | null;
  skillFile(doc: SkillDoc): string;
  show(file: string): string;
  withRanges: boolean;
}

/** The sentence of a `skill.unreachable` finding, shared with the editor's wording. */
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

/** The gate's findings. */
export async function reachGateFindings(input: ReachGateInput): Promise<CheckFinding[]> {
  const { service, gate } = input;
  const skills = service.skills();
  const refs = skills.map((s) => ({ id: s.id, name: s.name }));
  const targets = input.only ? skills.filter((d) => input.only!.has(d.id)).map((d) => d.id) : undefined;
  if (targets && !targets.length) return [];
  const { report } = await runReach({
    service,
    client: gate.client,
    listing: gate.cut !== undefined ? { cutAt: gate.cut } : {},
    labelled: requestsFromTests(input.tests, refs),
    rerank: input.rerank,
    ...(targets ? { targets } : {}),
    cacheDir: input.cacheDir ?? defaultCacheDir(input.root),
    model: input.model,
  });
  const byId = new Map(skills.map((d) => [d.id, d]));
  const label = LISTING_RULES[gate.client].label;
  const out: CheckFinding[] = [];
  for (const s of report.skills) {
    if (!s.requests || s.reachedListing / s.requests >= gate.min) continue;
    const doc = byId.get(s.id)!;
    const range = doc.keyRanges.description ?? doc.keyRanges.name ?? null;
    out.push({
      file: input.show(input.skillFile(doc)),
      skillId: doc.id,
      code: UNREACHABLE,
      severity: 'error',
      message: unreachableMessage(s, label, gate.min),
      range: input.withRanges ? range : null,
      profile: gate.client,
    });
  }
  return out;
}
