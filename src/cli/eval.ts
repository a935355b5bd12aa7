/**
 * `skill-router eval`: routes every labelled query of a queries file through a library and
 * reports Hit@1, NDCG, Recall, Comp and Set-Compat overall, by |G| and by direction.
 */
import { writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { RouteResult, SkillService } from '../core/service';
import {
  METRIC_KEYS,
  percentile,
  abstained,
  emptyTally,
  scoreQuery,
  tallyNegative,
  type NegativeTally,
  summarize,
  type EvalSummary,
  type MetricSummary,
  type QueryMetrics,
  type ScoredQuery,
} from '../core/eval/metrics';
import { parseQueries, QueryFileError, type EvalQuery } from '../core/eval/queries';
import { membersFirst } from '../core/route/setSelection';
import { EXIT_FAILURE, EXIT_OK, readText, UsageError, type CliIo } from './io';
import type { ListingClient } from '../core/profiles';
import { ENGINE_OPTIONS, engineOptions, parseFlags, positiveInt, routeView, VIEW_OPTIONS, type EngineFlags, type LibraryDeps } from './options';

export const EVAL_USAGE = `Usage: skill-router eval --library <dir|skills.jsonl> --queries <file.jsonl> [options]

Routes every query of a labelled queries file and prints Hit@1, NDCG@10, Recall@10/20,
Comp@10 and Set-Compat overall, by number of required skills (k) and by direction.

Options:
  --library <path>     skill folder, or a .jsonl library ({"id","text"} lines)
  --queries <file>     labelled queries: {"id","query","skill_ids","also_ok","k","direction"} lines
  --top <n>            candidates ranked per query (default 20)
  --no-rerank          skip the reranking stage (and set selection)
  --no-set             no set selection: Set-Compat reads the ranking's first |G| places
                       (by default it reads the set's members first, then the rest, the
                       candidates set aside for a member last)
  --only <part>        rank by one part of the first stage alone: words (BM25F) or dense (the
                       encoder), no rerank; for ablations
  --view <v>           full (default) or listing: rank over what a client lists
  --client <id>        with --view listing: claude-code (default), codex, copilot or cursor
  --model <dir>        embedding model folder (default: the built-in model)
  --no-model           lexical retrieval only
  --adapter <dir>      trained query adapter (bench/trainAdapter.ts);  --no-adapter: none
  --no-bridge          no Chinese-English bridge (CC-CEDICT) between requests and skills
  --reranker <dir>     cross-encoder folder for reranking
  --cache <dir>        index cache folder
  --device <name>      cpu, cuda, dml or coreml;  --threads <n>
  --per-query <file>   write each query's ranking and metrics as JSON Lines
  --json               print one JSON object instead of the table
  --quiet              no progress lines;  --verbose  engine debug lines
  -h, --help           show this help

Exit status: 0 done, 2 bad arguments, unreadable input or engine failure.
`;

interface EvalArgs extends EngineFlags {
  library: string;
  queries: string;
  top: number;
  rerank: boolean;
  /** Order the leading places as a compatible set (default: with rerank). */
  select: boolean;
  json: boolean;
  perQuery?: string;
  /** A client's listing to rank over instead of the full text. */
  view?: { client: ListingClient };
  /** One part of the first stage alone. */
  only?: 'words' | 'dense';
}

function parseEvalArgs(args: string[]): EvalArgs | 'help' {
  const { values } = parseFlags(
    () =>
      parseArgs({
        args,
        strict: true,
        allowPositionals: false,
        options: {
          ...ENGINE_OPTIONS,
          ...VIEW_OPTIONS,
          library: { type: 'string' },
          queries: { type: 'string' },
          top: { type: 'string' },
          'no-rerank': { type: 'boolean' },
          'no-set': { type: 'boolean' },
          only: { type: 'string' },
          json: { type: 'boolean' },
          'per-query': { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
      }),
    'eval',
  );
  if (values.help) return 'help';
  const hint = '\nRun "skill-router eval --help" for usage.';
  if (!values.library) throw new UsageError(`eval needs --library${hint}`);
  if (!values.queries) throw new UsageError(`eval needs --queries${hint}`);
  return {
    ...values,
    library: values.library,
    queries: values.queries,
    top: positiveInt(values.top, '--top', 20),
    rerank: !values['no-rerank'],
    select: !values['no-rerank'] && !values['no-set'],
    json: values.json ?? false,
    perQuery: values['per-query'],
    view: routeView(values),
    only: onlyPart(values.only),
  };
}

/** `--only words|dense`: one part of the first stage alone (an ablation). */
function onlyPart(value: string | undefined): 'words' | 'dense' | undefined {
  if (value === undefined) return undefined;
  if (value !== 'words' && value !== 'dense') throw new UsageError(`--only takes words or dense, not "${value}"`);
  return value;
}

const round = (x: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

function roundSummary(s: MetricSummary): MetricSummary {
  const out = { n: s.n } as MetricSummary;
  for (const key of METRIC_KEYS) {
    const v = s[key];
    (out as Record<string, number | null>)[key] = v === null ? null : round(v, 4);
  }
  return out;
}

function roundMetrics(m: QueryMetrics): QueryMetrics {
  const out = {} as QueryMetrics;
  for (const key of METRIC_KEYS) {
    const v = m[key];
    (out as Record<string, number | null>)[key] = v === null ? null : round(v, 4);
  }
  return out;
}

const COLUMNS: { title: string; key: keyof MetricSummary }[] = [
  { title: 'Hit@1', key: 'hit@1' },
  { title: 'NDCG@10', key: 'ndcg@10' },
  { title: 'Recall@10', key: 'recall@10' },
  { title: 'Recall@20', key: 'recall@20' },
  { title: 'Comp@10', key: 'comp@10' },
  { title: 'Set-Compat', key: 'set_compat' },
];

/** The Markdown table of `summary`: one row overall, per k and per direction; values in percent. */
export function formatEvalTable(summary: EvalSummary): string {
  const rows: string[][] = [];
  const add = (group: string, s: MetricSummary): void => {
    rows.push([
      group,
      String(s.n),
      ...COLUMNS.map(({ key }) => {
        const v = s[key];
        return v === null ? '-' : (v * 100).toFixed(1);
      }),
    ]);
  };
  add('overall', summary.overall);
  for (const [k, s] of Object.entries(summary.byK)) add(`k=${k}`, s);
  for (const [direction, s] of Object.entries(summary.byDirection)) add(direction, s);
  const header = ['group', 'n', ...COLUMNS.map((c) => c.title)];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n') + '\n';
}

/** Runs `skill-router eval`; returns the exit status (0 done, 2 failure). */
export async function runEval(args: string[], io: CliIo, deps: LibraryDeps): Promise<number> {
  let service: SkillService | undefined;
  try {
    const parsed = parseEvalArgs(args);
    if (parsed === 'help') {
      io.stdout(EVAL_USAGE);
      return EXIT_OK;
    }
    const queries = parseQueries(await readText(path.resolve(io.cwd, parsed.queries), 'queries file'), parsed.queries);
    if (queries.length === 0) throw new UsageError(`no queries in ${parsed.queries}`);
    const opts = engineOptions(parsed, io, parsed.library);

    service = await deps.openLibrary(opts);
    const indexStart = performance.now();
    const stats = await service.index({ progress: opts.progress });
    const indexMs = performance.now() - indexStart;
    if (stats.skills === 0) throw new UsageError(`no skills found in ${parsed.library}`);
    if (!parsed.quiet) {
      io.stderr(
        `eval: ${stats.skills} skills indexed in ${Math.round(indexMs)} ms` +
          (stats.model ? ` (model ${stats.model})` : stats.denseDisabled ? ` (${stats.denseDisabled})` : '') +
          '\n',
      );
    }

    warnUnknownIds(io, parsed.queries, queries, new Set(service.skills().map((s) => s.id)));

    const rows: ScoredQuery[] = [];
    const negatives = emptyTally();
    let abstainedOn = 0;
    let matchReported = false;
    const times: number[] = [];
    const perQuery: string[] = [];
    let dense: string | null = null;
    let reranked = false;
    for (const [i, q] of queries.entries()) {
      const start = performance.now();
      const result = await service.route(q.query, { k: parsed.top, rerank: parsed.rerank, select: parsed.select, passages: false, view: parsed.view, only: parsed.only });
      const ms = performance.now() - start;
      times.push(ms);
      if ('model' in result.dense) dense = result.dense.model;
      if (result.candidates.some((c) => c.scores.rerank !== null)) reranked = true;
      const top = result.candidates.map((c) => c.skillId);
      const answer = { match: result.match, results: result.candidates.map((c) => ({ id: c.skillId, relevant: c.relevant })) };
      if (result.match) matchReported = true;
      // A request no skill should answer has no ranking metrics; its negative part is counted below.
      const metrics = q.skillIds.length ? scoreQuery(top, { required: q.skillIds, alsoOk: q.alsoOk }) : null;
      // Set-Compat reads the set: its members first (in rank order), then the rest of the ranking,
      // the candidates set aside for a member last.
      if (metrics && result.set) {
        const setFirst = membersFirst(result.candidates, (c) => c.inSet === true, (c) => c.setAsideFor !== undefined).map((c) => c.skillId);
        metrics.set_compat = scoreQuery(setFirst, { required: q.skillIds, alsoOk: q.alsoOk }).set_compat;
      }
      if (metrics) {
        rows.push({ size: q.skillIds.length, ...(q.direction ? { direction: q.direction } : {}), metrics });
        if (abstained(answer)) abstainedOn++;
      }
      const held = tallyNegative(negatives, q, answer);
      if (parsed.perQuery) perQuery.push(JSON.stringify(perQueryRecord(q, top, result, metrics, held, ms)));
      opts.progress?.('eval', i + 1, queries.length);
    }

    if (parsed.perQuery) {
      try {
        await writeFile(path.resolve(io.cwd, parsed.perQuery), perQuery.join('\n') + '\n', 'utf8');
      } catch (err) {
        throw new UsageError(`cannot write ${parsed.perQuery}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
      }
    }

    const summary = summarize(rows);
    const timing = {
      indexMs: round(indexMs, 1),
      queryMsP50: round(percentile(times, 50), 1),
      queryMsP95: round(percentile(times, 95), 1),
    };
    const outcome = { negatives, abstained: matchReported ? abstainedOn : null };
    if (parsed.json) {
      io.stdout(JSON.stringify(evalJson(summary, { skills: stats.skills, top: parsed.top, dense, rerank: reranked, timing, ...outcome, ...(parsed.view ? { view: `listing:${parsed.view.client}` } : {}) }), null, 2) + '\n');
    } else {
      io.stdout(
        `${summary.n} queries, ${stats.skills} skills, top ${parsed.top}, ` +
          `dense ${dense ?? 'off'}, rerank ${reranked ? 'on' : 'off'}${parsed.view ? `, ranked over the ${parsed.view.client} listing` : ''}\n\n`,
      );
      if (summary.n) io.stdout(formatEvalTable(summary));
      if (negatives.n) {
        io.stdout(
          `\nnegatives: ${negatives.passed} of ${negatives.n} held (no skill should answer: ${negatives.noSkill.passed}/${negatives.noSkill.n}; ` +
            `named skills kept off the top: ${negatives.boundary.passed}/${negatives.boundary.n})` +
            (matchReported ? '' : '; this run reports no relevance (rerank off or another reranker), so no request is answered with "no skill fits"') +
            '\n',
        );
      }
      if (matchReported && summary.n) io.stdout(`abstained: ${abstainedOn} of ${summary.n} requests that need a skill got "no skill fits"\n`);
      io.stdout(`\ntiming: index ${timing.indexMs} ms, query p50 ${timing.queryMsP50} ms, p95 ${timing.queryMsP95} ms\n`);
    }
    return EXIT_OK;
  } catch (err) {
    if (err instanceof UsageError || err instanceof QueryFileError) io.stderr(`skill-router eval: ${err.message}\n`);
    else {
      io.stderr(`skill-router eval: ${(err as Error).message ?? String(err)}\n`);
      if (io.env?.SKILL_ROUTER_DEBUG) io.stderr(`${(err as Error).stack}\n`);
    }
    return EXIT_FAILURE;
  } finally {
    await service?.dispose().catch(() => undefined);
  }
}

interface EvalRunInfo {
  skills: number;
  top: number;
  dense: string | null;
  rerank: boolean;
  timing: { indexMs: number; queryMsP50: number; queryMsP95: number };
  /** Negatives of the file: requests no skill should answer, and boundary skills kept off the top. */
  negatives: NegativeTally;
  /** Requests that need a skill but got "no skill fits"; null when the run reports no relevance. */
  abstained: number | null;
  /** `listing:<client>` when ranked over a client's listing. */
  view?: string;
}

/**
 * The documented JSON shape of `eval --json` (docs/cli.md): metrics as fractions 0..1 rounded to
 * four decimals, groups as in `summarize`.
 */
export function evalJson(summary: EvalSummary, info: EvalRunInfo): Record<string, unknown> {
  const groups = (g: Record<string, MetricSummary>): Record<string, MetricSummary> =>
    Object.fromEntries(Object.entries(g).map(([key, s]) => [key, roundSummary(s)]));
  return {
    n: summary.n,
    skills: info.skills,
    top: info.top,
    dense: info.dense,
    rerank: info.rerank,
    overall: roundSummary(summary.overall),
    byK: groups(summary.byK),
    byDirection: groups(summary.byDirection),
    view: info.view ?? 'full',
    negatives: info.negatives,
    abstained: info.abstained,
    timing: info.timing,
  };
}

/** Warns once about labelled ids that the library lacks: those queries can never be answered fully. */
function warnUnknownIds(io: CliIo, source: string, queries: readonly EvalQuery[], known: ReadonlySet<string>): void {
  const unknown = new Set<string>();
  let affected = 0;
  for (const q of queries) {
    let missing = false;
    for (const id of q.skillIds) {
      if (!known.has(id)) {
        unknown.add(id);
        missing = true;
      }
    }
    for (const id of q.alsoOk) if (!known.has(id)) unknown.add(id);
    if (missing) affected++;
  }
  if (unknown.size === 0) return;
  const examples = [...unknown].slice(0, 3).join(', ') + (unknown.size > 3 ? ', ...' : '');
  const many = unknown.size !== 1;
  io.stderr(
    `eval: warning: ${unknown.size} skill id${many ? 's' : ''} in ${source} ${many ? 'are' : 'is'} not in the ` +
      `library and can never be hit (${examples}); ` +
      (affected ? `${affected} quer${affected === 1 ? 'y requires' : 'ies require'} one\n` : 'they are all also_ok alternatives\n'),
  );
}

function perQueryRecord(
  q: EvalQuery,
  top: readonly string[],
  result: Pick<RouteResult, 'candidates' | 'match' | 'set'>,
  metrics: QueryMetrics | null,
  negativeHeld: boolean | null,
  ms: number,
): Record<string, unknown> {
  const ranks: Record<string, number | null> = {};
  for (const id of [...q.skillIds, ...q.alsoOk]) {
    const at = top.indexOf(id);
    ranks[id] = at < 0 ? null : at + 1;
  }
  return {
    id: q.id,
    line: q.line,
    direction: q.direction ?? null,
    k: q.skillIds.length,
    query: q.query,
    skill_ids: q.skillIds,
    also_ok: q.alsoOk,
    ...(q.not.length ? { not: q.not } : {}),
    ranks,
    ...(result.match ? { match: result.match } : {}),
    top: result.candidates.map((c, i) => ({ rank: i + 1, id: c.skillId, score: round(c.scores.final, 4), ...(c.relevant !== undefined ? { relevant: c.relevant } : {}) })),
    ...(result.set ? { set: result.set.ids } : {}),
    metrics: metrics ? roundMetrics(metrics) : null,
    ...(negativeHeld !== null ? { negative_held: negativeHeld } : {}),
    ms: round(ms, 1),
  };
}
