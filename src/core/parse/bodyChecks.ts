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
const DOWNLOADER = /\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b/i;
/**
 * A pipeline stage that runs what it reads: a shell always; python, perl, ruby and node only from
 * stdin (`-` or nothing after them), since `| python3 -m json.tool` only formats the download.
 */
const RUNNER = /^\s*(?:sudo(?:\s+-\S+)*\s+)?(?:env(?:\s+\w+=\S*)*\s+)?(?:(?:\S*\/)?(?:sh|bash|zsh|dash|ksh|fish)(?:\s+-\S*)*(?=\s|$|[)"'`\\])|pwsh\b|powershell\b|iex\b|Invoke-Expression\b|(?:python[23]?|perl|ruby|node)\s*(?:-\s*)?(?:$|[)"'`]))/i;
/** `sh -c "$(curl …)"`, `bash <(wget …)`: a download substituted into a shell's command line. */
const SUBSTITUTED = /(?:\$\(|<\()\s*(?:curl|wget)\b/gi;
const SHELL_WORD = /\b(?:sh|bash|zsh)\b/i;
/** `iex (iwr …)`, `iex ((New-Object Net.WebClient).DownloadString('…'))`. */
const IEX = /\b(?:iex|Invoke-Expression)\s*\(+\s*(?:(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b|New-Object\s+(?:System\.)?Net\.WebClient)/i;

/** Words that present a command as one not to run: the example is a warning, not an install step. */
const DISCOURAGED = /\b(?:never|don'?t|do not|avoid|instead of|insecure|unsafe|dangerous|anti-?pattern|bad|wrong|vulnerable|malicious|attack(?:er)?s?)\b|❌|🚫|不要|禁止|避免/i;

/**
 * Where the script comes from: a URL, a host and path (`bun.sh/install`) or a variable. Without
 * one (`curl ... | bash`, `curl <url> | sh`) the text names the pattern rather than installs anything.
 */
const SOURCE = /\b[a-z][\w+.-]*:\/\/\S|\b[\w-]+(?:\.[\w-]+)+\/\S|\$\{?\w/i;

/**
 * Whether `command` runs a download unseen. Split into commands (`;`, `&&`, `||`) and pipeline
 * stages rather than matched by one pattern, so the time stays linear in the line's length (a
 * pattern with nested repetition took seconds on a long line of `curl` words).
 */
function pipesToShell(command: string): boolean {
  for (const segment of command.split(/;|&&|\|\||\n/)) {
    const stages = segment.split('|');
    const from = stages.findIndex((stage) => DOWNLOADER.test(stage));
    if (from < 0) continue;
    const download = stages[from].slice(stages[from].search(DOWNLOADER));
    if (SOURCE.test(download) && stages.slice(from + 1).some((stage) => RUNNER.test(stage))) return true;
  }
  for (const m of command.matchAll(SUBSTITUTED)) {
    const before = command.slice(Math.max(0, m.index! - 200), m.index);
    const own = before.slice(Math.max(before.lastIndexOf(';'), before.lastIndexOf('|'), before.lastIndexOf('&&')) + 1);
    if (SHELL_WORD.test(own) && SOURCE.test(command.slice(m.index!, m.index! + 500))) return true;
  }
  const iex = IEX.exec(command);
  return iex !== null && SOURCE.test(command.slice(iex.index, iex.index + 500));
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
/** A line that opens or closes a fenced code block: the fence, then the info string. */
const FENCE = /^\s{0,3}(`{3,}|~{3,})(.*)$/;

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
    const open = FENCE.exec(line);
    if (fence) {
      if (open && open[1][0] === fence.marker[0] && open[1].length >= fence.marker.length && !open[2].trim()) {
        fence = null;
        continue;
      }
      // A command continued with a trailing backslash is one command.
      const parts = [line];
      let end = i;
      while (/\\\s*$/.test(lines[end]) && end + 1 < lines.length && !FENCE.test(lines[end + 1])) parts.push(lines[++end]);
      const command = parts.map((part, k) => (k < parts.length - 1 ? part.replace(/\\\s*$/, ' ') : part)).join('');
      if (!fence.discouraged && !DISCOURAGED.test(command) && pipesToShell(command)) report(i, command);
      i = end;
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
      if (pipesToShell(span[2]) && !DISCOURAGED.test(sentenceAround(line, span.index!, span.index! + span[0].length))) {
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
