/**
 * SKIP conflict detection on the labelled decisions: for every sampled multi-skill set of
 * dev-decisions.jsonl, does the conflict judgement (service.judgeSet) say SKIP or WRITE, and for
 * the SKIP sets of dev-skips.jsonl, does it give the labelled reason class? Prints Markdown
 * tables and writes bench/results/conflicts.json. Also times `pairFindings()` over the library
 * and counts its findings. The judgement is not trained on these labels.
 *
 *   node esbuild.mjs --bench && node out/bench/conflicts.js [--library DIR] [--queries DIR] [--no-model]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { SKIP_REASONS, type SkipReason } from '../src/core/analysis/types';
import { openLibrary } from '../src/node/library';

const { values } = parseArgs({
  options: {
    library: { type: 'string', default: path.resolve('../shared/corpus/skills') },
    queries: { type: 'string', default: path.resolve('../shared/queries') },
    'no-model': { type: 'boolean' },
  },
});

interface Decision {
  skill_ids: string[];
  decision: 'WRITE' | 'SKIP';
  reason: SkipReason | null;
  k: number;
  lang: string;
}

const readJsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as T);

const pct = (n: number, d: number) => (d ? ((100 * n) / d).toFixed(1) : '-');

function table(header: string[], rows: (string | number)[][]): string {
  const cells = rows.map((r) => r.map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...cells.map(line)].join('\n');
}

async function main(): Promise<void> {
  const svc = await openLibrary({ root: values.library!, noModel: values['no-model'] });
  const stats = await svc.index();
  const known = new Set(svc.skills().map((s) => s.id));
  const decisions = readJsonl<Decision>(path.join(values.queries!, 'dev-decisions.jsonl'));
  const skips = readJsonl<{ skill_ids: string[]; reason: SkipReason; k: number }>(path.join(values.queries!, 'dev-skips.jsonl'));
  const judge = (ids: string[]) => svc.judgeSet(ids).reason;

  // SKIP vs WRITE over all decisions, overall and by set size and language.
  const groups = new Map<string, { tp: number; fp: number; fn: number; tn: number }>();
  let missing = 0;
  for (const d of decisions) {
    if (!d.skill_ids.every((id) => known.has(id))) {
      missing++;
      continue;
    }
    const predicted = judge(d.skill_ids) !== null;
    const gold = d.decision === 'SKIP';
    for (const g of ['all', `k=${d.k}`, d.lang]) {
      const c = groups.get(g) ?? { tp: 0, fp: 0, fn: 0, tn: 0 };
      if (predicted && gold) c.tp++;
      else if (predicted) c.fp++;
      else if (gold) c.fn++;
      else c.tn++;
      groups.set(g, c);
    }
  }
  const decisionRows = [...groups].map(([g, c]) => {
    const n = c.tp + c.fp + c.fn + c.tn;
    const p = c.tp / (c.tp + c.fp || 1);
    const r = c.tp / (c.tp + c.fn || 1);
    return [g, n, pct(c.tp + c.fn, n), pct(c.tp, c.tp + c.fp), pct(c.tp, c.tp + c.fn), (p + r ? (200 * p * r) / (p + r) : 0).toFixed(1), pct(c.tn, c.tn + c.fp), pct(c.tp + c.tn, n)];
  });

  // Reason class on the SKIP sets.
  const perClass = new Map<SkipReason, { n: number; predictedSkip: number; correct: number; predictedAs: number }>();
  for (const r of SKIP_REASONS) perClass.set(r, { n: 0, predictedSkip: 0, correct: 0, predictedAs: 0 });
  const confusion = new Map<string, number>();
  for (const s of skips) {
    if (!s.skill_ids.every((id) => known.has(id))) continue;
    const predicted = judge(s.skill_ids);
    const c = perClass.get(s.reason)!;
    c.n++;
    if (predicted) c.predictedSkip++;
    if (predicted === s.reason) c.correct++;
    if (predicted) perClass.get(predicted)!.predictedAs++;
    confusion.set(`${s.reason}>${predicted ?? 'WRITE'}`, (confusion.get(`${s.reason}>${predicted ?? 'WRITE'}`) ?? 0) + 1);
  }
  const classRows = SKIP_REASONS.map((r) => {
    const c = perClass.get(r)!;
    return [r, c.n, pct(c.predictedSkip, c.n), pct(c.correct, c.n), pct(c.correct, c.predictedAs)];
  });
  const total = [...perClass.values()].reduce((a, c) => ({ n: a.n + c.n, correct: a.correct + c.correct, predictedSkip: a.predictedSkip + c.predictedSkip }), { n: 0, correct: 0, predictedSkip: 0 });
  classRows.push(['all SKIP sets', total.n, pct(total.predictedSkip, total.n), pct(total.correct, total.n), pct(total.correct, total.predictedSkip)]);

  // The library-wide findings the check command and the language server report.
  const t0 = performance.now();
  const findings = await svc.pairFindings();
  const findingsMs = performance.now() - t0;
  const byReason = new Map<string, number>();
  for (const f of findings) byReason.set(f.kind === 'conflict' ? `conflict: ${f.reason}` : f.kind, (byReason.get(f.kind === 'conflict' ? `conflict: ${f.reason}` : f.kind) ?? 0) + 1);

  const mode = stats.model ? `dense (${stats.model})` : 'lexical (no model)';
  const out: string[] = [];
  out.push(`Conflict judgement, ${mode}; ${decisions.length - missing} decisions (${missing} with skills missing from the library)\n`);
  out.push('SKIP vs WRITE (dev-decisions.jsonl):\n');
  out.push(table(['group', 'n', 'SKIP share', 'SKIP precision', 'SKIP recall', 'SKIP F1', 'WRITE recall', 'accuracy'], decisionRows));
  out.push('\nReason class on SKIP sets (dev-skips.jsonl): recall of SKIP, reason accuracy (recall of the class), precision of the class:\n');
  out.push(table(['reason', 'n', 'called SKIP', 'reason accuracy', 'reason precision'], classRows));
  out.push('\nConfusion (gold > predicted):');
  out.push([...confusion].sort((a, b) => b[1] - a[1]).map(([k, v]) => `  ${k}: ${v}`).join('\n'));
  out.push(`\npairFindings() over ${stats.skills} skills: ${findings.length} findings in ${findingsMs.toFixed(0)} ms`);
  out.push([...byReason].sort((a, b) => b[1] - a[1]).map(([k, v]) => `  ${k}: ${v}`).join('\n'));
  process.stdout.write(`${out.join('\n')}\n`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    `bench/results/conflicts${stats.model ? '' : '-lexical'}.json`,
    JSON.stringify({ mode, decisions: Object.fromEntries(groups), classes: Object.fromEntries(perClass), confusion: Object.fromEntries(confusion), findings: Object.fromEntries(byReason), findingsMs }, null, 2),
  );
  await svc.dispose();
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exitCode = 2;
});
