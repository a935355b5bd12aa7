/**
 * Routing tests of `check`: the tests file (`skill-router.tests.yaml`) and each skill's trigger
 * evals (`evals/evals.json`), read into one shape with the line of each test.
 */
import { UsageError } from '../io';
import { isPositiveInt, isRecord, parseStructured, stringOrList } from './structuredFile';

/** One routing expectation, from the tests file or from a skill's trigger evals. */
export interface RoutingTest {
  /** File it came from, as displayed (relative to the working folder). */
  file: string;
  /** 1-based line of the test in that file (1 when it cannot be told). */
  line: number;
  kind: 'routing' | 'trigger';
  name?: string;
  query: string;
  /** Skill names or ids that must rank in the top N. */
  expect: string[];
  /** Skill names or ids that must not rank in the top N. */
  notExpect: string[];
  /** N; the config's `top` (default 5) when absent. */
  top?: number;
  /** All expected skills within the first |expect| ranks. */
  set: boolean;
  /** No skill of the library should answer: the router must say "no skill fits" (`match: none`). */
  none?: boolean;
  /** For trigger evals: the id of the skill whose folder holds the file. */
  owner?: string;
}

const TEST_KEYS = ['name', 'query', 'expect', 'notExpect', 'top', 'set', 'none'];

/**
 * 1-based lines where the keys `keys` start, in file order: a YAML key at the start of a line
 * (after indentation and an optional `- `), or a quoted key after `{`, `,`, `[` or whitespace
 * (JSON and flow YAML). Used to point at the n-th test, since each test has exactly one such key.
 */
export function keyLines(text: string, keys: readonly string[]): number[] {
  const alt = keys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const re = new RegExp(`^[ \\t]*(?:-[ \\t]+)?(?:${alt})[ \\t]*:|(?:^|(?<=[\\s{,\\[]))(["'])(?:${alt})\\1[ \\t]*:`, 'gm');
  const lines: number[] = [];
  const starts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  let m: RegExpExecArray | null;
  let line = 0;
  while ((m = re.exec(text))) {
    while (line + 1 < starts.length && starts[line + 1] <= m.index) line++;
    lines.push(line + 1);
  }
  return lines;
}

/**
 * Parses `skill-router.tests.yaml` (or `.json`): a list, or `{tests: [...]}`, of
 * `{query, expect: [names or ids], notExpect?, top?, set?, name?}`. `expect` and `notExpect`
 * also take a single string. Throws UsageError listing every problem with its line.
 */
export function parseRoutingTests(text: string, file: string): RoutingTest[] {
  const doc = parseStructured(text, file);
  if (doc === null || doc === undefined) return [];
  const list = Array.isArray(doc) ? doc : isRecord(doc) && Array.isArray(doc.tests) ? doc.tests : undefined;
  if (!list) throw new UsageError(`${file}: expected a list of tests (or a mapping with "tests:")`);
  const lines = keyLines(text, ['query']);
  const lineOf = (i: number): number => (lines.length === list.length ? lines[i] : 1);
  const problems: string[] = [];
  const tests: RoutingTest[] = [];
  list.forEach((item: unknown, i: number) => {
    const at = `${file}:${lineOf(i)}: test ${i + 1}`;
    if (!isRecord(item)) {
      problems.push(`${at}: expected a mapping with "query" and "expect"`);
      return;
    }
    const here: string[] = [];
    for (const key of Object.keys(item)) if (!TEST_KEYS.includes(key)) here.push(`unknown key "${key}" (known: ${TEST_KEYS.join(', ')})`);
    const query = item.query;
    if (typeof query !== 'string' || !query.trim()) here.push('"query" must be a non-empty string');
    const expect = item.expect === undefined ? [] : stringOrList(item.expect);
    if (!expect) here.push('"expect" must be a skill name or id, or a list of them');
    const notExpect = item.notExpect === undefined ? [] : stringOrList(item.notExpect);
    if (!notExpect) here.push('"notExpect" must be a skill name or id, or a list of them');
    if (item.none !== undefined && typeof item.none !== 'boolean') here.push('"none" must be true or false');
    if (item.none === true && expect && expect.length) here.push('"none: true" (no skill should answer) cannot also "expect" skills');
    if (expect && notExpect && expect.length === 0 && notExpect.length === 0 && item.none !== true) here.push('a test needs "expect", "notExpect" or "none: true"');
    if (item.top !== undefined && !isPositiveInt(item.top)) here.push('"top" must be a positive integer');
    if (item.set !== undefined && typeof item.set !== 'boolean') here.push('"set" must be true or false');
    if (item.set === true && expect && expect.length === 0) here.push('"set: true" needs "expect"');
    if (item.name !== undefined && typeof item.name !== 'string') here.push('"name" must be a string');
    if (here.length) {
      for (const p of here) problems.push(`${at}: ${p}`);
      return;
    }
    tests.push({
      file,
      line: lineOf(i),
      kind: 'routing',
      ...(typeof item.name === 'string' ? { name: item.name } : {}),
      query: query as string,
      expect: expect as string[],
      notExpect: notExpect as string[],
      ...(isPositiveInt(item.top) ? { top: item.top } : {}),
      set: item.set === true,
      ...(item.none === true ? { none: true } : {}),
    });
  });
  if (problems.length) throw new UsageError(problems.join('\n'));
  return tests;
}

/**
 * Parses a skill's trigger evals: a JSON list, or `{evals: [...]}`, of
 * `{query (or prompt), should_trigger: boolean}` (the skill-creator trigger-eval format). Items
 * without `should_trigger` are output evals of the agentskills.io evaluation guide
 * (`{id, prompt, expected_output, ...}`) and are skipped. `should_trigger: true` becomes a test
 * expecting `skillId` in the top N, false one expecting it outside. Returns the problems instead
 * of throwing: a bad file inside a skill is a finding, not a tool failure.
 */
export function parseTriggerEvals(
  text: string,
  file: string,
  skillId: string,
): { tests: RoutingTest[]; problems: { line: number; message: string }[] } {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    return { tests: [], problems: [{ line: 1, message: `not valid JSON (${(err as Error).message})` }] };
  }
  const list = Array.isArray(doc) ? doc : isRecord(doc) && Array.isArray(doc.evals) ? doc.evals : undefined;
  if (!list) return { tests: [], problems: [{ line: 1, message: 'expected a list of evals, or a mapping with "evals"' }] };
  const lines = keyLines(text, ['query', 'prompt']);
  const lineOf = (i: number): number => (lines.length === list.length ? lines[i] : 1);
  const tests: RoutingTest[] = [];
  const problems: { line: number; message: string }[] = [];
  list.forEach((item: unknown, i: number) => {
    if (!isRecord(item) || item.should_trigger === undefined) return;
    const query = typeof item.query === 'string' ? item.query : item.prompt;
    if (typeof item.should_trigger !== 'boolean') {
      problems.push({ line: lineOf(i), message: `eval ${i + 1}: "should_trigger" must be true or false` });
    } else if (typeof query !== 'string' || !query.trim()) {
      problems.push({ line: lineOf(i), message: `eval ${i + 1}: "query" (or "prompt") must be a non-empty string` });
    } else {
      tests.push({
        file,
        line: lineOf(i),
        kind: 'trigger',
        query,
        expect: item.should_trigger ? [skillId] : [],
        notExpect: item.should_trigger ? [] : [skillId],
        set: false,
        owner: skillId,
      });
    }
  });
  return { tests, problems };
}
