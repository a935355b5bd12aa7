/**
 * The one place that parses SKILL.md front matter. It finds the block itself and hands it to
 * gray-matter's YAML engine (js-yaml's safe loader) or JSON.parse; any other language after `---`
 * (gray-matter would `eval` `---js`) is refused, never run, and nothing is cached between calls.
 */
import matter from 'gray-matter';
import type { TextRange } from '../types';
import { explainYamlError, findTabIndent, silentPitfalls, type YamlFix, type YamlPitfall } from './yamlPitfalls';

export type { YamlFix, YamlPitfall } from './yamlPitfalls';

export interface FrontMatterResult {
  /** Parsed data; empty when missing or malformed. */
  data: Record<string, unknown>;
  /** Markdown after the closing delimiter. */
  body: string;
  /** Zero-based line where the body starts. */
  bodyStartLine: number;
  /** Whether an opening `---` line was found at the top. */
  hasFrontMatter: boolean;
  /** Ranges of top-level keys: from the key to the end of its value. */
  keyRanges: Record<string, TextRange>;
  /** Range of the whole front-matter block (first line when absent). */
  blockRange: TextRange;
  /**
   * Why parsing failed, with the location inside the file; for a common YAML mistake (`: ` in an
   * unquoted value, a tab, unbalanced quotes) the message says what happened and `fixes` repair it.
   */
  error?: { message: string; range: TextRange; fixes?: YamlFix[] };
  /** Mistakes that parse but change the value: a ` #` that cuts a listing field, a list where text belongs. */
  pitfalls: YamlPitfall[];
}

const yamlEngine = (matter as unknown as { engines: { yaml: { parse(block: string): unknown } } }).engines.yaml;

/** Parsers by the language named after the opening `---` (case-insensitive); none runs code. */
const ENGINES = new Map<string, (block: string) => unknown>([
  ['', (block) => yamlEngine.parse(block)],
  ['yaml', (block) => yamlEngine.parse(block)],
  ['yml', (block) => yamlEngine.parse(block)],
  ['json', (block) => JSON.parse(block)],
]);

const LANGUAGE_NAMES = new Map([['js', 'JavaScript'], ['javascript', 'JavaScript'], ['coffee', 'CoffeeScript'], ['coffeescript', 'CoffeeScript'], ['cson', 'CoffeeScript']]);

/**
 * Parses the lines between the delimiters. gray-matter itself is not given the file: its check
 * for an empty block takes time quadratic in blank lines (30 s for 60,000), and the leading
 * newline it keeps shifts js-yaml's error lines by one. A block of blanks and comments is empty.
 */
function parseBlock(language: string, block: string): unknown {
  if (block.split('\n').every((line) => /^\s*(#.*)?$/.test(line))) return {};
  const lang = language.toLowerCase();
  const engine = ENGINES.get(lang);
  if (!engine) throw new Error(`front matter in ${LANGUAGE_NAMES.get(lang) ?? `"${language}"`} is not supported; use YAML`);
  return engine(block);
}

const lineRange = (line: number, start: number, end: number): TextRange => ({
  start: { line, character: start },
  end: { line, character: end },
});

/** Splits on \n, keeping \r out of the line text so ranges match what editors show. */
function splitLines(text: string): string[] {
  return text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** Parses front matter without executing anything. Never throws. */
export function parseFrontMatter(text: string): FrontMatterResult {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = splitLines(source);
  const empty: FrontMatterResult = {
    data: {},
    body: source,
    bodyStartLine: 0,
    hasFrontMatter: false,
    keyRanges: {},
    blockRange: lineRange(0, 0, lines[0]?.length ?? 0),
    pitfalls: [],
  };
  const opener = /^---([a-zA-Z]*)\s*$/.exec(lines[0] ?? '');
  if (!opener) return empty;
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    if (/^(---|\.\.\.)\s*$/.test(lines[i])) {
      close = i;
      break;
    }
  }
  if (close < 0) {
    return {
      ...empty,
      hasFrontMatter: true,
      error: { message: 'front matter is not closed: add a line with `---` after it', range: lineRange(0, 0, lines[0].length) },
    };
  }
  const blockRange: TextRange = { start: { line: 0, character: 0 }, end: { line: close, character: lines[close].length } };
  const body = lines.slice(close + 1).join('\n');
  const keyRanges = scanKeyRanges(lines, close);
  const failed = (error: NonNullable<FrontMatterResult['error']>): FrontMatterResult =>
    ({ data: {}, body, bodyStartLine: close + 1, hasFrontMatter: true, keyRanges, blockRange, error, pitfalls: [] });
  const yaml = !opener[1] || /^ya?ml$/i.test(opener[1]);
  let data: unknown;
  try {
    data = parseBlock(opener[1], lines.slice(1, close).join('\n'));
  } catch (err) {
    if (yaml) return failed(yamlError(err, lines, close));
    const json = opener[1].toLowerCase() === 'json';
    // The opening line names the language: that is where an unsupported one is.
    return failed({ message: json ? `front matter is not valid JSON: ${errorText(err)}` : errorText(err), range: lineRange(0, 0, lines[0].length) });
  }
  // js-yaml reads some tab-indented blocks without an error, but not as written (`metadata:` then
  // a tab-indented `author:` becomes two top-level keys); other clients' parsers refuse them.
  const tab = yaml ? findTabIndent(lines, close) : null;
  if (tab) return failed({ message: `front matter is not valid YAML: ${tab.message}`, range: tab.range, fixes: tab.fixes });
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return failed({ message: 'front matter must be a YAML mapping of keys to values', range: lineRange(1, 0, lines[1]?.length ?? 0) });
  }
  const record = data as Record<string, unknown>;
  const pitfalls = yaml ? silentPitfalls(lines, close, record) : [];
  return { data: record, body, bodyStartLine: close + 1, hasFrontMatter: true, keyRanges, blockRange, pitfalls };
}

/** Top-level `key:` lines; a value runs until the next top-level key or the closing line. */
function scanKeyRanges(lines: string[], close: number): Record<string, TextRange> {
  // No prototype: keys such as `constructor` or `__proto__` must not find inherited members.
  const ranges: Record<string, TextRange> = Object.create(null);
  let current: string | undefined;
  for (let i = 1; i < close; i++) {
    const m = /^([A-Za-z0-9_][\w.-]*|"[^"]*"|'[^']*')\s*:(\s|$)/.exec(lines[i]);
    if (m) {
      current = m[1].replace(/^["']|["']$/g, '');
      if (!(current in ranges)) ranges[current] = lineRange(i, 0, lines[i].length);
      else current = undefined; // duplicate key: keep the first range
    } else if (current && (/^\s/.test(lines[i]) || lines[i] === '')) {
      if (lines[i].trim()) ranges[current].end = { line: i, character: lines[i].length };
    } else {
      current = undefined;
    }
  }
  return ranges;
}

function errorText(err: unknown): string {
  const e = err as { message?: string; reason?: string };
  return (e.reason ?? e.message ?? String(err)).split('\n')[0];
}

/**
 * The message and place of a YAML error: the author's mistake when it is a common one, else the
 * parser's reason at the parser's line and column.
 */
function yamlError(err: unknown, lines: string[], close: number): NonNullable<FrontMatterResult['error']> {
  const e = err as { mark?: { line?: number; column?: number } };
  // js-yaml marks count from the first line after the opening delimiter.
  const line = e.mark?.line !== undefined ? Math.min(e.mark.line + 1, close) : 0;
  // Deep nesting overflows js-yaml's recursion; say so rather than quote the engine.
  if (err instanceof RangeError) return { message: 'front matter is not valid YAML: it is nested too deeply', range: lineRange(line, 0, lines[line]?.length ?? 0) };
  const pitfall = explainYamlError(lines, close, line);
  if (pitfall) return { message: `front matter is not valid YAML: ${pitfall.message}`, range: pitfall.range, fixes: pitfall.fixes };
  const text = lines[line] ?? '';
  // js-yaml 3's mark for a duplicate key can lie before the line's start.
  const column = Math.max(0, Math.min(e.mark?.column ?? 0, text.length));
  return { message: `front matter is not valid YAML: ${errorText(err)}`, range: lineRange(line, column, text.length) };
}
