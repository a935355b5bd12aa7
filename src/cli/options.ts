/**
 * The command-line flags that choose how a library is opened, shared by `route`, `index`,
 * `validate`, `eval` and `check` (docs/cli.md: "these flags work everywhere"), and the one
 * mapping from them to `openLibrary` options.
 */
import * as path from 'node:path';
import { isListingClient, isProfileId, LISTING_CLIENTS, PROFILES, type ListingClient, type ProfileChoice, type ProfileId } from '../core/profiles';
import { workspaceProfiles } from '../node/workspaceProfiles';
import type { SkillService } from '../core/service';
import type { RouterIdentity } from '../core/analysis/scanRun';
import type { Device, OpenLibraryOptions } from '../node/library';
import { stderrLogger, stderrProgress, UsageError, type CliIo } from './io';

/** The engine factory, injected so tests can pass a fake library. */
export interface LibraryDeps {
  openLibrary: (opts: OpenLibraryOptions) => Promise<SkillService>;
  /**
   * What `openLibrary(opts)` would route with, told without loading a model (`describeRouter`);
   * `check` reads cached pair findings with it. Absent: `check` always opens the library in full.
   */
  routerIdentity?: (opts: OpenLibraryOptions) => RouterIdentity | null;
}

/** Engine flags, as `node:util` `parseArgs` options. */
export const ENGINE_OPTIONS = {
  model: { type: 'string' },
  'no-model': { type: 'boolean' },
  adapter: { type: 'string' },
  'no-adapter': { type: 'boolean' },
  'no-bridge': { type: 'boolean' },
  reranker: { type: 'string' },
  cache: { type: 'string' },
  device: { type: 'string' },
  threads: { type: 'string' },
  profile: { type: 'string', multiple: true },
  quiet: { type: 'boolean' },
  verbose: { type: 'boolean' },
} as const;

/** What `route`, `eval` and `check` rank over: the full text, or a client's listing. */
export const VIEW_OPTIONS = {
  view: { type: 'string' },
  client: { type: 'string' },
} as const;

/**
 * The route view of `--view full|listing` and `--client <id>`: undefined for the full text (the
 * default), else the listing of the client (default claude-code).
 */
export function routeView(flags: { view?: string; client?: string }): { client: ListingClient } | undefined {
  const view = flags.view ?? 'full';
  if (view !== 'full' && view !== 'listing') throw new UsageError(`unknown view "${view}"; use full or listing`);
  if (view === 'full') {
    if (flags.client !== undefined) throw new UsageError('--client names whose listing to rank over: use it with --view listing');
    return undefined;
  }
  const client = flags.client ?? 'claude-code';
  if (!isListingClient(client)) throw new UsageError(`unknown client "${client}"; use one of ${LISTING_CLIENTS.join(', ')}`);
  return { client };
}

/** The engine flags with `--library` and `--json`, for `route`, `index` and `validate`. */
export const LIBRARY_OPTIONS = {
  library: { type: 'string' },
  ...ENGINE_OPTIONS,
  json: { type: 'boolean' },
} as const;

/** Parsed engine flags; `model: false` (from a config) means lexical only, like `--no-model`. */
export interface EngineFlags {
  model?: string | false;
  'no-model'?: boolean;
  adapter?: string;
  'no-adapter'?: boolean;
  'no-bridge'?: boolean;
  reranker?: string;
  cache?: string;
  device?: string;
  threads?: string;
  profile?: string[];
  quiet?: boolean;
  verbose?: boolean;
}

const DEVICES: readonly Device[] = ['cpu', 'cuda', 'dml', 'coreml'];

/** `--profile a,b --profile c` as profile ids, without repeats; undefined when none is given. */
export function profileList(values: readonly string[] | undefined): ProfileId[] | undefined {
  const list = (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  for (const p of list) {
    if (!isProfileId(p)) throw new UsageError(`unknown profile "${p}"; use one of ${PROFILES.join(', ')}`);
  }
  return list.length ? ([...new Set(list)] as ProfileId[]) : undefined;
}

/** The profiles `--profile` names, or the library's default (the editor's rule), with what chose them. */
export function profileChoice(values: readonly string[] | undefined, root: string): ProfileChoice {
  const chosen = profileList(values);
  return chosen ? { profiles: chosen, from: '--profile' } : workspaceProfiles(root);
}

export function positiveInt(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer, got "${value}"`);
  return n;
}

/**
 * `openLibrary` options from the engine flags, for the library at `root` (resolved against the
 * working folder); `--model` resolves against `base` (default: the working folder).
 */
export function engineOptions(flags: EngineFlags, io: CliIo, root: string, base = io.cwd): OpenLibraryOptions {
  if (flags.model !== undefined && flags.model !== false && flags['no-model']) {
    throw new UsageError('--model and --no-model exclude each other');
  }
  if (flags.adapter !== undefined && flags['no-adapter']) throw new UsageError('--adapter and --no-adapter exclude each other');
  const device = flags.device ?? 'cpu';
  if (!(DEVICES as readonly string[]).includes(device)) {
    throw new UsageError(`unknown device "${device}"; use cpu, cuda, dml or coreml`);
  }
  const threads = flags.threads === undefined ? undefined : positiveInt(flags.threads, '--threads', 1);
  const profiles = profileChoice(flags.profile, path.resolve(io.cwd, root)).profiles;
  const opts: OpenLibraryOptions = {
    root: path.resolve(io.cwd, root),
    device: device as Device,
    logger: stderrLogger(io, flags.verbose),
    progress: stderrProgress(io, flags.quiet),
    lexicalSnapshot: true,
  };
  if (flags['no-model'] || flags.model === false) opts.noModel = true;
  if (flags['no-bridge']) opts.noBridge = true;
  if (flags.model) opts.modelDir = path.resolve(base, flags.model);
  if (flags['no-adapter']) opts.adapterDir = null;
  else if (flags.adapter) opts.adapterDir = path.resolve(io.cwd, flags.adapter);
  if (flags.reranker) opts.rerankerDir = path.resolve(io.cwd, flags.reranker);
  if (flags.cache) opts.cacheDir = path.resolve(io.cwd, flags.cache);
  if (threads !== undefined) opts.threads = threads;
  opts.profiles = profiles;
  return opts;
}

/** Runs parseArgs and turns its errors into a UsageError that points at `--help`. */
export function parseFlags<T>(run: () => T, command: string): T {
  try {
    return run();
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      throw new UsageError(`${(err as Error).message}\nRun "skill-router ${command} --help" for usage.`);
    }
    throw err;
  }
}
