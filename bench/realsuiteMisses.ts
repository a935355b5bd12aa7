/**
 * Where routing misses go on the real suites (bench/realsuites): per library, its hub skill (the
 * one whose SKILL.md names the most other skills of the library, when it names at least half of
 * them, like a router or index skill), how many positives miss at rank 1, how many of those misses
 * rank the hub first, and how the "must not trigger x" negatives fare when judged the authors' way
 * (held when x is not the first relevant answer), next to the bench's stricter no-skill reading.
 * Routes the way bench/libraries.ts does (k 20, rerank unless --no-rerank, no passages).
 *
 *   node esbuild.mjs --bench && node out/bench/realsuiteMisses.js [--realsuites bench/realsuites] [--only a,b] [--no-model]
 *     [--out bench/results/realsuite-misses.json]
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { abstained, creditedHits } from '../src/core/eval/metrics';
import { openLibrary } from '../src/node/library';
import { realSuites, type DevLibrary } from './devLibraries';

const { values } = parseArgs({
  options: {
    realsuites: { type: 'string', default: 'bench/realsuites' },
    only: { type: 'string' },
    'no-model': { type: 'boolean' },
    'no-rerank': { type: 'boolean' },
    out: { type: 'string', default: 'bench/results/realsuite-misses.json' },
  },
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The skill naming the most other skills in its SKILL.md, if it names at least half of them (and
 * two). Skills cite each other by front-matter `name`, which can differ from the folder id (aep's
 * `build/` is `aep-build`), so the name is what is looked for.
 */
function findHub(root: string, ids: readonly string[]): { id: string; names: number } | undefined {
  const texts = new Map(ids.map((id) => [id, readFileSync(path.join(root, id, 'SKILL.md'), 'utf8')]));
  const nameOf = (id: string) => /^name:\s*["']?([^"'\n]+?)["']?\s*$/m.exec(texts.get(id)!)?.[1] ?? id;
  const cites = new Map(ids.map((id) => [id, new RegExp(`(^|[^A-Za-z0-9_-])${escape(nameOf(id))}(?![A-Za-z0-9_-])`)]));
  let best: { id: string; names: number } | undefined;
  for (const id of ids) {
    const text = texts.get(id)!;
    const names = ids.filter((other) => other !== id && cites.get(other)!.test(text)).length;
    if (!best || names > best.names) best = { id, names };
  }
  return best && best.names >= 2 && best.names >= (ids.length - 1) / 2 ? best : undefined;
}

interface Row {
  name: string;
  skills: number;
  hub: string | null;
  hubNames: number;
  positives: number;
  misses: number;
  missesHubFirst: number;
  positivesForHub: number;
  abstained: number;
  notOnly: { n: number; heldAuthors: number; heldNoSkill: number };
  missExamples: { id: string; want: string[]; got: string | null }[];
}

async function measure(lib: DevLibrary): Promise<Row> {
  const svc = await openLibrary({ root: lib.root, noModel: values['no-model'] });
  try {
    const stats = await svc.index();
    // Real suites are flat (library/<id>/SKILL.md), so the folder names are the skill ids.
    const hub = findHub(lib.root, readdirSync(lib.root).filter((d) => existsSync(path.join(lib.root, d, 'SKILL.md'))));
    const row: Row = {
      name: lib.name,
      skills: stats.skills,
      hub: hub?.id ?? null,
      hubNames: hub?.names ?? 0,
      positives: 0,
      misses: 0,
      missesHubFirst: 0,
      positivesForHub: 0,
      abstained: 0,
      notOnly: { n: 0, heldAuthors: 0, heldNoSkill: 0 },
      missExamples: [],
    };
    for (const q of lib.queries) {
      const r = await svc.route(q.query, { k: 20, rerank: !values['no-rerank'], passages: false });
      const top = r.candidates.map((c) => c.skillId);
      const answer = { match: r.match, results: r.candidates.map((c) => ({ id: c.skillId, relevant: c.relevant })) };
      const first = r.match === 'none' ? undefined : answer.results.find((c) => c.relevant !== false);
      if (q.skillIds.length) {
        row.positives++;
        if (hub && q.skillIds.includes(hub.id)) row.positivesForHub++;
        if (abstained(answer)) row.abstained++;
        if (!creditedHits(top, { required: q.skillIds, alsoOk: q.alsoOk })[0]) {
          row.misses++;
          if (hub && top[0] === hub.id) row.missesHubFirst++;
          row.missExamples.push({ id: q.id ?? q.query, want: q.skillIds, got: top[0] ?? null });
        }
      } else if (q.not.length) {
        row.notOnly.n++;
        if (!first || !q.not.includes(first.id)) row.notOnly.heldAuthors++;
        if (!first) row.notOnly.heldNoSkill++;
      }
    }
    return row;
  } finally {
    await svc.dispose();
  }
}

async function main(): Promise<void> {
  let libs = realSuites(values.realsuites!);
  if (values.only) {
    const only = new Set(values.only.split(','));
    libs = libs.filter((l) => only.has(l.name));
  }
  const rows: Row[] = [];
  for (const lib of libs) rows.push(await measure(lib));
  const lines = [
    `realsuite misses (${values['no-model'] ? 'no model' : 'model'}, ${values['no-rerank'] ? 'no rerank' : 'rerank'})`,
    '',
    '| library | skills | hub (names n others) | positives (for hub) | misses @1 | misses with hub first | abstained | `not: [x]`-only negatives held: authors / no-skill |',
    '|---|--:|---|--:|--:|--:|--:|--:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.skills} | ${r.hub ? `${r.hub} (${r.hubNames})` : '-'} | ${r.positives} (${r.positivesForHub}) | ${r.misses} | ${r.hub ? r.missesHubFirst : '-'} | ${r.abstained} | ${r.notOnly.n ? `${r.notOnly.heldAuthors}/${r.notOnly.n} / ${r.notOnly.heldNoSkill}/${r.notOnly.n}` : '-'} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  mkdirSync(path.dirname(values.out!), { recursive: true });
  writeFileSync(values.out!, `${JSON.stringify({ date: new Date().toISOString(), model: !values['no-model'], rerank: !values['no-rerank'], rows }, null, 2)}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exitCode = 2;
});
