/**
 * `skill-router diff` on a real collection: the collection committed to a fresh git repository,
 * then three edits (a paraphrased twin of one skill added, another's description trimmed to its
 * first sentence, a third renamed), and the diff against HEAD timed cold (empty cache) and warm
 * (the same diff again). Writes bench/results/diff.json.
 *
 *   node esbuild.mjs --bench && node out/bench/diff.js [--collection anthropics__knowledge-work-plugins]
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { RoutingDiff } from '../src/cli/diff';

const CLI = path.resolve('dist/cli.js');

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: path.resolve('../shared/corpus/skills') },
    collection: { type: 'string', default: 'anthropics__knowledge-work-plugins' },
    twin: { type: 'string', default: 't13' },
    trim: { type: 'string', default: 'kb-article' },
    rename: { type: 'string', default: 'draft-content' },
    out: { type: 'string', default: path.resolve('bench/results/diff.json') },
  },
});

/** One `skill-router diff` as a user runs it: a fresh process of the built CLI. */
function run(dir: string): { ms: number; diff: RoutingDiff } {
  const t0 = performance.now();
  let stdout = '';
  try {
    stdout = execFileSync(process.execPath, [CLI, 'diff', '--base', 'HEAD', '--library', 'lib', '--cache', path.join(dir, '.cache'), '--format', 'json', '--quiet'], { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  } catch (err) {
    // Exit 1: a test broke or too much moved; the report is on stdout all the same.
    stdout = (err as { stdout?: string }).stdout ?? '';
    if ((err as { status?: number }).status !== 1) throw err;
  }
  return { ms: performance.now() - t0, diff: JSON.parse(stdout) as RoutingDiff };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'skill-router-diff-bench-'));
  const lib = path.join(dir, 'lib');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=b@example.com', '-c', 'user.name=bench', ...args], { cwd: dir, stdio: 'pipe' });
  try {
    cpSync(path.join(values.corpus!, values.collection!), lib, { recursive: true });
    writeFileSync(path.join(dir, '.gitignore'), '.cache/\n');
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'base');
    // 1. A paraphrased twin (bench/twins) of one of the collection's skills.
    const twin = readFileSync('bench/twins/twins.jsonl', 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: string; collection: string; name: string; description: string; body: string }).find((t) => t.id === values.twin)!;
    if (twin.collection !== values.collection) throw new Error(`${values.twin} is a twin in ${twin.collection}`);
    mkdirSync(path.join(lib, twin.name));
    writeFileSync(path.join(lib, twin.name, 'SKILL.md'), `---\nname: ${twin.name}\ndescription: ${JSON.stringify(twin.description)}\n---\n\n${twin.body}\n`);
    // 2. A description trimmed to its first sentence.
    const trimmed = path.join(lib, values.trim!, 'SKILL.md');
    const text = readFileSync(trimmed, 'utf8');
    writeFileSync(trimmed, text.replace(/^description:\s*(.*)$/m, (_, d: string) => `description: ${d.replace(/^["']|["']$/g, '').split(/(?<=\.)\s/)[0]}`));
    // 3. A skill renamed (folder and name).
    const renamed = `${values.rename}-notes`;
    renameSync(path.join(lib, values.rename!), path.join(lib, renamed));
    const file = path.join(lib, renamed, 'SKILL.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace(new RegExp(`^name:\\s*${values.rename}\\s*$`, 'm'), `name: ${renamed}`));

    const cold = run(dir);
    const warm = run(dir);
    const d = warm.diff;
    const result = {
      collection: values.collection,
      skills: d.skills,
      requests: d.requests,
      moved: d.moved.length,
      bySkill: d.bySkill.map((k) => ({ id: k.id, before: k.before, after: k.after })),
      newFindings: d.findings.added.map((f) => `${f.kind} ${f.a} | ${f.b}`),
      coldMs: Math.round(cold.ms),
      warmMs: Math.round(warm.ms),
      load: loadavg()[0],
    };
    writeFileSync(values.out!, `${JSON.stringify(result, null, 1)}\n`);
    process.stdout.write(`${JSON.stringify(result, null, 1)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
