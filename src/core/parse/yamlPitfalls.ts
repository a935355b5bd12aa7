/**
 * The ways SKILL.md front matter usually breaks, found on its raw lines: what YAML made of the
 * text, where, and the edit that repairs it. The parser's own messages name its state ("incomplete
 * explicit mapping pair; a key node is missed"), at a line that is often past the mistake; authors
 * need the mistake. Some breakages do not fail at all: a ` #` silently cuts a value, and `[...]`
 * or `- ` lines turn a description into a list. Pure functions of the text (no YAML engine here),
 * so `frontMatter.ts` stays the one place that parses.
 */
import type { TextRange } from '../types';

/** One text edit that repairs a pitfall (a quick fix). */
export interface YamlFix {
  title: string;
  edits: { range: TextRange; newText: string }[];
}

export type YamlPitfallKind =
  /** `: ` inside an unquoted value: YAML reads a nested key. */
  | 'colon'
  /** A tab in the indentation: YAML allows only spaces there. */
  | 'tab'
  /** A quote that opens a value and is never closed. */
  | 'quote-unclosed'
  /** A quote that closes before the value ends, with more text after it. */
  | 'quote-early'
  /** An unquoted value that starts with a character YAML reserves (`*`, `&`, `@`, `` ` ``, `- `, `[`, `{`). */
  | 'indicator'
  /** ` #` inside an unquoted value: the rest of the line is a comment (the parse succeeds). */
  | 'comment'
  /** `[...]` or `- ` lines where text belongs: the value is a list (the parse succeeds). */
  | 'list';

export interface YamlPitfall {
  kind: YamlPitfallKind;
  /** The top-level key whose value it affects. */
  key?: string;
  /** What happened and what to do, for a diagnostic (lower case: it follows a prefix). */
  message: string;
  /** Where: from the offending character to the end of its line. */
  range: TextRange;
  /** Quick fixes, the preferred first. */
  fixes: YamlFix[];
}

/** Keys whose value must be text; the listing fields are where a cut or a list hurts. */
const TEXT_KEYS = new Set(['name', 'description', 'compatibility', 'license', 'when_to_use']);
const CUT_KEYS = new Set(['name', 'description', 'when_to_use']);

const KEY_LINE = /^([A-Za-z0-9_][\w.-]*|"[^"]*"|'[^']*')[ \t]*:(?=[ \t]|$)/;

const range = (line: number, start: number, end: number): TextRange => ({ start: { line, character: start }, end: { line, character: end } });

/** `value` as a YAML double-quoted scalar: JSON's escapes are YAML's (`\"`, `\\`, control characters). */
export function doubleQuoted(value: string): string {
  return JSON.stringify(value);
}

/** The key as authors read it: `the description`, `name`. */
const the = (key: string) => (key === 'description' ? 'the description' : `\`${key}\``);

interface KeyValue {
  key: string;
  line: number;
  /** Column just after `key:`. */
  keyEnd: number;
  /** Column where the value starts on the key line (after `key:` and blanks). */
  col: number;
  /** Value text on the key line, trailing blanks dropped. */
  rest: string;
  /** Lines up to (not including) the next top-level key or the closing line. */
  lastLine: number;
}

/** Top-level keys of the block (lines 1..close-1) with their value's extent. */
function keyValues(lines: readonly string[], close: number): KeyValue[] {
  const out: KeyValue[] = [];
  for (let i = 1; i < close; i++) {
    const m = KEY_LINE.exec(lines[i]);
    if (!m) continue;
    if (out.length) out[out.length - 1].lastLine = i - 1;
    const after = lines[i].slice(m[0].length);
    const col = m[0].length + (after.length - after.trimStart().length);
    out.push({ key: m[1].replace(/^["']|["']$/g, ''), line: i, keyEnd: m[0].length, col, rest: lines[i].slice(col).trimEnd(), lastLine: close - 1 });
  }
  return out;
}

/** Indented, non-blank lines after the key line: a plain value's continuation. */
function continuation(lines: readonly string[], kv: KeyValue): number[] {
  const out: number[] = [];
  for (let i = kv.line + 1; i <= kv.lastLine; i++) {
    if (!lines[i].trim()) continue;
    if (!/^[ \t]/.test(lines[i]) || /^\s*#/.test(lines[i])) break;
    out.push(i);
  }
  return out;
}

/** `: ` (or a `:` ending the text) in a plain scalar, outside a trailing comment: its column. */
function colonAt(text: string): number {
  const comment = text.search(/[ \t]#/);
  const scan = comment >= 0 ? text.slice(0, comment) : text;
  const m = /:(?=[ \t]|$)/.exec(scan);
  return m ? m.index : -1;
}

/** The two ways to write a plain value safely: double quotes, or a folded block. */
function requoteFixes(lines: readonly string[], kv: KeyValue, parts: string[], endLine: number): YamlFix[] {
  const value = parts.map((p) => p.trim()).filter(Boolean).join(' ');
  const whole = { start: { line: kv.line, character: kv.col }, end: { line: endLine, character: lines[endLine].length } };
  return [
    { title: `Put ${the(kv.key)} in double quotes`, edits: [{ range: whole, newText: doubleQuoted(value) }] },
    {
      title: `Write ${the(kv.key)} as a folded block (${kv.key}: >-)`,
      edits: [{ range: whole, newText: `>-\n${parts.map((p) => `  ${p.trim()}`).filter((p) => p.trim()).join('\n')}` }],
    },
  ];
}

/** The closing quote of a quoted scalar starting at `lines[line][col]`: its position, or null. */
function closingQuote(lines: readonly string[], line: number, col: number, last: number): { line: number; col: number } | null {
  const q = lines[line][col];
  let i = col + 1;
  for (let l = line; l <= last; l++, i = 0) {
    const text = lines[l];
    for (; i < text.length; i++) {
      if (q === '"' && text[i] === '\\') i++;
      else if (text[i] === q) {
        if (q === "'" && text[i + 1] === "'") i++;
        else return { line: l, col: i };
      }
    }
  }
  return null;
}

/** A quoted value's problems: never closed, or closed early with text after it. */
function quotePitfall(lines: readonly string[], kv: KeyValue, close: number): YamlPitfall | null {
  const q = kv.rest[0];
  const name = q === '"' ? 'double quote' : 'single quote';
  const end = closingQuote(lines, kv.line, kv.col, close - 1);
  const text = lines[kv.line];
  if (!end) {
    const inner = kv.rest.slice(1);
    return {
      kind: 'quote-unclosed',
      key: kv.key,
      message: `${the(kv.key)} opens a ${name} (${q}) that is never closed; end the value with ${q}, or quote it again as a whole`,
      range: range(kv.line, kv.col, text.length),
      fixes: [{ title: `Close the quotes of ${the(kv.key)}`, edits: [{ range: range(kv.line, kv.col, text.length), newText: doubleQuoted(inner) }] }],
    };
  }
  const after = lines[end.line].slice(end.col + 1);
  if (!after.trim() || /^\s+#/.test(after)) return null;
  // Quoted again as a whole: the outer quotes are the first and the last, the inner ones text.
  if (end.line !== kv.line) return null;
  const last = kv.rest.endsWith(q) && kv.rest.length > 1 ? kv.rest.slice(1, -1) : kv.rest.slice(1);
  const inner = q === "'" ? last.replace(/''/g, "'") : last;
  const hint = q === "'"
    ? "inside single quotes an apostrophe is written '' (two single quotes); or use double quotes"
    : 'quote the whole value and write a quote inside it as \\"';
  return {
    kind: 'quote-early',
    key: kv.key,
    message: `the ${name} that opens ${the(kv.key)} closes after ${JSON.stringify(text.slice(kv.col + 1, end.col))} and more text follows; ${hint}`,
    range: range(kv.line, end.col, text.length),
    fixes: [{ title: `Quote ${the(kv.key)} as a whole, escaping the quotes inside it`, edits: [{ range: range(kv.line, kv.col, text.length), newText: doubleQuoted(inner) }] }],
  };
}

/**
 * Characters that cannot start an unquoted value, where an author means text (`*Always*`,
 * `@user`). A tag (`!`) is YAML syntax on purpose, and the parser's message names it.
 */
const INDICATORS: Record<string, string> = {
  '*': 'an alias (a reference to an anchor)',
  '&': 'an anchor',
  '@': 'a reserved character',
  '`': 'a reserved character',
};

/**
 * Tab-indented lines of the block: a line whose indentation has a tab, outside quoted values (a
 * tab there is text) and after the spaces that indent a block scalar's content (text too).
 */
export function findTabIndent(lines: readonly string[], close: number): YamlPitfall | null {
  const kvs = keyValues(lines, close);
  const quoted = quotedLines(lines, kvs, close);
  const blockText = new Set<number>();
  for (const kv of kvs) if (kv.rest[0] === '|' || kv.rest[0] === '>') for (let l = kv.line + 1; l <= kv.lastLine; l++) blockText.add(l);
  const tabbed: number[] = [];
  for (let i = 1; i < close; i++) {
    if (quoted.has(i) || !lines[i].trim()) continue; // a blank line indents nothing
    if (blockText.has(i) ? /^\t/.test(lines[i]) : /^ *\t/.test(lines[i])) tabbed.push(i);
  }
  if (!tabbed.length) return null;
  const first = tabbed[0];
  const indent = /^[ \t]*/.exec(lines[first])![0];
  return {
    kind: 'tab',
    message: `line ${first + 1} is indented with a tab, which YAML does not allow in indentation; indent with spaces`,
    range: range(first, 0, indent.length),
    fixes: [{
      title: tabbed.length > 1 ? `Indent the ${tabbed.length} tab-indented lines with spaces` : 'Indent with spaces instead of a tab',
      edits: tabbed.map((i) => {
        const lead = /^[ \t]*/.exec(lines[i])![0];
        return { range: range(i, 0, lead.length), newText: lead.replace(/\t/g, '  ') };
      }),
    }],
  };
}

/** Lines inside multi-line quoted values (a tab there is text, not indentation). */
function quotedLines(lines: readonly string[], kvs: readonly KeyValue[], close: number): Set<number> {
  const out = new Set<number>();
  for (const kv of kvs) {
    if (kv.rest[0] !== '"' && kv.rest[0] !== "'") continue;
    const end = closingQuote(lines, kv.line, kv.col, close - 1);
    for (let l = kv.line + 1; l <= (end ? end.line : close - 1); l++) out.add(l);
  }
  return out;
}

/**
 * The mistake behind a YAML parse error, when it is a common one: the first pitfall at or before
 * `errorLine` (the parser stops at or after the cause). Lines are the file's, `close` the index of
 * the closing `---`. Null when none is found; the parser's own message is then the best there is.
 */
export function explainYamlError(lines: readonly string[], close: number, errorLine: number): YamlPitfall | null {
  const kvs = keyValues(lines, close);
  const found: YamlPitfall[] = [];
  const tab = findTabIndent(lines, close);
  if (tab) found.push(tab);
  for (const kv of kvs) {
    const first = kv.rest[0];
    if (first === '"' || first === "'") {
      const p = quotePitfall(lines, kv, close);
      if (p) found.push(p);
      continue;
    }
    if (!kv.rest || first === '|' || first === '>' || first === '#') continue;
    if (first === '[' || first === '{') {
      // A failed parse with a flow collection here: text after the closing bracket, or a bracket never closed.
      const kind = first === '[' ? 'a list' : 'a mapping';
      found.push({
        kind: 'indicator',
        key: kv.key,
        message: `${the(kv.key)} starts with '${first}', which YAML reads as the start of ${kind}; put the value in quotes if the bracket is part of the text`,
        range: range(kv.line, kv.col, lines[kv.line].length),
        fixes: [{ title: `Put ${the(kv.key)} in double quotes`, edits: [{ range: range(kv.line, kv.col, lines[kv.line].length), newText: doubleQuoted(kv.rest) }] }],
      });
      continue;
    }
    const cont = continuation(lines, kv);
    const endLine = cont.length ? cont[cont.length - 1] : kv.line;
    const parts = [kv.rest, ...cont.map((l) => lines[l])];
    if (INDICATORS[first] || /^[-?](\s|$)/.test(kv.rest)) {
      const what = INDICATORS[first] ?? (first === '-' ? 'a list item' : 'a complex key');
      found.push({
        kind: 'indicator',
        key: kv.key,
        message: `${the(kv.key)} starts with '${first}', which YAML reads as ${what}; put the value in quotes or use \`${kv.key}: >-\``,
        range: range(kv.line, kv.col, lines[kv.line].length),
        fixes: requoteFixes(lines, kv, parts, endLine),
      });
      continue;
    }
    for (const [i, text, offset] of [[kv.line, kv.rest, kv.col], ...cont.map((l) => [l, lines[l], 0])] as [number, string, number][]) {
      const at = colonAt(text);
      if (at < 0) continue;
      found.push({
        kind: 'colon',
        key: kv.key,
        message: `${the(kv.key)} contains ': ', which YAML reads as a nested key; put the value in quotes or use \`${kv.key}: >-\``,
        range: range(i, offset + at, lines[i].length),
        fixes: requoteFixes(lines, kv, parts, endLine),
      });
      break;
    }
  }
  const before = found.filter((p) => p.range.start.line <= errorLine).sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  return before[0] ?? null;
}

/**
 * Pitfalls that parse: a ` #` that cuts a listing field short, and a list where text belongs
 * (`data` is what the parser made of the block).
 */
export function silentPitfalls(lines: readonly string[], close: number, data: Record<string, unknown>): YamlPitfall[] {
  const out: YamlPitfall[] = [];
  for (const kv of keyValues(lines, close)) {
    const value = data[kv.key];
    const first = kv.rest[0];
    if (CUT_KEYS.has(kv.key) && typeof value === 'string' && first && !'"\'|>[{#'.includes(first)) {
      const cont = continuation(lines, kv);
      const parts = [kv.rest, ...cont.map((l) => lines[l])];
      const cut = parts.map((p, j) => ({ j, at: p.search(/[ \t]#/) })).find((x) => x.at >= 0);
      if (cut) {
        const line = cut.j === 0 ? kv.line : cont[cut.j - 1];
        const col = (cut.j === 0 ? kv.col : 0) + cut.at + 1;
        out.push({
          kind: 'comment',
          key: kv.key,
          message: `${the(kv.key)} is cut at ' #': YAML reads ' #' as the start of a comment, so clients see only ${JSON.stringify(value)}; ` +
            'put the value in quotes (or, if it is a comment, move it to a line of its own)',
          range: range(line, col, lines[line].length),
          fixes: requoteFixes(lines, kv, parts, cont.length ? cont[cont.length - 1] : kv.line),
        });
      }
    }
    if (TEXT_KEYS.has(kv.key) && Array.isArray(value)) {
      const flow = first === '[';
      let endLine = kv.line;
      if (!flow) for (let l = kv.line + 1; l <= kv.lastLine; l++) if (lines[l].trim()) endLine = l;
      const text = flow ? kv.rest : value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(' ');
      out.push({
        kind: 'list',
        key: kv.key,
        message: flow
          ? 'YAML reads a value in [brackets] as a list; put it in quotes if the brackets are part of the text'
          : 'YAML reads lines that start with "- " as list items; write the text as one value',
        range: flow ? range(kv.line, kv.col, lines[kv.line].length) : range(kv.line, 0, lines[kv.line].length),
        fixes: [{
          title: flow ? `Put ${the(kv.key)} in double quotes` : `Join the list into one ${kv.key === 'description' ? 'description' : 'value'}`,
          // A block list's value starts on the next line: the key needs its blank before the quotes.
          edits: [{
            range: { start: { line: kv.line, character: flow ? kv.col : kv.keyEnd }, end: { line: endLine, character: lines[endLine].length } },
            newText: `${flow ? '' : ' '}${doubleQuoted(text)}`,
          }],
        }],
      });
    }
  }
  return out;
}
