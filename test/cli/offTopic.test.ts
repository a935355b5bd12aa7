// A request no skill is about (issue 45: "what is the weather in Paris" reached a skill whose code
// sample defines a weather tool, relevance above the floor): the skill whose body alone holds the
// request's words, far from it in meaning, is not relevant, and the answer is "no skill fits";
// requests the skills are about stay relevant. Runs the built bundle (dist/cli.js) in process,
// the real ONNX encoder included.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

type Main = (io: { argv: string[]; cwd: string; stdout: (s: string) => void; stderr: (s: string) => void; env?: Record<string, string | undefined> }) => Promise<number>;

const SDK_BODY = [
  '# Agent SDK tools',
  '',
  '## Define a tool',
  '',
  '```ts',
  'const getWeather = defineTool("get_weather", {',
  '  description: "Get the current weather for a city",',
  '  parameters: { city: { type: "string" } },',
  '  handler: async ({ city }) => ({ city, temperature: 21 }),',
  '});',
  '```',
  '',
  '## Run a session',
  '',
  '```ts',
  'const session = await client.createSession({ tools: [getWeather] });',
  'await session.send({ prompt: "What\'s the weather like in Seattle and Tokyo?" });',
  '```',
].join('\n');

const SKILLS: Record<string, { description: string; body: string }> = {
  'agent-sdk-tools': { description: 'Build agents with the Copilot SDK - define tools, open sessions and stream replies from TypeScript or Python.', body: SDK_BODY },
  'csv-cleaner': { description: 'Clean messy CSV files - fix encodings, trim whitespace, normalise dates and drop duplicate rows.', body: '# csv-cleaner\n\nSteps for the job.' },
  'haiku-poet': { description: 'Write haiku and short poems about nature, seasons and feelings, with a 5-7-5 syllable count.', body: '# haiku-poet\n\nSteps for the job.' },
};

interface Routed {
  match: string;
  set?: { ids: string[] };
  results: { id: string; relevant?: boolean; notRelevant?: string; notFor?: string; otherStack?: string; scores: { relevance?: number; rerank: number | null } }[];
}

describe('cli: a request no skill is about gets "no skill fits", with the model', function () {
  this.timeout(120_000);
  let dir: string;

  const run = async (query: string, json: boolean): Promise<string> => {
    const main = (require(join(ROOT, 'dist/cli.js')) as { main: Main }).main;
    const out = { stdout: '', stderr: '' };
    const argv = ['route', query, '--library', 'lib', '--cache', join(dir, 'cache'), '--top', '3', '--quiet', ...(json ? ['--json'] : [])];
    const code = await main({ argv, cwd: dir, stdout: (s) => void (out.stdout += s), stderr: (s) => void (out.stderr += s), env: {} });
    assert.equal(code, 0, out.stderr);
    return out.stdout;
  };
  const route = async (query: string): Promise<Routed> => JSON.parse(await run(query, true)) as Routed;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sr-offtopic-'));
    for (const [name, { description, body }] of Object.entries(SKILLS)) {
      mkdirSync(join(dir, 'lib', name), { recursive: true });
      writeFileSync(join(dir, 'lib', name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n${body}\n`);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the skill whose code sample alone has the words no relevance, and answers that no skill fits', async () => {
    const r = await route('what is the weather in Paris');
    const sdk = r.results.find((x) => x.id === 'agent-sdk-tools');
    assert.ok(sdk, JSON.stringify(r.results));
    // The reranker still puts it first among three (its body has "weather"); relevance says it is not about it.
    assert.equal(r.results[0].id, 'agent-sdk-tools');
    assert.equal(sdk.scores.relevance, 0);
    assert.equal(r.match, 'none');
    assert.ok(r.results.every((x) => x.relevant === false), JSON.stringify(r.results));
    // The 0 beside a high reranker score says why, in the JSON and in the table.
    assert.equal(sdk.notRelevant, 'off-topic');
    const table = await run('what is the weather in Paris', false);
    const line = table.split('\n').find((l) => l.includes('(agent-sdk-tools)'));
    assert.match(line ?? '', /\[relevance 0: off topic: none of the request's words in its name, description or headings/, table);
  });

  it('says so when the request names what a description excludes', async () => {
    for (const [name, description] of [
      ['js-linter', 'Lint JavaScript and TypeScript code with ESLint rules and fix the warnings. Not for Python code.'],
      ['py-linter', 'Lint Python code with Ruff and fix the warnings in Python modules.'],
    ]) {
      mkdirSync(join(dir, 'lib2', name), { recursive: true });
      writeFileSync(join(dir, 'lib2', name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n# ${name}\n`);
    }
    const main = (require(join(ROOT, 'dist/cli.js')) as { main: Main }).main;
    let stdout = '';
    const argv = ['route', 'lint my Python script and fix the warnings', '--library', 'lib2', '--cache', join(dir, 'cache2'), '--json', '--quiet'];
    assert.equal(await main({ argv, cwd: dir, stdout: (t) => void (stdout += t), stderr: () => undefined, env: {} }), 0);
    const r = JSON.parse(stdout) as Routed;
    assert.equal(r.results[0].id, 'py-linter');
    const js = r.results.find((x) => x.id === 'js-linter');
    assert.ok(js, stdout);
    assert.equal(js.scores.relevance, 0);
    assert.equal(js.notRelevant, 'excluded');
    assert.equal(js.notFor, undefined, 'a facet the description excludes (Python) is no "not for" item');
    assert.equal(r.results[0].notRelevant, undefined, 'the skill the request is for has no such mark');
  });

  it('a request for what a description says its skill is not for: relevance 0, with the author\'s words', async () => {
    const lib3 = join(dir, 'lib3');
    for (const [name, description] of [
      ['threat-modeler', 'Build a threat model for web services: assets, trust boundaries, abuse paths and controls. Do not use it for active penetration testing, a dependency vulnerability lookup, or legal advice.'],
      ['api-reviewer', 'Review a web API for design problems: naming, versioning, pagination and error responses.'],
      ['sourdough', 'Plan a sourdough bake schedule with levain and proofing times.'],
    ]) {
      mkdirSync(join(lib3, name), { recursive: true });
      writeFileSync(join(lib3, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n# ${name}\n`);
    }
    const main = (require(join(ROOT, 'dist/cli.js')) as { main: Main }).main;
    const routeIn = async (query: string, json: boolean) => {
      let stdout = '';
      const argv = ['route', query, '--library', 'lib3', '--cache', join(dir, 'cache3'), '--quiet', ...(json ? ['--json'] : [])];
      assert.equal(await main({ argv, cwd: dir, stdout: (t) => void (stdout += t), stderr: () => undefined, env: {} }), 0);
      return stdout;
    };
    const pen = JSON.parse(await routeIn('run an authorized penetration test against our staging web services', true)) as Routed;
    const tm = pen.results.find((x) => x.id === 'threat-modeler');
    assert.ok(tm, JSON.stringify(pen.results));
    assert.equal(tm.scores.relevance, 0);
    assert.equal(tm.notRelevant, 'excluded');
    assert.equal(tm.notFor, 'active penetration testing');
    assert.notEqual(pen.results[0].id, 'threat-modeler');
    const table = await routeIn('run an authorized penetration test against our staging web services', false);
    assert.match(table, /threat-modeler\s+\(threat-modeler\)\s+\[relevance 0: its description says it is not for "active penetration testing"\]/);
    // Its own job: first and relevant, no mark.
    const own = JSON.parse(await routeIn('build a threat model with trust boundaries for our web services', true)) as Routed;
    assert.equal(own.results[0].id, 'threat-modeler');
    assert.equal(own.results[0].relevant, true);
    assert.equal(own.results[0].notFor, undefined);
  });

  it('a general question (how something works) gets "no skill fits", unless a skill offers explanations', async () => {
    const write = (lib: string, skills: [string, string][]) => {
      for (const [name, description] of skills) {
        mkdirSync(join(dir, lib, name), { recursive: true });
        writeFileSync(join(dir, lib, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n# ${name}\n`);
      }
    };
    const tasks: [string, string][] = [
      ['git-history-surgeon', 'Rewrite git history safely: interactive rebase onto another branch, squash and fixup commits, resolve rebase and merge conflicts.'],
      ['git-repo-doctor', 'Diagnose a broken git repository: detached HEAD, diverged branches, corrupt objects and wrong remotes.'],
      ['release-notes', 'Write release notes from merged pull requests and tags.'],
    ];
    write('lib4', tasks);
    write('lib5', [...tasks, ['git-concepts', 'Explains git concepts - commits, branches, rebase and merge - in plain words with diagrams.']]);
    const main = (require(join(ROOT, 'dist/cli.js')) as { main: Main }).main;
    const routeIn = async (lib: string, query: string) => {
      let stdout = '';
      const argv = ['route', query, '--library', lib, '--cache', join(dir, `cache-${lib}`), '--json', '--quiet'];
      assert.equal(await main({ argv, cwd: dir, stdout: (t) => void (stdout += t), stderr: () => undefined, env: {} }), 0);
      return JSON.parse(stdout) as Routed;
    };
    const question = 'Explain how git rebase works compared to merge and when each strategy is appropriate';
    const general = await routeIn('lib4', question);
    assert.equal(general.match, 'none', JSON.stringify(general.results));
    const surgeon = general.results.find((x) => x.id === 'git-history-surgeon');
    assert.ok(surgeon, JSON.stringify(general.results));
    assert.equal(surgeon.scores.relevance, 0);
    assert.equal(surgeon.notRelevant, 'general-question');
    // The same words as a task on the user's own branch: the skill's job.
    const task = await routeIn('lib4', 'rebase my feature branch onto main and squash the fixup commits');
    assert.equal(task.results[0].id, 'git-history-surgeon');
    assert.equal(task.results[0].relevant, true);
    assert.equal(task.results[0].notRelevant, undefined);
    // A skill that explains git answers the question; the task skills still do not.
    const taught = await routeIn('lib5', question);
    assert.equal(taught.results[0].id, 'git-concepts', JSON.stringify(taught.results));
    assert.equal(taught.results[0].relevant, true);
    assert.notEqual(taught.match, 'none');
    assert.equal(taught.results.find((x) => x.id === 'git-history-surgeon')?.notRelevant, 'general-question');
    assert.deepEqual(taught.set?.ids, ['git-concepts'], 'the set is led by the skill shown first, not by one ruled out');
    // A question about the library's own things is its skills' to answer: a name public skill
    // libraries never use (the background statistics), or a skill whose text holds what it asks.
    write('lib8', [
      ...tasks,
      ['zorblax-docgen', 'Generate the Zorblax agent-readable docs: scan modules statically and write the reference pages.'],
      ['release-readiness-gate', 'Check the release readiness gate of a version: changelog, migrations, sign-offs and the go/no-go record.'],
    ]);
    const own = await routeIn('lib8', 'how does zorblax docgen scan modules without executing code');
    assert.equal(own.results[0].id, 'zorblax-docgen', JSON.stringify(own.results));
    assert.equal(own.results[0].notRelevant, undefined);
    assert.notEqual(own.match, 'none');
    const gate = await routeIn('lib8', 'what is the release readiness gate');
    assert.equal(gate.results[0].id, 'release-readiness-gate', JSON.stringify(gate.results));
    assert.equal(gate.results[0].notRelevant, undefined);
    assert.equal(gate.results.find((x) => x.id === 'release-notes')?.notRelevant, 'general-question', 'a skill that does not hold what the question asks about is still ruled out');
  });

  it('a skill that says it is for another language than the request names: relevance 0, with both', async () => {
    for (const [name, description] of [
      ['cargo-fuzzing', 'Fuzz Rust crates with cargo-fuzz and libFuzzer: harnesses, corpora and crash triage.'],
      ['atheris', 'Atheris is a coverage-guided Python fuzzer. Use for fuzzing pure Python code and C extensions: harnesses, corpora and crash triage.'],
      ['release-notes', 'Write release notes from merged pull requests and tags.'],
    ]) {
      mkdirSync(join(dir, 'lib6', name), { recursive: true });
      writeFileSync(join(dir, 'lib6', name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n# ${name}\n`);
    }
    const main = (require(join(ROOT, 'dist/cli.js')) as { main: Main }).main;
    const routeIn = async (query: string) => {
      let stdout = '';
      const argv = ['route', query, '--library', 'lib6', '--cache', join(dir, 'cache6'), '--json', '--quiet'];
      assert.equal(await main({ argv, cwd: dir, stdout: (t) => void (stdout += t), stderr: () => undefined, env: {} }), 0);
      return JSON.parse(stdout) as Routed;
    };
    const rust = await routeIn('set up coverage-guided fuzzing with harnesses and a corpus for my Rust crate');
    assert.equal(rust.results[0].id, 'cargo-fuzzing');
    const py = rust.results.find((x) => x.id === 'atheris');
    assert.ok(py, JSON.stringify(rust.results));
    assert.equal(py.scores.relevance, 0);
    assert.equal(py.notRelevant, 'other-stack');
    assert.equal(py.otherStack, 'python (the request names rust)');
    // Ruled out before relevance is read, as an exclusion is: a Rust skill whose words the request
    // shares less than the Python fuzzer's is judged as if the fuzzer were not there, and leads the set.
    mkdirSync(join(dir, 'lib7', 'atheris'), { recursive: true });
    writeFileSync(join(dir, 'lib7', 'atheris', 'SKILL.md'), `---\nname: atheris\ndescription: "Atheris is a coverage-guided Python fuzzer: write fuzzing harnesses, seed corpora and dictionaries, triage crashes and read coverage reports."\n---\n\n# atheris\n`);
    mkdirSync(join(dir, 'lib7', 'rust-crates'), { recursive: true });
    writeFileSync(join(dir, 'lib7', 'rust-crates', 'SKILL.md'), `---\nname: rust-crates\ndescription: "Maintain Rust crates with cargo: workspaces, clippy lints, tests, fuzzing setup and releases."\n---\n\n# rust-crates\n`);
    mkdirSync(join(dir, 'lib7', 'release-notes'), { recursive: true });
    writeFileSync(join(dir, 'lib7', 'release-notes', 'SKILL.md'), `---\nname: release-notes\ndescription: "Write release notes from merged pull requests and tags."\n---\n\n# release-notes\n`);
    let out7 = '';
    const argv7 = ['route', 'write fuzzing harnesses, seed corpora and dictionaries and triage crashes for my Rust crate', '--library', 'lib7', '--cache', join(dir, 'cache7'), '--json', '--quiet'];
    assert.equal(await main({ argv: argv7, cwd: dir, stdout: (t) => void (out7 += t), stderr: () => undefined, env: {} }), 0);
    const r7 = JSON.parse(out7) as Routed;
    assert.equal(r7.results[0].id, 'rust-crates', out7);
    assert.equal(r7.results[0].relevant, true, out7);
    assert.deepEqual(r7.set?.ids, ['rust-crates']);
    assert.equal(r7.results.find((x) => x.id === 'atheris')?.notRelevant, 'other-stack');
    // A request naming no language, or Python, leaves it relevant.
    const any = await routeIn('set up coverage-guided fuzzing with harnesses and a corpus for our Python package');
    assert.equal(any.results[0].id, 'atheris');
    assert.equal(any.results[0].notRelevant, undefined);
    assert.equal(any.results[0].relevant, true);
  });

  it('a request mostly in a script it does not read: never "no skill fits" while a word reaches a skill, and the answer says why', async () => {
    // Korean: "SDK" and the few words of the glossary ("meeting summary organize schedule") are
    // read; the request is not read whole, so the skill a word reaches is a weak answer at most.
    const q = '회의가 끝나고 나서 팀원들에게 보낼 요약을 정리하고 다음 주 일정도 같이 잡아줘 SDK';
    const r = (await route(q)) as Routed & { unread?: string; readAs?: string };
    assert.equal(r.unread, 'Hangul');
    assert.equal(r.results[0].id, 'agent-sdk-tools');
    assert.equal(r.match, 'weak');
    assert.equal(r.results[0].relevant, true);
    assert.deepEqual(r.set?.ids, ['agent-sdk-tools']);
    assert.ok(r.results.slice(1).every((x) => x.relevant === false), JSON.stringify(r.results));
    assert.equal(r.readAs, 'meeting summary organize schedule SDK');
    assert.match(await run(q, false), /^read as: meeting summary organize schedule SDK\n\nMost of this request is in Hangul, which Skill Router reads only through a small glossary .*only the words it knows were matched, so it does not say that no skill fits\. Write the request in English/);
    // No word of it in any skill: nothing to rank, and the table says what to do.
    const none = (await route('오늘 날씨 어때')) as Routed & { unread?: string };
    assert.deepEqual(none.results, []);
    assert.equal(none.unread, 'Hangul');
    assert.match(await run('오늘 날씨 어때', false), /^No skill matches this request\. Most of this request is in Hangul, .*and none of the words it knows is in a skill\./);
    // A request it reads keeps "no skill fits" (the test above), and has no such note.
    assert.equal(((await route('what is the weather in Paris')) as { unread?: string }).unread, undefined);
  });

  it('a Russian request is read through its glossary: the skill its words reach comes first', async () => {
    // "Clean the messy CSV file and remove the duplicate rows": read as the glossary's words
    // (грязный, messy, and дубликаты, duplicates, are not in it).
    const q = 'очисти грязный CSV файл и удали дубликаты строк';
    const r = (await route(q)) as Routed & { unread?: string; readAs?: string };
    assert.equal(r.unread, 'Cyrillic');
    assert.equal(r.readAs, 'clean CSV file delete row');
    assert.equal(r.results[0].id, 'csv-cleaner', JSON.stringify(r.results));
    assert.equal(r.results[0].relevant, true);
    assert.match(await run(q, false), /^read as: clean CSV file delete row\n\nMost of this request is in Cyrillic, which Skill Router reads only through a small glossary /);
  });

  it('a request in another language written in Latin letters: the same, named for its language', async () => {
    // Portuguese: only "CSV" is read, and the relevance model puts csv-cleaner under the floor.
    const q = 'Limpe este arquivo CSV: corrija a codificação dos caracteres e remova as linhas que estão duplicadas';
    const r = (await route(q)) as Routed & { unread?: string };
    assert.equal(r.unread, 'Portuguese');
    assert.equal(r.results[0].id, 'csv-cleaner');
    assert.ok((r.results[0].scores.relevance ?? 1) < 0.12, `under the floor on its own: ${JSON.stringify(r.results[0].scores)}`);
    assert.equal(r.match, 'weak');
    assert.deepEqual(r.set?.ids, ['csv-cleaner']);
    assert.match(await run(q, false), /^Most of this request is in Portuguese, which Skill Router does not read .*only its other words were matched/);
    // The weather in Portuguese reaches no skill by any word: no skill fits, and the note says why.
    const weather = (await route('Como vai estar o tempo amanhã em Lisboa para ir à praia?')) as Routed & { unread?: string };
    assert.equal(weather.unread, 'Portuguese');
    assert.equal(weather.match, 'none');
  });

  it('a Spanish request is read through its glossary: the skill its words reach comes first', async () => {
    const q = 'Limpia este archivo CSV: corrige la codificación de los caracteres y quita las filas que están duplicadas';
    const r = (await route(q)) as Routed & { unread?: string; readAs?: string };
    assert.equal(r.unread, 'Spanish');
    assert.equal(r.readAs, 'clean file CSV: fix encode character remove rows duplicate');
    assert.equal(r.results[0].id, 'csv-cleaner');
    assert.equal(r.results[0].relevant, true);
    assert.ok((r.results[0].scores.relevance ?? 0) >= 0.12, JSON.stringify(r.results[0].scores));
    assert.match(await run(q, false), /^read as: clean file CSV: fix encode character remove rows duplicate\n\nMost of this request is in Spanish, which Skill Router reads only through a small glossary /);
  });

  it('keeps the skills relevant for requests they are about, in the same words or in others', async () => {
    const tool = await route('define a tool for my agent with the Copilot SDK');
    assert.equal(tool.results[0].id, 'agent-sdk-tools');
    assert.equal(tool.results[0].relevant, true);
    // "weather" is not in the haiku skill's text; "poem" and "autumn"'s meaning are.
    const poem = await route('write a poem about the weather in autumn');
    assert.equal(poem.results[0].id, 'haiku-poet');
    assert.equal(poem.results[0].relevant, true);
    assert.notEqual(poem.match, 'none');
  });
});
