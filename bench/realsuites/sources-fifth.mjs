/**
 * Library entries of bench/realsuites/convert.mjs (whose comment gives their format): the fifth
 * collection, fresh5 (ixingchen, wenyao, paper-repro, openscience, bolna).
 */
import { arr } from './sourceHelpers.mjs';

export const FIFTH = [
  {
    name: 'ixingchen',
    repo: 'IIXINGCHEN/ai-agent-skills',
    commit: '18714252c72cabb8d5a2ae14a8739dff026e5874',
    skillLang: 'en',
    tests: ['evals/route_cases.json', 'evals/trigger_cases.json', 'evals/adversarial_route_cases.json', 'evals/no_route_cases.json', 'evals/blocked_cases.json'],
    rules: [
      'Library: every `agent-skills/<skill>/SKILL.md` (25, the skills of `manifest.json`), a coding-agent lifecycle set (discovery, planning, execution, reviews, readiness gates).',
      'The authors\' runner `scripts/route-validate.py` reads every `evals/*.json` case with an `input`, asks its router for a `route` (one skill or `no_route`) plus `supporting_skills`, and fails a case whose `expected_route` differs from the route, whose `expected_skills` are not all among route ∪ supporting skills, whose `expected: "no_route"` got a route, or that selected one of `must_not_route` (schema in `evals/README.md`).',
      '`evals/route_cases.json` (`{input, expected_route}`): a skill → positive (k=1); `no_route` → negative `not: []`. Ids `route#N` by position.',
      '`evals/trigger_cases.json` (`{input, expected_skills}`): positive requiring all of `expected_skills` (k=1 to 6: the primary route and its supporting skills). Ids `trigger#N`.',
      '`evals/adversarial_route_cases.json` (`{input, expected_route, must_not_route?, expected_mode?, expected_output?, reason?}`): a skill → positive (k=1) with `must_not_route` as `not`; `no_route` → negative `not: []`. `expected_mode`, `expected_output` and `must_not_route` (on the negative) kept. Ids `adversarial#N`.',
      '`evals/no_route_cases.json` (`{input, expected}`): `expected: "no_route"` → negative `not: []` (ids `no_route#N`). The one case with `expected: "no_route_or_focused_task_only"` is not checked by the runner (it tests only `"no_route"`) and allows either outcome: dropped.',
      '`evals/blocked_cases.json` (`{input, expected_output: "blocked", required_reason}`) states the safe output (stop and say why), not a route: dropped. `evals/output_contract_cases.json` has no requests: not used.',
      'Descriptions are English; requests are English or Chinese (the Chinese ones get direction `zh2en`).',
    ],
    parse(read) {
      const rows = [];
      const r = 'evals/route_cases.json';
      read(r).forEach((c, i) => {
        const id = `route#${i + 1}`;
        rows.push(c.expected_route === 'no_route' ? { id, query: c.input, not: [], source: r } : { id, query: c.input, skills: [c.expected_route], source: r });
      });
      const t = 'evals/trigger_cases.json';
      read(t).forEach((c, i) => rows.push({ id: `trigger#${i + 1}`, query: c.input, skills: c.expected_skills, source: t }));
      const a = 'evals/adversarial_route_cases.json';
      read(a).forEach((c, i) => {
        const id = `adversarial#${i + 1}`;
        const extra = { ...(c.expected_mode ? { expected_mode: c.expected_mode } : {}), ...(c.expected_output ? { expected_output: c.expected_output } : {}) };
        if (c.expected_route === 'no_route') rows.push({ id, query: c.input, not: [], source: a, extra: { ...extra, ...(c.must_not_route ? { must_not_route: c.must_not_route } : {}) } });
        else rows.push({ id, query: c.input, skills: [c.expected_route], not: arr(c.must_not_route), source: a, extra });
      });
      const n = 'evals/no_route_cases.json';
      read(n).forEach((c, i) => {
        const id = `no_route#${i + 1}`;
        rows.push(c.expected === 'no_route' ? { id, query: c.input, not: [], source: n } : { id, source: n, drop: `expected "${c.expected}" (not checked by the runner; either no route or a focused task)` });
      });
      const b = 'evals/blocked_cases.json';
      read(b).forEach((_c, i) => rows.push({ id: `blocked#${i + 1}`, source: b, drop: 'blocked-output case: states the safe output, not a route' }));
      return rows;
    },
  },
  {
    name: 'wenyao',
    repo: 'ImWenyaoT/skills',
    commit: '20efd67bcd7b4063a0d623863d57fcee91e2ae5d',
    skillLang: 'en',
    skillRoot: /^skills\/[^/]+\/SKILL\.md$/,
    tests: ['evals/trigger_cases.json'],
    rules: [
      'Library: `skills/<skill>/SKILL.md` (19), the set `scripts/evaluate_skill_triggers.py` loads (`SKILLS_ROOT` children). The two sub-skills nested in the `offer-magic` bundle (`skills/offer-magic/grill-resume`, `skills/offer-magic/grill-interview`) are not in it: left out.',
      '`evals/trigger_cases.json` ("golden prompts ... the expected trigger contract"; `cases: [{id, prompt, expected_skills, forbidden_skills, notes}]`; the runner fails a case whose top skill is not expected, whose top skill is forbidden, or that names no expected skill yet gets a confident match): `expected_skills` (always one here) → positive with `forbidden_skills` as `not`; `expected_skills: []` (the runner\'s "abstain" cases) → negative `not: []`, `forbidden_skills` kept. `notes` kept.',
      '`skills/offer-magic/evals/trigger-cases.json` (the bundle\'s own check, `validate-bundle.py`, routing between `offer-magic` and its nested sub-skills; its `expected_skill: null` near misses are resume or interview requests outside that bundle) is not used, as the nested sub-skills are not in the library.',
      'Descriptions are English; seven carry Chinese trigger phrases. Requests are English or Chinese: Chinese ones get direction `zh2en`.',
    ],
    parse(read) {
      const src = 'evals/trigger_cases.json';
      return read(src).cases.map((c) =>
        c.expected_skills.length
          ? { id: c.id, query: c.prompt, skills: c.expected_skills, not: c.forbidden_skills, source: src, extra: { notes: c.notes } }
          : { id: c.id, query: c.prompt, not: [], source: src, extra: { forbidden_skills: c.forbidden_skills, notes: c.notes } },
      );
    },
  },
  {
    name: 'paper-repro',
    repo: 'lllllllama/ai-paper-reproduction-skills',
    commit: 'bb3b006f3da8accf0ac8f33c346ad9840ffcfa64',
    skillLang: 'en',
    tests: ['tests/trigger_cases.json'],
    rules: [
      'Library: every `skills/<skill>/SKILL.md` (11: reproducing and exploring AI research repositories, environment setup, training runs, debugging).',
      '`tests/trigger_cases.json` (`cases: [{id, type, prompt, expected_any, expected_top, forbidden}]`, run by `scripts/test_trigger_boundaries.py`, which fails a case when none of `expected_any` triggers, when the top skill is not `expected_top`, or when a `forbidden` skill triggers): `type` `positive` or `boundary` → positive for `expected_top` (k=1; `expected_any` is the same single skill in every case) with `forbidden` as `not`. `type` kept.',
      '`type: negative` (`expected_any: []`, `expected_top: null`) → negative `not: <forbidden>`: the runner checks only that none of the listed skills (7 to 10 of the 11) triggers, so the unlisted ones are not ruled out and these are not `not: []` requests.',
      'Descriptions are English; a few requests are Chinese (direction `zh2en`).',
    ],
    parse(read) {
      const src = 'tests/trigger_cases.json';
      return read(src).cases.map((c) =>
        c.type === 'negative'
          ? { id: c.id, query: c.prompt, not: c.forbidden, source: src, extra: { type: c.type } }
          : { id: c.id, query: c.prompt, skills: [c.expected_top], not: c.forbidden, source: src, extra: { type: c.type } },
      );
    },
  },
  {
    name: 'openscience',
    repo: 'Hylouis233/openscience',
    commit: 'fee2bde6ac7296ae98dadeff2e900c992ec37a85',
    skillLang: 'zh',
    tests: ['evals/trigger-cases.json'],
    rules: [
      'Library: every `plugins/<plugin>/skills/<skill>/SKILL.md` (28 skills of six research-workbench plugins: core, literature, data, compute, epidemiology, verification), Chinese descriptions.',
      '`evals/trigger-cases.json` (`cases: [{id, utterance, expected_plugin, expected_skill, should_trigger, note?}]`; `evals/README.md` defines the judgement, run by hand or by a user-supplied harness): `should_trigger: true` → positive for `expected_skill` (top-1 must hit it, k=1).',
      '`should_trigger: false` are near misses: the README says the trap skill named in `note` must not trigger and, when `expected_skill` is set, that better skill must be hit → positive for `expected_skill`, with `not` = the library skills the note names other than `expected_skill` when it names exactly one (20 of the 21; `os-073`\'s note names two, one being a later step of the chain rather than the trap, so it gets no `not`). `note` kept. `expected_skill: null` ("no skill of this repository should trigger") → negative `not: []`.',
      '`expected_plugin` kept.',
    ],
    parse(read, list) {
      const ids = list().filter((f) => /^plugins\/[^/]+\/skills\/[^/]+\/SKILL\.md$/.test(f)).map((f) => f.split('/')[3]);
      const src = 'evals/trigger-cases.json';
      return read(src).cases.map((c) => {
        const extra = { expected_plugin: c.expected_plugin, ...(c.note ? { note: c.note } : {}) };
        if (c.expected_skill === null) return { id: c.id, query: c.utterance, not: [], source: src, extra };
        const named = c.should_trigger ? [] : ids.filter((s) => s !== c.expected_skill && new RegExp(`(^|[^a-z-])${s}($|[^a-z-])`).test(c.note ?? ''));
        return { id: c.id, query: c.utterance, skills: [c.expected_skill], not: named.length === 1 ? named : [], source: src, extra };
      });
    },
  },
  {
    name: 'bolna',
    repo: 'bolna-ai/skills',
    commit: '28b24aa504389ec69584301ea32545946e256409',
    skillLang: 'en',
    tests: ['evals/trigger_cases.json'],
    rules: [
      'Library: every `<skill>/SKILL.md` (19 skills for the Bolna voice-agent platform: agents, calls, batches, phone numbers, SIP, webhooks, ...).',
      '`evals/trigger_cases.json` (`[{skill, queries}]`, checked by `evals/run_all.py`, which requires each query to share a trigger term with its skill\'s SKILL.md): each query → positive for `skill` (k=1), ids `<skill>#N` by position. Six skills have three queries each; there are no negatives.',
    ],
    parse(read) {
      const src = 'evals/trigger_cases.json';
      return read(src).flatMap((c) => c.queries.map((q, i) => ({ id: `${c.skill}#${i + 1}`, query: q, skills: [c.skill], source: src })));
    },
  },
];
