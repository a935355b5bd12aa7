/**
 * The line a quick fix adds to a skill's description to send a request elsewhere: "For token-based
 * deploys, CI tokens or environment variables, use vercel-cli-with-tokens." It is built from the
 * words that set the other skill apart (words of its description that the skill's own name and
 * description do not use, the rarer the better), never from the skill's own text: a line quoting
 * the skill itself tells the agent nothing.
 */
import { analyse, hasCjk } from '../text/analyse';
import type { SkillDoc } from '../types';
import { termCosine, type Analyser, type SkillProfiles } from './conflicts';
import { AFTER_A_NOUN, headClause, IMPERATIVES, inUserWords, openingJob, thirdPersonVerb, tidy, wordCount } from './probes';

/** Phrases in one line: enough to say what the other skill is for, short enough to read. */
const MAX_PHRASES = 3;
const MAX_PHRASE_WORDS = 4;

interface Phrase {
  text: string;
  score: number;
  at: number;
}

/** Words that open a clause ("Create production-ready …") but name no topic. */
const OPENERS = new Set([
  'create', 'build', 'generate', 'use', 'implement', 'write', 'make', 'add', 'run', 'manage', 'analyze', 'analyse', 'design',
  'help', 'helps', 'provide', 'provides', 'support', 'supports', 'cover', 'covers', 'include', 'includes', 'master', 'expert',
  'comprehensive', 'production-ready', 'automate', 'handle', 'handles', 'perform', 'apply', 'get', 'set', 'do',
]);

/** Words of an instruction to the agent, not of a topic ("always search tools first", "accepts optional arguments"). */
const INSTRUCTION = /^(?:always|never|first|must|should|explicitly|accepts|optional|arguments?|proactively|mentions?|requests?|asks?)$/i;

/** A past participle that opens a cut clause ("based on …", "used as …", "inspired by …"). */
const PARTICIPLE = /^(?:\p{Ll}+ed|known|given|including|specializing|leveraging|when|where|while)$/u;

/**
 * A word that modifies a noun but is none ("large tabular", "big", "detailed", "efficient",
 * "scalable"): a phrase ending on one was cut before its noun. English suffixes of adjectives and
 * adverbs; a capitalised word (a name: "Bengal") never counts.
 */
function cutModifier(word: string): boolean {
  const w = word.toLowerCase();
  if (!/^\p{Ll}/u.test(word) || NOUNS_LIKE_MODIFIERS.has(w)) return false;
  return MODIFIERS.has(w) || (w.length > 4 && /(?:[^e]ed|ly|ive|ous|ful|able|ible|ular|ical)$/.test(w));
}
const MODIFIERS = new Set(['big', 'large', 'small', 'fast', 'new', 'old', 'high', 'low', 'good', 'best', 'more', 'less', 'many', 'few', 'other', 'real', 'full', 'deep', 'bold', 'clear', 'hard', 'difficult', 'efficient', 'robust', 'modern', 'complex', 'simple', 'advanced', 'basic', 'specific', 'relevant', 'important', 'different']);
/** Nouns with an adjective's ending. */
const NOUNS_LIKE_MODIFIERS = new Set(['table', 'tables', 'cable', 'variable', 'variables', 'deliverable', 'deliverables', 'archive', 'drive', 'directive', 'objective', 'executive', 'alternative', 'narrative', 'initiative', 'perspective', 'derivative', 'incentive', 'primitive', 'representative', 'supply', 'reply', 'family', 'assembly', 'anomaly', 'monopoly', 'butterfly', 'embed', 'hundred', 'bed', 'shed', 'thread', 'spreadsheet', 'feed', 'seed', 'need', 'speed', 'schedule', 'module', 'bible', 'invoice', 'nominee']);

/**
 * Words that never start or end a topic, though they are no stop words: a preposition that joins
 * nothing ("without proper controls"), a participle left at the end ("drug discovery including"),
 * an adverb before a verb ("efficiently track down").
 */
const NO_EDGE = new Set(['without', 'within', 'across', 'through', 'including', 'like', 'such', 'than', 'about', 'against', 'between', 'beyond', 'during', 'versus', 'vs', 'whether', 'also', 'then', 'only', 'even', 'very', 'really', 'either', 'neither', 'both', 'each', 'every', 'etc']);
const ADVERB = /^\p{Ll}{3,}ly$/u;
/** A word written with a capital (a name's word, or a clause's first). */
const CAPITALISED = /^\p{Lu}/u;
/** Words a phrase may take back to say a name whole ("Service Level Indicators"). */
const MAX_NAME_BACK = 5;
/** A participle or when-word left at a phrase's end ("drug discovery including"). */
const TRAILING = /^(?:including|specializing|leveraging|using|when|where|while)$/u;

/** Words that join two distinguishing words into one phrase ("management of secrets", "Stripe for contractors"). */
const JOINERS = new Set(['of', 'for', 'and', 'in', 'on', 'with', 'to', 'from', 'by', 'or', 'per', 'via', 'into', '&']);

/**
 * English words of each clause of `text`, in order, their punctuation stripped (a currency sign
 * kept: "$600"). A full stop, colon or question mark ends a clause only before a space or the end:
 * "ASP.NET" and "Node.js" are one word each.
 */
function englishClauses(text: string): string[][] {
  return text
    .split(/[.:!?]+(?=\s|$)|[;()[\]"“”'‘’,\n]+|\s[-–—]\s/u)
    .map((c) => c.split(/\s+/).map((w) => w.replace(/^[^\p{L}\p{N}$€£¥]+|[^\p{L}\p{N}+#]+$/gu, '')).filter(Boolean));
}

/**
 * A clause that opens with a verb of the third person ("pulls YTD income", "scans QuickBooks",
 * "covers …") names no topic with it; "analytics dashboards" does. A capitalised one opens a
 * sentence ("Runs SAST/DAST scans") unless a preposition follows it as one follows a plural noun
 * ("Dashboards for growth teams").
 */
function opensWithVerb(word: string, index: number, words: readonly string[]): boolean {
  if (index !== 0 || words.length < 2 || !thirdPersonVerb(word)) return false;
  return /^\p{Ll}/u.test(word) || !AFTER_A_NOUN.has(words[1].toLowerCase());
}

/** Words after which a verb comes ("queries that | bring down your server", "can | craft"). */
const BEFORE_A_VERB = new Set(['that', 'which', 'who', 'can', 'could', 'will', 'would', 'should', 'must', 'may', 'might', 'cannot']);

/**
 * A verb of the third person right after "and" or "or" opens a clause of its own ("… and
 * leverages AI-assisted review"), as one at the clause's start does (`opensWithVerb`).
 */
function afterJoiner(first: { word: string; index: number }, words: readonly string[]): boolean {
  const before = words[first.index - 1]?.toLowerCase();
  const after = words[first.index + 1]?.toLowerCase();
  // A verb has an object after it; "dashboards and reports" or "reports for teams" end on a noun.
  return (before === 'and' || before === 'or') && after !== undefined && !JOINERS.has(after) && /^\p{Ll}/u.test(first.word) && thirdPersonVerb(first.word);
}

/**
 * A phrase as it reads inside a sentence: a first word capitalised only because it opened its
 * clause (`opening`) is lower-cased; a name (Camelot, PayPal, ISMS) keeps its capitals.
 */
function inline(words: string[], opening: boolean): string {
  const [first, ...rest] = words;
  const lower = opening && /^\p{Lu}\p{Ll}+(?:-\p{Ll}+)*$/u.test(first) ? first.toLowerCase() : first;
  return [lower, ...rest].join(' ');
}

/**
 * Phrases of an English description made of words `fresh` scores (null: a word the other side
 * uses, which ends a phrase; 0: a stop word, which may join two): runs of up to four words.
 */
function englishPhrases(description: string, fresh: (word: string) => number | null): Phrase[] {
  const phrases: Phrase[] = [];
  let at = 0;
  const clauses = englishClauses(description);
  // A long description that stops without a full stop on a short lower-case word was cut (at 200
  // characters, by a copying script): "… to systematically diagnose and res", "… through ex".
  const text = description.trim();
  const last = clauses[clauses.length - 1];
  if (text.length >= 190 && !/[.!?)\]"'`。！？]$/u.test(text) && last?.length && /^\p{Ll}{1,4}$/u.test(last[last.length - 1])) last.pop();
  for (const words of clauses) {
    let run: { word: string; score: number; index: number }[] = [];
    const flush = () => {
      // A run with an instruction to the agent in it ("always search tools first") is no topic.
      if (run.some((r) => INSTRUCTION.test(r.word))) run = [];
      // Trimming the front never changes the last word, so one pass from each end is enough.
      // "schema review and leverages …": a verb after "and" opens a clause; the phrase ends before it.
      const verbAt = run.findIndex((r, k) => k > 0 && afterJoiner(r, words));
      if (verbAt > 0) run = run.slice(0, verbAt);
      const edge = (w: string) => NO_EDGE.has(w.toLowerCase()) || (ADVERB.test(w.toLowerCase()) && !NOUNS_LIKE_MODIFIERS.has(w.toLowerCase()));
      while (run.length && (run[run.length - 1].score === 0 || edge(run[run.length - 1].word) || (run.length > 1 && TRAILING.test(run[run.length - 1].word)) || (run.length > 1 && cutModifier(run[run.length - 1].word)))) run.pop();
      while (run.length && (run[0].score === 0 || edge(run[0].word) || JOINERS.has(run[0].word.toLowerCase()) || OPENERS.has(run[0].word.toLowerCase()) || PARTICIPLE.test(run[0].word) || opensWithVerb(run[0].word, run[0].index, words) || afterJoiner(run[0], words))) run.shift();
      // One word left that only modifies ("detailed", "difficult"): the noun it modified was cut.
      if (run.length === 1 && cutModifier(run[0].word)) run = [];
      // A run right after "that" or "can" opens on a verb ("that | bring down your server"), and so
      // does one whose subject was cut ("GraphQL | gives clients"): a predicate, no topic.
      const head = run[0];
      if (head && BEFORE_A_VERB.has(words[head.index - 1]?.toLowerCase() ?? '')) run = [];
      else if (head && head.index > 0 && /^\p{Ll}/u.test(head.word) && thirdPersonVerb(head.word) && !AFTER_A_NOUN.has(words[head.index + 1]?.toLowerCase() ?? 'for')) run = [];
      // The tail of a name cut at a word the other side shares ("Service Level | Indicators"): the
      // name is said whole, its shared words adding nothing to the score, back to the clause's
      // opening word at most (a stop word, "Not" or "Be" of a flag list, is no name's word).
      for (let k = 0; k < MAX_NAME_BACK && run.length && run[0].index > 1 && CAPITALISED.test(run[0].word) && CAPITALISED.test(words[run[0].index - 1]) && fresh(words[run[0].index - 1]) !== 0; k++) {
        run.unshift({ word: words[run[0].index - 1], score: 0, index: run[0].index - 1 });
      }
      // An imperative alone at a clause's opening ("Track | …") is the job's verb, no topic.
      if (run.length === 1 && run[0].index === 0 && IMPERATIVES.has(run[0].word.toLowerCase())) run = [];
      // A modal or relative word at the end was cut before its verb ("guidance may | change").
      while (run.length > 1 && BEFORE_A_VERB.has(run[run.length - 1].word.toLowerCase())) run.pop();
      // A participle alone whose object was cut ("integrating | LLMs with …"); one that ends its
      // clause, or joins what follows ("testing of APIs"), names a topic.
      const next = run.length === 1 ? words[run[0].index + 1] : undefined;
      if (next !== undefined && /^\p{Ll}{3,}ing$/u.test(run[0].word) && !JOINERS.has(next.toLowerCase())) run = [];
      if (run.length) phrases.push({ text: inline(run.map((r) => r.word), run[0].index === 0), score: run.reduce((n, r) => n + r.score, 0), at: at++ });
      run = [];
    };
    // Words of a phrase cut at MAX_PHRASE_WORDS that would read as a fragment alone ("trails").
    let tail = false;
    for (const [index, word] of words.entries()) {
      const score = fresh(word);
      if (tail) {
        if (score !== null && score > 0) continue;
        tail = false;
      }
      if (score === 0) {
        // A preposition or conjunction joins two distinguishing words ("management of secrets"),
        // never starts a phrase; any other stop word (an article, "can", "that") starts a clause
        // of its own, and a phrase across it would not read ("summary a CPA can work").
        if (JOINERS.has(word.toLowerCase())) {
          if (run.length) run.push({ word, score: 0, index });
        } else flush();
        continue;
      }
      if (score === null) {
        flush();
        continue;
      }
      run.push({ word, score, index });
      if (run.filter((r) => r.score > 0).length >= MAX_PHRASE_WORDS) {
        // A phrase too long to say whole is cut where it joins two ("cookbook for | signed audit
        // trails"): the first part is said, the second goes on. Without such a joint its rest is
        // left out rather than said alone.
        const after = words[index + 1];
        const goesOn = after !== undefined && (fresh(after) ?? 0) > 0;
        const joint = goesOn ? run.map((r) => JOINERS.has(r.word.toLowerCase())).lastIndexOf(true) : -1;
        if (joint > 0) {
          const rest = run.slice(joint + 1);
          run = run.slice(0, joint);
          flush();
          run = rest;
        } else {
          flush();
          tail = goesOn;
        }
      }
    }
    flush();
  }
  return phrases;
}

/** Items of a Chinese description (between 、，。；) made mostly of words the other side lacks, as written. */
function chinesePhrases(description: string, analyser: Analyser, score: (terms: string[]) => { fresh: number; weight: number }): Phrase[] {
  const out: Phrase[] = [];
  let at = 0;
  for (const raw of description.split(/[、，。；：,;:（）()\n“”"'‘’「」]+/u)) {
    // "当用户要求…时使用" wraps the item in when-words that would read twice in "涉及…时".
    const item = raw.trim().replace(/^(?:当(?:用户)?(?:要求|需要|提及|想要)?|用于|使用|包括|支持|或|和|以及)+/u, '').replace(/(?:时使用|时触发|触发|时|等|时必不可少)+$/u, '').trim();
    const terms = analyser(item);
    at++;
    if (!item || item.length > 14 || !terms.length) continue;
    const { fresh, weight } = score(terms);
    if (fresh >= 0.6) out.push({ text: item, score: weight, at });
  }
  return out;
}

/**
 * Phrases of `other`'s description that distinguish it from `self`: words (Chinese: list items)
 * that neither `self`'s name and description nor `other`'s own name use, scored by rarity; at
 * most three, in the order they are written. Empty when nothing sets `other` apart in words.
 */
export function distinguishingPhrases(self: SkillDoc, other: SkillDoc, profiles: SkillProfiles, analyser: Analyser): string[] {
  const selfTerms = new Set([...(profiles.get(self.id)?.terms.keys() ?? []), ...analyser(self.name.replace(/[-_]/g, ' '))]);
  const nameTerms = new Set(analyser(other.name.replace(/[-_]/g, ' ')));
  const isFresh = (t: string) => !selfTerms.has(t) && !nameTerms.has(t);
  const phrases = hasCjk(other.description)
    ? chinesePhrases(other.description, analyser, (terms) => {
        const fresh = terms.filter(isFresh);
        return { fresh: fresh.length / terms.length, weight: fresh.reduce((n, t) => n + profiles.idfOf(t), 0) };
      })
    : englishPhrases(other.description, (word) => {
        const terms = analyser(word);
        if (!terms.length) return 0;
        return terms.every(isFresh) ? terms.reduce((n, t) => n + profiles.idfOf(t), 0) : null;
      });
  const seen = new Set<string>();
  return phrases
    .sort((p, q) => q.score - p.score || p.at - q.at)
    .filter((p) => {
      const key = p.text.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, MAX_PHRASES)
    .sort((p, q) => p.at - q.at)
    .map((p) => p.text);
}

/** `a`, `a or b`, `a, b or c` (Chinese: 、). */
function joinPhrases(list: readonly string[], zh: boolean): string {
  if (zh) return list.join('、');
  return list.length <= 1 ? list.join('') : `${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}`;
}

/**
 * Descriptions this alike (TF-IDF cosine of name + description) say the same: the words that
 * differ are incidental ("drop" for "remove"), and a line built from them would send requests
 * nowhere. The fix is to merge, which the message says.
 */
export const SAME_WORDS = 0.7;

/**
 * The line to add to `self`'s description: "For …, use <other>." in the language of `self`'s
 * description; `lead` puts phrases first (a variant's platform). Null when nothing sets `other`
 * apart, or the two say the same (see `SAME_WORDS`) and nothing leads.
 */
export function useOtherLine(self: SkillDoc, other: SkillDoc, profiles: SkillProfiles, analyser: Analyser, lead: readonly string[] = []): string | null {
  const ps = profiles.get(self.id);
  const po = profiles.get(other.id);
  if (!lead.length && ps && po && termCosine(ps.terms, po.terms) >= SAME_WORDS) return null;
  // A phrase that repeats a lead word ("Swift" and "Swift package setup") says it twice.
  const leadWords = new Set(lead.flatMap((l) => analyser(l)));
  const rest = distinguishingPhrases(self, other, profiles, analyser).filter((p) => !analyser(p).some((t) => leadWords.has(t)));
  const phrases = [...new Set([...lead, ...rest])].slice(0, MAX_PHRASES);
  if (!phrases.length) return null;
  return hasCjk(self.description) ? `涉及${joinPhrases(phrases, true)}时，请使用 ${other.name}。` : `For ${joinPhrases(phrases, false)}, use ${other.name}.`;
}

/** How `value` (a facet value such as `azure`) is written in `text`, or the value itself. */
export function surfaceOf(value: string, text: string): string {
  const m = new RegExp(`(?<![\\p{L}\\p{N}])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'iu').exec(text);
  return m ? m[0] : value;
}

/**
 * The line for one step of a sequence (`words`: what the first step does, then what the next
 * does): the first says what comes next and with which skill ("Then work from the Epic PRD with
 * breakdown-epic-arch."), the next says what comes before ("First, plan with writing-plans.").
 * A "For …, use" line would send one step's requests to the other, which is no fix.
 */
export function sequenceLine(self: SkillDoc, other: SkillDoc, selfFirst: boolean, words: readonly [string, string]): string {
  if (hasCjk(self.description)) {
    const [w1, w2] = hasCjk(words.join('')) ? words : ['', ''];
    return selfFirst ? `下一步：用 ${other.name}${w2 && ` ${w2}`}。` : `上一步：先用 ${other.name}${w1 && ` ${w1}`}。`;
  }
  return selfFirst ? `Then ${words[1]} with ${other.name}.` : `First, ${words[0]} with ${other.name}.`;
}

/** Words a job clause of the line may hold at most. */
const JOB_WORDS = 12;
/** Where a job clause ends, however short: a dash or a colon starts a list of what it covers. */
const JOB_END = /\s+(?:--|[–—-])\s+|\s*:\s+/u;

/** Words that open a trailing phrase a job clause can end before ("… earnings preview | for a single company"). */
const TAIL = /\s+(?:for|with|from|using|via|into|across|within|through|based on|including|such as)\s+/giu;

/**
 * A long job clause cut before its last trailing phrase that leaves at most `JOB_WORDS` words and
 * at least four ("Generate a concise 4-5 page equity research earnings preview for a single
 * company" → "… earnings preview"), or null when no such cut exists or the cut leaves what sets
 * the job apart from `mine` (the description the line goes into) in the tail: under a third of
 * its words are new to it ("Extract text and tables from PDF documents | with Camelot" beside a
 * skill that extracts text and tables from PDF files).
 */
function beforeTail(job: string, mine: string): string | null {
  let best: string | null = null;
  for (const m of job.matchAll(TAIL)) {
    const head = tidy(job.slice(0, m.index));
    const n = wordCount(head);
    if (n > JOB_WORDS) break;
    // Not inside a relative clause ("tasks that can be worked | on without ..."): it needs its end.
    if (n >= 4 && !/\s(?:that|which|who|where)\s/iu.test(head)) best = head;
  }
  if (!best) return null;
  const own = new Set(analyse(mine));
  const head = analyse(best);
  return head.filter((t) => !own.has(t)).length * 3 >= head.length ? best : null;
}

/**
 * The job of a skill in its own first sentence, as the line another skill's description adds to
 * send its requests there: "To extract text and tables from PDF files, use pdf-extract.", "When
 * building data-oriented games, use unity-ecs-patterns.", "For cheminformatics with RDKit, use
 * rdkit." (Chinese: "涉及…时，请使用 …。"). Null when the first sentence is no job (an instruction,
 * a trigger list) or too long to cut at a clause or before a trailing phrase: the caller falls
 * back to distinguishing words.
 */
export function jobLine(self: Pick<SkillDoc, 'description'>, other: SkillDoc): string | null {
  let job = openingJob(other);
  if (!job) return null;
  if (hasCjk(job)) {
    if (!hasCjk(self.description)) return null;
    // A persona's title at the end ("…运营专家") names who, not what.
    const clause = tidy((job.replace(/[。！？；]+$/u, '').split(/[，；：:]|\s*[—–]+\s*|\s+-\s+/u)[0] ?? '').replace(/专家$/u, ''));
    return clause.length >= 2 && clause.length <= 24 ? `涉及${clause}时，请使用 ${other.name}。` : null;
  }
  if (hasCjk(self.description)) return null;
  job = tidy((headClause(job) ?? job).replace(/[.!?]+$/u, ''));
  const dash = JOB_END.exec(job);
  if (dash && wordCount(job.slice(0, dash.index)) >= 2) job = tidy(job.slice(0, dash.index));
  if (/^\//u.test(job)) return null; // a slash command's title ("/em -postmortem — …") is no job
  if (wordCount(job) > JOB_WORDS) {
    const cut = tidy(job.split(/(?<=[,;])\s+|\s+[–—-]\s+/u)[0].replace(/[,;]$/u, ''));
    const short = wordCount(cut) > JOB_WORDS || wordCount(cut) < 3 ? beforeTail(job, self.description) : cut;
    if (!short) return null;
    job = short;
  }
  if (wordCount(job) < 2) return null;
  // A persona's opening names no job: "Expert database optimizer specializing in performance
  // tuning" is for performance tuning; "Expert in monorepo architecture" for monorepo architecture.
  const persona = /^(?:an?\s+)?expert\b.*?\bspeciali[sz]ing\s+in\s+(.+)$/iu.exec(job);
  job = persona ? persona[1] : job.replace(/^(?:an?\s+)?expert\s+(?:in\s+)?/iu, '').replace(/^(?:a\s+)?(?:comprehensive|complete|full|ultimate)\s+(?!(?:the|a|an|your|my|our|this|these|all)\b)/iu, '');
  // A phrase cut before its object ("… a complete ML pipeline for"), or before a command's
  // placeholder ("for $ARGUMENTS"), ends on the word before.
  job = job.replace(/\s*\$[A-Z][A-Z_]*\b/gu, '').replace(/(?:\s+(?:for|of|to|with|and|or|in|on|by|from|into|the|a|an))+$/iu, '');
  // "Design skill", "Comprehensive design skill": it names the skill, not its job.
  if (wordCount(job) < 2 || /\bskills?$/iu.test(job)) return null;
  // An imperative opens the job as a user would say it; only another opening is put in a user's
  // words ("Build backtesting systems for trading strategies" is no "I'm trading strategies").
  const opener = /^(\p{L}[\p{L}-]*)/u.exec(job)?.[1]?.toLowerCase() ?? '';
  // ("Get best practices for developing apps" reads better as "When developing apps").
  const user = IMPERATIVES.has(opener) && opener !== 'get' ? job : inUserWords(job);
  // A capitalised first word is lower-cased inside the line when the skill writes it in lower case
  // elsewhere ("Fast in-memory DataFrame library"); a name (Google, IBM) keeps its capital.
  const text = `${other.description}\n${other.body}`;
  const lower = (s: string) => {
    // Only a whole word: "Next.js" is a name whatever "next" elsewhere says.
    const w = /^\p{Lu}\p{Ll}+(?=\s|$)(?!\s+\p{Lu})/u.exec(s)?.[0];
    return w && new RegExp(`(?<![\\p{L}])${w.toLowerCase()}(?![\\p{L}])`, 'u').test(text) ? w.toLowerCase() + s.slice(w.length) : s;
  };
  if (/^I'm\s+/u.test(user)) return `When ${user.replace(/^I'm\s+/u, '')}, use ${other.name}.`;
  if (/^Help me with\s+/u.test(user)) return `For help with ${user.replace(/^Help me with\s+/u, '')}, use ${other.name}.`;
  if (/^Help me\s+/u.test(user)) return `To ${user.replace(/^Help me\s+/u, '')}, use ${other.name}.`;
  const verb = /^(\p{L}[\p{L}-]*)/u.exec(user)?.[1] ?? '';
  const was = /^(\p{L}[\p{L}-]*)/u.exec(job)?.[1] ?? '';
  // An imperative opens the job ("Extract text"), or a verb of the third person did ("Keeps
  // HubSpot current" → "keep …"), not a noun in -ics or -ss ("Cheminformatics toolkit").
  const converted = verb !== was && !/(?:ics|ss|us|is)$/iu.test(was);
  if (IMPERATIVES.has(verb.toLowerCase()) || converted) return `To ${verb.toLowerCase()}${user.slice(verb.length)}, use ${other.name}.`;
  // A first sentence that is a clause ("GraphQL gives clients exactly …") names no job after
  // "For": a verb of the third person second, with no preposition after it as a plural noun has
  // ("Terraform modules for AWS").
  const [, second, third] = job.split(/\s+/u);
  if (second && third && /^\p{Ll}/u.test(second) && thirdPersonVerb(second) && !AFTER_A_NOUN.has(third.toLowerCase())) return null;
  return `For ${lower(job)}, use ${other.name}.`;
}
