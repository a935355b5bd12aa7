/**
 * A request that invokes a skill by name, the way the clients let a user do it: Claude Code runs
 * the skill a message starts with as a slash command (`/adr`, a plugin's `/sdd:adr`, after
 * built-in commands such as `/loop`), and Codex takes a `$adr` mention anywhere in the prompt. Such
 * a request is not a description for the agent to match: the user chose the skill, so the router
 * puts it first with full relevance, and says why.
 *
 * Only the opening slash commands count: "format these issues so /sdd:work can pick them up" names
 * a command in passing (its authors expect another skill), and a path (`/usr/bin/env`) is no
 * command. A `$` mention must be a lower-case identifier, so that `$HOME` or `$json.name` in a
 * pasted script name no skill unless one has that very name.
 */

/** One way the request invokes a skill: the text as written and the names it may stand for. */
export interface Invocation {
  /** As written in the request: `/sdd:adr`, `$adr`. */
  text: string;
  /** Names to look up, best first: the whole command, then the part after a plugin's `:`. */
  names: string[];
}

// A slash command: `/name` or `/plugin:name`, ending at white space or the end of the request
// (not at `/`, which makes it a path). Identifiers of the spec's name rule, with `.` and `_`.
const SLASH = /^\/((?:[A-Za-z0-9][\w.-]{0,63}:)?[A-Za-z0-9][\w.-]{0,63})(?=\s|$)/u;
const DOLLAR = /(?:^|[\s(["'`])\$([a-z0-9][a-z0-9_-]{0,63}(?::[a-z0-9][a-z0-9_-]{0,63})?)(?=$|[\s,;:!?)\]"'`]|\.(?![\w$]))/gu;
/** Slash commands read at the start of a request: `/loop /sdd:review` invokes review through `/loop`. */
const MAX_LEADING_COMMANDS = 3;

function namesOf(command: string): string[] {
  const colon = command.lastIndexOf(':');
  return colon > 0 ? [command, command.slice(colon + 1)] : [command];
}

/** The skill invocations of a request, in the order written (none for most requests). */
export function invocations(query: string): Invocation[] {
  const out: Invocation[] = [];
  let rest = query.trimStart();
  for (let n = 0; n < MAX_LEADING_COMMANDS; n++) {
    const m = SLASH.exec(rest);
    if (!m) break;
    out.push({ text: `/${m[1]}`, names: namesOf(m[1]) });
    rest = rest.slice(m[0].length).trimStart();
  }
  for (const m of query.matchAll(DOLLAR)) out.push({ text: `$${m[1]}`, names: namesOf(m[1]) });
  return out;
}

/**
 * The skills a request invokes, each with the text that invoked it: the first invocation whose
 * names `lookup` resolves (skill ids by name or folder), so that `/loop /sdd:review` invokes
 * review when the library has no `loop`. Copies of one name in several collections are all
 * invoked (the user named the skill, not the copy). Empty when no invocation names a skill.
 */
export function invokedSkills(query: string, lookup: (name: string) => readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (!query.includes('/') && !query.includes('$')) return out;
  for (const inv of invocations(query)) {
    for (const name of inv.names) {
      const ids = lookup(name);
      if (!ids.length) continue;
      for (const id of ids) if (!out.has(id)) out.set(id, inv.text);
      break;
    }
    if (out.size) break;
  }
  return out;
}
