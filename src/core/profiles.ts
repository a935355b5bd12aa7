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

/** Project folders where a client looks for skills, and the profile each stands for (from the clients' documentation). */
export const CLIENT_SKILL_FOLDERS: readonly (readonly [folder: string, profile: ProfileId])[] = [
  ['.claude/skills', 'claude-code'],
  ['.github/skills', 'copilot'],
  ['.agents/skills', 'codex'],
  ['.codex/skills', 'codex'],
];

/** The profiles a library is checked with when none are chosen, and what chose them, in words. */
export interface ProfileChoice {
  profiles: ProfileId[];
  /** "skillRouter.profiles", "--profile", ".claude/skills", "no client skill folder found: .claude/skills, ...". */
  from: string;
}

/**
 * The default profiles of a library, one rule for the editor and `check`: the client whose skill
 * folder the library is (`root` lies in `.claude/skills`) or holds (`has('.github/skills')`);
 * several when it holds several; the spec alone when it is none of them. `root` is `/`-separated.
 */
export function defaultProfiles(root: string, has: (folder: string) => boolean): ProfileChoice {
  const inside = CLIENT_SKILL_FOLDERS.find(([folder]) => `${root.replace(/\/+$/, '')}/`.includes(`/${folder}/`));
  if (inside) return { profiles: [inside[1]], from: inside[0] };
  const held = CLIENT_SKILL_FOLDERS.filter(([folder]) => has(folder));
  if (held.length) return { profiles: [...new Set(held.map(([, p]) => p))], from: held.map(([f]) => f).join(', ') };
  return { profiles: ['spec'], from: `no client skill folder found: ${CLIENT_SKILL_FOLDERS.map(([f]) => f).join(', ')}` };
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

/** The code of the library-wide listing budget finding (the editor's and `check`'s). */
export const LISTING_OVER = 'budget.listing-over';

/**
 * The whole library over a client's listing budget, said once: on the skill whose entry costs the
 * most (shortening it helps most), with how far over and what the client does. Null within budget.
 */
export function overBudgetNote(
  skills: readonly (ListableSkill & { path: string; description: string })[],
  client: ListingClient,
  budget: number,
): { skillId: string; message: string } | null {
  const label = LISTING_RULES[client].label;
  const listing = simulateListing(skills, client, { budget });
  if (listing.full <= budget) return null;
  const costs = listingCosts(skills, CLIENT_PROFILES[LISTING_RULES[client].profile]);
  const top = costs[0];
  if (!top) return null;
  const short = listing.entries.filter((e) => e.descriptionDropped || e.omitted).length;
  const cut = listing.entries.filter((e) => e.cut && !e.descriptionDropped && !e.omitted).length;
  const times = listing.full / budget;
  const effect = [short ? `lists ${short} of them by name only or not at all` : '', cut ? `cuts ${cut} descriptions` : ''].filter(Boolean).join(' and ');
  return {
    skillId: top.id,
    message:
      `The ${skills.length.toLocaleString('en-US')} skills list ${listing.full.toLocaleString('en-US')} characters of name + description, ` +
      `${times >= 1.95 ? `${times.toFixed(1)} times` : `${Math.round((times - 1) * 100)}% over`} ${label}'s budget of ${budget.toLocaleString('en-US')}` +
      `${effect ? `: ${label} ${effect}` : ''}. This skill's entry is the longest (${top.chars.toLocaleString('en-US')} characters): ${OVER_BUDGET.author}.`,
  };
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

/** Clients whose listing of a library can be simulated (`simulateListing`). */
export type ListingClient = 'claude-code' | 'codex' | 'copilot' | 'cursor';
export const LISTING_CLIENTS: readonly ListingClient[] = ['claude-code', 'codex', 'copilot', 'cursor'];

export function isListingClient(value: string): value is ListingClient {
  return (LISTING_CLIENTS as readonly string[]).includes(value);
}

/** How a client lists a library for the model (docs/listing.md cites where each rule comes from). */
export interface ListingRule {
  client: ListingClient;
  label: string;
  /** The profile whose per-entry rules apply (fields, cap, dropped descriptions). */
  profile: ProfileId;
  /** Characters of `name + listed text` over all skills; null: no published budget. */
  budget: number | null;
  /**
   * What the client does over budget. `drop-descriptions`: whole descriptions go, names stay (Claude
   * Code drops those of the skills you invoke least; offline there is no usage, so the simulation
   * keeps descriptions in name order and drops the rest). `shorten-then-drop`: every description is
   * cut to one common length (Codex hands characters out round-robin), and when even names do not
   * fit, skills are left out from the end.
   */
  overflow: 'drop-descriptions' | 'shorten-then-drop' | null;
  /** Front-matter keys (with the value) that leave a skill out of the listing the model chooses from. */
  excludeWhen: readonly (readonly [string, unknown])[];
}

export const LISTING_RULES: Record<ListingClient, ListingRule> = {
  'claude-code': { client: 'claude-code', label: 'Claude Code', profile: 'claude-code', budget: DEFAULT_BUDGETS['claude-code'], overflow: 'drop-descriptions', excludeWhen: [['disable-model-invocation', true]] },
  codex: { client: 'codex', label: 'Codex', profile: 'codex', budget: DEFAULT_BUDGETS.codex, overflow: 'shorten-then-drop', excludeWhen: [] },
  copilot: { client: 'copilot', label: 'GitHub Copilot', profile: 'copilot', budget: null, overflow: null, excludeWhen: [['disable-model-invocation', true]] },
  cursor: { client: 'cursor', label: 'Cursor', profile: 'spec', budget: null, overflow: null, excludeWhen: [] },
};

/** One skill as a client lists it. */
export interface ListedSkill {
  id: string;
  name: string;
  /** The text listed after the name (description, and `when_to_use` for Claude Code); '' when dropped. */
  text: string;
  /** Characters of the full entry text, before any cut. */
  fullChars: number;
  /** The entry was cut (a per-entry cap, or Codex shortening it to fit the budget). */
  cut: boolean;
  /** The description was left out (over budget, or over the client's limit): the name alone is listed. */
  descriptionDropped: boolean;
  /** The skill is not listed at all (excluded from implicit use, or no room even for its name). */
  omitted: boolean;
  /** Why it is cut, dropped or omitted, in words; absent when listed whole. */
  why?: string;
  /** Cut, dropped or omitted because the whole listing is over the client's budget, not for anything of its own. */
  overBudget?: true;
}

/** A library as one client lists it. */
export interface ClientListing {
  client: ListingClient;
  label: string;
  budget: number | null;
  /** Characters of `name + text` the listing takes. */
  used: number;
  /** Characters the full listing would take. */
  full: number;
  entries: ListedSkill[];
}

/** What the simulation reads of a skill. */
export interface ListableSkill {
  id: string;
  name: string;
  frontMatter: Record<string, unknown>;
  /** False when the client is told not to pick it itself (Codex `agents/openai.yaml` `policy.allow_implicit_invocation: false`). */
  implicit?: boolean;
}

/** Overrides of a simulation: another budget (null: none), or every entry cut at `cutAt` characters. */
export interface ListingOptions {
  budget?: number | null;
  cutAt?: number;
  /**
   * Text added to skills' descriptions, by skill id (the words `skill-router reach` suggests, to
   * verify them): at the end of a description the client lists whole, at its start when the
   * listing cuts it (so that the words are among what is listed), as the quick fix adds them.
   */
  added?: Readonly<Record<string, string>>;
}

/**
 * A description with `words` added: at its end, or at its start when the listing cuts the
 * description (`cut`), so that they are listed. The one rule the verification and the editor's
 * quick fix share.
 */
export function withAddedWords(description: string, words: string, cut: boolean): string {
  const d = description.trim();
  if (!d) return words;
  if (cut) return `${words.replace(/[.;,]?$/, '.')} ${d}`;
  return `${d}${/[.!?。！？]$/u.test(d) ? '' : '.'} ${words}`;
}

/**
 * What a client lists of `skills`, by its rules (`LISTING_RULES`): each entry's cap, the skills it
 * leaves out, and what it does over its budget (`opts` overrides the budget, or cuts every entry
 * at a length, to ask "what if descriptions were cut to 90 characters").
 */
export function simulateListing(skills: readonly ListableSkill[], client: ListingClient, opts: ListingOptions = {}): ClientListing {
  const { added, ...plain } = opts;
  if (added && Object.keys(added).length) {
    // Where the words go depends on how the plain listing shows the description.
    const cut = new Set(simulateListing(skills, client, plain).entries.filter((e) => e.cut).map((e) => e.id));
    const changed = skills.map((s) => {
      const words = added[s.id];
      if (!words) return s;
      const description = typeof s.frontMatter.description === 'string' ? s.frontMatter.description : '';
      return { ...s, frontMatter: { ...s.frontMatter, description: withAddedWords(description, words, cut.has(s.id)) } };
    });
    return simulateListing(changed, client, plain);
  }
  const rule = LISTING_RULES[client];
  const profile = CLIENT_PROFILES[rule.profile];
  const budget = opts.budget !== undefined ? opts.budget : rule.budget;
  const order = [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
  const entries = new Map<string, ListedSkill>();
  for (const s of order) {
    const excluded = rule.excludeWhen.find(([key, value]) => s.frontMatter[key] === value);
    const entry = listingText(s.frontMatter, profile);
    const base: ListedSkill = { id: s.id, name: s.name, text: entry.text, fullChars: entry.full, cut: entry.cut, descriptionDropped: entry.dropped, omitted: false };
    if (entry.cut) base.why = `${rule.label} lists the first ${profile.listingCap} characters of ${profile.listingFields.join(' + ')}`;
    if (opts.cutAt !== undefined && base.text.length > opts.cutAt) Object.assign(base, { text: base.text.slice(0, opts.cutAt), cut: true, why: `cut at ${opts.cutAt} characters` });
    if (entry.dropped) base.why = `${rule.label} leaves out a description over ${profile.dropDescriptionOver} characters`;
    if (excluded) Object.assign(base, { text: '', omitted: true, why: `${excluded[0]}: ${String(excluded[1])} keeps ${rule.label} from choosing it` });
    else if (s.implicit === false) Object.assign(base, { text: '', omitted: true, why: `allow_implicit_invocation: false (agents/openai.yaml) keeps ${rule.label} from choosing it` });
    entries.set(s.id, base);
  }
  const listed = () => order.map((s) => entries.get(s.id)!).filter((e) => !e.omitted);
  const size = (xs: readonly ListedSkill[]) => xs.reduce((n, e) => n + e.name.length + e.text.length, 0);
  const full = listed().reduce((n, e) => n + e.name.length + e.fullChars, 0);
  if (budget !== null && size(listed()) > budget) {
    const over = `the listing is over ${rule.label}'s budget of ${budget.toLocaleString('en-US')} characters`;
    if (rule.overflow === 'drop-descriptions') {
      // Descriptions kept in name order while they fit; the rest are names only.
      let used = listed().reduce((n, e) => n + e.name.length, 0);
      for (const e of listed()) {
        if (used + e.text.length <= budget) used += e.text.length;
        else if (e.text) Object.assign(e, { text: '', descriptionDropped: true, why: `${over}: Claude Code drops whole descriptions (of the skills invoked least; here, the last by name)`, overBudget: true });
      }
    } else if (rule.overflow === 'shorten-then-drop') {
      const names = listed().reduce((n, e) => n + e.name.length, 0);
      const room = budget - names;
      if (room > 0) {
        // The longest common length L with sum(min(length, L)) <= room (water-filling).
        const lengths = listed().map((e) => e.text.length).sort((a, b) => a - b);
        let left = room;
        let cap = 0;
        for (let i = 0; i < lengths.length; i++) {
          const share = Math.floor(left / (lengths.length - i));
          if (lengths[i] <= share) left -= lengths[i];
          else {
            cap = share;
            break;
          }
          cap = lengths[i];
        }
        for (const e of listed()) if (e.text.length > cap) Object.assign(e, { text: e.text.slice(0, cap), cut: true, descriptionDropped: cap === 0, why: `${over}: Codex shortens every description to ${cap} characters`, overBudget: true });
      } else {
        let used = 0;
        for (const e of listed()) {
          if (used + e.name.length <= budget) Object.assign(e, { text: '', descriptionDropped: true, why: `${over}: Codex lists names only`, overBudget: true }), (used += e.name.length);
          else Object.assign(e, { text: '', omitted: true, why: `${over}: Codex leaves this skill out (no room even for its name)`, overBudget: true });
        }
      }
    }
  }
  return { client, label: rule.label, budget, used: size(listed()), full, entries: skills.map((s) => entries.get(s.id)!) };
}
