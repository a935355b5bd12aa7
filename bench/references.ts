/**
 * References between skills on the real corpus: every collection of ../shared/corpus/skills is
 * one library. Counts the references found (and how many skills name how many others), the
 * `skill.broken-reference` and `file.broken-link` findings, and prints a fixed-seed sample of
 * the findings with their lines, to be read and judged by hand (bench/results/references.md).
 *
 *   node out/bench/references.js [--corpus ../shared/corpus/skills] [--sample 30] [--seed 47]
 *     [--code skill.broken-reference | file.broken-link | references]   (what the sample is drawn from)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { LibraryNames, referenceFindings, referenceGraph, resolvedReferences } from '../src/core/analysis/references';
import { decodeSkillBytes, parseSkill } from '../src/core/parse/skillDoc';
import { prng } from '../src/core/random';
import type { Finding, SkillDoc } from '../src/core/types';
import { SKIP_DIRS, toPosix } from '../src/node/fsWorkspace';
import { libraryFileExists } from '../src/node/skillFolderFiles';

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

function skillFiles(root: string, dir = root, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(e.name)) continue;
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) skillFiles(root, abs, out);
    else if (e.name === 'SKILL.md' && statSync(abs).size < 1024 * 1024) out.push(abs);
  }
  return out;
}

const corpus = path.resolve(flag('--corpus', '../shared/corpus/skills'));
const sampleSize = Number(flag('--sample', '30'));
const seed = Number(flag('--seed', '47'));
const sampled = flag('--code', 'skill.broken-reference');

let skills = 0;
let scanMs = 0;
let references = 0;
let referencing = 0;
let hubs = 0;
const findings: { collection: string; doc: SkillDoc; f: Finding; line: string }[] = [];
const found: { collection: string; doc: SkillDoc; f: Finding; line: string }[] = [];
const forms = new Map<string, number>();
for (const collection of readdirSync(corpus).sort()) {
  const root = path.join(corpus, collection);
  if (!statSync(root).isDirectory()) continue;
  const docs = skillFiles(root).map((file) => {
    const rel = toPosix(path.relative(root, file));
    const id = rel.replace(/\/?SKILL\.md$/, '') || '.';
    return parseSkill({ id, path: rel, folderName: path.basename(path.dirname(file)) }, decodeSkillBytes(new Uint8Array(readFileSync(file))).text, ['spec']);
  });
  skills += docs.length;
  const names = new LibraryNames(docs);
  const exists = process.argv.includes("--no-files") ? undefined : libraryFileExists(root);
  const graph = referenceGraph(docs);
  for (const d of docs) {
    const refs = resolvedReferences(d, names).filter((r) => !r.toIds.includes(d.id));
    references += refs.length;
    for (const r of refs) forms.set(r.form, (forms.get(r.form) ?? 0) + 1);
    if (graph.outgoing.get(d.id)!.size) referencing++;
    if (docs.length >= 5 && graph.outgoing.get(d.id)!.size >= (docs.length - 1) / 2) hubs++;
    const lines = readFileSync(path.join(root, d.path), 'utf8').split('\n');
    for (const r of refs) found.push({ collection, doc: d, f: { code: `reference (${r.form})`, severity: 'info', message: `names ${r.toIds.join(', ')}`, range: r.range }, line: lines[r.range.start.line] ?? '' });
    const t0 = performance.now();
    const own = referenceFindings(d, names, exists);
    scanMs += performance.now() - t0;
    for (const f of own) findings.push({ collection, doc: d, f, line: lines[f.range.start.line] ?? '' });
  }
}

console.log(`scan time: referenceFindings over every skill ${scanMs.toFixed(0)} ms (${((scanMs / skills) * 1000).toFixed(0)} µs a skill)`);
const count = (code: string) => findings.filter((x) => x.f.code === code).length;
console.log(`corpus ${corpus}: ${skills} skills`);
console.log(`references to other skills of the same collection: ${references} (${[...forms].map(([k, v]) => `${k} ${v}`).join(', ')}); skills naming at least one other: ${referencing}; hubs (name half their library or more, libraries of 5+): ${hubs}`);
const typos = findings.filter((x) => x.f.code === 'skill.broken-reference' && x.f.suggestion).length;
console.log(`skill.broken-reference: ${count('skill.broken-reference')} (${typos} with "did you mean", warning; the rest information), file.broken-link: ${count('file.broken-link')}`);
const rand = prng(seed);
const pool = sampled === 'references' ? found : findings.filter((x) => x.f.code === sampled);
for (let i = pool.length - 1; i > 0; i--) {
  const j = Math.floor(rand() * (i + 1));
  [pool[i], pool[j]] = [pool[j], pool[i]];
}
console.log(`\nsample of ${Math.min(sampleSize, pool.length)} ${sampled} (seed ${seed}):`);
pool.slice(0, sampleSize).forEach((x, i) => {
  console.log(`${i + 1}. ${x.collection}/${x.doc.path}:${x.f.range.start.line + 1} ${x.f.code}: ${x.f.message}\n   | ${x.line.trim().slice(0, 220)}`);
});
