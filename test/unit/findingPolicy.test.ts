import { strict as assert } from 'node:assert';
import type { PairFinding } from '../../src/core/analysis/types';
import { parseSkill } from '../../src/core/parse/skillDoc';
import { applyFindingPolicy, DEFAULT_FINDING_POLICY, type FindingPolicy } from '../../src/core/policy/findingPolicy';
import type { SkillDoc } from '../../src/core/types';
import { skill } from '../helpers/fakes';

function doc(id: string, text = skill(id, `Clean CSV files for ${id}.`)): SkillDoc {
  return parseSkill({ id, path: `${id}/SKILL.md`, folderName: id }, text, ['spec']);
}

const conflict = (b: string, similarity: number, a = 'csv'): PairFinding => ({
  kind: 'conflict',
  a,
  b,
  similarity,
  reason: 'language_ecosystem_mismatch',
  explanation: 'Different stacks.',
});
const dup = (b: string, a = 'csv'): PairFinding => ({ kind: 'near-duplicate', a, b, similarity: 0.95, explanation: 'Same job.' });

const policy = (threshold: number, maxPerSkill: number): FindingPolicy => ({ conflict: { threshold, maxPerSkill } });

/** `code twin` of each reported finding, in order. */
function report(d: SkillDoc, pairs: PairFinding[], others: SkillDoc[], p: FindingPolicy = DEFAULT_FINDING_POLICY): string[] {
  const byId = new Map([d, ...others].map((x) => [x.id, x]));
  return applyFindingPolicy(d, d.findings, pairs, (id) => byId.get(id), p).map(({ finding, twin }) => `${finding.code}${twin ? ` ${twin.id}` : ''}`);
}

describe('finding policy (core/policy/findingPolicy: the editor and check both apply it)', () => {
  const twins = ['tidy', 'r1', 'r2', 'r3', 'r4'].map((id) => doc(id));

  it('is the editor default: every conflict above 0, the closest 5 per skill', () => {
    assert.deepEqual(DEFAULT_FINDING_POLICY, { conflict: { threshold: 0, maxPerSkill: 5 } });
  });

  it('keeps own findings, all near-duplicates, and the closest maxPerSkill conflicts at or above the threshold, closest first', () => {
    const d = doc('csv', '---\nname: csv\ndescription: Clean CSV.\ncolour: red\n---\n');
    const pairs = [conflict('r1', 0.5), dup('tidy'), conflict('r2', 0.9), conflict('r3', 0.7), conflict('r4', 0.2)];
    assert.deepEqual(report(d, pairs, twins, policy(0.3, 2)), [
      'frontmatter.unknown-key',
      'skill.near-duplicate tidy',
      'skill.conflict r2',
      'skill.conflict r3',
    ]);
    assert.deepEqual(report(d, pairs, twins, policy(0.3, 10)).slice(2), ['skill.conflict r2', 'skill.conflict r3', 'skill.conflict r1']);
    assert.deepEqual(report(d, pairs, twins, policy(0.95, 10)), ['frontmatter.unknown-key', 'skill.near-duplicate tidy']);
  });

  it('puts each pair on the skill it is about, pointing at the twin, and skips pairs of others or with a missing twin', () => {
    const d = doc('csv');
    const [reported] = applyFindingPolicy(d, [], [dup('csv', 'tidy')], (id) => twins.find((t) => t.id === id), DEFAULT_FINDING_POLICY);
    assert.equal(reported.twin?.id, 'tidy');
    assert.equal(reported.finding.related?.[0].skillId, 'tidy');
    assert.match(reported.finding.message, /Near-duplicate of "tidy"/);
    assert.deepEqual(report(d, [dup('r2', 'r1'), dup('gone')], twins), []);
  });

  it('drops what the skill suppresses: codes, twins by metadata, a code about named twins by comment', () => {
    const pairs = [dup('tidy'), conflict('r1', 0.8), conflict('r2', 0.7)];
    const byMetadata = doc('csv', '---\nname: csv\ndescription: Clean CSV.\ncolour: red\nmetadata:\n  skill-router:\n    ignore: [tidy, frontmatter.unknown-key]\n---\n');
    assert.deepEqual(report(byMetadata, pairs, twins), ['skill.conflict r1', 'skill.conflict r2']);
    const byComment = doc('csv', skill('csv', 'Clean CSV.', '<!-- skill-router-ignore skill.conflict r1 -->\n<!-- skill-router-ignore skill.near-duplicate -->'));
    assert.deepEqual(report(byComment, pairs, twins), ['skill.conflict r2']);
    const twinsOnly = doc('csv', skill('csv', 'Clean CSV.', '<!-- skill-router-ignore r2 tidy -->'));
    assert.deepEqual(report(twinsOnly, pairs, twins), ['skill.conflict r1']);
  });

  it('caps conflicts before suppression, as the editor always has: a dismissed conflict keeps its place', () => {
    const d = doc('csv', skill('csv', 'Clean CSV.', '<!-- skill-router-ignore skill.conflict r1 -->'));
    assert.deepEqual(report(d, [conflict('r1', 0.9), conflict('r2', 0.8)], twins, policy(0, 1)), []);
  });

  it('suppression is per skill: the twin still reports the pair', () => {
    const d = doc('csv', skill('csv', 'Clean CSV.', '<!-- skill-router-ignore tidy -->'));
    const tidy = twins[0];
    assert.deepEqual(report(d, [dup('tidy')], [tidy]), []);
    assert.deepEqual(report(tidy, [dup('tidy')], [d]), ['skill.near-duplicate csv']);
  });
});
