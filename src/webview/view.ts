/**
 * DOM of the panel's dynamic parts, rebuilt from the state on every change. Builders only: the
 * controller (panel.ts) owns the state and passes the actions in.
 */
import { CLIENT_PROFILES, listingText, type ProfileId } from '../core/profiles';
import { gapReasons } from '../core/reach/gapReasons';
import { listingClientOf, SKIP_REASON_LABELS, skillLabel, type PanelListing, type PanelResult, type RouteSummary } from '../shared/webviewProtocol';
import { fill, h, type Child } from './dom';
import { highlightSegments } from './highlight';
import type { Expectation, ViewState } from './state';
import { NOT_RELEVANT_BADGE, notRelevantWords, unreadNote } from '../core/route/notRelevant';
import { declinedNote } from '../core/text/declined';

export interface Actions {
  open(result: PanelResult): void;
  openUri(uri: string): void;
  toggle(skillId: string, as: 'expect' | 'notExpect'): void;
  runHistory(query: string): void;
  clearHistory(): void;
  setTop(top: number | null): void;
  setSetFlag(set: boolean): void;
  /** Runs the test and saves it if it passes; `force` saves a test that fails now. */
  save(force?: boolean): void;
  focusResult(skillId: string): void;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const fmt = (n: number) => n.toFixed(2);
const nf = (n: number) => n.toLocaleString('en-US');

export function renderHistory(el: HTMLElement, history: readonly string[], actions: Actions): void {
  el.hidden = history.length === 0;
  if (!history.length) return fill(el);
  fill(
    el,
    h('span', { class: 'history-label', id: 'history-label' }, 'Recent'),
    h(
      'ul',
      { class: 'history-list', 'aria-labelledby': 'history-label' },
      history.map((q) =>
        h('li', {}, h('button', { type: 'button', class: 'chip', title: q, 'data-focus-key': `history:${q}`, onclick: () => actions.runHistory(q) }, q)),
      ),
    ),
    h('button', { type: 'button', class: 'link clear-history', 'data-focus-key': 'history:clear', onclick: () => actions.clearHistory() }, 'Clear'),
  );
}

export function renderStatus(el: HTMLElement, s: ViewState): void {
  if (s.pending) {
    fill(el, h('span', { class: 'spinner', 'aria-hidden': 'true' }), `Routing “${s.pending.query}”…`);
    return;
  }
  if (!s.connected && !s.last) return fill(el, 'Starting…');
  const last = s.last;
  if (!last) return fill(el, 'Type a request as a user would say it to an agent, then press Enter.');
  const how = 'model' in last.dense ? `model ${last.dense.model}` : `words only (${last.dense.disabled})`;
  const summary = `${plural(last.results.length, 'skill')} for “${last.query}” · ${how} · ${last.totalMs.toFixed(0)} ms`;
  const unread = last.unread ? h('div', { class: 'unread' }, unreadNote(last.unread, last.results.length > 0)) : null;
  const declined = last.declined?.length ? h('div', { class: 'declined' }, declinedNote(last.declined)) : null;
  const notes = [...(declined ? [declined] : []), ...(unread ? [unread] : [])];
  if (!last.readAs) return fill(el, summary, ...notes);
  const title = last.unread
    ? `How the ${last.unread} glossary read the request: the words it knows, in English, as English skills and an English-only model meet them`
    : 'How the Chinese-English dictionary bridge read the request: its words in English, as English skills and an English-only model meet it';
  fill(el, summary, h('div', { class: 'read-as', title }, `Read as: ${last.readAs}`), ...notes);
}

export function renderError(el: HTMLElement, message: string | null): void {
  el.hidden = message === null;
  fill(el, message ?? '');
}

export function renderActiveNotice(el: HTMLElement, s: ViewState): void {
  const active = s.active;
  const last = s.last;
  el.hidden = true;
  el.className = 'notice';
  if (!active || !last) return fill(el);
  const shown = last.results.find((r) => r.uri === active.uri);
  // One rule, as the result cards: the front-matter name, and the folder when it differs.
  const name = h('strong', {}, skillLabel(shown ? { name: shown.name, folder: shown.folder } : active));
  if (shown) {
    el.classList.add('notice-ok');
    fill(el, 'The skill in the active editor, ', name, `, is #${shown.rank}.`);
  } else if (active.rank !== null) {
    el.classList.add('notice-warn');
    fill(el, 'The skill in the active editor, ', name, `, is not in the top ${last.k}; ranking the first ${active.depth} puts it at #${active.rank}.`);
  } else if (active.depth > 0) {
    el.classList.add('notice-warn');
    fill(el, 'The skill in the active editor, ', name, `, is not among the first ${active.depth} ranked skills for this request.`);
  } else {
    return fill(el);
  }
  el.hidden = false;
}

function nameOf(summary: RouteSummary, skillId: string): string {
  return summary.results.find((r) => r.skillId === skillId)?.name || skillId;
}

export function renderSet(el: HTMLElement, s: ViewState, actions: Actions): void {
  const last = s.last;
  const set = last?.set;
  el.hidden = !last || !set;
  if (!last || !set) return fill(el);
  const skillButton = (id: string): HTMLElement[] => {
    const rank = last.results.find((r) => r.skillId === id)?.rank;
    return [
      h('button', { type: 'button', class: 'link skill-ref', 'data-skill': id, title: id, onclick: () => actions.focusResult(id) }, nameOf(last, id)),
      rank ? h('span', { class: 'ref-rank' }, ` #${rank}`) : null,
    ].filter((x): x is HTMLElement => x !== null);
  };
  // A weak match says so, as `route` does: the set is then a guess, not a claim.
  const weak = last.match === 'weak';
  const together: Child =
    set.skills.length >= 2
      ? h('ul', { class: 'set-skills' }, set.skills.map((id) => h('li', {}, skillButton(id))))
      : h('p', { class: 'muted' },
          set.skills.length === 1 ? (weak ? 'Weak match: the best skill is only possibly what this request needs: ' : 'One skill is enough for this request: ') : 'No skill set for this request.',
          set.skills.length === 1 ? skillButton(set.skills[0]) : null);
  const conflicts: Child = set.skipped.length
    ? h(
        'ul',
        { class: 'conflicts' },
        set.skipped.map((c) =>
          h(
            'li',
            { class: 'conflict', 'data-reason': c.reason },
            h('span', { class: 'badge skip-badge' }, 'SKIP'),
            ' ',
            skillButton(c.skillId),
            ' with ',
            skillButton(c.conflictsWith),
            ': ',
            h('span', { class: 'reason' }, SKIP_REASON_LABELS[c.reason]),
            c.explanation ? h('span', { class: 'explanation' }, ` — ${c.explanation}`) : null,
          ),
        ),
      )
    : h('p', { class: 'muted' }, 'No probable SKIP conflicts among the candidates.');
  fill(
    el,
    h('h2', {}, weak && set.skills.length >= 2 ? 'Possibly needed together (weak match)' : 'Needed together'),
    together,
    h('h3', {}, 'Probable SKIP conflicts'),
    conflicts,
  );
}

/** What the selected client's agent reads for this skill, and what it does not. */
function describe(r: PanelResult, profileId: ProfileId): HTMLElement {
  const profile = CLIENT_PROFILES[profileId];
  const data: Record<string, unknown> = { description: r.description, ...(r.whenToUse ? { when_to_use: r.whenToUse } : {}) };
  const listing = listingText(data, profile);
  const fullText = listingText(data, { ...profile, listingCap: undefined, dropDescriptionOver: undefined }).text;
  if (listing.dropped) {
    return h(
      'div',
      { class: 'description dropped', 'data-listing': 'dropped' },
      h('p', { class: 'listing-note' },
        `${profile.label} does not list this skill: its description has ${nf(r.description.length)} characters (over ${nf(profile.dropDescriptionOver ?? 0)}).`),
      h('details', {}, h('summary', {}, 'Description (not shown to the agent)'), h('p', { class: 'unseen' }, r.description)),
    );
  }
  if (listing.cut) {
    return h(
      'div',
      { class: 'description cut', 'data-listing': 'cut' },
      h('p', { class: 'listing' }, listing.text, h('span', { class: 'ellipsis', 'aria-hidden': 'true' }, '…')),
      h('p', { class: 'listing-note' }, `${profile.label} lists the first ${nf(profile.listingCap ?? 0)} of ${nf(listing.full)} characters.`),
      h('details', {}, h('summary', {}, `The ${nf(listing.full - listing.text.length)} characters the agent does not see`),
        h('p', { class: 'unseen' }, fullText.slice(listing.text.length))),
    );
  }
  return h('div', { class: 'description', 'data-listing': 'full' }, h('p', { class: 'listing' }, listing.text || h('em', {}, '(no description)')));
}

/**
 * "full text #1 · as Claude Code lists it #7", and why it ranks lower there: what the listing
 * keeps of the description, and the request's words only the body has (measured by the server).
 */
function listingRank(r: PanelResult, listing: PanelListing | undefined, profile: ProfileId, shared: string | null): Child {
  const found = listing?.ranks.find((x) => x.uri === r.uri);
  // Ranks of another client's listing than the selected profile's are not shown.
  if (!listing || !found || listingClientOf(profile) !== listing.client) return null;
  // The reason several results share (the listing's budget) is said once, above the results.
  const lr = shared !== null && found.why === shared ? { ...found, why: undefined } : found;
  const where = lr.omitted ? 'not listed' : lr.rank === null ? `not in the first ${lr.depth}` : `#${lr.rank}`;
  const lower = lr.rank === null || lr.rank > r.rank;
  // Key words only matter where the listing ranks it lower; a cut or a drop is worth saying anyway.
  const reasons = gapReasons(lower ? lr : { ...lr, bodyOnly: [] }, listing.label);
  return h(
    'p',
    { class: `listing-rank${lower ? ' lower' : ''}`, 'data-listing-rank': lr.rank === null ? 'none' : String(lr.rank) },
    h('span', { class: 'ranks' }, `full text #${r.rank} · as ${listing.label} lists it ${where}`),
    reasons.length ? h('span', { class: 'why' }, ` — ${reasons.join('; ')}`) : null,
  );
}

/**
 * The listing's reason that two or more of the shown results share (the library over the client's
 * budget), said once above the results instead of on every card; null when there is none.
 */
function sharedListingReason(last: RouteSummary, profile: ProfileId): string | null {
  const listing = last.listing;
  if (!listing || listingClientOf(profile) !== listing.client) return null;
  const shown = new Set(last.results.map((r) => r.uri));
  const counts = new Map<string, number>();
  for (const lr of listing.ranks) if (lr.why && shown.has(lr.uri)) counts.set(lr.why, (counts.get(lr.why) ?? 0) + 1);
  let best: string | null = null;
  for (const [why, n] of counts) if (n >= 2 && (best === null || n > counts.get(best)!)) best = why;
  return best;
}

function passage(r: PanelResult): Child {
  const p = r.passage;
  if (!p) return null;
  const where = p.field === 'body' ? (p.heading ? `§ ${p.heading}` : 'body') : p.field;
  const line = p.line !== undefined ? ` · line ${p.line + 1}` : '';
  return h(
    'blockquote',
    { class: 'passage', 'data-field': p.field },
    h('span', { class: 'where' }, `${where}${line}`),
    h('span', { class: 'passage-text' }, highlightSegments(p.text, p.matchedTerms).map((seg) => (seg.mark ? h('mark', {}, seg.text) : seg.text))),
  );
}

const STAGES = ['dense', 'lexical', 'rerank'] as const;

/** Bar length scale per stage: 1, or the largest value shown when scores exceed 1 (the built-in reranker's can). */
function scales(results: readonly PanelResult[]): Record<(typeof STAGES)[number], number> {
  const out = { dense: 1, lexical: 1, rerank: 1 };
  for (const r of results) for (const st of STAGES) out[st] = Math.max(out[st], r.scores[st] ?? 0);
  return out;
}

function scoreBars(r: PanelResult, scale: Record<(typeof STAGES)[number], number>): HTMLElement {
  return h(
    'div',
    { class: 'scores' },
    STAGES.map((stage) => {
      const v = r.scores[stage];
      const fillEl = h('span', { class: 'fill' });
      // CSSOM, not a style attribute: allowed under a CSP without 'unsafe-inline'.
      fillEl.style.width = v === null ? '0%' : `${Math.round(Math.max(0, Math.min(1, v / scale[stage])) * 1000) / 10}%`;
      return h(
        'div',
        { class: `score${v === null ? ' off' : ''}`, 'data-stage': stage, title: v === null ? `${stage}: off` : `${stage}: ${v}` },
        h('span', { class: 'stage' }, stage),
        h('span', { class: 'bar', 'aria-hidden': 'true' }, fillEl),
        h('span', { class: 'value' }, v === null ? 'off' : fmt(v)),
      );
    }),
  );
}

function toggles(r: PanelResult, e: Expectation | null, actions: Actions): HTMLElement {
  const pressed = (as: 'expect' | 'notExpect') => (e?.[as].includes(r.skillId) ? 'true' : 'false');
  return h(
    'div',
    { class: 'toggles' },
    h('button', { type: 'button', class: 'toggle expect', 'aria-pressed': pressed('expect'), 'data-focus-key': `expect:${r.skillId}`,
      title: 'Expect this skill in the saved routing test', onclick: () => actions.toggle(r.skillId, 'expect') }, 'Expect'),
    h('button', { type: 'button', class: 'toggle not-expect', 'aria-pressed': pressed('notExpect'), 'data-focus-key': `notExpect:${r.skillId}`,
      title: 'The saved routing test fails if this skill is in the top N', onclick: () => actions.toggle(r.skillId, 'notExpect') }, 'Not expected'),
  );
}

export function renderResults(el: HTMLElement, s: ViewState, focusIndex: number, actions: Actions): void {
  const last = s.last;
  el.setAttribute('aria-busy', s.pending ? 'true' : 'false');
  el.classList.toggle('stale', !!s.pending || s.error !== null);
  if (!last) return fill(el);
  if (!last.results.length) return fill(el, h('li', { class: 'empty' }, last.unread ? `No skill matches this request. ${unreadNote(last.unread, false)}` : 'No skill matches this request.'));
  // The line goes after the last result the router judges relevant (absent: relevant); with no
  // skill that fits, before the first.
  const lastRelevant = last.match === 'none' ? -1 : last.results.reduce((at, r, i) => (r.relevant !== false ? i : at), -1);
  const line = lastRelevant < last.results.length - 1
    ? h('li', { class: 'relevance-line', role: 'separator', 'aria-label': 'Below: not judged relevant' },
        last.match === 'none' ? 'No skill in this library fits this request: below, the closest, for context' : 'Below: not judged relevant, shown for context')
    : null;
  const scale = scales(last.results);
  const shared = sharedListingReason(last, s.snapshot.profile);
  const sharedLine = shared && last.listing
    ? h('li', { class: 'listing-shared', role: 'note' }, `As ${last.listing.label} lists this library: ${shared}.`)
    : null;
  const inSet = new Set(last.set && last.set.skills.length >= 2 ? last.set.skills : []);
  const skipped = new Set(last.set?.skipped.map((c) => c.skillId) ?? []);
  const activeUri = s.active?.uri;
  const index = Math.min(Math.max(focusIndex, 0), last.results.length - 1);
  fill(
    el,
    sharedLine,
    line && lastRelevant < 0 ? line : null,
    last.results.flatMap((r, i) => {
      const isActive = r.uri === activeUri;
      const badges: Child[] = [
        isActive ? h('span', { class: 'badge active-badge', title: 'The skill in the active editor' }, 'active editor') : null,
        r.invoked ? h('span', { class: 'badge invoked-badge', title: `The request invokes this skill by name (${r.invoked}), as a client runs it: first, whatever its words` }, `invoked: ${r.invoked}`) : null,
        inSet.has(r.skillId) ? h('span', { class: 'badge set-badge', title: 'Judged needed together with the other set skills' }, 'in set') : null,
        skipped.has(r.skillId) ? h('span', { class: 'badge skip-badge', title: 'Probable SKIP with a set skill' }, 'SKIP') : null,
        r.notRelevant
          ? h('span', { class: 'badge zero-badge', title: `Relevance 0: ${notRelevantWords({ ...r, notRelevant: r.notRelevant })}` }, NOT_RELEVANT_BADGE[r.notRelevant])
          : null,
      ];
      const card = h(
        'li',
        {
          class: `result${isActive ? ' active' : ''}`,
          tabindex: i === index ? 0 : -1,
          'data-index': i,
          'data-skill': r.skillId,
          'data-focus-key': `result:${r.skillId}`,
          'aria-label': `${r.rank}. ${r.name}${isActive ? ' (active editor)' : ''}, ${r.folder}. Enter opens SKILL.md.`,
          onclick: (ev: Event) => {
            if ((ev.target as Element).closest('button, summary, details, a')) return;
            actions.open(r);
          },
        },
        h(
          'div',
          { class: 'result-head' },
          h('span', { class: 'rank' }, `${r.rank}`),
          h('span', { class: 'name' }, r.name || r.skillId),
          badges,
          h('span', { class: 'folder', title: r.uri }, r.folder),
        ),
        listingRank(r, last.listing, s.snapshot.profile, shared),
        describe(r, s.snapshot.profile),
        scoreBars(r, scale),
        passage(r),
        toggles(r, s.expectation, actions),
      );
      if (r.relevant === false || lastRelevant < i) card.classList.add('context');
      return i === lastRelevant && line ? [card, line] : card;
    }),
  );
}

export function renderSave(el: HTMLElement, s: ViewState, actions: Actions): void {
  const last = s.last;
  const e = s.expectation;
  el.hidden = !last || !last.results.length || !e;
  if (!last || !e || el.hidden) return fill(el);
  const names = (ids: string[]) => (ids.length ? ids.map((id) => nameOf(last, id)).join(', ') : '—');
  const canSave = !s.saving && e.expect.length + e.notExpect.length > 0;
  const top = h('input', {
    id: 'save-top', type: 'number', min: 1, max: 1000, placeholder: 'default', value: e.top ?? '', 'data-focus-key': 'save:top',
    onchange: (ev: Event) => {
      const v = Number((ev.target as HTMLInputElement).value);
      actions.setTop(Number.isInteger(v) && v > 0 ? v : null);
    },
  });
  const setBox = h('input', {
    id: 'save-set', type: 'checkbox', checked: e.set, disabled: e.expect.length < 2, 'data-focus-key': 'save:set',
    onchange: (ev: Event) => actions.setSetFlag((ev.target as HTMLInputElement).checked),
  });
  const tested = s.tested && s.tested.query === last.query ? s.tested.outcome : null;
  const saved = s.saved && s.saved.query === last.query ? s.saved : null;
  const problems = (o: { problems: string[] }) => h('ul', { class: 'test-problems' }, o.problems.map((p) => h('li', {}, p)));
  fill(
    el,
    h('h2', {}, 'Routing test'),
    h('p', { class: 'expectation' },
      h('span', {}, 'Expect: ', h('strong', { id: 'expect-list' }, names(e.expect))),
      h('span', {}, 'Not expected: ', h('strong', { id: 'not-expect-list' }, names(e.notExpect)))),
    e.expect.length + e.notExpect.length === 0
      ? h('p', { class: 'muted hint' }, 'Mark the skills this request must reach (Expect) or must not (Not expected): nothing is marked for you.')
      : null,
    h('div', { class: 'save-row' },
      h('label', { for: 'save-set', class: 'check' }, setBox, ' all expected within the first ranks (set)'),
      h('label', { for: 'save-top' }, 'top ', top),
      h('button', { type: 'button', id: 'save', class: 'primary', disabled: !canSave, 'data-focus-key': 'save:button', title: 'Runs the test first, as skill-router check would', onclick: () => actions.save() },
        s.saving ? 'Running the test…' : 'Save as routing test')),
    tested && !tested.passed
      ? h('div', { class: 'test-result fail', role: 'alert' },
          h('p', {}, h('strong', {}, `Fails now (top ${tested.topN}): `), h('code', {}, 'skill-router check'), ' would fail on this test at once, so it was not saved.'),
          problems(tested),
          h('button', { type: 'button', id: 'save-anyway', class: 'secondary', 'data-focus-key': 'save:anyway', disabled: s.saving, onclick: () => actions.save(true) }, 'Save anyway'))
      : null,
    saved
      ? h('div', { class: `saved test-result${saved.outcome ? (saved.outcome.passed ? ' pass' : ' fail') : ''}`, role: 'status' },
          h('p', {},
            `Saved to ${saved.file}. `,
            saved.outcome ? (saved.outcome.passed ? `It passes now (top ${saved.outcome.topN}). ` : `It fails now (top ${saved.outcome.topN}). `) : '',
            h('button', { type: 'button', class: 'link', 'data-focus-key': 'save:open', onclick: () => actions.openUri(saved.uri) }, 'Open the tests file')),
          saved.outcome && !saved.outcome.passed ? problems(saved.outcome) : null)
      : null,
  );
}
