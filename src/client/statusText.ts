/**
 * Text and tooltip of the status bar item, from the server's index status. No `vscode` here, so
 * the wording is unit-tested.
 */
import type { IndexStatus } from '../shared/protocol';

const n = (x: number) => x.toLocaleString('en-US');

/** Whether the listing is over the selected client's budget. */
export function overBudget(s: IndexStatus): boolean {
  return s.budget.budget !== null && s.budget.used > s.budget.budget;
}

/** One line for the status bar (codicons allowed). */
export function statusText(s: IndexStatus): string {
  switch (s.state) {
    case 'starting':
      return '$(sync~spin) Skills';
    case 'indexing':
      return `$(sync~spin) Skills ${s.progress ? `${s.progress.percent}%` : ''}`.trimEnd();
    case 'error':
      return '$(error) Skills';
    case 'cancelled':
      return '$(circle-slash) Skills: not indexed';
    case 'ready': {
      const meter = s.budget.budget !== null ? `${n(s.budget.used)}/${n(s.budget.budget)}` : `${n(s.budget.used)} chars`;
      const words = s.semanticDisabled ? ' $(warning)' : '';
      const checks = s.analysis && s.analysis.total ? ` · checks ${Math.floor((s.analysis.done / s.analysis.total) * 100)}%` : '';
      return `$(library) ${n(s.skills)} skills · ${meter}${words}${checks}`;
    }
  }
}

/** The tooltip, as Markdown. */
export function statusTooltip(s: IndexStatus): string {
  const lines: string[] = ['**Skill Router**', ''];
  const state = s.state === 'indexing' && s.progress ? `indexing: ${s.progress.stage} ${n(s.progress.done)}/${n(s.progress.total)}` : s.state;
  lines.push(`Index: ${state}; ${n(s.skills)} skills${s.failed ? `, ${n(s.failed)} unreadable` : ''}`);
  if (s.analysis) lines.push(`Cross-skill checks (near-duplicates, conflicts): ${n(s.analysis.done)} of ${n(s.analysis.total)} skills`);
  for (const f of s.folders) {
    const name = decodeURIComponent(f.uri.replace(/\/+$/, '').split('/').pop() ?? f.uri);
    lines.push(`- ${name}: ${f.state}, ${n(f.skills)} skills${f.indexMs !== null ? ` in ${n(f.indexMs)} ms (${n(f.cached)} cached, ${n(f.embedded)} embedded)` : ''}${f.error ? `: ${f.error}` : ''}`);
  }
  lines.push('');
  lines.push(s.model ? `Model: ${s.model}` : `Semantic checks off${s.semanticDisabled ? `: ${s.semanticDisabled}` : ''}`);
  const b = s.budget;
  if (b.budget !== null) {
    const pct = Math.round((b.used / b.budget) * 100);
    lines.push(`Listing budget (${b.profile ?? 'custom'}): ${n(b.used)} of ${n(b.budget)} characters (${pct}%)${overBudget(s) ? ', over budget' : ''}`);
  } else {
    lines.push(`Listing: ${n(b.used)} characters of name + description${b.profile ? ` (${b.profile} publishes no budget)` : ''}`);
  }
  lines.push(`Profiles: ${s.profiles.join(', ')}`);
  const t = s.timings;
  const timing = [
    t.indexMs !== null ? `index ${n(t.indexMs)} ms` : '',
    t.lastDiagnosticsMs !== null ? `last check ${n(t.lastDiagnosticsMs)} ms after the edit` : '',
  ].filter(Boolean);
  if (timing.length) lines.push(`Timings: ${timing.join(', ')}`);
  if (s.lastError) lines.push('', `Last error: ${s.lastError}`);
  lines.push('', 'Click to test a request against the skills.');
  return lines.join('\n');
}
