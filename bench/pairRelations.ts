/**
 * Pair findings against judged relations: for pairs of real corpus skills whose relation a reader
 * judged from both SKILL.md files (bench/pairs/relations.jsonl: same-job, umbrella, alternative,
 * sequence, siblings, overlap), does the library-wide scan give the finding that relation calls
 * for? Each collection of ../shared/corpus/skills is a library (the scan's default scope).
 *
 * A finding is strictly right when its kind is the relation's: near-duplicate for same-job,
 * umbrella (the same skill as umbrella) for umbrella, variant for alternative, sequence (the same
 * skill first) for sequence. No finding is right for siblings; nothing the scan says is right for
 * overlap (different jobs that share requests), which it has no finding for. Precision per
 * finding kind, and the share of findings a reader judged worth acting on.
 *
 * The labelled pairs are split by a hash of the pair (first hex digit of sha1("a|b") 0-7: tune,
 * else held-out), fixed before any rule was changed; rules are tuned on `tune` only.
 *
 *   node esbuild.mjs --bench && node out/bench/pairRelations.js [--split tune|heldout|all]
 *       [--labels bench/pairs/relations.jsonl] [--library ../shared/corpus/skills] [--out FILE] [--verbose]
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { PairScanCache } from '../src/core/analysis/pairCache';
import type { PairFinding } from '../src/core/analysis/types';
import { openLibrary } from '../src/node/library';

const { values } = parseArgs({
  options: {
    split: { type: 'string', default: 'tune' },
    labels: { type: 'string', default: path.resolve('bench/pairs/relations.jsonl') },
    library: { type: 'string', default: path.resolve('../shared/corpus/skills') },
    out: { type: 'string' },
    verbose: { type: 'boolean' },
  },
});

type Relation = 'same-job' | 'umbrella' | 'alternative' | 'sequence' | 'siblings' | 'overlap';

interface Label {
  a: string;
  b: string;
  relation: Relation;
  umbrella?: string;
  first?: string;
  worth: 'yes' | 'no';
  routes?: 'yes' | 'no';
  note?: string;
}

/** The relation a finding claims, with its direction where it has one. */
interface Claim {
  relation: Relation | 'none';
  umbrella?: string;
  first?: string;
}

function splitOf(a: string, b: string): 'tune' | 'heldout' {
  const [x, y] = a < b ? [a, b] : [b, a];
  return parseInt(createHash('sha1').update(`${x}|${y}`).digest('hex')[0], 16) < 8 ? 'tune' : 'heldout';
}

function claimOf(f: PairFinding | undefined): Claim {
  const d = f?.detail;
  if (!f || !d) return { relation: 'none' };
  switch (d.kind) {
    case 'near-duplicate':
      return { relation: 'same-job' };
    case 'umbrella':
      return { relation: 'umbrella', umbrella: d.umbrella };
    case 'variant':
      return { relation: 'alternative' };
    case 'sequence':
      return { relation: 'sequence', first: d.first };
  }
}

/** Whether a claim is what the judged relation calls for (no finding: right only for siblings). */
function right(claim: Claim, label: Label): boolean {
  if (claim.relation === 'none') return label.relation === 'siblings';
  if (claim.relation !== label.relation) return false;
  if (claim.relation === 'umbrella') return claim.umbrella === label.umbrella;
  if (claim.relation === 'sequence') return claim.first === label.first;
  return true;
}

async function main(): Promise<void> {
  const key = (a: string, b: string) => (a < b ? `${a}\n${b}` : `${b}\n${a}`);
  const labels = new Map<string, Label>();
  for (const line of readFileSync(values.labels!, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const l = JSON.parse(line) as Label;
    if (values.split === 'all' || splitOf(l.a, l.b) === values.split) labels.set(key(l.a, l.b), l);
  }
  const svc = await openLibrary({ root: values.library! });
  await svc.index();
  const t0 = performance.now();
  const findings = (await svc.pairFindings(undefined, { cache: new PairScanCache() })).filter((f) => f.kind !== 'copy');
  const seconds = Math.round((performance.now() - t0) / 1000);
  const byPair = new Map(findings.map((f) => [key(f.a, f.b), f]));

  const kinds: Record<string, { n: number; right: number; worth: number }> = {};
  const unlabelled: string[] = [];
  const rows: { a: string; b: string; label: string; claim: string; right: boolean }[] = [];
  for (const f of findings) {
    const label = labels.get(key(f.a, f.b));
    const claim = claimOf(f);
    if (!label) {
      if (values.split === 'all' || splitOf(f.a, f.b) === values.split) unlabelled.push(`${claim.relation}\t${f.a}\t${f.b}`);
      continue;
    }
    const k = (kinds[claim.relation] ??= { n: 0, right: 0, worth: 0 });
    k.n++;
    if (right(claim, label)) k.right++;
    if (label.worth === 'yes') k.worth++;
  }
  // Every labelled pair: what the scan said of it (no finding included).
  const confusion: Record<string, Record<string, number>> = {};
  let pairsRight = 0;
  for (const label of labels.values()) {
    const claim = claimOf(byPair.get(key(label.a, label.b)));
    const ok = right(claim, label);
    if (ok) pairsRight++;
    (confusion[label.relation] ??= {})[claim.relation] = (confusion[label.relation][claim.relation] ?? 0) + 1;
    rows.push({ a: label.a, b: label.b, label: label.relation + (label.umbrella ? ` (${label.umbrella.split('/')[1]})` : ''), claim: claim.relation + (claim.umbrella ? ` (${claim.umbrella.split('/')[1]})` : ''), right: ok });
  }
  const all = Object.values(kinds).reduce((s, k) => ({ n: s.n + k.n, right: s.right + k.right, worth: s.worth + k.worth }), { n: 0, right: 0, worth: 0 });
  const result = {
    split: values.split,
    labelled: labels.size,
    findings: { ...kinds, all },
    pairsRight,
    confusion,
    unlabelled,
    seconds,
    load: Number(loadavg()[0].toFixed(2)),
    ...(values.verbose ? { rows } : {}),
  };
  const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(0)}%` : '-');
  for (const [kind, k] of Object.entries({ ...kinds, all })) console.log(`${kind}: ${k.n} findings, strictly right ${k.right} (${pct(k.right, k.n)}), worth acting on ${k.worth} (${pct(k.worth, k.n)})`);
  console.log(`labelled pairs: ${labels.size}, the scan right on ${pairsRight}; unlabelled findings: ${unlabelled.length}`);
  console.log('judged relation -> finding:', JSON.stringify(confusion));
  if (values.verbose) for (const r of rows) if (!r.right) console.log(`  ${r.label} <- ${r.claim}: ${r.a} | ${r.b}`);
  for (const u of unlabelled) console.log(`  unlabelled: ${u}`);
  if (values.out) writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
}

void main();
