/**
 * Text and tooltip of the status bar item, from the server's index status, and when indexing
 * deserves a notification. No `vscode` here, so the wording is unit-tested.
 */
import { CLIENT_PROFILES, isProfileId, OVER_BUDGET } from '../core/profiles';
import type { IndexStatus } from '../shared/protocol';

const n = (x: number) => x.toLocaleString('en-US');

/** The command the tooltip links to: the skills by listing cost. */
export const LISTING_COMMAND = 'skillRouter.showListingCost';

/**
 * Texts to embed at which an index gets a notification: about 3 s of the built-in model on a
 * laptop core. A warm reopen or a small library embeds few or none and stays in the status bar.
 */
export const LARGE_INDEX_TEXTS = 200;

/** Whether the listing is over the selected client's budget. */
export function overBudget(s: IndexStatus): boolean {
  return s.budget.budget !== null && s.budget.used > s.budget.budget;
}

/** Whether this status is the first index of a large library: many skills to embed (the cache does not have them). */
export function wantsNotification(s: IndexStatus): boolean {
  return s.state === 'indexing' && s.progress?.stage === 'embed' && s.progress.total >= LARGE_INDEX_TEXTS;
}

const label = (profile: string | null) => (profile && isProfileId(profile) ? CLIENT_PROFILES[profile].label : profile ?? 'custom');

/** The cross-skill checks in a few words: queued while they wait for typing to pause, else how far. */
function checksText(a: NonNullable<IndexStatus['analysis']>): string {
  return a.waiting ? 'checks queued' : `checks ${a.total ? Math.floor((a.done / a.total) * 100) : 0}%`;
}

/** One line for the status bar (codicons allowed). */
export function statusText(s: IndexStatus): string {
  switch (s.state) {
    case 'starting':
      return '$(sync~spin) Skills';
    case 'indexing':
      if (s.progress?.stage === 'load model') return '$(sync~spin) Skills: loading model';
      return `$(sync~spin) Skills ${s.progress ? `${s.progress.percent}%` : ''}`.trimEnd();
    case 'error':
      return '$(error) Skills';
    case 'cancelled':
      return '$(circle-slash) Skills: not indexed';
    case 'ready': {
      const meter = s.budget.budget !== null ? `listing ${n(s.budget.used)}/${n(s.budget.budget)}` : `listing ${n(s.budget.used)} chars`;
      const words = s.semanticDisabled ? ' $(warning)' : '';
      const checks = s.analysis && s.analysis.total ? ` · ${checksText(s.analysis)}` : '';
      return `$(library) ${n(s.skills)} skills · ${meter}${words}${checks}`;
    }
  }
}

/** What the model line says: its id, that it is loading, or why semantic checks are off. */
function modelLine(s: IndexStatus): string {
  if (s.model) return `Model: ${s.model}`;
  if (s.semanticDisabled) return `Semantic checks off: ${s.semanticDisabled}`;
  // No folder is indexed yet: the model is loading (or loaded and embedding), not off.
  if (s.state === 'starting' || s.state === 'indexing') return s.progress && s.progress.stage !== 'load model' ? 'Model: loaded, indexing' : 'Model: loading';
  return 'Semantic checks off';
}

function checksLine(a: NonNullable<IndexStatus['analysis']>): string {
  const what = 'Cross-skill checks (near-duplicates, conflicts)';
  if (a.waiting) {
    return `${what}: queued. A name or description changed, which moves term weights across the library: ` +
      `every skill's pairs (${n(a.total)}) are checked again ${Math.round(a.waiting.delayMs / 1000)} s after the last edit.`;
  }
  return `${what}${a.pass === 'recheck' ? ', recheck after an edit' : ''}: ${n(a.done)} of ${n(a.total)} skills`;
}

/**
 * The tooltip, as Markdown: each line ends in a hard break (a lone newline would join the lines
 * into one paragraph), sections are paragraphs, folders a list.
 */
export function statusTooltip(s: IndexStatus): string {
  const sections: string[][] = [['**Skill Router**']];
  const state = s.state === 'indexing' && s.progress ? `indexing: ${s.progress.stage} ${n(s.progress.done)}/${n(s.progress.total)}` : s.state;
  const index = [`Index: ${state}; ${n(s.skills)} skills${s.failed ? `, ${n(s.failed)} unreadable` : ''}`];
  if (s.analysis) index.push(checksLine(s.analysis));
  sections.push(index);
  const folders = s.folders.map((f) => {
    const name = decodeURIComponent(f.uri.replace(/\/+$/, '').split('/').pop() ?? f.uri);
    return `- ${name}: ${f.state}, ${n(f.skills)} skills${f.indexMs !== null ? ` in ${n(f.indexMs)} ms (${n(f.cached)} cached, ${n(f.embedded)} embedded)` : ''}${f.error ? `: ${f.error}` : ''}`;
  });
  const b = s.budget;
  const budget: string[] = [];
  if (b.budget !== null) {
    const pct = Math.round((b.used / b.budget) * 100);
    budget.push(`Listing budget (${label(b.profile)}): ${n(b.used)} of ${n(b.budget)} characters of name + description (${pct}%)${overBudget(s) ? ', **over budget**' : ''}`);
    if (overBudget(s)) budget.push(`Over budget: ${OVER_BUDGET.client}.`, `What to do: ${OVER_BUDGET.author}.`);
  } else {
    budget.push(`Listing: ${n(b.used)} characters of name + description${b.profile ? ` (${label(b.profile)} publishes no budget)` : ''}`);
  }
  budget.push(`[$(list-ordered) Skills by listing cost](command:${LISTING_COMMAND})`);
  const t = s.timings;
  const timing = [
    t.indexMs !== null ? `index ${n(t.indexMs)} ms` : '',
    t.lastDiagnosticsMs !== null ? `last check ${n(t.lastDiagnosticsMs)} ms after the edit` : '',
  ].filter(Boolean);
  const m = s.memory;
  const about = [
    modelLine(s),
    `Profiles: ${s.profiles.join(', ')}${s.profilesFrom ? ` (${s.profilesFrom})` : ''}`,
    ...(timing.length ? [`Timings: ${timing.join(', ')}`] : []),
    ...(m ? [`Server memory: ${n(m.rssMb)} MB (JavaScript heap ${n(m.heapUsedMb)} MB, buffers ${n(m.externalMb)} MB)`] : []),
  ];
  sections.push(about, budget);
  if (s.lastError) sections.push([`Last error: ${s.lastError}`]);
  sections.push(['Click to test a request against the skills.']);
  const paragraphs = sections.map((lines) => lines.join('  \n'));
  if (folders.length) paragraphs.splice(2, 0, folders.join('\n'));
  return paragraphs.join('\n\n');
}
