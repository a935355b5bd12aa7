/**
 * Probe requests for a skill that has no routing tests or trigger evals of its own, written from
 * its BODY: "use when" clauses, section headings and prose sentences. Not from the description:
 * the listing an agent chooses from is the name and the description, so requests written from the
 * description would find the skill there by construction, and reach would measure nothing.
 *
 * Deterministic for a skill and a seed (the PRNG is the reranker training's), so `reach` reports
 * the same numbers run after run and its cache can key on the text alone.
 */
import { fragments, prng } from '../route/rerankTraining';
import { hasCjk } from '../text/analyse';
import { cleanMarkdown } from '../text/passages';
import type { SkillDoc } from '../types';
import type { ReachRequest } from './measure';

export interface ProbeOptions {
  /** Probe requests per skill. */
  count: number;
  seed: number;
}

export const DEFAULT_PROBES: ProbeOptions = { count: 3, seed: 22 };

/** Openers for a verb phrase ("bind EditForm models"), and for a noun phrase or a gerund ("Blazor forms", "building ..."). */
const OPENERS = {
  verb: ['', '', 'I need to ', 'Can you help me ', 'How do I ', 'Help me ', 'We want to '],
  noun: ['', '', 'Help with ', 'Question about ', 'I need help with ', 'Can you help with '],
  zh: ['', '', '帮我', '我想', '怎么', '我们需要'],
};
/** A "use when" lead-in at the start of a sentence, left out of the request. */
const LEAD_IN = /^(?:use (?:this skill |it )?(?:when(?: the user| you)?|for|to)|when (?:the user|you) (?:needs?|wants?|asks?) to|triggers? (?:on|when))\s*[:,]?\s*/i;

/** "Use when ...", "Use this skill to ...", "Triggers on ..." in the body: what the author says it answers. */
const USE_WHEN = /(?:^|[.!?;:]\s+|\n)\s*(?:[-*]\s+)?(?:use (?:this skill |it )?(?:when(?: the user| you)?|for|to)|when (?:the user|you) (?:needs?|wants?|asks?) to|triggers? (?:on|when))\s*[:,]?\s*([^.\n!?]{12,200})/gi;
/** A heading that introduces a list of uses. */
const USES_HEADING = /^\s{0,3}#{1,6}\s+(?:when to use|use cases?|when to (?:load|apply|invoke)|triggers?|use (?:it |this skill )?(?:when|for))\b/i;

/** The sentences and clauses of a body a request could paraphrase, by kind. */
export interface BodyFragments {
  /** "Use when" clauses and the bullets under a "When to use" heading. */
  uses: string[];
  /** Section headings that name a job (generic ones such as "Overview" left out). */
  headings: string[];
  /** Prose sentences of 6 to 30 words (no tables, code or headings). */
  sentences: string[];
}

/** What a body offers to write requests from. */
export function bodyFragments(body: string): BodyFragments {
  const uses = new Set<string>();
  const sentences: string[] = [];
  const lines = body.split('\n');
  let inFence = false;
  let underUses = false;
  const prose: string[] = [];
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    if (/^\s{0,3}#{1,6}\s/.test(line)) {
      underUses = USES_HEADING.test(line);
      prose.push('');
      continue;
    }
    const bullet = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (underUses && bullet) {
      const text = clean(bullet[1]);
      if (text.length >= 12) uses.add(text);
      continue;
    }
    // Tables and front-matter-like lines are lists of words, not requests.
    if (/^\s*\|/.test(line) || /^\s*[\w-]+:\s*$/.test(line)) {
      prose.push('');
      continue;
    }
    prose.push(bullet ? bullet[1] : line);
  }
  const text = prose.join('\n');
  for (const m of text.matchAll(USE_WHEN)) {
    const clause = clean(m[1]);
    if (clause.length >= 12) uses.add(clause);
  }
  for (const para of text.split(/\n\s*\n|\n(?=\S)/)) {
    for (const raw of clean(para).split(/(?<=[.!?。！？])\s+/u)) {
      const s = raw.replace(/[.!?。！？]+$/u, '').replace(LEAD_IN, '').trim();
      const words = hasCjk(s) ? Math.ceil(s.length / 3) : s.split(/\s+/).length;
      if (words >= 6 && words <= 30 && !/^(?:see|note|example|e\.g\.)\b/i.test(s)) sentences.push(s);
    }
  }
  const heads = fragments({ description: '', body } as SkillDoc).headings;
  return { uses: [...uses].slice(0, 12), headings: heads, sentences: [...new Set(sentences)].slice(0, 40) };
}

function clean(text: string): string {
  return cleanMarkdown(text).replace(/\s+/g, ' ').trim();
}

/** A 32-bit FNV-1a of the text, to seed each skill's PRNG from its id. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function pick<T>(rand: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)];
}

/** Drops words at `rate` (Latin text), keeping at least four. */
function dropWords(rand: () => number, text: string, rate: number): string {
  if (hasCjk(text)) return text;
  const words = text.split(/\s+/);
  const kept = words.filter(() => rand() >= rate);
  return (kept.length >= 4 ? kept : words.slice(0, Math.min(words.length, 6))).join(' ');
}

/** What removes the words of a skill's name from a text (null: no word long enough), compiled once per skill. */
function namePattern(name: string): RegExp | null {
  const words = name.split(/[-_\s]+/).filter((w) => w.length >= 3).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return words.length ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join('|')})(?![\\p{L}\\p{N}])`, 'giu') : null;
}

/** The text without the words of the skill's name: a user rarely names the skill. */
function withoutName(text: string, pattern: RegExp | null): string {
  const out = pattern ? text.replace(pattern, '') : text;
  return out.replace(/\s{2,}/g, ' ').replace(/^[\s,;:-]+/, '').trim();
}

/**
 * Up to `count` probe requests for `doc`, from its body: a "use when" clause, a heading with a
 * sentence of its section's kind, or a sentence, each with words dropped, the skill's name left
 * out and a request opener. Empty when the body has nothing to write from.
 */
export function probeRequests(doc: Pick<SkillDoc, 'id' | 'name' | 'body'>, opts: ProbeOptions = DEFAULT_PROBES): string[] {
  const f = bodyFragments(doc.body);
  const rand = prng(opts.seed ^ hash(doc.id));
  const name = namePattern(doc.name);
  const zh = hasCjk(`${f.headings.join('')}${f.sentences.slice(0, 3).join('')}`);
  const out = new Set<string>();
  const kinds = ['uses', 'heading', 'sentence'] as const;
  for (let attempt = 0; out.size < opts.count && attempt < opts.count * 4; attempt++) {
    const kind = kinds[attempt % kinds.length];
    let text: string | null = null;
    let noun = false;
    if (kind === 'uses' && f.uses.length) text = pick(rand, f.uses);
    else if (kind === 'heading' && f.headings.length) {
      const heading = pick(rand, f.headings);
      noun = true;
      text = f.sentences.length && rand() < 0.6 ? `${heading}${zh ? '，' : ': '}${pick(rand, f.sentences)}` : heading;
    } else if (f.sentences.length) text = pick(rand, f.sentences);
    if (!text) continue;
    text = withoutName(dropWords(rand, text, 0.1 + rand() * 0.25), name).replace(/[.。]+$/u, '');
    if (/^\p{L}+ing\b/iu.test(text)) noun = true;
    if (!zh && rand() < 0.6) text = text.charAt(0).toLowerCase() + text.slice(1);
    const query = `${pick(rand, OPENERS[zh ? 'zh' : noun ? 'noun' : 'verb'])}${text}${zh ? '。' : '.'}`.replace(/\s{2,}/g, ' ').trim();
    if ((zh ? query.length >= 6 : query.split(/\s+/).length >= 3) && query.length <= 400) out.add(query);
  }
  return [...out];
}

/**
 * The requests `reach` routes: the labelled ones (tests, evals, a query file), and probe
 * requests for every skill that has none.
 */
export function withProbes(docs: readonly Pick<SkillDoc, 'id' | 'name' | 'body'>[], labelled: readonly ReachRequest[], opts: ProbeOptions = DEFAULT_PROBES): ReachRequest[] {
  const covered = new Set(labelled.flatMap((r) => r.expect));
  const out = [...labelled];
  for (const doc of docs) {
    if (covered.has(doc.id)) continue;
    for (const query of probeRequests(doc, opts)) out.push({ query, source: 'probe', expect: [doc.id] });
  }
  return out;
}
