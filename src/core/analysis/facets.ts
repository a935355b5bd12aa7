/**
 * Facets of a skill or a request that decide whether two skills can serve one request: the
 * programming languages and package ecosystems, platforms (mobile OS, cloud, game engine, ...),
 * audiences and business segments it is written for, whether it is an umbrella skill (a router,
 * bundle, index, example or "fundamentals" skill) rather than a task skill, and which other
 * skills it names ("not for X, use Y").
 *
 * Detection is by word lists over name, description and the first lines of the body: cheap,
 * deterministic and explainable in a diagnostic ("Rust vs Go").
 */

/** A facet family; two skills with disjoint values in one family rarely serve one request. */
export type FacetFamily = 'language' | 'frontend' | 'mobile' | 'cloud' | 'engine' | 'wiki' | 'audience' | 'segment';

/** Families whose mismatch is a language or ecosystem mismatch; the rest are platforms or people. */
export const ECOSYSTEM_FAMILIES: readonly FacetFamily[] = ['language', 'frontend'];
export const PLATFORM_FAMILIES: readonly FacetFamily[] = ['mobile', 'cloud', 'engine', 'wiki'];

/** Detected facet values by family, e.g. `{ language: ['rust'], cloud: ['azure'] }`. */
export type Facets = Partial<Record<FacetFamily, string[]>>;

interface Rule {
  family: FacetFamily;
  value: string;
  /** Matched against the lower-cased text with word boundaries (CJK patterns as substrings). */
  pattern: Pattern;
  /** Only in the skill name / id (words too ambiguous in prose, such as `go` or `r`)... */
  nameOnly?: boolean;
  /** ... or in prose when written this way (case-sensitive: `Go`, not `go`). */
  cased?: RegExp;
}

/** What a rule tests a text with. */
interface Pattern {
  test(text: string): boolean;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LETTER = /\p{L}/u;

/**
 * Alternatives matched as whole words: not next to a letter (or, with `digits`, a digit) of any
 * script; `loose` are matched anywhere (CJK words, which have no spaces around them). The same
 * as one regular expression with `(?<![\p{L}\p{N}])` on each side, made cheaply: V8 compiled each
 * such class on first use, ~0.5 ms a rule and ~25 ms of every process that detected facets. An
 * expression bounded by ASCII letters and digits finds the candidates; a match whose neighbours
 * are ASCII (nearly every one) is the answer, and only a match beside another script's letter is
 * decided by the full expression, compiled then.
 */
export class WordPattern implements Pattern {
  private readonly fast: RegExp;
  private readonly loose: RegExp | null;
  private full: RegExp | undefined;

  constructor(
    private readonly alternatives: string,
    private readonly digits: boolean,
    loose?: string,
  ) {
    const ascii = digits ? 'A-Za-z0-9' : 'A-Za-z';
    this.fast = new RegExp(`(?<![${ascii}])(?:${alternatives})(?![${ascii}])`, 'u');
    this.loose = loose ? new RegExp(loose, 'u') : null;
  }

  test(text: string): boolean {
    if (this.loose?.test(text)) return true;
    const m = this.fast.exec(text);
    if (!m) return false;
    const inWord = this.digits ? LETTER_OR_DIGIT : LETTER;
    const end = m.index + m[0].length;
    const before = m.index > 0 ? codePointBefore(text, m.index) : undefined;
    const after = text.codePointAt(end);
    const beside = (cp: number | undefined) => cp !== undefined && cp > 0x7f && inWord.test(String.fromCodePoint(cp));
    if (!beside(before) && !beside(after)) return true;
    const cls = this.digits ? '[\\p{L}\\p{N}]' : '[\\p{L}]';
    this.full ??= new RegExp(`(?<!${cls})(?:${this.alternatives})(?!${cls})`, 'u');
    return this.full.test(text);
  }
}

/** The code point that ends just before `at`. */
function codePointBefore(text: string, at: number): number {
  const low = text.charCodeAt(at - 1);
  if (low >= 0xdc00 && low <= 0xdfff && at >= 2) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(at - 2)!;
  }
  return low;
}

/** Whole-word alternatives, bounded by letters and digits of any script. */
const w = (alternatives: string): Pattern => new WordPattern(alternatives, true);
/** Whole-word alternatives bounded by letters only, or `cjk` anywhere. */
const words = (alternatives: string, cjk: string): Pattern => new WordPattern(alternatives, false, cjk);

const RULES: Rule[] = [
  // Programming languages and their package ecosystems / defining frameworks.
  { family: 'language', value: 'python', pattern: w('python|pip|pypi|django|flask|fastapi|pydantic|pytest|poetry|conda|py') },
  { family: 'language', value: 'rust', pattern: w('rust|cargo|crates\\.io|tokio|rustc') },
  { family: 'language', value: 'go', pattern: w('golang|goroutines?|go modules?') },
  { family: 'language', value: 'go', pattern: w('go'), nameOnly: true, cased: /(?<!^|[.!?]\s+)(?<![\p{L}\p{N}])Go(?![\p{L}\p{N}])/u },
  { family: 'language', value: 'java', pattern: w('java|maven|gradle|spring boot|springboot|jvm|junit') },
  { family: 'language', value: 'kotlin', pattern: w('kotlin|ktor') },
  { family: 'language', value: 'swift', pattern: w('swift|swiftui|xcode|objective-c') },
  { family: 'language', value: 'dotnet', pattern: w('c#|csharp|\\.net|dotnet|nuget|asp\\.net|blazor|nunit|xunit|mstest|entity framework') },
  { family: 'language', value: 'cpp', pattern: w('c\\+\\+|cpp|cmake') },
  { family: 'language', value: 'ruby', pattern: w('ruby|ruby on rails|rails apps?|rubygems|rspec') },
  { family: 'language', value: 'php', pattern: w('php|laravel|symfony|composer\\.json') },
  { family: 'language', value: 'elixir', pattern: w('elixir|erlang|ecto') },
  { family: 'language', value: 'scala', pattern: w('scala|sbt') },
  { family: 'language', value: 'dart', pattern: w('dart|flutter') },
  { family: 'language', value: 'javascript', pattern: w('javascript|typescript|node\\.js|nodejs|npm|pnpm|yarn|deno|nestjs|next\\.js|nextjs|ts|js|jest|vitest') },
  { family: 'language', value: 'r', pattern: w('r'), nameOnly: true },
  { family: 'language', value: 'r', pattern: w('tidyverse|ggplot2|cran|r language|r package') },
  { family: 'language', value: 'julia', pattern: w('julia') },
  { family: 'language', value: 'haskell', pattern: w('haskell|cabal') },
  { family: 'language', value: 'solidity', pattern: w('solidity') },
  // Front-end frameworks: a React request does not need the Vue guide.
  { family: 'frontend', value: 'react', pattern: w('react|jsx|next\\.js|nextjs|react native') },
  { family: 'frontend', value: 'vue', pattern: w('vue|vue\\.js|vuejs|nuxt|pinia') },
  { family: 'frontend', value: 'angular', pattern: w('angular|ngrx|rxjs') },
  { family: 'frontend', value: 'svelte', pattern: w('svelte|sveltekit') },
  // Blazor is .NET's web front end (C#, not JavaScript): a React request does not need it either.
  { family: 'frontend', value: 'blazor', pattern: w('blazor') },
  // Platforms where a build picks one.
  { family: 'mobile', value: 'ios', pattern: w('ios|iphone|ipad|swiftui|uikit|app store|xcode') },
  { family: 'mobile', value: 'android', pattern: w('android|jetpack compose|google play|kotlin multiplatform') },
  { family: 'cloud', value: 'aws', pattern: w('aws|amazon web services|aws lambda|amazon s3|dynamodb|cloudformation|ec2|amazon bedrock') },
  { family: 'cloud', value: 'azure', pattern: w('azure|entra|cosmos db|microsoft fabric|fabric') },
  { family: 'cloud', value: 'gcp', pattern: w('gcp|google cloud|bigquery|cloud run|firebase|vertex ai') },
  { family: 'cloud', value: 'alibaba', pattern: /阿里云|aliyun|alibaba cloud|dashscope|百炼/u },
  { family: 'engine', value: 'unity', pattern: w('unity|unity3d') },
  { family: 'engine', value: 'godot', pattern: w('godot|gdscript') },
  { family: 'engine', value: 'unreal', pattern: w('unreal|ue5|ue4|blueprints') },
  { family: 'wiki', value: 'notion', pattern: w('notion') },
  { family: 'wiki', value: 'confluence', pattern: w('confluence') },
  { family: 'wiki', value: 'obsidian', pattern: w('obsidian') },
  // Who the skill is written for.
  { family: 'audience', value: 'novice', pattern: words('beginners?|novices?|non-technical|kids|children|for dummies|first-time', '初学者|小白|零基础|儿童|入门') },
  { family: 'audience', value: 'expert', pattern: words('experts?|advanced|senior|professionals?|power users?', '专家|资深|高级') },
  // Business segment.
  { family: 'segment', value: 'smb', pattern: words('smbs?|small business(?:es)?|small teams?|solopreneurs?|freelancers?', '小企业|个体') },
  { family: 'segment', value: 'enterprise', pattern: words('enterprises?|enterprise-grade|fortune 500', '大型企业|企业级') },
];

/**
 * Clauses where a description says what the skill is *not* for ("Do not use for clearly non-.NET
 * tasks (Python, JavaScript, Go)", "NOT for SEO audits (use seo-audit)"): up to the end of the
 * sentence (a full stop ends it only before a space: ".NET" and "Node.js" do not). What they
 * name are exclusions, not facets of the skill.
 */
const NEGATED = /(?<![\p{L}])(?:do not use|don['’]t use|never use|not (?:intended |meant |designed )?for|not to be used for|avoid (?:using )?(?:this|it) for|不要用于|不适用于|不用于)(?:[^.;!?。；！？\n]|\.(?!\s|$))*/giu;

/** `text` split into what it says the skill is for and the clauses saying what it is not for. */
export function splitNegated(text: string): { positive: string; negated: string } {
  const negated: string[] = [];
  const positive = text.replace(NEGATED, (m) => {
    negated.push(m);
    return ' ';
  });
  return { positive, negated: negated.join('. ') };
}

/** Facets a skill's text explicitly excludes (named only in "not for ..." clauses, see `splitNegated`). */
export function excludedFacets(text: string): Facets {
  const { positive, negated } = splitNegated(text);
  if (!negated) return {};
  const own = facetsOf(positive, '');
  const out: Facets = {};
  for (const [family, values] of Object.entries(facetsOf(negated, '')) as [FacetFamily, string[]][]) {
    const left = values.filter((v) => !(own[family] ?? []).includes(v));
    if (left.length) out[family] = left;
  }
  return out;
}

/** Whether a request names a value of some family that `excluded` lists (the author said: not for this). */
export function excludes(excluded: Facets, request: Facets): boolean {
  return (Object.entries(request) as [FacetFamily, string[]][]).some(([family, values]) => values.some((v) => excluded[family]?.includes(v)));
}

/** An umbrella skill: routes to, bundles, indexes or introduces other skills. */
const UMBRELLA = [
  /(?<![\p{L}])(?:router|entry point|hands? off to|routes? (?:to|requests)|index of|collection of (?:\d+ )?skills|bundle of|catalog(?:ue)? of|meta-skill|umbrella|fundamentals|example skill|template skill|skill template|placeholder)(?![\p{L}])/u,
  /路由|入口|索引|合集|基础概念|示例技能|模板技能/u,
];
const UMBRELLA_NAME = /(?:^|[-_\s])(?:router|index|bundle|overview|fundamentals|basics|example|template|start|all|skills)(?:$|[-_\s])/u;

/** The facets of one text; `name` is the skill name or folder (for name-only words). */
export function detectFacets(text: string, name = ''): Facets {
  // What a "not for ..." clause names is not the skill's (see `excludedFacets`).
  return facetsOf(splitNegated(text).positive, name);
}

/** Facets named anywhere in `text` (and `name`), negated or not. */
function facetsOf(text: string, name: string): Facets {
  const body = text.toLowerCase();
  const head = name.toLowerCase().replace(/[_]+/g, '-');
  const headWords = head.replace(/-/g, ' ');
  const out: Facets = {};
  for (const rule of RULES) {
    const hit = rule.nameOnly
      ? rule.pattern.test(headWords) || (rule.cased?.test(text) ?? false)
      : rule.pattern.test(body) || rule.pattern.test(headWords);
    if (!hit) continue;
    const list = (out[rule.family] ??= []);
    if (!list.includes(rule.value)) list.push(rule.value);
  }
  // TypeScript helpers and React skills often mention Node; a frontend value implies JavaScript
  // (Blazor's is C#).
  if (out.frontend?.some((v) => v !== 'blazor') && out.language && !out.language.includes('javascript')) out.language.push('javascript');
  for (const list of Object.values(out)) list?.sort();
  return out;
}

/** True when the skill presents itself as a router, bundle, index, example or fundamentals skill. */
export function isUmbrella(name: string, description: string): boolean {
  const text = description.toLowerCase();
  return UMBRELLA_NAME.test(name.toLowerCase()) || UMBRELLA.some((re) => re.test(text));
}

/**
 * Families where both sides name values and share none: the pair needs different stacks or
 * platforms. `spans` (the request's own facets) lifts a family the request itself spans.
 */
export function facetMismatches(a: Facets, b: Facets, spans?: Facets): { family: FacetFamily; a: string[]; b: string[] }[] {
  const out: { family: FacetFamily; a: string[]; b: string[] }[] = [];
  for (const family of Object.keys(a) as FacetFamily[]) {
    const va = a[family];
    const vb = b[family];
    if (!va?.length || !vb?.length) continue;
    if (va.some((v) => vb.includes(v))) continue;
    // A request naming values of both sides (a Rust-to-Go port) spans the family.
    const q = spans?.[family];
    if (q && va.some((v) => q.includes(v)) && vb.some((v) => q.includes(v))) continue;
    out.push({ family, a: va, b: vb });
  }
  return out;
}

/** Lower-cased folder name of a skill id (`owner__repo/pdf-extract` → `pdf-extract`). */
export function folderOf(id: string): string {
  const slash = id.lastIndexOf('/');
  return (slash < 0 ? id : id.slice(slash + 1)).toLowerCase();
}

/**
 * Whether `text` names the skill `name` as a separate skill ("use pdf-reader instead", "not for
 * X"). Names shorter than 4 characters are ignored (too likely to be ordinary words). A name
 * written as a file name names the file, not the skill: "a thorough `.editorconfig` for a
 * repository" does not name the skill editorconfig.
 */
export function mentionsSkill(text: string, name: string): boolean {
  return mentionsSkillLower(text.toLowerCase(), name);
}

/**
 * Whether a lower-cased description sends requests to a skill whose one-word name is too short
 * for `mentionsSkillLower` to count as a name: the name after "use", alone or last in a list of
 * names ("for IBM hardware use qiskit", "use dask or vaex", "use rdkit directly"). "use the
 * pandas API" does not send to a skill named pandas.
 */
export function sendsToLower(lowerText: string, name: string): boolean {
  const n = name.toLowerCase().trim();
  if (n.length < 3 || !/^[\p{L}\p{N}]+$/u.test(n) || !lowerText.includes(n)) return false;
  const item = '[\\p{L}\\p{N}][\\p{L}\\p{N}.-]*';
  return new RegExp(`(?<![\\p{L}])use (?:${item}(?:, or |, and |, | or | and ))*${n}(?![\\p{L}\\p{N}-])`, 'u').test(lowerText);
}

/** `mentionsSkill` for a text already lower-cased (a profile's `lowerDescription`): every pair judgement asks it four times. */
export function mentionsSkillLower(lowerText: string, name: string): boolean {
  const n = name.toLowerCase().trim();
  // Written as a command (/careful, as the clients invoke a skill), a name of any length is one;
  // not inside a path (docs/careful) or a URL.
  if (n.length >= 2 && lowerText.includes(`/${n}`) && new RegExp(`(?<![\\p{L}\\p{N}/._~-])/${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}_/-])`, 'u').test(lowerText)) return true;
  if (n.length < 4 || !/[-_]/.test(n) && !/[\u3400-\u9fff]/.test(n) && n.length < 8) return false;
  for (let at = lowerText.indexOf(n); at >= 0; at = lowerText.indexOf(n, at + 1)) {
    const before = at > 0 ? lowerText[at - 1] : ' ';
    const after = lowerText[at + n.length] ?? ' ';
    if (!/[\p{L}\p{N}.-]/u.test(before) && !/[\p{L}\p{N}-]/u.test(after)) return true;
  }
  return false;
}

/** The first sentence of a description (where an agent looks first); "Node.js" does not end one. */
export function firstSentence(description: string): string {
  return description.trim().split(/(?<=[.!?])\s+|(?<=[。！？])|\n/u)[0] ?? '';
}
