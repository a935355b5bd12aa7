/**
 * Probe requests: what a user might type to get one skill, written from the skill's own text the
 * way the reranker's training requests are (`fragments`: description sentences with their "use
 * when" openers dropped, and the body's section headings), and the author's own routing tests and
 * trigger evals, which come first. The pair findings route them over the library and read which
 * other skills they reach.
 *
 * Probes are whole clauses or whole words: a request shown to an author as evidence is never cut
 * in the middle of a word. The skill's own name is left out (a request rarely names the skill, and
 * a name match would make every probe find its own skill first).
 */
import { fragments, SENTENCE_END } from '../route/rerankTraining';
import { hasCjk } from '../text/analyse';
import type { SkillDoc } from '../types';
import type { AuthoredRequest, ProbeSource } from './types';

/** A probe request and where it comes from. */
export interface Probe {
  query: string;
  source: ProbeSource;
}

/** Longest probe written from a description, in words (CJK: characters / 2). */
const MAX_WORDS = 24;
/** Shortest probe worth routing, in words (CJK: characters / 2). */
const MIN_WORDS = 3;

/** Words of a text; a CJK character counts as half a word (two make a word, as jieba splits them). */
export function wordCount(text: string): number {
  if (hasCjk(text)) return Math.ceil(text.replace(/\s+/g, '').length / 2);
  return text.split(/\s+/).filter(Boolean).length;
}

/**
 * `text` without a leading subject that names the skill ("Atheris is a coverage-guided fuzzer"
 * becomes "coverage-guided fuzzer"): a request does not introduce the skill it wants. Words of
 * the name elsewhere stay, so the probe still reads as a sentence.
 */
export function withoutNamedSubject(text: string, name: string): string {
  const words = name.split(/[-_\s]+/).filter((w) => w.length >= 2).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (!words.length) return text;
  const subject = new RegExp(`^(?:the\\s+)?(?:${words.join('|')})(?:[\\s-]+(?:${words.join('|')}))*\\s+(?:is|are|provides|offers)\\s+(?:an?\\s+|the\\s+)?`, 'iu');
  const out = tidy(text.replace(subject, ''));
  return wordCount(out) >= MIN_WORDS ? out : text;
}

/** Headings that name no topic of the skill. */
const NOT_A_TOPIC = /^(?:(?:basic|advanced|simple|common|general|detailed|more|further|additional|other)\s+(?:usage|use|examples?|organization|configuration|options|features|topics|techniques|patterns|notes|tips)|table of contents|contents|toc|目录|核心概念|core concepts?|key concepts?|how it works|(?:core |the )?workflows?|use (?:this skill|it) (?:when|for).*|process|steps?|getting started|quick reference|do not use this skill when|when not to use.*|何时不使用.*|工作流程.*|what (?:this skill|it) does|how to use(?: this skill| it)?|usage|overview|examples?|instructions|notes?|tips|requirements|prerequisites|output(?: format)?|summary|introduction|purpose|when to use.*|quick ?start|installation|setup|troubleshooting|faq|概述|简介|使用方法|用法|示例|注意事项|前提条件?|何时使用.*|功能|功能说明|适用场景|使用场景|快速开始)$/iu;

/**
 * A description sentence about how the skill is invoked or what it needs, or an instruction to the
 * agent, not a job a user asks for ("Accepts optional mode and year arguments", "Requires Python
 * 3.10", "Ask for jurisdiction and company context before advising"): no request says it.
 */
const NOT_A_REQUEST = /^(?:accepts|takes|expects|requires|supports (?:an? )?(?:optional|flags?|arguments?))\b|^(?:arguments?|args|parameters?|options?|flags?|inputs?)\s*:|^(?:always|never|do not|don't|not for|no|not|none|ask (?:for|the user)|make sure|be sure|avoid|prefer)\b|^you (?:are|act as|will act)\b|^(?:triggers?|trigger (?:words?|phrases?)|keywords?|tags?)\s*[:：]|^(?:触发词|关键词|关键字|标签)\s*[:：]|^你是/iu;

/**
 * Openers that say who asks or that a skill is speaking, not what is asked ("the user asks to",
 * "This skill helps you", 当用户需要 … 时使用): a request starts with its job.
 */
const OPENER = /^(?:asks?|wants?|needs?|requests?)\s+(?:to|for|about)\s+|^you\s+(?=\p{Ll})(?!are\b)|^(?:whenever\s+|when\s+)?(?:the\s+)?users?\s+(?:asks?|wants?|needs?|requests?|is asking)\s+(?:to\s+|for\s+|about\s+)?|^(?:you\s+(?:need|want)\s+to|needing\s+to|asked\s+to)\s+|^(?:this|the)\s+skill\s+(?:helps?(?:\s+you)?(?:\s+to)?|lets\s+you|enables(?:\s+you\s+to)?|allows(?:\s+you\s+to)?|provides|offers|is\s+(?:for|used\s+to))\s+|^(?:当|在)?用户(?:需要|想要|想|要求|请求|希望|提到|说|询问)?/iu;
/** Closers of the same kind in Chinese: 时使用 (use when …), 的场景. */
const CLOSER = /(?:的)?时候?(?:使用|调用|触发|激活)(?:此|本|该)?(?:技能)?(?=[。.!！]*$)|的时候(?=[。.!！]*$)|(?:时)?(?:使用|调用|触发)(?:此|本|该)技能(?=[。.!！]*$)/u;

/** A description sentence as a user would ask it: without who asks or what the skill says of itself. */
export function asRequest(sentence: string): string {
  const out = tidy(sentence.replace(OPENER, '').replace(CLOSER, ''));
  return wordCount(out) >= MIN_WORDS ? out : sentence;
}
/** "Use PROACTIVELY for …" says when, as "Use when …" does: what follows is the request. */
const PROACTIVELY = /^use proactively (?:for|when|to)\s*/iu;

/** Whether a heading only repeats the skill's name. */
function sameWords(heading: string, name: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  return norm(heading) === norm(name);
}

/**
 * `text` without a bracket closed that never opened (its text up to there goes: the start of a
 * cut sentence) or left open at its end (from there on: "data (.h5ad" of a cut sentence).
 */
function balanced(text: string): string {
  let out = text;
  for (const [open, close] of [['(', ')'], ['[', ']']] as const) {
    const opened: number[] = [];
    let start = 0;
    for (let i = 0; i < out.length; i++) {
      if (out[i] === open) opened.push(i);
      else if (out[i] === close && opened.pop() === undefined) start = i + 1;
    }
    const end = opened.length ? opened[0] : out.length;
    out = out.slice(start, Math.max(start, end));
  }
  return out;
}

/** `text` with brackets balanced, stray punctuation and extra spaces gone at its ends and inside. */
export function tidy(text: string): string {
  return balanced(text)
    .replace(/\(\s*\)|\[\s*\]/g, ' ')
    .replace(/\s+([,.;:!?，。；：])(?=\s|$)/gu, '$1')
    .replace(/^[\s,.;:，。；：、–—-]+|[\s,;:，；：、–—-]+$/gu, '')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/**
 * A sentence as at most `MAX_WORDS` words: whole clauses while they fit (cut at commas,
 * semicolons and dashes), else the first `MAX_WORDS` whole words.
 */
export function fitSentence(sentence: string): string {
  const s = tidy(sentence.replace(/[.。!！?？]+$/u, ''));
  if (wordCount(s) <= MAX_WORDS) return s;
  const zh = hasCjk(s);
  const clauses = s.split(zh ? /(?<=[，；、])/u : /(?<=[,;])\s+|\s+[–—-]\s+/u);
  let out = '';
  for (const c of clauses) {
    const next = out ? `${out}${zh ? '' : ' '}${c}` : c;
    if (wordCount(next) > MAX_WORDS) break;
    out = next;
  }
  if (out && wordCount(out) >= MIN_WORDS) return tidy(out);
  if (zh) return tidy(s.slice(0, MAX_WORDS * 2).replace(/[，；、][^，；、]*$/u, ''));
  return tidy(s.split(/\s+/).slice(0, MAX_WORDS).join(' '));
}

/** The key two texts share when a template wrote them: lower-cased words and CJK characters only. */
export function templateKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * Up to `max` probe requests for `doc`: the author's requests first, then the description's
 * sentences and a pair of headings, alternating (first sentence, headings, second sentence, ...),
 * so that a small budget still asks about both what the skill says it does and what its body
 * covers. `shared(key)` says whether a sentence or heading (its `templateKey`) is template text
 * that many skills carry ("check the design context first"): such text says nothing about the
 * job and is not a probe. Deterministic; no duplicates.
 */
export function probeRequests(doc: SkillDoc, authored: readonly AuthoredRequest[] = [], max = 4, shared: (key: string) => boolean = () => false): Probe[] {
  const out: Probe[] = [];
  const seen = new Set<string>();
  const add = (query: string, source: ProbeSource) => {
    const q = query.trim();
    const key = q.toLowerCase();
    if (out.length >= max || !q || seen.has(key) || wordCount(q) < MIN_WORDS) return;
    seen.add(key);
    out.push({ query: q, source });
  };
  for (const a of authored) add(a.query, a.source);
  const f = fragments(doc, SENTENCE_END);
  const sentences = f.description
    .filter((s) => !NOT_A_REQUEST.test(s))
    .map((s) => asRequest(s.replace(PROACTIVELY, '')))
    .filter((s) => !shared(templateKey(s)) && !NOT_A_REQUEST.test(s) && !triggerList(s))
    .map((s) => inUserWords(withoutNamedSubject(fitSentence(quotedRequest(s) ?? s), doc.name)));
  const heads = f.headings
    .map((h) => tidy(h.replace(PICTOGRAPHS, ' ')))
    .filter((h) => wordCount(h) >= 2 && !NOT_A_TOPIC.test(h) && !META_HEADING.test(h) && !sameWords(h, doc.name) && !shared(templateKey(h)))
    .slice(0, 2);
  // Headings are topics ("Spring Boot Best Practices"): in English a user asks for help with one.
  const headingProbe = hasCjk(heads.join('')) ? heads.join('，') : heads.length ? headingRequest(heads) : '';
  const written: Probe[] = [];
  sentences.forEach((s, i) => {
    written.push({ query: s, source: 'description' });
    if (i === 0 && headingProbe) written.push({ query: headingProbe, source: 'heading' });
  });
  if (!sentences.length && headingProbe) written.push({ query: headingProbe, source: 'heading' });
  // Then the main clause of each long sentence alone: a short request for the same job.
  for (const s of sentences) {
    const head = headClause(s);
    if (head) written.push({ query: head, source: 'description' });
  }
  for (const p of written) add(p.query, p.source);
  return out;
}

/**
 * A sentence made of quoted requests ('"calculate TAM", "size the market", "what's the total
 * addressable market"'): the first quoted one of at least `MIN_WORDS` words, which is what a user
 * types; null when the sentence is not such a list (fewer than two quotes, or mostly other words).
 */
export function quotedRequest(sentence: string): string | null {
  // Single quotes only around Chinese ('Linux故障排查'、'系统诊断'): in English they are apostrophes.
  const quote = hasCjk(sentence) ? /["“「『'‘]([^"”」』'’]{2,80})["”」』'’]/gu : /["“「『]([^"”」』]{2,80})["”」』]/gu;
  const quoted = [...sentence.matchAll(quote)].map((m) => m[1].trim());
  if (quoted.length < 2) return null;
  const rest = sentence.replace(quote, ' ').replace(/[\s,，、;；:：.。]+|\b(?:or|and|e\.g|like|such as|mentions?)\b|[或和及]/giu, '');
  if (wordCount(rest) > 4) return null;
  return quoted.find((q) => wordCount(q) >= MIN_WORDS) ?? null;
}

/**
 * Words ending in "s" that are no verb of the third person: plural nouns of a noun phrase ("Tools
 * for …"), names and adjectives ("Kubernetes", "various"), and words that end so ("analytics").
 */
const NOT_THIRD_PERSON = new Set(['tools', 'guidelines', 'patterns', 'utilities', 'instructions', 'templates', 'scripts', 'tips', 'rules', 'docs', 'skills', 'workflows', 'helpers', 'commands', 'resources', 'techniques', 'examples', 'components', 'notes', 'standards', 'conventions', 'recipes', 'strategies', 'operations', 'best', 'details', 'references', 'utils', 'apis', 'sdks', 'settings', 'options', 'this', 'its', 'his', 'is', 'has', 'was', 'always', 'news', 'analytics', 'physics', 'statistics', 'mathematics', 'economics', 'graphics', 'ethics', 'metrics', 'kubernetes', 'aws', 'ios', 'macos', 'windows', 'express', 'less', 'sass', 'postgres', 'redis', 'canvas', 'jenkins', 'atlas', 'pandas', 'tailwindcss', 'us', 'plus', 'status', 'focus', 'bonus', 'campus', 'corpus', 'process', 'access', 'business', 'success', 'progress', 'address', 'class', 'glass', 'cross', 'gross', 'press', 'stress', 'various', 'numerous', 'previous', 'serious', 'famous', 'obvious', 'continuous', 'autonomous', 'asynchronous', 'synchronous', 'ambiguous']);
/** Verbs that say what a skill holds rather than a job ("Supports …", "Covers …"): no request opens with one. */
const HOLDING_VERBS = new Set(['supports', 'covers', 'includes', 'features', 'contains', 'offers', 'provides', 'lists']);

/**
 * Whether a word reads as a verb of the third person ("analyzes", "pulls", "manages"): probes turn
 * an opening one into an imperative, suggestions drop one that opens a clause (it names no topic).
 */
export function thirdPersonVerb(word: string): boolean {
  const w = word.toLowerCase();
  return w.length > 3 && /[^s]s$/.test(w) && !NOT_THIRD_PERSON.has(w);
}

/** Imperative verbs a description may open with ("Extract text from PDFs"): its job, as written. */
export const IMPERATIVES: ReadonlySet<string> = new Set([
  'create', 'build', 'generate', 'write', 'make', 'add', 'run', 'manage', 'analyze', 'analyse', 'design', 'implement', 'extract',
  'convert', 'deploy', 'review', 'audit', 'test', 'debug', 'fix', 'migrate', 'configure', 'set', 'automate', 'monitor', 'optimize',
  'optimise', 'plan', 'draft', 'edit', 'format', 'parse', 'query', 'search', 'find', 'track', 'validate', 'check', 'scan', 'clean',
  'transform', 'translate', 'summarize', 'summarise', 'document', 'diagnose', 'troubleshoot', 'integrate', 'publish', 'release',
  'refactor', 'profile', 'measure', 'compute', 'calculate', 'visualize', 'visualise', 'render', 'scaffold', 'orchestrate', 'apply',
  'prepare', 'produce', 'compose', 'connect', 'sync', 'import', 'export', 'upload', 'download', 'send', 'schedule', 'turn',
  'evaluate', 'assess', 'compare', 'detect', 'identify', 'explore', 'curate', 'capture', 'control', 'interact', 'inspect', 'investigate',
  'resolve', 'recover', 'restore', 'rename', 'organize', 'organise', 'map', 'model', 'forecast', 'estimate', 'simulate', 'train',
  'fine-tune', 'label', 'annotate', 'index', 'store', 'cache', 'secure', 'harden', 'protect', 'encrypt', 'sign', 'verify', 'lint',
  'package', 'bundle', 'compile', 'install', 'upgrade', 'update', 'remove', 'delete', 'merge', 'split', 'rebase', 'commit', 'push',
  'pull', 'clone', 'fetch', 'open', 'close', 'read', 'load', 'save', 'share', 'post', 'reply', 'respond', 'answer', 'explain', 'teach',
  'guide', 'help', 'coach', 'research', 'collect', 'gather', 'scrape', 'crawl', 'enrich', 'score', 'rank', 'classify', 'cluster',
  'segment', 'detect', 'recommend', 'suggest', 'propose', 'decide', 'choose', 'select', 'prioritize', 'prioritise', 'graduate',
  'populate', 'fill', 'cascade', 'onboard', 'host', 'serve', 'expose', 'wrap', 'mock', 'stub', 'benchmark', 'tune', 'size', 'price',
  'synthesize', 'synthesise', 'execute', 'get', 'keep', 'handle', 'process', 'improve', 'reduce', 'increase', 'master', 'port',
  'conduct', 'provide', 'escalate', 'discover', 'learn', 'perform', 'define', 'decompose', 'establish', 'ensure', 'enable', 'maintain',
  'streamline', 'simplify', 'modify', 'specify', 'standardize', 'standardise', 'normalize', 'normalise', 'leverage', 'coordinate',
  'facilitate', 'accelerate', 'deliver', 'transcribe', 'craft', 'polish', 'refine', 'rewrite', 'proofread', 'humanize', 'localize',
  'localise', 'provision', 'bootstrap', 'initialize', 'initialise', 'negotiate', 'reconcile', 'triage', 'decode', 'encode', 'retrieve',
  'illustrate', 'animate', 'resize', 'compress', 'transpile', 'containerize', 'brainstorm', 'distill', 'condense', 'interpret',
]);

/** Words after an opening plural noun ("Tools for", "Patterns that"): the first word is not a verb. */
export const AFTER_A_NOUN: ReadonlySet<string> = new Set(['for', 'to', 'of', 'that', 'which', 'are', 'were', 'with', 'in', 'on', 'from', 'by', 'is', 'and', 'or', '&', 'as', 'at', 'when']);
/** -ing words that are not a verb's gerund. */
const NOT_GERUNDS = new Set(['string', 'strings', 'thing', 'things', 'nothing', 'something', 'anything', 'everything', 'spring', 'ring', 'king', 'bring', 'during', 'morning', 'evening', 'wing', 'sing', 'sibling', 'swing', 'ceiling', 'pudding', 'viking', 'ping', 'thinking']);

/** The base form of a third-person verb: "analyzes" → "analyze", "applies" → "apply", "fixes" → "fix". */
export function baseForm(verb: string): string {
  const lower = verb.toLowerCase();
  let base: string;
  if (/[^aeiou]ies$/.test(lower)) base = `${lower.slice(0, -3)}y`;
  else if (/(?:ss|sh|ch|x|zz|[^aeiou]o)es$/.test(lower)) base = lower.slice(0, -2);
  else base = lower.slice(0, -1);
  return verb[0] === verb[0].toUpperCase() ? base[0].toUpperCase() + base.slice(1) : base;
}

/**
 * A description sentence in the words a user asks with: a third-person opening verb as an
 * imperative ("Analyzes earnings calls" → "Analyze earnings calls", "Helps you write" → "Help me
 * write"), a gerund clause from a "Use when …" sentence as the user's own situation ("building
 * data-oriented games" → "I'm building data-oriented games"), and a noun phrase for a gerund
 * ("Knowledge and utilities for creating animated GIFs" → "I'm creating animated GIFs"). English
 * only; anything else stays as it is.
 */
export function inUserWords(sentence: string): string {
  if (hasCjk(sentence)) return sentence;
  // A persona says who the skill is, not what is asked: "Expert cloud architect specializing in
  // multi-cloud design", "Senior SecOps engineer skill for application security".
  const role = PERSONA.exec(sentence) ?? ROLE_FOR.exec(sentence);
  if (role) {
    const job = tidy(role[1]);
    if (wordCount(job) >= 2) return /^\p{Ll}+ing\b/u.test(job) ? `I'm ${job}` : `Help me with ${job}`;
  }
  // "help me hire" is a user's own words already.
  const helps = /^helps?\s+(?!(?:me|us)\b)(?:(?:the\s+)?(?:you|users?|developers?|teams?|agents?)\s+)?(?:to\s+)?(?=\p{L})/iu;
  if (helps.test(sentence)) {
    const rest = sentence.replace(helps, '');
    return `Help me ${/^\p{Ll}+ing\b/u.test(rest) ? 'with ' : ''}${rest}`;
  }
  const m = /^(\p{L}[\p{Ll}]+)(?=\s+(\S+))/u.exec(sentence);
  if (!m) return sentence;
  const [first, next] = [m[1], m[2]];
  const lower = first.toLowerCase();
  // An imperative is a request as it stands ("Build backtesting systems for trading strategies"
  // is no "I'm trading strategies"); "Get best practices for developing apps" says its job after
  // "for" ("I'm developing apps").
  if (IMPERATIVES.has(lower) && lower !== 'get' && !AFTER_A_NOUN.has(next.toLowerCase())) return sentence;
  const verb = (w: string) => thirdPersonVerb(w) && !HOLDING_VERBS.has(w.toLowerCase());
  // "Creates and manages Jira issues": two verbs.
  const two = /^(\p{L}+)\s+(and|or)\s+(\p{Ll}+)\b/u.exec(sentence);
  if (two && verb(two[1]) && verb(two[3])) return `${baseForm(two[1])} ${two[2]} ${baseForm(two[3])}${sentence.slice(two[0].length)}`;
  if (verb(first) && !AFTER_A_NOUN.has(next.toLowerCase())) return baseForm(first) + sentence.slice(first.length);
  // A gerund opens a "Use when …" clause ("building games"); capitalised, only before an article
  // or a preposition ("Building a CLI"), since "Testing guidelines" is a noun phrase.
  // A list of gerunds ("creating, analyzing and …") is one; "engineering, product" is nouns.
  const tail = sentence.slice(first.length);
  const gerund = /ing$/.test(lower) && lower.length > 5 && !NOT_GERUNDS.has(lower);
  if (gerund && (!/^[,;]/.test(tail) || /^,\s+\p{Ll}+ing\b/u.test(tail)) && (first === lower || /^(?:a|an|the|your|my|our|with|new|custom)$/i.test(next))) return `I'm ${lower}${tail}`;
  // A noun phrase of at most five words, then "for" and a gerund: the gerund is the job.
  const np = /^(?:[\p{L}\-/]+\s+){1,5}?for\s+(\p{Ll}+ing)\b/u.exec(sentence);
  if (np && !NOT_GERUNDS.has(np[1]) && !/\b(?:use|used|invoke|call)\b/i.test(np[0])) {
    const out = `I'm ${sentence.slice(np[0].length - np[1].length)}`;
    if (wordCount(out) >= MIN_WORDS) return out;
  }
  return sentence;
}

/** A persona's opening, its field after "specializing in" or "expert in". */
const PERSONA = /^(?:an?\s+)?(?:(?:expert|senior|seasoned|experienced|elite)\b[^,.;:]{0,60}?\bspeciali[sz](?:ing|es)\s+in|expert\s+in)\s+(.+)$/iu;
/** A role's skill and what it is for: "Senior SecOps engineer skill for application security". */
const ROLE_FOR = /^(?:an?\s+)?(?:senior\s+|expert\s+|lead\s+|principal\s+)?(?:[\p{L}/.+#-]+\s+){0,3}(?:engineer|expert|specialist|architect|developer|consultant|advisor|analyst)(?:\s+skill)?\s+for\s+(.+)$/iu;

/**
 * A list of trigger words written as a sentence ("shopify app, shopify, embedded app, polaris,
 * app bridge"): three or more short items in lower case, none joined by "and" or "or". No one
 * asks that; a list of topics ("Server Components, data fetching, routing patterns") names what
 * the skill covers and stays.
 */
export function triggerList(sentence: string): boolean {
  if (hasCjk(sentence)) return false;
  const items = sentence.replace(/[.!?]+$/u, '').split(/\s*,\s*/u);
  return items.length >= 3 && items.every((i) => /^\p{Ll}/u.test(i) && wordCount(i) <= 3 && !/^(?:and|or)\b/iu.test(i));
}

/**
 * Headings as one request: "Help me with" a topic ("Help me with writing a fuzz target, running on
 * CI"), or the task itself when the first heading is one, an imperative before an article ("Create
 * a new workbook", "Write data to a sheet" → "Help me create a new workbook, write data to a
 * sheet"). "Index management" or "Design System" stays a topic: many verbs are nouns too.
 */
function headingRequest(heads: readonly string[]): string {
  const task = (h: string) => {
    const m = /^(\p{L}+)\s+(\S+)/u.exec(h);
    return !!m && IMPERATIVES.has(m[1].toLowerCase()) && /^(?:a|an|the|your|my|our|this|these|new)$/iu.test(m[2]);
  };
  if (!task(heads[0])) return `Help me with ${heads.map(sentenceCase).join(', ')}`;
  return `Help me ${heads.map((h) => (task(h) ? h[0].toLowerCase() + h.slice(1) : sentenceCase(h))).join(', ')}`;
}

/** A heading in sentence case ("Writing a fuzz target") lower-cased at its first word inside a sentence; a title ("Spring Boot") stays. */
function sentenceCase(heading: string): string {
  return /^\p{Lu}\p{Ll}+\s+\p{Ll}/u.test(heading) ? heading[0].toLowerCase() + heading.slice(1) : heading;
}

/** Emoji and pictographs, which no request types in a heading's place. */
const PICTOGRAPHS = /[\p{Extended_Pictographic}\u{FE0F}\u{200D}]/gu;

/**
 * Headings that say how the skill is written, not what it is for ("Core Principle: SAFETY FIRST",
 * "MISSION", "Critical Implementation Notes", "Postmortem Triggers", "Not for").
 */
const META_HEADING = /^(?:core principles?|principles?|critical|important|implementation notes|mission|directives?|role|persona|rules|constraints|guidelines|not for|anti-patterns?|rationali[sz]ations to reject|red flags|checklist|see also|related skills?|limitations|preamble|(?:step|phase|stage|part)\s*\d+)\b|\bexamples?\s*\d|\btriggers?$|^(?:序言|原则|核心原则|规则|约束|角色|使命|注意|步骤\s*\d+|第\s*[\d一二三四五六七八九十]+\s*[步阶])/iu;

/** Where a long English sentence's main clause ends: before "by …", "using …", a dash, a colon or a comma. */
const CLAUSE_END = /\s+(?:by|using|via|so that|in order to|including|such as)\s+|\s*[:;–—]\s+|\s+-\s+|,\s+/iu;

/**
 * The main clause of a long English description sentence ("Safely analyzes and cleans up local git
 * branches and worktrees" of "… by categorizing them as merged, …"), or null: no Chinese, at least
 * 4 words kept and 3 cut.
 */
export function headClause(sentence: string): string | null {
  if (hasCjk(sentence)) return null;
  const m = CLAUSE_END.exec(sentence);
  if (!m || m.index === undefined) return null;
  const head = tidy(sentence.slice(0, m.index));
  const rest = sentence.slice(m.index + m[0].length);
  return wordCount(head) >= 4 && wordCount(rest) >= 3 ? head : null;
}

/**
 * The first sentence of a skill's description that is a job, not an instruction or a trigger
 * list, as a request: without who asks ("Use when the user asks to"), "Use PROACTIVELY for", a
 * subject that names the skill, or the quotes of a quoted request. Null when there is none.
 */
export function openingJob(doc: SkillDoc): string | null {
  const first = fragments(doc, SENTENCE_END).description.find((s) => !NOT_A_REQUEST.test(s));
  if (!first) return null;
  const opening = asRequest(first.replace(PROACTIVELY, ''));
  return withoutNamedSubject(quotedRequest(opening) ?? opening, doc.name);
}
