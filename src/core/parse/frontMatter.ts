/**
 * The one place that parses SKILL.md front matter. gray-matter would `eval` `---js` front
 * matter and cache results globally without options; here both are switched off.
 */
import matter from 'gray-matter';
import type { TextRange } from '../types';

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
  /** Why parsing failed, with the location inside the file. */
  error?: { message: string; range: TextRange };
}

function refuse(language: string): never {
  throw new Error(`front matter in ${language} is not supported; use YAML`);
}

const OPTIONS = {
  // Passing options also keeps gray-matter from using its global cache.
  engines: {
    js: { parse: () => refuse('JavaScript'), stringify: () => refuse('JavaScript') },
    javascript: { parse: () => refuse('JavaScript'), stringify: () => refuse('JavaScript') },
    coffee: { parse: () => refuse('CoffeeScript'), stringify: () => refuse('CoffeeScript') },
    coffeescript: { parse: () => refuse('CoffeeScript'), stringify: () => refuse('CoffeeScript') },
  },
} as unknown as Parameters<typeof matter>[1];

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
  };
  if (!/^---[a-zA-Z]*\s*$/.test(lines[0] ?? '')) return empty;
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
  let data: unknown;
  try {
    data = matter(source, OPTIONS).data;
  } catch (err) {
    return {
      data: {},
      body,
      bodyStartLine: close + 1,
      hasFrontMatter: true,
      keyRanges,
      blockRange,
      error: yamlError(err, lines, close),
    };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return {
      data: {},
      body,
      bodyStartLine: close + 1,
      hasFrontMatter: true,
      keyRanges,
      blockRange,
      error: { message: 'front matter must be a YAML mapping of keys to values', range: lineRange(1, 0, lines[1]?.length ?? 0) },
    };
  }
  return { data: data as Record<string, unknown>, body, bodyStartLine: close + 1, hasFrontMatter: true, keyRanges, blockRange };
}

/** Top-level `key:` lines; a value runs until the next top-level key or the closing line. */
function scanKeyRanges(lines: string[], close: number): Record<string, TextRange> {
  const ranges: Record<string, TextRange> = {};
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

function yamlError(err: unknown, lines: string[], close: number): { message: string; range: TextRange } {
  const e = err as { message?: string; reason?: string; mark?: { line?: number; column?: number } };
  const raw = e.reason ?? e.message ?? String(err);
  const reason = raw.split('\n')[0];
  // js-yaml marks count from the first line after the opening delimiter.
  const line = e.mark?.line !== undefined ? Math.min(e.mark.line + 1, close) : 0;
  const text = lines[line] ?? '';
  return { message: `front matter is not valid YAML: ${reason}`, range: lineRange(line, 0, text.length) };
}
