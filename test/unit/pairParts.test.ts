/** The parts of the pair scan: probe requests, copies, closeness, suite siblings, the suggested line. */
import { strict as assert } from 'node:assert';
import { closeTo, oneSkillTwice, relevantToEachOther, roleOver, presentsAsUmbrella, saysItsOwnJobFirst } from '../../src/core/analysis/competition';
import { firstSentence } from '../../src/core/analysis/facets';
import { handOffOf, oppositeWays, sequenceOf } from '../../src/core/analysis/sequences';
import { sideMessage } from '../../src/core/analysis/pairText';
import type { PairFinding, ScopedRanking } from '../../src/core/analysis/types';
import { SkillProfiles } from '../../src/core/analysis/conflicts';
import { CopyIndex, sketchOf, textSignature } from '../../src/core/analysis/copies';
import { asRequest, baseForm, fitSentence, headClause, inUserWords, probeRequests, quotedRequest, triggerList, withoutNamedSubject } from '../../src/core/analysis/probes';
import { distinguishingPhrases, jobLine, sequenceLine, useOtherLine } from '../../src/core/analysis/suggestions';
import { mentionsSkillLower } from '../../src/core/analysis/facets';
import { analyse } from '../../src/core/text/analyse';
import type { SkillDoc } from '../../src/core/types';

function doc(id: string, name: string, description: string, body = '', frontMatter: Record<string, unknown> = {}): SkillDoc {
  return { id, path: `${id}/SKILL.md`, name, description, body, frontMatter, keyRanges: {}, bodyStartLine: 3, lang: /[\u4e00-\u9fff]/.test(description) ? 'zh' : 'en', hash: `${id}:${description}:${body}`, findings: [] };
}

const words = (t: string) => analyse(t);

describe('probe requests', () => {
  it('come from the author first, then description sentences and headings, whole words only', () => {
    const d = doc('a/atheris', 'atheris', 'Atheris is a coverage-guided Python fuzzer based on libFuzzer. Use when fuzzing pure Python code and Python C extensions, ' +
      'finding crashes in parsers, decoders and deserialisers, or adding a fuzz target to continuous integration so that regressions are caught early and often.',
      '# Table of Contents\n\n# Writing a fuzz target\n\n# Running on CI\n');
    const probes = probeRequests(d, [{ query: 'fuzz my JSON parser', source: 'test' }], 4);
    assert.deepEqual(probes.map((p) => p.source), ['test', 'description', 'heading', 'description']);
    assert.equal(probes[0].query, 'fuzz my JSON parser');
    assert.equal(probes[1].query, 'coverage-guided Python fuzzer based on libFuzzer', 'the subject naming the skill goes');
    assert.equal(probes[2].query, 'Help me with writing a fuzz target, running on CI', 'a table of contents names no topic; a heading is asked about');
    const long = probes[3].query;
    assert.ok(long.split(/\s+/).length <= 24, long);
    const source = d.description.replace(/\s+/g, ' ');
    assert.ok(source.includes(long.replace(/^I'm /, '')), `a clause of the description, cut at whole words: ${long}`);
    assert.ok(!/[,;]$/.test(long));
  });

  it('never cut a word at a dot inside it, and never leave a bracket open or closed alone', () => {
    const d = doc('a/qc', 'qc', 'Performs quality control on single-cell RNA-seq data (.h5ad or .h5 files) using scverse best practices. Build pages with Next.js and Node.js servers (see the e.g. section.');
    const probes = probeRequests(d, [], 4).map((p) => p.query);
    assert.deepEqual(probes, [
      'Perform quality control on single-cell RNA-seq data (.h5ad or .h5 files) using scverse best practices',
      'Build pages with Next.js and Node.js servers',
      'Perform quality control on single-cell RNA-seq data (.h5ad or .h5 files)',
    ], 'then the main clause of a long sentence alone');
    const cut = doc('a/cut', 'cut', 'files) are read and checked for errors. Load tables from spreadsheets [and more');
    assert.deepEqual(probeRequests(cut, [], 4).map((p) => p.query), ['are read and checked for errors', 'Load tables from spreadsheets']);
  });

  it('skip sentences about how the skill is invoked, which no request says', () => {
    const d = doc('a/tax-prep', 'tax-prep', 'Organise receipts and forms for a tax return. Accepts optional mode and year arguments. Requires Python 3.10 or later.');
    assert.deepEqual(probeRequests(d, [], 4).map((p) => p.query), ['Organise receipts and forms for a tax return']);
    const hr = doc('a/hr-pro', 'hr-pro', 'HR partner for hiring and onboarding. Ask for jurisdiction and company context before advising. Use PROACTIVELY for leave and PTO policies.');
    assert.deepEqual(probeRequests(hr, [], 4).map((p) => p.query), ['HR partner for hiring and onboarding', 'leave and PTO policies']);
    const status = doc('a/rc', 'ring-central-automation', 'Automate RingCentral calls and messages via an MCP toolkit. No RING_CENTRAL tools found in the current toolkit.');
    const probes = probeRequests(status, [], 4).map((p) => p.query);
    assert.ok(probes.length > 0 && probes.every((q) => !/tools found/.test(q)), `a status line is no request: ${probes.join(' | ')}`);
  });

  it('are written as a user asks: no "the user asks to", no persona, no trigger list; Chinese as Chinese', () => {
    const d = doc('a/csv', 'csv-cleaner', 'You are an expert data engineer. Use when the user asks to clean a dirty CSV export before loading it. Triggers: csv, dedupe, encoding. This skill helps you normalise dates in spreadsheets.');
    assert.deepEqual(probeRequests(d, [], 4).map((p) => p.query), ['clean a dirty CSV export before loading it', 'normalise dates in spreadsheets']);
    const zh = doc('a/zh', 'csv-zh', '当用户需要清洗脏乱的 CSV 导出文件时使用此技能。修复编码并删除重复的行。');
    assert.deepEqual(probeRequests(zh, [], 4).map((p) => p.query), ['清洗脏乱的 CSV 导出文件', '修复编码并删除重复的行']);
    assert.equal(asRequest('the user wants to'), 'the user wants to', 'too little left: the sentence stays');
    // A list of trigger words, a persona and a role's skill, and a trigger written as a request.
    const shop = doc('a/shop', 'shop-apps', 'Patterns for store app development with webhooks. Use when: shop app, store, embedded app, polaris, app bridge.');
    assert.deepEqual(probeRequests(shop, [], 4).map((p) => p.query), ['Patterns for store app development with webhooks']);
    assert.equal(triggerList('Create, edit, and analyze spreadsheets'), false, 'a sentence of verbs joined by "and" is no list');
    assert.equal(triggerList('Server Components, data fetching, routing patterns'), false, 'a list of topics stays');
    assert.equal(inUserWords('Expert cloud architect specializing in multi-cloud network design across providers'), 'Help me with multi-cloud network design across providers');
    assert.equal(inUserWords('Expert in building retrieval systems for support bots'), "I'm building retrieval systems for support bots");
    assert.equal(inUserWords('Senior SecOps engineer skill for application security and compliance checks'), 'Help me with application security and compliance checks');
    assert.equal(inUserWords('help me hire'), 'help me hire', 'a user\'s own words are not rewritten');
    assert.equal(inUserWords('Build robust backtesting systems for trading strategies'), 'Build robust backtesting systems for trading strategies', 'an imperative is a request as it stands');
    assert.equal(inUserWords('Get best practices for developing services with Spring Boot'), "I'm developing services with Spring Boot");
    const steps = doc('a/sheets', 'sheets', 'Work with spreadsheets.', '# Create a new workbook\n\n# Write data to a sheet\n');
    assert.deepEqual(probeRequests(steps, [], 4).filter((p) => p.source === 'heading').map((p) => p.query), ['Help me create a new workbook, write data to a sheet']);
    const topics = doc('a/ds', 'ds', 'Work with design tokens.', '# Design System\n\n# Token Architecture\n');
    assert.deepEqual(probeRequests(topics, [], 4).filter((p) => p.source === 'heading').map((p) => p.query), ['Help me with Design System, Token Architecture']);
    assert.equal(inUserWords('HR partner for hiring and onboarding'), 'HR partner for hiring and onboarding', 'a partner is no persona opening');
  });

  it('leave out headings about how the skill is written, and add the main clause of a long sentence', () => {
    const d = doc('a/git-cleanup', 'git-cleanup', 'Safely analyzes and cleans up local git branches and worktrees by categorizing them as merged, squash-merged, superseded, or active work.',
      '# Core Principle: SAFETY FIRST\n\n# Basic Usage\n\n# 📜 MISSION\n\n# Postmortem Triggers\n\n# Step 1: Validate the input\n\n# 步骤 2：检测项目类型\n');
    assert.deepEqual(probeRequests(d, [], 3).map((p) => p.query), [
      'Safely analyzes and cleans up local git branches and worktrees by categorizing them as merged, squash-merged, superseded, or active work',
      'Safely analyzes and cleans up local git branches and worktrees',
    ]);
    // Template headings, also alone in a small library: "Use this skill when", "Core Workflows", "Rationalizations to Reject".
    const t = doc('a/hubspot-automation', 'hubspot-automation', 'Automate HubSpot CRM tasks.', '# Use this skill when\n\n# Core Workflows\n\n# Rationalizations to Reject\n\n# Sync contacts from a CSV\n');
    assert.deepEqual(probeRequests(t, [], 4).filter((p) => p.source === 'heading').map((p) => p.query), ['Help me with sync contacts from a CSV']);
    assert.equal(headClause('Clean CSV files quickly'), null, 'a short sentence stays whole');
    assert.equal(headClause('清洗 CSV 文件，修复编码，删除重复行'), null);
  });

  it('say what the skill says of itself as a user asks it: an imperative, the user\'s situation, the first quoted request', () => {
    const d = doc('a/earnings', 'earnings', 'Analyzes earnings calls and writes a summary. Use when building a quarterly investor memo. Helps you compare guidance with consensus.');
    assert.deepEqual(probeRequests(d, [], 3).map((p) => p.query), [
      'Analyze earnings calls and writes a summary',
      "I'm building a quarterly investor memo",
      'Help me compare guidance with consensus',
    ]);
    const quoted = doc('a/tam', 'market-sizing', 'Estimate the size of a market for a product. Use when the user says "calculate TAM", "size the market", "what\'s the total addressable market".');
    assert.deepEqual(probeRequests(quoted, [], 3).map((p) => p.query), ['Estimate the size of a market for a product', 'size the market'], 'a trigger list gives its first quoted request of three words or more');
    assert.equal(quotedRequest('Handles "csv" and "tsv" files from the warehouse export job'), null, 'quotes inside a sentence are not a list');
    assert.equal(quotedRequest("当用户提到 'Linux故障排查'、'系统诊断'、'服务故障' 时使用"), 'Linux故障排查', 'a Chinese list in single quotes');
    assert.equal(quotedRequest("Use when the user's build fails or the team's CI is red"), null, 'apostrophes are not quotes');
    assert.equal(inUserWords('Knowledge and utilities for creating animated GIFs for Slack'), "I'm creating animated GIFs for Slack");
    assert.equal(inUserWords('Creates and manages Jira issues'), 'Create and manage Jira issues');
    assert.equal(inUserWords('Tools for the warehouse team'), 'Tools for the warehouse team', 'a plural noun is not a verb');
    assert.equal(inUserWords('Testing guidelines for React components'), 'Testing guidelines for React components', 'a capitalised -ing noun phrase stays');
    assert.equal(inUserWords('Supports flowcharts and mind maps'), 'Supports flowcharts and mind maps', 'what a skill supports is not a job to order');
    assert.equal(inUserWords('清洗 CSV 文件'), '清洗 CSV 文件');
    assert.deepEqual(['applies', 'fixes', 'analyzes', 'does', 'pushes', 'queries', 'uses'].map(baseForm), ['apply', 'fix', 'analyze', 'do', 'push', 'query', 'use']);
  });

  it('skip template text that many skills share', () => {
    const d = doc('a/hig-inputs', 'hig-inputs', 'Check the design context first. Guidance for gestures, keyboards and game controllers.');
    const shared = (key: string) => key === 'check the design context first';
    assert.deepEqual(probeRequests(d, [], 3, shared).map((p) => p.query), ['Guidance for gestures, keyboards and game controllers']);
  });

  it('fit a long sentence by whole clauses, and keep short ones as they are', () => {
    assert.equal(fitSentence('Deploy a service.'), 'Deploy a service');
    const long = `Plan ${'many '.repeat(20)}things, then ship them, then write it up for the team`;
    const fitted = fitSentence(long);
    assert.ok(fitted.split(' ').length <= 24 && long.startsWith(fitted), fitted);
    assert.equal(withoutNamedSubject('Pdf Text is a tool for tables', 'pdf-text'), 'tool for tables');
    assert.equal(withoutNamedSubject('Pdf Text is a tool', 'pdf-text'), 'Pdf Text is a tool', 'too little would be left');
  });
});

describe('copies', () => {
  const sketch = (d: SkillDoc) => sketchOf(textSignature(d));
  const body = 'Step one, read the file. Step two, parse every row and keep the header. Step three, write the output with the same encoding. '.repeat(3);

  it('the same text, or the same description, in two places; C# is not C; empty skills are not copies', () => {
    const docs = [
      doc('a/csv', 'csv', 'Clean messy CSV files before an import into a database.', body),
      doc('b/csv', 'csv', 'Clean messy CSV files before an import into a database.', `${body} One more line.`),
      doc('a/c', 'c', 'C language specific coding guide for super-code.', 'x'),
      doc('a/csharp', 'csharp', 'C# language specific coding guide for super-code.', 'y'),
      doc('a/broken', 'broken', '', ''),
      doc('a/also-broken', 'also-broken', '', ''),
    ];
    const index = new CopyIndex(docs, sketch);
    const all = index.all(textSignature);
    assert.deepEqual(all.map((p) => [p.a, p.b]), [['a/csv', 'b/csv']]);
    assert.match(all[0].explanation, /^\d+% of the text is the same; b\/csv is longer/);
    assert.deepEqual(index.of('b/csv', textSignature).map((p) => p.a), ['a/csv']);
    const listing = new CopyIndex([doc('a/x', 'x', 'Review a pull request for security problems and style.', 'short'), doc('b/y', 'y', 'Review a pull request for security problems and style.', 'a different body entirely, with nothing in common')], sketch).all(textSignature);
    assert.match(listing[0]?.explanation ?? '', /^The same description \(an agent reads only that\)/);
  });

  it('kept up to date by update: only candidates get their shingles made, an edit re-judges only its own pairs', () => {
    const topics = ['kubernetes helm charts rolling releases clusters', 'sourdough levain proofing bread ovens', 'invoice ledgers quarterly taxes receipts'];
    const other = (i: number) => doc(`a/s${i}`, `s${i}`, `${topics[i - 1]} ${i}`, topics[i - 1].split(' ').map((w, k) => `${w}${k}${i}`).join(' ').repeat(3));
    const docs = [doc('a/csv', 'csv', 'Clean messy CSV files before an import into a database.', body), doc('b/csv', 'csv', 'Clean messy CSV files before an import into a database.', body), ...[1, 2, 3].map(other)];
    const asked: string[] = [];
    const full = (d: SkillDoc) => (asked.push(d.id), textSignature(d));
    const index = new CopyIndex(docs, sketch);
    assert.deepEqual(index.all(full).map((p) => [p.a, p.b]), [['a/csv', 'b/csv']]);
    assert.deepEqual(asked.sort(), ['a/csv', 'b/csv'], 'skills in no shared bucket are not read');
    asked.length = 0;
    assert.equal(index.update(docs, sketch), false);
    assert.equal(index.update([...docs], sketch), false, 'the same skills: nothing re-bucketed');
    assert.equal(index.all(full).length, 1);
    assert.deepEqual(asked, [], 'judged pairs are remembered');
    const edited = [docs[0], doc('b/csv', 'csv', 'Plan a sourdough bake with levain and proofing times at home.', 'Feed the starter, mix, fold, shape, proof and bake. '.repeat(4)), ...docs.slice(2)];
    assert.equal(index.update(edited, sketch), true);
    assert.deepEqual(index.all(full), []);
    assert.deepEqual(index.of('a/csv', full), []);
    assert.equal(index.update(docs.slice(0, 1).concat(docs.slice(2)), sketch), true);
    assert.deepEqual(index.of('b/csv', full), [], 'a skill gone has no pairs');
    assert.equal(index.update(docs, sketch), true);
    assert.deepEqual(index.of('b/csv', full).map((p) => p.a), ['a/csv'], 'and back');
  });

  it('judged a slice at a time by judgeSome: all then reads the judgements, the same pairs as a fresh index', () => {
    const docs = ['a', 'b', 'c'].flatMap((folder) => [
      doc(`${folder}/csv`, 'csv', 'Clean messy CSV files before an import into a database.', body),
      doc(`${folder}/deploy`, 'deploy', 'Deploy a service to a cluster with rolling releases.', 'Build the image, push it, roll it out, watch the probes. '.repeat(4)),
    ]);
    const asked: string[] = [];
    const full = (d: SkillDoc) => (asked.push(d.id), textSignature(d));
    const index = new CopyIndex(docs, sketch);
    let steps = 0;
    for (const walk = index.walk(); !index.judgeSome(full, 0, walk); ) steps++;
    assert.ok(steps > 1, `a zero budget judges one bucket a step (${steps} steps)`);
    assert.ok(asked.length > 0);
    asked.length = 0;
    const pairs = index.all(full);
    assert.deepEqual(asked, [], 'every pair was judged already');
    assert.deepEqual(pairs, new CopyIndex(docs, sketch).all(textSignature));
    assert.equal(pairs.length, 6);
  });

  it('says which copy is newer when both declare a version', () => {
    const docs = [doc('a/csv', 'csv', 'Clean messy CSV files before import.', body, { version: '1.9.0' }), doc('b/csv', 'csv', 'Clean messy CSV files before import.', body, { metadata: { version: '1.10.0' } })];
    assert.match(new CopyIndex(docs, sketch).all(textSignature)[0].explanation, /b\/csv is newer \(version 1\.10\.0 vs 1\.9\.0\)/);
  });

  it('says a copy in one collection is listed twice, and a copy in another is vendored, upstream named when a file says', () => {
    const same = [doc('a/csv', 'csv', 'Clean messy CSV files before import.', body), doc('a/csv-2', 'csv', 'Clean messy CSV files before import.', body)];
    assert.match(new CopyIndex(same, sketch).all(textSignature)[0].explanation, /Both are in the same collection, and the agent lists both: keep one/);
    const vendored = [doc('mine/csv', 'csv', 'Clean messy CSV files before import.', body, { metadata: { source: 'https://github.com/acme/skills' } }), doc('acme/csv', 'csv', 'Clean messy CSV files before import.', body)];
    const text = new CopyIndex(vendored, sketch).all(textSignature)[0].explanation;
    assert.match(text, /A copy in another collection \(vendored\)/);
    assert.match(text, /mine\/csv says it comes from https:\/\/github\.com\/acme\/skills, so acme\/csv is the upstream copy/);
    const unknown = [vendored[1], doc('other/csv', 'csv', 'Clean messy CSV files before import.', body)];
    assert.doesNotMatch(new CopyIndex(unknown, sketch).all(textSignature)[0].explanation, /upstream/, 'no file tells');
  });
});

describe('closeness and suite siblings', () => {
  it('reads fused scores in a large pool, raw cosines or raw word scores in a small one', () => {
    const self = { id: 'x', fused: 1, dense: 0.8 };
    assert.equal(closeTo(self, { id: 'y', fused: 0.5, dense: 0.2 }, 40), true);
    assert.equal(closeTo(self, { id: 'y', fused: 0.1, dense: 0.79 }, 40), false);
    assert.equal(closeTo(self, { id: 'y', fused: 0, dense: 0.7 }, 3), true, 'a small pool reads the cosines');
    assert.equal(closeTo(self, { id: 'y', fused: 0, dense: 0.3 }, 3), false);
    const wordsOnly = { id: 'x', fused: 1, dense: null };
    assert.equal(closeTo(wordsOnly, { id: 'y', fused: 0, dense: null }, 2, new Map([['x', 10], ['y', 1]])), true);
    assert.equal(closeTo(wordsOnly, { id: 'y', fused: 0, dense: null }, 2, new Map([['x', 10], ['y', 0.2]])), false);
    assert.equal(closeTo(undefined, self, 40), false, 'the probe\'s own skill must be in the ranking');
  });

  it('a role over a body of patterns or templates is an umbrella, told by the names', () => {
    const s = (name: string) => ({ id: `c/${name}`, name });
    assert.deepEqual(roleOver(s('typescript-pro'), s('typescript-advanced-types')), { umbrella: 'c/typescript-pro', task: 'c/typescript-advanced-types' });
    assert.deepEqual(roleOver(s('react-native-architecture'), s('mobile-developer')), { umbrella: 'c/mobile-developer', task: 'c/react-native-architecture' });
    assert.equal(roleOver(s('mermaid-expert'), s('mermaid-diagram-author')), null, 'a role and a paraphrase of it: one job');
    assert.equal(roleOver(s('graphql'), s('graphql-architect')), null);
    assert.equal(roleOver(s('fastapi-templates'), s('django-patterns')), null, 'neither is a role');
    assert.equal(roleOver(s('product-analyst'), s('growth-engineer')), null, 'both are roles');
    assert.equal(roleOver(s('improve'), s('pro-tips')), null, '"pro" must be the last word; "improve" is none');
  });

  it('one job twice needs each judged relevant to the other\'s requests, not only ranked near them', () => {
    const probe = (forId: string, ids: string[], relevance?: number[]): ScopedRanking => ({
      query: `a request for ${forId}`, source: 'description', for: forId, ids, close: ids.map(() => true),
      ...(relevance ? { relevance, floor: 0.1 } : {}),
    });
    // Suite siblings: the other is second every time, and the router gives it almost nothing.
    const siblingsX = [probe('x', ['x', 'y', 'z'], [0.98, 0.02, 0.01]), probe('x', ['x', 'z', 'y'], [0.9, 0.05, 0.01])];
    const siblingsY = [probe('y', ['y', 'x'], [0.99, 0.01])];
    assert.equal(relevantToEachOther(siblingsX, siblingsY, 'x', 'y'), false);
    // Twins: some requests go to the other wholly, some leave it little; on average it is relevant.
    const twinsX = [probe('x', ['x', 'y'], [0.9, 0.4]), probe('x', ['y', 'x'], [0.8, 0.6])];
    const twinsY = [probe('y', ['y', 'x'], [0.95, 0.05]), probe('y', ['y', 'z'], [0.99, 0.01])];
    assert.equal(relevantToEachOther(twinsX, twinsY, 'x', 'y'), true, 'mean 0.31 over the four requests, one not ranking x at all');
    // Without a relevance model nothing is judged: the ranks decide alone.
    assert.equal(relevantToEachOther([probe('x', ['x', 'y'])], siblingsY, 'x', 'y'), true);
  });

  it('suite siblings that say their own job first are told apart; competitors that share the words are not', () => {
    const dataset = doc('s/arize-dataset', 'arize-dataset', 'Creates and queries Arize datasets and examples. Use when managing evaluation data.');
    const experiment = doc('s/arize-experiment', 'arize-experiment', 'Runs and compares Arize experiments on models. Use when evaluating a change.');
    assert.equal(saysItsOwnJobFirst(dataset, experiment, words), true);
    const helm = doc('s/helm-release', 'helm-release', 'Ship a release to Kubernetes with Helm and roll it back.');
    const k8s = doc('s/k8s-deploy', 'k8s-deploy', 'Deploy services to Kubernetes with Helm charts and roll back a release.');
    assert.equal(saysItsOwnJobFirst(helm, k8s, words), false, 'Helm and release are in both first sentences');
    // A product name is one word: MySQL does not say SQL; a name word may be two words written apart.
    const mysql = doc('s/arm-mysql-dotnet', 'azure-resource-manager-mysql-dotnet', 'Azure MySQL Flexible Server .NET SDK. Manage MySQL servers.');
    const sql = doc('s/arm-sql-dotnet', 'azure-resource-manager-sql-dotnet', '.NET SDK for Azure SQL with Azure Resource Manager. Manage SQL databases.');
    assert.equal(saysItsOwnJobFirst(mysql, sql, words), true, 'each says its own product first');
    const mysqlToo = doc('s/arm-sql-dotnet', 'azure-resource-manager-sql-dotnet', '.NET SDK for Azure SQL and MySQL Flexible Server.');
    assert.equal(saysItsOwnJobFirst(mysql, mysqlToo, words), false, 'one first sentence says both products');
    const core = doc('s/containerize-aspnetcore', 'containerize-aspnetcore', 'Containerize an ASP.NET Core project by creating a Dockerfile.');
    const framework = doc('s/containerize-aspnet-framework', 'containerize-aspnet-framework', 'Containerize an ASP.NET .NET Framework project by creating a Dockerfile.');
    assert.equal(saysItsOwnJobFirst(core, framework, words), true, 'ASP.NET Core is the name word aspnetcore');
    // A phrase is not a name: "web page" does not say webpage (a paraphrased twin of a URL skill).
    const page = doc('s/webpage-markdown-capture', 'webpage-markdown-capture', 'Save any web page as clean Markdown in a real Chrome session.');
    const url = doc('s/url-to-markdown', 'url-to-markdown', 'Fetch any URL and convert it to Markdown with Chrome.');
    assert.equal(saysItsOwnJobFirst(page, url, words), false);
    assert.equal(firstSentence('Instrument Node.js apps with traces. Use when...'), 'Instrument Node.js apps with traces.');
    assert.equal(presentsAsUmbrella(doc('a/pdf-router', 'pdf-router', 'Send PDF work on.')), true);
    assert.equal(presentsAsUmbrella(doc('a/shopify-apps', 'shopify-apps', 'Shopify apps with React Router and App Bridge.')), false);
    assert.equal(presentsAsUmbrella(doc('a/biz', 'business-growth', '4 business growth agent skills and plugins for Claude Code.')), true);
    assert.equal(presentsAsUmbrella(doc('a/next', 'nextjs-app-router-patterns', 'Master Next.js App Router with Server Components.')), false, 'the App Router is a topic');
    assert.equal(presentsAsUmbrella(doc('a/py', 'azure-search-documents-py', 'Azure AI Search Python SDK，用于向量搜索、索引管理和技能集。')), false, 'index management is a topic');
    assert.equal(presentsAsUmbrella(doc('a/seo', 'frontend-seo', '可移植的 SEO 系统，按路由构建元数据。')), false, 'per route is a topic');
    assert.equal(presentsAsUmbrella(doc('a/hub', 'dev-tools', '开发工具的统一入口，根据任务路由到对应的子技能。')), true);
    assert.equal(presentsAsUmbrella(doc('a/zh', 'marketing', '营销技能合集：包含 12 个技能。')), true);
    assert.equal(presentsAsUmbrella(doc('a/s', 'suggest-awesome-github-copilot-skills', 'Suggest relevant GitHub Copilot skills from the awesome-copilot repository.')), false, '"skills" in a name is a topic here');
  });
});

describe('sequences', () => {
  it('two steps of one piece of work, in order, from the names and first sentences', () => {
    const plan = doc('s/writing-plans', 'writing-plans', 'Use when you have a spec and need a plan before touching code.');
    const exec = doc('s/executing-plans', 'executing-plans', 'Use when you have a written implementation plan to execute in a separate session.');
    assert.equal(sequenceOf(exec, plan)?.first, 's/writing-plans', 'the spec comes before the implementation');
    const save = doc('s/context-save', 'context-save', 'Save the current git state and decisions into a checkpoint.');
    const restore = doc('s/context-restore', 'context-restore', 'Restore a saved checkpoint to resume the work later.');
    assert.equal(sequenceOf(save, restore), null, 'restore names saving too: no clean split');
    const design = doc('s/api-design', 'api-design', 'Design REST APIs: resources, versioning and errors.');
    const build = doc('s/api-implementation', 'api-implementation', 'Implement REST endpoints in Express with validation.');
    assert.deepEqual(sequenceOf(build, design), { first: 's/api-design', then: 's/api-implementation', words: ['design', 'implement'] });
    const twin = doc('s/api-builder', 'api-builder', 'Implement REST endpoints with Express and validation.');
    assert.equal(sequenceOf(build, twin), null, 'the same step twice is no sequence');
    // Both descriptions name the plan (计划), so the plan step does not split them; the names' verbs do.
    const writeZh = doc('z/writing-plans', 'writing-plans', '在动手写代码之前，先把需求整理成一份分步骤的实现计划。');
    const execZh = doc('z/executing-plans', 'executing-plans', '拿到一份写好的实现计划后，在新会话里逐步执行并在检查点停下来评审。');
    assert.deepEqual(sequenceOf(execZh, writeZh), { first: 'z/writing-plans', then: 'z/executing-plans', words: ['write', 'execute'] });
  });

  it('two steps joined by what one makes and the other works from', () => {
    const create = doc('t/typespec-create-api-plugin', 'typespec-create-api-plugin', 'Generate a TypeSpec API plugin with REST operations and authentication for Microsoft 365 Copilot.');
    const ops = doc('t/typespec-api-operations', 'typespec-api-operations', 'Add GET, POST, PATCH and DELETE operations to a TypeSpec API plugin with proper routing.');
    assert.deepEqual(handOffOf(ops, create, words), { first: 't/typespec-create-api-plugin', then: 't/typespec-api-operations', words: ['make the TypeSpec API plugin', 'work from the TypeSpec API plugin'] });
    const stride = doc('t/stride', 'stride-analysis-patterns', 'Apply STRIDE methodology to systematically identify threats. Use when analyzing system security.');
    const reqs = doc('t/reqs', 'security-requirement-extraction', 'Derive security requirements from threat models and business context.');
    assert.equal(handOffOf(reqs, stride, words)?.first, 't/stride', 'the threats come first; the phrase ends with its sentence');
    assert.deepEqual(handOffOf(reqs, stride, words)?.words, ['make the threats', 'work from the threats']);
    // Twins make the same thing from the same thing: no step hands anything on.
    const pdfA = doc('t/pdf-to-md', 'pdf-to-md', 'Convert PDF reports into Markdown notes.');
    const pdfB = doc('t/pdf-markdown', 'pdf-markdown', 'Turn PDF reports into clean Markdown notes.');
    assert.equal(handOffOf(pdfA, pdfB, words), null);
    // Each hands something to the other: no order.
    // Converters the opposite way: each makes what the other converts from.
    const toMd = doc('t/convert-word-to-md', 'convert-word-to-md', 'Converts Word (.docx) documents into Markdown so they can be searched.');
    const toDocx = doc('t/md-to-docx', 'md-to-docx', 'Convert Markdown files to professionally formatted Word (.docx) documents with embedded images.');
    assert.equal(handOffOf(toMd, toDocx, words), null);
    assert.equal(oppositeWays(toMd, toDocx, words), true, 'two jobs, the opposite ways');
    const a = doc('t/a', 'a', 'Generate a storyboard from a screenplay.');
    const b = doc('t/b', 'b', 'Write a screenplay from a storyboard.');
    assert.equal(handOffOf(a, b, words), null);
    assert.equal(oppositeWays(a, b, words), true);
    assert.equal(oppositeWays(create, ops, words), false, 'one way only: a sequence');
    const csv = doc('a/csv-cleaner', 'csv-cleaner', 'Clean messy CSV files - fix encodings, trim whitespace, normalise dates and drop duplicate rows.');
    const tidy = doc('a/tabular-data-cleanup', 'tabular-data-cleanup', 'Tidy dirty CSV exports before analysis - repair encodings, strip stray whitespace, standardise dates.');
    assert.equal(handOffOf(csv, tidy, words), null);
  });
});

describe('the line that sends requests to the other skill: its job in its own words', () => {
  it('reads as a person writes it, from the other\'s first sentence', () => {
    const self = doc('a/pdf-build', 'pdf-build', 'Create PDF documents from HTML.');
    const line = (name: string, description: string) => jobLine(self, doc(`a/${name}`, name, description));
    // A verb of the third person as an imperative; the main clause only.
    assert.equal(line('pdf-extract', 'Extracts text and tables from PDF files. Use when the user uploads a PDF.'), 'To extract text and tables from PDF files, use pdf-extract.');
    assert.equal(line('statistical-analyst', 'Run hypothesis tests, analyze A/B experiment results, and calculate sample sizes.'), 'To run hypothesis tests, analyze A/B experiment results, and calculate sample sizes, use statistical-analyst.');
    // "Use when …" as the situation; a persona's opening names no job; a quoted request unquoted.
    assert.equal(line('unity-ecs', 'Use when building data-oriented games with Unity DOTS.'), 'When building data-oriented games with Unity DOTS, use unity-ecs.');
    assert.equal(line('database-optimizer', 'Expert database optimizer specializing in modern performance tuning.'), 'For modern performance tuning, use database-optimizer.');
    assert.equal(line('wireshark', '"analyze network traffic with Wireshark", "capture packets".'), 'To analyze network traffic with Wireshark, use wireshark.');
    // A noun phrase keeps a name's capital, and a dash ends the job before its list.
    assert.equal(line('qiskit', 'IBM quantum computing framework — circuits, transpilation and runtime.'), 'For IBM quantum computing framework, use qiskit.');
    assert.equal(line('cheminf', 'Cheminformatics toolkit for molecules.'), 'For Cheminformatics toolkit for molecules, use cheminf.', 'a noun in -ics is no verb');
    // Too long to cut at a clause, an instruction, a slash command: no line (the caller falls back).
    assert.equal(line('long', 'Build and run very large distributed data processing pipelines over many heterogeneous storage systems and clusters reliably'), null);
    assert.equal(line('rules', 'Always search tools first. '), null);
    assert.equal(line('design', 'Design skill: brand identity, tokens and slides.'), null, 'it names the skill, not its job');
    assert.equal(line('ml-pipeline', 'Design and implement a complete ML pipeline for $ARGUMENTS, with monitoring and retraining.'), 'To design and implement a complete ML pipeline, use ml-pipeline.');
    // Too long with no clause to cut at: the job ends before a trailing phrase, never inside a
    // relative clause; an imperative stays one ("for trading" is no gerund that opens the job).
    assert.equal(line('preview', 'Generate a concise 4-5 page equity research earnings preview for a single company from the latest transcript.'), 'To generate a concise 4-5 page equity research earnings preview, use preview.');
    assert.equal(line('backtest', 'Build robust backtesting systems for trading strategies with proper handling of look-ahead bias and transaction costs.'), 'To build robust backtesting systems for trading strategies, use backtest.');
    assert.equal(line('parallel', 'Use when facing 2+ independent tasks that can be worked on without shared state or sequential dependencies between them.'), null);
    assert.equal(line('kit', 'Complete development kit for Microsoft 365 Copilot declarative agents.'), 'For development kit for Microsoft 365 Copilot declarative agents, use kit.');
    assert.equal(line('diagnose', 'Perform a systematic diagnostic scan of an AI workflow.'), 'To perform a systematic diagnostic scan of an AI workflow, use diagnose.');
    // A dotted name keeps its capital ("next" elsewhere in the text does not lower "Next.js"); an
    // imperative the verb list lacks is still one; a first sentence that is a clause ("X gives …")
    // names no job.
    assert.equal(line('next-guide', 'Next.js App Router principles. Server Components and routing.', ), 'For Next.js App Router principles, use next-guide.');
    assert.equal(jobLine(self, doc('a/next-guide', 'next-guide', 'Next.js App Router principles.', 'Read the next section first.')), 'For Next.js App Router principles, use next-guide.');
    assert.equal(line('variance', 'Decompose budget variances into drivers with short commentary.'), 'To decompose budget variances into drivers with short commentary, use variance.');
    assert.equal(line('graph-api', 'GraphQL gives clients exactly the fields they ask for.'), null);
    assert.equal(line('devops', 'Azure DevOps pipelines for release automation.'), 'For Azure DevOps pipelines for release automation, use devops.', 'a capitalised second word is a name');
    assert.equal(line('secops', 'Senior SecOps engineer skill for application security.'), 'For help with application security, use secops.', 'a role says what it is for');
    // A cut that leaves what sets the job apart in the tail is no line (the words line follows).
    const text = doc('a/pdf-text', 'pdf-text', 'Extract text and tables from PDF files and scanned invoices.');
    assert.equal(jobLine(text, doc('a/pdf-reader', 'pdf-reader', 'Extract text and tables from PDF documents and scanned invoices with Camelot lattice mode and stream mode.')), null);
    // Chinese: the first clause, only in a Chinese description.
    const zhSelf = doc('z/a', 'a', '分析运动数据。');
    assert.equal(jobLine(zhSelf, doc('z/nutrition', 'nutrition', '分析营养数据、识别营养模式，制定饮食计划。')), '涉及分析营养数据、识别营养模式时，请使用 nutrition。');
    assert.equal(jobLine(self, doc('z/nutrition', 'nutrition', '分析营养数据。')), null, 'no Chinese line in an English description');
    assert.equal(jobLine(zhSelf, doc('z/aws', 'aws', 'AWS 成本优化、监控和卓越运营专家。')), '涉及AWS 成本优化、监控和卓越运营时，请使用 aws。');
  });
});

describe('the line a step of a sequence adds', () => {
  it('says what comes next or before, with which skill, in the description\'s language', () => {
    const pm = doc('t/breakdown-epic-pm', 'breakdown-epic-pm', 'Create an Epic Product Requirements Document.');
    const arch = doc('t/breakdown-epic-arch', 'breakdown-epic-arch', 'Create the technical architecture for an Epic, based on a Product Requirements Document.');
    const words = ['make the Epic Product Requirements Document', 'work from the Epic Product Requirements Document'] as const;
    assert.equal(sequenceLine(pm, arch, true, words), 'Then work from the Epic Product Requirements Document with breakdown-epic-arch.');
    assert.equal(sequenceLine(arch, pm, false, words), 'First, make the Epic Product Requirements Document with breakdown-epic-pm.');
    const planZh = doc('z/writing-plans', 'writing-plans', '在动手写代码之前，先把需求整理成一份实现计划。');
    const execZh = doc('z/executing-plans', 'executing-plans', '拿到写好的实现计划后逐步执行。');
    // English step words from the names stay out of a Chinese line.
    assert.equal(sequenceLine(planZh, execZh, true, ['write', 'execute']), '下一步：用 executing-plans。');
    assert.equal(sequenceLine(execZh, planZh, false, ['计划', '执行']), '上一步：先用 writing-plans 计划。');
  });
});

describe('one skill listed twice', () => {
  it('is told by names written two ways, or a translation under the same name with a language suffix', () => {
    const hub = doc('c/docker-hub-automation', 'docker-hub-automation', 'Automate Docker Hub tasks via Rube MCP: repositories, tags and webhooks.');
    const hub2 = doc('c/docker_hub-automation', 'docker_hub-automation', 'Docker Hub automation through Composio: search tools first, then run them.');
    assert.equal(oneSkillTwice(hub, hub2), 'spelling');
    const qmd = doc('c/qmd', 'qmd', 'Search local markdown notes with BM25 and vectors.');
    const qmdZh = doc('c/qmd-zh', 'qmd-zh', '用 BM25 和向量检索本地 Markdown 笔记。');
    assert.equal(oneSkillTwice(qmdZh, qmd), 'language');
    // A folder named like the other's name counts: the name field was edited, the folder kept.
    assert.equal(oneSkillTwice(doc('c/csv-cleaner', 'CSV Cleaner', 'Clean CSV files.'), doc('c/csv_cleaner', 'tidy-csv', 'Tidy CSV files.')), 'spelling');
    // Two jobs whose names share words are not one skill; an English "-en" beside an English skill is no translation.
    assert.equal(oneSkillTwice(doc('c/docker-hub', 'docker-hub', 'Docker Hub.'), doc('c/docker-compose', 'docker-compose', 'Compose files.')), null);
    assert.equal(oneSkillTwice(doc('c/guide-en', 'guide-en', 'A guide.'), doc('c/guide', 'guide', 'A guide, longer.')), null);
    assert.equal(oneSkillTwice(doc('c/csv-cleaner', 'csv-cleaner', 'Clean CSV files.'), doc('c/tabular-data-cleanup', 'tabular-data-cleanup', 'Tidy CSV exports.')), null);
  });

  it('says keep one, not "say when to use the other"', () => {
    const qmd = doc('c/qmd', 'qmd', 'Search local markdown notes.');
    const qmdZh = doc('c/qmd-zh', 'qmd-zh', '检索本地 Markdown 笔记。');
    const finding = (twice?: 'spelling' | 'language'): PairFinding => ({ kind: 'near-duplicate', a: qmd.id, b: qmdZh.id, similarity: 1, explanation: 'evidence.', detail: twice ? { kind: 'near-duplicate', twice } : { kind: 'near-duplicate' } });
    const once = sideMessage(finding('language'), qmd, qmdZh);
    assert.match(once, /the same skill in another language/);
    assert.match(once, /Keep one/);
    assert.doesNotMatch(once, /when to use the other/);
    assert.match(sideMessage(finding('spelling'), qmd, qmdZh), /its name written another way/);
    assert.match(sideMessage(finding(), qmd, qmdZh), /Merge them, or say in each description when to use the other/);
  });
});

describe('the suggested line', () => {
  const docs = [
    doc('a/pdf-text', 'pdf-text', 'Extract text and tables from PDF files and scanned invoices.'),
    doc('a/pdf-reader', 'pdf-reader', 'Read tables from PDF reports with Camelot lattice mode and export them to Excel.'),
    doc('a/csv-a', 'csv-a', 'Clean messy CSV files: fix delimiters and drop duplicate rows.'),
    doc('a/csv-b', 'csv-b', 'Clean messy CSV files: fix delimiters and remove duplicate rows.'),
  ];
  const profiles = new SkillProfiles(docs, words);
  const get = (id: string) => docs.find((d) => d.id === id)!;

  it('is made of the other skill\'s distinguishing words, never of the skill\'s own', () => {
    const line = useOtherLine(get('a/pdf-text'), get('a/pdf-reader'), profiles, words)!;
    assert.match(line, /^For .*Camelot.*, use pdf-reader\.$/);
    const own = new Set(words('pdf text Extract text and tables from PDF files and scanned invoices.'));
    for (const phrase of distinguishingPhrases(get('a/pdf-text'), get('a/pdf-reader'), profiles, words)) {
      assert.ok(words(phrase).every((t) => !own.has(t)), `${phrase} uses a word of pdf-text`);
    }
  });

  it('reads as a sentence a person would write: no leading verb, no broken clause, symbols kept', () => {
    const prep = doc('t/tax-prep', 'tax-prep', 'Prepares tax-season materials — quarterly estimated tax calculation or year-end 1099 prep — and produces an accountant handoff packet. Accepts optional mode and year arguments.');
    const organizer = doc('t/tax-season-organizer', 'tax-season-organizer',
      'Prepares tax-season materials for small business owners — framed as deliverables for their accountant, not tax advice. Two modes: (1) quarterly estimated tax calculation — pulls YTD net income from QuickBooks and calculates the federal income tax + self-employment tax liability and quarterly payment due; (2) year-end 1099 prep — scans QuickBooks, PayPal, and Stripe for contractors paid over $600, builds a 1099-NEC candidate list with missing W-9 flags, and produces a plain-English summary a CPA can work from directly.');
    const tp = new SkillProfiles([prep, organizer], words);
    const phrases = distinguishingPhrases(prep, organizer, tp, words);
    assert.ok(phrases.length > 0);
    for (const p of phrases) {
      assert.doesNotMatch(p, /^(pulls|scans|builds|produces|calculates)\b/, `a phrase starts with a verb: ${p}`);
      assert.doesNotMatch(p, /\b(can|will|should|must)\b/, `a clause, not a phrase: ${p}`);
      assert.doesNotMatch(p, /\b(a|an|the|over|for|of|and)$/, `a phrase ends on a joining word: ${p}`);
      assert.ok(!/\b600\b/.test(p) || p.includes('$600'), `the dollar sign is kept: ${p}`);
    }
    assert.match(useOtherLine(prep, organizer, tp, words)!, /^For [^,]+(, [^,]+)*( or [^,]+)?, use tax-season-organizer\.$/);
  });

  it('drops a clause-opening verb, however short, and keeps a noun that ends in "s"', () => {
    // The probes and the suggested line tell a verb of the third person the same way (thirdPersonVerb).
    const stats = doc('w/web-stats', 'web-stats', 'Count page views and visitors of a website.');
    const board = doc('w/growth-board', 'growth-board', 'Count page views of a website; analytics dashboards for growth teams, uses cohort tables.');
    const wp = new SkillProfiles([stats, board], words);
    const phrases = distinguishingPhrases(stats, board, wp, words);
    assert.ok(phrases.includes('analytics dashboards'), `"analytics" is a topic, not a verb: ${phrases.join(' | ')}`);
    assert.ok(phrases.includes('cohort tables'), `"uses" opens the clause and names no topic: ${phrases.join(' | ')}`);
    assert.ok(phrases.every((p) => !/^uses\b/.test(p)), phrases.join(' | '));
    assert.equal(inUserWords('Analytics dashboards for growth teams.'), 'Analytics dashboards for growth teams.');
    assert.equal(inUserWords('Uses cohort tables to track retention.'), 'Use cohort tables to track retention.');
  });

  it('holds no instruction to the agent and no phrase cut before its noun', () => {
    const self = doc('c/crm-notes', 'crm-notes', 'Keep notes on CRM contacts and log calls.');
    const other = doc('c/capsule-crm', 'capsule-crm', 'Automate Capsule CRM via Rube MCP: always search tools first for current schemas. Vaex-style exports of large tabular, efficient visualization of big, and pipelines based on webhooks.');
    const cp = new SkillProfiles([self, other], words);
    const phrases = distinguishingPhrases(self, other, cp, words);
    assert.ok(phrases.length > 0);
    for (const p of phrases) {
      assert.doesNotMatch(p, /\b(?:always|first)\b/i, `an instruction, not a topic: ${p}`);
      assert.doesNotMatch(p, /^(?:via|for|based)\b/i, `a phrase starts on a joining word or a participle: ${p}`);
      assert.doesNotMatch(p, /\b(?:tabular|big|efficient)$/i, `a phrase cut before its noun: ${p}`);
    }
  });

  it('starts and ends on a topic word: no preposition, adverb, trailing participle, verb after "and", or half word', () => {
    const self = doc('g/graph-basics', 'graph-basics', 'Query APIs with GraphQL and write resolvers.');
    const phrasesOf = (description: string) => {
      const other = doc('g/other', 'other', description);
      return distinguishingPhrases(self, other, new SkillProfiles([self, other], words), words);
    };
    assert.deepEqual(phrasesOf('Drug discovery including, mol objects.'), ['drug discovery', 'mol objects']);
    assert.deepEqual(phrasesOf('Efficiently track down hotspots.'), ['track down hotspots']);
    assert.deepEqual(phrasesOf('Schema review and leverages persisted queries.'), ['schema review']);
    assert.deepEqual(phrasesOf('Without proper controls, sandboxing.'), ['proper controls', 'sandboxing']);
    const long = 'Federation gateways for many teams with schema registries, usage reporting, persisted operations and cost limits, tracing of slow resolvers and cache hints, so that incidents are found early and ops can diagnose and res';
    assert.ok(phrasesOf(long).every((p) => !/\bres$/.test(p)), 'a long description cut without its full stop: its last short word is half a word');
    assert.ok(phrasesOf('Federation for teams, What Went Wrong').some((p) => p.endsWith('Wrong')), 'a short one without a full stop keeps its last word');
    const zh = [doc('z/flat', 'flat', '简洁的扁平界面设计。'), doc('z/bold', 'bold', '无阴影、大胆配色时触发。')];
    assert.match(useOtherLine(zh[0], zh[1], new SkillProfiles(zh, words), words) ?? '', /^涉及[^时]+时，请使用 bold。$/, 'a trigger ending is not said twice');
  });

  it('keeps a name whole and does not start on its tail, a capital of a clause or a participle whose object was cut', () => {
    // Lines a judged sample called broken: "For ASP, …", "For Indicators, …", "For Step-by-step cookbook",
    // "For …, integrating or …".
    const self = doc('o/slo-basics', 'slo-basics', 'Set reliability objectives and error budgets with alerting, for language models.');
    const phrasesOf = (description: string) => {
      const other = doc('o/other', 'other', description);
      return distinguishingPhrases(self, other, new SkillProfiles([self, other], words), words);
    };
    const dotted = phrasesOf('Reliability objectives for ASP.NET Core services and Node.js workers.');
    assert.ok(dotted.some((p) => p.includes('ASP.NET')), `a dotted name is one word: ${dotted.join(' | ')}`);
    assert.ok(dotted.every((p) => !/ASP(?!\.)|^NET/.test(p)), `a dotted name is never cut at its dot: ${dotted.join(' | ')}`);
    const tail = phrasesOf('Track Reliability Level Indicators and burn-rate dashboards.');
    assert.ok(tail.some((p) => p.startsWith('Reliability Level Indicators')), `a name cut at a shared word is said whole: ${tail.join(' | ')}`);
    assert.ok(!tail.includes('track'), `an imperative alone is no topic: ${tail.join(' | ')}`);
    const title = phrasesOf('Reliability objectives Kotlin Project Skeleton; the guidance may set objectives.');
    assert.ok(title.includes('Kotlin Project Skeleton'), `a run in Title Case names something: ${title.join(' | ')}`);
    assert.ok(title.every((p) => !/\bmay$/.test(p)), `a modal at the end was cut before its verb: ${title.join(' | ')}`);
    assert.deepEqual(phrasesOf('Step-by-step cookbook for audit trails.'), ['step-by-step cookbook for audit trails']);
    assert.deepEqual(phrasesOf('Step-by-step cookbook for signed audit trails.'), ['step-by-step cookbook', 'audit trails'], 'a phrase too long is cut where it joins two');
    assert.deepEqual(phrasesOf('Signed tamper-evident receipt chains anchored offline.'), ['signed tamper-evident receipt chains'], 'without a joint the rest is not said alone');
    const verbs = phrasesOf('Runs SAST/DAST scans. Without controls, clients craft queries that bring down your server. Models gives clients exact fields.');
    assert.ok(verbs.every((p) => !/^(?:runs|bring|gives)\b/i.test(p)), `a verb opens no topic, capitalised or after "that": ${verbs.join(' | ')}`);
    assert.ok(verbs.some((p) => p.startsWith('SAST/DAST')), verbs.join(' | '));
    const cut = phrasesOf('Use when integrating language models with knowledge bases, or testing.');
    assert.ok(!cut.includes('integrating'), `a participle whose object was cut: ${cut.join(' | ')}`);
    assert.ok(cut.includes('testing'), `a gerund that ends its clause is a topic: ${cut.join(' | ')}`);
  });

  it('is left out when the two say the same, and written in Chinese for a Chinese skill', () => {
    assert.equal(useOtherLine(get('a/csv-a'), get('a/csv-b'), profiles, words), null, 'the fix is to merge');
    const zh = [doc('z/a', 'a', '分析运动数据、评估健身进展。'), doc('z/b', 'b', '分析营养数据、评估营养状况、制定饮食计划。')];
    const zp = new SkillProfiles(zh, words);
    assert.match(useOtherLine(zh[0], zh[1], zp, words) ?? '', /^涉及.+时，请使用 b。$/);
  });
});

describe('product splits', () => {
  it('finds the products two names set apart, written as proper nouns in their descriptions', async () => {
    const { productSplit } = await import('../../src/core/analysis/competition');
    const paypal = doc('a/paypal-integration', 'paypal-integration', 'Integrate PayPal payment processing with express checkout.');
    const stripe = doc('a/stripe-integration', 'stripe-integration', 'Implement Stripe payment processing for checkout.');
    assert.deepEqual(productSplit(paypal, stripe, words), { a: ['PayPal'], b: ['Stripe'] });
    const anime = doc('a/animejs-animation', 'animejs-animation', '高级动画库技能，触发词：Anime.js动画、网页动画');
    const three = doc('a/threejs-animation', 'threejs-animation', 'Three.js 动画——关键帧动画、骨骼动画');
    assert.deepEqual(productSplit(anime, three, words), { a: ['Anime.js'], b: ['Three.js'] });
    const pro = doc('a/fastapi-pro', 'fastapi-pro', 'Build high-performance async APIs with FastAPI.');
    const templates = doc('a/fastapi-templates', 'fastapi-templates', 'Create production-ready FastAPI projects.');
    assert.equal(productSplit(pro, templates, words), null, 'pro and templates are not products');
    const nextflow = doc('a/nextflow-development', 'nextflow-development', 'Run Nextflow pipelines on sequencing data.');
    const qc = doc('a/single-cell-rna-qc', 'single-cell-rna-qc', 'Performs QC on single-cell RNA-seq data.');
    assert.equal(productSplit(nextflow, qc, words), null, 'names that share no word are not one job for two products');
  });
});

describe('skills named for different things', () => {
  it('tells apart two names that share no word, each a thing its own description writes as a name', async () => {
    const { namedForDifferentThings } = await import('../../src/core/analysis/competition');
    const excel = doc('z/excel-xlsx', 'excel-xlsx', 'Create, inspect and edit Microsoft Excel workbooks and XLSX files with reliable formulas and dates.');
    const word = doc('z/word-docx', 'word-docx', 'Create, inspect and edit Microsoft Word documents and DOCX files with reliable styles and tracked changes.');
    assert.deepEqual(namedForDifferentThings(excel, word, words), { a: ['Excel', 'XLSX'], b: ['Word', 'DOCX'] });
    // A paraphrased twin: the same job in other common words; its name's words open sentences or are not names.
    const csv = doc('a/csv-cleaner', 'csv-cleaner', 'Clean messy CSV files - fix encodings, trim whitespace, normalise dates and drop duplicate rows.');
    const tidy = doc('a/tabular-data-cleanup', 'tabular-data-cleanup', 'Tidy dirty CSV exports before analysis - repair encodings, strip stray whitespace, standardise dates.');
    assert.equal(namedForDifferentThings(csv, tidy, words), null);
    const clean = doc('a/clean-data-xls', 'clean-data-xls', 'Clean up messy spreadsheet data - trim whitespace, fix casing, standardize dates.');
    const sheet = doc('a/spreadsheet-tidy-up', 'spreadsheet-tidy-up', 'Tidy a messy Excel sheet so it is ready for analysis. Tidy columns that mix types.');
    assert.equal(namedForDifferentThings(clean, sheet, words), null, 'Clean and Tidy only open sentences');
    // One side named for a thing the other never names is not enough: both must be.
    const posix = doc('a/posix-shell-pro', 'posix-shell-pro', 'Expert in strict POSIX sh scripting for portability.');
    const lint = doc('a/shell-lint', 'script-lint', 'Lint shell scripts and fix the warnings.');
    assert.equal(namedForDifferentThings(posix, lint, words), null);
    // Names that share a word are for productSplit and saysItsOwnJobFirst.
    const paypal = doc('a/paypal-integration', 'paypal-integration', 'Integrate PayPal payment processing.');
    const stripe = doc('a/stripe-integration', 'stripe-integration', 'Implement Stripe payment processing.');
    assert.equal(namedForDifferentThings(paypal, stripe, words), null);
    // A thing the other also names is not its own: two skills for Excel files.
    const excel2 = doc('z/sheet-formulas', 'sheet-formulas', 'Write XLSX formulas for Microsoft Excel, and FORMULAS that recalculate.');
    assert.equal(namedForDifferentThings(excel, excel2, words), null);
  });
});

describe('a description naming another skill', () => {
  it('reads a name written as a file name as the file', () => {
    assert.equal(mentionsSkillLower('create a thorough `.editorconfig` for a repository by inspecting its languages and file types.', 'editorconfig'), false, 'the file both skills write');
    assert.equal(mentionsSkillLower('for formatting rules, use editorconfig instead of a .editorconfig by hand.', 'editorconfig'), true);
    assert.equal(mentionsSkillLower('augment an audit with trailmark call graphs.', 'trailmark'), true, 'a product the skill builds on is named');
    assert.equal(mentionsSkillLower('for pdf tables, use pdf-extract instead.', 'pdf-extract'), true);
    assert.equal(mentionsSkillLower('clean messy csv files.', 'csv-cleaner'), false);
  });
});
