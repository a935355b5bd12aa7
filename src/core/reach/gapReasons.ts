/**
 * A listing gap (listingGap.ts) and its wording. Apart from the analysis so that the query
 * panel's page can word a gap the server measured without bundling the analyser.
 */

/** What a listing keeps of one skill, against one request. */
export interface ListingGap {
  /** Characters of the entry the client lists, and of the whole entry. */
  listedChars: number;
  fullChars: number;
  cut: boolean;
  /** The description is left out (the name alone is listed). */
  dropped: boolean;
  /** The skill is not listed at all. */
  omitted: boolean;
  /** The listing's reason for a cut, drop or omission. */
  why?: string;
  /** The cut, drop or omission comes from the whole listing being over budget, not from this skill. */
  overBudget?: true;
  /** Words of the request that the skill's body has and its name and listed text do not (at most five, in request order). */
  bodyOnly: string[];
}

/** The gap in words, one phrase per cause: "description cut at 90 characters", "... only in the body: Blazor, component". */
export function gapReasons(gap: ListingGap, label: string): string[] {
  const out: string[] = [];
  if (gap.omitted) out.push(`not in ${label}'s listing${gap.why ? ` (${gap.why})` : ''}`);
  else if (gap.dropped) out.push(`description dropped: ${label} lists the name only${gap.why ? ` (${gap.why})` : ''}`);
  else if (gap.cut) out.push(`description cut at ${gap.listedChars.toLocaleString('en-US')} of ${gap.fullChars.toLocaleString('en-US')} characters`);
  if (gap.bodyOnly.length) out.push(`the request's key words appear only in the body: ${gap.bodyOnly.join(', ')}`);
  return out;
}
