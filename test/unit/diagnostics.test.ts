import { strict as assert } from 'node:assert';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { PairFinding } from '../../src/core/analysis/types';
import { parseSkill } from '../../src/core/parse/skillDoc';
import type { ProfileId } from '../../src/core/profiles';
import type { SkillDoc } from '../../src/core/types';
import { EDITOR_SKILL_CHECKS, editorReportedCodes, skillDiagnostics, unreadableDiagnostic, type DiagnosticContext } from '../../src/server/diagnostics';
import { DEFAULT_SETTINGS, type ServerSettings } from '../../src/server/settings';
import { isSuppressed, readSuppressions } from '../../src/core/policy/suppression';
import { skill } from '../helpers/fakes';

function doc(folder: string, text: string, profiles: ProfileId[] = ['spec']): SkillDoc {
  return parseSkill({ id: folder, path: `${folder}/SKILL.md`, folderName: folder }, text, profiles);
}

function ctx(docs: SkillDoc[], settings: Partial<ServerSettings['diagnostics']> = {}, conflictThreshold = 0, editorReports?: ReadonlySet<string>): DiagnosticContext {
  const byId = new Map(docs.map((d) => [d.id, d]));
  return {
    settings: { diagnostics: { ...DEFAULT_SETTINGS.diagnostics, ...settings }, conflict: { threshold: conflictThreshold, maxPerSkill: 2 } },
    editorReports,
    href: (code) => `file:///docs/diagnostics.md#${code}`,
    skill: (id) => byId.get(id),
    uriOf: (id) => `file:///lib/${id}/SKILL.md`,
  };
}

const codes = (ds: Diagnostic[]) => ds.map((d) => d.code).sort();

const csvA = doc('csv-cleaner', skill('csv-cleaner', 'Clean messy CSV files: fix delimiters and drop duplicate rows.'));
const csvB = doc('csv-tidy', skill('csv-tidy', 'Clean messy CSV files: fix delimiters and remove duplicate rows.'));
const csvC = doc('csv-r', skill('csv-r', 'Clean messy CSV files in R with readr.'));
const dup: PairFinding = {
  kind: 'near-duplicate',
  a: 'csv-cleaner',
  b: 'csv-tidy',
  similarity: 0.67,
  explanation: '2 of 3 requests written for csv-cleaner also rank csv-tidy in the top 3 (csv-tidy first for 1), and 2 of 3 written for csv-tidy rank csv-cleaner there; e.g. "fix the delimiters of a CSV".',
  evidence: { requests: [{ query: 'fix the delimiters of a CSV', ranks: { 'csv-cleaner': 2, 'csv-tidy': 1 }, for: 'csv-cleaner', source: 'description' }], probes: { sent: 6, taken: 4 } },
  suggestions: { 'csv-cleaner': 'For removing duplicate rows, use csv-tidy.' },
  detail: { kind: 'near-duplicate' },
};
const conflict: PairFinding = {
  kind: 'conflict',
  a: 'csv-cleaner',
  b: 'csv-r',
  similarity: 0.71,
  reason: 'language_ecosystem_mismatch',
  explanation: 'The same job in another language (Python vs R): 2 of 3 requests written for csv-cleaner also rank csv-tidy in the top 3; e.g. "clean this CSV".',
  evidence: { requests: [{ query: 'clean this CSV', ranks: { 'csv-cleaner': 1, 'csv-tidy': 2 }, for: 'csv-cleaner', source: 'description' }], probes: { sent: 6, taken: 4 } },
  suggestions: { 'csv-cleaner': 'For R or readr, use csv-r.' },
  detail: { kind: 'variant', family: 'language', values: { 'csv-cleaner': ['python'], 'csv-r': ['r'] }, unnamed: ['csv-cleaner'] },
};

describe('diagnostics: engine findings to LSP diagnostics', () => {
  it('every diagnostic has a stable code, source skill-router and a link into docs/diagnostics.md', () => {
    const d = doc('bad', '---\nname: Bad--Name\n---\nbody');
    const ds = skillDiagnostics(d, [], ctx([d]));
    assert.ok(ds.length >= 2);
    for (const x of ds) {
      assert.equal(x.source, 'skill-router');
      assert.match(String(x.code), /^frontmatter\.[a-z-]+$/);
      assert.equal(x.codeDescription?.href, `file:///docs/diagnostics.md#${x.code}`);
    }
    assert.ok(codes(ds).includes('frontmatter.name-case'));
    assert.ok(codes(ds).includes('frontmatter.description-missing'));
  });

  it('frontmatter.invalid-yaml points at the line the parser stopped at', () => {
    const d = doc('broken', '---\nname: [oops\ndescription: x\n---\n');
    const [x] = skillDiagnostics(d, [], ctx([d]));
    assert.equal(x.code, 'frontmatter.invalid-yaml');
    assert.equal(x.severity, DiagnosticSeverity.Error);
    assert.ok(x.range.start.line >= 1);
  });

  it('frontmatter.missing on a file without front matter', () => {
    const d = doc('plain', '# Just markdown\n');
    assert.deepEqual(codes(skillDiagnostics(d, [], ctx([d]))), ['frontmatter.missing']);
  });

  it('reports every check unless the running editor is known (by version) to report it itself', () => {
    const d = doc('folder', '---\nname: other\ndescription: ""\nextra: 1\n---\n');
    const all = ['frontmatter.description-empty', 'frontmatter.name-mismatch', 'frontmatter.unknown-key'];
    // VS Code 1.100 reports nothing on SKILL.md (tested in code-server 4.100.3): no row, nothing hidden.
    assert.deepEqual(EDITOR_SKILL_CHECKS, []);
    assert.equal(editorReportedCodes({ name: 'vscode', version: '1.100.3' }).size, 0);
    assert.deepEqual(codes(skillDiagnostics(d, [], ctx([d], {}, 0, editorReportedCodes({ name: 'vscode', version: '1.100.3' })))), all);
    // A row, once tested, hides its codes from that version on, and only with the setting off.
    const table = [{ editor: 'vscode', since: '1.120.0', codes: ['frontmatter.name-mismatch'] }];
    assert.deepEqual([...editorReportedCodes({ name: 'vscode', version: '1.121.2' }, table)], ['frontmatter.name-mismatch']);
    assert.deepEqual([...editorReportedCodes({ name: 'vscode', version: '1.120.0-insider' }, table)], ['frontmatter.name-mismatch']);
    for (const editor of [{ name: 'vscode', version: '1.119.9' }, { name: 'vscode', version: '1.100.3' }, { name: 'other', version: '9.0.0' }, { name: 'vscode', version: 'dev' }, undefined]) {
      assert.equal(editorReportedCodes(editor, table).size, 0, JSON.stringify(editor));
    }
    const hidden = editorReportedCodes({ name: 'vscode', version: '1.121.0' }, table);
    assert.deepEqual(codes(skillDiagnostics(d, [], ctx([d], {}, 0, hidden))), ['frontmatter.description-empty', 'frontmatter.unknown-key']);
    assert.deepEqual(codes(skillDiagnostics(d, [], ctx([d], { reportBuiltInChecks: true }, 0, hidden))), all);
  });

  it('skill.budget: Claude Code cuts the listing (warning), Codex drops the skill (error), tagged by profile', () => {
    const long = 'Turn meeting transcripts into decisions and owners. '.repeat(32);
    const d = doc('notes', skill('notes', long), ['claude-code', 'codex']);
    const ds = skillDiagnostics(d, [], ctx([d])).filter((x) => x.code === 'skill.budget');
    assert.equal(ds.length, 2);
    const claude = ds.find((x) => (x.data as { profile?: string }).profile === 'claude-code')!;
    const codex = ds.find((x) => (x.data as { profile?: string }).profile === 'codex')!;
    assert.equal(claude.severity, DiagnosticSeverity.Warning);
    assert.match(claude.message, /1536/);
    assert.match(claude.message, /\[claude-code\]$/);
    assert.equal(codex.severity, DiagnosticSeverity.Error);
  });

  it('file.unreadable for binary or oversized files', () => {
    const [x] = unreadableDiagnostic('SKILL.md looks like a binary file', ctx([]));
    assert.equal(x.code, 'file.unreadable');
    assert.equal(x.severity, DiagnosticSeverity.Error);
    assert.equal(x.range.start.line, 0);
  });

  it('skill.near-duplicate names the twin and the routing evidence, carries it in data, and relatedInformation points at it', () => {
    const [x] = skillDiagnostics(csvB, [dup], ctx([csvA, csvB]));
    assert.equal(x.code, 'skill.near-duplicate');
    assert.equal(x.severity, DiagnosticSeverity.Warning);
    assert.match(x.message, /^Near-duplicate of "csv-cleaner" \(csv-cleaner\): the router cannot keep them apart\. 2 of 3 requests written for csv-cleaner/);
    assert.match(x.message, /"fix the delimiters of a CSV"/);
    const data = x.data as { evidence: unknown; suggestion?: string };
    assert.deepEqual(data.evidence, dup.evidence);
    assert.equal(data.suggestion, undefined, 'the suggestion for csv-cleaner is not offered on csv-tidy');
    assert.equal(x.relatedInformation?.[0].location.uri, 'file:///lib/csv-cleaner/SKILL.md');
    // Every file is a SKILL.md: the row names the skill folder.
    assert.equal(x.relatedInformation?.[0].message, 'csv-cleaner/: near-duplicate skill "csv-cleaner"');
    assert.deepEqual(x.relatedInformation?.[0].location.range, csvA.keyRanges.description);
    assert.deepEqual(x.range, csvB.keyRanges.description);
    assert.deepEqual((x.data as { twin: unknown }).twin, { id: 'csv-cleaner', name: 'csv-cleaner', uri: 'file:///lib/csv-cleaner/SKILL.md' });
    const [y] = skillDiagnostics(csvA, [dup], ctx([csvA, csvB]));
    assert.match(y.message, /csv-tidy/, 'the same pair sits on both twins');
    assert.equal((y.data as { suggestion?: string }).suggestion, 'For removing duplicate rows, use csv-tidy.');
  });

  it('skill.unreachable gives way to the near-duplicate that takes the requests', () => {
    const unreachable = { code: 'skill.unreachable', severity: 'info' as const, message: '0 of 3 requests reach this skill first', range: csvB.keyRanges.description! };
    const withReach = { ...ctx([csvA, csvB]), reach: () => ({ finding: unreachable, data: {} }) };
    assert.deepEqual(codes(skillDiagnostics(csvB, [], withReach)), ['skill.unreachable'], 'alone, the reach finding is shown');
    assert.deepEqual(codes(skillDiagnostics(csvB, [dup], withReach)), ['skill.near-duplicate'], 'the twin takes its place');
    assert.deepEqual(codes(skillDiagnostics(csvC, [conflict], { ...ctx([csvA, csvC]), reach: () => ({ finding: unreachable, data: {} }) })).sort(), ['skill.conflict', 'skill.unreachable'].sort(), 'a conflict does not');
  });

  it('skill.copy is information, names the other copy, and sits alone on its pair', () => {
    const copy: PairFinding = { kind: 'copy', a: 'csv-cleaner', b: 'csv-tidy', similarity: 1, reason: 'function_redundant', explanation: 'The same text; csv-tidy is longer (by 2 characters). Keep one, or keep both in step.' };
    const ds = skillDiagnostics(csvA, [dup, copy], ctx([csvA, csvB]));
    assert.deepEqual(codes(ds), ['skill.copy'], 'one finding per pair: the copy');
    assert.equal(ds[0].severity, DiagnosticSeverity.Information);
    assert.match(ds[0].message, /^Copy of "csv-tidy" \(csv-tidy\): The same text/);
    assert.equal((ds[0].data as { suggestion?: string }).suggestion, undefined, 'no line to add for a copy');
  });

  it('skill.conflict says the reason in words, with a verified request and what to do; above the threshold only', () => {
    const [x] = skillDiagnostics(csvA, [conflict], ctx([csvA, csvC]));
    assert.equal(x.code, 'skill.conflict');
    assert.equal(x.severity, DiagnosticSeverity.Information);
    assert.doesNotMatch(x.message, /_mismatch|function_redundant/, 'no class names in the text');
    assert.match(x.message, /in another language \(Python vs R\)/);
    assert.match(x.message, /clean this CSV/);
    assert.match(x.message, /Name Python in the first sentence of this description/);
    const [y] = skillDiagnostics(csvC, [conflict], ctx([csvA, csvC]));
    assert.match(y.message, /This description names R first; csv-cleaner does not say Python in its first sentence\./);
    assert.deepEqual((x.data as { evidence: unknown }).evidence, conflict.evidence);
    assert.equal(skillDiagnostics(csvA, [conflict], ctx([csvA, csvC], {}, 0.8)).length, 0);
  });

  it('shows only the closest conflicts of a skill (conflict.maxPerSkill), near-duplicates all', () => {
    const docs = [csvA, csvB, csvC, ...['x1', 'x2', 'x3'].map((id) => doc(id, skill(id, 'Clean CSV.')))];
    const pairs: PairFinding[] = [
      dup,
      ...[0.5, 0.9, 0.7].map((similarity, i) => ({ ...conflict, b: `x${i + 1}`, similarity })),
    ];
    const ds = skillDiagnostics(csvA, pairs, ctx(docs));
    assert.deepEqual(ds.map((d) => [d.code, (d.data as { twin: { id: string } }).twin.id]), [
      ['skill.near-duplicate', 'csv-tidy'],
      ['skill.conflict', 'x2'],
      ['skill.conflict', 'x3'],
    ]);
  });

  it('severity settings override per code, and off hides a code', () => {
    const c = ctx([csvA, csvB, csvC], { severity: { 'skill.near-duplicate': 'error', 'skill.conflict': 'off' } });
    const ds = skillDiagnostics(csvA, [dup, conflict], c);
    assert.deepEqual(codes(ds), ['skill.near-duplicate']);
    assert.equal(ds[0].severity, DiagnosticSeverity.Error);
  });

  it('ignores pairs that do not involve the skill, or whose twin is gone', () => {
    const other: PairFinding = { ...dup, a: 'x', b: 'y' };
    assert.equal(skillDiagnostics(csvA, [other], ctx([csvA, csvB])).length, 0);
    assert.equal(skillDiagnostics(csvA, [dup], ctx([csvA])).length, 0);
  });
});

describe('diagnostics: suppression', () => {
  it('front matter metadata dismisses pair findings about a named twin, on that skill only', () => {
    const a = doc('csv-cleaner', '---\nname: csv-cleaner\ndescription: Clean CSV.\nmetadata:\n  skill-router:\n    ignore: [csv-tidy]\n---\n');
    const b = doc('csv-cleaner', '---\nname: csv-cleaner\ndescription: Clean CSV.\nmetadata:\n  skill-router:\n    ignore: [csv-tidy, csv-r]\n---\n');
    assert.equal(skillDiagnostics(b, [dup, conflict], ctx([b, csvB, csvC])).length, 0);
    assert.equal(skillDiagnostics(a, [dup, conflict], ctx([a, csvB, csvC])).length, 1, 'only the named twin is dismissed');
    assert.equal(skillDiagnostics(csvB, [dup], ctx([a, csvB])).length, 1, 'the twin still reports it');
  });

  it('a body comment dismisses one code about named twins', () => {
    const a = doc('csv-cleaner', skill('csv-cleaner', 'Clean CSV.', '<!-- skill-router-ignore skill.near-duplicate csv-tidy csv-r -->'));
    assert.deepEqual(codes(skillDiagnostics(a, [dup, conflict], ctx([a, csvB, csvC]))), ['skill.conflict']);
  });

  it('a comment with a code alone dismisses the code; names alone dismiss every pair code; ids match too', () => {
    const s = readSuppressions({ frontMatter: {}, body: '<!-- skill-router-ignore skill.budget -->\n<!-- skill-router-ignore tools/csv-tidy other -->' });
    assert.ok(isSuppressed(s, 'skill.budget'));
    assert.ok(!isSuppressed(s, 'skill.conflict'));
    assert.ok(isSuppressed(s, 'skill.conflict', { id: 'tools/csv-tidy', name: 'tidy' }));
    assert.ok(isSuppressed(s, 'skill.near-duplicate', { id: 'x/other', name: 'nope' }), 'the folder name matches');
    assert.ok(!isSuppressed(s, 'skill.near-duplicate', { id: 'x', name: 'y' }));
  });

  it('the parser keeps the body\'s ignore comments, and suppressions read them without reading the body', () => {
    const parsed = parseSkill({ id: 'csv', path: 'csv/SKILL.md', folderName: 'csv' }, skill('csv', 'Clean CSV.', 'Use it.\n<!-- skill-router-ignore skill.conflict r1 -->\n<!--skill-router-ignore tidy-->'), ['spec']);
    assert.deepEqual(parsed.ignoreComments, [' skill.conflict r1 ', ' tidy']);
    assert.deepEqual(parseSkill({ id: 'b', path: 'b/SKILL.md', folderName: 'b' }, skill('b', 'B.', 'No comment here.'), ['spec']).ignoreComments, []);
    // As a reopened index gives it out: the body is still bytes, decoded only when read.
    const lazy = { ...parsed } as SkillDoc;
    Object.defineProperty(lazy, 'body', { get: () => assert.fail('the body was read') });
    const s = readSuppressions(lazy);
    assert.ok(isSuppressed(s, 'skill.conflict', { id: 'r1', name: 'r1' }));
    assert.ok(isSuppressed(s, 'skill.near-duplicate', { id: 'x/tidy', name: 'tidy' }));
    assert.ok(!isSuppressed(s, 'skill.conflict', { id: 'r2', name: 'r2' }));
  });

  it('metadata entries that are codes dismiss the code; odd metadata is ignored without throwing', () => {
    const s = readSuppressions({ frontMatter: { metadata: { 'skill-router': { ignore: ['frontmatter.unknown-key', 42, ''] } } }, body: '' });
    assert.ok(isSuppressed(s, 'frontmatter.unknown-key'));
    for (const metadata of [null, 'text', [1, 2], { 'skill-router': 'x' }, { 'skill-router': { ignore: 'csv-tidy' } }]) {
      assert.doesNotThrow(() => readSuppressions({ frontMatter: { metadata }, body: '<!-- skill-router-ignore -->' }));
    }
    assert.ok(isSuppressed(readSuppressions({ frontMatter: { metadata: { 'skill-router': { ignore: 'csv-tidy' } } }, body: '' }), 'skill.conflict', { id: 'csv-tidy', name: 'csv-tidy' }));
  });
});
