/** Splits a SKILL.md body into short, clean passages under their headings. */

export interface Passage {
  /** Nearest heading above the passage ('' before the first heading). */
  heading: string;
  text: string;
  /** Zero-based line in the body where the passage starts. */
  line: number;
}

/** Removes Markdown markup that carries no meaning for matching; keeps words and code identifiers. */
export function cleanMarkdown(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<\/?[A-Za-z][^>]*>/g, ' ')
    .replace(/[*_`~>|#]+/g, ' ')
    .replace(/^\s*[-+]\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
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
