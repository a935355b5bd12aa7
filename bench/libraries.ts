/**
 * Routing on libraries the way authors open them: the shared real library
 * (../shared/realsuites/dotnet, with its authors' own routing tests and no-skill requests) and each
 * corpus collection on its own, with the dev requests whose skills all lie in it (ids and also_ok
 * restricted to the collection). Per library: Hit@1, NDCG@10, Set-Compat, negatives held (no-skill
 * requests answered with "no skill fits", boundary skills kept off the top), positives the router
 * abstained on; then the mean over libraries. Prints a Markdown table; writes
 * bench/results/libraries.json (or --out). Not pass/fail.
 *
 *   node esbuild.mjs --bench && node out/bench/libraries.js [--no-model] [--no-rerank] [--only dotnet,github__awesome-copilot]
 *     [--background N] [--whole-corpus]
 *
 * Each library is opened with `openLibrary` and its default cache (a collection's first run embeds
 * its skills once).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { abstained, emptyTally, scoreQuery, summarize, tallyNegative, type NegativeTally, type ScoredQuery } from '../src/core/eval/metrics';
import { parseQueries } from '../src/core/eval/queries';
import { openLibrary } from '../src/node/library';
import { collections, realSuites, type DevLibrary } from './devLibraries';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: path.resolve('../shared/corpus/skills') },
    queries: { type: 'string', default: path.resolve('../shared/queries/dev.jsonl') },
    realsuites: { type: 'string', default: path.resolve('../shared/realsuites') },
    'no-model': { type: 'boolean' },
    'no-rerank': { type: 'boolean' },
    only: { type: 'string' },
    background: { type: 'string' },
    'whole-corpus': { type: 'boolean' },
    out: { type: 'string', default: 'bench/results/libraries.json' },
    quiet: { type: 'boolean' },
  },
});

type Library = DevLibrary;

interface LibraryResult {
  name: string;
  skills: number;
  positives: number;
  hit1: number;
  ndcg10: number;
  setCompat: number | null;
  abstained: number;
  negatives: NegativeTally;
  queryMsP50: number;
}

async function evaluate(lib: Library): Promise<LibraryResult> {
  const settings = values.background !== undefined ? { backgroundWeight: Number(values.background) } : undefined;
  const svc = await openLibrary({ root: lib.root, noModel: values['no-model'], settings });
  try {
    const stats = await svc.index();
    const rows: ScoredQuery[] = [];
    const times: number[] = [];
    let abstain = 0;
    const neg = emptyTally();
    for (const q of lib.queries) {
      const t = performance.now();
      const r = await svc.route(q.query, { k: 20, rerank: !values['no-rerank'], passages: false });
      times.push(performance.now() - t);
      const answer = { match: r.match, results: r.candidates.map((c) => ({ id: c.skillId, relevant: c.relevant })) };
      if (q.skillIds.length) {
        rows.push({ size: q.skillIds.length, metrics: scoreQuery(r.candidates.map((c) => c.skillId), { required: q.skillIds, alsoOk: q.alsoOk }) });
        if (abstained(answer)) abstain++;
      }
      tallyNegative(neg, q, answer);
    }
    const s = summarize(rows).overall;
    times.sort((a, b) => a - b);
    return {
      name: lib.name,
      skills: stats.skills,
      positives: rows.length,
      hit1: s['hit@1'],
      ndcg10: s['ndcg@10'],
      setCompat: s.set_compat,
      abstained: abstain,
      negatives: neg,
      queryMsP50: times.length ? times[Math.floor(times.length / 2)] : 0,
    };
  } finally {
    await svc.dispose();
  }
}

const pct = (x: number | null) => (x === null ? '-' : (x * 100).toFixed(1));

async function main(): Promise<void> {
  const dev = parseQueries(readFileSync(values.queries!, 'utf8'), values.queries);
  let libs = [...realSuites(values.realsuites!), ...collections(values.corpus!, dev)];
  // The whole corpus as one library, with every dev request (what `eval` on the corpus reports).
  if (values['whole-corpus']) libs.push({ name: 'corpus (all collections)', root: values.corpus!, queries: dev });
  if (values.only) {
    const only = new Set(values.only.split(','));
    libs = libs.filter((l) => only.has(l.name));
  }
  const results: LibraryResult[] = [];
  for (const lib of libs) {
    const t = performance.now();
    results.push(await evaluate(lib));
    if (!values.quiet) process.stderr.write(`${lib.name}: ${Math.round(performance.now() - t)} ms\n`);
  }
  const lines = [
    `libraries (${values['no-model'] ? 'no model' : 'model'}, ${values['no-rerank'] ? 'no rerank' : 'rerank'})`,
    '',
    '| library | skills | positives | Hit@1 | NDCG@10 | Set-Compat | abstained | no-skill held | boundary held |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...results.map(
      (r) =>
        `| ${r.name} | ${r.skills} | ${r.positives} | ${pct(r.hit1)} | ${pct(r.ndcg10)} | ${pct(r.setCompat)} | ${r.abstained} | ${r.negatives.noSkill.passed}/${r.negatives.noSkill.n} | ${r.negatives.boundary.passed}/${r.negatives.boundary.n} |`,
    ),
  ];
  const mean = (f: (r: LibraryResult) => number) => results.reduce((a, r) => a + f(r), 0) / Math.max(1, results.length);
  const positives = results.reduce((a, r) => a + r.positives, 0);
  lines.push(
    `| **mean over ${results.length}** | | ${positives} | ${pct(mean((r) => r.hit1))} (min ${pct(Math.min(...results.map((r) => r.hit1)))}) | ${pct(mean((r) => r.ndcg10))} | | ${results.reduce((a, r) => a + r.abstained, 0)} | ${results.reduce((a, r) => a + r.negatives.noSkill.passed, 0)}/${results.reduce((a, r) => a + r.negatives.noSkill.n, 0)} | ${results.reduce((a, r) => a + r.negatives.boundary.passed, 0)}/${results.reduce((a, r) => a + r.negatives.boundary.n, 0)} |`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  mkdirSync(path.dirname(values.out!), { recursive: true });
  writeFileSync(values.out!, `${JSON.stringify({ date: new Date().toISOString(), load: os.loadavg()[0], model: !values['no-model'], rerank: !values['no-rerank'], results }, null, 2)}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exitCode = 2;
});
