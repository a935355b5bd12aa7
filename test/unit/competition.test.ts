/** How the pair scan reads a side's probes: the other skill's answer on its own text. */
import { strict as assert } from 'node:assert';
import { aloneShareOf, SAME_JOB_ALONE } from '../../src/core/analysis/competition';
import type { ScopedRanking } from '../../src/core/analysis/types';
import { createSkillService } from '../../src/core/route/skillService';
import { FakeEmbedder, MemoryWorkspace, skill } from '../helpers/fakes';

const ranking = (ids: string[], alone?: number[]): ScopedRanking => ({ query: 'q', source: 'description', for: ids[0], ids, close: ids.map(() => true), ...(alone ? { alone } : {}) });

describe('pair scan: the other skill on its own text', () => {
  it('averages the other skill\'s share over the probes, 0 where it is not ranked, and is off without a relevance model', () => {
    const rs = [ranking(['a', 'b', 'c'], [1, 0.8, 0.2]), ranking(['a', 'c', 'b'], [1, 0.5, 0.4]), ranking(['a', 'c'], [1, 0.3])];
    assert.ok(Math.abs(aloneShareOf(rs, 'b') - (0.8 + 0.4 + 0) / 3) < 1e-12);
    assert.equal(aloneShareOf([ranking(['a', 'b'])], 'b'), 1, 'no share recorded: the rule does not apply');
    // Siblings around 0.4-0.5 fall under the line, a twin at 0.8-0.9 stays above it.
    assert.ok(aloneShareOf(rs, 'b') < SAME_JOB_ALONE && aloneShareOf([ranking(['a', 'b'], [1, 0.85])], 'b') >= SAME_JOB_ALONE);
  });

  it('a ranking gives each skill its relevance alone: the best its own, a twin more than an unrelated skill', async () => {
    const files = new Map<string, string | Uint8Array>([
      ['t/pdf-text/SKILL.md', skill('pdf-text', 'Extract text and tables from PDF files and scanned invoices. Use when pulling tables out of PDF reports.', '# Tables\n\n# Scanned invoices\n')],
      ['t/pdf-reader/SKILL.md', skill('pdf-reader', 'Extract text and tables from PDF documents and scanned invoices. Use when reading tables out of PDF reports.', '# Tables\n\n# Scanned invoices\n')],
      ['t/sourdough/SKILL.md', skill('sourdough', 'Plan a sourdough bake schedule with levain and proofing times. Use when baking bread at home.', '# Levain\n\n# Proofing\n')],
    ]);
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder: new FakeEmbedder() });
    await svc.index();
    const ranked = await svc.pipeline.rank('Extract tables from scanned PDF invoices', { select: false });
    const best = ranked.candidates[0];
    assert.ok(best.relevance !== null && best.alone === best.relevance, 'the best is its own row');
    const twin = ranked.candidates.find((c) => c.id !== best.id && c.id.includes('pdf'))!;
    const bread = ranked.candidates.find((c) => c.id === 't/sourdough')!;
    assert.ok(twin.alone! > bread.alone!, `twin ${twin.alone} above the bread skill ${bread.alone}`);
    assert.ok(twin.alone! > twin.relevance!, 'alone does not pay for the place behind the best');
    await svc.dispose();
  });
});
