/**
 * `skill-router reach`: for each skill, how many of its requests reach it first in the full text
 * and in the listing a client shows its model, what the listing keeps of its description, and
 * the words of its body to add so that the lost requests come back (verified by re-routing).
 * A report, not a gate: `check` gates on it with `reach: {client, min}` in its config.
 */
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { parseQueries } from '../core/eval/queries';
import { isListingClient, LISTING_CLIENTS, LISTING_RULES, type ListingClient, type ListingOptions } from '../core/profiles';
import type { SkillReach } from '../core/reach/measure';
import { defaultCacheDir } from '../node/library';
import { discoverTests, displayPath, isDirectory, loadConfig } from './check/config';
import { parseRoutingTests } from './check/routingTests';
import { EXIT_FAILURE, EXIT_OK, plural, readText, UsageError, type CliIo } from './io';
import { ENGINE_OPTIONS, engineOptions, parseFlags, positiveInt, type EngineFlags, type LibraryDeps } from './options';
import { requestsFromQueries, requestsFromTests, runReach, triggerEvalRequests, type ReachResult } from './reachRun';

export const REACH_USAGE = `Usage: skill-router reach [--library <dir>] [--client <id>] [--json] [--cut <n>] [options]

For each skill: how many of its requests reach it first in the full text and in the listing the
client shows its model (name and listed description only), the characters of its description
that are listed, and words of its body to add to the description that win lost requests back
(each verified by re-routing over the listing with the words added).

A skill's requests are its routing tests (skill-router.tests.yaml, where it is expected) and its
trigger evals (evals/evals.json, should_trigger: true), or the requests of --queries; a skill
with none gets probe requests written from its body (headings, "use when" clauses, sentences).

Options:
  --library <dir>      skill folder (default: the config's "library", else the current folder)
  --client <id>        claude-code (default: the config's reach.client), codex, copilot or cursor
  --cut <n>            what if every description were cut to n characters
  --budget <n|none>    another listing budget in characters, or none
  --queries <file>     labelled requests ({"query","skill_ids"} lines, as eval reads them)
  --tests <file>       routing tests file (default: found as check finds it)
  --config <file>      skill-router.yaml (default: one in the current folder)
  --probes <n>         probe requests per skill without requests of its own (default 3)
  --skill <id>         report only this skill (repeatable)
  --no-suggest         no words to add (faster)
  --no-rerank          rank by the first stage only (faster, less like route)
  --no-cache           measure again even if nothing changed
  --json               print one JSON object
  --model <dir>, --no-model, --no-bridge, --cache <dir>, --device <name>, --threads <n>,
  --quiet, --verbose   as for route
  -h, --help           show this help

Exit status: 0 done, 2 bad arguments, unreadable input or engine failure.
`;

/** Runs `skill-router reach`; returns the exit status. */
export async function runReachCommand(args: string[], io: CliIo, deps: LibraryDeps): Promise<number> {
  const { values } = parseFlags(
    () =>
      parseArgs({
        args,
        strict: true,
        allowPositionals: false,
        options: {
          ...ENGINE_OPTIONS,
          library: { type: 'string' },
          client: { type: 'string' },
          cut: { type: 'string' },
          budget: { type: 'string' },
          queries: { type: 'string' },
          tests: { type: 'string' },
          config: { type: 'string' },
          probes: { type: 'string' },
          skill: { type: 'string', multiple: true },
          'no-suggest': { type: 'boolean' },
          'no-rerank': { type: 'boolean' },
          'no-cache': { type: 'boolean' },
          json: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
      }),
    'reach',
  );
  if (values.help) {
    io.stdout(REACH_USAGE);
    return EXIT_OK;
  }
  const show = displayPath(io.cwd);
  const { path: configPath, config, dir: configDir } = await loadConfig(io.cwd, values.config, show);
  const root = values.library ? path.resolve(io.cwd, values.library) : config.library ? path.resolve(configDir, config.library) : io.cwd;
  if (!(await isDirectory(root))) throw new UsageError(`reach needs a skill folder: ${show(root)} is not one`);
  const client = values.client ?? config.reach?.client ?? 'claude-code';
  if (!isListingClient(client)) throw new UsageError(`unknown client "${client}"; use one of ${LISTING_CLIENTS.join(', ')}`);
  const listing: ListingOptions = {};
  if (values.cut !== undefined) listing.cutAt = positiveInt(values.cut, '--cut', 1);
  if (values.budget !== undefined) listing.budget = values.budget === 'none' ? null : positiveInt(values.budget, '--budget', 1);
  const probes = positiveInt(values.probes, '--probes', 3);

  const flags: EngineFlags = {
    ...values,
    ...(values.model === undefined && !values['no-model'] && config.model !== undefined ? { model: config.model === false ? false : path.resolve(configDir, config.model) } : {}),
  };
  const opts = engineOptions(flags, io, root);
  const service = await deps.openLibrary(opts);
  try {
    const stats = await service.index({ progress: opts.progress });
    const skills = service.skills();
    if (!skills.length) {
      io.stderr(`skill-router reach: no SKILL.md found under ${show(root)}\n`);
      return EXIT_FAILURE;
    }
    if (!values.quiet && stats.denseDisabled && !opts.noModel) io.stderr(`note: ${stats.denseDisabled}; routing by words only\n`);
    const refs = skills.map((s) => ({ id: s.id, name: s.name }));
    const testsPath = values.tests ? path.resolve(io.cwd, values.tests) : await discoverTests(configPath, config, root, show);
    const tests = testsPath ? parseRoutingTests(await readText(testsPath, 'tests file'), show(testsPath)) : [];
    const evals = await triggerEvalRequests(skills, root, show);
    const queries = values.queries ? parseQueries(await readText(path.resolve(io.cwd, values.queries), 'queries file'), show(path.resolve(io.cwd, values.queries))) : [];
    const labelled = [...requestsFromTests([...tests, ...evals], refs), ...requestsFromQueries(queries, refs)];
    const targets = values.skill?.map((ref) => {
      const found = refs.find((s) => s.id === ref) ?? refs.find((s) => s.name === ref);
      if (!found) throw new UsageError(`--skill ${ref}: no such skill in ${show(root)}`);
      return found.id;
    });
    const result = await runReach({
      service,
      client,
      listing,
      labelled,
      probes: { count: probes, seed: 22 },
      rerank: !values['no-rerank'],
      options: { suggest: !values['no-suggest'] },
      ...(targets ? { targets } : {}),
      ...(values['no-cache'] ? {} : { cacheDir: opts.cacheDir ?? defaultCacheDir(root) }),
      model: stats.model,
      progress: opts.progress,
    });
    io.stdout(values.json ? `${JSON.stringify(reachJson(result, client, listing, show(root)), null, 2)}\n` : formatReach(result, client, listing, show(root)));
    return EXIT_OK;
  } finally {
    await service.dispose();
  }
}

/** What the view is called in JSON: `listing:<client>`, with `:cut<n>` for a what-if cut. */
function viewName(client: ListingClient, listing: ListingOptions): string {
  return `listing:${client}${listing.cutAt !== undefined ? `:cut${listing.cutAt}` : ''}${listing.budget !== undefined ? `:budget${listing.budget ?? 'none'}` : ''}`;
}

/** The documented JSON shape of `reach --json` (docs/cli.md). */
export function reachJson(result: ReachResult, client: ListingClient, listing: ListingOptions, library: string) {
  const { report } = result;
  return {
    library,
    client,
    view: viewName(client, listing),
    listing: { label: LISTING_RULES[client].label, budget: result.listing.budget, used: result.listing.used, full: result.listing.full, ...(listing.cutAt !== undefined ? { cutAt: listing.cutAt } : {}) },
    totals: report.totals,
    skills: report.skills,
    verification: report.verification,
    cached: result.cached,
    ms: Math.round(result.ms),
  };
}

const pct = (n: number, d: number) => (d ? `${((n / d) * 100).toFixed(1)}%` : '-');

function listedCell(s: SkillReach): string {
  if (s.omitted) return 'not listed';
  if (s.dropped) return 'name only';
  return s.cut ? `${s.listedChars}/${s.fullChars} cut` : `${s.listedChars}`;
}

/** The text report: a row per skill, worst listing reach first, then the totals. */
export function formatReach(result: ReachResult, client: ListingClient, listing: ListingOptions, library: string): string {
  const { report } = result;
  const l = result.listing;
  const label = LISTING_RULES[client].label;
  const budget = l.budget === null ? 'no budget' : `budget ${l.budget.toLocaleString('en-US')} characters, ${l.used.toLocaleString('en-US')} used of ${l.full.toLocaleString('en-US')}`;
  const lines = [
    `Reach in ${label}'s listing (${budget}${listing.cutAt !== undefined ? `; every description cut at ${listing.cutAt}` : ''}): ${plural(report.skills.length, 'skill')} in ${library}`,
    '',
  ];
  const rows = [...report.skills].sort((a, b) => a.reachedListing / (a.requests || 1) - b.reachedListing / (b.requests || 1) || b.lost - a.lost || (a.id < b.id ? -1 : 1));
  const w = Math.max(5, ...rows.map((s) => s.id.length));
  lines.push(`${'skill'.padEnd(w)}  requests  full  listing  listed           add to the description`);
  for (const s of rows) {
    const add = s.suggest.length ? `${s.suggest.join(', ')} (wins ${s.wonBack} of ${s.lost} back)` : s.lost && (s.dropped || s.omitted) ? '(description not listed: no words help)' : '';
    const src = s.sources.probe === s.requests && s.requests ? 'p' : ' ';
    lines.push(`${s.id.padEnd(w)}  ${String(s.requests).padStart(7)}${src}  ${String(s.reachedFull).padStart(4)}  ${String(s.reachedListing).padStart(6)}${s.flagged ? '!' : ' '}  ${listedCell(s).padEnd(15)}  ${add}`);
  }
  const t = report.totals;
  lines.push(
    '',
    `${plural(t.requests, 'request')}: ${t.reachedFull} reach their skill first in full text (${pct(t.reachedFull, t.requests)}), ${t.reachedListing} in the listing (${pct(t.reachedListing, t.requests)}); ${t.lost} lost in the listing` +
      (t.suggested ? `, ${t.wonBack} won back by the suggested words of ${plural(t.suggested, 'skill')}` : ''),
  );
  if (rows.some((s) => s.flagged)) lines.push('!: the listing loses at least half of its requests');
  if (rows.some((s) => s.sources.probe === s.requests && s.requests)) lines.push('p: probe requests written from the body (the skill has no tests, evals or --queries requests)');
  lines.push(result.cached ? '(from the reach cache: nothing it depends on changed; --no-cache measures again)' : `measured in ${(result.ms / 1000).toFixed(1)} s`);
  return `${lines.join('\n')}\n`;
}
