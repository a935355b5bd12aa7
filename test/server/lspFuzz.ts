/**
 * Seeded random edit sequences against the real language server (issue 11): open, change, save,
 * close, rename, delete and create SKILL.md files across two workspace folders, on disk and in
 * buffers, some in bursts, some after the server caught up. Afterwards every buffer is closed (some
 * saved first) and the server's view (the last diagnostics of every file, the skill counts and the
 * skills a request finds) must equal that of a fresh server started on the final disk state.
 *
 * Used by test/server/fuzz.test.ts (a few dozen sequences) and bench/lspFuzz.ts (1,000).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FileChangeType, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { IndexStatusRequest, RouteRequest, type IndexStatus } from '../../src/shared/protocol';
import { TestClient, uriOf } from './lspClient';

/** mulberry32: small, fast and the same on every platform. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const NAMES = ['csv-tidy', 'csv-cleaner', 'k8s-deploy', 'helm-release', 'react-component-tests', 'vue-component-tests', 'pdf-extract', 'docx-edit', 'sql-report', 'git-hooks'];
const GROUPS = ['', '', '', 'data/', 'web/'];

// Near-duplicate pairs (csv), SKIP conflicts (react/vue), close but distinct (k8s/helm), and loners.
const DESCRIPTIONS = [
  'Clean messy CSV files before analysis. Fix broken delimiters, trim whitespace, drop duplicate rows and normalise date columns, then save a tidy CSV ready for a spreadsheet or database import.',
  'Clean messy CSV files before analysis. Fix broken delimiters, trim whitespace, remove duplicate rows and normalise date columns, then write a tidy CSV ready for a database or spreadsheet import.',
  'Write unit tests for React components with Jest and React Testing Library. Use when a request asks to test a React component, mock its hooks, or check what it renders.',
  'Write unit tests for Vue components with Vitest and Vue Test Utils. Use when a request asks to test a Vue component, stub its children, or check what it renders.',
  'Deploy a service to a Kubernetes cluster with Helm charts, watch the rollout, and roll back when health checks fail.',
  'Release a Helm chart to a Kubernetes cluster, watch the rollout and roll back a failed release.',
  'Extract text and tables from PDF files, including scanned invoices (OCR). Use when the user needs the contents of a PDF.',
  'Create and edit Word documents with tracked changes and comments.',
  'Turn a SQL query into a weekly report with charts, and mail it to the team.',
  'Install git hooks that lint and test each commit before it is made.',
];
const BODIES = ['# Steps\n\n1. Read the input.\n2. Do the job.\n', '# Notes\n\nUse `helm upgrade --install`.\n', '', '# Tidy\n\nStrip spaces and de-duplicate rows.\n'];

/** A SKILL.md text: mostly valid, sometimes broken in the ways editors see while typing. */
export function skillText(r: Rng, folderName: string): string {
  const name = r.chance(0.8) ? folderName : r.pick([...NAMES, 'Bad_Name', '-dash-', '']);
  const description = r.chance(0.05) ? 'x'.repeat(1100) : r.pick(DESCRIPTIONS);
  const body = r.pick(BODIES);
  const roll = r.next();
  if (roll < 0.05) return `${body}no front matter\n`;
  if (roll < 0.1) return `---\nname: ${name}\ndescription: "unterminated\n---\n${body}`;
  if (roll < 0.13) return '';
  if (roll < 0.16) return `---\nname: ${name}\n---\n${body}`;
  if (roll < 0.2) return `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n<!-- skill-router-ignore ${r.pick(NAMES)} -->\n`;
  if (roll < 0.23) return `---\nname: ${name}\ndescription: ${description}\nmetadata:\n  skill-router:\n    ignore: [${r.pick(NAMES)}]\n---\n${body}`;
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
}

/** An edit of a buffer as a user makes it: retype the description, rename, type into the body, break it. */
function mutate(r: Rng, text: string, folderName: string): string {
  const roll = r.next();
  if (roll < 0.3 && /^description: .*$/m.test(text)) return text.replace(/^description: .*$/m, `description: ${r.pick(DESCRIPTIONS)}`);
  if (roll < 0.45 && /^description: .*$/m.test(text)) return text.replace(/^(description: .*)$/m, `$1${r.pick(['s', ' and more', '.'])}`);
  if (roll < 0.55 && /^name: .*$/m.test(text)) return text.replace(/^name: .*$/m, `name: ${r.pick([folderName, ...NAMES])}`);
  if (roll < 0.75) return `${text}${r.pick(['x', '\nmore text', '\n## Heading\n'])}`;
  if (roll < 0.85) return text.slice(0, r.int(text.length + 1));
  return skillText(r, folderName);
}

/** SKILL.md files under `dir`, recursively. */
export function skillFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...skillFiles(p));
    else if (name === 'SKILL.md') out.push(p);
  }
  return out.sort();
}

const fmt = (d: Diagnostic) =>
  [d.code, d.severity, `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`, d.message, ...(d.relatedInformation ?? []).map((x) => x.location.uri)].join(' | ');

/** What a server shows about a workspace: diagnostics per file, counts per folder, skills a request finds. */
export interface Snapshot {
  diagnostics: Record<string, string[]>;
  folders: { skills: number; failed: number }[];
  routed: string[];
}

const QUERY = 'clean csv files, deploy helm charts to kubernetes, test react or vue components, extract pdf tables, sql report, git hooks, word documents';

/**
 * Waits until the server has done what it was sent: a route request runs on each folder's work
 * queue behind the updates already queued, so its answer comes after their diagnostics.
 */
async function snapshot(c: TestClient, folders: string[], root: string): Promise<Snapshot> {
  let routed: string[];
  let status: IndexStatus;
  // Pair findings are rechecked once edits pause (`analysis` counts that): wait for it too.
  for (;;) {
    routed = [];
    for (const f of folders) {
      const r = await c.conn.sendRequest(RouteRequest, { query: QUERY, k: 100, rerank: false, folder: uriOf(f) });
      routed.push(...r.results.map((x) => `${path.relative(root, new URL(x.uri).pathname)} ${x.skillId} ${x.name}`));
    }
    status = await c.conn.sendRequest(IndexStatusRequest);
    if (!status.analysis && !status.progress) break;
    const seen = c.statuses.length;
    await c.waitFor(() => c.statuses.slice(seen).some((s) => !s.analysis), 'the cross-skill checks to finish');
  }
  const diagnostics: Record<string, string[]> = {};
  for (const [file, p] of c.diagnostics) {
    if (p.diagnostics.length) diagnostics[path.relative(root, file)] = p.diagnostics.map(fmt).sort();
  }
  return { diagnostics, folders: status.folders.map((f) => ({ skills: f.skills, failed: f.failed })), routed: routed.sort() };
}

/** Differences between two snapshots, one line each (empty when equal). */
export function diffSnapshots(got: Snapshot, want: Snapshot): string[] {
  const out: string[] = [];
  for (const file of [...new Set([...Object.keys(got.diagnostics), ...Object.keys(want.diagnostics)])].sort()) {
    const g = JSON.stringify(got.diagnostics[file] ?? []);
    const w = JSON.stringify(want.diagnostics[file] ?? []);
    if (g !== w) out.push(`${file}: diagnostics ${g} != fresh ${w}`);
  }
  if (JSON.stringify(got.folders) !== JSON.stringify(want.folders)) out.push(`folders ${JSON.stringify(got.folders)} != fresh ${JSON.stringify(want.folders)}`);
  if (JSON.stringify(got.routed) !== JSON.stringify(want.routed)) out.push(`routed ${JSON.stringify(got.routed)} != fresh ${JSON.stringify(want.routed)}`);
  return out;
}

export interface SequenceResult {
  seed: number;
  ops: string[];
  /** The server died, a request failed, or it logged an error. */
  crash: string | null;
  mismatches: string[];
}

export interface SequenceOptions {
  /** Operations per sequence (default 12 to 30, drawn from the seed). */
  ops?: number;
  /** Start the fresh server with this extra debounce, e.g. to test the default timings. */
  debounceMs?: number;
}

/** Runs one seeded sequence against a fresh server and compares with a server started afterwards. */
export async function runSequence(seed: number, opts: SequenceOptions = {}): Promise<SequenceResult> {
  const r = new Rng(seed);
  const root = mkdtempSync(path.join(tmpdir(), 'sr-lspfuzz-'));
  const folders = [path.join(root, 'alpha'), path.join(root, 'beta')];
  const log: string[] = [];
  const result: SequenceResult = { seed, ops: log, crash: null, mismatches: [] };
  let c: TestClient | undefined;
  let fresh: TestClient | undefined;
  try {
    for (const f of folders) {
      mkdirSync(f, { recursive: true });
      for (let i = 0, n = 1 + r.int(4); i < n; i++) {
        const dir = path.join(f, `${r.pick(GROUPS)}${r.pick(NAMES)}`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, 'SKILL.md'), skillText(r, path.basename(dir)));
      }
    }
    c = await TestClient.start({ folders, debounceMs: opts.debounceMs });
    await c.ready();
    const client = c;
    const open = new Set<string>();
    const rel = (p: string) => path.relative(root, p);
    const onDisk = () => folders.flatMap(skillFiles);
    const fileIn = () => path.join(r.pick(folders), `${r.pick(GROUPS)}${r.pick(NAMES)}`, 'SKILL.md');
    const folderName = (file: string) => path.basename(path.dirname(file));
    const write = async (file: string, text: string) => {
      const existed = existsSync(file);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
      await client.filesChanged([{ file, type: existed ? FileChangeType.Changed : FileChangeType.Created }]);
    };
    const count = opts.ops ?? 12 + r.int(19);
    for (let i = 0; i < count; i++) {
      if (c.proc.exitCode !== null) break;
      const disk = onDisk();
      const closed = disk.filter((f) => !open.has(f));
      const roll = r.next();
      if (roll < 0.12) {
        const file = fileIn();
        log.push(`create ${rel(file)}`);
        await write(file, skillText(r, folderName(file)));
      } else if (roll < 0.2 && disk.length) {
        const file = r.pick(disk);
        log.push(`disk change ${rel(file)}`);
        await write(file, skillText(r, folderName(file)));
      } else if (roll < 0.26 && disk.length) {
        const file = r.pick(disk);
        log.push(`delete ${rel(file)}`);
        rmSync(file);
        await c.filesChanged([{ file, type: FileChangeType.Deleted }]);
      } else if (roll < 0.31 && disk.length) {
        const file = r.pick(disk);
        let dir = path.dirname(file);
        if (r.chance(0.3) && !folders.includes(path.dirname(dir))) dir = path.dirname(dir);
        log.push(`delete folder ${rel(dir)}`);
        rmSync(dir, { recursive: true, force: true });
        await c.filesChanged([{ file: dir, type: FileChangeType.Deleted }]);
      } else if (roll < 0.38 && disk.length) {
        // A rename moves the skill's folder, maybe into the other workspace folder; an open buffer moves with it.
        const file = r.pick(disk);
        const to = fileIn();
        if (existsSync(path.dirname(to)) || to.startsWith(`${path.dirname(file)}${path.sep}`)) continue;
        log.push(`rename ${rel(path.dirname(file))} -> ${rel(path.dirname(to))}`);
        const wasOpen = open.has(file);
        if (wasOpen) {
          open.delete(file);
          await c.close(file);
        }
        mkdirSync(path.dirname(path.dirname(to)), { recursive: true });
        renameSync(path.dirname(file), path.dirname(to));
        await c.filesChanged([{ file: path.dirname(file), type: FileChangeType.Deleted }, { file: to, type: FileChangeType.Created }]);
        if (wasOpen) {
          open.add(to);
          await c.open(to, c.textOf(file));
        }
      } else if (roll < 0.5 && closed.length) {
        const file = r.pick(closed);
        log.push(`open ${rel(file)}`);
        open.add(file);
        await c.open(file, readFileSync(file, 'utf8'));
      } else if (roll < 0.54) {
        // A new buffer for a file that is not on disk (yet).
        const file = fileIn();
        if (open.has(file) || existsSync(file)) continue;
        log.push(`open new ${rel(file)}`);
        open.add(file);
        await c.open(file, skillText(r, folderName(file)));
      } else if (roll < 0.78 && open.size) {
        const file = r.pick([...open]);
        const n = r.chance(0.3) ? 2 + r.int(4) : 1;
        log.push(`edit ${rel(file)} x${n}`);
        for (let k = 0; k < n; k++) await c.change(file, mutate(r, c.textOf(file), folderName(file)));
      } else if (roll < 0.86 && open.size) {
        const file = r.pick([...open]);
        log.push(`save ${rel(file)}`);
        await write(file, c.textOf(file));
      } else if (roll < 0.94 && open.size) {
        const file = r.pick([...open]);
        log.push(`close ${rel(file)}`);
        open.delete(file);
        await c.close(file);
      } else {
        log.push('wait');
        await snapshot(c, folders, root);
      }
    }
    // Done editing: save some buffers, close all.
    for (const file of [...open].sort()) {
      if (r.chance(0.5)) {
        log.push(`save ${rel(file)}`);
        await write(file, c.textOf(file));
      }
      log.push(`close ${rel(file)}`);
      await c.close(file);
    }
    const got = await snapshot(c, folders, root);
    if (c.errors.length) result.crash = `the server logged errors: ${c.errors.slice(0, 3).join(' / ')}`;
    const code = await c.stop();
    c = undefined;
    if (code !== 0 && !result.crash) result.crash = `the server exited with ${code}`;

    fresh = await TestClient.start({ folders });
    await fresh.ready();
    const files = onDisk().length;
    await fresh.waitFor(() => fresh!.diagnostics.size >= files, 'every file published');
    const want = await snapshot(fresh, folders, root);
    result.mismatches = diffSnapshots(got, want);
  } catch (err) {
    result.crash = `${err instanceof Error ? err.message : String(err)}`.slice(0, 2000);
  } finally {
    for (const client of [c, fresh]) {
      if (!client) continue;
      await client.stop().catch(() => undefined);
      rmSync(client.cacheDir, { recursive: true, force: true });
    }
    rmSync(root, { recursive: true, force: true });
  }
  return result;
}
