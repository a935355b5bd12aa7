// What a request says not to do is not matched (core/text/declined.ts).
import * as assert from 'node:assert/strict';
import { declinedClauses, declinedNote } from '../../src/core/text/declined';

describe('declinedClauses: the clauses a request declines', () => {
  const cases: [string, string, string[]][] = [
    ['Create a PRD only; do not plan or implement', 'Create a PRD only', ['do not plan or implement']],
    ['Fix the CLI crash locally, but do not open a pull request.', 'Fix the CLI crash locally.', ['do not open a pull request']],
    ['Review this diff for correctness and test gaps; don\'t apply fixes.', 'Review this diff for correctness and test gaps.', ['don\'t apply fixes']],
    ['Plan least-privilege changes for the deployment role. Do not apply policy changes.', 'Plan least-privilege changes for the deployment role.', ['Do not apply policy changes']],
    ['Plan it. Do not apply. Then ship it.', 'Plan it. Then ship it.', ['Do not apply']],
    ['Bump the version; do not tag, and then do not publish.', 'Bump the version.', ['do not tag', 'do not publish']],
    ['Never push to main, open a branch and a pull request instead', 'open a branch and a pull request instead', ['Never push to main']],
    ['只检查代码问题，不要修改', '只检查代码问题', ['不要修改']],
    ['帮我整理成要点列表，不要写成段落。', '帮我整理成要点列表。', ['不要写成段落']],
  ];
  for (const [request, asked, declined] of cases) {
    it(`"${request}"`, () => assert.deepEqual(declinedClauses(request), { asked, declined }));
  }

  it('leaves a negation that describes the situation: it is no instruction', () => {
    for (const request of [
      'Set up local dev rendering with fixtures since we don\'t have SCAPI credentials yet',
      'The ISML hook never fires after the cartridge upload',
      'I don\'t want the one-line distro, set up the full tracing SDK',
      'Why does the webhook not arrive after a call?',
      '别人写的代码怎么审查',
      'Don\'t know why the build fails on CI, can you check the logs',
      'Never used Docker before, set up a dev container for this repo',
      'Never seen this error before: ECONNRESET from the webhook',
      'Do not have the credentials yet, mock the payment API',
    ]) assert.deepEqual(declinedClauses(request), { asked: request, declined: [] }, request);
  });

  it('keeps a wanted step after the declined clause\'s comma', () => {
    assert.deepEqual(declinedClauses('Don\'t touch the global config, update the project one'), { asked: 'update the project one', declined: ['Don\'t touch the global config'] });
  });

  it('leaves a request that only declines whole: nothing else says what is wanted', () => {
    assert.deepEqual(declinedClauses('Do not use any skill for this'), { asked: 'Do not use any skill for this', declined: [] });
  });

  it('reads each line on its own', () => {
    assert.deepEqual(declinedClauses('Bump the version\ndo not publish'), { asked: 'Bump the version', declined: ['do not publish'] });
  });

  it('reads a request of any size: a megabyte of spaces, marks or joining words comes back whole', () => {
    for (const request of [`x,${' '.repeat(1_000_000)}y`, `.${' '.repeat(1_000_000)}`, ', '.repeat(500_000), 'but '.repeat(250_000), '，'.repeat(1_000_000)]) {
      assert.deepEqual(declinedClauses(request), { asked: request, declined: [] });
    }
  });

  it('says which clauses were not matched', () => {
    assert.equal(declinedNote(['do not plan', '不要修改']), 'Not matched, because the request says not to: “do not plan”; “不要修改”');
  });
});
