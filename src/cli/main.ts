/**
 * `skill-router`: route requests over a skill library, index it, validate it, and (in eval.ts and
 * check/runCheck.ts) measure it and gate commits on it. Exit codes: 0 ok, 1 findings, 2 failure.
 */
import { parseArgs } from 'node:util';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { version } from '../../package.json';
import { HEAP_GROWING_FLAG } from '../shared/serverProcess';
import type { RouteResult } from '../core/service';
import { notRelevantWords, unreadNote } from '../core/route/notRelevant';
import { declinedNote } from '../core/text/declined';
import type { Finding } from '../core/types';
import { SameNames } from '../core/analysis/sameNames';
import { DEFAULT_PAIR_SCAN } from '../core/analysis/scanRun';
import { describeRouter, openLibrary } from '../node/library';
import { runCheck } from './check/runCheck';
import { runEval } from './eval';
import { runHook } from './hook';
import { runDiff } from './diff';
import { runMcp } from './mcp';
import { runReachCommand } from './reach';
import { skipPhrase } from './routeAnswer';
import { EXIT_FAILURE, EXIT_FINDINGS, EXIT_OK, stderrProgress, UsageError, withProgressLine, type CliIo } from './io';
import { engineOptions, LIBRARY_OPTIONS, routeView, VIEW_OPTIONS, type LibraryDeps } from './options';
import type { Handover } from './launch';

export type { CliIo } from './io';

const USAGE = `Usage: skill-router <command> [options]

Commands:
  route "<request>" --library <dir>   Rank the skills of a library for a request
  index --library <dir>               Build or refresh the index cache
  validate <dir|SKILL.md>             Check SKILL.md files against the spec and client profiles
  eval --library <dir> --queries <f>  Routing quality on labelled requests (Hit@1, NDCG, ...)
  check                               Routing tests and checks for pre-commit and CI
  reach --library <dir>               Per skill: requests that find it in full text and in a client's listing
  mcp --library <dir>                 MCP server over stdio for agents (search_skills, read_skill, list_skills)
  hook --library <dir>                Prompt hook: the routed skills for the prompt on stdin, as context
  diff --base <git-ref>               What a change does to routing: requests that move, tests that break

Common options:
  --library <dir|file.jsonl>   Skill library (default: current folder)
  --model <dir>                Embedding model folder (default: built-in USE-lite)
  --no-model                   Lexical routing only
  --adapter <dir> | --no-adapter  Trained query adapter for the encoder / the encoder as shipped
  --no-bridge                  No Chinese-English dictionary bridge
  --reranker <dir>             Cross-encoder model folder for reranking
  --cache <dir>                Index cache folder
  --device cpu|cuda|dml|coreml Where to run models (falls back to cpu)
  --json                       Machine-readable output
  -h, --help                   Show help;  --version  Show the version

Run "skill-router <command> --help" for the options of route, eval, check, reach, mcp and hook.
Exit codes: 0 ok, 1 findings or failed tests, 2 failure (hook: never 2; see its --help).
`;

/** How the CLI opens libraries; tests pass a fake. */
export type Deps = LibraryDeps;

const DEFAULT_DEPS: Deps = { openLibrary, routerIdentity: describeRouter };

/** Runs the CLI; never throws: errors become a message and exit code 2. */
export async function main(rawIo: CliIo, deps: Deps = DEFAULT_DEPS): Promise<number> {
  const io = withProgressLine(rawIo);
  try {
    return await runCommand(io, deps);
  } finally {
    io.endProgress();
  }
}

async function runCommand(io: CliIo, deps: Deps): Promise<number> {
  const [command, ...rest] = io.argv;
  try {
    switch (command) {
      case 'route':
        return await runRoute(rest, io, deps);
      case 'index':
        return await runIndex(rest, io, deps);
      case 'validate':
        return await runValidate(rest, io, deps);
      case 'eval':
        return await runEval(rest, io, deps);
      case 'check':
        return await runCheck(rest, io, deps);
      case 'reach':
        return await runReachCommand(rest, io, deps);
      case 'mcp':
        return await runMcp(rest, io, deps);
      case 'hook':
        return await runHook(rest, io, deps);
      case 'diff':
        return await runDiff(rest, io, deps);
      case '--version':
      case '-v':
        io.stdout(`${version}\n`);
        return EXIT_OK;
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        io.stdout(USAGE);
        return command === undefined ? EXIT_FAILURE : EXIT_OK;
      default:
        throw new UsageError(`unknown command "${command}"\n\n${USAGE}`);
    }
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr(`skill-router: ${(err as Error).message}\n`);
    } else {
      io.stderr(`skill-router: ${(err as Error).message ?? err}\n`);
      if (io.env?.SKILL_ROUTER_DEBUG) io.stderr(`${(err as Error).stack}\n`);
    }
    return EXIT_FAILURE;
  }
}

async function runRoute(args: string[], io: CliIo, deps: Deps): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ...LIBRARY_OPTIONS, ...VIEW_OPTIONS, top: { type: 'string', short: 'k' }, 'no-rerank': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    io.stdout('Usage: skill-router route "<request>" --library <dir> [--top 10] [--no-rerank] [--json]\n');
    return EXIT_OK;
  }
  const query = positionals.join(' ').trim();
  if (!query) throw new UsageError('route needs a request: skill-router route "<request>" --library <dir>');
  const k = values.top !== undefined ? Number(values.top) : 10;
  if (!(Number.isInteger(k) && k > 0)) throw new UsageError('--top takes a positive integer');
  const opts = engineOptions(values, io, values.library ?? '.');
  const service = await deps.openLibrary(opts);
  try {
    const stats = await service.index({ progress: opts.progress });
    if (stats.skills === 0) {
      io.stderr(`skill-router: no SKILL.md found under ${service.root}\n`);
      return EXIT_FAILURE;
    }
    if (stats.denseDisabled && !values['no-model']) io.stderr(`note: ${stats.denseDisabled}; routing by words only\n`);
    if (stats.failed) io.stderr(`note: ${stats.failed} ${stats.failed === 1 ? 'entry was' : 'entries were'} left out (unreadable, too large, binary or a link loop); \`skill-router validate\` lists them\n`);
    const result = await service.route(query, { k, rerank: !values['no-rerank'], view: routeView(values) });
    io.stdout(values.json ? `${JSON.stringify(routeJson(result, service.root), null, 2)}\n` : formatRoute(result));
    return EXIT_OK;
  } finally {
    await service.dispose();
  }
}

/** The documented, stable JSON shape of `route --json`. */
export function routeJson(result: RouteResult, root: string) {
  return {
    query: result.query,
    library: root,
    dense: result.dense,
    ...(result.readAs ? { readAs: result.readAs } : {}),
    ...(result.unread ? { unread: result.unread } : {}),
    ...(result.declined ? { declined: result.declined } : {}),
    ...(result.match ? { match: result.match } : {}),
    ...(result.readChars !== undefined ? { readChars: result.readChars } : {}),
    view: result.view ? `listing:${result.view.client}` : 'full',
    results: result.candidates.map((c) => ({
      rank: c.rank,
      id: c.skillId,
      name: c.name,
      path: c.path,
      description: c.description,
      ...(c.relevant !== undefined ? { relevant: c.relevant } : {}),
      ...(c.inSet ? { inSet: true } : {}),
      ...(c.setAsideFor ? { setAsideFor: c.setAsideFor } : {}),
      ...(c.notRelevant ? { notRelevant: c.notRelevant } : {}),
      ...(c.notFor ? { notFor: c.notFor } : {}),
      ...(c.otherStack ? { otherStack: c.otherStack } : {}),
      ...(c.invoked ? { invoked: c.invoked } : {}),
      scores: c.scores,
      passage: c.passage,
    })),
    ...(result.set ? { set: result.set } : {}),
    timings: result.timings,
  };
}

const fmt = (n: number | null) => (n === null ? '   -  ' : n.toFixed(3).padStart(6));

function formatRoute(result: RouteResult): string {
  const lines: string[] = [];
  if (result.view) lines.push(`ranked over the listing ${result.view.label} shows the model (names and listed descriptions; no body)`, '');
  if (result.readAs) lines.push(`read as: ${result.readAs}`, '');
  if (result.declined) lines.push(declinedNote(result.declined), '');
  if (!result.candidates.length) return `${lines.join('\n')}No skill matches this request.${result.unread ? ` ${unreadNote(result.unread, false)}` : ''}\n`;
  if (result.unread) lines.push(unreadNote(result.unread, true), '');
  if (result.match === 'none') lines.push('No skill in this library fits this request (every relevance is below the floor); the closest are shown for context.', '');
  else if (result.match === 'weak') lines.push('Weak match: the best skill is only possibly what this request needs.', '');
  lines.push(` #  ${result.match ? 'relev.' : ' final'}  rerank  fused  dense  lexical  skill`);
  let lineDrawn = false;
  for (const c of result.candidates) {
    const s = c.scores;
    // The line below the last relevant result: what follows is context, not an answer.
    if (c.relevant === false && !lineDrawn && result.match !== 'none') {
      lines.push('    ---- below: not relevant to this request ----');
      lineDrawn = true;
    }
    const mark = (c.invoked ? `  [invoked as ${c.invoked}]` : '') + (c.inSet ? '  [set]' : c.setAsideFor ? `  [set aside: ${skipPhrase(c.setAsideFor.reason)} ${c.setAsideFor.id}]` : c.notRelevant ? `  [relevance 0: ${notRelevantWords({ ...c, notRelevant: c.notRelevant })}]` : '');
    lines.push(`${String(c.rank).padStart(2)}  ${fmt(s.final)}  ${fmt(s.rerank)} ${fmt(s.fused)} ${fmt(s.dense)}  ${fmt(s.lexical)}  ${c.name}  (${c.skillId})${mark}`);
    if (c.passage) {
      const where = c.passage.field === 'body' ? (c.passage.heading ? `§ ${c.passage.heading}` : 'body') : c.passage.field;
      const text = c.passage.text.length > 140 ? `${c.passage.text.slice(0, 137)}...` : c.passage.text;
      lines.push(`      ${where}: ${text}`);
    }
  }
  const t = result.timings;
  if (result.set) {
    const ranks = result.set.ids.map((id) => `#${result.candidates.find((c) => c.skillId === id)?.rank} ${id}`);
    lines.push('', result.set.size === 1 ? `set: one skill is enough (${ranks[0]})` : `set: ${result.set.size} skills together (${ranks.join(', ')})`);
  }
  lines.push('');
  lines.push(`${'model' in result.dense ? `model ${result.dense.model}` : result.dense.disabled} · ${t.totalMs.toFixed(1)} ms (embed ${t.embedMs.toFixed(1)}, lexical ${t.lexicalMs.toFixed(1)}, rerank ${t.rerankMs.toFixed(1)})`);
  return `${lines.join('\n')}\n`;
}

async function runIndex(args: string[], io: CliIo, deps: Deps): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { ...LIBRARY_OPTIONS } });
  const opts = engineOptions(values, io, positionals[0] ?? values.library ?? '.');
  const service = await deps.openLibrary(opts);
  try {
    const stats = await service.index({ progress: opts.progress });
    for (const f of service.failures()) io.stderr(`${f.path}: ${f.message}\n`);
    if (values.json) io.stdout(`${JSON.stringify({ library: service.root, ...stats }, null, 2)}\n`);
    else {
      io.stdout(`${stats.skills} skills indexed in ${(stats.ms / 1000).toFixed(1)} s (${stats.embedded} embedded, ${stats.cached} from cache, ${stats.failed} unreadable)\n`);
      io.stdout(stats.model ? `model: ${stats.model}\n` : `${stats.denseDisabled}\n`);
    }
    return stats.skills === 0 ? EXIT_FAILURE : EXIT_OK;
  } finally {
    await service.dispose();
  }
}

async function runValidate(args: string[], io: CliIo, deps: Deps): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { ...LIBRARY_OPTIONS } });
  const target = positionals[0] ?? values.library ?? '.';
  // Findings come from parsing alone: nothing is analysed, and the analysis snapshot is not read.
  const opts = { ...engineOptions(values, io, target), noModel: true, parseOnly: true };
  opts.progress = stderrProgress(io, true);
  const service = await deps.openLibrary(opts);
  try {
    await service.index();
    const rows: { path: string; finding: Finding }[] = [];
    // Two skills with one name are the library's problem, reported on both as `check` reports it.
    const names = new SameNames(service.skills(), DEFAULT_PAIR_SCAN.acrossFolders);
    for (const doc of service.skills()) for (const f of [...doc.findings, ...names.findings(doc)]) rows.push({ path: doc.path, finding: f });
    const failures = service.failures();
    const base = path.extname(opts.root) === '.md' ? path.dirname(opts.root) : opts.root;
    if (values.json) {
      io.stdout(`${JSON.stringify({
        library: base,
        skills: service.skills().length,
        findings: rows.map((r) => ({ path: r.path, ...r.finding })),
        unreadable: failures,
      }, null, 2)}\n`);
    } else {
      for (const r of rows) {
        const f = r.finding;
        io.stdout(`${r.path}:${f.range.start.line + 1}:${f.range.start.character + 1}: ${f.severity} ${f.code}${f.profile ? ` [${f.profile}]` : ''}: ${f.message}\n`);
      }
      for (const f of failures) io.stdout(`${f.path}: error file.unreadable: ${f.message}\n`);
      const errors = rows.filter((r) => r.finding.severity === 'error').length + failures.length;
      io.stdout(`${service.skills().length} skills checked: ${errors} errors, ${rows.length - (errors - failures.length)} warnings\n`);
    }
    if (service.skills().length === 0 && failures.length === 0) {
      io.stderr(`skill-router: no SKILL.md found under ${base}\n`);
      return EXIT_FAILURE;
    }
    return rows.some((r) => r.finding.severity !== 'info') || failures.length ? EXIT_FINDINGS : EXIT_OK;
  } finally {
    await service.dispose();
  }
}

/**
 * Runs the CLI as this process: bin/skill-router.js calls it, and so does `node dist/cli.js`
 * (how MCP clients and hooks start the bundled CLI without a global install).
 */
/**
 * Commands that hold a library's worth of work (a pair scan, a reach pass, a long-lived server):
 * they get the server's heap policy. A one-request command is over before its heap grows, and
 * the policy's extra collections cost `route` ~0.1 s (1.18-1.30 vs 0.99-1.16 s, in turn).
 */
const LONG_COMMANDS = new Set(['check', 'reach', 'eval', 'index', 'mcp']);

export function runAsProcess(handover?: Handover): void {
  if (LONG_COMMANDS.has(process.argv[2] ?? '')) setFlagsFromString(HEAP_GROWING_FLAG);
  main({
    argv: [...process.argv.slice(2), ...(handover?.addArgs ?? [])],
    cwd: process.cwd(),
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    env: process.env,
    isTTY: Boolean(process.stderr.isTTY),
    stdin: handover?.stdin ?? process.stdin,
    stdoutStream: process.stdout,
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`skill-router: ${err instanceof Error && err.stack ? err.stack : err}\n`);
      process.exitCode = 2;
    },
  );
}

if (require.main === module) runAsProcess();
