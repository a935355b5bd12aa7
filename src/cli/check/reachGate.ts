/**
 * `check`'s reach gate (config `reach: {client, min}`): a skill whose requests reach it first in
 * the client's listing less often than `min` is a `skill.unreachable` error on its description,
 * with the words `reach` verified as winning lost requests back. Measured as `skill-router reach`
 * measures it (cli/reachRun.ts), so the two agree, and read from the same cache.
 */
import { LISTING_RULES } from '../../core/profiles';
import { unreachableFinding } from '../../core/reach/finding';
import type { SkillService } from '../../core/service';
import type { SkillDoc } from '../../core/types';
import { defaultCacheDir } from '../../node/library';
import { requestsFromTests, runReach } from '../reachRun';
import type { ReachGate } from './config';
import type { CheckFinding } from './report';
import type { RoutingTest } from './routingTests';

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
    const doc = byId.get(s.id)!;
    const f = unreachableFinding(doc, s, { label, min: gate.min, severity: 'error', client: gate.client });
    if (!f) continue;
    out.push({ file: input.show(input.skillFile(doc)), skillId: doc.id, code: f.code, severity: f.severity, message: f.message, range: input.withRanges ? f.range : null, profile: gate.client });
  }
  return out;
}
