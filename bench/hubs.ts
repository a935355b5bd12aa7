/**
 * Hub skills: does a skill that routes to every other skill of a library take their requests?
 * Each real library (its authors' routing tests, bench/realsuites and ../shared/realsuites) is
 * copied and a hub skill is written into it, as authors write them, in one of three styles:
 *
 *   list      the description lists every sibling with the first clause of its description
 *             ("Use csv-cleaner for cleaning messy CSV files; ..."), the body a routing table;
 *   always    "<Topic> automation hub routing requests to specialized skills. ALWAYS use this
 *             skill when: (1) any <topic>-related request, ..." and a routing table;
 *   sections  the "always" description, and a body with one section per sibling, headed by its
 *             name, holding its description sentence by sentence.
 *
 * Every positive of the library is routed with and without the hub; reported per library and
 * style: Hit@1 without and with the hub, and how many requests the hub takes the first place of.
 * The hub is never a right answer here (the authors' tests predate it). Not pass/fail; writes
 * bench/results/hubs.json (or --out).
 *
 *   node esbuild.mjs --bench && node out/bench/hubs.js [--realsuites DIR] [--only a,b] [--styles list,always,sections] [--no-model]
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { openLibrary } from '../src/node/library';
import type { SkillDoc } from '../src/core/types';
import { realSuites, type DevLibrary } from './devLibraries';

const { values } = parseArgs({
  options: {
    realsuites: { type: 'string', default: path.resolve('bench/realsuites') },
    shared: { type: 'string', default: path.resolve('../shared/realsuites') },
    only: { type: 'string', default: 'alicoder,decisions,mcu,git-skills,spring,finance-writing,dotnet' },
    styles: { type: 'string', default: 'list,always,sections' },
    'no-model': { type: 'boolean' },
    out: { type: 'string', default: 'bench/results/hubs.json' },
  },
});

type Style = 'list' | 'always' | 'sections';

/** The topic a hub of each library names (what its authors' requests are about). */
const TOPIC: Record<string, string> = {
  alicoder: 'coding agent',
  decisions: 'decision making',
  mcu: 'MCU firmware',
  'git-skills': 'Git',
  spring: 'Spring',
  'finance-writing': 'finance paper writing',
  dotnet: '.NET',
};

/** The first clause of a description, without a "Use this skill when" opener, at most ~110 characters. */
function firstClause(description: string): string {
  const first = description.replace(/\s+/g, ' ').split(/(?<=[.!?。])\s|;|。/)[0].replace(/^Use (?:this skill )?(?:when|for|to)\s+/i, '').trim();
  return first.length > 110 ? first.slice(0, 110).replace(/\s\S*$/, '') : first;
}

function hubSkill(name: string, topic: string, siblings: readonly SkillDoc[], style: Style): string {
  const table = siblings.map((d) => `| ${firstClause(d.description)} | \`${d.name}\` |`).join('\n');
  const description =
    style === 'list'
      ? `${topic} assistant hub that routes requests to the specialised skills. Use ${siblings.map((d) => `${d.name} for ${firstClause(d.description).toLowerCase()}`).join('; ')}.`
      : `${topic} automation hub routing requests to specialized skills. ALWAYS use this skill when: (1) any ${topic}-related request, (2) ambiguous requests that need several skills, (3) multi-step ${topic} workflows, (4) the user is unsure which skill applies.`;
  const body =
    style === 'sections'
      ? `## Skills\n\n${siblings.map((d) => `### ${d.name}\n\n${d.description.replace(/\s+/g, ' ').split(/(?<=[.!?。;])\s+/).map((x) => `- ${x}`).join('\n')}\n`).join('\n')}`
      : `## Quick reference\n\n| I want to... | Use this skill |\n|---|---|\n${table}\n`;
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n# ${topic} assistant\n\nThis hub routes requests to the specialised skills below.\n\n${body}\n## Multi-step work\n\nWhen a request spans several areas, run the skills in order and report what each did.\n`;
}

interface Row {
  library: string;
  style: Style;
  positives: number;
  hit1Without: number;
  hit1With: number;
  hubFirst: number;
}

async function hit1(root: string, lib: DevLibrary, hub?: string): Promise<{ hits: number; hubFirst: number; n: number; skills: SkillDoc[] }> {
  const svc = await openLibrary({ root, noModel: values['no-model'] });
  try {
    await svc.index();
    let hits = 0;
    let hubFirst = 0;
    let n = 0;
    for (const q of lib.queries) {
      if (!q.skillIds.length) continue;
      n++;
      const top = (await svc.route(q.query, { k: 20, passages: false })).candidates[0]?.skillId;
      if (top !== undefined && (q.skillIds.includes(top) || q.alsoOk.includes(top))) hits++;
      if (hub !== undefined && top === hub) hubFirst++;
    }
    return { hits, hubFirst, n, skills: svc.skills().slice() };
  } finally {
    await svc.dispose();
  }
}

async function main(): Promise<void> {
  const only = new Set(values.only!.split(','));
  const libs = [...realSuites(values.realsuites!), ...realSuites(values.shared!)].filter((l) => only.has(l.name));
  const styles = values.styles!.split(',') as Style[];
  const work = mkdtempSync(path.join(os.tmpdir(), 'skill-router-hubs-'));
  const rows: Row[] = [];
  try {
    for (const lib of libs) {
      const base = await hit1(lib.root, lib);
      const siblings = base.skills;
      const hub = `${lib.name}-assistant`;
      for (const style of styles) {
        const root = path.join(work, `${lib.name}-${style}`);
        cpSync(lib.root, root, { recursive: true });
        mkdirSync(path.join(root, hub), { recursive: true });
        writeFileSync(path.join(root, hub, 'SKILL.md'), hubSkill(hub, TOPIC[lib.name] ?? lib.name, siblings, style));
        const withHub = await hit1(root, lib, hub);
        rows.push({ library: lib.name, style, positives: base.n, hit1Without: base.hits / base.n, hit1With: withHub.hits / withHub.n, hubFirst: withHub.hubFirst });
        process.stderr.write(`${lib.name} ${style}: hub first for ${withHub.hubFirst} of ${base.n}\n`);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const pct = (x: number) => (x * 100).toFixed(1);
  const lines = [
    `hubs written into real libraries (${values['no-model'] ? 'no model' : 'model'})`,
    '',
    '| library | requests | Hit@1 without a hub | ' + styles.map((s) => `${s}: Hit@1, hub first`).join(' | ') + ' |',
    '|---|--:|--:|' + styles.map(() => '--:|').join(''),
  ];
  for (const lib of libs) {
    const mine = rows.filter((r) => r.library === lib.name);
    if (!mine.length) continue;
    lines.push(`| ${lib.name} | ${mine[0].positives} | ${pct(mine[0].hit1Without)} | ${styles.map((s) => mine.find((r) => r.style === s)).map((r) => (r ? `${pct(r.hit1With)}, ${r.hubFirst}` : '-')).join(' | ')} |`);
  }
  const total = (s: Style) => rows.filter((r) => r.style === s);
  const n = rows.filter((r) => r.style === styles[0]).reduce((a, r) => a + r.positives, 0);
  const mean = (xs: Row[], f: (r: Row) => number) => xs.reduce((a, r) => a + f(r), 0) / Math.max(1, xs.length);
  lines.push(
    `| **all** (mean Hit@1) | ${n} | ${pct(mean(total(styles[0]), (r) => r.hit1Without))} | ${styles.map((s) => `${pct(mean(total(s), (r) => r.hit1With))}, ${total(s).reduce((a, r) => a + r.hubFirst, 0)}`).join(' | ')} |`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  mkdirSync(path.dirname(values.out!), { recursive: true });
  writeFileSync(values.out!, `${JSON.stringify({ date: new Date().toISOString(), model: !values['no-model'], rows }, null, 2)}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exitCode = 2;
});
