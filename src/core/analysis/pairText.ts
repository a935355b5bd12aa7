/**
 * Pair findings in words, as an author reads them: what the router did with the requests written
 * for each skill, a request it ranked both for, and what to do. Reasons are said in words ("the
 * same job on another platform (AWS vs Azure)"); class names stay in the data.
 */
import type { SkillDoc } from '../types';
import type { FacetFamily } from './facets';
import type { EvidenceRequest, PairFinding, ProbeDirection, Verdict } from './types';

/** What a message is made of. */
export interface PairFacts {
  a: SkillDoc;
  b: SkillDoc;
  verdict: Verdict;
  directions: Record<string, ProbeDirection>;
  example: EvidenceRequest;
}

const LABELS: Record<string, string> = {
  python: 'Python', rust: 'Rust', go: 'Go', java: 'Java', kotlin: 'Kotlin', swift: 'Swift', dotnet: '.NET', cpp: 'C++',
  ruby: 'Ruby', php: 'PHP', elixir: 'Elixir', scala: 'Scala', dart: 'Dart', javascript: 'JavaScript', r: 'R', julia: 'Julia',
  haskell: 'Haskell', solidity: 'Solidity', react: 'React', vue: 'Vue', angular: 'Angular', svelte: 'Svelte', ios: 'iOS',
  android: 'Android', aws: 'AWS', azure: 'Azure', gcp: 'Google Cloud', alibaba: 'Alibaba Cloud', unity: 'Unity',
  godot: 'Godot', unreal: 'Unreal', notion: 'Notion', confluence: 'Confluence', obsidian: 'Obsidian',
};

const FAMILY_WORDS: Record<FacetFamily | 'product', string> = {
  product: 'for another product',
  language: 'in another language',
  frontend: 'with another framework',
  mobile: 'on another platform',
  cloud: 'on another platform',
  engine: 'on another engine',
  wiki: 'in another tool',
  audience: 'for another audience',
  segment: 'for another business segment',
};

/** Facet values as people write them: `aws` → AWS, `dotnet` → .NET. */
export function label(values: readonly string[]): string {
  return values.map((v) => LABELS[v] ?? v).join('/');
}

/** "the same job on another platform (AWS vs Azure)". */
export function variantReason(v: Extract<Verdict, { kind: 'variant' }>, a: string, b: string): string {
  return `the same job ${FAMILY_WORDS[v.family]} (${label(v.values[a])} vs ${label(v.values[b])})`;
}

/** `n of m requests written for x`. */
function written(d: ProbeDirection, name: string): string {
  return `${d.taken} of ${d.sent} ${d.sent === 1 ? 'request' : 'requests'} written for ${name}`;
}

/** The example, quoted (with how the bridge read it, for a Chinese request). */
function quoted(e: EvidenceRequest): string {
  return `"${e.query}"${e.readAs ? ` (read as "${e.readAs}")` : ''}`;
}

/** The pair's evidence in one sentence, the same from either side. */
export function pairMessage(f: PairFacts): string {
  const { a, b, verdict } = f;
  const da = f.directions[a.id];
  const db = f.directions[b.id];
  if (verdict.kind === 'umbrella') {
    const [u, t] = verdict.umbrella === a.id ? [a, b] : [b, a];
    const dt = f.directions[t.id];
    const why = {
      hub: `${u.name}'s body names many of the other skills (a hub)`,
      spread: `${u.name}, an umbrella skill, spreads its requests over more skills`,
      role: `${u.name} is named for a role and ${t.name} for the ${holds(t.name)} it holds, a part of that role's work`,
    }[verdict.by];
    return `${written(dt, t.name)} also ${dt.taken === 1 ? 'ranks' : 'rank'} ${u.name} in the top 3, and ${why}; e.g. ${quoted(f.example)}.`;
  }
  const firsts = (d: ProbeDirection, other: string) => (d.first ? ` (${other} first for ${d.first})` : '');
  const rank = (d: ProbeDirection) => (d.taken === 1 ? 'ranks' : 'rank');
  // Twins: every request of each ranks the two first and second.
  const adjacent = da.behind === da.sent && db.behind === db.sent && !da.first && !db.first;
  const both = adjacent
    ? `${written(da, a.name)} ${rank(da)} ${b.name} right behind it, and ${db.taken} of ${db.sent} written for ${b.name} ${rank(db)} ${a.name} right behind it; e.g. ${quoted(f.example)}.`
    : `${written(da, a.name)} also ${rank(da)} ${b.name} in the top 3${firsts(da, b.name)}, and ${db.taken} of ${db.sent} written for ${b.name} ${rank(db)} ${a.name} there${firsts(db, a.name)}; e.g. ${quoted(f.example)}.`;
  if (verdict.kind === 'variant') return `${capitalise(variantReason(verdict, a.id, b.id))}: ${both}`;
  if (verdict.kind === 'sequence') {
    const [first, then] = verdict.first === a.id ? [a, b] : [b, a];
    return `Two steps of one piece of work (${verdict.words[0]} with ${first.name}, then ${verdict.words[1]} with ${then.name}): ${both}`;
  }
  return both;
}

/** What a skill named for a body of knowledge holds, from its last name word (`roleOver`). */
function holds(name: string): string {
  const last = name.toLowerCase().split(/[-_]/).pop() ?? '';
  return ({ architecture: 'architecture guidance', practices: 'best practices' } as Record<string, string>)[last] ?? last;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The message of a pair finding on `self`, about `other`. */
export function sideMessage(p: PairFinding, self: SkillDoc, other: SkillDoc): string {
  const twin = `"${other.name}" (${other.id})`;
  if (p.kind === 'copy') return `Copy of ${twin}: ${p.explanation}`;
  const d = p.detail;
  if (d?.kind === 'umbrella') {
    return d.umbrella === self.id
      ? `Umbrella over ${twin}: ${p.explanation} Say in this description which requests it hands off to ${other.name}.`
      : `${twin} is an umbrella over this skill: ${p.explanation} Say in ${other.name} which requests it hands off here, or here what this skill does that it does not.`;
  }
  if (d?.kind === 'sequence') {
    const advice =
      d.first === self.id
        ? `Say in this description that it comes first, and that ${other.name} is the next step (${d.words[1]}); say the same in ${other.name}.`
        : `Say in this description that it comes after ${other.name} (${d.words[0]}) and what it takes from it; say the same in ${other.name}.`;
    return `Sequence with ${twin}: ${p.explanation} ${advice}`;
  }
  if (d?.kind === 'variant') {
    const mine = label(d.values[self.id] ?? []);
    const theirs = label(d.values[other.id] ?? []);
    const advice = d.unnamed.includes(self.id)
      ? `Name ${mine} in the first sentence of this description so a request picks one.`
      : `This description names ${mine} first; ${other.name} does not say ${theirs} in its first sentence.`;
    return `Conflict with ${twin}: ${p.explanation} ${advice}`;
  }
  if (d?.kind === 'near-duplicate' && d.twice) {
    const what = d.twice === 'language' ? 'the same skill in another language (a translation under the same name)' : 'the same skill under its name written another way';
    return `Near-duplicate of ${twin}, ${what}: the router cannot keep them apart. ${p.explanation} Keep one (an agent lists both), and merge into it what the other adds.`;
  }
  return `Near-duplicate of ${twin}: the router cannot keep them apart. ${p.explanation} Merge them, or say in each description when to use the other.`;
}
