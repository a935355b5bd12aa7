import { strict as assert } from 'node:assert';
import { nameKeys, ownBody, ownDescription, referenceKeys, SkillNames } from '../../src/core/route/crossRefs';
import { createSkillService } from '../../src/core/route/skillService';
import { SkillEntry } from '../../src/core/route/skillEntry';
import type { SkillDoc } from '../../src/core/types';
import { MemoryWorkspace, skill } from '../helpers/fakes';

describe('cross-references between skills', () => {
  const docs = [
    { id: 'lib/dotnet-ui', name: 'dotnet-ui' },
    { id: 'lib/dotnet-devops', name: 'dotnet-devops' },
    { id: 'lib/docx', name: 'docx' },
    { id: 'lib/using-dotnet', name: 'using-dotnet' },
  ];

  it('names a skill by its name and folder, lower-cased, _ as -', () => {
    assert.deepEqual(nameKeys({ id: 'a/PDF_Extract', name: 'pdf-extract' }), ['pdf-extract']);
    assert.deepEqual(nameKeys({ id: 'a/tools', name: 'Tool Box' }).sort(), ['tool box', 'tools']);
  });

  it('finds compound names anywhere, one-word names only where marked', () => {
    const keys = referenceKeys('| Blazor components | dotnet-ui |\nUse [skill:docx] for Word.\nWrite a docx file.\nThe `docx` skill, or see dotnet-devops.');
    assert.ok(keys.has('dotnet-ui') && keys.has('dotnet-devops') && keys.has('docx'));
    const plain = referenceKeys('Write a docx file with a dotnet-uix widget.');
    assert.ok(!plain.has('docx'), 'a plain word is not a reference');
    assert.ok(!plain.has('dotnet-ui'), 'a longer identifier is not the name');
  });

  it('blanks the lines that name another skill, keeping line numbers; its own name is not a reference', () => {
    const names = new SkillNames(docs);
    const body = '# Routing\n| Blazor components | dotnet-ui |\n| CI pipelines | [skill:dotnet-devops] |\nDetect .NET intent (using-dotnet).\nWrite a docx file.';
    const self = docs[3];
    const mentions = names.mentions(self, referenceKeys(body));
    assert.deepEqual(mentions, ['dotnet-devops', 'dotnet-ui']);
    assert.equal(ownBody(body, mentions), '# Routing\n\n\nDetect .NET intent (using-dotnet).\nWrite a docx file.');
    assert.equal(ownBody(body, []), body);
    // A skill's routing view reads the same own body, from its document's body on each read.
    let reads = 0;
    const doc = Object.defineProperty({ ...self, hash: 'h' } as unknown as SkillDoc, 'body', { get: () => (reads++, body), enumerable: true, configurable: true }) as SkillDoc;
    const entry = new SkillEntry(doc, [], mentions, [], 0);
    assert.equal(reads, 0);
    const routing = entry.routing;
    assert.equal(reads, 0, 'made without reading the body');
    assert.equal(routing, entry.routing, 'the same object each time');
    assert.equal(routing.body, ownBody(body, mentions));
    assert.equal(routing.body, ownBody(body, mentions));
    assert.equal(routing.hash, 'h~dotnet-devops,dotnet-ui');
    assert.equal(routing.name, self.name);
    assert.ok(reads >= 2, 'read again, not kept');
    assert.equal(new SkillEntry(doc, [], [], [], 0).routing, doc, 'a skill that names no other is routed as it is');
    names.remove(docs[0]);
    assert.deepEqual(names.mentions(self, referenceKeys(body)), ['dotnet-devops'], 'a skill that is gone is no longer named');
  });

  it('routes an index skill that lists every sibling below the sibling that answers, and follows the library as it changes', async () => {
    const ui = skill('dotnet-ui', 'Builds .NET user interfaces: Razor pages and desktop apps.', '## Components\nParameters, event callbacks and forms.');
    const files = new Map<string, string>([
      ['using-dotnet/SKILL.md', skill('using-dotnet', 'Detects .NET intent and routes requests to the right .NET skill.', '## Routing\n| Blazor components, forms and validation | dotnet-ui |\n| CI pipelines and workflows | dotnet-devops |')],
      ['dotnet-devops/SKILL.md', skill('dotnet-devops', 'Configures .NET CI/CD pipelines with GitHub Actions.', '## Workflows\nReusable workflows and caching.')],
    ]);
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files) });
    await svc.index();
    const top = async (q: string) => (await svc.route(q, { k: 3, passages: false })).candidates[0]?.skillId;
    const request = 'Blazor components with form validation';
    assert.equal(await top(request), 'using-dotnet', 'no dotnet-ui in the library: the table line is the only text about Blazor');
    const ref = { id: 'dotnet-ui', path: 'dotnet-ui/SKILL.md', folderName: 'dotnet-ui' };
    await svc.updateFile(ref, new TextEncoder().encode(ui));
    assert.equal(await top(request), 'dotnet-ui', "now the line names a sibling: it is not the router's own text");
    await svc.updateFile(ref, null);
    assert.equal(await top(request), 'using-dotnet', 'the sibling gone, the line is the router\'s again');
  });

  it("drops a hub description's sentences that name its siblings, when it names two or more", () => {
    const names = new SkillNames(docs);
    const self = docs[3];
    const hub = 'Routes .NET requests to the right skill. Use dotnet-ui for Blazor pages and forms; dotnet-devops for CI pipelines. Loads coding standards first.';
    const mentions = names.mentions(self, referenceKeys(hub));
    assert.deepEqual(mentions, ['dotnet-devops', 'dotnet-ui']);
    assert.equal(ownDescription(hub, mentions), 'Routes .NET requests to the right skill. Loads coding standards first.', 'the dot of .NET ends no sentence');
    assert.equal(ownDescription('Use dotnet-ui for Blazor pages; dotnet-devops for CI.', mentions), '', 'a hub that only lists its siblings has no words of its own');
    const one = 'Builds Blazor pages with dotnet-ui conventions. Handles forms.';
    assert.equal(ownDescription(one, mentions), one, 'one other skill named: the sentence may be the skill\'s own job');
    // The routing view reads the own description; the document keeps the author's.
    const doc = { ...self, hash: 'h', description: hub, body: '' } as unknown as SkillDoc;
    const entry = new SkillEntry(doc, [], mentions, [], 0);
    assert.equal(entry.routing.description, ownDescription(hub, mentions));
    assert.equal(doc.description, hub);
  });

  it('routes a sibling\'s request to the sibling when a hub lists it in its description', async () => {
    const files = new Map<string, string>([
      ['dotnet-hub/SKILL.md', skill('dotnet-hub', 'Routes .NET work to the right skill. Use dotnet-ui for Blazor components, forms and validation; dotnet-devops for CI pipelines and workflows.', '## Multi-step work\nRun the skills in order.')],
      ['dotnet-ui/SKILL.md', skill('dotnet-ui', 'Builds .NET user interfaces: Razor pages and desktop apps.', '## Components\nParameters and event callbacks.')],
      ['dotnet-devops/SKILL.md', skill('dotnet-devops', 'Configures .NET CI/CD with GitHub Actions.', '## Workflows\nReusable workflows and caching.')],
    ]);
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files) });
    await svc.index();
    const top = async (q: string) => (await svc.route(q, { k: 3, passages: false })).candidates[0]?.skillId;
    assert.equal(await top('Blazor components with form validation'), 'dotnet-ui');
    assert.equal(await top('set up CI pipelines and workflows'), 'dotnet-devops');
  });
});
