/**
 * Client profiles: what the Agent Skills spec and each client (Claude Code, Copilot, Codex) do
 * with a skill's front matter. Which keys they accept, how much of each skill's entry they list
 * for the model, and how many characters the listing of the whole library may take. Validation
 * (`parse/validate.ts`), the editor's hover and quick fixes, the query panel, the status bar meter
 * and `skill-router check` all read these rules from here, so they agree.
 */

export type ProfileId = 'spec' | 'claude-code' | 'copilot' | 'codex';
export const PROFILES: readonly ProfileId[] = ['spec', 'claude-code', 'copilot', 'codex'];

export function isProfileId(value: string): value is ProfileId {
  return (PROFILES as readonly string[]).includes(value);
}

/** Front-matter keys the spec defines. */
export const SPEC_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'] as const;
/** The spec's limits, in characters (code points for the name). */
export const MAX_NAME = 64;
export const MAX_DESCRIPTION = 1024;
export const MAX_COMPATIBILITY = 500;

export interface ClientProfile {
  id: ProfileId;
  label: string;
  /** Keys the client understands beyond the spec's. */
  extraKeys: readonly string[];
  /** Characters of the listing entry the client shows the model; beyond it the text is cut. */
  listingCap?: number;
  /** Fields that make up the listing entry. */
  listingFields: readonly string[];
  /** Descriptions longer than this make the client skip the skill entirely. */
  dropDescriptionOver?: number;
}

/**
 * What a client does when the listing of all skills is over its budget, and what the author can
 * do about it: the status bar's tooltip says it. Clients do not publish exact rules, so this says
 * what their listing does, not by how much.
 */
export const OVER_BUDGET = {
  client: 'past the budget the client shortens descriptions or leaves skills out of the list it shows the model, so those skills are not offered',
  author: 'shorten the longest descriptions (keep what says when to use the skill), merge near-duplicates, or move skills this workspace does not need out of it',
} as const;

/** What each client does with SKILL.md front matter, from its documentation. */
export const CLIENT_PROFILES: Record<ProfileId, ClientProfile> = {
  spec: { id: 'spec', label: 'Agent Skills spec', extraKeys: [], listingFields: ['description'] },
  'claude-code': {
    id: 'claude-code',
    label: 'Claude Code',
    extraKeys: [
      'when_to_use',
      'disable-model-invocation',
      'user-invocable',
      'argument-hint',
      'model',
      'context',
      'agent',
      'hooks',
      'paths',
      'version',
    ],
    listingCap: 1536,
    listingFields: ['description', 'when_to_use'],
  },
  copilot: {
    id: 'copilot',
    label: 'GitHub Copilot',
    extraKeys: ['argument-hint', 'user-invocable', 'disable-model-invocation'],
    listingFields: ['description'],
  },
  codex: {
    id: 'codex',
    label: 'Codex',
    extraKeys: [],
    listingFields: ['description'],
    dropDescriptionOver: MAX_DESCRIPTION,
  },
};

/** Keys allowed by the selected profiles (the spec's always), spec keys first. */
export function allowedKeys(profiles: readonly ProfileId[]): string[] {
  const keys: string[] = [...SPEC_FIELDS];
  for (const p of profiles) for (const k of CLIENT_PROFILES[p].extraKeys) if (!keys.includes(k)) keys.push(k);
  return keys;
}

/** The text a client lists for the model, after its cap. */
export function listingText(data: Record<string, unknown>, profile: ClientProfile): { text: string; full: number; cut: boolean; dropped: boolean } {
  const parts = profile.listingFields.map((f) => data[f]).filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  const full = parts.join('\n');
  const description = typeof data.description === 'string' ? data.description : '';
  if (profile.dropDescriptionOver !== undefined && description.length > profile.dropDescriptionOver) {
    return { text: '', full: full.length, cut: false, dropped: true };
  }
  if (profile.listingCap !== undefined && full.length > profile.listingCap) {
    return { text: full.slice(0, profile.listingCap), full: full.length, cut: true, dropped: false };
  }
  return { text: full, full: full.length, cut: false, dropped: false };
}

/**
 * Default listing budgets, in characters of `name + description` summed over all skills.
 * Claude Code lists skills within about 1% of the context window: 1% of 200k tokens is 2,000
 * tokens, about 8,000 characters at 4 characters a token. Codex allows about 2% (16,000). Other
 * clients (Copilot) publish no figure: add one under `budgets` to check it.
 */
export const DEFAULT_BUDGETS: Readonly<Record<string, number>> = { 'claude-code': 8000, codex: 16000 };

/** The defaults with configured budgets applied; clients set to null are dropped. */
export function effectiveBudgets(configured?: Record<string, number | null>): Record<string, number> {
  const merged: Record<string, number | null> = { ...DEFAULT_BUDGETS, ...configured };
  const out: Record<string, number> = {};
  for (const [client, budget] of Object.entries(merged)) if (budget !== null) out[client] = budget;
  return out;
}

/** One client's listing size against its budget. */
export interface BudgetReport {
  client: string;
  /** Characters allowed. */
  budget: number;
  /** Characters of `name + description` summed over all skills (UTF-16 code units). */
  used: number;
  skills: number;
  over: boolean;
}

/** One skill's share of the listing: what it costs and how the client lists it. */
export interface ListingCost {
  id: string;
  name: string;
  path: string;
  /** Characters of `name + description`, as the budget counts them. */
  chars: number;
  /** How the profile lists it: whole, cut at its cap, or left out. */
  listed: 'full' | 'cut' | 'dropped';
}

/** Every skill's listing cost under `profile`, most expensive first (ties by name). */
export function listingCosts(
  skills: readonly { id: string; name: string; path: string; description: string; frontMatter: Record<string, unknown> }[],
  profile: ClientProfile,
): ListingCost[] {
  return skills
    .map((s) => {
      const l = listingText(s.frontMatter, profile);
      return { id: s.id, name: s.name, path: s.path, chars: s.name.length + s.description.length, listed: l.dropped ? 'dropped' as const : l.cut ? 'cut' as const : 'full' as const };
    })
    .sort((a, b) => b.chars - a.chars || a.name.localeCompare(b.name));
}

/** Each client's listing size against its budget, in client name order. */
export function listingBudgets(
  skills: readonly { name: string; description: string }[],
  budgets: Record<string, number>,
): BudgetReport[] {
  const used = skills.reduce((sum, s) => sum + s.name.length + s.description.length, 0);
  return Object.keys(budgets)
    .sort()
    .map((client) => ({ client, budget: budgets[client], used, skills: skills.length, over: used > budgets[client] }));
}
