/**
 * The panel's state and the pure rules over it: what is remembered, the default expectation for
 * "Save as routing test", and the test entry built from it. No DOM here (unit-testable in Node).
 */
import {
  DEFAULT_K,
  isActiveSkill,
  isPanelSnapshot,
  isProfile,
  isRouteSummary,
  type ActiveSkill,
  type PanelSnapshot,
  type RouteSummary,
  type RoutingTestEntry,
  type TestVerdict,
} from '../shared/webviewProtocol';
import type { ProfileId } from '../core/profiles';

/** What "Save as routing test" will write for the shown results (skill ids). */
export interface Expectation {
  requestId: number;
  expect: string[];
  notExpect: string[];
  /** All expected skills within the first |expect| ranks. */
  set: boolean;
  /** N of "in the top N"; null: the config's default. */
  top: number | null;
}

export interface ViewState {
  snapshot: PanelSnapshot;
  /** Profiles selected in the settings (the first is the default). */
  profiles: ProfileId[];
  last: RouteSummary | null;
  active: ActiveSkill | null;
  expectation: Expectation | null;
  /** The request awaiting an answer; answers to any other are stale. */
  pending: { requestId: number; query: string } | null;
  error: string | null;
  saved: { file: string; uri: string; query: string; outcome?: TestVerdict } | null;
  /** The last run of the test being saved, when it failed and was not saved (yet). */
  tested: { query: string; outcome: TestVerdict } | null;
  saving: boolean;
  nextId: number;
  /** The host has answered `ready`. */
  connected: boolean;
}

/** The part kept with the webview's `setState` (it survives hiding and window reloads). */
export interface StoredState {
  v: 1;
  snapshot: PanelSnapshot;
  profiles: ProfileId[];
  last: RouteSummary | null;
  active: ActiveSkill | null;
  expectation: Expectation | null;
  nextId: number;
}

export function initialState(stored: StoredState | null): ViewState {
  return {
    snapshot: stored?.snapshot ?? { query: '', k: DEFAULT_K, profile: 'claude-code', history: [] },
    profiles: stored?.profiles ?? ['claude-code'],
    last: stored?.last ?? null,
    active: stored?.active ?? null,
    expectation: stored?.expectation ?? null,
    pending: null,
    error: null,
    saved: null,
    tested: null,
    saving: false,
    nextId: stored?.nextId ?? 1,
    connected: false,
  };
}

export function toStored(s: ViewState): StoredState {
  return { v: 1, snapshot: s.snapshot, profiles: s.profiles, last: s.last, active: s.active, expectation: s.expectation, nextId: s.nextId };
}

const isIdList = (v: unknown): v is string[] => Array.isArray(v) && v.length <= 50 && v.every((x) => typeof x === 'string' && x.length > 0);

function isExpectation(v: unknown): v is Expectation {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as Record<string, unknown>;
  return (
    Number.isInteger(e.requestId) &&
    isIdList(e.expect) &&
    isIdList(e.notExpect) &&
    typeof e.set === 'boolean' &&
    (e.top === null || (Number.isInteger(e.top) && (e.top as number) > 0))
  );
}

/** `getState()` as stored by this build, or null (nothing stored, or an older or broken shape). */
export function readStored(v: unknown): StoredState | null {
  if (typeof v !== 'object' || v === null) return null;
  const s = v as Record<string, unknown>;
  const ok =
    s.v === 1 &&
    isPanelSnapshot(s.snapshot) &&
    Array.isArray(s.profiles) && s.profiles.length > 0 && s.profiles.every(isProfile) &&
    (s.last === null || isRouteSummary(s.last)) &&
    (s.active === null || isActiveSkill(s.active)) &&
    (s.expectation === null || isExpectation(s.expectation)) &&
    Number.isInteger(s.nextId) && (s.nextId as number) > 0;
  return ok ? (v as StoredState) : null;
}

/**
 * What to expect of a fresh result: nothing. The author marks what the request must (not) reach;
 * pre-filling the router's own answer would let one click turn a wrong answer into a passing test.
 */
export function defaultExpectation(summary: RouteSummary): Expectation {
  return { requestId: summary.requestId, expect: [], notExpect: [], set: false, top: null };
}

/** Marks `skillId` expected, not expected, or neither; `set` is dropped when fewer than two remain expected. */
export function toggleExpectation(e: Expectation, skillId: string, as: 'expect' | 'notExpect'): Expectation {
  const has = e[as].includes(skillId);
  const expect = e.expect.filter((id) => id !== skillId);
  const notExpect = e.notExpect.filter((id) => id !== skillId);
  if (!has) (as === 'expect' ? expect : notExpect).push(skillId);
  return { ...e, expect, notExpect, set: e.set && expect.length >= 2 };
}

/**
 * The routing test for the tests file: skills by name (as authors read them), by id when two
 * shown skills share the name (a name then matches the best-ranked one only).
 */
export function testEntry(summary: RouteSummary, e: Expectation): RoutingTestEntry {
  const byId = new Map(summary.results.map((r) => [r.skillId, r]));
  const nameCount = new Map<string, number>();
  for (const r of summary.results) nameCount.set(r.name, (nameCount.get(r.name) ?? 0) + 1);
  const ref = (id: string) => {
    const r = byId.get(id);
    return r && r.name && nameCount.get(r.name) === 1 ? r.name : id;
  };
  return {
    query: summary.query,
    expect: e.expect.map(ref),
    ...(e.notExpect.length ? { notExpect: e.notExpect.map(ref) } : {}),
    ...(e.top !== null ? { top: e.top } : {}),
    ...(e.set && e.expect.length >= 2 ? { set: true } : {}),
  };
}
