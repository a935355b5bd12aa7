/**
 * Two steps of one piece of work, read from two skills' names and descriptions: a step's verb and
 * the next step's (plan, then execute), or a thing one description makes and the other works
 * from (a PRD, a TypeSpec plugin); and two converters the opposite ways. The pair scan's judgement
 * (competition.ts) asks these before it calls two skills one job twice.
 */
import type { SkillDoc } from '../types';
import { firstSentence } from './facets';

/**
 * Verbs of a step and of the step that follows it ("plan" then "execute"): two skills whose names
 * or first sentences split such a pair are a sequence, not one job twice.
 */
const STEPS: readonly (readonly [RegExp, RegExp, string, string])[] = [
  [/\bplan(?:s|ning)?\b/i, /\b(?:execut|implement)\w*/i, 'plan', 'execute'],
  // writing-plans, executing-plans: both name the plan, the verbs set the steps apart.
  [/\bwrit(?:e|es|ing)\b/i, /\bexecut\w*/i, 'write', 'execute'],
  [/\bdesign(?:s|ing)?\b/i, /\bimplement\w*/i, 'design', 'implement'],
  [/\b(?:spec|specs|specify|specification)\b/i, /\bimplement\w*/i, 'specify', 'implement'],
  [/\bbrainstorm\w*/i, /\bplan(?:s|ning)?\b/i, 'brainstorm', 'plan'],
  [/\b(?:write|writing|draft\w*)\b/i, /\b(?:review\w*|publish\w*)/i, 'write', 'review'],
  [/\bsav(?:e|es|ing)\b|\bcheckpoint\w*/i, /\b(?:restor\w*|resum\w*)/i, 'save', 'restore'],
  [/\bbackup\w*|\bback up\b/i, /\brestor\w*/i, 'back up', 'restore'],
  [/\bbuild(?:s|ing)?\b/i, /\bdeploy\w*/i, 'build', 'deploy'],
  [/\brecord\w*/i, /\breplay\w*/i, 'record', 'replay'],
  [/\bexport\w*/i, /\bimport\w*/i, 'export', 'import'],
  [/\bencod\w*/i, /\bdecod\w*/i, 'encode', 'decode'],
  [/\bstart(?:s|ing)?\b/i, /\bfinish\w*/i, 'start', 'finish'],
  [/\b(?:research\w*|collect\w*|gather\w*)/i, /\banaly[sz]\w*/i, 'collect', 'analyse'],
  [/(?:计划|规划)/u, /(?:执行|实施)/u, '计划', '执行'],
  [/(?:保存|存档)/u, /(?:恢复|还原)/u, '保存', '恢复'],
  [/(?:设计)/u, /(?:实现|开发)/u, '设计', '实现'],
];

/**
 * Whether two skills are steps of one piece of work, and which comes first: one's name or first
 * sentence has a step's verb the other's lacks, and the other has the following step's verb the
 * first lacks (context-save, context-restore; writing-plans, executing-plans).
 */
export function sequenceOf(x: Pick<SkillDoc, 'id' | 'name' | 'description'>, y: Pick<SkillDoc, 'id' | 'name' | 'description'>): { first: string; then: string; words: [string, string] } | null {
  const text = (d: Pick<SkillDoc, 'name' | 'description'>) => `${d.name.replace(/[-_]+/g, ' ')} ${firstSentence(d.description)}`;
  const tx = text(x);
  const ty = text(y);
  for (const [before, after, w1, w2] of STEPS) {
    if (before.test(tx) && !before.test(ty) && after.test(ty) && !after.test(tx)) return { first: x.id, then: y.id, words: [w1, w2] };
    if (before.test(ty) && !before.test(tx) && after.test(tx) && !after.test(ty)) return { first: y.id, then: x.id, words: [w1, w2] };
  }
  return null;
}

/** A noun phrase of up to four words after an article (the thing one step hands to the next). */
const THING = String.raw`((?:[\p{L}\p{N}.+#-]+\s+){0,4}[\p{L}\p{N}.+#-]+)`;
/** Where a description says what a skill works from: "based on a PRD", "translate a screenplay", "add operations to a plugin". */
const TAKES = [
  new RegExp(String.raw`\b(?:from|based on|given|out of)\s+${THING}`, 'giu'),
  new RegExp(String.raw`\b(?:translat|convert|turn|transform)\w*\s+${THING}`, 'giu'),
  new RegExp(String.raw`\b(?:add|adds|adding|append\w*|insert\w*|extend\w*)\b[^.;]{0,50}?\bto\s+${THING}`, 'giu'),
  new RegExp(String.raw`\bwhen you (?:already )?have\s+${THING}`, 'giu'),
];
/** Where it says what a skill makes: "generate a TypeSpec API plugin", "identify threats", "into a storyboard". */
const MAKES = [
  new RegExp(String.raw`\b(?:generat|creat|produc|writ|draft|scaffold|deriv|extract|identif)\w*\s+${THING}`, 'giu'),
  new RegExp(String.raw`\binto\s+${THING}`, 'giu'),
  // A converter makes what it converts to: "Convert Markdown files to Word (.docx) documents".
  new RegExp(String.raw`\b(?:convert|translat|turn|transform|export)\w*\s+[^.;:]{1,60}?\s+to\s+${THING}`, 'giu'),
];
/** Words that open or fill a noun phrase without naming the thing. */
const THING_FILLER = new Set(['a', 'an', 'the', 'your', 'my', 'our', 'its', 'their', 'this', 'that', 'existing', 'new', 'one', 'each', 'any', 'all']);
/** Words that close a noun phrase: what follows is no longer the thing. */
const THING_END = new Set(['of', 'for', 'to', 'and', 'or', 'with', 'in', 'on', 'by', 'as', 'that', 'which', 'from', 'into', 'when', 'using', 'via']);
/** Things every skill takes or makes: they say nothing of a hand-off. */
const THING_GENERIC = new Set(['skill', 'task', 'code', 'user', 'request', 'data', 'file', 'output', 'result', 'project', 'work', 'content', 'text']);

/** The things (their analysed terms, and the words as written) a description says a skill takes or makes. */
function thingsOf(description: string, patterns: readonly RegExp[], analyser: (text: string) => string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const re of patterns) {
    for (const m of description.matchAll(re)) {
      const words: string[] = [];
      for (const w of m[1].split(/\s+/)) {
        const lower = w.toLowerCase();
        if (THING_END.has(lower) || words.length === 4) break;
        if (!words.length && THING_FILLER.has(lower)) continue;
        words.push(w.replace(/[.,;:!?]+$/u, ''));
        if (/[.,;:!?]$/u.test(w)) break;
      }
      const surface = words.join(' ');
      for (const t of analyser(surface)) if (!THING_GENERIC.has(t) && !out.has(t)) out.set(t, surface);
    }
  }
  return out;
}

/**
 * Two steps joined by what one hands to the other: one description says it makes a thing
 * ("Generate a TypeSpec API plugin", "creating an Epic Product Requirements Document") that the
 * other says it works from ("Add operations to a TypeSpec API plugin", "based on a Product
 * Requirements Document"), and not the other way round. Null when both make it, both take it, or
 * each hands something to the other.
 */
export function handOffOf(
  x: Pick<SkillDoc, 'id' | 'description'>,
  y: Pick<SkillDoc, 'id' | 'description'>,
  analyser: (text: string) => string[],
  hands: HandOffs = handOffs(x, y, analyser),
): { first: string; then: string; words: [string, string] } | null {
  const { xy, yx, mx, my } = hands;
  if (xy.length === yx.length || (xy.length && yx.length)) return null;
  const [first, then, terms, makes] = xy.length ? [x, y, xy, mx] : [y, x, yx, my];
  const thing = makes.get(terms[0])!;
  return { first: first.id, then: then.id, words: [`make the ${thing}`, `work from the ${thing}`] };
}

/** What each of two descriptions makes that the other says it works from (terms), and what each makes. */
export type HandOffs = { xy: string[]; yx: string[]; mx: Map<string, string>; my: Map<string, string> };

export function handOffs(x: Pick<SkillDoc, 'description'>, y: Pick<SkillDoc, 'description'>, analyser: (text: string) => string[]): HandOffs {
  const tx = thingsOf(x.description, TAKES, analyser);
  const mx = thingsOf(x.description, MAKES, analyser);
  const ty = thingsOf(y.description, TAKES, analyser);
  const my = thingsOf(y.description, MAKES, analyser);
  const handed = (makes: Map<string, string>, ownTakes: Map<string, string>, takes: Map<string, string>, ownMakes: Map<string, string>) =>
    [...makes.keys()].filter((t) => takes.has(t) && !ownTakes.has(t) && !ownMakes.has(t));
  return { xy: handed(mx, tx, ty, my), yx: handed(my, ty, tx, mx), mx, my };
}

/**
 * Whether two skills work the opposite ways: each makes what the other works from (Word to
 * Markdown and Markdown to Word; a storyboard from a screenplay and a screenplay from a
 * storyboard). Two jobs, each description saying its direction: not one job to merge.
 */
export function oppositeWays(
  x: Pick<SkillDoc, 'description'>,
  y: Pick<SkillDoc, 'description'>,
  analyser: (text: string) => string[],
  hands: HandOffs = handOffs(x, y, analyser),
): boolean {
  const { xy, yx } = hands;
  return xy.length > 0 && yx.length > 0;
}
