/**
 * Pair findings on a real library: how long the library-wide scan takes cold (nothing cached)
 * and warm (the result cached by content signature, in memory and read back from JSON), how long
 * one skill's findings take after an edit (p50 / p95), how many findings each collection gets per
 * 100 skills, and, on the labelled decisions, how many redundant sets are found and how many
 * needed-together pairs are flagged. Writes bench/results/pairFindings[-across].json and a random
 * sample of findings to judge (bench/results/pairSample[-across].md).
 *
 *   node esbuild.mjs --bench && node out/bench/pairFindings.js [--library DIR] [--queries DIR]
 *       [--across] [--edits 20] [--sample 30] [--seed 1] [--no-model]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { PairScanCache } from '../src/core/analysis/pairCache';
import { SKIP_REASONS, type PairFinding, type SkipReason } from '../src/core/analysis/types';
import { prng } from '../src/core/route/rerankTraining';
import { openLibrary } from '../src/node/library';

const { values } = parseArgs({
  options: {
    library: { type: 'string', default: path.resolve('../shared/corpus/skills') },
    queries: { type: 'string', default: path.resolve('../shared/queries') },
    across: { type: 'boolean' },
    edits: { type: 'string', default: '20' },
    sample: { type: 'string', default: '30' },
    seed: { type: 'string', default: '1' },
    'no-model': { type: 'boolean' },
  },
});

interface Decision {
  skill_ids: string[];
  decision: 'WRITE' | 'SKIP';
  reason: SkipReason | null;
}

const readJsonl = <T>(file: string): T[] => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as T);
const pct = (n: number, d: number) => (d ? ((100 * n) / d).toFixed(1) : '-');
const collection = (id: string) => (id.includes('/') ? id.slice(0, id.indexOf('/')) : '');

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
}

/** Wall and CPU (this process, all threads) of `f`. */
async function timed<T>(f: () => Promise<T>): Promise<{ value: T; wallMs: number; cpuMs: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await f();
  const cpu = process.cpuUsage(c0);
  return { value, wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 };
}

async function main(): Promise<void> {
  const across = values.across ?? false;
  const options = { acrossFolders: across };
  const svc = await openLibrary({ root: values.library!, noModel: values['no-model'] });
  const stats = await svc.index();
  const docs = svc.skills();
  const load0 = loadavg()[0];

  // Count what the scan routes (the engine's own pipeline, wrapped here only to count).
  let routed = 0;
  const rank = svc.pipeline.rank.bind(svc.pipeline);
  (svc.pipeline as { rank: typeof rank }).rank = (query, opts) => {
    routed++;
    return rank(query, opts);
  };

  // Cold: nothing cached; then warm in memory, then read back from its JSON (a fresh process).
  const cache = new PairScanCache();
  const cold = await timed(() => svc.pairFindings(undefined, { cache, options }));
  const warm = await timed(() => svc.pairFindings(undefined, { cache, options }));
  const json = JSON.stringify(cache);
  const reread = await timed(() => svc.pairFindings(undefined, { cache: PairScanCache.fromJSON(JSON.parse(json)), options }));
  const findings = cold.value;
  const coldRoutes = routed;
  if (process.env.PAIR_DUMP) writeFileSync(process.env.PAIR_DUMP, JSON.stringify(findings));

  // One skill after an edit of its description: its findings alone (what the editor re-checks).
  const rand = prng(Number(values.seed));
  const editMs: number[] = [];
  const edits = Number(values.edits);
  for (let i = 0; i < edits; i++) {
    const doc = docs[Math.floor(rand() * docs.length)];
    const file = path.join(values.library!, doc.path);
    const text = readFileSync(file, 'utf8');
    const edited = text.replace(/\n---\n/, `\n---\n\nEdited for the bench ${i}.\n`);
    await svc.updateFile({ id: doc.id, path: doc.path, folderName: doc.id.split('/').pop() }, new TextEncoder().encode(edited));
    const t = await timed(() => svc.pairFindings(doc.id, { cache, options }));
    editMs.push(t.wallMs);
    await svc.updateFile({ id: doc.id, path: doc.path, folderName: doc.id.split('/').pop() }, new TextEncoder().encode(text));
  }

  // Findings per 100 skills, per collection.
  const perCollection = new Map<string, { skills: number; copy: number; 'near-duplicate': number; conflict: number }>();
  for (const d of docs) {
    const c = perCollection.get(collection(d.id)) ?? { skills: 0, copy: 0, 'near-duplicate': 0, conflict: 0 };
    c.skills++;
    perCollection.set(collection(d.id), c);
  }
  for (const f of findings) {
    for (const id of new Set([f.a, f.b])) perCollection.get(collection(id))![f.kind] += f.a === f.b ? 1 : 0.5;
  }

  // Labelled decisions: redundant sets found, needed-together pairs flagged, reason by class.
  const decisions = readJsonl<Decision>(path.join(values.queries!, 'dev-decisions.jsonl'));
  const skips = readJsonl<Decision>(path.join(values.queries!, 'dev-skips.jsonl'));
  const byPair = new Map<string, PairFinding>();
  for (const f of findings) byPair.set(`${f.a}\n${f.b}`, f);
  const pairsOf = (ids: string[]) => ids.flatMap((a, i) => ids.slice(i + 1).map((b) => byPair.get(a < b ? `${a}\n${b}` : `${b}\n${a}`))).filter((f): f is PairFinding => !!f);
  const write = decisions.filter((d) => d.decision === 'WRITE');
  const writePairs = write.flatMap((d) => d.skill_ids.flatMap((a, i) => d.skill_ids.slice(i + 1).map((b) => [a, b])));
  const flagged = writePairs.filter(([a, b]) => byPair.has(a < b ? `${a}\n${b}` : `${b}\n${a}`));
  const redundant = decisions.filter((d) => d.reason === 'function_redundant');
  const sameCollection = (d: Decision) => new Set(d.skill_ids.map(collection)).size === 1;
  const found = (d: Decision, kinds: PairFinding['kind'][]) => pairsOf(d.skill_ids).some((f) => kinds.includes(f.kind));
  const classes = SKIP_REASONS.map((r) => {
    const sets = skips.filter((s) => s.reason === r);
    const reported = sets.filter((s) => pairsOf(s.skill_ids).length);
    const right = sets.filter((s) => pairsOf(s.skill_ids).some((f) => f.reason === r));
    return { reason: r, n: sets.length, reported: reported.length, right: right.length };
  });

  // A random sample of findings to judge by reading both skills.
  const n = Math.min(Number(values.sample), findings.length);
  const pool = [...findings];
  const sample: PairFinding[] = [];
  while (sample.length < n && pool.length) sample.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]);
  const byId = new Map(docs.map((d) => [d.id, d]));
  const md = sample.map((f, i) => {
    const a = byId.get(f.a)!;
    const b = byId.get(f.b)!;
    return [
      `### ${i + 1}. ${f.kind}: ${f.a} | ${f.b}`,
      '',
      `- message: ${f.explanation}`,
      `- suggestions: ${JSON.stringify(f.suggestions ?? {})}`,
      `- ${a.id}: ${a.description.slice(0, 400)}`,
      `- ${b.id}: ${b.description.slice(0, 400)}`,
      '- judged: correct ? / worth acting on ?',
      '',
    ].join('\n');
  });

  const kinds = { copy: 0, 'near-duplicate': 0, conflict: 0 } as Record<PairFinding['kind'], number>;
  for (const f of findings) kinds[f.kind]++;
  const unverified = findings.filter((f) => f.kind !== 'copy' && !(f.evidence?.requests.length && f.evidence.requests.every((r) => Object.keys(r.ranks).length === 2 && Object.values(r.ranks).every((k) => k <= 3))));
  const result = {
    library: values.library,
    skills: docs.length,
    model: stats.model,
    acrossFolders: across,
    loadAverage: [load0, loadavg()[0]],
    cold: { wallMs: Math.round(cold.wallMs), cpuMs: Math.round(cold.cpuMs), routes: coldRoutes },
    warm: { wallMs: Math.round(warm.wallMs), cpuMs: Math.round(warm.cpuMs) },
    warmFromJson: { wallMs: Math.round(reread.wallMs), bytes: json.length },
    edit: { n: editMs.length, p50Ms: Math.round(quantile(editMs, 0.5)), p95Ms: Math.round(quantile(editMs, 0.95)), maxMs: Math.round(Math.max(...editMs)) },
    findings: kinds,
    unverified: unverified.length,
    perCollection: Object.fromEntries([...perCollection].sort().map(([c, v]) => [c, { skills: v.skills, per100: { copy: +(100 * v.copy / v.skills).toFixed(1), nearDuplicate: +(100 * v['near-duplicate'] / v.skills).toFixed(1), conflict: +(100 * v.conflict / v.skills).toFixed(1) } }])),
    decisions: {
      redundantSets: redundant.length,
      redundantFoundAsNearDuplicate: redundant.filter((d) => found(d, ['near-duplicate'])).length,
      redundantFoundAsNearDuplicateOrCopy: redundant.filter((d) => found(d, ['near-duplicate', 'copy'])).length,
      redundantSetsInOneCollection: redundant.filter(sameCollection).length,
      redundantInOneCollectionFound: redundant.filter((d) => sameCollection(d) && found(d, ['near-duplicate', 'copy'])).length,
      neededTogetherPairs: writePairs.length,
      neededTogetherFlagged: flagged.length,
      flaggedPairs: flagged.map(([a, b]) => `${a} | ${b}`),
    },
    classes,
  };
  const suffix = across ? '-across' : '';
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(`bench/results/pairFindings${suffix}.json`, `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(`bench/results/pairSample${suffix}.md`, `# Pair findings: a random sample (seed ${values.seed})\n\n${md.join('\n')}`);
  const d = result.decisions;
  process.stdout.write(
    [
      `${docs.length} skills (${stats.model ?? 'no model'}), pairs ${across ? 'across folders' : 'within each top-level folder'}, load ${load0.toFixed(1)}`,
      `library-wide: cold ${result.cold.wallMs} ms (CPU ${result.cold.cpuMs} ms, ${coldRoutes} probes routed), warm ${result.warm.wallMs} ms, warm from JSON ${result.warmFromJson.wallMs} ms (${json.length} bytes)`,
      `one skill after an edit: p50 ${result.edit.p50Ms} ms, p95 ${result.edit.p95Ms} ms (n=${result.edit.n})`,
      `findings: ${kinds.copy} copies, ${kinds['near-duplicate']} near-duplicates, ${kinds.conflict} conflicts; unverified examples: ${unverified.length}`,
      `redundant sets found: ${d.redundantFoundAsNearDuplicate}/${d.redundantSets} as near-duplicates, ${d.redundantFoundAsNearDuplicateOrCopy}/${d.redundantSets} with copies (${d.redundantInOneCollectionFound}/${d.redundantSetsInOneCollection} of those in one collection)`,
      `needed-together pairs flagged: ${d.neededTogetherFlagged}/${d.neededTogetherPairs} (${pct(d.neededTogetherFlagged, d.neededTogetherPairs)}%)`,
      ...classes.map((c) => `  ${c.reason}: n=${c.n} reported ${pct(c.reported, c.n)}% right class ${pct(c.right, c.n)}%`),
      '',
    ].join('\n'),
  );
  await svc.dispose();
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exitCode = 2;
});
