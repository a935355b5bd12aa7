/**
 * `skill-router hook`: a prompt hook. It reads the prompt on stdin (Claude Code's
 * `UserPromptSubmit` JSON, whose `prompt` field holds it, or plain text), routes it, and prints the
 * routed skills as a short context block within a character budget; nothing when no skill fits.
 * For `UserPromptSubmit`, Claude Code adds a hook's stdout to the context when it exits 0, and
 * takes exit 2 as "block this prompt" (https://code.claude.com/docs/en/hooks): so whatever the
 * input (empty, huge, binary, not JSON) the hook exits 0, and a broken setup (bad flags, no
 * library) exits 1, which Claude Code reports without blocking the prompt. Never 2.
 */
import { promises as fs } from 'node:fs';
import type { SkillService } from '../core/service';
import type { OpenLibraryOptions } from '../node/library';
import { EXIT_OK, stderrProgress, UsageError, type CliIo } from './io';
import { engineOptions, positiveInt, type LibraryDeps } from './options';
import { capRequest, label, shapeAnswer, type SkillAnswer } from './routeAnswer';
import { askHookChannel } from './hookChannel';
import { ASK_TIMEOUT_MS, DEFAULT_BUDGET, hookOutput, MIN_BUDGET, parseHookArgs, promptOf, readInput } from './hookInput';

export { DEFAULT_BUDGET, MAX_STDIN_BYTES, MIN_BUDGET, promptOf, readInput } from './hookInput';

export const HOOK_USAGE = `Usage: skill-router hook --library <dir> [--budget 1500] [--json] [--no-server] [engine flags]

For prompt hooks (Claude Code's UserPromptSubmit): reads the prompt on stdin, as the hook's JSON
object (its "prompt" field) or as plain text, and prints the skills routed for it as a context
block of at most --budget characters; prints nothing when no skill fits.

  --library <dir>   Skill library folder (default: current folder)
  --budget <n>      Most characters printed (default 1500, at least ${200})
  --json            Print Claude Code's JSON form: {"hookSpecificOutput": {"hookEventName":
                    "UserPromptSubmit", "additionalContext": "..."}} instead of plain text
  --no-server       Do not ask a running "skill-router mcp" of the library (see below)
  --model <dir> | --no-model, --no-bridge, --cache <dir>, ...   as for every command

When a "skill-router mcp" of the same library and engine flags is running (an agent client that
has both the MCP server and the hook set up), the hook asks it for the block: the same answer,
without opening the index (a fraction of a second instead of about a second and a half).

Exit codes: 0 on any input (with or without output), 1 bad arguments or no library. Never 2,
which Claude Code reads as "block the prompt".
`;

/** Results routed per prompt: the set is at most 3 of them. */
export const HOOK_TOP_K = 5;

const EXIT_HOOK_FAILURE = 1;

/** Runs the hook; resolves to 0 whatever the input, 1 when the hook itself is set up wrong. */
export async function runHook(args: string[], io: CliIo, deps: LibraryDeps): Promise<number> {
  let values: ReturnType<typeof parseHookArgs>;
  let budget: number;
  try {
    values = parseHookArgs(args);
    if (values.help) {
      io.stdout(HOOK_USAGE);
      return EXIT_OK;
    }
    budget = positiveInt(values.budget, '--budget', DEFAULT_BUDGET);
    if (budget < MIN_BUDGET) throw new UsageError(`--budget must be at least ${MIN_BUDGET} characters, got ${budget}`);
  } catch (err) {
    io.stderr(`skill-router hook: ${(err as Error).message}\nRun "skill-router hook --help" for usage.\n`);
    return EXIT_HOOK_FAILURE;
  }
  let opts: OpenLibraryOptions;
  try {
    opts = engineOptions(values, io, values.library ?? '.');
    if (!(await fs.stat(opts.root).catch(() => null))) throw new UsageError(`library not found: ${opts.root}; pass --library <dir>`);
  } catch (err) {
    io.stderr(`skill-router hook: ${(err as Error).message}\n`);
    return EXIT_HOOK_FAILURE;
  }
  const stdin = io.stdin ?? process.stdin;
  if ((stdin as { isTTY?: boolean }).isTTY) io.stderr('skill-router hook: reading the prompt from stdin (end it with Ctrl-D)\n');
  const input = await readInput(stdin);
  const prompt = promptOf(input.bytes, input.cut);
  if (prompt === null) return EXIT_OK;
  const request = capRequest(prompt);
  if (!request.text) return EXIT_OK;
  const print = (block: string) => io.stdout(hookOutput(block, values.json));
  if (!values['no-server']) {
    const served = await askHookChannel(opts, { prompt: request.text, truncated: request.truncated, budget }, ASK_TIMEOUT_MS);
    if (served !== null) {
      if (values.verbose) io.stderr('skill-router hook: answered by the running skill-router mcp of this library\n');
      print(served);
      return EXIT_OK;
    }
  }

  // Progress lines would only clutter the client's hook log.
  opts.progress = stderrProgress(io, !values.verbose);
  let service: SkillService;
  try {
    service = await deps.openLibrary(opts);
  } catch (err) {
    io.stderr(`skill-router hook: cannot open the library ${opts.root}: ${(err as Error).message}\n`);
    return EXIT_HOOK_FAILURE;
  }
  try {
    const stats = await service.index();
    if (stats.skills === 0) {
      io.stderr(`skill-router hook: no SKILL.md found under ${service.root}; pass --library <dir>\n`);
      return EXIT_HOOK_FAILURE;
    }
    const result = await service.route(request.text, { k: HOOK_TOP_K });
    print(hookBlock(shapeAnswer(result, { root: service.root, truncated: request.truncated }), budget));
    return EXIT_OK;
  } catch (err) {
    // A failure to route one prompt must not stand in the user's way: say why, add nothing.
    io.stderr(`skill-router hook: ${(err as Error).message}\n`);
    return EXIT_OK;
  } finally {
    await service.dispose().catch(() => undefined);
  }
}

const ELLIPSIS = '…';

/**
 * The context block for a routed prompt, at most `budget` characters: the set's skills with
 * their descriptions (cut evenly to fit), SKILL.md paths and one line of advice; '' when no skill
 * fits. Skills that do not fit even without a description are left out from the last.
 */
export function hookBlock(answer: SkillAnswer, budget: number): string {
  if (answer.match === 'none' || !answer.set.length) return '';
  const header = answer.match === 'weak'
    ? 'Skills that may fit this request (a weak match: check before use), from skill-router:'
    : answer.set.length > 1 ? 'Skills for this request, to use together (skill-router):' : 'A skill for this request (skill-router):';
  const footer = 'Read a skill\'s SKILL.md before following it.';
  const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
  const render = (skills: SkillAnswer['set'], descMax: number, withPaths: boolean, withFooter: boolean) => {
    const lines = [header];
    for (const s of skills) {
      const d = flat(s.description);
      const desc = descMax <= 0 ? '' : d.length > descMax ? `${d.slice(0, Math.max(0, descMax - 1))}${ELLIPSIS}` : d;
      lines.push(`- ${label(s)}${desc ? `: ${desc}` : ''}${withPaths ? ` [${s.path}]` : ''}`);
    }
    if (withFooter) lines.push(footer);
    return lines.join('\n');
  };
  const longest = Math.max(...answer.set.map((s) => flat(s.description).length));
  for (let n = answer.set.length; n >= 1; n--) {
    const skills = answer.set.slice(0, n);
    for (const [withPaths, withFooter] of [[true, true], [false, true], [false, false]]) {
      if (render(skills, 0, withPaths, withFooter).length > budget) continue;
      // The longest description cap that fits: binary search on its length.
      let lo = 0;
      let hi = longest;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (render(skills, mid, withPaths, withFooter).length <= budget) lo = mid;
        else hi = mid - 1;
      }
      return render(skills, lo, withPaths, withFooter);
    }
  }
  return render(answer.set.slice(0, 1), 0, false, false).slice(0, budget);
}
