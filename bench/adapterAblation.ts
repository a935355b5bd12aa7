/**
 * The embedding issue's ablation: dense alone, words alone, fused first stage and the full
 * pipeline, with and without a trained query adapter (bench/trainAdapter.ts), on the dev requests,
 * the dotnet real suite and the peer suite; and the full pipeline without the model. Each row is
 * one `skill-router eval --json` run (whole CLI), so the figures are the CLI's own.
 *
 *   node esbuild.mjs --bench && node out/bench/adapterAblation.js --adapter DIR [--out bench/results/adapter.json]
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { adapter: { type: 'string' }, out: { type: 'string', default: 'bench/results/adapter.json' } } });
if (!values.adapter) throw new Error('--adapter DIR: the trained adapter to compare (bench/trainAdapter.ts --out DIR)');
const ROOT = path.resolve(__dirname, '../..');
const SUITES: Record<string, [string, string]> = {
  dev: ['../shared/corpus/skills', '../shared/queries/dev.jsonl'],
  dotnet: ['../shared/realsuites/dotnet/library', '../shared/realsuites/dotnet/pos.jsonl'],
  peer: ['../shared/peer/skillrouter-core/skills', '../shared/peer/skillrouter-core/queries.jsonl'],
};
const MODES: [string, string[]][] = [
  ['dense alone', ['--only', 'dense']],
  ['words alone', ['--only', 'words']],
  ['fused first stage', ['--no-rerank']],
  ['full pipeline', []],
];
const pct = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(1000 * v) / 10);

function evalRow(suite: string, mode: string, flags: string[]) {
  const [lib, queries] = SUITES[suite];
  const args = ['bin/skill-router.js', 'eval', '--library', path.resolve(ROOT, lib), '--queries', path.resolve(ROOT, queries), '--json', '--quiet', ...flags];
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`eval ${flags.join(' ')} on ${suite}: ${r.stderr}`);
  const o = JSON.parse(r.stdout).overall;
  const row = { suite, mode, flags: flags.join(' '), 'hit@1': pct(o['hit@1']), 'ndcg@10': pct(o['ndcg@10']), set_compat: pct(o.set_compat) };
  process.stderr.write(`${JSON.stringify(row)}\n`);
  return row;
}

const rows = [];
const started = loadavg()[0];
for (const suite of Object.keys(SUITES)) {
  for (const [mode, flags] of MODES) {
    rows.push(evalRow(suite, mode, [...flags, '--no-adapter']));
    if (mode !== 'words alone') rows.push(evalRow(suite, `${mode} + adapter`, [...flags, '--adapter', path.resolve(values.adapter)]));
  }
  rows.push(evalRow(suite, 'full pipeline, no model', ['--no-model']));
}
console.log('| suite | mode | Hit@1 | NDCG@10 | Set-Compat |\n|---|---|--:|--:|--:|');
for (const r of rows) console.log(`| ${r.suite} | ${r.mode} | ${r['hit@1']} | ${r['ndcg@10']} | ${r.set_compat ?? '-'} |`);
writeFileSync(path.resolve(ROOT, values.out!), `${JSON.stringify({ adapter: values.adapter, load: { start: started, end: loadavg()[0] }, rows }, null, 2)}\n`);
