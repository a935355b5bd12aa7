/** Splits a SKILL.md body into short, clean passages under their headings. */

export interface Passage {
  /** Nearest heading above the passage ('' before the first heading). */
  heading: string;
  text: string;
  /** Zero-based line in the body where the passage starts. */
  line: number;
}

/**
 * Removes Markdown markup that carries no meaning for matching; keeps words and code identifiers.
 * Linear in the text: the regular expressions this replaces rescanned the rest of the text from
 * every unclosed `[`, `<`, `<!--` or blank line (minutes for a 1 MB file); the output is the same.
 */
export function cleanMarkdown(text: string): string {
  const withoutLinks = replaceLinks(replaceLinks(stripComments(text), '![', false), '[', true);
  return stripTags(withoutLinks)
    .replace(/[*_`~>|#]+/g, ' ')
    .replace(/^[^\S\n\r\u2028\u2029]*[-+]\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** As `.replace(/<!--[\s\S]*?-->/g, ' ')`. */
function stripComments(text: string): string {
  let out = '';
  let at = 0;
  for (let open = text.indexOf('<!--'); open >= 0; open = text.indexOf('<!--', at)) {
    const close = text.indexOf('-->', open + 4);
    if (close < 0) break;
    out += `${text.slice(at, open)} `;
    at = close + 3;
  }
  return out + text.slice(at);
}

/**
 * As `.replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')` (images) or `.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')`
 * (links, keeping their text).
 */
function replaceLinks(text: string, open: '[' | '![', keepText: boolean): string {
  let out = '';
  let at = 0;
  let close = -1; // first `]` after the current bracket; reused while it stays ahead
  for (let p = text.indexOf(open); p >= 0; p = text.indexOf(open, p + 1)) {
    if (close < p + open.length) close = text.indexOf(']', p + open.length);
    if (close < 0) break;
    if (text[close + 1] !== '(') continue;
    const end = text.indexOf(')', close + 2);
    if (end < 0) break;
    out += text.slice(at, p) + (keepText ? text.slice(p + open.length, close) : ' ');
    at = end + 1;
    p = end;
  }
  return out + text.slice(at);
}

/** As `.replace(/<\/?[A-Za-z][^>]*>/g, ' ')`. */
function stripTags(text: string): string {
  const start = /<\/?[A-Za-z]/g;
  let out = '';
  let at = 0;
  for (let m = start.exec(text); m; m = start.exec(text)) {
    const close = text.indexOf('>', m.index + m[0].length);
    if (close < 0) break;
    out += `${text.slice(at, m.index)} `;
    at = close + 1;
    start.lastIndex = at;
  }
  return out + text.slice(at);
}

/**
 * Passages of at most `maxWords` words, never crossing a heading. Fenced code is kept short
 * (its first lines name the tools and APIs; the rest is noise for matching).
 */
export function splitPassages(body: string, maxWords = 90): Passage[] {
  const lines = body.split('\n');
  const out: Passage[] = [];
  let heading = '';
  let buf: string[] = [];
  let bufWords = 0;
  let start = 0;
  let inFence = false;
  let fenceLines = 0;
  const flush = () => {
    const text = cleanMarkdown(buf.join('\n'));
    if (text) out.push({ heading, text, line: start });
    buf = [];
    bufWords = 0;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      fenceLines = 0;
      continue;
    }
    if (inFence) {
      if (++fenceLines > 3) continue;
    } else {
      const h = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line);
      if (h) {
        flush();
        heading = cleanMarkdown(h[1]);
        start = i + 1;
        continue;
      }
    }
    const words = line.split(/\s+/).filter(Boolean).length;
    if (!buf.length) start = i;
    if (bufWords + words > maxWords && buf.length) {
      flush();
      start = i;
    }
    buf.push(line);
    bufWords += words;
  }
  flush();
  return out;
}

/** Headings of a body, cleaned. */
export function headings(body: string): string[] {
  const out: string[] = [];
  let inFence = false;
  for (const line of body.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    else if (!inFence) {
      const h = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line);
      if (h) out.push(cleanMarkdown(h[1]));
    }
  }
  return out;
}
