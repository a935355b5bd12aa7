import { strict as assert } from 'node:assert';
import { judgePair, SkillProfiles } from '../../src/core/analysis/conflicts';
import { detectFacets, facetMismatches, isUmbrella, mentionsSkill, mentionsSkillLower, sendsToLower } from '../../src/core/analysis/facets';
import { createSkillService } from '../../src/core/route/skillService';
import type { SkillDoc } from '../../src/core/types';
import { analyse } from '../../src/core/text/analyse';
import { FakeEmbedder, MemoryWorkspace, skill } from '../helpers/fakes';

function doc(id: string, name: string, description: string): SkillDoc {
  return { id, path: `${id}/SKILL.md`, name, description, body: '', frontMatter: {}, keyRanges: {}, bodyStartLine: 3, lang: /[\u4e00-\u9fff]/.test(description) ? 'zh' : 'en', hash: id, findings: [] };
}

const DOCS = [
  doc('a/blob-rust', 'azure-storage-blob-rust', 'Upload, download and list blobs in Azure Blob Storage from Rust with the azure_storage_blobs crate.'),
  doc('a/blob-go', 'azure-storage-blob-go', 'Upload, download and list blobs in Azure Blob Storage from Go with the azblob module.'),
  doc('a/pdf-extract', 'pdf-extract', 'Extract text and tables from PDF files and scanned invoices.'),
  doc('b/pdf-extract', 'pdf-extract', 'Pull text and tables out of PDF documents, including scanned ones.'),
  doc('a/pdf-forms', 'pdf-forms', 'Fill and flatten PDF forms. Not for extracting text: use pdf-extract instead.'),
  doc('a/pdf-router', 'pdf-router', 'Router for PDF work: hands off to the PDF skills for extraction, forms and merging.'),
  doc('a/sourdough', 'sourdough-baking', 'Plan a sourdough bake schedule with levain, hydration and proofing times.'),
];

function profiles() {
  return new SkillProfiles(DOCS, (t) => analyse(t));
}

describe('facets', () => {
  it('finds languages, ecosystems and platforms in names and descriptions', () => {
    const f = detectFacets('Build async services with tokio and cargo on AWS Lambda', 'rust-services');
    assert.deepEqual(f.language, ['rust']);
    assert.deepEqual(f.cloud, ['aws']);
    assert.deepEqual(detectFacets('Azure Monitor ingestion client', 'azure-monitor-ingestion-py').language, ['python']);
  });

  it('reads ambiguous words such as "go" only from the name', () => {
    assert.equal(detectFacets("Let's go through the release checklist", 'release-checklist').language, undefined);
    assert.deepEqual(detectFacets('Concurrency patterns', 'go-concurrency-patterns').language, ['go']);
  });

  it('a request naming both stacks spans them', () => {
    const rust = detectFacets('', 'blob-rust');
    const go = detectFacets('', 'blob-go');
    assert.equal(facetMismatches(rust, go).length, 1);
    assert.equal(facetMismatches(rust, go, detectFacets('port our uploader from Go to Rust')).length, 0);
  });

  it('recognises umbrella skills and cross-references', () => {
    assert.ok(isUmbrella('pdf-router', 'Router for PDF work'));
    assert.ok(!isUmbrella('pdf-forms', 'Fill and flatten PDF forms.'));
    assert.ok(mentionsSkill('Not for text: use pdf-extract instead.', 'pdf-extract'));
    assert.ok(!mentionsSkill('Extract text from PDF files', 'pdf-extract'), 'words of the name are not a reference');
    assert.ok(mentionsSkill('Not for text: use PDF-Extract instead.', 'pdf-extract'), 'either side may be in capitals');
    assert.ok(mentionsSkillLower('not for text: use pdf-extract instead.', 'PDF-Extract'), 'the name is lower-cased, the text taken as it is');
    assert.ok(mentionsSkillLower('完全安全模式：将 /careful（警告）与 /freeze 相结合。', 'careful'), 'a short name written as a command is a reference');
    assert.ok(!mentionsSkillLower('see docs/careful.md or https://x.dev/careful', 'careful'), 'not inside a path or a URL');
    assert.ok(!mentionsSkillLower('run /careful-mode first', 'careful'), 'not a longer command');
    assert.ok(!mentionsSkillLower('use pdf-extractor', 'pdf-extract'), 'a longer word is not the name');
  });

  it('a one-word name counts as sent to when it follows "use", alone or last of a list of names', () => {
    assert.ok(!mentionsSkillLower('for ibm hardware use qiskit.', 'qiskit'), 'too short a name to count as a mention');
    assert.ok(sendsToLower('for ibm hardware use qiskit; for quantum ml use pennylane.', 'qiskit'));
    assert.ok(sendsToLower('for larger-than-ram data use dask or vaex.', 'vaex'));
    assert.ok(sendsToLower('use polars, dask, or vaex for big tables', 'vaex'));
    assert.ok(sendsToLower('for advanced control, use rdkit directly.', 'RDKit'), 'the name is lower-cased');
    assert.ok(!sendsToLower('use the pandas api to reshape frames', 'pandas'), 'a word after "the" is a thing, not a skill sent to');
    assert.ok(!sendsToLower('use qiskit-aer for noise', 'qiskit'), 'a longer word is not the name');
    assert.ok(!sendsToLower('reuse qiskit circuits', 'qiskit'), '"use" must be its own word');
    assert.ok(!sendsToLower('builds quantum circuits with qiskit', 'qiskit'), 'a name without "use" before it is a topic');
  });
});

describe('judgePair', () => {
  const p = profiles();
  const get = (id: string) => p.get(id)!;

  it('the same job for two stacks is a language/ecosystem mismatch, unless the request spans both', () => {
    const j = judgePair(get('a/blob-rust'), get('a/blob-go'));
    assert.equal(j.reason, 'language_ecosystem_mismatch');
    assert.match(j.evidence, /rust vs go|go vs rust/);
    assert.equal(judgePair(get('a/blob-rust'), get('a/blob-go'), undefined, detectFacets('migrate our blob uploader from Go to Rust')).reason, null);
  });

  it('copies of one skill in two collections are redundant', () => {
    const j = judgePair(get('a/pdf-extract'), get('b/pdf-extract'));
    assert.equal(j.reason, 'function_redundant');
    assert.ok(j.copy);
  });

  it('an explicit cross-reference is an intended boundary, not a conflict', () => {
    const j = judgePair(get('a/pdf-forms'), get('a/pdf-extract'));
    assert.ok(j.crossReference);
    assert.notEqual(j.reason, 'function_redundant');
  });

  it('an umbrella over task skills is a granularity mismatch; unrelated skills a domain mismatch', () => {
    assert.equal(judgePair(get('a/pdf-router'), get('a/pdf-extract')).reason, 'granularity_mismatch');
    assert.equal(judgePair(get('a/sourdough'), get('a/blob-go')).reason, 'domain_mismatch');
  });
});

describe('service judgeSet', () => {
  const files = () => new Map<string, string | Uint8Array>([
    ['a/blob-rust/SKILL.md', skill('blob-rust', 'Upload, download and list blobs in Azure Blob Storage containers with the Rust SDK.')],
    ['a/blob-go/SKILL.md', skill('blob-go', 'Upload, download and list blobs in Azure Blob Storage containers with the Go SDK.')],
    ['a/pdf-text/SKILL.md', skill('pdf-text', 'Extract text and tables from PDF files and scanned invoices.')],
  ]);

  it('judges a set: the specific conflict wins, a compatible set has none', async () => {
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files()), embedder: new FakeEmbedder() });
    await svc.index();
    const j = svc.judgeSet(['a/blob-rust', 'a/blob-go', 'a/pdf-text']);
    assert.equal(j.reason, 'language_ecosystem_mismatch');
    assert.equal(j.pairs.length, 3);
    assert.equal(svc.judgeSet(['a/blob-rust', 'nope']).pairs.length, 0, 'unknown ids are left out');
  });
});

describe('SkillProfiles update after an edit', () => {
  const analyser = (t: string) => analyse(t);
  const view = (p: SkillProfiles, id: string) => {
    const x = p.get(id)!;
    return { name: x.name, description: x.description, lang: x.lang, facets: x.facets, excluded: x.excluded, umbrella: x.umbrella, terms: [...x.terms], nameTerms: [...x.nameTerms] };
  };
  const edited = (i: number, description: string) => DOCS.map((d, j) => (j === i ? { ...d, description, hash: `${d.hash}-2` } : d));

  it('equals a full build, carries over the profiles whose weights did not move and makes again those that did', () => {
    const before = new SkillProfiles(DOCS, analyser);
    for (const p of before.all()) void p.terms; // weights made before the edit, as a scan makes them
    // "scanned" leaves two skills (a term's frequency moves: every skill holding "scanned" weighs it anew).
    const docs = edited(2, 'Extract text and tables from PDF files and invoices with OCR.');
    const updated = new SkillProfiles(docs, analyser, undefined, null, before);
    const full = new SkillProfiles(docs, analyser);
    for (const d of docs) assert.deepEqual(view(updated, d.id), view(full, d.id), d.id);
    for (const t of ['scanned', 'ocr', 'pdf', 'sourdough', 'unseen-term']) assert.equal(updated.idfOf(t), full.idfOf(t), t);
    assert.deepEqual(updated.lexicalNeighbours('a/pdf-extract', 3), full.lexicalNeighbours('a/pdf-extract', 3));
    assert.equal(updated.get('a/sourdough'), before.get('a/sourdough'), 'no moved term: carried over');
    assert.notEqual(updated.get('b/pdf-extract'), before.get('b/pdf-extract'), 'holds "scanned": made again');
    assert.notDeepEqual([...updated.get('b/pdf-extract')!.terms], [...before.get('b/pdf-extract')!.terms]);
    assert.notEqual(updated.get('a/pdf-extract'), before.get('a/pdf-extract'));
  });

  it('a body edit (same name, description and language) carries every profile over', () => {
    const before = new SkillProfiles(DOCS, analyser);
    const docs = DOCS.map((d, j) => (j === 3 ? { ...d, body: 'New body.', hash: 'x' } : d));
    const updated = new SkillProfiles(docs, analyser, undefined, null, before);
    for (const d of docs) assert.equal(updated.get(d.id), before.get(d.id), d.id);
  });

  it('a skill added or removed builds in full', () => {
    const before = new SkillProfiles(DOCS, analyser);
    const docs = DOCS.slice(1);
    const updated = new SkillProfiles(docs, analyser, undefined, null, before);
    const full = new SkillProfiles(docs, analyser);
    for (const d of docs) {
      assert.notEqual(updated.get(d.id), before.get(d.id), d.id);
      assert.deepEqual(view(updated, d.id), view(full, d.id), d.id);
    }
  });

  it('an edit back and forth, over several updates, still equals a full build', () => {
    let p = new SkillProfiles(DOCS, analyser);
    const steps = ['Extract text from PDF files.', 'Extract tables from PDF files and sourdough.', DOCS[2].description];
    for (const description of steps) {
      const docs = edited(2, description);
      p = new SkillProfiles(docs, analyser, undefined, null, p);
      const full = new SkillProfiles(docs, analyser);
      for (const d of docs) assert.deepEqual(view(p, d.id), view(full, d.id), `${description}: ${d.id}`);
    }
  });
});
