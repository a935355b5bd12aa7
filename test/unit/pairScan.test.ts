/** The pair scan: copies from the text, near-duplicates and conflicts from routing evidence. */
import { strict as assert } from 'node:assert';
import { MemoryTextStore, PairScanCache } from '../../src/core/analysis/pairCache';
import { pairLibraryKey, scanPairs, scopeOf } from '../../src/core/analysis/pairScan';
import { resolveScanOptions } from '../../src/core/analysis/scanRun';
import { pairFindingsFor } from '../../src/core/analysis/findings';
import type { PairFinding } from '../../src/core/analysis/types';
import type { SkillDoc } from '../../src/core/types';
import { createSkillService, type RoutingEngine } from '../../src/core/route/skillService';
import { FakeEmbedder, MemoryWorkspace, skill } from '../helpers/fakes';

const PDF_BODY = '# Extracting tables\nUse pdfplumber on each page.\n\n# Scanned invoices and receipts\nRun OCR first.\n';

/** A skill file with a body of headings, so it has more than one probe request. */
const withBody = (name: string, description: string, body: string) => skill(name, description, body);

function library(): Map<string, string | Uint8Array> {
  return new Map<string, string | Uint8Array>([
    ['team/pdf-text/SKILL.md', withBody('pdf-text', 'Extract text and tables from PDF files and scanned invoices. Use when pulling tables out of PDF reports.', PDF_BODY)],
    ['team/pdf-reader/SKILL.md', withBody('pdf-reader', 'Extract text and tables from PDF documents and scanned invoices. Use when reading tables out of PDF reports.', PDF_BODY)],
    ['team/k8s-deploy/SKILL.md', withBody('k8s-deploy', 'Deploy services to Kubernetes with Helm charts. Use when rolling out a release to a cluster.', '# Helm releases\n\n# Rollbacks\n')],
    ['team/sourdough/SKILL.md', withBody('sourdough', 'Plan a sourdough bake schedule with levain and proofing times. Use when baking bread at home.', '# Levain\n\n# Proofing\n')],
    ['team/email-drafting/SKILL.md', withBody('email-drafting', 'Write polite follow-up emails to customers. Use when a customer has not answered.', '# Follow-ups\n\n# Tone\n')],
  ]);
}

async function engine(files: Map<string, string | Uint8Array>, embedder: FakeEmbedder | null = new FakeEmbedder()): Promise<RoutingEngine> {
  const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder });
  await svc.index();
  return svc;
}

const pairs = (found: readonly PairFinding[]) => found.map((p) => [p.kind, p.a, p.b]);

describe('pair scan: near-duplicates from routing evidence', () => {
  for (const model of [true, false]) {
    it(`reports the two skills that take each other's requests, with verified requests (${model ? 'vectors' : 'words only'})`, async () => {
      const svc = await engine(library(), model ? new FakeEmbedder() : null);
      const found = await svc.pairFindings();
      assert.deepEqual(pairs(found), [['near-duplicate', 'team/pdf-reader', 'team/pdf-text']]);
      const [p] = found;
      assert.ok(p.evidence && p.evidence.requests.length >= 1);
      for (const r of p.evidence.requests) {
        assert.deepEqual(Object.keys(r.ranks).sort(), ['team/pdf-reader', 'team/pdf-text']);
        assert.ok(Object.values(r.ranks).every((k) => k >= 1 && k <= 3), `both in the top 3: ${JSON.stringify(r)}`);
        // Verify the claim by routing the request again (the reranker's order, before set selection).
        const routed = (await svc.route(r.query, { k: 3, select: false })).candidates.map((c) => c.skillId);
        assert.ok(routed.includes('team/pdf-text') && routed.includes('team/pdf-reader'), `${r.query}: ${routed.join(', ')}`);
      }
      assert.ok(p.evidence.probes.sent >= 2 && p.evidence.probes.taken >= 2 && p.evidence.probes.taken <= p.evidence.probes.sent);
      assert.match(p.explanation, /^\d of \d requests written for pdf-reader also rank pdf-text in the top 3/);
      assert.doesNotMatch(p.explanation, /_mismatch|function_redundant/);
    });
  }

  it('the one-skill scan after an edit finds the same pair as the library-wide scan, and loses it when the job changes', async () => {
    const svc = await engine(library());
    const all = await svc.pairFindings();
    assert.deepEqual(pairs(await svc.pairFindings('team/pdf-text')), pairs(all));
    assert.deepEqual(await svc.pairFindings('team/sourdough'), []);
    await svc.updateFile({ id: 'team/pdf-reader', path: 'team/pdf-reader/SKILL.md', folderName: 'pdf-reader' }, new TextEncoder().encode(withBody('pdf-reader', 'Translate restaurant menus into French. Use when a chef asks for a menu in French.', '# Menus\n\n# Wine lists\n')));
    assert.deepEqual(await svc.pairFindings('team/pdf-reader'), []);
  });

  it('never words the fix from the skill\'s own text: each side gets the other\'s distinguishing words', async () => {
    const files = library();
    files.set('team/pdf-reader/SKILL.md', withBody('pdf-reader', 'Extract text and tables from PDF documents and scanned invoices with Camelot lattice mode. Use when reading tables out of PDF reports.', PDF_BODY));
    const svc = await engine(files);
    const [p] = await svc.pairFindings();
    assert.equal(p?.kind, 'near-duplicate');
    const text = p.suggestions?.['team/pdf-text'];
    assert.ok(text, 'a line for pdf-text');
    assert.match(text, /^For .*Camelot.*, use pdf-reader\.$/);
    const docs = new Map(svc.skills().map((d) => [d.id, d]));
    const [f] = pairFindingsFor(docs.get('team/pdf-text')!, [p], (id) => docs.get(id));
    assert.equal(f.suggestion, text);
    assert.deepEqual(f.evidence, p.evidence);
  });

  it('the line to add says the other skill\'s job in its own first sentence, when that is short enough to read', async () => {
    const files = library();
    files.set('team/pdf-reader/SKILL.md', withBody('pdf-reader', 'Reads tables from PDF reports with Camelot. Use when reading tables out of PDF documents and scanned invoices.', PDF_BODY));
    const [p] = await (await engine(files)).pairFindings();
    assert.equal(p?.kind, 'near-duplicate');
    assert.equal(p.suggestions?.['team/pdf-text'], 'To read tables from PDF reports with Camelot, use pdf-reader.');
    assert.equal(p.suggestions?.['team/pdf-reader'], 'To extract text and tables from PDF files and scanned invoices, use pdf-text.');
  });

  it('pairs in different top-level folders are judged only when asked; copies always', async () => {
    const files = library();
    const reader = files.get('team/pdf-reader/SKILL.md')!;
    files.delete('team/pdf-reader/SKILL.md');
    files.set('other/pdf-reader/SKILL.md', reader);
    const svc = await engine(files);
    assert.deepEqual(await svc.pairFindings(), []);
    const across = await svc.pairFindings(undefined, { options: { acrossFolders: true } });
    assert.deepEqual(pairs(across), [['near-duplicate', 'other/pdf-reader', 'team/pdf-text']]);
    assert.equal(scopeOf('owner__repo/skills/pdf', false), 'owner__repo');
    assert.equal(scopeOf('pdf', false), '');
    assert.equal(scopeOf('owner__repo/pdf', true), '');
  });

  it('a pair whose descriptions name each other is left alone (the boundary is intended)', async () => {
    const files = library();
    files.set('team/pdf-reader/SKILL.md', withBody('pdf-reader', 'Extract text and tables from PDF documents and scanned invoices. Not for plain text dumps: use pdf-text for that.', PDF_BODY));
    const svc = await engine(files);
    assert.deepEqual(await svc.pairFindings(), []);
  });

  it('a pair whose bodies name each other is left alone; one body naming the other is not enough', async () => {
    const files = library();
    files.set('team/pdf-text/SKILL.md', withBody('pdf-text', 'Extract text and tables from PDF files and scanned invoices. Use when pulling tables out of PDF reports.', `${PDF_BODY}\nFor forms, see \`pdf-reader\`.\n`));
    const oneWay = await (await engine(files)).pairFindings();
    assert.deepEqual(pairs(oneWay), [['near-duplicate', 'team/pdf-reader', 'team/pdf-text']], 'one body naming the other');
    files.set('team/pdf-reader/SKILL.md', withBody('pdf-reader', 'Extract text and tables from PDF documents and scanned invoices. Use when reading tables out of PDF reports.', `${PDF_BODY}\nFor plain text, see \`pdf-text\`.\n`));
    assert.deepEqual(await (await engine(files)).pairFindings(), [], 'each body names the other: the author drew the line');
  });

  it('the author\'s routing tests are the first probes and the first evidence', async () => {
    const svc = await engine(library());
    const query = 'get the totals table out of this scanned invoice PDF';
    const found = await svc.pairFindings(undefined, { authored: (id) => (id === 'team/pdf-text' ? [{ query, source: 'test' }] : []) });
    assert.equal(found[0]?.evidence?.requests[0].query, query);
    assert.equal(found[0]?.evidence?.requests[0].source, 'test');
  });
});

describe('pair scan: copies', () => {
  it('the same skill in two collections is one copy finding, not a near-duplicate, and says which is longer or newer', async () => {
    const files = library();
    const text = files.get('team/pdf-text/SKILL.md') as string;
    files.set('vendor/pdf-text/SKILL.md', text.replace('Run OCR first.', 'Run OCR first, then check the totals.'));
    const svc = await engine(files);
    const found = await svc.pairFindings();
    const mine = found.filter((p) => p.a === 'team/pdf-text' || p.b === 'team/pdf-text');
    assert.deepEqual(pairs(mine.filter((p) => p.kind === 'copy')), [['copy', 'team/pdf-text', 'vendor/pdf-text']]);
    assert.ok(!found.some((p) => p.kind !== 'copy' && p.a === 'team/pdf-text' && p.b === 'vendor/pdf-text'), 'no second finding for the pair');
    const copy = mine.find((p) => p.kind === 'copy')!;
    assert.match(copy.explanation, /of the text is the same; vendor\/pdf-text is longer \(by \d+ characters\)/);
    assert.equal(copy.suggestions, undefined, 'a copy gets no line to add');
    const docs = new Map(svc.skills().map((d) => [d.id, d]));
    const [f] = pairFindingsFor(docs.get('vendor/pdf-text')!, [copy], (id) => docs.get(id));
    assert.equal(f.code, 'skill.copy');
    assert.equal(f.severity, 'info');
    assert.match(f.message, /^Copy of "pdf-text" \(team\/pdf-text\)/);

    const versioned = library();
    versioned.set('team/pdf-text/SKILL.md', (text as string).replace('---\n', '---\nversion: 1.2.0\n'));
    versioned.set('vendor/pdf-text/SKILL.md', (text as string).replace('---\n', '---\nversion: 1.10.0\n'));
    const [c] = (await (await engine(versioned)).pairFindings()).filter((p) => p.kind === 'copy');
    assert.match(c.explanation, /^The same text; vendor\/pdf-text is newer \(version 1\.10\.0 vs 1\.2\.0\)/);
  });
});

describe('pair scan: conflicts', () => {
  const blob = (lang: string, first: string) =>
    withBody(`blob-${lang.toLowerCase()}`, `${first} Upload, download and list blobs in Azure Blob Storage containers with the ${lang} SDK.`, '# Uploading blobs\n\n# Listing containers\n');

  it('the same job in two languages is a conflict while a first sentence does not name its language', async () => {
    const files = library();
    files.set('team/blob-rust/SKILL.md', blob('Rust', 'Manage Azure Blob Storage from Rust.'));
    files.set('team/blob-go/SKILL.md', blob('Go', 'Manage Azure Blob Storage containers.'));
    const svc = await engine(files);
    const found = (await svc.pairFindings()).filter((p) => p.a.includes('blob'));
    assert.deepEqual(pairs(found), [['conflict', 'team/blob-go', 'team/blob-rust']]);
    const [c] = found;
    assert.equal(c.reason, 'language_ecosystem_mismatch');
    assert.deepEqual(c.detail, { kind: 'variant', family: 'language', values: { 'team/blob-go': ['go'], 'team/blob-rust': ['rust'] }, unnamed: ['team/blob-go'] });
    assert.match(c.explanation, /^The same job in another language \(Go vs Rust\)/);
    const docs = new Map(svc.skills().map((d) => [d.id, d]));
    const [onGo] = pairFindingsFor(docs.get('team/blob-go')!, [c], (id) => docs.get(id));
    assert.match(onGo.message, /Name Go in the first sentence of this description/);
    assert.match(c.suggestions?.['team/blob-go'] ?? '', /^For Rust.*, use blob-rust\.$/);

    // Both name their language first: they tell themselves apart already.
    files.set('team/blob-go/SKILL.md', blob('Go', 'Manage Azure Blob Storage from Go.'));
    assert.deepEqual((await (await engine(files)).pairFindings()).filter((p) => p.a.includes('blob')), []);
  });

  it('a first sentence that names its platform tells the two apart, whatever language the rest names', async () => {
    const files = library();
    const sdk = (platform: string, lang: string) =>
      withBody(`video-sdk-${platform.toLowerCase()}`, `Zoom Video SDK for ${platform} native apps. Build custom video sessions, join and leave meetings, and render participants with the ${lang} SDK.`, '# Joining a session\n\n# Rendering video\n');
    files.set('team/video-sdk-android/SKILL.md', sdk('Android', 'Kotlin'));
    files.set('team/video-sdk-ios/SKILL.md', sdk('iOS', 'Swift'));
    const found = (await (await engine(files)).pairFindings()).filter((p) => p.a.includes('video-sdk'));
    assert.deepEqual(found.filter((p) => p.detail?.kind === 'variant'), [], 'no advice to name Kotlin where Android is named');
    // Neither says its platform first: the conflict names the platform, and the line to add does not repeat it.
    files.set('team/video-sdk-android/SKILL.md', sdk('Android', 'Kotlin').replace('Zoom Video SDK for Android native apps.', 'Zoom Video SDK for native apps.'));
    files.set('team/video-sdk-ios/SKILL.md', sdk('iOS', 'Swift').replace('Zoom Video SDK for iOS native apps.', 'Zoom Video SDK for native apps.'));
    const [c] = (await (await engine(files)).pairFindings()).filter((p) => p.a.includes('video-sdk') && p.detail?.kind === 'variant');
    if (c) {
      for (const line of Object.values(c.suggestions ?? {})) {
        const words = line.toLowerCase().match(/[a-z]+/g) ?? [];
        for (const w of ['swift', 'kotlin', 'ios', 'android']) assert.ok(words.filter((x) => x === w).length <= 1, `"${w}" twice in: ${line}`);
      }
    }
  });

  it('a hub of the reference graph is an umbrella though its description does not say so', async () => {
    const files = library();
    files.set('team/pdf-work/SKILL.md', withBody('pdf-work', 'PDF work: filling PDF forms, merging PDF files or extracting tables from PDF files.', '# Filling PDF forms\n\nUse `pdf-forms`.\n\n# Merging PDF files\n\nUse `pdf-merge`.\n\n# Tables\n\nUse `pdf-tables`.\n\n# Text\n\nUse `pdf-text` or `pdf-reader`.\n'));
    files.set('team/pdf-forms/SKILL.md', withBody('pdf-forms', 'Fill and flatten PDF forms with field values. Use when filling PDF forms.', '# Filling PDF forms\n\n# Flattening\n'));
    files.set('team/pdf-merge/SKILL.md', withBody('pdf-merge', 'Merge and split PDF files, reorder their pages. Use when merging PDF files.', '# Merging PDF files\n\n# Splitting\n'));
    files.set('team/pdf-tables/SKILL.md', withBody('pdf-tables', 'Extract tables from PDF files into CSV. Use when extracting tables from PDF files.', '# Extracting tables\n'));
    const found = (await (await engine(files)).pairFindings()).filter((p) => p.a.includes('pdf') && p.b.includes('pdf'));
    const withHub = found.filter((p) => p.a === 'team/pdf-work' || p.b === 'team/pdf-work');
    assert.ok(withHub.length >= 1, JSON.stringify(found.map((p) => [p.a, p.b, p.detail?.kind])));
    for (const u of withHub) {
      assert.equal(u.detail?.kind === 'umbrella' && u.detail.umbrella, 'team/pdf-work', `${u.a} / ${u.b}: ${u.detail?.kind}`);
      // The message says what was measured of a hub (its body names the others), not that it spreads its requests.
      assert.match(u.explanation, /pdf-work's body names many of the other skills \(a hub\)/);
    }
  });

  it('two steps of one piece of work: each line to add says which step comes before or after, and adding it clears the finding', async () => {
    const files = library();
    const body = '# The implementation plan\n\n# Steps and checkpoints\n';
    files.set('team/writing-plans/SKILL.md', withBody('writing-plans', 'Write a step-by-step implementation plan for a feature before touching code. Use when planning how to implement a feature.', body));
    files.set('team/executing-plans/SKILL.md', withBody('executing-plans', 'Execute a step-by-step implementation plan for a feature, checking each step. Use when implementing a feature from its plan.', body));
    const [s] = (await (await engine(files)).pairFindings()).filter((p) => p.a.includes('plans'));
    assert.ok(s, 'the pair is found');
    assert.deepEqual(s.detail, { kind: 'sequence', first: 'team/writing-plans', then: 'team/executing-plans', words: ['write', 'execute'] });
    assert.match(s.explanation, /^Two steps of one piece of work \(write with writing-plans, then execute with executing-plans\)/);
    // Not "For …, use the other": that would send one step's requests to the other step.
    assert.deepEqual(s.suggestions, { 'team/writing-plans': 'Then execute with executing-plans.', 'team/executing-plans': 'First, write with writing-plans.' });
    files.set('team/executing-plans/SKILL.md', withBody('executing-plans', 'Execute a step-by-step implementation plan for a feature, checking each step. Use when implementing a feature from its plan. First, write with writing-plans.', body));
    assert.deepEqual((await (await engine(files)).pairFindings()).filter((p) => p.a.includes('plans')), [], 'the line names the other step: the author drew the line');
  });

  it('an umbrella over a task skill: the umbrella is the one whose requests spread', async () => {
    const files = library();
    files.set('team/pdf-router/SKILL.md', withBody('pdf-router', 'Router for PDF work: hands off to the PDF skills. Use for filling PDF forms, merging PDF files or extracting tables from PDF files.', '# Filling PDF forms\n\n# Merging PDF files\n'));
    files.set('team/pdf-forms/SKILL.md', withBody('pdf-forms', 'Fill and flatten PDF forms with field values. Use when filling PDF forms.', '# Filling PDF forms\n\n# Flattening\n'));
    files.set('team/pdf-merge/SKILL.md', withBody('pdf-merge', 'Merge and split PDF files, reorder their pages. Use when merging PDF files.', '# Merging PDF files\n\n# Splitting\n'));
    const svc = await engine(files);
    const umbrellas = (await svc.pairFindings()).filter((p) => p.detail?.kind === 'umbrella');
    assert.ok(umbrellas.length >= 1, JSON.stringify(await svc.pairFindings()));
    for (const u of umbrellas) {
      assert.equal(u.kind, 'conflict');
      assert.equal(u.detail?.kind === 'umbrella' && u.detail.umbrella, 'team/pdf-router');
      assert.match(u.explanation, /pdf-router, an umbrella skill, spreads its requests over more skills/);
      // The umbrella hands the task skill its job; the task skill sends the umbrella what the umbrella covers beyond it.
      const task = u.detail?.kind === 'umbrella' ? u.detail.task : '';
      assert.equal(u.suggestions?.['team/pdf-router'], task === 'team/pdf-forms' ? 'To fill and flatten PDF forms with field values, use pdf-forms.' : 'To merge and split PDF files, use pdf-merge.');
      assert.doesNotMatch(u.suggestions?.[task] ?? '', /^For router for PDF work/i, 'not the umbrella\'s whole job, which holds the task\'s own');
    }
  });
});

describe('pair scan: cache', () => {
  it('a library-wide result is cached by content: a second scan routes nothing, JSON round trips, an edit misses', async () => {
    const svc = await engine(library());
    let routed = 0;
    const pipeline = {
      rank: (q: string, o?: object) => (routed++, svc.pipeline.rank(q, o)),
      identity: svc.pipeline.identity,
      settings: svc.pipeline.settings,
      analyse: (q: string) => svc.pipeline.analyse(q),
      firstStage: svc.pipeline.firstStage,
    };
    const input = { docs: svc.skills(), profiles: svc.profiles(), pipeline };
    const cache = new PairScanCache();
    const first = await scanPairs(input, undefined, { cache });
    const cold = routed;
    assert.ok(cold > 2);
    assert.deepEqual(await scanPairs(input, undefined, { cache }), first);
    assert.equal(routed, cold, 'a warm scan routes nothing, not even to tell the router');
    assert.equal(cache.result(pairLibraryKey(svc.skills(), svc.pipeline.identity, resolveScanOptions())), cache.latest(), 'the key is computed without routing');
    const otherRouter = { ...svc.pipeline.identity, encoder: 'another-encoder@1' };
    assert.equal(cache.result(pairLibraryKey(svc.skills(), otherRouter, resolveScanOptions())), undefined, 'another encoder is another key');
    const reread = PairScanCache.fromJSON(JSON.parse(JSON.stringify(cache)));
    assert.deepEqual(await scanPairs(input, undefined, { cache: reread }), first);
    assert.deepEqual(await scanPairs(input, 'team/pdf-text', { cache: reread }), first.filter((p) => p.a === 'team/pdf-text' || p.b === 'team/pdf-text'));
    assert.equal(PairScanCache.fromJSON({ version: -1, results: [['x', []]] }).result('x'), undefined, 'another version is not read');
    const before = routed;
    await scanPairs({ ...input, options: { share: 0.9 } }, undefined, { cache });
    assert.ok(routed - before > 1, 'other options are another key');
  });

  it('text entries kept in a store: a reopened cache\'s one-skill scan reads only the bodies it compares, and finds the same', async () => {
    const files = library();
    files.set('vendor/pdf-text/SKILL.md', files.get('team/pdf-text/SKILL.md') as string);
    const svc = await engine(files);
    const read = new Set<string>();
    const counted = (d: SkillDoc) => new Proxy(d, { get: (t, k) => (k === 'body' && read.add(t.id), Reflect.get(t, k)) });
    const input = { docs: svc.skills().map(counted), profiles: svc.profiles(), pipeline: svc.pipeline };
    const store = new MemoryTextStore();
    const first = new PairScanCache();
    first.attachTextStore(async () => store);
    const all = await scanPairs(input, undefined, { cache: first });
    assert.ok(store.changed, 'the library scan made an entry per skill');
    await first.flushTexts();
    assert.equal(store.changed, false);
    const focus = 'team/sourdough';
    const expected = all.filter((p) => p.a === focus || p.b === focus);

    const cold = await scanPairs(input, focus, { cache: new PairScanCache() });
    assert.equal(read.size, input.docs.length, 'without entries, every body is read');
    read.clear();
    const reopened = new PairScanCache();
    reopened.attachTextStore(async () => store);
    const warm = await scanPairs(input, focus, { cache: reopened });
    assert.deepEqual(warm, cold);
    assert.deepEqual(warm, expected);
    // Routing reads the bodies of the candidates it reranks; no entry needs one.
    assert.ok(read.size < input.docs.length - 1, `bodies read: ${[...read].join(', ')}`);
    const copies = await scanPairs(input, 'vendor/pdf-text', { cache: reopened });
    assert.deepEqual(copies.filter((p) => p.kind === 'copy').map((p) => [p.a, p.b]), [['team/pdf-text', 'vendor/pdf-text']]);

    const failing = new PairScanCache();
    failing.attachTextStore(async () => {
      throw new Error('disk gone');
    });
    assert.deepEqual(await scanPairs(input, focus, { cache: failing }), cold, 'a store that cannot open leaves one in memory');
  });

  it('prepareOnly finds nothing and builds what a one-skill scan would: that scan then makes no text entry and finds the same', async () => {
    const files = library();
    files.set('vendor/pdf-text/SKILL.md', files.get('team/pdf-text/SKILL.md') as string);
    const svc = await engine(files);
    const input = { docs: svc.skills(), profiles: svc.profiles(), pipeline: svc.pipeline };
    const cold = new PairScanCache();
    const versions = new Set(input.docs.map((d) => d.hash)).size; // the two copies share one
    const expected = await scanPairs(input, 'vendor/pdf-text', { cache: cold });
    assert.equal(cold.textsMade, versions, 'without preparing, the one-skill scan makes every skill\'s entry');
    const prepared = new PairScanCache();
    const slices: number[] = [];
    const schedule = <T>(work: () => Promise<T>) => (slices.push(prepared.textsMade), work());
    assert.deepEqual(await scanPairs(input, undefined, { cache: prepared, prepareOnly: true, schedule }), []);
    assert.ok(slices.length >= 2, 'the copy index and the template counts are scheduled slices');
    assert.equal(prepared.textsMade, versions);
    assert.equal(prepared.latest(), undefined, 'no result is kept');
    const found = await scanPairs(input, 'vendor/pdf-text', { cache: prepared });
    assert.equal(prepared.textsMade, versions, 'the scan made no entry');
    assert.deepEqual(found, expected);
    assert.ok(found.some((p) => p.kind === 'copy'));
    await assert.rejects(scanPairs(input, undefined, { cache: new PairScanCache(), prepareOnly: true, token: { isCancellationRequested: true } }), /cancel/i);
  });

  it('a scan whose encoder fails on its probes keeps no result under the encoder\'s key', async () => {
    const svc = await engine(library());
    const pipeline = {
      rank: async (q: string, o?: object) => ({ ...(await svc.pipeline.rank(q, o)), dense: { disabled: 'the encoder failed' } }),
      identity: { ...svc.pipeline.identity, encoder: 'use-lite-en@1' },
      settings: svc.pipeline.settings,
      analyse: (q: string) => svc.pipeline.analyse(q),
      firstStage: svc.pipeline.firstStage,
    };
    const cache = new PairScanCache();
    await scanPairs({ docs: svc.skills(), profiles: svc.profiles(), pipeline }, undefined, { cache });
    assert.equal(cache.latest(), undefined);
  });
});
