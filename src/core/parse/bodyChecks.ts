/**
 * Checks of a SKILL.md body (the Markdown after the front matter): its size against the Agent
 * Skills spec's progressive-disclosure guidance, and install lines that pipe a download into a
 * shell. Pure functions of the body text; `parseSkill` runs them, so the editor and `check` agree.
 */
import type { Finding } from '../types';

/**
 * The spec's guidance for the body ("Progressive disclosure", agentskills.io/specification):
 * instructions under 5000 tokens, and "Keep your main SKILL.md under 500 lines".
 */
export const MAX_BODY_LINES = 500;
export const MAX_BODY_TOKENS = 5000;

/** Han, kana and Hangul: a tokenizer spends about one token on each. */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/gu;

/**
 * Tokens a model would spend on `text`, estimated without a tokenizer: one per CJK character,
 * one per four other characters (the usual figure for English prose and code).
 */
export function estimateTokens(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * `body.too-long`: SKILL.md is over 500 lines, or its body over about 5000 tokens. The range is
 * the line where the first limit is passed, where moving the rest into reference files would start.
 */
function bodySize(lines: readonly string[], bodyStartLine: number): Finding | null {
  const fileLines = bodyStartLine + lines.length;
  let tokens = 0;
  let overAt = -1;
  for (let i = 0; i < lines.length; i++) {
    tokens += estimateTokens(lines[i]);
    if (overAt < 0 && (bodyStartLine + i >= MAX_BODY_LINES || tokens > MAX_BODY_TOKENS)) overAt = i;
  }
  if (overAt < 0) return null;
  const line = bodyStartLine + overAt;
  return {
    code: 'body.too-long',
    severity: 'warning',
    message:
      `SKILL.md is ${fmt(fileLines)} lines and its body about ${fmt(tokens)} tokens: the spec recommends under ${MAX_BODY_LINES} lines ` +
      `and a body under ${fmt(MAX_BODY_TOKENS)} tokens, since an agent loads all of it when the skill is chosen. ` +
      'Move detailed reference material into separate files (references/) and link them.',
    range: { start: { line, character: 0 }, end: { line, character: lines[overAt].length } },
  };
}

/** A command that downloads (curl, wget, PowerShell's web cmdlets). */
const DOWNLOADER = String.raw`(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)`;
/** Text of one pipeline stage: no `|`, `;`, `&&` or newline. */
const STAGE = String.raw`(?:(?!&&)[^|;\n])*`;
/** An interpreter that runs what it reads: shells always; python, perl, ruby and node only from stdin (`-` or nothing). */
const RUNNER = String.raw`(?:sudo(?:\s+-\S+)*\s+)?(?:env(?:\s+\w+=\S*)*\s+)?(?:(?:\S*/)?(?:sh|bash|zsh|dash|ksh|fish)(?:\s+-\S*)*(?=\s|$|[)"'\x60])|pwsh|powershell|iex|Invoke-Expression|(?:python[23]?|perl|ruby|node)(?=\s*(?:-\s*)?(?:$|[)"'\x60])))`;
const PIPE_TO_SHELL = [
  // curl -fsSL https://x/install.sh | sudo bash   (any stages between: | tee log | sh)
  new RegExp(String.raw`\b${DOWNLOADER}\b${STAGE}(?:(?<!\|)\|(?!\|)${STAGE})*?(?<!\|)\|(?!\|)\s*${RUNNER}`, 'i'),
  // sh -c "$(curl -fsSL https://x)", bash <(wget -qO- https://x)
  new RegExp(String.raw`\b(?:sh|bash|zsh)\b[^\n|;]*?(?:\$\(|<\()\s*${DOWNLOADER}\b`, 'i'),
  // iex (iwr https://x), iex ((New-Object Net.WebClient).DownloadString('https://x'))
  new RegExp(String.raw`\b(?:iex|Invoke-Expression)\s*\(+\s*(?:${DOWNLOADER}\b|New-Object\s+(?:System\.)?Net\.WebClient)`, 'i'),
];

/** Words that present a command as one not to run: the example is a warning, not an install step. */
const DISCOURAGED = /\b(?:never|don'?t|do not|avoid|instead of|insecure|unsafe|dangerous|anti-?pattern|bad|wrong|vulnerable|malicious|attack(?:er)?s?)\b|❌|🚫|不要|禁止|避免/i;

/**
 * Where the script comes from: a URL, a host and path (`bun.sh/install`) or a variable. Without
 * one (`curl ... | bash`, `curl <url> | sh`) the text names the pattern rather than installs anything.
 */
const SOURCE = /\b[a-z][\w+.-]*:\/\/\S|\b[\w-]+(?:\.[\w-]+)+\/\S|\$\{?\w/i;

function pipesToShell(command: string): boolean {
  return PIPE_TO_SHELL.some((re) => {
    const m = re.exec(command);
    return m !== null && SOURCE.test(command.slice(m.index));
  });
}

/** The sentence of `line` around `[start, end)`: from the last sentence end before it to the first after it. */
function sentenceAround(line: string, start: number, end: number): string {
  const before = line.slice(0, start);
  let from = 0;
  for (const m of before.matchAll(/[.!?。！？](?:\s|$)/g)) from = m.index! + 1;
  const after = /[.!?。！？](?:\s|$)/.exec(line.slice(end));
  return line.slice(from, after ? end + after.index + 1 : line.length);
}

/**
 * `body.pipe-to-shell`: a line of a fenced code block, a `$ ` shell line, or an inline code
 * span that downloads a script and runs it unseen. Prose that only names the practice is not
 * code and is not reported; nor is a command presented as one not to run (the line, the code
 * block's opening, or the prose line just before the block says "never", "don't", "avoid", ...).
 */
function pipeToShell(lines: readonly string[], bodyStartLine: number): Finding[] {
  const out: Finding[] = [];
  const report = (i: number, command: string) => {
    const shown = command.trim().replace(/\s+/g, ' ');
    out.push({
      code: 'body.pipe-to-shell',
      severity: 'info',
      message:
        `Line ${bodyStartLine + i + 1} pipes a download into a shell (${shown.length > 80 ? `${shown.slice(0, 79)}…` : shown}): an agent runs it as written, ` +
        'whatever the server sends. Download the script first and check it (a checksum or signature), or install from a package manager.',
      range: { start: { line: bodyStartLine + i, character: 0 }, end: { line: bodyStartLine + i, character: lines[i].length } },
    });
  };
  let fence: { marker: string; discouraged: boolean } | null = null;
  let lastProse = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const open = /^\s{0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (fence) {
      if (open && open[1][0] === fence.marker[0] && open[1].length >= fence.marker.length && !open[2].trim()) {
        fence = null;
        continue;
      }
      // A command continued with a trailing backslash is one command.
      let command = line;
      let end = i;
      while (/\\\s*$/.test(lines[end]) && end + 1 < lines.length) command = `${command.replace(/\\\s*$/, ' ')}${lines[++end]}`;
      if (!fence.discouraged && !DISCOURAGED.test(command) && pipesToShell(command)) report(i, command);
      continue;
    }
    if (open) {
      fence = { marker: open[1], discouraged: DISCOURAGED.test(open[2]) || DISCOURAGED.test(lastProse) };
      continue;
    }
    if (line.trim()) lastProse = line;
    const shell = /^\s*(?:>\s*)?\$\s+(.*)$/.exec(line);
    if (shell && !DISCOURAGED.test(line) && pipesToShell(shell[1])) {
      report(i, shell[1]);
      continue;
    }
    // In prose, the sentence that holds the code span says whether it is advice or a warning.
    for (const span of line.matchAll(/(`+)([^`]+?)\1(?!`)/g)) {
      if (!DISCOURAGED.test(sentenceAround(line, span.index!, span.index! + span[0].length)) && pipesToShell(span[2])) {
        report(i, span[2]);
        break;
      }
    }
  }
  return out;
}

/** The body's findings; `bodyStartLine` is the zero-based line of the file where the body starts. */
export function validateBody(body: string, bodyStartLine: number): Finding[] {
  const lines = body.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  // A trailing newline ends the last line; it does not start another.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const size = bodySize(lines, bodyStartLine);
  return [...(size ? [size] : []), ...pipeToShell(lines, bodyStartLine)];
}
