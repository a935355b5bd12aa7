/**
 * Judging a routing test against a ranking: which skills its references mean, and whether they
 * ranked where the test requires. `skill-router check` and the query panel's "Save as routing
 * test" both judge with this, so a test that passes in the panel passes in CI.
 */

/** N of "in the top N" for a test without `top`, when the config sets none. */
export const DEFAULT_TEST_TOP = 5;

/** How deep a test's request is ranked: past N, so a miss can say where the skill ranked. */
export const testDepth = (topN: number): number => Math.max(topN, 10);

/** What judging needs of a skill. */
export interface SkillRef {
  id: string;
  name: string;
}

/** What a routing test asks of a ranking. */
export interface RoutingExpectation {
  /** Skill names or ids that must rank in the top N. */
  expect: readonly string[];
  /** Skill names or ids that must not rank in the top N. */
  notExpect: readonly string[];
  /** N; the default when absent. */
  top?: number;
  /** All expected skills within the first |expect| ranks. */
  set: boolean;
  /** No skill of the library should answer: the router must say "no skill fits" (`match: none`). */
  none?: boolean;
}

/** What the router said of the request besides the ranking (absent when it reports no relevance). */
export interface RelevanceVerdict {
  /** `none`: no skill of the library fits. */
  match: 'strong' | 'weak' | 'none';
  /** The ranked skills judged relevant. */
  relevant: ReadonlySet<string>;
}

/** The verdict of a route result's relevance, or undefined when it reports none. */
export function relevanceVerdict(result: { match?: 'strong' | 'weak' | 'none'; candidates: readonly { skillId: string; relevant?: boolean }[] }): RelevanceVerdict | undefined {
  return result.match ? { match: result.match, relevant: new Set(result.candidates.filter((c) => c.relevant !== false).map((c) => c.skillId)) } : undefined;
}

/** The verdict on one test. */
export interface Judgement {
  /** The N the test was judged with. */
  topN: number;
  passed: boolean;
  /** Why it failed; empty when it passed. */
  problems: string[];
  /** Ids of the first N ranked skills. */
  ranked: string[];
}

/**
 * The skills a test's reference means: the skill with that id; else every skill with that name
 * (case-insensitive; copies in several collections share one); else every skill whose folder
 * name is that. Empty when none.
 */
export function resolveSkillRef(ref: string, skills: readonly SkillRef[]): SkillRef[] {
  const byId = skills.filter((s) => s.id === ref);
  if (byId.length) return byId;
  const lower = ref.toLowerCase();
  const byName = skills.filter((s) => s.name.toLowerCase() === lower);
  if (byName.length) return byName;
  return skills.filter((s) => (s.id.split('/').pop() ?? '').toLowerCase() === lower);
}

const rankedSkills = (n: number) => `${n} ranked ${n === 1 ? 'skill' : 'skills'}`;

/**
 * Judges one test against a ranking (ids, best first, ideally longer than N so a miss can say
 * where the skill ranked). Passes when every expected skill is in the top N (with `set`, within
 * the first |expect| ranks) and no `notExpect` skill is in the top N; with the router's relevance,
 * a `notExpect` skill it judges not relevant is not chosen, and `none: true` passes only when it
 * says no skill fits. A reference that several skills share (a name) is satisfied by its
 * best-ranked one, and violated by any of them.
 */
export function judgeExpectation(
  test: RoutingExpectation,
  ranking: readonly string[],
  skills: readonly SkillRef[],
  defaultTop = DEFAULT_TEST_TOP,
  verdict?: RelevanceVerdict,
): Judgement {
  const topN = test.top ?? defaultTop;
  const problems: string[] = [];
  const rankOf = (ref: SkillRef[]): number | undefined => {
    const ranks = ref.map((s) => ranking.indexOf(s.id)).filter((r) => r >= 0);
    return ranks.length ? Math.min(...ranks) + 1 : undefined;
  };
  const where = (rank: number | undefined): string =>
    rank !== undefined ? `it ranked ${rank}` : ranking.length === 0 ? 'no skill was ranked' : `it is not among the ${rankedSkills(ranking.length)}`;
  const window = test.set ? test.expect.length : topN;
  for (const ref of test.expect) {
    const found = resolveSkillRef(ref, skills);
    if (!found.length) {
      problems.push(`"${ref}" is not a skill of this library`);
      continue;
    }
    const rank = rankOf(found);
    if (rank === undefined || rank > window) {
      problems.push(
        test.set
          ? `expected "${ref}" within the first ${window} (the size of the set), but ${where(rank)}`
          : `expected "${ref}" in the top ${window}, but ${where(rank)}`,
      );
    }
  }
  for (const ref of test.notExpect) {
    const found = resolveSkillRef(ref, skills);
    if (!found.length) {
      problems.push(`"${ref}" is not a skill of this library`);
      continue;
    }
    const chosen = verdict ? found.filter((s) => verdict.match !== 'none' && verdict.relevant.has(s.id)) : found;
    const rank = rankOf(chosen);
    if (rank !== undefined && rank <= topN) problems.push(`expected "${ref}" outside the top ${topN}${verdict ? ' (or judged not relevant)' : ''}, but it ranked ${rank}${verdict ? ' as relevant' : ''}`);
  }
  if (test.none) {
    if (!verdict) problems.push('"none: true" needs the router\'s relevance (run with rerank on and the built-in reranker)');
    else if (verdict.match !== 'none') {
      const first = ranking.find((id) => verdict.relevant.has(id));
      problems.push(`expected no skill to fit, but ${first ? `"${first}" was judged relevant (match: ${verdict.match})` : `the match was ${verdict.match}`}`);
    }
  }
  return { topN, passed: problems.length === 0, problems, ranked: ranking.slice(0, topN) };
}
