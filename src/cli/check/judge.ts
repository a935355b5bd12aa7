/** Judging `check`'s routing tests: the shared rules of core/eval/routingTest.ts, with each test's file and line. */
import { judgeExpectation, type Judgement, type RelevanceVerdict, type SkillRef } from '../../core/eval/routingTest';
import { DEFAULT_TOP } from './config';
import type { RoutingTest } from './routingTests';

export { relevanceVerdict, resolveSkillRef, type RelevanceVerdict, type SkillRef } from '../../core/eval/routingTest';

export interface TestOutcome extends RoutingTest, Judgement {}

/** Judges one test against a ranking (ids, best first) and the router's relevance; see `judgeExpectation`. */
export function judgeTest(test: RoutingTest, ranking: readonly string[], skills: readonly SkillRef[], defaultTop = DEFAULT_TOP, verdict?: RelevanceVerdict): TestOutcome {
  return { ...test, ...judgeExpectation(test, ranking, skills, defaultTop, verdict) };
}
