/** What a description says its skill is not for, matched against requests (src/core/route/notFor.ts). */
import { strict as assert } from 'node:assert';
import { notForItems, notForMatch } from '../../src/core/route/notFor';

const THREATS =
  'Build a threat model for web services: assets, trust boundaries, abuse paths and controls. Do not use it for active penetration testing, a dependency vulnerability lookup, or legal advice.';

describe('not-for clauses', () => {
  it('lists what a description says its skill is not for, in the author\'s words', () => {
    assert.deepEqual(notForItems(THREATS), ['active penetration testing', 'a dependency vulnerability lookup', 'legal advice']);
    assert.deepEqual(notForItems('Lint Go code. NOT for formatting (use gofmt) or vendoring modules.'), ['formatting', 'vendoring modules']);
    assert.deepEqual(notForItems('Write release notes from merged pull requests.'), []);
    assert.deepEqual(notForItems('Plan video content. Not for social captions without video.'), [], 'an item that negates in turn is left out');
  });

  it('matches a request that asks for one of them, with the item', () => {
    assert.equal(notForMatch('Run an authorized penetration test with exploit probes against staging', 'threat-modeler', THREATS), 'active penetration testing');
    assert.equal(notForMatch('look up whether this dependency has a known vulnerability', 'threat-modeler', THREATS), 'a dependency vulnerability lookup');
  });

  it('does not match the requests the skill is for, one shared word, or what the request itself negates', () => {
    assert.equal(notForMatch('Build a threat model for our payment service trust boundaries', 'threat-modeler', THREATS), null);
    assert.equal(notForMatch('give me legal-sounding wording for the report', 'threat-modeler', THREATS), null, 'one word of "legal advice" is not the item');
    assert.equal(notForMatch('Model the abuse paths of this API; no penetration testing, it is production', 'threat-modeler', THREATS), null);
    // Words the positive text uses as well do not decide: "migration" and "plan" are this skill's job.
    const upgrades = 'Plan staged framework upgrades and migration steps with rollback. Do not use it to review a migration plan.';
    assert.equal(notForMatch('review the migration plan my colleague wrote', 'upgrade-planner', upgrades), 'review a migration plan');
    assert.equal(notForMatch('plan the migration steps for the framework upgrade', 'upgrade-planner', upgrades), null);
  });
});
