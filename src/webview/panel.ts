/**
 * The "test a query" panel: the author types a request, the host asks the language server to
 * route it, and the panel shows the ranked skills. Runs in the webview (browser bundle
 * dist/webview/panel.js); talks to the host only through the typed messages of
 * src/shared/webviewProtocol.ts, checked both ways.
 */
import { CLIENT_PROFILES, PROFILES, type ProfileId } from '../core/profiles';
import {
  isHostMessage,
  isProfile,
  isWebviewMessage,
  listingClientOf,
  MAX_K,
  MAX_QUERY_LENGTH,
  pushHistory,
  type HostMessage,
  type PanelResult,
  type WebviewMessage,
} from '../shared/webviewProtocol';
import { h } from './dom';
import { defaultExpectation, initialState, readStored, testEntry, toggleExpectation, toStored, type ViewState } from './state';
import {
  renderActiveNotice,
  renderError,
  renderHistory,
  renderResults,
  renderSave,
  renderSet,
  renderStatus,
  type Actions,
} from './view';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const stored = readStored(vscode.getState());
let state: ViewState = initialState(stored);
/** Result card that holds the roving tab stop. */
let focusIndex = 0;

function post(message: WebviewMessage): void {
  // The host validates too; checking here catches a bug on this side where it is made.
  if (!isWebviewMessage(message)) {
    console.error('skill-router panel: not sending a malformed message', message);
    return;
  }
  vscode.postMessage(message);
}

// ---------------------------------------------------------------------------------------------
// The fixed part of the page

const app = document.getElementById('app') ?? document.body.appendChild(h('main', { id: 'app' }));

const input = h('input', {
  id: 'query',
  type: 'text',
  maxlength: MAX_QUERY_LENGTH,
  autocomplete: 'off',
  spellcheck: 'false',
  placeholder: 'e.g. pull the tables out of this scanned PDF invoice',
  'aria-describedby': 'status',
  'data-focus-key': 'query',
});
const kInput = h('input', { id: 'k', type: 'number', min: 1, max: MAX_K, 'data-focus-key': 'k' });
const profileSelect = h(
  'select',
  { id: 'profile', 'data-focus-key': 'profile' },
  PROFILES.map((p) => h('option', { value: p }, CLIENT_PROFILES[p].label)),
);
const form = h(
  'form',
  { id: 'query-form', role: 'search', 'aria-label': 'Test a request', novalidate: true },
  h('label', { for: 'query', class: 'label' }, 'Request'),
  h('div', { class: 'query-row' }, input, h('button', { type: 'submit', id: 'route', class: 'primary', 'data-focus-key': 'route' }, 'Route')),
  h(
    'div',
    { class: 'options' },
    h('label', { for: 'profile' }, 'Description as seen by ', profileSelect),
    h('label', { for: 'k' }, 'Top ', kInput),
  ),
);
const historyEl = h('nav', { id: 'history', class: 'history', 'aria-label': 'Recent requests' });
const statusEl = h('div', { id: 'status', class: 'status', role: 'status', 'aria-live': 'polite' });
const errorEl = h('div', { id: 'error', class: 'error', role: 'alert' });
const noticeEl = h('div', { id: 'active-notice', class: 'notice' });
const setEl = h('section', { id: 'set-view', class: 'set-view', 'aria-label': 'Skills needed together and SKIP conflicts' });
const resultsEl = h('ol', { id: 'results', class: 'results', 'aria-label': 'Ranked skills' });
const saveEl = h('section', { id: 'save-bar', class: 'save-bar', 'aria-label': 'Save as routing test' });
app.replaceChildren(
  h('header', { class: 'top' }, form, historyEl),
  h('div', { class: 'progress', 'aria-hidden': 'true' }),
  statusEl,
  errorEl,
  noticeEl,
  setEl,
  resultsEl,
  saveEl,
);
app.setAttribute('aria-busy', 'false');

// ---------------------------------------------------------------------------------------------
// Actions

function route(query: string): void {
  const q = query.trim().slice(0, MAX_QUERY_LENGTH);
  if (!q) {
    update({ error: 'Type a request first.' });
    input.focus();
    return;
  }
  const requestId = state.nextId;
  const snapshot = { ...state.snapshot, query: q, history: pushHistory(state.snapshot.history, q) };
  input.value = q;
  update({ nextId: requestId + 1, pending: { requestId, query: q }, error: null, saved: null, tested: null, snapshot });
  const client = listingClientOf(snapshot.profile);
  post({ type: 'route', requestId, query: q, k: snapshot.k, ...(client ? { client } : {}) });
  persist();
}

/** Routes the shown request again (another client's listing ranks), leaving the input and the history as they are. */
function reroute(query: string): void {
  const requestId = state.nextId;
  update({ nextId: requestId + 1, pending: { requestId, query }, error: null });
  const client = listingClientOf(state.snapshot.profile);
  post({ type: 'route', requestId, query, k: state.snapshot.k, ...(client ? { client } : {}) });
}

function persist(): void {
  post({ type: 'persist', snapshot: state.snapshot });
}

function open(result: PanelResult): void {
  post({ type: 'open', uri: result.uri, ...(result.passage?.line !== undefined ? { line: result.passage.line } : {}) });
}

function resultCards(): HTMLElement[] {
  return [...resultsEl.querySelectorAll<HTMLElement>('li.result')];
}

function focusCard(index: number): void {
  const cards = resultCards();
  if (!cards.length) return;
  focusIndex = Math.max(0, Math.min(cards.length - 1, index));
  cards.forEach((c, i) => c.setAttribute('tabindex', i === focusIndex ? '0' : '-1'));
  cards[focusIndex].focus();
  cards[focusIndex].scrollIntoView({ block: 'nearest' });
}

const actions: Actions = {
  open,
  openUri: (uri) => post({ type: 'open', uri }),
  toggle(skillId, as) {
    // A changed expectation is another test: its last run no longer applies.
    if (state.expectation) update({ expectation: toggleExpectation(state.expectation, skillId, as), saved: null, tested: null });
  },
  runHistory: (q) => route(q),
  clearHistory() {
    update({ snapshot: { ...state.snapshot, history: [] } });
    persist();
    input.focus();
  },
  setTop(top) {
    if (state.expectation) update({ expectation: { ...state.expectation, top }, tested: null });
  },
  setSetFlag(set) {
    if (state.expectation) update({ expectation: { ...state.expectation, set: set && state.expectation.expect.length >= 2 }, tested: null });
  },
  save(force) {
    if (!state.last || !state.expectation || state.saving) return;
    const test = testEntry(state.last, state.expectation);
    update({ saving: true, saved: null, error: null, ...(force ? {} : { tested: null }) });
    post({ type: 'saveTest', test, ...(force ? { force: true } : {}) });
  },
  focusResult(skillId) {
    const i = resultCards().findIndex((c) => c.dataset.skill === skillId);
    if (i >= 0) focusCard(i);
  },
};

// ---------------------------------------------------------------------------------------------
// Rendering

function update(patch: Partial<ViewState>): void {
  state = { ...state, ...patch };
  render();
}

function render(): void {
  // Sections are rebuilt; keep the keyboard focus on the "same" element across the rebuild.
  const focusKey = (document.activeElement as HTMLElement | null)?.dataset?.focusKey;
  if (document.activeElement !== input && input.value !== state.snapshot.query) input.value = state.snapshot.query;
  kInput.value = String(state.snapshot.k);
  profileSelect.value = state.snapshot.profile;
  app.classList.toggle('loading', !!state.pending);
  renderHistory(historyEl, state.snapshot.history, actions);
  renderStatus(statusEl, state);
  renderError(errorEl, state.error);
  renderActiveNotice(noticeEl, state);
  renderSet(setEl, state, actions);
  renderResults(resultsEl, state, focusIndex, actions);
  renderSave(saveEl, state, actions);
  if (focusKey && document.activeElement?.getAttribute('data-focus-key') !== focusKey) {
    const again = [...app.querySelectorAll<HTMLElement>('[data-focus-key]')].find((el) => el.dataset.focusKey === focusKey);
    again?.focus();
  }
  vscode.setState(toStored(state));
}

// ---------------------------------------------------------------------------------------------
// Events

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  route(input.value);
});

input.addEventListener('input', () => {
  state = { ...state, snapshot: { ...state.snapshot, query: input.value } };
  vscode.setState(toStored(state));
});

input.addEventListener('keydown', (ev) => {
  if (ev.key === 'ArrowDown' && resultCards().length) {
    ev.preventDefault();
    focusCard(focusIndex);
  } else if (ev.key === 'Escape' && input.value) {
    ev.preventDefault();
    input.value = '';
    state = { ...state, snapshot: { ...state.snapshot, query: '' } };
    vscode.setState(toStored(state));
  }
});

kInput.addEventListener('change', () => {
  const k = Math.round(Number(kInput.value));
  const clamped = Number.isFinite(k) ? Math.max(1, Math.min(MAX_K, k)) : state.snapshot.k;
  update({ snapshot: { ...state.snapshot, k: clamped } });
  persist();
});

profileSelect.addEventListener('change', () => {
  const p = profileSelect.value;
  if (isProfile(p)) {
    update({ snapshot: { ...state.snapshot, profile: p } });
    persist();
    // The ranks shown are another client's: route the shown request again for this one's.
    const client = listingClientOf(p);
    if (client && state.last && !state.pending && state.last.listing?.client !== client) reroute(state.last.query);
  }
});

resultsEl.addEventListener('keydown', (ev) => {
  const card = (ev.target as HTMLElement).closest<HTMLElement>('li.result');
  if (!card) return;
  const index = Number(card.dataset.index);
  const onCard = ev.target === card;
  switch (ev.key) {
    case 'ArrowDown':
      ev.preventDefault();
      focusCard(index + 1);
      break;
    case 'ArrowUp':
      ev.preventDefault();
      if (index === 0) input.focus();
      else focusCard(index - 1);
      break;
    case 'Home':
      if (!onCard) return;
      ev.preventDefault();
      focusCard(0);
      break;
    case 'End':
      if (!onCard) return;
      ev.preventDefault();
      focusCard(resultCards().length - 1);
      break;
    case 'Enter':
    case ' ':
      if (!onCard || !state.last) return;
      ev.preventDefault();
      open(state.last.results[index]);
      break;
    case 'Escape':
      ev.preventDefault();
      input.focus();
      break;
  }
});

resultsEl.addEventListener('focusin', (ev) => {
  const card = (ev.target as HTMLElement).closest<HTMLElement>('li.result');
  if (card) focusIndex = Number(card.dataset.index);
});

// ---------------------------------------------------------------------------------------------
// Messages from the host

function receive(msg: HostMessage): void {
  switch (msg.type) {
    case 'init': {
      const restore = msg.restore;
      let patch: Partial<ViewState> = { connected: true, profiles: msg.profiles, active: msg.active };
      if (!stored) {
        // A fresh page: take what the host kept from the last time the panel was open.
        const profile: ProfileId = restore?.profile ?? msg.profiles[0];
        patch.snapshot = restore
          ? { query: restore.query, k: restore.k, profile, history: restore.history }
          : { ...state.snapshot, k: msg.k, profile };
      }
      const last = restore?.last;
      if (last && (!state.last || last.requestId > state.last.requestId)) {
        patch = { ...patch, last, expectation: defaultExpectation(last) };
      }
      patch.nextId = Math.max(state.nextId, (last?.requestId ?? 0) + 1);
      update(patch);
      if (!document.activeElement || document.activeElement === document.body) input.focus();
      break;
    }
    case 'results': {
      if (!state.pending || state.pending.requestId !== msg.requestId) return; // stale: a newer request is on its way
      const { type: _type, active, ...summary } = msg;
      // The same request again (after an edit, or for another listing): what the author marked stays.
      const expectation = state.expectation && state.last?.query === summary.query ? { ...state.expectation, requestId: summary.requestId } : defaultExpectation(summary);
      update({ last: summary, active, expectation, pending: null, error: null });
      focusIndex = 0;
      break;
    }
    case 'error':
      if (msg.requestId !== undefined) {
        if (state.pending?.requestId !== msg.requestId) return;
        update({ pending: null, error: msg.message });
      } else {
        update({ error: msg.message, saving: false });
      }
      break;
    case 'active':
      update({ active: msg.active });
      break;
    case 'saved':
      update({ saving: false, saved: { file: msg.file, uri: msg.uri, query: msg.query, ...(msg.outcome ? { outcome: msg.outcome } : {}) }, tested: null, error: null });
      break;
    case 'tested':
      update({ saving: false, tested: { query: msg.query, outcome: msg.outcome }, error: null });
      break;
    case 'run':
      input.value = msg.query;
      route(msg.query);
      break;
    case 'stale':
      // A skill changed: the shown answer is routed again; one on its way already reads the change.
      if (state.last && !state.pending) reroute(state.last.query);
      break;
  }
}

window.addEventListener('message', (event: MessageEvent) => {
  if (!isHostMessage(event.data)) {
    console.warn('skill-router panel: ignored a malformed message');
    return;
  }
  receive(event.data);
});

render();
post({ type: 'ready' });
