import { strict as assert } from 'node:assert';
import { parseRoutingTests } from '../../src/cli/check/routingTests';
import { appendRoutingTest, locateTestsFile } from '../../src/client/routingTestsFile';
import type { RoutingTestEntry } from '../../src/shared/webviewProtocol';

const ENTRY: RoutingTestEntry = { query: 'pull the tables: from this #scanned invoice', expect: ['pdf-extract'] };
const SET_ENTRY: RoutingTestEntry = { query: 'chart the totals and mail them', expect: ['csv-charts', 'email-drafting'], notExpect: ['pdf-build'], top: 3, set: true };

/** What `skill-router check` reads back from the file. */
const readBack = (text: string, file = 'skill-router.tests.yaml') =>
  parseRoutingTests(text, file).map((t) => ({ query: t.query, expect: t.expect, notExpect: t.notExpect, top: t.top, set: t.set }));

function memoryIo(files: Record<string, string>) {
  return {
    exists: async (p: string) => p in files,
    read: async (p: string) => {
      if (!(p in files)) throw new Error(`ENOENT ${p}`);
      return files[p];
    },
  };
}

describe('routing tests file (panel "Save as routing test")', () => {
  it('creates a new file that check reads back', () => {
    const text = appendRoutingTest(null, '/lib/skill-router.tests.yaml', ENTRY);
    assert.match(text, /^# Routing tests for `skill-router check`/);
    assert.deepEqual(readBack(text), [{ query: ENTRY.query, expect: ['pdf-extract'], notExpect: [], top: undefined, set: false }]);
    const both = appendRoutingTest(text, '/lib/skill-router.tests.yaml', SET_ENTRY);
    assert.deepEqual(readBack(both)[1], { query: SET_ENTRY.query, expect: ['csv-charts', 'email-drafting'], notExpect: ['pdf-build'], top: 3, set: true });
    assert.ok(both.startsWith(text), 'appended, not rewritten');
  });

  it('writes expect and notExpect in one shape, a list, however many skills each names', () => {
    const one = appendRoutingTest(null, '/lib/skill-router.tests.yaml', { query: 'merge these PDFs', expect: ['pdf-build'], notExpect: ['pdf-extract'] });
    assert.match(one, /\n- query: merge these PDFs\n {2}expect: \[pdf-build\]\n {2}notExpect: \[pdf-extract\]\n$/);
    const two = appendRoutingTest(null, '/lib/skill-router.tests.yaml', { query: 'q', expect: ['a', 'b'], notExpect: ['c'] });
    assert.match(two, /expect: \[a, b\]\n {2}notExpect: \[c\]\n$/);
  });

  it('appends to a block list and keeps the comments and layout', () => {
    const before = '# my tests\n- query: write a commit message   # staged changes\n  expect: git-commit-messages\n';
    const after = appendRoutingTest(before, 'skill-router.tests.yaml', ENTRY);
    assert.ok(after.startsWith(before));
    assert.equal(readBack(after).length, 2);
    const noNewline = appendRoutingTest(before.trimEnd(), 'skill-router.tests.yaml', ENTRY);
    assert.equal(readBack(noNewline).length, 2);
    assert.ok(noNewline.includes('expect: git-commit-messages\n- query:'));
  });

  it('appends under "tests:" with the existing indentation when it comes last', () => {
    const before = '# tests\ntests:\n    - query: write a commit message\n      expect: git-commit-messages\n';
    const after = appendRoutingTest(before, 'skill-router.tests.yml', SET_ENTRY);
    assert.ok(after.startsWith(before));
    assert.match(after, /\n {4}- query: chart the totals/);
    assert.equal(readBack(after, 'skill-router.tests.yml').length, 2);
  });

  it('rewrites layouts it cannot append to as text (flow lists, tests: not last) without losing tests', () => {
    const flow = '[{query: a request, expect: x}]\n';
    assert.deepEqual(readBack(appendRoutingTest(flow, 't.yaml', ENTRY)).map((t) => t.query), ['a request', ENTRY.query]);
    const notLast = 'tests:\n  - query: a request\n    expect: x\nname: mine\n';
    const after = appendRoutingTest(notLast, 't.yaml', ENTRY);
    assert.deepEqual(readBack(after).map((t) => t.query), ['a request', ENTRY.query]);
  });

  it('writes JSON for a .json tests file', () => {
    const after = appendRoutingTest('[{"query": "a request", "expect": "x"}]', 'skill-router.tests.json', SET_ENTRY);
    assert.deepEqual(JSON.parse(after)[1], { query: SET_ENTRY.query, expect: ['csv-charts', 'email-drafting'], notExpect: ['pdf-build'], top: 3, set: true });
    assert.equal(readBack(after, 'skill-router.tests.json').length, 2);
  });

  it('refuses a file that is not a list of tests', () => {
    assert.throws(() => appendRoutingTest('tests: nope\n', 't.yaml', ENTRY), /not a list of tests/);
    assert.throws(() => appendRoutingTest('- [unclosed\n', 't.yaml', ENTRY), /cannot be read/);
  });

  it('finds the tests file the way check does', async () => {
    // The config names it.
    assert.deepEqual(
      await locateTestsFile('/ws', memoryIo({ '/ws/skill-router.yaml': 'tests: checks/routing.yaml\ntop: 3\n' })),
      { file: '/ws/checks/routing.yaml', exists: false, defaultTop: 3 },
    );
    // Next to the config (or in the folder without one), in name order.
    assert.deepEqual(
      await locateTestsFile('/ws', memoryIo({ '/ws/skill-router.tests.yml': '[]', '/ws/skill-router.tests.json': '[]' })),
      { file: '/ws/skill-router.tests.yml', exists: true, defaultTop: 5 },
    );
    // In the config's library folder.
    assert.deepEqual(
      await locateTestsFile('/ws', memoryIo({ '/ws/skill-router.json': '{"library": "skills"}', '/ws/skills/skill-router.tests.yaml': '[]' })),
      { file: '/ws/skills/skill-router.tests.yaml', exists: true, defaultTop: 5 },
    );
    // None yet: a new one next to the config.
    assert.deepEqual(await locateTestsFile('/ws', memoryIo({})), { file: '/ws/skill-router.tests.yaml', exists: false, defaultTop: 5 });
    await assert.rejects(locateTestsFile('/ws', memoryIo({ '/ws/skill-router.yaml': 'tests: [' })), /skill-router.yaml cannot be read/);
  });
});
