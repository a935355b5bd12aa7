/** Fixtures shared by the check command's unit tests (checkRules, checkFormats). */
import type { RoutingTest } from '../../src/cli/check/routingTests';

/** Library skills as the judge sees them: two named alike in two folders, one whose name is not its folder. */
export const skills = [
  { id: 'tools/pdf-extract', name: 'pdf-extract' },
  { id: 'tools/csv-charts', name: 'csv-charts' },
  { id: 'mail/email-drafting', name: 'email-drafting' },
  { id: 'copies/email-drafting', name: 'email-drafting' },
  { id: 'misc/renamed', name: 'sql-tuning' },
];

/** A routing test with defaults; `over` sets what a case is about. */
export const test = (over: Partial<RoutingTest>): RoutingTest => ({
  file: 'skill-router.tests.yaml',
  line: 1,
  kind: 'routing',
  query: 'q',
  expect: [],
  notExpect: [],
  set: false,
  ...over,
});

/** An LSP range on one line. */
export const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });
