/**
 * The quick pick behind the status bar's listing meter: every skill by its share of the listing
 * budget, most expensive first, so an author over budget sees which descriptions to shorten. Pure
 * (no `vscode`): the extension turns these into quick pick items.
 */
import { CLIENT_PROFILES, isProfileId } from '../core/profiles';
import type { ListingResponse } from '../shared/protocol';

const n = (x: number) => x.toLocaleString('en-US');

export interface ListingPickItem {
  label: string;
  description: string;
  detail: string;
  /** The SKILL.md a pick opens. */
  uri: string;
}

/** The pick's title: the total against the budget. */
export function listingPickTitle(res: ListingResponse): string {
  const client = res.profile && isProfileId(res.profile) ? CLIENT_PROFILES[res.profile].label : res.profile;
  if (res.budget === null) return `Skills by listing cost: ${n(res.used)} characters of name + description${client ? ` (${client} publishes no budget)` : ''}`;
  const over = res.used > res.budget ? `, ${n(res.used - res.budget)} over` : '';
  return `Skills by listing cost: ${n(res.used)} of ${n(res.budget)} characters (${client ?? 'custom budget'}${over})`;
}

/** One row per skill: its characters and share of the total, and what the client does with it. */
export function listingPickItems(res: ListingResponse): ListingPickItem[] {
  const listed = { full: '', cut: ' · cut at the listing cap', dropped: ' · not listed (description too long)' };
  return res.skills.map((s) => ({
    label: s.name,
    description: `${n(s.chars)} characters${res.used ? ` · ${((s.chars / res.used) * 100).toFixed(1)}%` : ''}${listed[s.listed]}`,
    detail: s.skillId,
    uri: s.uri,
  }));
}
