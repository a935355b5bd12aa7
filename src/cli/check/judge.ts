/** Judging a routing test against a ranking: which references it names, and whether they ranked where required. */
import { plural } from '../io';
import { DEFAULT_TOP } from './config';
import type { RoutingTest } from './routingTests';

/** What test judging needs of a skill. */
export interface SkillRef {
  id: string;
  name: string;
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

export interface TestOutcome extends RoutingTest {
  /** The N the test was judged with. */
  topN: number;
  passed: boolean;
  /** Why it failed; empty when it passed. */
  problems: string[];
  /** Ids of the first N ranked skills. */
  ranked: string[];
}

/** What the router said of the request besides the ranking (absent when it reports no relevance). */
export interface RelevanceVerdict {
  /** `none`: no skill of the library fits. */
  match: 'strong' | 'weak' | 'none';
  /** The ranked skills judged relevant. */
  relevant: ReadonlySet<string>;
}

/**
 * Judges one test against a ranking (ids, best first, ideally longer than N so a miss can say
 * where the skill ranked). Passes when every expected skill is in the top N (with `set`, within
 * the first |expect| ranks) and no `notExpect` skill is in the top N; with the router's relevance,
 * a `notExpect` skill it judges not relevant is not chosen, and `none: true` passes only when it
 * says no skill fits. A reference that several skills share (a name) is satisfied by its
 * best-ranked one, and violated by any of them.
 */
export function judgeTest(
  test: RoutingTest,
  ranking: readonly string[],
  skills: readonly SkillRef[],
  defaultTop = DEFAULT_TOP,
  verdict?: RelevanceVerdict,
): TestOutcome {
  const topN = test.top ?? defaultTop;
  const problems: string[] = [];
  const rankOf = (ref: SkillRef[]): number | undefined => {
    const ranks = ref.map((s) => ranking.indexOf(s.id)).filter((r) => r >= 0);
    return ranks.length ? Math.min(...ranks) + 1 : undefined;
  };
  const where = (rank: number | undefined): string =>
    rank !== undefined
      ? `it ranked ${rank}`
      : ranking.length === 0
        ? 'no skill was ranked'
        : `it is not among the ${plural(ranking.length, 'ranked skill')}`;
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
  return { ...test, topN, passed: problems.length === 0, problems, ranked: ranking.slice(0, topN) };
}
