/**
 * The listing budget the status meter shows and the list behind it (`skillRouter/listing`): the
 * same count as `skill-router check`, so the meter and CI agree, and each skill's share of it,
 * most expensive first, so an author over budget sees where the characters go.
 */
import { CLIENT_PROFILES, DEFAULT_BUDGETS, isListingClient, isProfileId, LISTING_OVER, listingBudgets, listingCosts, overBudgetNote } from '../core/profiles';
import type { Finding, SkillDoc } from '../core/types';
import type { IndexStatus, ListingResponse } from '../shared/protocol';
import type { ServerSettings } from './settings';

/**
 * The profile whose budget the meter shows: the first selected one that has a budget, else the
 * first client, else (the spec alone lists nothing) the client whose listing reach routes over.
 */
function meteredProfile(settings: ServerSettings): string | null {
  const reach = settings.reach.client !== 'off' ? settings.reach.client : null;
  return settings.profiles.find((p) => DEFAULT_BUDGETS[p] !== undefined) ?? settings.profiles.find((p) => p !== 'spec') ?? reach;
}

/** Used characters against the metered profile's budget (or `skillRouter.listingBudget`). */
export function listingBudget(skills: readonly SkillDoc[], settings: ServerSettings): IndexStatus['budget'] {
  const profile = meteredProfile(settings);
  const budget = settings.listingBudget ?? (profile ? (DEFAULT_BUDGETS[profile] ?? null) : null);
  const [report] = listingBudgets(skills, { [profile ?? 'listing']: budget ?? Infinity });
  return { profile, used: report.used, budget };
}

/**
 * The editor's one finding for a library over the metered client's budget (the status bar's
 * meter), on the skill whose entry costs the most. Worked out once per state of a library: the
 * engine replaces an edited skill in place in its list, so the owner says when a list changed
 * (`forget`); asked for every published skill, it must not sum the library each time.
 */
export class OverBudgetNotes {
  private readonly notes = new WeakMap<readonly SkillDoc[], Map<string, ReturnType<typeof overBudgetNote>>>();

  /** The finding on `doc`, or null (within budget, no metered client, or another skill costs more). */
  finding(doc: SkillDoc, skills: readonly SkillDoc[], settings: ServerSettings): Finding | null {
    const profile = meteredProfile(settings);
    const budget = settings.listingBudget ?? (profile ? (DEFAULT_BUDGETS[profile] ?? null) : null);
    if (!profile || budget === null || !isListingClient(profile)) return null;
    let byBudget = this.notes.get(skills);
    if (!byBudget) this.notes.set(skills, (byBudget = new Map()));
    const key = `${profile}:${budget}`;
    if (!byBudget.has(key)) byBudget.set(key, overBudgetNote(skills, profile, budget));
    const note = byBudget.get(key);
    if (!note || note.skillId !== doc.id) return null;
    const at = { line: 0, character: 0 };
    return { code: LISTING_OVER, severity: 'warning', message: note.message, range: doc.keyRanges.description ?? doc.keyRanges.name ?? { start: at, end: at }, profile };
  }

  /** The library's skills changed (an edit, a re-read): worked out again when next asked. */
  forget(skills: readonly SkillDoc[]): void {
    this.notes.delete(skills);
  }
}

/** Every skill of `libraries` by listing cost, most expensive first, with the budget it counts against. */
export function listingReport(
  libraries: readonly { skills: readonly SkillDoc[]; uriOf(relPath: string): string }[],
  settings: ServerSettings,
): ListingResponse {
  const all = libraries.flatMap((l) => l.skills);
  const { profile, used, budget } = listingBudget(all, settings);
  const client = CLIENT_PROFILES[profile && isProfileId(profile) ? profile : 'spec'];
  const skills = libraries
    .flatMap((l) => listingCosts(l.skills, client).map((c) => ({ uri: l.uriOf(c.path), skillId: c.id, name: c.name, chars: c.chars, listed: c.listed })))
    .sort((a, b) => b.chars - a.chars || a.name.localeCompare(b.name));
  return { profile, budget, used, skills };
}
