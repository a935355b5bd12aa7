/**
 * Library entries of bench/realsuites/convert.mjs (whose comment gives their format): the
 * collections of 2026-12-07 (fresh with beez, fresh2, the third collection, fresh4).
 */
import * as path from 'node:path';
import yaml from 'js-yaml';
import { arr, triggerDataset } from './sourceHelpers.mjs';

export const LATER = [
  {
    name: 'kadenn',
    repo: 'kadenn/skills',
    commit: '8a053b4ff36c0f7798ce06382567d3bd68e8e868',
    skillLang: 'en',
    tests: ['evals/routing.json'],
    rules: [
      '`evals/routing.json` (`{id, prompt, expected}`, run by `evals/run_eval.py --routing`): `expected` = a skill → positive (k=1); `expected: "none"` → negative `not: []` (no skill). The `confusable-*` cases (the authors\' near misses between two skills) are ordinary positives for their `expected` skill.',
      '`evals/cases/<skill>.json` are behaviour tests (prompt with `must_match`/`must_not_match`/rubric, run with the skill already loaded), not routing: not used.',
    ],
    parse(read) {
      return read('evals/routing.json').cases.map((c) =>
        c.expected === 'none'
          ? { id: c.id, query: c.prompt, not: [], source: 'evals/routing.json' }
          : { id: c.id, query: c.prompt, skills: [c.expected], source: 'evals/routing.json' },
      );
    },
  },
  {
    name: 'jayden',
    repo: 'jayden-dang/skills',
    commit: '320e91e32e1d07d42d95f18038f616157004da05',
    skillLang: 'en',
    tests: ['skills/**/eval.json'],
    rules: [
      '`skills/<group>/<skill>/eval.json` (`{eval_id, eval_name, kind, derived_from, prompt, assertions}`, linted by `scripts/lint-skill-evals.py`): only `kind: trigger` cases are routing tests (ids `<skill>#<eval_id>`, `<skill>` the folder holding the file); the `behavior` and `contract` cases test what a skill does once loaded and are not used.',
      'A trigger case\'s assertions name the skill that must be chosen first ("`x` is selected", "the first skill invoked is `x`", "invokes `x` first", "`x` is the skill reached for", "`x` is the skill that fires", "`x` is selected rather than `y`") and the skills that must not be ("rather than `y`", ", not `y` or `z`" (a trailing "alone" dropped), "`y` is not selected", "`y` does not fire", "the first skill invoked is not `y`", "`y` is not the skill reached", "`a`, `b`, and `c` are not"). A case naming a chosen skill → positive (k=1) with the others as `not`; a case naming only skills that must not be chosen → negative `not: [...]`. Assertions about something else ("a user-stated skip is not treated as third-party text") are ignored; `eval_name` is kept.',
    ],
    parse(read, list) {
      const S = '([a-z0-9]+(?:-[a-z0-9]+)*)';
      const rules = [
        [new RegExp(`^the first skill invoked is not ${S}$`), (m) => ({ not: [m[1]] })],
        [new RegExp(`^the first skill invoked is ${S}$`), (m) => ({ to: [m[1]] })],
        [new RegExp(`^${S} is selected rather than ${S}$`), (m) => ({ to: [m[1]], not: [m[2]] })],
        [new RegExp(`^${S} is selected$`), (m) => ({ to: [m[1]] })],
        [new RegExp(`^${S} is not selected\\b`), (m) => ({ not: [m[1]] })],
        [new RegExp(`^${S} is not the skill reached\\b`), (m) => ({ not: [m[1]] })],
        [new RegExp(`^${S} is the skill (?:reached|that fires)\\b`), (m) => ({ to: [m[1]] })],
        [new RegExp(`^${S} does not fire$`), (m) => ({ not: [m[1]] })],
        [new RegExp(`^invokes ${S}(?: first)?, not (.+)$`), (m) => ({ to: [m[1]], not: m[2].split(/\s+or\s+|,\s*/).map((x) => x.replace(/\s+alone$/, '').trim()) })],
        [/^(.+) are not$/, (m) => ({ not: m[1].split(/,\s*(?:and\s+)?|\s+and\s+/).map((x) => x.trim()) })],
      ];
      const rows = [];
      for (const file of list().filter((f) => /^skills\/.+\/eval\.json$/.test(f))) {
        const owner = path.basename(path.dirname(file));
        for (const e of read(file)) {
          if (e.kind !== 'trigger') continue;
          const to = [];
          const notTo = [];
          for (const a of e.assertions) {
            for (const [re, f] of rules) {
              const m = re.exec(a);
              if (!m) continue;
              const r = f(m);
              to.push(...arr(r.to));
              notTo.push(...arr(r.not));
              break;
            }
          }
          const id = `${owner}#${e.eval_id}`;
          const not = [...new Set(notTo)].filter((s) => !to.includes(s));
          if (to.length) rows.push({ id, query: e.prompt, skills: [...new Set(to)], not, source: file, extra: { eval_name: e.eval_name } });
          else if (not.length) rows.push({ id, query: e.prompt, not, source: file, extra: { eval_name: e.eval_name } });
          else rows.push({ id, source: file, drop: 'trigger case without a skill-selection assertion' });
        }
      }
      return rows;
    },
  },
  {
    name: 'beez',
    repo: '90ms/beez-agent-harness',
    commit: '1cd2cc8f61c3365a70709450c9045e580ae6b4a2',
    skillLang: 'en',
    tests: ['evals/routing-cases.json'],
    rules: [
      '`evals/routing-cases.json` (`{id, locale, prompt, expected: {domains, mode, risk, sideEffects}, requiredSkills, forbiddenActions}`, scored by `lib/routing-evaluation.js`: every required skill must be selected): `requiredSkills` → positive with all of them required (k = its length, 1-4; the authors compose workflows such as `beez-debug` + `beez-verify`).',
      'Two cases have `requiredSkills: []` (an explain-only and an inspect-only request): the authors\' scorer then accepts any selection, so they state no skill and no exclusion; dropped. `forbiddenActions` are actions (`edit`, `publish`), not skills: not used.',
      'The authors\' `locale` (`ko`, `en`, `mixed`: Korean with English terms) and `expected.mode` are kept. Korean and mixed queries get direction `ko2en`; the skill descriptions are English with Korean trigger words.',
    ],
    parse(read) {
      const src = 'evals/routing-cases.json';
      return read(src).cases.map((c) =>
        c.requiredSkills.length
          ? { id: c.id, query: c.prompt, skills: c.requiredSkills, source: src, extra: { locale: c.locale, mode: c.expected.mode } }
          : { id: c.id, source: src, drop: 'requiredSkills is empty: the authors require no skill and exclude none' },
      );
    },
  },
  {
    name: 'web-motion',
    repo: 'sevq1993-cyber/web-design-motion-skill-family',
    commit: '0530d79350dd20ab1db6111474894ca2d8293fc4',
    skillLang: 'en',
    tests: ['evals/routing-evals.json'],
    rules: [
      '`evals/routing-evals.json` (`{prompt, should_trigger: [...], should_not_trigger: [...]}`, no ids: `routing-evals#N` by position): `should_trigger` → positive with all of them required (k = its length, 1-3) and `should_not_trigger` as `not`.',
      'The one case with `should_trigger: []` ("Fix a TypeScript error in a utility function.") → negative `not: []`: the authors expect no skill of the family; its `should_not_trigger` list is kept as `should_not_trigger`.',
    ],
    parse(read) {
      const src = 'evals/routing-evals.json';
      return read(src).cases.map((c, i) =>
        c.should_trigger.length
          ? { id: `routing-evals#${i + 1}`, query: c.prompt, skills: c.should_trigger, not: arr(c.should_not_trigger), source: src }
          : { id: `routing-evals#${i + 1}`, query: c.prompt, not: [], source: src, extra: { should_not_trigger: arr(c.should_not_trigger) } },
      );
    },
  },
  {
    name: 'frontend-niche',
    repo: 'voidmatcha/frontend-niche-skills',
    commit: '7d751596845846ab07200bc7ea9c60c0c98c5985',
    skillLang: 'en',
    tests: ['evals/routing/cases.json'],
    rules: [
      '`evals/routing/cases.json` (schema v3, `{id, kind, difficulty, prompt, expected_skill, confusable_with, routing_mode?, acceptable_skills?, rationale}`, scored by `evals/routing/routing_benchmark.py`: exact = the one predicted skill is `expected_skill`): every case → positive for `expected_skill` (k=1).',
      '`confusable_with` (the sibling a `collision` case is built to tempt; empty for `representative` cases) → `not`. The six `routing_mode: primary-owner` cases also list that sibling in `acceptable_skills` (the authors\' scorer counts it as an acceptable answer): it becomes `also_ok` and is left out of `not`. `kind` (`representative`/`collision`), `difficulty` (`smoke`/`hard`) and `routing_mode` kept.',
      'The dataset\'s `catalog.excluded_skills` leaves out `frontend-report-triage` (a triage skill that ranks the pack and names 1-3 follow-up skills): no case expects it, and the authors do not show it to the model in their live runs. It is still a SKILL.md of the library, so it is in `library/` like every other skill.',
    ],
    parse(read) {
      const src = 'evals/routing/cases.json';
      return read(src).cases.map((c) => {
        const alsoOk = arr(c.acceptable_skills);
        return {
          id: c.id,
          query: c.prompt,
          skills: [c.expected_skill],
          alsoOk,
          not: arr(c.confusable_with).filter((s) => !alsoOk.includes(s)),
          source: src,
          extra: { kind: c.kind, difficulty: c.difficulty, ...(c.routing_mode ? { routing_mode: c.routing_mode } : {}) },
        };
      });
    },
  },
  {
    name: 'z80',
    repo: 'IgnacioMonge/z80-skills',
    commit: '76b5bdb7bda6c891f6079d9faaecaa6bc467a909',
    skillLang: 'en',
    lang: () => 'es',
    tests: ['evals/routing.jsonl'],
    rules: [
      '`evals/routing.jsonl` (`{id, kind, schema, prompt, expected: {route}}`; the answer schema `evals/schemas/routing-result.schema.json` lets the model pick exactly one of the eight skills): `expected.route` → positive (k=1). `kind` (`direct`, `indirect`, `negative`, `ambiguous`) kept.',
      '`kind: direct` prompts name the skill (`Usa $audit-z80 ...`). `kind: negative` cases are requests that no Z80 specialist should take: the authors expect the generic `workflow` skill (a SKILL.md of the library), so they are positives for `workflow`, not no-skill negatives. `route-z80` is the library\'s own dispatcher; the one `ambiguous` case expecting it is a positive for it.',
      'All queries are Spanish (Latin script): direction `es2en`; the skill descriptions are English.',
      '`evals/evidence.jsonl` and `evals/fixtures/` test what a skill does once chosen: not used.',
    ],
    parse(_read, _files, text) {
      const src = 'evals/routing.jsonl';
      return text(src)
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l))
        .map((c) => ({ id: c.id, query: c.prompt, skills: [c.expected.route], source: src, extra: { kind: c.kind } }));
    },
  },
  {
    name: 'gtm',
    repo: 'getcargohq/gtm-skills',
    commit: '08979f922a2e178e38e5e8b03b81e23d8d8aa812',
    skillLang: 'en',
    tests: ['evals/routing.jsonl'],
    rules: [
      '`evals/routing.jsonl` (`{prompt, expect, why?}` per line, `//` comment lines skipped; no ids: `routing#N` by position among the cases; run in CI by the sibling repository\'s `routing-eval.ts --skills-root .`, "every trigger phrase must route to its own skill"): `expect` → positive (k=1). `why` kept.',
      'The section headed `// --- cookbooks: the one-off / deployed seam` pins two pairs the authors name in that comment (`tam-building` / `build-tam-list`, `account-scoring` / `score-leads`: "the same words describe both"; CONTRIBUTING.md asks for "one that must reach the one-off sibling instead"): in that section a positive for one of the four gets the other of its pair as `not`, and `section: cookbooks` is kept. The authors state no negatives.',
    ],
    parse(_read, _files, text) {
      const src = 'evals/routing.jsonl';
      const pair = { 'tam-building': 'build-tam-list', 'build-tam-list': 'tam-building', 'account-scoring': 'score-leads', 'score-leads': 'account-scoring' };
      const rows = [];
      let cookbooks = false;
      for (const line of text(src).split('\n')) {
        if (/^\/\/ --- cookbooks/.test(line)) cookbooks = true;
        if (!line.trim() || line.startsWith('//')) continue;
        const c = JSON.parse(line);
        const id = `routing#${rows.length + 1}`;
        const not = cookbooks && pair[c.expect] ? [pair[c.expect]] : [];
        rows.push({ id, query: c.prompt, skills: [c.expect], not, source: src, extra: { ...(c.why ? { why: c.why } : {}), ...(cookbooks ? { section: 'cookbooks' } : {}) } });
      }
      return rows;
    },
  },
  {
    name: 'idaibin',
    repo: 'idaibin/skills',
    commit: '5573877c2df129a3cf6115d6a8ec60802b36b5bc',
    skillLang: 'en',
    tests: ['evals/skill-routing-cases.json'],
    rules: [
      '`evals/skill-routing-cases.json` (`{id, skill, class, prompt, expected_owner, expected_outcome, expected_stop?, capability_id?}`, checked by `scripts/run-skill-routing-evals.py`): every case → positive for `expected_owner` (k=1).',
      '`class: boundary` cases (`expected_outcome: reroute`) are posed to `skill` and must be rerouted to another owner (the runner rejects a boundary case whose owner is `skill`): that `skill` becomes the positive\'s `not`. `class: critical-stop` cases still route to their owner, which must then stop (`expected_stop` kept); `class`, `expected_outcome` and `capability_id` kept.',
      'The authors\' runner scores these prompts with their own deterministic catalog search (`scripts/search-skills.py`), and `evals/skill-routing-baseline.json` (56/56 passed) is that run: the baseline is not used, and the prompts were written against that search, so they may echo the catalog\'s vocabulary closely.',
    ],
    parse(read) {
      const src = 'evals/skill-routing-cases.json';
      return read(src).cases.map((c) => ({
        id: c.id,
        query: c.prompt,
        skills: [c.expected_owner],
        not: c.class === 'boundary' && c.skill !== c.expected_owner ? [c.skill] : [],
        source: src,
        extra: { class: c.class, expected_outcome: c.expected_outcome, ...(c.expected_stop ? { expected_stop: c.expected_stop } : {}), ...(c.capability_id ? { capability_id: c.capability_id } : {}) },
      }));
    },
  },
  {
    name: 'hengmu',
    repo: 'liyanqing90/codex-architecture-governance',
    commit: 'f3103a5fe4bac90b87518e626fdfd979470a8d94',
    skillLang: 'en',
    tests: ['evals/cases.yaml'],
    rules: [
      '`evals/cases.yaml` (per skill five cases `{id, skill, kind, prompt, expected: {activates, outcome}}`, `kind` one of `direct`, `indirect`, `incomplete`, `negative`, `edge`): `activates: true` → positive for `skill` (k=1); `activates: false` (the nine `negative` cases) → negative `not: [skill]`, with the authors\' `outcome` kept (it sometimes names the skill that should answer instead, e.g. "Routes a single-repository review to the project audit"). `kind` kept.',
      '`evals/routing.yaml` restates `expected_skill` for ten of these ids: same labels, not read separately. `hengmu` is the plugin\'s public entry point that routes to the focused skills; `maintainer/skills/architecture-knowledge-curator` is a maintainer skill with no case, still a SKILL.md of the repository and so in `library/`.',
      'One case (`solution-edge`) is Chinese: direction `zh2en`.',
    ],
    parse(_read, _files, text) {
      const src = 'evals/cases.yaml';
      return yaml.load(text(src)).cases.map((c) =>
        c.expected.activates === true
          ? { id: c.id, query: c.prompt, skills: [c.skill], source: src, extra: { kind: c.kind } }
          : c.expected.activates === false
            ? { id: c.id, query: c.prompt, not: [c.skill], source: src, extra: { kind: c.kind, outcome: c.expected.outcome } }
            : { id: c.id, source: src, drop: `activates is ${c.expected.activates}` },
      );
    },
  },
  {
    name: 'uipath',
    repo: 'UiPath/skills',
    commit: 'b1206c8b6f9a15589d1d9c30116c4d006e4e9fc2',
    skillLang: 'en',
    skillRoot: /^skills\/[^/]+\/SKILL\.md$/,
    tests: ['tests/tasks/activation/*.jsonl'],
    rules: [
      'Library: what the test loads, the repository as a local plugin whose `.claude-plugin/plugin.json` sets `"skills": "./skills/"`, i.e. `skills/<skill>/SKILL.md` (26; `uipath-automationhub` has no test file). The variants under `preview/` (3) and `skill-flavors/studioweb/` (4), which reuse folder names of `skills/` skills, and the maintainer skill `.claude/skills/manage-skill-flavors` are not part of it.',
      '`tests/tasks/activation/<skill>.jsonl` (`{id, prompt, expected_skill}`, the files listed in `dataset.paths` of `activation.yaml`, run with the repository loaded as a local plugin; one `skill_triggered` criterion per skill): `expected_skill` = a skill → positive (k=1). The README says the positives were "curated by mining real user prompts from skill-specific Slack channels" and synthesized "from each SKILL.md\'s canonical task verbs".',
      '`negative.jsonl` (`expected_skill: ""`, "prompts that should fire **no** skill", including adversarial near misses such as a Claude Desktop MCP server vs `uipath-mcp-servers`) → negative `not: []`.',
    ],
    parse(_read, _files, text) {
      const dir = 'tests/tasks/activation';
      const rows = [];
      for (const f of yaml.load(text(`${dir}/activation.yaml`)).dataset.paths) {
        const src = `${dir}/${f}`;
        for (const line of text(src).split('\n')) {
          if (!line.trim()) continue;
          const c = JSON.parse(line);
          rows.push(c.expected_skill ? { id: c.id, query: c.prompt, skills: [c.expected_skill], source: src } : { id: c.id, query: c.prompt, not: [], source: src });
        }
      }
      return rows;
    },
  },
  {
    name: 'sdd',
    repo: 'joestump/claude-plugin-sdd',
    commit: '160aeefc0342db4b2d41ac0aeee333bc1f363716',
    skillLang: 'en',
    tests: ['evals/triggers/<skill>.json'],
    rules: [
      '`evals/triggers/<skill>.json` (skill-creator trigger sets for `run_loop.py`, `[{query, should_trigger}]`, 20 per file (ten of each; `index`, `review` and `work` have a few more); no ids: `<skill>#N` by position): `should_trigger: true` → positive for that skill; `false` → negative `not: [<skill>]`. The README asks for near-miss negatives ("Adjacent SDD skill territory: \\"create an ADR for using Redis\\" (should fire /sdd:adr, not /sdd:plan)", vocabulary collisions, meta-questions about the skill, one or two off-topic ones); which sibling should answer is not recorded per query, so they are kept per skill, not widened to `not: []`.',
      'Some positives are the bare slash command (`/sdd:adr`): the authors\' text, kept. `graph`, `report-friction` and `search` have no trigger file.',
    ],
    parse(read, list) {
      const rows = [];
      for (const src of list().filter((f) => /^evals\/triggers\/[^/]+\.json$/.test(f))) {
        const skill = path.basename(src, '.json');
        read(src).forEach((c, i) =>
          rows.push(c.should_trigger ? { id: `${skill}#${i + 1}`, query: c.query, skills: [skill], source: src } : { id: `${skill}#${i + 1}`, query: c.query, not: [skill], source: src }),
        );
      }
      return rows;
    },
  },
  {
    name: 'b2c',
    repo: 'SalesforceCommerceCloud/b2c-developer-tooling',
    commit: '4dee938cd4c2d5fd48c6ebc85ee99abf432529ff',
    skillLang: 'en',
    skillRoot: /^skills\/(b2c|b2c-cli|b2c-experimental|storefront-next)\/skills\/[^/]+\/SKILL\.md$/,
    tests: ['skills/*/skills/<skill>/evals/trigger-evals.json'],
    rules: [
      'Library: the skills the authors\' harness installs together (`skills/eval/eval_lib.py` `_sync_skills` copies every `skills/{b2c,b2c-cli,b2c-experimental,storefront-next}/skills/<skill>/SKILL.md` into the eval project, "so inter-skill competition is captured"). The `figma-to-sfnext-pagedesigner` and `storefront-next-figma` plugins and the five repository-maintainer skills under `.claude/skills/` are not installed there and are not in `library/`.',
      '`<skill>/evals/trigger-evals.json` (`[{query, should_trigger}]`, mostly six positives and four near misses per skill; no ids: `<skill>#N` by position), run by `skills/eval/run_eval.py`, which checks whether Claude calls the `Skill` tool with the skill under test: `should_trigger: true` → positive for the skill whose folder holds the file; `false` → negative `not: [<skill>]` (the near misses are often another skill\'s job, not named in the file).',
      'The trigger files of the two figma plugins name skills the harness does not install: dropped (reported below as absent from the library).',
    ],
    parse(read, list) {
      const rows = [];
      for (const src of list().filter((f) => /^skills\/[^/]+\/skills\/[^/]+\/evals\/trigger-evals\.json$/.test(f))) {
        const skill = src.split('/')[3];
        read(src).forEach((c, i) =>
          rows.push(c.should_trigger ? { id: `${skill}#${i + 1}`, query: c.query, skills: [skill], source: src } : { id: `${skill}#${i + 1}`, query: c.query, not: [skill], source: src }),
        );
      }
      return rows;
    },
  },
  {
    name: 'elias',
    repo: 'eliasstravik/skills',
    commit: '9d3b3d475ea14b96f423516b162d9ee3432c8223',
    skillLang: 'en',
    skillRoot: /^skills\/[^/]+\/SKILL\.md$/,
    tests: ['evals/<skill>/trigger-eval.json'],
    rules: [
      'Library: `skills/<skill>/SKILL.md` (9). The six SKILL.md files under `evals/*/fixtures/` are inputs of the `demo` and `skill-issue` behaviour evals, not skills of the library: left out.',
      '`evals/<skill>/trigger-eval.json` (`[{id, split, query, should_trigger}]`, ten of each per file; the authors\' "trigger ratchet" optimizes the description against it): `should_trigger: true` → positive for `<skill>`; `false` → negative `not: [<skill>]` (adjacent requests, kept per skill). Ids `<skill>#<id>`; `split` (`train`/`test`) kept. `midwit` has no trigger file.',
      '`evals/<skill>/evals.json` are behaviour evals (what the skill does once loaded): not used.',
    ],
    parse(read, list) {
      const rows = [];
      for (const src of list().filter((f) => /^evals\/[^/]+\/trigger-eval\.json$/.test(f))) {
        const skill = src.split('/')[1];
        for (const c of read(src)) {
          const base = { id: `${skill}#${c.id}`, query: c.query, source: src, extra: { split: c.split } };
          rows.push(c.should_trigger ? { ...base, skills: [skill] } : { ...base, not: [skill] });
        }
      }
      return rows;
    },
  },
  {
    name: 'orchestkit',
    repo: 'yonatangross/orchestkit',
    commit: '7c4f5aa8453eab32ccfeb2b08b77fe4c31fc6256',
    skillLang: 'en',
    skillRoot: /^src\/skills\/[^/]+\/SKILL\.md$/,
    tests: ['tests/skills/triggering/trigger-cases.yaml'],
    rules: [
      'Library: `src/skills/<skill>/SKILL.md` (106), the folder the authors\' check reads; `plugins/ork/skills/` holds byte-identical built copies, and `src/codex/` / `plugins/ork-codex/` five Codex variants: left out.',
      '`tests/skills/triggering/trigger-cases.yaml` ("Centralized should_trigger / should_not_trigger entries per user-invocable skill", 19 skills; no ids: `<skill>:pos#N` / `<skill>:neg#N`): each `should_trigger` query → positive for that skill; each `should_not_trigger` query → negative `not: [<skill>]` (mostly another skill\'s request, e.g. "review this PR" for `commit`).',
      'The authors\' check (`test-skill-triggering.sh`) scores keyword overlap between each query and the skill\'s description and tags, so the positives were written to share words with the description; they are short commands ("commit my changes").',
      '`src/skills/auto/routing-benchmark.json` labels goals with `/ork:auto` categories and routes (some not skills, e.g. `/goal`, `clarify`): not used.',
    ],
    parse(_read, _files, text) {
      const src = 'tests/skills/triggering/trigger-cases.yaml';
      const rows = [];
      for (const [skill, t] of Object.entries(yaml.load(text(src)).skills)) {
        arr(t.should_trigger).forEach((q, i) => rows.push({ id: `${skill}:pos#${i + 1}`, query: q, skills: [skill], source: src }));
        arr(t.should_not_trigger).forEach((q, i) => rows.push({ id: `${skill}:neg#${i + 1}`, query: q, not: [skill], source: src }));
      }
      return rows;
    },
  },
  {
    name: 'n8n',
    repo: 'czlonkowski/n8n-skills',
    commit: 'ec350daa6e148733ddb7d0c74b25c8dc69879b12',
    skillLang: 'en',
    tests: ['evaluations/<area>/eval-*.json'],
    rules: [
      '`evaluations/<area>/eval-NNN-*.json` (`{id, skills: [...] | skill, query, expected_behavior, ...}`; the five `code-javascript` evals list "Activate n8n-code-javascript skill" first): `skills` (or the single `skill` of the Python evals) → positive requiring all of them (k=1 throughout). These are the authors\' behaviour evals with an explicit skill label, not routing tests with stated alternatives; there are no negatives.',
      'Several queries sit on the authors\' own boundaries (`{{ }}` inside a Code node is labelled `n8n-expression-syntax` in one eval and `n8n-code-javascript` in another): both kept as written.',
    ],
    parse(read, list) {
      const rows = [];
      for (const src of list().filter((f) => /^evaluations\/[^/]+\/[^/]+\.json$/.test(f))) {
        const c = read(src);
        rows.push({ id: c.id, query: c.query, skills: c.skills ? arr(c.skills) : [c.skill], source: src });
      }
      return rows;
    },
  },
  {
    name: 'msdotnet',
    repo: 'dotnet/skills',
    commit: '1b8f2aa1e4e691c8176312829f67e367cdfc1862',
    skillLang: 'en',
    skillRoot: /^plugins\/[^/]+\/skills\/[^/]+\/SKILL\.md$/,
    tests: ['tests/<plugin>/<skill>/eval.yaml'],
    rules: [
      'Library: the published plugins\' skills, `plugins/<plugin>/skills/<skill>/SKILL.md` (31); the repository\'s own authoring skills under `.agents/skills/` and the two test fixtures of `eng/skill-validator/tests/fixtures/` are left out.',
      '`tests/<plugin>/<skill>/eval.yaml` (`scenarios: [{name, prompt, setup?, assertions, rubric, expect_activation?}]`, run by `eng/skill-validator`, which records whether the skill under test was activated, alone and with the whole plugin loaded, and reports a scenario with `expect_activation` true, the default, whose skill was not activated): each scenario → positive for `<skill>` (ids `<skill>#N` by position, the scenario `name` kept). These are task scenarios (prompts often carry code or logs), not routing tests with stated alternatives.',
      '`expect_activation: false` (the flag the authors added in their PR #139 for scenarios that test a skill not being activated) → negative `not: [<skill>]`: three scenarios that ask for something next to the skill (an iOS crash log for `android-tombstone-symbolication`, a NullReferenceException for `clr-activation-debugging`, an existing dump for `dump-collect`).',
      'All twelve scenarios of `migrate-dotnet8-to-dotnet9` carry `expect_activation: false` although every prompt asks for exactly that migration ("Migrate this .NET 8 app to .NET 9 ..."); the file gives no reason, and as routing labels they contradict the skill\'s description, so a file whose every scenario has `expect_activation: false` is dropped (that skill then has no case).',
    ],
    parse(_read, list, text) {
      const rows = [];
      for (const src of list().filter((f) => /^tests\/[^/]+\/[^/]+\/eval\.yaml$/.test(f))) {
        const skill = src.split('/')[2];
        const scenarios = yaml.load(text(src)).scenarios;
        const allOff = scenarios.every((s) => s.expect_activation === false);
        scenarios.forEach((s, i) => {
          const base = { id: `${skill}#${i + 1}`, query: s.prompt, source: src, extra: { scenario: s.name } };
          if (allOff) rows.push({ id: base.id, source: src, drop: 'every scenario of the file has expect_activation: false, on prompts that ask for the skill\'s own task' });
          else rows.push(s.expect_activation === false ? { ...base, not: [skill] } : { ...base, skills: [skill] });
        });
      }
      return rows;
    },
  },
  {
    name: 'artisan',
    repo: 'novotnyllc/dotnet-marketplace',
    commit: '532ed78a8716752cb99ba3a58c0d1eca11bd665a',
    skillLang: 'en',
    skillRoot: /^plugins\/dotnet-artisan\/skills\/[^/]+\/SKILL\.md$/,
    tests: ['tests/agent-routing/cases.json', 'tests/copilot-smoke/cases.jsonl'],
    rules: [
      'Library: the `dotnet-artisan` plugin\'s skills, `plugins/dotnet-artisan/skills/<skill>/SKILL.md` (9, the consolidated catalogue with the `dotnet-advisor` router and `using-dotnet`); the smoke test\'s fixture skill `tests/copilot-smoke/fixture-plugin/skills/dotnet-sentinel-test` is left out.',
      '`tests/agent-routing/cases.json` (`{case_id, category, prompt, expected_skill, required_*_evidence, optional_skills?, disallowed_skills?}`, the live Claude/Codex/Copilot corpus run by `check-skills.cs`): `expected_skill` → positive (k=1); `optional_skills` (tracked but not gated, docs/agent-routing-tests.md) → `also_ok`. The one `disallowed_skills` entry names the retired `dotnet-blazor-auth`, absent from the library: kept as `disallowed_skills`, not as `not`. `category` kept.',
      '`tests/copilot-smoke/cases.jsonl` (`{id, user_prompt, expected_skills, should_activate, category}`, run by `run_smoke.py`, which reports every expected skill not activated as missing): `should_activate: true` → positive requiring all `expected_skills` (k=2 for the `advisor-routed` cases: `dotnet-advisor` plus a specialist); `should_activate: false` (`category: negative`, Python, React, Kubernetes, Git and TCP requests) → negative `not: []`. `category` kept.',
      '`tests/trigger-corpus.json` names the 35 granular skills of the catalogue before it was consolidated (`dotnet-csharp-dependency-injection`, `dotnet-minimal-apis`, ...), none of which exists at this commit: not used.',
    ],
    parse(read, _files, text) {
      const rows = [];
      const a = 'tests/agent-routing/cases.json';
      for (const c of read(a)) {
        const extra = { category: c.category, ...(c.disallowed_skills ? { disallowed_skills: c.disallowed_skills } : {}) };
        rows.push({ id: c.case_id, query: c.prompt, skills: [c.expected_skill], alsoOk: arr(c.optional_skills), source: a, extra });
      }
      const s = 'tests/copilot-smoke/cases.jsonl';
      for (const line of text(s).split('\n')) {
        if (!line.trim()) continue;
        const c = JSON.parse(line);
        rows.push(
          c.should_activate === false
            ? { id: c.id, query: c.user_prompt, not: [], source: s, extra: { category: c.category } }
            : { id: c.id, query: c.user_prompt, skills: c.expected_skills, source: s, extra: { category: c.category } },
        );
      }
      return rows;
    },
  },
  {
    name: 'dapi',
    repo: 'dapi/claude-code-marketplace',
    commit: '60883136ed1c63d8ee71ec20798bb7a92e674e52',
    skillLang: 'en',
    tests: ['<plugin>/skills/<skill>/TRIGGER_EXAMPLES.md'],
    rules: [
      'Library: every `<plugin>/skills/<skill>/SKILL.md` (12 plugins of one marketplace: Bugsnag, email via himalaya, GitHub issues, media upload, spec review, zellij, ...).',
      '`<plugin>/skills/<skill>/TRIGGER_EXAMPLES.md` (one per skill, reviewed with `scripts/review_skill_triggers.sh` and SKILL_TRIGGER_REVIEW_CHECKLIST.md): Markdown lists of quoted requests under level-2 sections. A bullet `- "<request>"` under a section headed "Should Activate", "[YES] ..." or "... (ДОЛЖНЫ СРАБОТАТЬ)" → positive for the skill whose folder holds the file; under "Should NOT Activate", "[NO] ..." or "НЕ должны активировать" → negative `not: [<skill>]` (the authors\' near misses and off-topic requests, kept per skill; the annotation after the quotes, which sometimes names the skill that should answer, is kept as `note`). Sections of keywords ("Key Trigger Words", "Ключевые триггерные слова") and testing notes are not requests: not used. Ids `<skill>:pos#N` / `<skill>:neg#N` by position.',
      'Requests are English or Russian (Cyrillic): Russian ones get direction `ru2en`. The skill descriptions are English (several with Russian trigger phrases), except `spec-review`\'s, which is Russian; the library is recorded as `en`.',
    ],
    parse(_read, list, text) {
      const rows = [];
      for (const src of list().filter((f) => /^[^/]+\/skills\/[^/]+\/TRIGGER_EXAMPLES\.md$/.test(f))) {
        const skill = src.split('/')[2];
        let mode = null;
        let npos = 0;
        let nneg = 0;
        for (const line of text(src).split('\n')) {
          if (/^## /.test(line)) {
            mode = /Should NOT Activate|НЕ должны активировать|\[NO\]/i.test(line) ? 'neg' : /Should Activate|ДОЛЖНЫ СРАБОТАТЬ|\[YES\]/.test(line) ? 'pos' : null;
            continue;
          }
          const m = /^\s*[-*]\s+"([^"]+)"\s*(.*)$/.exec(line);
          if (!mode || !m) continue;
          const note = m[2].trim();
          const extra = note ? { note } : {};
          if (mode === 'pos') rows.push({ id: `${skill}:pos#${++npos}`, query: m[1], skills: [skill], source: src, extra });
          else rows.push({ id: `${skill}:neg#${++nneg}`, query: m[1], not: [skill], source: src, extra });
        }
      }
      return rows;
    },
  },
  {
    name: 'buildkite',
    repo: 'buildkite/skills',
    commit: '72436743f4cd1abe654a3e389d42462788883ab9',
    skillLang: 'en',
    tests: ['evals/trigger_dataset.yaml'],
    rules: [
      'Commit: the snapshot\'s HEAD (2524769, 2026-05-01) no longer has the tests: `49f8c10` (2026-04-28, "Remove evals/ and ralph/ — moved to buildkite/skills-internal-tools") deleted them. The commit pinned is that removal\'s parent, the last one where the skills and the authors\' trigger set are together (8 skills; two of them were dropped before HEAD).',
      '`evals/trigger_dataset.yaml` (`trigger_evals: [{id, query, expected_skill, expected_not_skills?, tags}]`, run by `evals/run_trigger.py`, which shows the model every skill description and grades the one skill it returns): `expected_skill` → positive (k=1) with `expected_not_skills` (the near-miss\'s tempting neighbour) as `not`. `tags` (`should-trigger`, `near-miss`, `<a>-vs-<b>`) kept.',
    ],
    parse: triggerDataset,
  },
  {
    name: 'switchroom',
    repo: 'switchroom/switchroom',
    commit: '915b45004e61c62ea4e659ce222423ac87482acb',
    skillLang: 'en',
    skillRoot: /^skills\/switchroom-[^/]+\/SKILL\.md$/,
    tests: ['evals/trigger_dataset.yaml'],
    rules: [
      'Library: the six skills the authors\' router sees (`ROUTABLE_SKILLS` in `evals/run_trigger.py`: `switchroom-status`, `-health`, `-install`, `-manage`, `-cli`, `-architecture`), `skills/switchroom-<x>/SKILL.md`. The other `skills/` folders are bundled copies of other libraries (Anthropic\'s `docx`, `pdf`, `pptx`, `xlsx`, `skill-creator`, `mcp-builder`, `webapp-testing`; Buildkite\'s eight skills) or helpers outside the router (`humanizer`, `file-bug`, `token-helpers`, `telegram-test-harness`), and `profiles/*/skills/` are per-agent profile skills: left out.',
      '`evals/trigger_dataset.yaml` (`trigger_evals: [{id, query, expected_skill, expected_not_skills, tags}]`; the runner asks the model for the single best skill and fails a case that picks one of `expected_not_skills`): `expected_skill` → positive (k=1) with `expected_not_skills` as `not`. `tags` kept.',
    ],
    parse: triggerDataset,
  },
  {
    name: 'amd',
    repo: 'amd/skills',
    commit: '0a8a3e52b3f92f89803164474e08eb359d10547e',
    skillLang: 'en',
    skillRoot: /^skills\/[^/]+\/SKILL\.md$/,
    tests: ['skills/<skill>/evals/evals.json', 'eval/negatives.json'],
    rules: [
      'Library: `skills/<skill>/SKILL.md` (8, `SKILLS_DIR` of `eval/datasets.py`, every one with a dataset); the two under `staging/` are not in it. The authors\' routing run installs only the published bundle (`.claude-plugin/marketplace.json`: `local-ai-use`, `local-ai-app-integration`, `serving-llms-on-instinct`, `tracelens-analysis-orchestrator`); here all eight compete.',
      '`skills/<skill>/evals/evals.json` (`evaluations: [{id, skill_should_trigger, prompt, ...}]`; the folder names the skill): `skill_should_trigger: true` → positive for that skill (ids `<skill>#<id>`). `false` → negative `not: []`: the authors define `false` as "nothing fires" ("A prompt that should trigger a *different* skill belongs in that skill\'s dataset ... keeps `false` meaning \\"nothing fires\\""); these are the owner\'s near misses, kept with `category: near_miss` and `owner`.',
      '`eval/negatives.json` (prompts "that belong to no skill\'s domain", all `skill_should_trigger: false`) → negative `not: []`, `category: unrelated`.',
      '`expected_behavior` and the other behaviour fields grade what a skill does once loaded: not used.',
    ],
    parse(read, list) {
      const rows = [];
      for (const src of list().filter((f) => /^skills\/[^/]+\/evals\/evals\.json$/.test(f))) {
        const skill = src.split('/')[1];
        for (const e of read(src).evaluations) {
          const id = `${skill}#${e.id}`;
          rows.push(e.skill_should_trigger ? { id, query: e.prompt, skills: [skill], source: src } : { id, query: e.prompt, not: [], source: src, extra: { category: 'near_miss', owner: skill } });
        }
      }
      const neg = 'eval/negatives.json';
      for (const e of read(neg).evaluations) rows.push({ id: `negatives#${e.id}`, query: e.prompt, not: [], source: neg, extra: { category: 'unrelated' } });
      return rows;
    },
  },
];
