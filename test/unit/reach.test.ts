import { strict as assert } from 'node:assert';
import { simulateListing, withAddedWords, type ClientListing } from '../../src/core/profiles';
import { gapReasons, listingGap } from '../../src/core/reach/listingGap';
import { measureReach, type ReachRequest, type ReachRouter, type ReachView } from '../../src/core/reach/measure';
import { bodyFragments, probeRequests, withProbes } from '../../src/core/reach/probes';
import { candidateWords, listedFrequencies, prose, TermStats } from '../../src/core/reach/words';
import { createSkillService } from '../../src/core/route/skillService';
import { analyse } from '../../src/core/text/analyse';
import type { SkillDoc } from '../../src/core/types';
import { BODY_ONLY_REQUEST, bodyOnlyLibrary, FakeEmbedder, MemoryWorkspace } from '../helpers/fakes';

/** A skill as core reads it (only what reach uses). */
function doc(id: string, description: string, body = '', extra: Record<string, unknown> = {}): SkillDoc {
  return {
    id, path: `${id}/SKILL.md`, name: id, description, body, frontMatter: { name: id, description, ...extra },
    keyRanges: {}, bodyStartLine: 3, lang: 'en', hash: `${id}:${description}:${body}`, findings: [],
  };
}

/**
 * Ranks by shared terms: over name + description + body in full text, over name + listed text in
 * the listing (with the added words, through the same `simulateListing`). Ties by id.
 */
function wordRouter(docs: readonly SkillDoc[], listing: (added?: Readonly<Record<string, string>>) => ClientListing): ReachRouter & { calls: { query: string; view: ReachView }[] } {
  const calls: { query: string; view: ReachView }[] = [];
  return {
    calls,
    async rank(query, view) {
      calls.push({ query, view });
      const q = new Set(analyse(query));
      const text = new Map<string, string>();
      if (view.kind === 'full') for (const d of docs) text.set(d.id, `${d.name} ${d.description} ${d.body}`);
      else for (const e of listing(view.added).entries) if (!e.omitted) text.set(e.id, `${e.name} ${e.text}`);
      return [...text]
        .map(([id, t]) => ({ id, n: new Set(analyse(t).filter((x) => q.has(x))).size }))
        .filter((x) => x.n > 0)
        .sort((a, b) => b.n - a.n || (a.id < b.id ? -1 : 1))
        .map((x) => x.id);
    },
  };
}

const BLAZOR_BODY = [
  '# Blazor components',
  'Use when the user builds Blazor components with EditForm validation and cascading parameters.',
  '',
  '## Forms and models',
  'Bind EditForm models, add DataAnnotations validators and show validation summaries in Blazor pages.',
  '',
  '| Topic | Keywords |',
  '|---|---|',
  '| tables | ignored words here |',
  '```csharp',
  'var hiddenInCode = true;',
  '```',
].join('\n');

describe('reach: probe requests from the body', () => {
  it('draws from "use when" clauses, headings and prose, never from tables, code or the description', () => {
    const f = bodyFragments(BLAZOR_BODY);
    assert.ok(f.uses.some((u) => /Blazor components with EditForm/.test(u)), JSON.stringify(f.uses));
    assert.deepEqual(f.headings, ['Blazor components', 'Forms and models']);
    assert.ok(f.sentences.some((s) => s.startsWith('Bind EditForm models')));
    assert.ok(![...f.uses, ...f.sentences].some((s) => /ignored|hiddenInCode/.test(s)), 'tables and code are not prose');
    const d = doc('ui', 'Builds user interfaces for desktop apps.', BLAZOR_BODY);
    const probes = probeRequests(d, { count: 3, seed: 1 });
    assert.equal(probes.length, 3);
    assert.deepEqual(probeRequests(d, { count: 3, seed: 1 }), probes, 'deterministic for a seed');
    assert.ok(probes.every((p) => !/desktop|interfaces/i.test(p)), `written from the body, not the description: ${probes.join(' | ')}`);
    assert.ok(probes.some((p) => /blazor|editform|validation/i.test(p)));
    assert.deepEqual(probeRequests(doc('empty', 'Something.', ''), { count: 3, seed: 1 }), []);
  });

  it('gives probes only to skills without requests of their own', () => {
    const docs = [doc('a', 'A.', BLAZOR_BODY), doc('b', 'B.', BLAZOR_BODY)];
    const labelled: ReachRequest[] = [{ query: 'a test', source: 'test', expect: ['a'] }];
    const all = withProbes(docs, labelled, { count: 2, seed: 3 });
    assert.deepEqual(all.filter((r) => r.expect.includes('a')).map((r) => r.source), ['test']);
    assert.deepEqual(all.filter((r) => r.expect.includes('b')).map((r) => r.source), ['probe', 'probe']);
  });
});

describe('reach: candidate words', () => {
  const docs = [
    doc('ui', 'Builds user interfaces.', 'Blazor components, EditForm validation, cascading parameters. Blazor Blazor.'),
    doc('forms', 'Validation of forms and parameters for web pages.', 'Validation rules.'),
    doc('other', 'Parameters and validation everywhere.', 'Cascading style sheets.'),
  ];
  const listing = simulateListing(docs, 'cursor');
  const stats = new TermStats();
  stats.update(docs);
  const entry = listing.entries.find((e) => e.id === 'ui')!;

  it('are words of the lost requests in the body and not listed, not listed by many others, rarest first, spelled as the body spells them', () => {
    const words = candidateWords({ doc: docs[0], entry, lost: ['blazor editform validation cascading parameters'], stats, listed: listedFrequencies(listing.entries) });
    assert.deepEqual(words.map((w) => w.word), ['Blazor', 'EditForm', 'cascading'], 'validation and parameters are listed by two other skills');
    assert.ok(words[0].score > words[2].score, 'cascading is also in another body: less specific');
  });

  it('leave out words common in a large reference pool; for probes, words in a tenth of it already', () => {
    const background = { size: 100, df: (t: string) => (t === 'editform' ? 60 : t === 'blazor' ? 15 : 1) };
    const words = candidateWords({ doc: docs[0], entry, lost: ['blazor editform'], stats, listed: listedFrequencies(listing.entries), background });
    assert.deepEqual(words.map((w) => w.word), ['Blazor']);
    const forProbes = candidateWords({ doc: docs[0], entry, lost: ['blazor editform cascading'], stats, listed: listedFrequencies(listing.entries), background, probes: true });
    assert.ok(!forProbes.some((w) => w.word === 'Blazor'), 'Blazor is in 15% of the pool');
  });

  it('are never file names; for probes, come from prose the body uses twice (not code blocks or link targets)', () => {
    const body = [
      'Route groups and TypedResults for endpoints. TypedResults keep handlers short.',
      "Don't create `IOrderService` for one `OrderService`; see [the guide](references/dispatcher.md).",
      'Read minimal-apis.md first.',
      '```csharp',
      'var Interceptor = new Interceptor();',
      '```',
    ].join('\n');
    assert.doesNotMatch(prose(body), /dispatcher|Interceptor/);
    assert.match(prose(body), /IOrderService/, 'inline code is prose');
    const api = doc('api', 'Builds HTTP APIs.', body);
    const lib = [api, doc('web', 'Web pages.', 'Pages.')];
    const s = new TermStats();
    s.update(lib);
    const listed = simulateListing(lib, 'cursor');
    const input = { doc: api, entry: listed.entries.find((e) => e.id === 'api')!, stats: s, listed: listedFrequencies(listed.entries) };
    const lost = ['TypedResults IOrderService dispatcher Interceptor minimal-apis.md groups'];
    assert.deepEqual(candidateWords({ ...input, lost }).map((w) => w.word).sort(), ['IOrderService', 'Interceptor', 'TypedResults', 'groups'], 'users may name what only code shows; never a file name');
    assert.deepEqual(candidateWords({ ...input, lost, probes: true }).map((w) => w.word), ['TypedResults'], 'for probes: prose only, and the body says "groups" and "IOrderService" once');
  });

  it('term statistics follow the library one skill at a time', () => {
    const s = new TermStats();
    s.update(docs);
    assert.equal(s.df('blazor'), 1);
    s.update([doc('ui', 'Builds user interfaces.', 'no more of it'), docs[1]]);
    assert.equal(s.df('blazor'), 0);
    assert.equal(s.size, 2, 'a skill gone is forgotten');
  });
});

describe('reach: words added to a listing (ListingOptions.added)', () => {
  it('go at the end of a description listed whole, at its start when the listing cuts it', () => {
    assert.equal(withAddedWords('Builds UIs', 'Blazor, component', false), 'Builds UIs. Blazor, component');
    assert.equal(withAddedWords('Builds UIs.', 'Blazor, component', true), 'Blazor, component. Builds UIs.');
    const skills = [doc('ui', `Builds user interfaces ${'and more '.repeat(20)}`), doc('zz', 'Z.')];
    const whole = simulateListing(skills, 'cursor', { added: { ui: 'Blazor' } });
    assert.match(whole.entries[0].text, /Blazor$/);
    const cut = simulateListing(skills, 'cursor', { cutAt: 30, added: { ui: 'Blazor' } });
    assert.ok(cut.entries[0].text.startsWith('Blazor. Builds') && cut.entries[0].text.length === 30, cut.entries[0].text);
    assert.equal(cut.entries[1].text, 'Z.', 'other skills as before');
  });

  it('count against the budget: Claude Code may then drop another description', () => {
    const skills = [doc('aa', 'x'.repeat(40)), doc('bb', 'y'.repeat(40))];
    assert.ok(!simulateListing(skills, 'claude-code', { budget: 90 }).entries[1].descriptionDropped);
    const after = simulateListing(skills, 'claude-code', { budget: 90, added: { aa: 'Blazor, component' } });
    assert.ok(after.entries[1].descriptionDropped, 'the added characters push the last description out');
  });
});

describe('reach: measureReach', () => {
  const docs = [
    doc('ui', 'Builds user interfaces for apps.', [
      '## Blazor components',
      'Use when building Blazor components with EditForm validation.',
      '## Theming',
      'Dark mode themes for Blazor apps.',
    ].join('\n')),
    doc('forms', 'Builds web forms with validation and EditForm models for web pages.', 'Forms.'),
    doc('themes', 'Dark mode themes and colour palettes.', 'Palettes.'),
    doc('ci', 'Configures CI pipelines.', 'Pipelines.'),
  ];
  const listing = (added?: Readonly<Record<string, string>>) => simulateListing(docs, 'cursor', added ? { added } : {});
  const requests: ReachRequest[] = [
    { query: 'blazor components editform', source: 'test', expect: ['ui'] },
    { query: 'blazor theming', source: 'test', expect: ['ui'] },
    { query: 'user interfaces for apps', source: 'test', expect: ['ui'] },
    { query: 'web forms validation editform models', source: 'test', expect: ['forms'] },
    { query: 'dark mode themes palettes', source: 'test', expect: ['themes'] },
    { query: 'ci pipelines', source: 'test', expect: ['ci'] },
  ];

  it('counts each skill\'s requests reached first in both views, and verifies words that win lost ones back', async () => {
    const router = wordRouter(docs, listing);
    const report = await measureReach({ docs, listing, requests, router });
    const ui = report.skills.find((s) => s.id === 'ui')!;
    assert.equal(ui.requests, 3);
    assert.equal(ui.reachedFull, 3);
    assert.equal(ui.reachedListing, 1, 'only the request in its description finds it in the listing');
    assert.equal(ui.lost, 2);
    assert.equal(ui.listedChars, docs[0].description.length);
    assert.ok(!ui.dropped && !ui.cut && !ui.omitted);
    // The first words (Blazor, components, EditForm) win one back; the next round tries Theming, for the other, in the last place.
    assert.deepEqual(ui.suggest, ['Blazor', 'components', 'Theming'], JSON.stringify(ui));
    assert.equal(ui.wonBack, 2);
    assert.ok(ui.detail.filter((d) => d.lost).every((d) => d.won));
    const forms = report.skills.find((s) => s.id === 'forms')!;
    assert.equal(forms.reachedListing, 1, 'the suggestion did not pull the forms request');
    assert.ok(router.calls.some((c) => c.view.kind === 'listing' && c.view.added?.ui), 'verified over a listing with the words added');
    assert.equal(report.totals.requests, 6);
  });

  it('rejects a word that pulls another skill\'s request, and a skill whose description is not listed gets none', async () => {
    // Both words of ui's lost request would also bring forms's own request to ui: nothing is suggested.
    const narrow: ReachRequest[] = [
      { query: 'blazor editform editform', source: 'test', expect: ['ui'] },
      { query: 'editform for blazor', source: 'test', expect: ['forms'] },
    ];
    const docs2 = [doc('ui', 'Builds user interfaces for apps.', 'EditForm models with Blazor.'), doc('forms', 'EditForm models.', 'x')];
    const listing2 = (added?: Readonly<Record<string, string>>) => simulateListing(docs2, 'cursor', added ? { added } : {});
    const report = await measureReach({ docs: docs2, listing: listing2, requests: narrow, router: wordRouter(docs2, listing2) });
    const ui = report.skills.find((s) => s.id === 'ui')!;
    assert.equal(ui.lost, 1);
    assert.deepEqual(ui.suggest, [], JSON.stringify(ui));
    assert.deepEqual(ui.rejected.map((r) => r.why), ['pulls other skills', 'pulls other skills'], JSON.stringify(ui.rejected));
    assert.equal(report.skills.find((s) => s.id === 'forms')!.reachedListing, 1);

    const dropped = (added?: Readonly<Record<string, string>>) => simulateListing(docs, 'claude-code', { budget: 40, ...(added ? { added } : {}) });
    const r2 = await measureReach({ docs, listing: dropped, requests, router: wordRouter(docs, dropped), targets: ['ui'] });
    assert.equal(r2.skills.length, 1, 'targets only');
    assert.ok(r2.skills[0].dropped || r2.skills[0].omitted);
    assert.deepEqual(r2.skills[0].suggest, []);
  });

  it('routes each request once per view, and none when there is nothing to report', async () => {
    const router = wordRouter(docs, listing);
    await measureReach({ docs, listing, requests, router, options: { suggest: false } });
    assert.equal(router.calls.length, 12);
    const none = wordRouter(docs, listing);
    const report = await measureReach({ docs, listing, requests, router: none, targets: ['nope'] });
    assert.equal(none.calls.length, 0);
    assert.equal(report.skills.length, 0);
  });

  it('over the real engine: words added to a listing bring the skill first in that view', async () => {
    const files = bodyOnlyLibrary();
    const svc = createSkillService({ root: '/lib', workspace: new MemoryWorkspace(files), embedder: new FakeEmbedder() });
    await svc.index();
    const q = BODY_ONLY_REQUEST;
    const before = await svc.route(q, { k: 3, passages: false, view: { client: 'claude-code' } });
    assert.notEqual(before.candidates[0].skillId, 'forms');
    const after = await svc.route(q, { k: 3, passages: false, view: { client: 'claude-code', listing: { added: { forms: 'Blazor, callbacks, validation' } } } });
    assert.equal(after.candidates[0].skillId, 'forms');
  });
});

describe('reach: listing gap (why a skill ranks lower in the listing)', () => {
  it('names the cut, the drop, and the request\'s words only the body has', () => {
    const d = doc('ui', 'Builds user interfaces for desktop and web apps with many options.', 'Blazor components and EditForm.');
    const cut = simulateListing([d], 'cursor', { cutAt: 20 }).entries[0];
    const gap = listingGap('Build a Blazor component with EditForm for desktop', d, cut);
    assert.deepEqual(gap.bodyOnly, ['Blazor', 'component', 'EditForm']);
    assert.ok(gap.cut && gap.listedChars === 20);
    assert.deepEqual(gapReasons(gap, 'Cursor'), [
      `description cut at 20 of ${d.description.length} characters`,
      "the request's key words appear only in the body: Blazor, component, EditForm",
    ]);
    const dropped = simulateListing([d], 'claude-code', { budget: 5 }).entries[0];
    assert.match(gapReasons(listingGap('blazor', d, dropped), 'Claude Code')[0], /^description dropped: Claude Code lists the name only/);
  });

  it('never calls a word of the description "only in the body", where the listing cuts or drops it', () => {
    const d = doc('ui', 'Builds user interfaces for desktop and web apps, with Blazor components.', 'Blazor components, EditForm and desktop windows.');
    const cut = simulateListing([d], 'cursor', { cutAt: 20 }).entries[0];
    const gap = listingGap('Build a Blazor component with EditForm for desktop', d, cut);
    assert.deepEqual(gap.bodyOnly, ['EditForm']);
    assert.deepEqual(gapReasons(gap, 'Cursor'), [
      `description cut at 20 of ${d.description.length} characters`,
      "the request's key words appear only in the body: EditForm",
    ]);
    const dropped = simulateListing([d], 'claude-code', { budget: 5 }).entries[0];
    assert.deepEqual(listingGap('Blazor desktop EditForm', d, dropped).bodyOnly, ['EditForm']);
  });
});
