import { strict as assert } from 'node:assert';
import { createSkillService } from '../../src/core/route/skillService';
import { ownTerms } from '../../src/core/route/libraryTerms';
import { countTerms } from '../../src/core/index/lexicalIndex';
import { analyse } from '../../src/core/text/analyse';
import { MemoryWorkspace, skill } from '../helpers/fakes';

describe("the engine's term statistics for reach (SkillService.termFrequencies)", () => {
  const files = () =>
    new Map<string, string>([
      ['a/ui/SKILL.md', skill('ui', 'Builds user interfaces.', 'Blazor components and EditForm validation.\nFor deployment use the `deploy` skill.')],
      ['a/deploy/SKILL.md', skill('deploy', 'Deploys services with Helm.', 'Helm charts, Blazor hosting.')],
      ['a/docs/SKILL.md', skill('docs', 'Writes documentation.', 'Markdown pages.')],
    ]);

  it("count each skill's indexed text once, give a skill's own terms without the lines naming other skills, and follow an edit", async () => {
    const ws = new MemoryWorkspace(files());
    const svc = createSkillService({ root: '/lib', workspace: ws });
    await svc.index();
    const stats = svc.termFrequencies();
    assert.equal(stats.size, 3);
    assert.equal(stats.df('blazor'), 2);
    assert.equal(stats.df('helm'), 1);
    assert.equal(stats.df('nowhere'), 0);
    const own = stats.terms('a/ui');
    assert.ok(own.has('blazor') && own.has('editform'), [...own].join(' '));
    assert.ok(!own.has('deploy'), 'the line naming the deploy skill is not its own text');
    assert.ok(stats.terms('a/deploy').has('deploy'));
    assert.equal(stats.terms('a/missing').size, 0);
    assert.deepEqual(stats.analyser!('EditForm validation'), analyse('EditForm validation'), "the routing analyser (no segmenter here)");

    await svc.updateFile({ id: 'a/docs', path: 'a/docs/SKILL.md', folderName: 'docs' }, new TextEncoder().encode(skill('docs', 'Writes documentation.', 'Blazor pages.')));
    assert.equal(stats.df('blazor'), 3, 'the view reads the index as it stands');
    assert.ok(stats.terms('a/docs').has('blazor'));
    await svc.dispose();
  });

  it('own terms leave out the English senses a Chinese skill carries (the bridge fields)', () => {
    const counts = countTerms({ name: ['pdf'], description: ['提取'], headings: [], body: ['表格'], bridge: ['extract'], bridgeBody: ['table'] });
    assert.deepEqual([...ownTerms(counts)].sort(), ['pdf', '提取', '表格'].sort());
    assert.equal(ownTerms(undefined).size, 0);
  });
});
