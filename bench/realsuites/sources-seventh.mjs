/**
 * Library entries of bench/realsuites/convert.mjs (whose comment gives their format): the seventh
 * collection, fresh7 (claudemods, claude1337).
 */

/** claudemods: `## <skill>` sections of `| "prompt" | Yes/No |` rows (tests/skills/trigger-tests.md). */
function claudeModsTriggerTests(text) {
  const src = 'tests/skills/trigger-tests.md';
  const rows = [];
  let skill;
  let n = 0;
  for (const line of text(src).split('\n')) {
    const head = /^##\s+([a-z0-9-]+)/.exec(line);
    if (head) {
      skill = head[1];
      n = 0;
      continue;
    }
    if (/^##\s/.test(line)) skill = undefined;
    const row = /^\|\s*"(.+)"\s*\|\s*(Yes|No)\s*\|\s*$/.exec(line);
    if (!row || !skill) continue;
    const id = `trigger-tests/${skill}#${++n}`;
    rows.push(row[2] === 'Yes' ? { id, query: row[1], skills: [skill], source: src } : { id, query: row[1], not: [skill], source: src });
  }
  return rows;
}

/** claudemods: the `| # | "Test Phrase" | Expected Skill | Expected Tool | Result |` matrix (tests/skills/manual-trigger-test.md). */
function claudeModsManualMatrix(text) {
  const src = 'tests/skills/manual-trigger-test.md';
  const rows = [];
  for (const line of text(src).split('\n')) {
    const row = /^\|\s*(\d+)\s*\|\s*"(.+)"\s*\|\s*([a-z0-9-]+)\s*\|\s*([^|]*?)\s*\|/.exec(line);
    if (row) rows.push({ id: `manual#${row[1]}`, query: row[2], skills: [row[3]], source: src, extra: { expected_tool: row[4] } });
  }
  return rows;
}

/** The arch-guild plugin's three skills (claude1337), the scope of its activation-tests.json. */
const ARCH_GUILD = ['architecture', 'design', 'operations'];

export const SEVENTH = [
  {
    name: 'claudemods',
    repo: '0xDarkMatter/claude-mods',
    commit: 'a1fbbdfbb0c2353acc7e710ee71af98453da8e4f',
    skillLang: 'en',
    skillRoot: /^skills\/[^/]+\/SKILL\.md$/,
    tests: ['tests/skills/trigger-tests.md', 'tests/skills/manual-trigger-test.md'],
    rules: [
      'Library: every `skills/<skill>/SKILL.md` at the commit (102 Claude Code skills: CLI tools such as code-stats, data-processing, file-search, find-replace, structural-search, task-runner; language and framework "-ops" references such as rest-ops, sql-ops, sqlite-ops, postgres-ops, python-env, tailwind-ops; git-ops, github-ops, mcp-ops, tool-discovery, ...). Every front-matter `name` equals its folder. The tests were written when the collection was smaller; the library is the whole collection at the pinned commit, so each request meets all 102 skills.',
      '`tests/skills/trigger-tests.md` ("Test cases to verify skills activate on expected keywords"; how to test: start a new Claude Code session, say a test prompt, verify the expected skill appears in the response): one `## <skill>` section per skill (16 skills; the heading `git-ops (formerly git-workflow)` is read as `git-ops`) with a `| Test Prompt | Should Activate |` table. `Yes` → positive for the section\'s skill (k=1); `No` → negative `not: [<section skill>]` (one per section; most are unrelated chatter such as "What\'s the weather like?", a few are another skill\'s task, e.g. "Write a REST API" under mcp-ops or "Connect to PostgreSQL" under sqlite-ops, so none is `not: []`). Ids `trigger-tests/<skill>#N` by row. Quotes around the prompt are removed; the text is the authors\'.',
      '`tests/skills/manual-trigger-test.md` (a manual matrix: run each phrase in a fresh session; pass when the skill is invoked via the `Skill` tool and its CLI tool is used): `| # | Test Phrase | Expected Skill | Expected Tool | Result |` → positive for `Expected Skill` (k=1), `Expected Tool` kept as `expected_tool`. Ids `manual#<#>`. A phrase that repeats a trigger-tests prompt for the same skill is deduplicated (the trigger-tests row kept).',
      '`tests/skills/validate-triggers.sh` checks descriptions statically (names, lengths, advertised trigger keywords) and carries no requests; the per-skill `tests/run.sh` scripts test the skills\' scripts, not which skill is chosen: not used.',
    ],
    parse(_read, _files, text) {
      return [...claudeModsTriggerTests(text), ...claudeModsManualMatrix(text)];
    },
  },
  {
    name: 'claude1337',
    repo: 'yzavyas/claude-1337',
    commit: '0edb6b575ff933c654ab976eba4b90d4a573bf23',
    skillLang: 'en',
    skillRoot: /^plugins\/[^/]+\/skills\/[^/]+\/SKILL\.md$/,
    tests: ['plugins/eval-1337/evals/activation-suite.json', 'plugins/arch-guild/evals/activation-tests.json'],
    rules: [
      'Library: every `plugins/<plugin>/skills/<skill>/SKILL.md` at the commit (14 skills of the claude-1337 marketplace: build-eval, build-rust, build-kotlin, build-jvm-analysis, build-core, build-experience, build-explanations, build-extensions, terminal, visual-creation, prompt-craft, and arch-guild\'s architecture, design and operations). `build-extensions` has front-matter name `build-extension-builder`; `prompt-craft` has no front matter (its folder is its id).',
      '`plugins/eval-1337/evals/activation-suite.json` (`cases: [{id, prompt, expectation, rationale}]` for skill `build-eval`; `run_eval.py activation` sends each prompt to Claude through the Agent SDK with only the `Skill` tool allowed, five trials, and counts the skill as activated when more than half of the trials call `Skill` with a name containing `build-eval` or "eval"; precision, recall and F1 over `must_trigger` and `should_not_trigger`): `must_trigger` → positive for `build-eval` (k=1); `should_not_trigger` → negative `not: [build-eval]` (general programming requests, several of them another skill\'s task such as "Help me write a CLI tool in Rust", so not `not: []`); `acceptable` (ambiguous, excluded from F1 by the authors) → dropped. Ids are the authors\' (`must-001`, `not-001`, ...); `rationale` kept.',
      '`plugins/arch-guild/evals/activation-tests.json` (`[{input, expected_skill, expected_agents, rationale}]`, the arch-guild plugin\'s activation cases: which of its three skills a request should load and which reviewer agents it convenes; no runner in the repository): a named `expected_skill` → positive for it (k=1); `expected_skill: null` (one case, "Sort this list of numbers") → negative `not: [architecture, design, operations]` (the plugin\'s skills, the scope of the file). `expected_agents` and `rationale` kept. Ids `arch-guild#N` by position.',
      'An older `evals/tests/test_triggers.py` (prompt, skill, should_trigger tuples) existed for one day in December 2025 and is absent at the pinned commit: not used. `plugins/eval-1337/evals/methodology-rubric.json` grades answers, not activation: not used.',
    ],
    parse(read) {
      const rows = [];
      const suiteSrc = 'plugins/eval-1337/evals/activation-suite.json';
      const suite = read(suiteSrc);
      if (suite.skill !== 'build-eval') throw new Error(`claude1337: ${suiteSrc} tests ${suite.skill}`);
      for (const c of suite.cases) {
        const extra = { expectation: c.expectation, rationale: c.rationale };
        if (c.expectation === 'must_trigger') rows.push({ id: c.id, query: c.prompt, skills: [suite.skill], source: suiteSrc, extra });
        else if (c.expectation === 'should_not_trigger') rows.push({ id: c.id, query: c.prompt, not: [suite.skill], source: suiteSrc, extra });
        else rows.push({ id: c.id, source: suiteSrc, drop: `expectation "${c.expectation}" (ambiguous, excluded from F1 by the authors)` });
      }
      const guildSrc = 'plugins/arch-guild/evals/activation-tests.json';
      read(guildSrc).forEach((c, i) => {
        const id = `arch-guild#${i + 1}`;
        const extra = { expected_agents: c.expected_agents, rationale: c.rationale };
        rows.push(c.expected_skill ? { id, query: c.input, skills: [c.expected_skill], source: guildSrc, extra } : { id, query: c.input, not: ARCH_GUILD, source: guildSrc, extra });
      });
      return rows;
    },
  },
];
