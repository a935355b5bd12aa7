import { strict as assert } from 'node:assert';
import { createSkillService } from '../../src/core/route/skillService';
import { pairFindingsFor } from '../../src/core/analysis/findings';
import { FakeEmbedder, MemoryWorkspace, skill } from '../helpers/fakes';

const files = () => new Map<string, string | Uint8Array>([
  ['a/pdf-text/SKILL.md', skill('pdf-text', 'Extract text and tables from PDF files and scanned invoices.')],
  ['b/pdf-reader/SKILL.md', skill('pdf-reader', 'Extract text and tables from PDF files and scanned invoices.')],
  ['c/k8s/SKILL.md', skill('k8s', 'Deploy services to Kubernetes with Helm.')],
]);

describe('near-duplicates', () => {
  for (const embedder of [new FakeEmbedder(), null]) {
    it(`finds the twin pair ${embedder ? 'by vectors' : 'by words'} and points each side at the other`, async () => {
      const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files()), embedder });
      await svc.index();
      const pairs = svc.pairFindings();
      assert.deepEqual(pairs.map((p) => [p.kind, p.a, p.b]), [['near-duplicate', 'a/pdf-text', 'b/pdf-reader']]);
      assert.deepEqual(svc.pairFindings('c/k8s'), []);
      assert.equal(svc.pairFindings('b/pdf-reader').length, 1);
      const docs = new Map(svc.skills().map((d) => [d.id, d]));
      const f = pairFindingsFor(docs.get('b/pdf-reader')!, pairs, (id) => docs.get(id));
      assert.equal(f[0].code, 'skill.near-duplicate');
      assert.match(f[0].message, /pdf-text/);
      assert.equal(f[0].related![0].path, 'a/pdf-text/SKILL.md');
      assert.equal(f[0].range.start.line, 2, 'anchored on the description line');
    });
  }
});
