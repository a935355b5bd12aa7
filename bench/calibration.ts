/**
 * What the match says on real libraries (issue 45: "relevance must mean the same at 5, 50 and
 * 5,000 skills"): per library of bench/realsuites (and the shared dotnet), of the authors'
 * requests whose right skill the router ranks first, how many are answered `strong` (a clear
 * match), `weak` ("no skill clearly fits") or `none`; how many of their requests no skill should
 * answer get `none`; and how many requests of the other libraries given (off-library: written for
 * skills this library does not have, 15 from each) get `none`; and how many everyday requests no
 * skill library is for (bench/everyday.jsonl: a joke, the weather, red wine on a carpet, in English
 * and Chinese; written for this bench, never tuned on) get `none`. Routes the way
 * bench/libraries.ts does. Prints a Markdown table; writes bench/results/calibration.json (or
 * --out). Not pass/fail.
 *
 *   node esbuild.mjs --bench && node out/bench/calibration.js --only a,b,c [--realsuites bench/realsuites] [--no-model] [--out FILE] [--everyday FILE]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { creditedHits } from '../src/core/eval/metrics';
import { openLibrary } from '../src/node/library';
import { realSuites } from './devLibraries';
import { offLibrarySample } from './realLists';

const { values } = parseArgs({
  options: {
    realsuites: { type: 'string', default: path.resolve('bench/realsuites') },
    dotnet: { type: 'string', default: path.resolve('../shared/realsuites') },
    only: { type: 'string' },
    'no-model': { type: 'boolean' },
    out: { type: 'string', default: 'bench/results/calibration.json' },
    everyday: { type: 'string', default: path.resolve('bench/everyday.jsonl') },
  },
});

interface Row {
  library: string;
  rightFirst: number;
  strong: number;
  weak: number;
  none: number;
  noSkill: number;
  noSkillNone: number;
  off: number;
  offNone: number;
  everyday: number;
  everydayNone: number;
}

async function main(): Promise<void> {
  const only = new Set((values.only ?? '').split(',').filter(Boolean));
  const libs = [...realSuites(values.realsuites!), ...realSuites(values.dotnet!)].filter((l) => !only.size || only.has(l.name));
  if (!libs.length) throw new Error('no library: give --only names found under --realsuites (or dotnet)');
  const off = offLibrarySample(libs);
  const everyday = readFileSync(values.everyday!, 'utf8').split('\n').filter((l) => l.trim()).map((l) => (JSON.parse(l) as { query: string }).query);
  const rows: Row[] = [];
  for (const lib of libs) {
    const svc = await openLibrary({ root: lib.root, noModel: values['no-model'] });
    try {
      await svc.index();
      const row: Row = { library: lib.name, rightFirst: 0, strong: 0, weak: 0, none: 0, noSkill: 0, noSkillNone: 0, off: 0, offNone: 0, everyday: 0, everydayNone: 0 };
      for (const q of lib.queries) {
        if (!q.skillIds.length && !q.noSkill) continue;
        const r = await svc.route(q.query, { k: 20, passages: false });
        if (q.skillIds.length) {
          if (!creditedHits(r.candidates.map((c) => c.skillId), { required: q.skillIds, alsoOk: q.alsoOk })[0]) continue;
          row.rightFirst++;
          if (r.match === 'strong') row.strong++;
          else if (r.match === 'weak') row.weak++;
          else if (r.match === 'none') row.none++;
        } else {
          row.noSkill++;
          if (r.match === 'none') row.noSkillNone++;
        }
      }
      for (const other of libs) {
        if (other === lib) continue;
        for (const query of off.get(other.name)!) {
          const r = await svc.route(query, { k: 20, passages: false });
          row.off++;
          if (r.match === 'none') row.offNone++;
        }
      }
      for (const query of everyday) {
        const r = await svc.route(query, { k: 20, passages: false });
        row.everyday++;
        if (r.match === 'none') row.everydayNone++;
      }
      rows.push(row);
      process.stderr.write(`${lib.name}: done\n`);
    } finally {
      await svc.dispose();
    }
  }
  const sum = (f: (r: Row) => number) => rows.reduce((a, r) => a + f(r), 0);
  const lines = [
    `calibration (${values['no-model'] ? 'no model' : 'model'})`,
    '',
    '| library | right first | strong | weak | none | no-skill answered none | off-library answered none | everyday answered none |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
    ...rows.map((r) => `| ${r.library} | ${r.rightFirst} | ${r.strong} | ${r.weak} | ${r.none} | ${r.noSkillNone}/${r.noSkill} | ${r.offNone}/${r.off} | ${r.everydayNone}/${r.everyday} |`),
    `| **all** | ${sum((r) => r.rightFirst)} | ${sum((r) => r.strong)} | ${sum((r) => r.weak)} | ${sum((r) => r.none)} | ${sum((r) => r.noSkillNone)}/${sum((r) => r.noSkill)} | ${sum((r) => r.offNone)}/${sum((r) => r.off)} | ${sum((r) => r.everydayNone)}/${sum((r) => r.everyday)} |`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  mkdirSync(path.dirname(values.out!), { recursive: true });
  writeFileSync(values.out!, `${JSON.stringify({ date: new Date().toISOString(), model: !values['no-model'], rows }, null, 2)}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
