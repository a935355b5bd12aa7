/**
 * The warm paths of issue 24, each timed as a whole CLI process (`node bin/skill-router.js ...`)
 * on a library (default: the 2,817-skill corpus) whose caches are warm: `index` (the warm
 * reopen), one `route`, `validate`, `check`, and `check --changed-only` with one staged skill.
 * Median wall time of --runs runs and the peak RSS of each run (`/usr/bin/time -v` when present,
 * else the child's `resourceUsage().maxRSS`), against the targets. Prints a Markdown table
 * and writes bench/results/warmPaths.json with the load average. Never pass/fail.
 *
 *   node esbuild.mjs --bench && node out/bench/warmPaths.js [--library DIR] [--runs 3] [--cache DIR]
 *     [--only index,route,validate,check,changed] [--request "..."] [--cpu-prof DIR]
 *
 * The caches live in --cache (default: <tmp>/skill-router-bench-warm, seeded from the user cache
 * of the library when that exists), so other jobs sharing the user cache cannot change what is
 * measured. `check --changed-only` needs a git repository: the library is copied into one under
 * the cache folder once, with its own cache (parsed skills are keyed by file stamp, so two roots
 * must not share one), one SKILL.md is edited and staged.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultCacheDir } from '../src/node/library';

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'bin/skill-router.js');

const { values } = parseArgs({
  options: {
    library: { type: 'string', default: path.resolve(ROOT, '../shared/corpus/skills') },
    runs: { type: 'string', default: '3' },
    cache: { type: 'string', default: path.join(tmpdir(), 'skill-router-bench-warm') },
    only: { type: 'string' },
    request: { type: 'string', default: 'extract the text and tables from a scanned PDF invoice' },
    out: { type: 'string', default: path.join(ROOT, 'bench/results/warmPaths.json') },
    /** Writes a V8 CPU profile of each timed process to this folder. */
    'cpu-prof': { type: 'string' },
  },
});

const library = path.resolve(values.library!);
const runs = Math.max(1, Number(values.runs));
const cacheBase = path.resolve(values.cache!);
const only = values.only ? new Set(values.only.split(',')) : null;
const loadNow = () => loadavg().map((x) => Number(x.toFixed(2)));
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
/** Run with `node -e` before the CLI: prints the process's peak RSS to stderr as it exits. */
const REPORT_RSS = [
  "process.on('exit', () => process.stderr.write('SKILL_ROUTER_MAXRSS_KB=' + process.resourceUsage().maxRSS + '\\n'));",
  "require(process.argv[1]);",
].join(' ');

interface Run {
  wallS: number;
  peakMb: number | null;
  code: number | null;
}

/** One CLI process: wall time and peak RSS. */
function runCli(args: string[], cwd: string): Promise<Run & { stdout: string; stderr: string }> {
  const nodeArgs = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values['cpu-prof'])}`] : [];
  // Without GNU time the child reports its own high-water mark as it exits.
  if (!TIME) nodeArgs.push('-e', REPORT_RSS);
  const argv = [...nodeArgs, CLI, ...args, '--quiet'];
  const [cmd, cmdArgs] = TIME ? [TIME, ['-v', process.execPath, ...argv]] : [process.execPath, argv];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, cmdArgs, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      const wallS = (performance.now() - t0) / 1000;
      const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      let kb = m ? Number(m[1]) : NaN;
      if (!m) kb = Number(/^SKILL_ROUTER_MAXRSS_KB=(\d+)$/m.exec(stderr)?.[1]);
      resolve({ wallS, peakMb: Number.isFinite(kb) ? Math.round(kb / 1024) : null, code, stdout, stderr });
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

interface Path {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  /** The target, and how to judge it from the medians. */
  target: string;
  met: (row: { wallS: number; peakMb: number | null }, rows: Map<string, { wallS: number }>) => boolean | null;
}

/** A cache folder for `root`, seeded once from the user cache of `seedFrom`. */
function seededCache(dir: string, seedFrom: string): string {
  if (!existsSync(dir)) {
    const user = defaultCacheDir(seedFrom);
    if (existsSync(user)) cpSync(user, dir, { recursive: true, preserveTimestamps: true });
    else mkdirSync(dir, { recursive: true });
  }
  return dir;
}

/**
 * A git repository holding a copy of the library, with one SKILL.md edited and staged; made once
 * (the edit is re-staged on each call, so each run sees the same one staged change).
 */
function stagedRepo(): { repo: string; lib: string; cache: string; changed: string } {
  const repo = path.join(cacheBase, 'repo');
  const lib = path.join(repo, 'skills');
  if (!existsSync(path.join(repo, '.git'))) {
    rmSync(repo, { recursive: true, force: true });
    mkdirSync(repo, { recursive: true });
    cpSync(library, lib, { recursive: true, preserveTimestamps: true });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-q', '-m', 'library');
  }
  const files = execFileSync('git', ['ls-files', '*SKILL.md'], { cwd: repo, encoding: 'utf8' }).split('\n').filter(Boolean).sort();
  const changed = files[Math.floor(files.length / 2)];
  const abs = path.join(repo, changed);
  const original = execFileSync('git', ['show', `HEAD:${changed}`], { cwd: repo, encoding: 'utf8' });
  writeFileSync(abs, `${original}\nAn extra line, staged by bench/warmPaths.ts.\n`);
  execFileSync('git', ['add', changed], { cwd: repo });
  return { repo, lib, cache: path.join(cacheBase, 'repo-cache'), changed };
}

async function main(): Promise<void> {
  if (!existsSync(CLI) || !existsSync(path.join(ROOT, 'dist/cli.js'))) throw new Error('build first: node esbuild.mjs --bench');
  mkdirSync(cacheBase, { recursive: true });
  const cache = seededCache(path.join(cacheBase, 'library'), library);
  const withLib = ['--library', library, '--cache', cache];
  const paths: Path[] = [
    {
      name: 'index',
      command: 'index',
      args: ['index', ...withLib],
      cwd: ROOT,
      target: '< 1.5 s',
      met: (r) => r.wallS < 1.5,
    },
    {
      name: 'route',
      command: 'route "<request>"',
      args: ['route', values.request!, ...withLib],
      cwd: ROOT,
      target: '< 1 s',
      met: (r) => r.wallS < 1,
    },
    {
      name: 'validate',
      command: 'validate',
      args: ['validate', library, '--cache', cache],
      cwd: ROOT,
      target: '< 200 MB peak',
      met: (r) => (r.peakMb === null ? null : r.peakMb < 200),
    },
    {
      name: 'check',
      command: 'check',
      args: ['check', ...withLib],
      cwd: ROOT,
      target: '< 3 s, ≤ 2x validate',
      met: (r, rows) => r.wallS < 3 && (!rows.has('validate') || r.wallS <= 2 * rows.get('validate')!.wallS),
    },
  ];
  let staged: ReturnType<typeof stagedRepo> | undefined;
  if (!only || only.has('changed')) {
    staged = stagedRepo();
    seededCache(staged.cache, library);
    paths.push({
      name: 'changed',
      command: 'check --changed-only (1 staged skill)',
      args: ['check', '--changed-only', '--library', staged.lib, '--cache', staged.cache],
      cwd: staged.repo,
      target: '< 2 s',
      met: (r) => r.wallS < 2,
    });
  }
  const selected = paths.filter((p) => !only || only.has(p.name));

  // Warm every cache the timed commands read: the index, then what check adds (pair findings).
  const loadBefore = loadNow();
  const warm = performance.now();
  for (const p of selected) {
    if (p.name === 'route' || p.name === 'validate' || p.name === 'index') continue;
    const w = await runCli(p.args, p.cwd);
    if (w.code === 2) throw new Error(`${p.command} failed while warming:\n${w.stderr}`);
  }
  for (const p of selected.filter((x) => x.name === 'index' || x.name === 'route' || x.name === 'validate')) {
    const w = await runCli(p.args, p.cwd);
    if (w.code === 2) throw new Error(`${p.command} failed while warming:\n${w.stderr}`);
  }
  const warmS = (performance.now() - warm) / 1000;

  const rows = new Map<string, { name: string; command: string; target: string; wallS: number; peakMb: number | null; runs: Run[]; met: boolean | null; load: number[] }>();
  for (const p of selected) {
    const done: Run[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await runCli(p.args, p.cwd);
      if (r.code === 2) throw new Error(`${p.command} failed:\n${r.stderr}`);
      done.push({ wallS: Number(r.wallS.toFixed(3)), peakMb: r.peakMb, code: r.code });
    }
    const wallS = Number(median(done.map((d) => d.wallS)).toFixed(3));
    const peaks = done.map((d) => d.peakMb).filter((x): x is number => x !== null);
    const peakMb = peaks.length ? Math.max(...peaks) : null;
    rows.set(p.name, { name: p.name, command: p.command, target: p.target, wallS, peakMb, runs: done, met: null, load: loadNow() });
  }
  for (const p of selected) {
    const row = rows.get(p.name)!;
    row.met = p.met(row, rows);
  }

  const machine = `${cpus().length} cores, Node ${process.version}, load before ${loadBefore.join(' ')}, after ${loadNow().join(' ')}`;
  const lines = [
    `Warm paths on ${library} (${runs} runs each, caches warmed in ${warmS.toFixed(1)} s; ${machine})`,
    '',
    '| path | target | median wall | runs (s) | peak RSS | met |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of rows.values()) {
    lines.push(`| ${r.command} | ${r.target} | ${r.wallS.toFixed(2)} s | ${r.runs.map((x) => x.wallS.toFixed(2)).join(', ')} | ${r.peakMb ?? '-'} MB | ${r.met === null ? '-' : r.met ? 'met' : 'not met'} |`);
  }
  console.log(lines.join('\n'));
  const out = {
    library,
    runs,
    machine,
    load: { before: loadBefore, after: loadNow() },
    peakFrom: TIME ? '/usr/bin/time -v' : 'none',
    changedSkill: staged?.changed,
    paths: [...rows.values()],
  };
  mkdirSync(path.dirname(values.out!), { recursive: true });
  writeFileSync(values.out!, `${JSON.stringify(out, null, 2)}\n`);
  // Read back so a broken write shows here, not in the README.
  JSON.parse(readFileSync(values.out!, 'utf8'));
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 2;
});
