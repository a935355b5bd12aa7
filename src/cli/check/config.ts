/**
 * `skill-router.yaml` / `.yml` / `.json`: reading and checking the config of `check`, and finding
 * it and the routing tests file on disk (the names and the search order are core's, shared with
 * the editor: core/configFiles.ts).
 */
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { findConfigFile, findTestsFile, type ConfigFileAccess } from '../../core/configFiles';
import { DEFAULT_TEST_TOP } from '../../core/eval/routingTest';
import type { PairScanOptions } from '../../core/analysis/scanRun';
import { DEFAULT_FINDING_POLICY, type FindingPolicy } from '../../core/policy/findingPolicy';
import { isListingClient, isProfileId, LISTING_CLIENTS, PROFILES, type ListingClient, type ProfileId } from '../../core/profiles';
import { readText, UsageError } from '../io';
import { isPositiveInt, isRecord, parseStructured, stringOrList } from './structuredFile';

/** `skill-router.yaml` / `.yml` / `.json`. Relative paths resolve against the config's folder. */
export interface CheckConfig {
  /** Skill folder or `.jsonl` library (default: the config's folder). */
  library?: string;
  /** Routing tests file (default: `skill-router.tests.yaml|yml|json` next to the config, then in the library). */
  tests?: string;
  /** Client profiles the findings are computed for (default: the engine's, `spec`). */
  profiles?: ProfileId[];
  /** Listing budgets in characters by client; `null` switches a default budget off. */
  budgets?: Record<string, number | null>;
  /** Default N of "in the top N" for tests without `top` (default 5). */
  top?: number;
  /** Embedding model folder, or `false` for lexical routing only. */
  model?: string | false;
  /** Limits on reported `skill.conflict` findings, as the editor's `skillRouter.conflict.*` settings. */
  conflict?: Partial<FindingPolicy['conflict']>;
  /** Share of probe requests for near-duplicates, as the editor's `skillRouter.nearDuplicate.threshold`. */
  nearDuplicate?: { threshold?: number };
  /** Pairs across top-level folders, as the editor's `skillRouter.pairs.acrossFolders`. */
  pairs?: { acrossFolders?: boolean };
  /**
   * The reach gate: a skill whose requests reach it first in `client`'s listing less often than
   * `min` (a share, 0 to 1) is a `skill.unreachable` error (see `skill-router reach`).
   */
  reach?: ReachGate;
}

/** `reach:` of the config. */
export interface ReachGate {
  client: ListingClient;
  /** Lowest share of a skill's requests that must reach it first in the listing. */
  min: number;
  /** What-if: every description cut at this many characters. */
  cut?: number;
}

/** N of "in the top N" when neither the test nor the config says (shared with the query panel). */
export const DEFAULT_TOP = DEFAULT_TEST_TOP;

const CONFIG_KEYS = ['library', 'tests', 'profiles', 'budgets', 'top', 'model', 'conflict', 'nearDuplicate', 'pairs', 'reach'];
const CONFLICT_KEYS = ['threshold', 'maxPerSkill'];
const REACH_KEYS = ['client', 'min', 'cut'];
/** The most `conflict.maxPerSkill` may be (as the editor's setting). */
const MAX_CONFLICTS_PER_SKILL = 1000;

/** Parses and checks a config file; throws UsageError naming the file and the problem. */
export function parseConfig(text: string, file: string): CheckConfig {
  const doc = parseStructured(text, file);
  if (doc === null || doc === undefined) return {};
  if (!isRecord(doc)) throw new UsageError(`${file}: the config must be a mapping of ${CONFIG_KEYS.join(', ')}`);
  const problems: string[] = [];
  const config: CheckConfig = {};
  for (const key of Object.keys(doc)) {
    if (!CONFIG_KEYS.includes(key)) problems.push(`unknown key "${key}" (known: ${CONFIG_KEYS.join(', ')})`);
  }
  for (const key of ['library', 'tests'] as const) {
    const v = doc[key];
    if (v === undefined) continue;
    if (typeof v === 'string' && v.trim()) config[key] = v;
    else problems.push(`"${key}" must be a path`);
  }
  if (doc.profiles !== undefined) {
    const list = stringOrList(doc.profiles);
    if (!list) problems.push('"profiles" must be a profile or a list of profiles');
    else {
      const bad = list.filter((p) => !isProfileId(p));
      if (bad.length) problems.push(`unknown profile ${bad.map((b) => `"${b}"`).join(', ')} (use ${PROFILES.join(', ')})`);
      else config.profiles = [...new Set(list)] as ProfileId[];
    }
  }
  if (doc.budgets !== undefined) {
    if (!isRecord(doc.budgets)) problems.push('"budgets" must map client names to character counts');
    else {
      const budgets: Record<string, number | null> = {};
      for (const [client, v] of Object.entries(doc.budgets)) {
        if (v === null || isPositiveInt(v)) budgets[client] = v;
        else problems.push(`budget of "${client}" must be a positive whole number of characters, or null`);
      }
      config.budgets = budgets;
    }
  }
  if (doc.top !== undefined) {
    if (isPositiveInt(doc.top)) config.top = doc.top;
    else problems.push('"top" must be a positive integer');
  }
  if (doc.model !== undefined && doc.model !== null) {
    if (doc.model === false) config.model = false;
    else if (typeof doc.model === 'string' && doc.model.trim()) config.model = doc.model;
    else problems.push('"model" must be a model folder, or false for lexical routing only');
  }
  if (doc.conflict !== undefined) {
    if (!isRecord(doc.conflict)) problems.push(`"conflict" must be a mapping of ${CONFLICT_KEYS.join(', ')}`);
    else {
      const conflict: NonNullable<CheckConfig['conflict']> = {};
      const { threshold, maxPerSkill } = doc.conflict;
      for (const key of Object.keys(doc.conflict)) {
        if (!CONFLICT_KEYS.includes(key)) problems.push(`unknown key "conflict.${key}" (known: ${CONFLICT_KEYS.join(', ')})`);
      }
      if (threshold !== undefined) {
        if (typeof threshold === 'number' && threshold >= 0 && threshold <= 1) conflict.threshold = threshold;
        else problems.push('"conflict.threshold" must be a number from 0 to 1');
      }
      if (maxPerSkill !== undefined) {
        if (isPositiveInt(maxPerSkill) && maxPerSkill <= MAX_CONFLICTS_PER_SKILL) conflict.maxPerSkill = maxPerSkill;
        else problems.push(`"conflict.maxPerSkill" must be a whole number from 1 to ${MAX_CONFLICTS_PER_SKILL}`);
      }
      config.conflict = conflict;
    }
  }
  if (doc.nearDuplicate !== undefined) {
    const near = doc.nearDuplicate;
    if (!isRecord(near) || Object.keys(near).some((k) => k !== 'threshold')) problems.push('"nearDuplicate" must be a mapping of threshold');
    else if (near.threshold !== undefined && !(typeof near.threshold === 'number' && near.threshold >= 0 && near.threshold <= 1)) {
      problems.push('"nearDuplicate.threshold" must be a number from 0 to 1');
    } else config.nearDuplicate = near.threshold === undefined ? {} : { threshold: near.threshold as number };
  }
  if (doc.pairs !== undefined) {
    const pairs = doc.pairs;
    if (!isRecord(pairs) || Object.keys(pairs).some((k) => k !== 'acrossFolders')) problems.push('"pairs" must be a mapping of acrossFolders');
    else if (pairs.acrossFolders !== undefined && typeof pairs.acrossFolders !== 'boolean') problems.push('"pairs.acrossFolders" must be true or false');
    else config.pairs = pairs.acrossFolders === undefined ? {} : { acrossFolders: pairs.acrossFolders as boolean };
  }
  if (doc.reach !== undefined && doc.reach !== null) {
    const gate = parseReachGate(doc.reach, problems);
    if (gate) config.reach = gate;
  }
  if (problems.length) throw new UsageError(problems.map((p) => `${file}: ${p}`).join('\n'));
  return config;
}

/** What the config asks of the pair scan (the editor's `skillRouter.nearDuplicate` and `pairs` settings). */
export function pairScanOptions(config: CheckConfig): Partial<PairScanOptions> {
  return {
    ...(config.nearDuplicate?.threshold !== undefined ? { share: config.nearDuplicate.threshold } : {}),
    ...(config.pairs?.acrossFolders !== undefined ? { acrossFolders: config.pairs.acrossFolders } : {}),
  };
}

/** `reach: {client, min, cut?}`; problems are pushed, null when it is not usable. */
function parseReachGate(v: unknown, problems: string[]): ReachGate | null {
  if (!isRecord(v)) {
    problems.push(`"reach" must be a mapping of ${REACH_KEYS.join(', ')}`);
    return null;
  }
  const before = problems.length;
  for (const key of Object.keys(v)) if (!REACH_KEYS.includes(key)) problems.push(`unknown key "reach.${key}" (known: ${REACH_KEYS.join(', ')})`);
  const client = v.client ?? 'claude-code';
  if (typeof client !== 'string' || !isListingClient(client)) problems.push(`"reach.client" must be one of ${LISTING_CLIENTS.join(', ')}`);
  if (typeof v.min !== 'number' || !(v.min >= 0 && v.min <= 1)) problems.push('"reach.min" must be a share from 0 to 1 (0.5: half of a skill\'s requests)');
  if (v.cut !== undefined && !isPositiveInt(v.cut)) problems.push('"reach.cut" must be a positive whole number of characters');
  if (problems.length > before) return null;
  return { client: client as ListingClient, min: v.min as number, ...(isPositiveInt(v.cut) ? { cut: v.cut } : {}) };
}

/** The finding policy of a config: its `conflict` limits over the defaults (the editor's). */
export function findingPolicy(config: CheckConfig): FindingPolicy {
  return { conflict: { ...DEFAULT_FINDING_POLICY.conflict, ...config.conflict } };
}

/** Discovery on the local file system. */
export const NODE_FILE_ACCESS: ConfigFileAccess = { exists, resolve: (dir, rel) => path.resolve(dir, rel) };

/**
 * The same with a synchronous stat, for thousands of lookups in a row (an evals file in every
 * skill folder): 2 x 2,817 of them took ~30 ms this way, ~100 ms through the thread pool.
 */
export const SYNC_FILE_ACCESS: ConfigFileAccess = { exists: async (file) => existsSync(file), resolve: NODE_FILE_ACCESS.resolve };

export async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

export async function isDirectory(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isDirectory();
  } catch {
    return false;
  }
}

/** The config file of folder `dir`, if it has one. */
export function discoverConfig(dir: string): Promise<string | undefined> {
  return findConfigFile(dir, NODE_FILE_ACCESS);
}

/**
 * The routing tests file: the config's `tests` (which must exist), else one next to the config,
 * else one in the library folder; undefined when there is none. `show` displays a path in errors.
 */
export async function discoverTests(
  configPath: string | undefined,
  config: CheckConfig,
  libraryDir: string | undefined,
  show: (file: string) => string,
): Promise<string | undefined> {
  const found = await findTestsFile(
    { configDir: configPath ? path.dirname(configPath) : undefined, tests: config.tests, libraryDir },
    NODE_FILE_ACCESS,
  );
  if (found?.configured && !found.exists) throw new UsageError(`tests file not found: ${show(found.file)} (from ${show(configPath!)})`);
  return found?.file;
}

/** How the CLI names a file: relative to `cwd` with `/` when it lies inside it, else absolute. */
export function displayPath(cwd: string): (file: string) => string {
  return (file) => {
    const rel = path.relative(cwd, file);
    return rel === '' ? '.' : rel.startsWith('..') || path.isAbsolute(rel) ? file : rel.split(path.sep).join('/');
  };
}

/**
 * The config a command runs with: `--config` (relative to `cwd`), else one found from `cwd`
 * upwards, parsed; `dir` is the folder its paths are relative to (`cwd` without a config).
 */
export async function loadConfig(cwd: string, flag: string | undefined, show: (file: string) => string): Promise<{ path: string | undefined; config: CheckConfig; dir: string }> {
  const file = flag ? path.resolve(cwd, flag) : await discoverConfig(cwd);
  const config = file ? parseConfig(await readText(file, 'config'), show(file)) : {};
  return { path: file, config, dir: file ? path.dirname(file) : cwd };
}
