/**
 * Library entries of bench/realsuites/convert.mjs (whose comment gives their format): the sixth
 * collection, fresh6 (mongodb, gds, journalism).
 */
import yaml from 'js-yaml';
import { arr } from './sourceHelpers.mjs';

/** mongodb: a `{prompt|query, should_trigger}` list for one target skill (skill-creator's trigger-eval layout). */
function targetTriggerEval(read, src, target, idPrefix) {
  return read(src).map((c, i) => {
    const id = `${idPrefix}#${i + 1}`;
    const query = c.prompt ?? c.query;
    return c.should_trigger ? { id, query, skills: [target], source: src } : { id, query, not: [target], source: src };
  });
}

/** gds: the skills whose registry `invocation` is `implicit` (the others set `allow_implicit_invocation: false`). */
const GDS_IMPLICIT = [
  'gds-orient',
  'gds-audit-repository',
  'gds-maintain-agent-context',
  'gds-audit-estate',
  'gds-plan-estate-change',
  'gds-triage-estate-drift',
  'gds-drakkars-orient',
  'gds-drakkars-audit-fleet',
  'gds-drakkars-triage-run',
  'gds-drakkars-audit-workflow',
  'gds-ci-workflows-design',
  'gds-ci-performance-verify',
];

export const SIXTH = [
  {
    name: 'mongodb',
    repo: 'mongodb/agent-skills',
    commit: 'a2bc4ec7f97c9acd0f73eac0b4e2425115f33b62',
    skillLang: 'en',
    skillRoot: /^skills\/[^/]+\/SKILL\.md$/,
    tests: [
      'testing/skills-boundaries/natural-language-querying-vs-query-optimizer.json',
      'testing/skills-boundaries/natural-language-querying-vs-search-ai.json',
      'testing/skills-boundaries/query-optimizer-vs-schema-design.json',
      'testing/mongodb-schema-design/trigger-eval.json',
      'testing/mongodb-natural-language-querying/mongodb-query-workspace/trigger-eval.json',
    ],
    rules: [
      'Library: `skills/<skill>/SKILL.md` (7 MongoDB skills: connection, MCP setup, natural-language querying, query optimizer, schema design, search and AI, Atlas stream processing), the folder the authors\' runner `testing/mongodb-schema-design/run-trigger-eval.ts` loads (`../../skills`). `tools/review-skill/SKILL.md` (a skill-review helper for contributors, outside that folder) is left out.',
      '`testing/skills-boundaries/*.json` (three pairwise boundary suites, `test_cases: [{id, category, prompt, expected_skill, should_not_trigger?, also_should_not_trigger?, acceptable_alternative?, ambiguity_level?, ...}]`; `README.md` there: present the prompt, record which skills are invoked, pass when `expected_skill` is invoked and no `should_not_trigger` skill is; with `acceptable_alternative` either skill passes; with no expected skill, none of the listed skills may be invoked). The suites load the two skills under test; here the whole library competes. A case naming a skill → positive (k=1) with `should_not_trigger` and `also_should_not_trigger` (a string or a list) as `not` and `acceptable_alternative` as `alsoOk`. `expected_skill: null` (one case) or `"neither"` (seven) → negative `not: <should_not_trigger ∪ also_should_not_trigger>` (the two skills of the suite; several of these requests belong to another skill of the library, e.g. connection or stream processing, so they are not `not: []`). Ids `<file stem>#<id>`; `category` and `ambiguity_level` kept.',
      '`testing/mongodb-schema-design/trigger-eval.json` (`[{prompt, should_trigger}]`; `run-trigger-eval.ts` gives the model every skill description, asks which skills are relevant, and passes a case when `mongodb-schema-design` is among them exactly when `should_trigger`): `true` → positive for `mongodb-schema-design` (k=1); `false` → negative `not: [mongodb-schema-design]` (ids `schema-design-trigger#N`). 23 of its 25 should-trigger prompts repeat a boundary-suite request for the same skill word for word, so the common deduplication keeps the boundary case (with its `not`) and drops these.',
      '`testing/mongodb-natural-language-querying/mongodb-query-workspace/trigger-eval.json` (`[{query, should_trigger}]`, the skill-creator description-trigger set for `mongodb-natural-language-querying`): `true` → positive for that skill; `false` → negative `not: [mongodb-natural-language-querying]` (ids `nlq-trigger#N`).',
      '`testing/*/evals/evals.json` test the skills\' output, not which skill is chosen: not used.',
    ],
    parse(read) {
      const rows = [];
      for (const stem of ['natural-language-querying-vs-query-optimizer', 'natural-language-querying-vs-search-ai', 'query-optimizer-vs-schema-design']) {
        const src = `testing/skills-boundaries/${stem}.json`;
        for (const c of read(src).test_cases) {
          const id = `${stem}#${c.id}`;
          const not = [...arr(c.should_not_trigger), ...arr(c.also_should_not_trigger)];
          const extra = { category: c.category, ...(c.ambiguity_level ? { ambiguity_level: c.ambiguity_level } : {}) };
          if (c.expected_skill === null || c.expected_skill === undefined || c.expected_skill === 'neither') rows.push({ id, query: c.prompt, not, source: src, extra });
          else rows.push({ id, query: c.prompt, skills: [c.expected_skill], not, alsoOk: arr(c.acceptable_alternative), source: src, extra });
        }
      }
      rows.push(...targetTriggerEval(read, 'testing/mongodb-schema-design/trigger-eval.json', 'mongodb-schema-design', 'schema-design-trigger'));
      rows.push(...targetTriggerEval(read, 'testing/mongodb-natural-language-querying/mongodb-query-workspace/trigger-eval.json', 'mongodb-natural-language-querying', 'nlq-trigger'));
      return rows;
    },
  },
  {
    name: 'gds',
    repo: 'NDDev-OpenNetwork/github-device-sync',
    commit: '79c4d5c3185a9f5a60ee382ab644d52b624e8a36',
    skillLang: 'en',
    skillRoot: new RegExp(`^skills/canonical/(${GDS_IMPLICIT.join('|')})/SKILL\\.md$`),
    tests: ['skills/evals/trigger/core.json', 'skills/evals/trigger/estate-admin.json', 'skills/evals/trigger/drakkars.json', 'skills/evals/trigger/portfolio.json', 'skills/evals/trigger/module.json', 'skills/evals/trigger/device.json'],
    rules: [
      'Library: the 12 of the 34 `skills/canonical/<skill>/SKILL.md` whose `skills/registry.yaml` entry has `invocation: "implicit"` (GitHub Device Sync: orienting in a repository estate, auditing repositories and the estate, planning estate changes, triaging drift, the Drakkars CI fleet and workflow skills). The other 22 are `explicit-only` (their `agents/openai.yaml` sets `allow_implicit_invocation: false`): a model never picks them from a request, only when named, so they are not in the library a router chooses from. The registry is checked against this list when converting. Descriptions are English.',
      'Tests: `skills/evals/trigger/<profile>.json`, one corpus per skill profile (`skills: [{name, positive: [{id, split, query, expected, must_not_trigger}], negative: [{id, split, query, must_not_trigger}]}]`, eight of each per skill, train and validation splits, three runs per query). Per `skills/evals/README.md` the harness (`gds harness eval`, a native driver per agent, Go checks in `core/harness`) runs each query in an isolated fixture with the profile installed: for an implicit skill the positives measure recall (the skill must be invoked) and the negatives specificity (it must not be); for an explicit-only skill both its positive and its negative queries are specificity samples (the skill must not activate implicitly).',
      'An implicit skill\'s positive → positive for `expected` (always the skill itself, k=1) with the `must_not_trigger` skills that are in the library as `not` (an explicit-only neighbour it names cannot fire implicitly anyway). Its negative → negative `not: [<the skill>]` (its `must_not_trigger`, always the skill itself; the requests are near misses, often another GDS skill\'s task, so not `not: []`). `split` and the profile are kept. Ids `<profile>/<id>` (the portfolio profile repeats `gds-triage-estate-drift` with its own queries and the same ids).',
      'The queries of the explicit-only skills (all of `module` and `device`, most of `estate-admin`, part of `core` and `drakkars`) are dropped: the harness checks only that their skill is not invoked implicitly, and that skill is not in the library.',
      'The profiles are merged into one library, so a request meets the implicit skills of the other profiles too (e.g. `gds-orient` and `gds-drakkars-orient`). Requests are English or Russian (direction `ru2en` for the Russian ones). `skills/evals/output/*.json` (output assertions) and `enforcement/common.json` (safety scenarios) are not routing tests: not used.',
    ],
    parse(read, list, text) {
      const registry = yaml.load(text('skills/registry.yaml'));
      const implicit = registry.skills.filter((s) => s.invocation === 'implicit').map((s) => s.name);
      if ([...implicit].sort().join() !== [...GDS_IMPLICIT].sort().join()) throw new Error(`gds: implicit skills in the registry differ from GDS_IMPLICIT: ${implicit.join(', ')}`);
      const inLib = new Set(GDS_IMPLICIT);
      const rows = [];
      for (const profile of ['core', 'estate-admin', 'drakkars', 'portfolio', 'module', 'device']) {
        const src = `skills/evals/trigger/${profile}.json`;
        const corpus = read(src);
        if (corpus.profile !== profile) throw new Error(`gds: ${src} is profile ${corpus.profile}`);
        for (const s of corpus.skills) {
          for (const q of [...s.positive, ...s.negative]) {
            const id = `${profile}/${q.id}`;
            const extra = { profile, split: q.split };
            if (!inLib.has(s.name)) rows.push({ id, source: src, drop: 'query of an explicit-only skill (allow_implicit_invocation: false): the harness checks only that it is not invoked implicitly' });
            else if (q.expected) rows.push({ id, query: q.query, skills: [q.expected], not: q.must_not_trigger.filter((x) => inLib.has(x)), source: src, extra });
            else rows.push({ id, query: q.query, not: q.must_not_trigger, source: src, extra });
          }
        }
      }
      return rows;
    },
  },
  {
    name: 'journalism',
    repo: 'patricksavalle/investigate-journalism-skills',
    commit: 'bdf92e54341dde1be2549a569b7b5ff455fa469a',
    skillLang: 'en',
    skillRoot: /^\.claude\/skills\/[^/]+\/SKILL\.md$/,
    tests: ['evals/trigger-eval.json'],
    rules: [
      'Library: `.claude/skills/<skill>/SKILL.md` (10 investigative-journalism and reasoning skills: peer review, article review, scientific fact classification, OSINT research, investigative reasoning, belief revision, first-principles thinking, ...), the folder `evals/trigger.py` reads (`SKILLS_DIR`). `.agents/skills/` holds byte-identical copies built by `scripts/build-skills.py` from `library/skills/*.md`: left out.',
      '`evals/trigger-eval.json` (`[{query, should_trigger, why}]`; `evals/README.md` and `trigger.py`: "each query names the skill that should win, or `null`" for no skill, a routing set written because "the real failure is ... a request landing on the wrong sibling"; `trigger.py check` validates it against the live skills and `emit` projects it to per-skill sets for the description optimiser): a skill → positive (k=1); `null` → negative `not: []` (the `why` of each calls it a near miss for a named skill or a plain task no skill serves). `why` kept. Ids `trigger#N` by position.',
      'Small: 14 positives and 8 negatives.',
    ],
    parse(read) {
      const src = 'evals/trigger-eval.json';
      return read(src).map((c, i) => {
        const id = `trigger#${i + 1}`;
        return c.should_trigger === null ? { id, query: c.query, not: [], source: src, extra: { why: c.why } } : { id, query: c.query, skills: [c.should_trigger], source: src, extra: { why: c.why } };
      });
    },
  },
];
