/**
 * The server's settings: one typed source with defaults and sanitising. `package.json`
 * (`contributes.configuration`) declares the same keys and defaults; a unit test keeps them equal.
 */
import { DEFAULT_PAIR_SCAN } from '../core/analysis/scanRun';
import { DEFAULT_FINDING_POLICY } from '../core/policy/findingPolicy';
import { isListingClient, isProfileId, type ListingClient, type ProfileChoice, type ProfileId } from '../core/profiles';

export type SeverityOverride = 'error' | 'warning' | 'information' | 'hint' | 'off';
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
export type DiagnosticsScope = 'workspace' | 'openFiles';

/** Settings read per workspace folder through `workspace/configuration` (section `skillRouter`). */
export interface ServerSettings {
  /**
   * Client profiles whose rules and listing caps apply; empty in the settings means the folder's
   * default (`.claude/skills` → Claude Code, ..., none → the spec), resolved by the server.
   */
  profiles: ProfileId[];
  /** What chose `profiles`: "skillRouter.profiles", or the folder layout (core/profiles.ts `defaultProfiles`). */
  profilesFrom: string;
  /** Folder names skipped when looking for SKILL.md files (besides .git and node_modules). */
  exclude: string[];
  route: { rerank: boolean; topK: number };
  /** Share of each skill's probe requests the other must take for `skill.near-duplicate` (and conflicts). */
  nearDuplicate: { threshold: number };
  /** Judge pairs across top-level folders too (by default only copies are reported across them). */
  pairs: { acrossFolders: boolean };
  /** Lowest similarity of a reported conflict, and how many (the closest) one skill shows. */
  conflict: { threshold: number; maxPerSkill: number };
  diagnostics: {
    /** Report on every skill of the workspace, or only on open files. */
    scope: DiagnosticsScope;
    /** Also report what VS Code itself reports on SKILL.md files. */
    reportBuiltInChecks: boolean;
    /** Severity by diagnostic code; `off` hides the code. */
    severity: Record<string, SeverityOverride>;
  };
  /** Listing budget in characters for the status bar meter; null: the selected client's default. */
  listingBudget: number | null;
  /**
   * `skill.unreachable` on open skills: whose listing their requests are routed over (`off`: not
   * measured), and the share of them that must reach the skill first there.
   */
  reach: { client: ListingClient | 'off'; min: number };
  logLevel: LogLevel;
}

export const DEFAULT_SETTINGS: ServerSettings = {
  profiles: ['spec'],
  profilesFrom: 'no workspace folder',
  exclude: [],
  route: { rerank: true, topK: 10 },
  nearDuplicate: { threshold: DEFAULT_PAIR_SCAN.share },
  pairs: { acrossFolders: DEFAULT_PAIR_SCAN.acrossFolders },
  conflict: { ...DEFAULT_FINDING_POLICY.conflict },
  diagnostics: { scope: 'workspace', reportBuiltInChecks: false, severity: {} },
  listingBudget: null,
  reach: { client: 'claude-code', min: 0.5 },
  logLevel: 'info',
};

/**
 * Settings that only the client reads (model, trace), with their defaults: the model settings
 * reach the server through `initializationOptions`, so that untrusted workspaces cannot set them.
 */
export const CLIENT_SETTING_DEFAULTS: Record<string, unknown> = {
  'skillRouter.model.enabled': true,
  'skillRouter.model.folder': '',
  'skillRouter.model.device': 'cpu',
  'skillRouter.trace.server': 'off',
};

const SEVERITIES: readonly SeverityOverride[] = ['error', 'warning', 'information', 'hint', 'off'];
const LOG_LEVELS: readonly LogLevel[] = ['error', 'warn', 'info', 'debug'];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every key as `skillRouter.a.b` with its default (for the package.json test). */
export function flatDefaults(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const walk = (prefix: string, value: unknown) => {
    if (isRecord(value) && Object.keys(value).length && prefix !== 'skillRouter.diagnostics.severity') {
      for (const [k, v] of Object.entries(value)) walk(`${prefix}.${k}`, v);
    } else {
      out[prefix] = value;
    }
  };
  // The setting's default is empty (the folder chooses); DEFAULT_SETTINGS holds what a document outside any folder gets.
  const { profilesFrom: _from, ...declared } = { ...DEFAULT_SETTINGS, profiles: [] };
  walk('skillRouter', declared);
  return { ...out, ...CLIENT_SETTING_DEFAULTS };
}

/**
 * Turns what the client sent (anything) into settings: unknown or ill-typed values fall back to
 * the default, and each such value is named in `problems`.
 */
export function sanitiseSettings(raw: unknown): { settings: ServerSettings; problems: string[] } {
  const problems: string[] = [];
  const src = isRecord(raw) ? raw : {};
  const d = DEFAULT_SETTINGS;
  const section = (key: string): Record<string, unknown> => (isRecord(src[key]) ? (src[key] as Record<string, unknown>) : {});
  const pick = <T>(value: unknown, key: string, ok: (v: unknown) => boolean, fallback: T): T => {
    if (value === undefined || value === null) return fallback;
    if (ok(value)) return value as T;
    problems.push(`skillRouter.${key}: ignored ${JSON.stringify(value)}; using ${JSON.stringify(fallback)}`);
    return fallback;
  };
  const isBool = (v: unknown) => typeof v === 'boolean';
  const unit = (v: unknown) => typeof v === 'number' && v >= 0 && v <= 1;

  // Empty: the folder's default, which the server resolves (it knows the folder).
  let profiles: ProfileId[] = [];
  if (Array.isArray(src.profiles)) {
    const good = src.profiles.filter((p): p is ProfileId => typeof p === 'string' && isProfileId(p));
    const bad = src.profiles.filter((p) => !(typeof p === 'string' && isProfileId(p)));
    if (bad.length) problems.push(`skillRouter.profiles: ignored unknown profile ${bad.map((b) => JSON.stringify(b)).join(', ')}`);
    profiles = [...new Set(good)];
  } else if (src.profiles !== undefined && src.profiles !== null) {
    problems.push('skillRouter.profiles: must be a list of profiles');
  }

  const exclude = pick<string[]>(src.exclude, 'exclude', (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'), d.exclude);
  const route = section('route');
  const near = section('nearDuplicate');
  const pairs = section('pairs');
  const conflict = section('conflict');
  const diag = section('diagnostics');
  const reach = section('reach');

  const severity: Record<string, SeverityOverride> = {};
  if (isRecord(diag.severity)) {
    for (const [code, v] of Object.entries(diag.severity)) {
      if (typeof v === 'string' && (SEVERITIES as readonly string[]).includes(v)) severity[code] = v as SeverityOverride;
      else problems.push(`skillRouter.diagnostics.severity.${code}: use one of ${SEVERITIES.join(', ')}`);
    }
  }

  const settings: ServerSettings = {
    profiles,
    profilesFrom: profiles.length ? 'skillRouter.profiles' : d.profilesFrom,
    exclude,
    route: {
      rerank: pick(route.rerank, 'route.rerank', isBool, d.route.rerank),
      topK: pick(route.topK, 'route.topK', (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 100, d.route.topK),
    },
    nearDuplicate: {
      threshold: pick(near.threshold, 'nearDuplicate.threshold', unit, d.nearDuplicate.threshold),
    },
    pairs: {
      acrossFolders: pick(pairs.acrossFolders, 'pairs.acrossFolders', isBool, d.pairs.acrossFolders),
    },
    conflict: {
      threshold: pick(conflict.threshold, 'conflict.threshold', unit, d.conflict.threshold),
      maxPerSkill: pick(conflict.maxPerSkill, 'conflict.maxPerSkill', (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 1000, d.conflict.maxPerSkill),
    },
    diagnostics: {
      scope: pick(diag.scope, 'diagnostics.scope', (v) => v === 'workspace' || v === 'openFiles', d.diagnostics.scope),
      reportBuiltInChecks: pick(diag.reportBuiltInChecks, 'diagnostics.reportBuiltInChecks', isBool, d.diagnostics.reportBuiltInChecks),
      severity,
    },
    listingBudget: pick(src.listingBudget, 'listingBudget', (v) => Number.isInteger(v) && (v as number) > 0, d.listingBudget),
    reach: {
      client: pick(reach.client, 'reach.client', (v) => v === 'off' || (typeof v === 'string' && isListingClient(v)), d.reach.client),
      min: pick(reach.min, 'reach.min', unit, d.reach.min),
    },
    logLevel: pick(src.logLevel, 'logLevel', (v) => (LOG_LEVELS as readonly unknown[]).includes(v), d.logLevel),
  };
  return { settings, problems };
}

/** `settings` with the profiles resolved: the ones set, else the default of the folder at `root` (null: none). */
export function withProfiles(settings: ServerSettings, choose: () => ProfileChoice | null): ServerSettings {
  if (settings.profiles.length) return settings;
  const choice = choose();
  return choice ? { ...settings, profiles: choice.profiles, profilesFrom: choice.from } : { ...settings, profiles: [...DEFAULT_SETTINGS.profiles], profilesFrom: DEFAULT_SETTINGS.profilesFrom };
}

/** Whether two settings differ in what the index is built from (then the folder is re-indexed). */
export function indexAffected(a: ServerSettings, b: ServerSettings): boolean {
  const key = (s: ServerSettings) => JSON.stringify([s.profiles, s.exclude, s.nearDuplicate, s.pairs]);
  return key(a) !== key(b);
}
