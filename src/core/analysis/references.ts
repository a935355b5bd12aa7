/**
 * References in a SKILL.md body: the places that name another skill of the library (`` `jira-search` ``,
 * `/ship`, `$verify`, a plain hyphenated name such as `pdf-tools`, `[skill:docx]`), and the files of
 * its own folder it points at (`[forms](references/forms.md)`, `` `scripts/fill.py` ``). One scan
 * serves the language server (definition, references, rename, document links) and `check`
 * (`skill.broken-reference`, `file.broken-link`).
 *
 * A false reference costs more than a missed one: a rename that rewrites a word that only looked
 * like a skill's name damages the author's text. So a reference is an exact, case-sensitive match
 * of a skill's name or folder name, never inside a fenced code block, a URL, a link target, a path
 * (`tools/pdf-tools/x`, `pdf-tools.md`) or a command-line flag (`--dry-run`); a one-word name counts
 * only where it is marked (`/docx`, `$docx`, `[skill:docx]`, or in backticks on a line that says
 * "skill"), since as a plain word it is usually just the word. `routing`'s cross-references
 * (route/crossRefs.ts) are looser on purpose: there a missed name costs more.
 */
import type { Finding, SkillDoc, TextRange } from '../types';

/** How a reference is written. */
export type ReferenceForm = 'code' | 'slash' | 'dollar' | 'tag' | 'word';

/** One place in a body that names a skill (or, for candidates, looks as if it did). */
export interface NameOccurrence {
  /** The name as written, without its `/`, `$` or backticks. */
  name: string;
  form: ReferenceForm;
  /** Zero-based line in the body, and the columns of the name itself (end exclusive). */
  line: number;
  start: number;
  end: number;
}

/** A relative link or path mention in a body, resolved against the skill folder. */
export interface FileMention {
  /** The target as written (without `#anchor`). */
  target: string;
  /** Path relative to the skill folder, `/`-separated and normalised (`..` allowed at the front). */
  path: string;
  /** A Markdown link (`[t](x)`) or a bare path mention (`` `scripts/fill.py` ``). */
  kind: 'link' | 'path';
  line: number;
  start: number;
  end: number;
}

/** What one scan of a body found. */
export interface BodyScan {
  /** Occurrences that name a skill of the library. */
  references: NameOccurrence[];
  /** Marked names that match no skill (candidates for `skill.broken-reference`). */
  unknown: (NameOccurrence & { explicit: boolean })[];
  files: FileMention[];
}

/** The skills a library's names resolve to. */
export class LibraryNames {
  private readonly byName = new Map<string, string[]>();
  /** Every distinct name, for "did you mean". */
  readonly names: string[];

  constructor(docs: Iterable<Pick<SkillDoc, 'id' | 'name'>>) {
    for (const d of docs) for (const k of skillNames(d)) {
      const ids = this.byName.get(k);
      if (!ids) this.byName.set(k, [d.id]);
      else if (!ids.includes(d.id)) ids.push(d.id);
    }
    this.names = [...this.byName.keys()];
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /**
   * The skills `name` names, seen from skill `fromId`: where copies in several collections share
   * it, those in `fromId`'s own top-level folder, if any.
   */
  resolve(name: string, fromId?: string): string[] {
    const ids = this.byName.get(name) ?? [];
    if (ids.length < 2 || fromId === undefined) return ids;
    const top = (id: string) => id.split('/')[0];
    const near = ids.filter((id) => top(id) === top(fromId));
    return near.length ? near : ids;
  }

  /**
   * The library's name one edit from `name` (a swap of neighbours counts one), if any: a typo.
   * Two edits were tried on the corpus and mostly found sibling skills that were meant
   * (`vitest-skill` for `pytest-skill`, `azure-eventhub-py` for `-ts`), not typos.
   */
  closest(name: string): string | undefined {
    if (this.typos.has(name)) return this.typos.get(name);
    const found = this.nearest(name);
    if (this.typos.size < 10_000) this.typos.set(name, found);
    return found;
  }

  /** Names already looked up by `closest` (bodies repeat a name; edits repeat the body). */
  private readonly typos = new Map<string, string | undefined>();

  private nearest(name: string): string | undefined {
    const limit = 1;
    let best: string | undefined;
    let bestD = limit + 1;
    for (const n of this.names) {
      if (Math.abs(n.length - name.length) > limit || n.length < 3) continue;
      const d = editDistance(name, n, limit);
      if (d < bestD || (d === bestD && best !== undefined && n < best)) [best, bestD] = [n, d];
    }
    return bestD <= limit ? best : undefined;
  }
}

/** The names a skill is referred to by: its front-matter name and its folder name (3+ characters). */
export function skillNames(doc: Pick<SkillDoc, 'id' | 'name'>): string[] {
  const folder = doc.id.slice(doc.id.lastIndexOf('/') + 1);
  return [...new Set([doc.name.trim(), folder])].filter((n) => n.length >= 3 && NAME.test(n));
}

/**
 * Optimal-string-alignment distance (a swap of two neighbours counts one), stopping early once
 * every cell of a row is over `limit`.
 */
export function editDistance(a: string, b: string, limit = Infinity): number {
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let min = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      row.push(v);
      min = Math.min(min, v);
    }
    if (min > limit) return limit + 1;
    [prev2, prev] = [prev, row];
  }
  return prev[b.length];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
/** A name written as skills are named: lower case, words joined by single hyphens. */
const NAME_SHAPED = /^[a-z0-9]+(?:-[a-z0-9]+)+$/;
const ONE_WORD = /^[a-z0-9]{3,}$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const TOKEN = /[A-Za-z0-9][A-Za-z0-9_-]*/g;
const SKILL_TAG = /\[skill:\s{0,8}([A-Za-z0-9][A-Za-z0-9_-]{0,63})\s{0,8}\]/g;
// Every quantifier that could run on is bounded, and code spans and links are found by hand: a
// pasted blob (1 MB of `[`, `` ` `` or `a.a.a`) must not make a scan quadratic.
const URL = /\b[a-z][a-z0-9+.-]{0,31}:\/\/\S*|\bwww\.\S+|<[^>\s]{0,2048}[:@][^>\s]{0,2048}>/gi;
/** A link's target after its `](` (sticky, tried at each `](`): `(x)`, `(<x y>)`, `(x "title")`. */
const LINK_TARGET = /\]\(\s{0,8}(<[^>\n]{0,2048}>|[^()\s]{1,2048})(?:\s{1,8}(?:"[^"]{0,512}"|'[^']{0,512}'))?\s{0,8}\)/y;
/** Folders of a skill the spec names, and the usual others: a bare path is only read under these. */
const PATH_MENTION = /^(?:\.\/)?(?:scripts|references|assets|templates|examples|reference|resources|docs)\/[A-Za-z0-9_.\-/]*[A-Za-z0-9_-]\.[A-Za-z0-9]{1,8}$/;
const SKILL_WORD = /\bskills?\b/i;
const SAYS_SKILL_BEFORE = /\bskill:?\s*$/i;
const SAYS_SKILL_AFTER = /^\s*(?:skill\b|技能)/i;
/** "a `pdf-editor` skill", "an `x` skill": a skill one could write, not one that is named. */
const INDEFINITE = /\b(?:a|an)\s*$/i;
/** A line that gives an example: the skill it names is one to write, not one to use. */
const EXAMPLE = /\b(?:example|e\.g\.|for instance)\b|示例|例如/i;

const isNameChar = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_-]/.test(c);

/** Splits a body into its lines, with whether each is inside (or opens or closes) a fenced code block. */
export function proseLines(body: string): { text: string; fenced: boolean }[] {
  const out: { text: string; fenced: boolean }[] = [];
  let open: string | null = null;
  for (const text of body.split('\n')) {
    const m = FENCE.exec(text);
    if (open) {
      if (m && m[1][0] === open[0] && m[1].length >= open.length && !text.slice(m[0].length).trim()) open = null;
      out.push({ text, fenced: true });
    } else if (m) {
      open = m[1];
      out.push({ text, fenced: true });
    } else out.push({ text, fenced: false });
  }
  return out;
}

/**
 * Scans a body: references to `names`, marked names that match none, and file mentions. Fenced
 * code blocks are skipped whole.
 */
export function scanBody(body: string, names: Pick<LibraryNames, 'has'>): BodyScan {
  const scan: BodyScan = { references: [], unknown: [], files: [] };
  proseLines(body).forEach(({ text, fenced }, line) => {
    if (!fenced && text.trim()) scanLine(text, line, names, scan);
  });
  return scan;
}

function scanLine(text: string, line: number, names: Pick<LibraryNames, 'has'>, scan: BodyScan): void {
  const saysSkill = SKILL_WORD.test(text);
  const example = EXAMPLE.test(text);
  // What later passes must not read as prose: code spans, link targets, URLs (masked with spaces,
  // so columns stay put).
  // Ranges are gathered per pass and blanked once after it (a pass reads the text as it was when
  // it began): blanking at each match copied the line once per match.
  let prose = text;
  let pending: [number, number][] = [];
  const mask = (from: number, to: number) => void pending.push([from, to]);
  const apply = () => {
    if (!pending.length) return;
    let out = '';
    let at = 0;
    for (const [f, t] of pending.sort((a, b) => a[0] - b[0])) {
      const from = Math.max(f, at);
      if (t <= from) continue;
      out += prose.slice(at, from) + ' '.repeat(t - from);
      at = t;
    }
    prose = out + prose.slice(at);
    pending = [];
  };

  for (let at = text.indexOf(']('); at >= 0; at = text.indexOf('](', at + 2)) {
    LINK_TARGET.lastIndex = at;
    const m = LINK_TARGET.exec(text);
    if (!m) continue;
    const angle = m[1].startsWith('<');
    const targetAt = at + m[0].indexOf(m[1]) + (angle ? 1 : 0);
    const file = relativeTarget(angle ? m[1].slice(1, -1) : m[1]);
    if (file) scan.files.push({ target: file.target, path: file.path, kind: 'link', line, start: targetAt, end: targetAt + file.target.length });
    mask(at + 1, at + m[0].length);
  }
  apply();
  if (/:\/\/|www\.|</.test(prose)) for (const m of prose.matchAll(URL)) mask(m.index!, m.index! + m[0].length);
  apply();

  for (const span of codeSpans(prose)) {
    const content = prose.slice(span.contentStart, span.contentEnd);
    const inner = content.trim();
    mask(span.start, span.end);
    if (!inner) continue;
    const at = span.contentStart + content.indexOf(inner);
    codeSpan(inner, at, line, text, span.start, span.end, saysSkill, example, names, scan);
  }
  apply();
  if (prose.includes('[skill:')) for (const m of prose.matchAll(SKILL_TAG)) {
    const at = m.index! + m[0].indexOf(m[1], 6);
    if (names.has(m[1])) scan.references.push({ name: m[1], form: 'tag', line, start: at, end: at + m[1].length });
    else if (NAME_SHAPED.test(m[1]) || ONE_WORD.test(m[1])) scan.unknown.push({ name: m[1], form: 'tag', line, start: at, end: at + m[1].length, explicit: true });
    mask(m.index!, m.index! + m[0].length);
  }
  apply();
  for (const m of prose.matchAll(TOKEN)) proseToken(prose, m[0], m.index!, line, names, scan);
}

/**
 * The code spans of a line (CommonMark: a run of backticks closes at the next run of the same
 * length; one that never closes is literal), in one pass over the runs.
 */
export function codeSpans(text: string): { start: number; end: number; contentStart: number; contentEnd: number }[] {
  const runs: { start: number; length: number }[] = [];
  for (let i = text.indexOf('`'); i >= 0; i = text.indexOf('`', i)) {
    let j = i;
    while (text[j] === '`') j++;
    runs.push({ start: i, length: j - i });
    i = j;
  }
  // Per run length, the runs of that length in order, and how far each list has been read.
  const byLength = new Map<number, number[]>();
  runs.forEach((r, k) => (byLength.get(r.length) ?? byLength.set(r.length, []).get(r.length)!).push(k));
  const read = new Map<number, number>();
  const out: { start: number; end: number; contentStart: number; contentEnd: number }[] = [];
  for (let k = 0; k < runs.length; ) {
    const { start, length } = runs[k];
    const list = byLength.get(length)!;
    let p = read.get(length) ?? 0;
    while (p < list.length && list[p] <= k) p++;
    read.set(length, p);
    if (p >= list.length) {
      k++;
      continue;
    }
    const close = runs[list[p]];
    out.push({ start, end: close.start + length, contentStart: start + length, contentEnd: close.start });
    k = list[p] + 1;
  }
  return out;
}

/** A code span's content: a name (`x`, `/x`, `$x`, `/x args`) or a path into the skill folder. */
function codeSpan(
  inner: string,
  at: number,
  line: number,
  text: string,
  spanStart: number,
  spanEnd: number,
  saysSkill: boolean,
  example: boolean,
  names: Pick<LibraryNames, 'has'>,
  scan: BodyScan,
): void {
  if (PATH_MENTION.test(inner)) {
    const path = normalise(inner);
    if (path) scan.files.push({ target: inner, path, kind: 'path', line, start: at, end: at + inner.length });
    return;
  }
  // A plugin's namespace before the name (`superpowers:test-driven-development`, as Claude Code
  // lists a plugin's skills): a reference when the library has the name; another plugin's otherwise.
  const ns = /^[a-z0-9][a-z0-9-]{0,63}:([A-Za-z0-9][A-Za-z0-9_-]*)$/.exec(inner);
  if (ns) {
    const start = at + inner.length - ns[1].length;
    if (names.has(ns[1])) scan.references.push({ name: ns[1], form: 'code', line, start, end: start + ns[1].length });
    return;
  }
  const m = /^([/$]?)([A-Za-z0-9][A-Za-z0-9_-]*)(\s+\S.*)?$/.exec(inner);
  if (!m) return;
  const [, marker, name, args] = m;
  // Arguments only after a slash command (`/ship --fast`); `pdf-tools x` is code.
  if (args && marker !== '/') return;
  if (marker === '$' && !/[a-z]/.test(name)) return;
  const start = at + marker.length;
  const occ: NameOccurrence = { name, form: marker === '/' ? 'slash' : marker === '$' ? 'dollar' : 'code', line, start, end: start + name.length };
  // The words next to the span only (a line of thousands of spans is read once, not once a span).
  const before = text.slice(Math.max(0, spanStart - 32), spanStart);
  const explicit = !INDEFINITE.test(before) && !example && (SAYS_SKILL_BEFORE.test(before) || SAYS_SKILL_AFTER.test(text.slice(spanEnd, spanEnd + 16)));
  if (names.has(name)) {
    // A one-word name in backticks is usually code (`pdf`): a reference only where the line says skill.
    if (marker || name.includes('-') || name.includes('_') || saysSkill) scan.references.push(occ);
    return;
  }
  if (marker === '$') return; // an unknown `$x` is a variable
  if (NAME_SHAPED.test(name) || (ONE_WORD.test(name) && (explicit || marker === '/'))) scan.unknown.push({ ...occ, explicit });
}

/** A word of prose: `/name`, `$name`, or a hyphenated name standing alone (not in a path, flag or file name). */
function proseToken(prose: string, token: string, at: number, line: number, names: Pick<LibraryNames, 'has'>, scan: BodyScan): void {
  const before = prose[at - 1];
  const end = at + token.length;
  const after = prose[end];
  // Part of a path, file name, domain, version or e-mail address.
  if (after === '/' || after === '\\' || after === '@' || (after === '.' && isNameChar(prose[end + 1])) || after === ':' && isNameChar(prose[end + 1])) return;
  if (before === '/' || before === '$') {
    const outer = prose[at - 2];
    if (outer !== undefined && !/[\s([{"'*_>|,]/.test(outer)) return;
    if (!names.has(token)) {
      if (before === '/' && NAME_SHAPED.test(token)) scan.unknown.push({ name: token, form: 'slash', line, start: at, end, explicit: false });
      return;
    }
    if (before === '$' && !/[a-z]/.test(token)) return;
    scan.references.push({ name: token, form: before === '/' ? 'slash' : 'dollar', line, start: at, end });
    return;
  }
  // A plugin's namespace before it (`superpowers:brainstorming`): a word, after a space or the line's start.
  if (before === ':' && token.includes('-') && names.has(token) && /(?:^|[\s(*_"'>])[a-z0-9][a-z0-9-]{0,63}$/.test(prose.slice(Math.max(0, at - 66), at - 1))) {
    scan.references.push({ name: token, form: 'word', line, start: at, end });
    return;
  }
  if (before !== undefined && /[-.\\@~=#%&+:]/.test(before)) return;
  if (!token.includes('-') || !names.has(token)) return;
  // A word in a chunk that holds a path separator is part of a path (`lib/pdf-tools`); one with
  // `=` is a value (`subagent_type="performance-engineer"` names an agent, not the skill).
  // (Looked for within 256 characters: a longer run without a space is no prose.)
  const window = prose.slice(Math.max(0, at - 256), end + 256);
  const from = at - Math.max(0, at - 256);
  const chunkStart = window.lastIndexOf(' ', from) + 1;
  const chunkEnd = window.indexOf(' ', from + token.length);
  if (/[/\\=]/.test(window.slice(chunkStart, chunkEnd < 0 ? undefined : chunkEnd))) return;
  scan.references.push({ name: token, form: 'word', line, start: at, end });
}

/** A link target relative to the skill folder (not a URL, anchor, absolute path or e-mail), normalised. */
function relativeTarget(raw: string): { target: string; path: string } | null {
  const target = raw.replace(/[#?].*$/, '');
  if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/') || target.startsWith('\\') || target.startsWith('~') || /[{}<>*$]/.test(target)) return null;
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    return null;
  }
  const path = normalise(decoded);
  return path ? { target, path } : null;
}

/** `./a/../b/` → `b`; leading `..` kept; null for an empty path. */
function normalise(p: string): string | null {
  const out: string[] = [];
  for (const part of p.split(/[/\\]/)) {
    if (!part || part === '.') continue;
    if (part === '..' && out.length && out[out.length - 1] !== '..') out.pop();
    else out.push(part);
  }
  return out.length ? out.join('/') : null;
}

/** The folder of a skill relative to the library root (`''` for a SKILL.md at the root). */
export function skillFolder(doc: Pick<SkillDoc, 'path'>): string {
  const at = doc.path.lastIndexOf('/');
  return at < 0 ? '' : doc.path.slice(0, at);
}

/** A path relative to the skill folder, relative to the library root; null when it leaves the library. */
export function libraryPath(doc: Pick<SkillDoc, 'path'>, relPath: string): string | null {
  const joined = normalise(`${skillFolder(doc)}/${relPath}`);
  return joined && !joined.startsWith('..') ? joined : null;
}

/** What the finder needs to know about files: whether a library-relative path exists. */
export type FileExists = (libraryRelPath: string) => boolean;

const MAX_UNKNOWN = 200;

export const REFERENCE_CODES = { brokenReference: 'skill.broken-reference', brokenLink: 'file.broken-link' } as const;

export const bodyRange = (doc: Pick<SkillDoc, 'bodyStartLine'>, o: { line: number; start: number; end: number }): TextRange => ({
  start: { line: doc.bodyStartLine + o.line, character: o.start },
  end: { line: doc.bodyStartLine + o.line, character: o.end },
});

/**
 * `skill.broken-reference` and `file.broken-link` of one skill. A name is reported only where a
 * skill of the library is one typo away (the finding's `suggestion` is that name) or where the
 * text says it is a skill (`` the `x` skill ``); a file only when the host can tell (`exists` given)
 * and it lies inside the library.
 */
export function referenceFindings(doc: Pick<SkillDoc, 'id' | 'path' | 'body' | 'bodyStartLine' | 'name'>, names: LibraryNames, exists?: FileExists): Finding[] {
  const scan = scanBody(doc.body, names);
  const out: Finding[] = [];
  const own = new Set(skillNames(doc));
  // A body with more unknown names than this is a list of something else, not of skills.
  for (const u of scan.unknown.slice(0, MAX_UNKNOWN)) {
    // Only a name written as skills are named is read as a typo (`/auth` is a URL path, not `oauth`).
    let close = NAME_SHAPED.test(u.name) ? names.closest(u.name) : undefined;
    // One edit from the skill's own name is a sibling it sets itself apart from (`sqldb-cli` on `sqldw-cli`).
    if (close !== undefined && own.has(close)) close = undefined;
    const written = u.form === 'slash' ? `/${u.name}` : u.form === 'dollar' ? `$${u.name}` : u.name;
    if (close !== undefined) {
      out.push({ code: REFERENCE_CODES.brokenReference, severity: 'warning', message: `No skill of this library is named '${u.name}': did you mean '${close}'?`, range: bodyRange(doc, u), suggestion: close });
    } else if (u.explicit) {
      // Often a skill installed elsewhere (a client's built-in one, another plugin's): worth knowing, not a fault.
      out.push({ code: REFERENCE_CODES.brokenReference, severity: 'info', message: `'${written}' is written as a skill, but no skill of this library is named '${u.name}'`, range: bodyRange(doc, u) });
    }
  }
  if (exists) {
    const seen = new Set<string>();
    for (const f of scan.files) {
      const target = libraryPath(doc, f.path);
      if (target === null || exists(target)) continue;
      const key = `${f.line}:${f.start}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ code: REFERENCE_CODES.brokenLink, severity: 'warning', message: `No file at '${f.target}' (from the skill's folder)`, range: bodyRange(doc, f) });
    }
  }
  return out;
}

/** A reference of one skill's body, resolved and placed in its file. */
export interface ResolvedReference extends NameOccurrence {
  /** The skill whose body holds it. */
  fromId: string;
  /** The skills it names. */
  toIds: string[];
  range: TextRange;
}

/** Every reference in `doc`'s body to a skill of `names`, placed in the file and resolved. */
export function resolvedReferences(doc: Pick<SkillDoc, 'id' | 'body' | 'bodyStartLine'>, names: LibraryNames): ResolvedReference[] {
  return scanBody(doc.body, names).references.map((r) => ({ ...r, fromId: doc.id, toIds: names.resolve(r.name, doc.id), range: bodyRange(doc, r) }));
}

/** Who names whom in a library (self-references left out). */
export interface ReferenceGraph {
  /** Per skill id, the other skills its body names. */
  outgoing: Map<string, Set<string>>;
  /** Per skill id, the other skills that name it. */
  incoming: Map<string, Set<string>>;
}

/**
 * The reference graph of a library: per skill, which other skills it names and which name it. A
 * skill that names most of its library is a hub (an index or router skill).
 */
export function referenceGraph(docs: readonly Pick<SkillDoc, 'id' | 'name' | 'body' | 'bodyStartLine'>[]): ReferenceGraph {
  const names = new LibraryNames(docs);
  const outgoing = new Map<string, Set<string>>();
  const incoming = new Map<string, Set<string>>();
  for (const d of docs) {
    outgoing.set(d.id, new Set());
    incoming.set(d.id, new Set());
  }
  for (const d of docs) {
    for (const r of resolvedReferences(d, names)) {
      for (const to of r.toIds) {
        if (to === d.id) continue;
        outgoing.get(d.id)!.add(to);
        incoming.get(to)!.add(d.id);
      }
    }
  }
  return { outgoing, incoming };
}

/**
 * The range of the `name` value on its front-matter line (inside quotes, without a comment), or
 * undefined when the name is not a one-line scalar.
 */
export function nameValueRange(lines: readonly string[], keyRange: TextRange | undefined): TextRange | undefined {
  if (!keyRange || keyRange.start.line !== keyRange.end.line) return undefined;
  const line = keyRange.start.line;
  const m = /^(name\s*:\s*)(["']?)([^"'#]*?)\2\s*(?:#.*)?$/.exec(lines[line] ?? '');
  if (!m || !m[3]) return undefined;
  const start = m[1].length + m[2].length;
  return { start: { line, character: start }, end: { line, character: start + m[3].length } };
}

const contains = (r: TextRange, p: { line: number; character: number }) =>
  r.start.line <= p.line && p.line <= r.end.line && (p.line > r.start.line || p.character >= r.start.character) && (p.line < r.end.line || p.character <= r.end.character);

/** The reference of `refs` at a position of its file, if any. */
export function referenceAt<R extends { range: TextRange }>(refs: readonly R[], position: { line: number; character: number }): R | undefined {
  return refs.find((r) => contains(r.range, position));
}

/** Whether a position lies in a range (ends included, as an editor's cursor after a word). */
export function rangeContains(r: TextRange, p: { line: number; character: number }): boolean {
  return contains(r, p);
}
