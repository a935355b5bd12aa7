/**
 * Library entries of bench/realsuites/convert.mjs (whose comment gives their format): the
 * collections of 2026-12-05 and 2026-12-06.
 */
import yaml from 'js-yaml';
import { arr, scriptLang } from './sourceHelpers.mjs';

export const FIRST = [
  {
    name: 'alicoder',
    repo: 'Alicoder001/agent-skills',
    commit: 'b7d5f057ac5757577716edae2345c7aa9eec4ecf',
    skillLang: 'en',
    lang: (row) => (/-uz-/.test(row.id) ? 'uz' : scriptLang(row.query)),
    tests: ['evals/trigger-evals.json'],
    rules: [
      '`evals/trigger-evals.json` (`{id, prompt, expected}`, run by `scripts/run-trigger-evals.js`): `expected` = a skill → positive (k=1); `expected: null` → negative `not: []` (no skill).',
      'Two cases (`-uz-` in the id) are Uzbek in Latin script: direction `uz2en`.',
    ],
    parse(read) {
      return read('evals/trigger-evals.json').cases.map((c) =>
        c.expected === null
          ? { id: c.id, query: c.prompt, not: [], source: 'evals/trigger-evals.json' }
          : { id: c.id, query: c.prompt, skills: [c.expected], source: 'evals/trigger-evals.json' },
      );
    },
  },
  {
    name: 'aep',
    repo: 'memorysaver/agentic-engineering-patterns',
    commit: '96a63f73a12e6a475be9d7770eeb1148c965b93a',
    skillLang: 'en',
    tests: ['evals/skill-routing.json'],
    rules: [
      '`evals/skill-routing.json` (`{id, kind, prompt, expected}`): `expected` is the skill\'s front-matter `name` (`aep-build`), mapped to its folder id (`build`); `kind` (`direct`/`boundary`) kept.',
      '`evals/skill-routing-observations.json` records one model run\'s answers, not the authors\' labels: not used.',
    ],
    parse(read) {
      return read('evals/skill-routing.json').cases.map((c) => ({
        id: c.id,
        query: c.prompt,
        skills: [c.expected],
        source: 'evals/skill-routing.json',
        extra: { kind: c.kind },
      }));
    },
  },
  {
    name: 'skillhub',
    repo: 'duthaho/skillhub',
    commit: '7789d049eb2b320f4c89e2c9fed78b3ab454f573',
    skillLang: 'en',
    tests: ['evals/triggers.json'],
    rules: [
      '`evals/triggers.json` (`{prompt, expect, route?}`, no ids: `triggers#N` by position): `expect` → positive (k=1).',
      'A `route` that starts with `not <skill>` (the authors\' "routing pair": the neighbour this prompt must not reach) becomes the positive\'s `not: [<skill>]`; the `route` text is kept as `note`.',
    ],
    parse(read) {
      const rows = [];
      read('evals/triggers.json').cases.forEach((c, i) => {
        const m = /^not ([a-z0-9-]+)/.exec(c.route ?? '');
        rows.push({ id: `triggers#${i + 1}`, query: c.prompt, skills: [c.expect], ...(m ? { not: [m[1]] } : {}), source: 'evals/triggers.json', extra: c.route ? { note: c.route } : {} });
      });
      return rows;
    },
  },
  {
    name: 'kujo',
    repo: 'kujolang/kujo-skills',
    commit: 'f0cf74044735f1feab9816229eb547006d671050',
    skillLang: 'en',
    tests: ['evals/trigger-queries.json'],
    rules: [
      '`evals/trigger-queries.json` (per skill `{should_trigger: [...], should_not_trigger: [...]}`): each `should_trigger` query → positive for that skill (ids `<skill>:pos#N`); each `should_not_trigger` query → negative `not: [<skill>]` (ids `<skill>:neg#N`). Many negatives are off-domain (Python, React); they are kept per skill as the authors wrote them, not widened to `not: []`.',
    ],
    parse(read) {
      const rows = [];
      for (const [skill, t] of Object.entries(read('evals/trigger-queries.json'))) {
        arr(t.should_trigger).forEach((q, i) => rows.push({ id: `${skill}:pos#${i + 1}`, query: q, skills: [skill], source: 'evals/trigger-queries.json' }));
        arr(t.should_not_trigger).forEach((q, i) => rows.push({ id: `${skill}:neg#${i + 1}`, query: q, not: [skill], source: 'evals/trigger-queries.json' }));
      }
      return rows;
    },
  },
  {
    name: 'spring',
    repo: 'dd3ok/spring-engineering-skills',
    commit: 'da0339cfc1be36975a33ce78c51b844e042c0dcf',
    skillLang: 'en',
    tests: ['evals/routing-cases.json'],
    rules: [
      '`evals/routing-cases.json` (`{id, prompt, expected_skill, forbidden_skills, activation_channel, split, ...}`): `expected_skill` → positive (k=1) whose `not` is its `forbidden_skills`.',
      '`expected_skill: null` (activation channel `none`) → negative `not: []`: the authors expect no skill to activate; their `forbidden_skills` list is kept as `forbidden_skills`.',
      '`activation_channel` (`semantic`, `explicit-name` where the prompt names the skill, `none`) and the authors\' `split` (`train`/`validation`) are kept.',
      '`evals/behavior-cases.json` tests what a skill does once chosen (must/must_not), not routing: not used.',
    ],
    parse(read) {
      const rows = [];
      for (const c of read('evals/routing-cases.json')) {
        const extra = { activation_channel: c.activation_channel, split: c.split };
        if (c.expected_skill === null) {
          rows.push({ id: c.id, query: c.prompt, not: [], source: 'evals/routing-cases.json', extra: { ...extra, forbidden_skills: arr(c.forbidden_skills) } });
          continue;
        }
        rows.push({ id: c.id, query: c.prompt, skills: [c.expected_skill], not: arr(c.forbidden_skills), source: 'evals/routing-cases.json', extra });
      }
      return rows;
    },
  },
  {
    name: 'mcu',
    repo: 'aceleisureman/mcu-skills',
    commit: 'f4cf760f3f313957ae207e1397824520fc70328d',
    skillLang: 'zh',
    tests: ['evals/routing-cases.json'],
    rules: [
      '`evals/routing-cases.json` (`{id, query, expected_skills, expected_targets}`): `expected_skills` → positive with k = its length (multi-skill requests keep all); `expected_skills: []` → negative `not: []`. `expected_targets` (files inside the skills) are not used.',
      'Queries and skill descriptions are Chinese: direction `zh2zh`.',
    ],
    parse(read) {
      return read('evals/routing-cases.json').cases.map((c) =>
        c.expected_skills.length
          ? { id: c.id, query: c.query, skills: c.expected_skills, source: 'evals/routing-cases.json' }
          : { id: c.id, query: c.query, not: [], source: 'evals/routing-cases.json' },
      );
    },
  },
  {
    name: 'git-skills',
    repo: 'hypercube-xyz/git-agent-skills',
    commit: '1c1054041f988fb7a5ce863d9829d4946fdd1f57',
    skillLang: 'en',
    tests: ['tests/routing.json', 'tests/ab-evaluation/near_boundary_prompts.json'],
    rules: [
      '`tests/routing.json` (`{id, skill, expect, prompt}`): `expect: route` → positive for `skill`; `expect: do-not-route` → negative `not: [skill]`.',
      '`tests/ab-evaluation/near_boundary_prompts.json` (`{id, type, prompt, preferred_skill, acceptable_skills, forbidden_skills}`): `preferred_skill` → positive (k=1) with the other `acceptable_skills` as `also_ok` and `forbidden_skills` as `not`. `type` (`clear-left`, `clear-right`, `boundary`, `underspecified`) kept.',
      'Thai queries get direction `th2en`.',
    ],
    parse(read) {
      const rows = read('tests/routing.json').cases.map((c) =>
        c.expect === 'route'
          ? { id: c.id, query: c.prompt, skills: [c.skill], source: 'tests/routing.json' }
          : c.expect === 'do-not-route'
            ? { id: c.id, query: c.prompt, not: [c.skill], source: 'tests/routing.json' }
            : { id: c.id, source: 'tests/routing.json', drop: `unknown expect ${c.expect}` },
      );
      const nb = 'tests/ab-evaluation/near_boundary_prompts.json';
      for (const p of read(nb).prompts) {
        const alsoOk = arr(p.acceptable_skills).filter((s) => s !== p.preferred_skill);
        rows.push({ id: p.id, query: p.prompt, skills: [p.preferred_skill], alsoOk, not: arr(p.forbidden_skills), source: nb, extra: { type: p.type, risk_class: p.risk_class } });
      }
      return rows;
    },
  },
  {
    name: 'orca-fleet',
    repo: 'ravidsrk/orca-fleet',
    commit: '4ecb81fbff50c1150713c0b984af80ecd62ad7cd',
    skillLang: 'en',
    tests: ['evals/routing.json', 'skills/*/evals/evals.json'],
    rules: [
      '`evals/routing.json` (`{id, prompt, expected_mission, type, reason}`): every case → positive for `expected_mission` (k=1). `type: negative` marks a near miss whose right answer is still `expected_mission` (the wrong neighbour is named only in the prose `reason`), so these are positives too; `type` kept.',
      '`skills/<skill>/evals/evals.json` (skill-creator style, `{id, prompt, expected_output, assertions}`): an assertion `Routes to <skill>` (a trailing qualifier such as "for diagnosis" ignored) → positive for that skill; `Does not route to <a> or <b>` → that positive\'s `not: [a, b]`, or a negative `not: [a, b]` when the eval names no skill to route to (ids `<skill>/evals#<id>`). Evals without a routing assertion are dropped.',
    ],
    parse(read, list) {
      const rows = read('evals/routing.json').evals.map((c) => ({
        id: `routing#${c.id}`,
        query: c.prompt,
        skills: [c.expected_mission],
        source: 'evals/routing.json',
        extra: { type: c.type },
      }));
      for (const file of list().filter((f) => /^skills\/[^/]+\/evals\/evals\.json$/.test(f))) {
        const owner = file.split('/')[1];
        for (const e of read(file).evals) {
          const id = `${owner}/evals#${e.id}`;
          // Some assertions carry a qualifier ("Routes to root-cause for diagnosis"): the skill is the first word.
          const to = arr(e.assertions).map((a) => /^Routes to ([a-z0-9-]+)/.exec(a)?.[1]).filter(Boolean);
          const notTo = arr(e.assertions).flatMap((a) => {
            const m = /^Does not route to (.+)$/.exec(a);
            return m ? m[1].split(/,\s*|\s+or\s+/).map((s) => /^[a-z0-9-]+/.exec(s.trim())?.[0]).filter(Boolean) : [];
          });
          if (to.length || notTo.length) rows.push({ id, query: e.prompt, ...(to.length ? { skills: to } : {}), not: notTo, source: file });
          else rows.push({ id, source: file, drop: 'no "Routes to"/"Does not route to" assertion' });
        }
      }
      return rows;
    },
  },
  {
    name: 'design-judge',
    repo: 'SeanJ1ang/design-judge-skills',
    commit: '0423e9f8de74b1ed8c5b9245b428fa347b580f1f',
    skillLang: 'en',
    tests: ['evals/routing-cases.json'],
    rules: [
      '`evals/routing-cases.json` (`{id, prompt, expected_skill, must_not_route_to}`): `expected_skill` → positive (k=1) with `not: [must_not_route_to]`.',
      '`design-judge-shared` is a shared-reference skill the other six load; it is part of the library and named in negatives.',
    ],
    parse(read) {
      const rows = [];
      for (const c of read('evals/routing-cases.json').cases) {
        rows.push({ id: c.id, query: c.prompt, skills: [c.expected_skill], not: arr(c.must_not_route_to), source: 'evals/routing-cases.json' });
      }
      return rows;
    },
  },
  {
    name: 'finance-writing',
    repo: 'yxyuan-joy/Finance-top-journal-writing-skills',
    commit: 'bd395fc72eedc2640bc2809b3fc62e1967fda7d9',
    skillLang: 'en',
    tests: ['evals/cases/routing-v1.json'],
    rules: [
      '`evals/cases/routing-v1.json` (`{id, prompt, language, expected_primary, expected_supporting, negative_for, top_k?, tags}`): `expected_primary` plus `expected_supporting` → positive with all of them required (k=2 for the 24 co-routing cases: the core `finance-top-journal-writing` and one specialist; `top_k: 2` in the file) and `negative_for` as `not`; `expected_primary: null` → negative `not: []` (the authors also list every skill in `negative_for`). `tags` kept.',
      'Chinese and mixed Chinese-English queries get direction `zh2en`.',
    ],
    parse(read) {
      return read('evals/cases/routing-v1.json').cases.map((c) =>
        c.expected_primary === null
          ? { id: c.id, query: c.prompt, not: [], source: 'evals/cases/routing-v1.json', extra: { tags: c.tags } }
          : { id: c.id, query: c.prompt, skills: [c.expected_primary, ...arr(c.expected_supporting)], not: arr(c.negative_for), source: 'evals/cases/routing-v1.json', extra: { tags: c.tags } },
      );
    },
  },
  {
    name: 'codex-agent',
    repo: 'medeiroshudson/CodexAgent',
    commit: 'c4b2c28ed3d7a87ee06ee21bb269a980f7bc20f7',
    skillLang: 'en',
    tests: ['evals/skill-routing.json'],
    rules: [
      '`evals/skill-routing.json` (`{id, kind, prompt, expectedSkill?, expectedSkills?, excludedSkills?, expectedDisposition?}`): `kind: positive` → positive for `expectedSkill` (k=1); `kind: overlap` → positive requiring every skill of `expectedSkills` (k = its length; `expectedSkill`, the one listed first by the authors, kept as `primary`).',
      '`kind: negative` → negative: `not: []` when `expectedDisposition` is `no-skill` (the authors\' `excludedSkills` kept as `excluded_skills`), otherwise `not: excludedSkills`. `kind` and `expectedDisposition` kept.',
    ],
    parse(read) {
      return read('evals/skill-routing.json').cases.map((c) => {
        const extra = { kind: c.kind, ...(c.expectedDisposition ? { disposition: c.expectedDisposition } : {}) };
        const source = 'evals/skill-routing.json';
        if (c.kind === 'negative') {
          return c.expectedDisposition === 'no-skill'
            ? { id: c.id, query: c.prompt, not: [], source, extra: { ...extra, excluded_skills: arr(c.excludedSkills) } }
            : { id: c.id, query: c.prompt, not: arr(c.excludedSkills), source, extra };
        }
        const skills = c.expectedSkills?.length ? c.expectedSkills : [c.expectedSkill];
        return { id: c.id, query: c.prompt, skills, source, extra: c.expectedSkills?.length ? { ...extra, primary: c.expectedSkill } : extra };
      });
    },
  },
  {
    name: 'decisions',
    repo: 'n0namer/skills-for-decision-making',
    commit: '9b209a95a42a645cb62622654eb7c465b96e3eb3',
    skillLang: 'en',
    tests: ['*/evals/evals.json'],
    rules: [
      '`<skill>/evals/evals.json` (skill-creator style, `{skill_name, evals: [{id, prompt, expected_output, ...}]}`): each eval prompt → positive for the skill whose folder holds it (ids `<skill>#<id>`). These are the authors\' task evals for that skill, not routing tests with stated alternatives: weaker labels than the other suites (a prompt may also suit a sibling skill).',
    ],
    parse(read, list) {
      const rows = [];
      for (const file of list().filter((f) => /^[^/]+\/evals\/evals\.json$/.test(f))) {
        const owner = file.split('/')[0];
        for (const e of read(file).evals) rows.push({ id: `${owner}#${e.id}`, query: e.prompt, skills: [owner], source: file });
      }
      return rows;
    },
  },
  {
    name: 'confluence',
    repo: 'grandcamel/Confluence-Assistant-Skills',
    commit: 'ef05652351fc5c643bd62db512dc53a092f1b0b9',
    skillLang: 'en',
    tests: ['tests/e2e/test_cases.yaml'],
    rules: [
      '`tests/e2e/test_cases.yaml` (suites of `{id, name, prompt, expect}`): the suite `confluence_<x>` tests the skill `confluence-<x>`, so each of its prompts is a positive (k=1) for that skill.',
      'The hub `confluence-assistant` ("Central hub for Confluence operations - routes requests to specialized skills"): its suite\'s `discover_assistant` prompt ("What Confluence skills are available?") is a positive for the hub; its `routing_test` ("How do I create a Confluence page?", expecting `confluence-page` or `create_page` in the answer) is a positive for `confluence-page`.',
      'The `plugin_installation` and `error_handling` suites test installation and error messages, not routing: dropped.',
    ],
    parse(_read, _files, text) {
      const src = 'tests/e2e/test_cases.yaml';
      const doc = yaml.load(text(src));
      const rows = [];
      for (const [suite, body] of Object.entries(doc.suites)) {
        for (const t of body.tests) {
          if (!suite.startsWith('confluence_')) {
            rows.push({ id: t.id, source: src, drop: `suite ${suite} tests installation or errors, not routing` });
            continue;
          }
          const skill = t.id === 'routing_test' ? 'confluence-page' : suite.replace(/_/g, '-');
          rows.push({ id: t.id, query: t.prompt, skills: [skill], source: src, extra: { suite } });
        }
      }
      return rows;
    },
  },
];
