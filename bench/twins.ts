/**
 * Twins and neighbours: does the pair scan flag a skill an author rewrote in other words (a
 * paraphrased twin, written by hand for this bench: bench/twins/twins.jsonl) as a near-duplicate
 * of the real skill it repeats, and leave two real skills of one domain that do different jobs
 * (bench/twins/neighbours.jsonl) alone? Each collection of ../shared/corpus/skills is its own
 * library: the twin is added to it (as the editor adds a new file), its findings read, and every
 * example request of every finding read is pasted into `route` over the same library to check
 * that it ranks both skills where the finding says (the evidence reproduces).
 *
 *   node esbuild.mjs --bench && node out/bench/twins.js [--split tune|heldout|all] [--no-model]
 *       [--corpus ../shared/corpus/skills] [--out bench/results/twins-<split>.json] [--verbose]
 *       [--twin-share 0.66] (the share of each side's probes that must rank the pair first and second)
 *
 * Tune on `tune`; `heldout` is read once, at the end of the work (bench/twins/README.md).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { PairFinding } from '../src/core/analysis/types';
import { profileSimilarity } from '../src/core/analysis/conflicts';
import { openLibrary } from '../src/node/library';

/** A finding's description similarities and first places, for --verbose. */
function describePair(svc: Awaited<ReturnType<typeof openLibrary>>, f: PairFinding): string {
  const profiles = svc.profiles?.();
  const pa = profiles?.get(f.a);
  const pb = profiles?.get(f.b);
  const sim = pa && pb ? profileSimilarity(pa, pb) : null;
  const firsts = Object.values(f.directions ?? {}).map((d) => `${d.first}/${d.behind}/${d.sent}`).join(' ');
  return `[${f.detail?.kind ?? f.kind} lex ${sim?.lexical.toFixed(2)} dense ${sim?.dense ? sim.similarity.toFixed(2) : '-'} first/behind/sent ${firsts}]`;
}

const { values } = parseArgs({
  options: {
    split: { type: 'string', default: 'tune' },
    corpus: { type: 'string', default: path.resolve('../shared/corpus/skills') },
    data: { type: 'string', default: path.resolve('bench/twins') },
    out: { type: 'string' },
    'no-model': { type: 'boolean' },
    verbose: { type: 'boolean' },
    'twin-share': { type: 'string' },
  },
});

interface Twin {
  id: string;
  split: string;
  collection: string;
  original: string;
  name: string;
  description: string;
  body: string;
}
interface Neighbour {
  id: string;
  split: string;
  collection: string;
  a: string;
  b: string;
  why: string;
}

const readJsonl = <T>(file: string): T[] => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as T);
const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : '-');
const split = values.split!;
const inSplit = (x: { split: string }) => split === 'all' || x.split === split;

/** The SKILL.md text of a twin (its description quoted as YAML). */
function skillText(t: Twin): string {
  return `---\nname: ${t.name}\ndescription: ${JSON.stringify(t.description)}\n---\n\n${t.body.trim()}\n`;
}

const options = values['twin-share'] ? { twinShare: Number(values['twin-share']) } : undefined;
const between = (f: PairFinding, x: string, y: string) => (f.a === x && f.b === y) || (f.a === y && f.b === x);

interface EvidenceCheck {
  query: string;
  said: Record<string, number>;
  routed: Record<string, number>;
}

async function main(): Promise<void> {
  const twins = readJsonl<Twin>(path.join(values.data!, 'twins.jsonl')).filter(inSplit);
  const neighbours = readJsonl<Neighbour>(path.join(values.data!, 'neighbours.jsonl')).filter(inSplit);
  const collections = [...new Set([...twins.map((t) => t.collection), ...neighbours.map((n) => n.collection)])].sort();
  const work = mkdtempSync(path.join(tmpdir(), 'skill-router-twins-'));
  const twinRows: { id: string; collection: string; original: string; twin: string; kinds: string[]; flagged: boolean; unreachable?: boolean }[] = [];
  const neighbourRows: { id: string; collection: string; a: string; b: string; kinds: string[]; flagged: boolean }[] = [];
  const evidence: EvidenceCheck[] = [];
  const failed: EvidenceCheck[] = [];
  const t0 = performance.now();

  // Every example request of `findings`, routed over the same library: both skills where the finding says.
  const reproduce = async (svc: Awaited<ReturnType<typeof openLibrary>>, findings: readonly PairFinding[]) => {
    for (const f of findings) {
      for (const r of f.evidence?.requests ?? []) {
        const routed = await svc.route(r.query, { k: 10, passages: false });
        const ranks: Record<string, number> = {};
        for (const id of Object.keys(r.ranks)) {
          const at = routed.candidates.findIndex((c) => c.skillId === id);
          ranks[id] = at + 1;
        }
        const check = { query: r.query, said: r.ranks, routed: ranks };
        evidence.push(check);
        if (Object.keys(r.ranks).some((id) => r.ranks[id] !== ranks[id])) failed.push(check);
      }
    }
  };

  for (const collection of collections) {
    const root = path.join(work, collection);
    cpSync(path.join(values.corpus!, collection), root, { recursive: true });
    const svc = await openLibrary({ root, noModel: values['no-model'], cacheDir: path.join(work, '.cache', collection) });
    await svc.index();
    process.stderr.write(`${collection}: ${svc.skills().length} skills (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);

    for (const n of neighbours.filter((x) => x.collection === collection)) {
      const findings = (await svc.pairFindings(n.a, options ? { options } : undefined)).filter((f) => between(f, n.a, n.b));
      await reproduce(svc, findings);
      neighbourRows.push({ id: n.id, collection, a: n.a, b: n.b, kinds: findings.map((f) => f.kind), flagged: findings.length > 0 });
      if (values.verbose) for (const f of findings) process.stderr.write(`  ${n.id} ${f.kind}: ${describePair(svc, f)} ${f.explanation}\n`);
    }

    for (const t of twins.filter((x) => x.collection === collection)) {
      const ref = { id: t.name, path: `${t.name}/SKILL.md`, folderName: t.name };
      mkdirSync(path.join(root, t.name), { recursive: true });
      const text = skillText(t);
      writeFileSync(path.join(root, ref.path), text);
      await svc.updateFile(ref, new TextEncoder().encode(text));
      const all = await svc.pairFindings(t.name, options ? { options } : undefined);
      const findings = all.filter((f) => between(f, t.name, t.original));
      await reproduce(svc, all);
      // The twin's finding must be a near-duplicate (or a copy): a conflict tells the author to set them apart.
      const flagged = findings.some((f) => f.kind === 'near-duplicate' || f.kind === 'copy');
      twinRows.push({ id: t.id, collection, original: t.original, twin: t.name, kinds: findings.map((f) => f.kind), flagged });
      if (values.verbose) {
        process.stderr.write(`  ${t.id} ${t.original} ~ ${t.name}: ${flagged ? 'flagged' : 'missed'} ${findings.map((f) => f.kind).join(',')}\n`);
        for (const f of all) process.stderr.write(`     ${f.kind} ${f.a} | ${f.b}: ${describePair(svc, f)} ${f.explanation.slice(0, 240)}\n`);
      }
      await svc.updateFile(ref, null);
      rmSync(path.join(root, t.name), { recursive: true, force: true });
    }
    await svc.dispose();
    rmSync(root, { recursive: true, force: true });
  }
  rmSync(work, { recursive: true, force: true });

  const flaggedTwins = twinRows.filter((r) => r.flagged).length;
  const flaggedNeighbours = neighbourRows.filter((r) => r.flagged).length;
  const reproduced = evidence.length - failed.length;
  const result = {
    split,
    model: values['no-model'] ? 'none' : 'default',
    twins: { n: twinRows.length, flagged: flaggedTwins },
    neighbours: { n: neighbourRows.length, flagged: flaggedNeighbours },
    evidence: { n: evidence.length, reproduced },
    seconds: Math.round((performance.now() - t0) / 1000),
    load: loadavg()[0],
    twinRows,
    neighbourRows,
    failed,
  };
  const out = values.out ?? path.resolve(`bench/results/twins-${split}${values['no-model'] ? '-nomodel' : ''}.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 1)}\n`);
  process.stdout.write(
    `| split | twins flagged | neighbours flagged | evidence reproduces in route |\n|---|--:|--:|--:|\n` +
      `| ${split} | ${flaggedTwins} of ${twinRows.length} (${pct(flaggedTwins, twinRows.length)}) | ${flaggedNeighbours} of ${neighbourRows.length} (${pct(flaggedNeighbours, neighbourRows.length)}) | ${reproduced} of ${evidence.length} (${pct(reproduced, evidence.length)}) |\n` +
      `wrote ${path.relative(process.cwd(), out)}\n`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
