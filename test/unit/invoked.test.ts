// A request that invokes a skill by name, as the clients let a user do (Claude Code: a message
// that starts with `/name` or `/plugin:name`; Codex: a `$name` mention anywhere).
import * as assert from 'node:assert/strict';
import { invocations, invokedSkills } from '../../src/core/route/invoked';

describe('invoked: a skill the request calls by name', () => {
  const library = new Map([
    ['adr', ['adr']],
    ['review', ['review']],
    ['work', ['work']],
    ['json', ['json']],
  ]);
  const lookup = (name: string) => library.get(name.toLowerCase()) ?? [];

  it('reads the slash commands that open a request, and the part after a plugin prefix', () => {
    assert.deepEqual(invocations('/sdd:adr for the Redis decision'), [{ text: '/sdd:adr', names: ['sdd:adr', 'adr'] }]);
    assert.deepEqual(invocations('/loop /sdd:review --loop --pr 142').map((i) => i.text), ['/loop', '/sdd:review']);
    assert.deepEqual([...invokedSkills('/loop /sdd:review --loop --pr 142', lookup)], [['review', '/sdd:review']]);
    assert.deepEqual([...invokedSkills('  /adr', lookup)], [['adr', '/adr']]);
  });

  it('does not read a command named in passing, a path or a URL', () => {
    assert.equal(invokedSkills('format these issues so /sdd:work can pick them up', lookup).size, 0);
    assert.equal(invokedSkills('/work/main/src is where the review code lives', lookup).size, 0);
    assert.equal(invokedSkills('see https://example.com/adr for the format', lookup).size, 0);
    assert.equal(invokedSkills('write an ADR for the Redis decision', lookup).size, 0);
  });

  it('reads a `$name` mention anywhere, lower case only, and never a variable or expression', () => {
    assert.deepEqual([...invokedSkills('please use $adr to record this decision', lookup)], [['adr', '$adr']]);
    assert.deepEqual([...invokedSkills('record it ($adr), then stop', lookup)], [['adr', '$adr']]);
    assert.deepEqual([...invokedSkills('validate the payload with $json.', lookup)], [['json', '$json']]);
    assert.equal(invokedSkills('echo $HOME and $PATH', lookup).size, 0);
    assert.equal(invokedSkills('map {{ $json.name }} into the node', lookup).size, 0, '$json.name is an n8n expression, not the json skill');
    assert.equal(invokedSkills('costs $200 a month', lookup).size, 0);
  });

  it('names nothing when no skill has the name', () => {
    assert.equal(invokedSkills('/compact', lookup).size, 0);
    assert.equal(invokedSkills('/sdd:graph impact ADR-0003', lookup).size, 0);
  });
});
