/**
 * The MCP tools over one library: `search_skills` (the engine's routing, shaped by routeAnswer.ts),
 * `read_skill` and `list_skills`. Each answers with readable text and with `structuredContent`
 * that matches its `outputSchema`. Bad arguments are refused with `McpError(InvalidParams)`,
 * which the SDK returns to the client as a tool error (so the model can correct itself) and the
 * server keeps serving.
 */
import * as path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, McpError, type CallToolResult, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { SKIP_REASONS } from '../core/analysis/types';
import { CLIENT_PROFILES, listingText, PROFILES, type ProfileId } from '../core/profiles';
import type { IndexStats, RouteOptions } from '../core/service';
import type { SkillDoc } from '../core/types';
import { howRead, matchedWords } from '../core/route/notRelevant';
import { declinedNote } from '../core/text/declined';
import type { IndexProgress, LiveRouteResult } from './liveLibrary';
import { capRequest, label, MAX_REQUEST_CHARS, shapeAnswer, skipPhrase, type ListingOf, type SkillAnswer } from './routeAnswer';
import { listSkillFolder, readSkillFile, safeRelative, SkillFileError, skillFolder } from './skillFiles';

/** What the tools read from the library (`LiveLibrary` in the server; a fake in tests). */
export interface ToolLibrary {
  readonly root: string;
  readonly ready: Promise<IndexStats>;
  /** Settles once the skills are read and their words indexed (their vectors may still be building). */
  readonly words: Promise<void>;
  /** The first index's progress while it runs, null once it is done. */
  building(): IndexProgress | null;
  /** Calls `listener` with each progress step of the first index; returns the unsubscribe. */
  onProgress(listener: (p: IndexProgress) => void): () => void;
  /** A ranking; `wordsOnly` when it was made by words alone while the vectors are built. */
  route(query: string, opts: RouteOptions): Promise<LiveRouteResult>;
  skill(id: string): SkillDoc | undefined;
  skills(): readonly SkillDoc[];
}

/** Results of `search_skills` by default: the set (at most 3) and a few more to choose from. */
export const DEFAULT_TOP_K = 5;
/** Most results of `search_skills`: the reranker orders the first 20; deeper ones are first-stage order. */
export const MAX_TOP_K = 20;
/** Skills per `list_skills` page by default. */
export const DEFAULT_LIST_LIMIT = 100;
/** Most skills per `list_skills` page (at most ~512 KB of descriptions at the spec's 1,024-character limit). */
export const MAX_LIST_LIMIT = 500;
/** Characters of a description in `list_skills` (the spec's limit). */
const LIST_DESCRIPTION_CHARS = 1024;

const profileIds = PROFILES as unknown as [ProfileId, ...ProfileId[]];
const skipReasons = SKIP_REASONS as unknown as [string, ...string[]];

const SEARCH_INPUT = {
  request: z
    .string()
    .min(1, { message: 'request is empty: send the task in words' })
    .max(MAX_REQUEST_CHARS, { message: `request is longer than ${MAX_REQUEST_CHARS} characters: send the task in a sentence or a paragraph, not whole files or logs` })
    .describe('The user\'s task in their words (a sentence or a paragraph). The first 2,000 words are routed.'),
  top_k: z.number().int().min(1).max(MAX_TOP_K).optional().describe(`How many results at most (default ${DEFAULT_TOP_K}, at most ${MAX_TOP_K}).`),
  client: z.enum(profileIds).optional().describe('Show descriptions as this client lists them (claude-code, codex, copilot, spec); routing is the same.'),
};

const PARTNER = z.object({ id: z.string(), reason: z.enum(skipReasons), evidence: z.string() });
const ANSWER_SKILL = z.object({
  id: z.string().describe('Folder path relative to the library root; pass it to read_skill.'),
  name: z.string(),
  description: z.string(),
  path: z.string().describe('Absolute path of the SKILL.md.'),
  rank: z.number().int(),
  relevance: z.number().describe('The router\'s final score: higher is better, comparable within one answer.'),
  matched: z.array(z.string()).describe('Words of the request found in the skill\'s best-matching passage.'),
  why: z.string().optional().describe('Set members: why this skill belongs in the set.'),
  leftOut: z.array(PARTNER).optional().describe('Set members: candidates set aside because they conflict with this skill.'),
  setAsideFor: PARTNER.optional().describe('Other results: the set member this one conflicts with (use that one, not both).'),
  listing: z.enum(['cut', 'dropped']).optional().describe('With `client`: the description is cut in its listing, or the skill is left out of it.'),
});
const SEARCH_OUTPUT = {
  request: z.string(),
  truncated: z.boolean(),
  match: z.enum(['strong', 'weak', 'none']).describe('none: no skill in this library fits; use none.'),
  message: z.string(),
  set: z.array(ANSWER_SKILL).describe('The skills to use together for this request, best first.'),
  others: z.array(ANSWER_SKILL).describe('Other relevant skills, in rank order.'),
  readAs: z.string().optional(),
  declined: z.array(z.string()).optional().describe('Clauses the request declines ("do not open a pull request"): their words were not matched.'),
  unread: z.string().optional().describe('The script or language most of the request is in when the router reads none of it (Hangul, Thai, Spanish, ...): the answer matched its other words only.'),
  library: z.string(),
  wordsOnly: z
    .object({ embedded: z.number().int(), total: z.number().int() })
    .optional()
    .describe('Present when the library was still being indexed: this answer ranks by words alone (the skill vectors, `embedded` of `total` texts, were not ready). Search again later for the full ranking.'),
};

const READ_INPUT = {
  id: z.string().min(1).max(1024).describe('A skill id from search_skills or list_skills.'),
  file: z.string().min(1).max(1024).optional().describe('A file of the skill folder, relative to it (default SKILL.md).'),
};
const READ_OUTPUT = {
  id: z.string(),
  name: z.string(),
  file: z.string(),
  path: z.string().describe('Absolute path of the file.'),
  text: z.string(),
  bytes: z.number().int(),
  truncated: z.boolean(),
  files: z.array(z.string()).describe('Files of the skill folder, relative to it.'),
  filesTruncated: z.boolean(),
};

const LIST_INPUT = {
  offset: z.number().int().min(0).optional().describe('Skills to skip (default 0).'),
  limit: z.number().int().min(1).max(MAX_LIST_LIMIT).optional().describe(`Skills per page (default ${DEFAULT_LIST_LIMIT}, at most ${MAX_LIST_LIMIT}).`),
};
const LIST_OUTPUT = {
  total: z.number().int(),
  offset: z.number().int(),
  skills: z.array(z.object({ id: z.string(), name: z.string(), description: z.string() })),
  nextOffset: z.number().int().optional().describe('Pass as offset for the next page; absent on the last page.'),
};

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/** The server's tools. */
export const TOOL_NAMES: readonly string[] = ['search_skills', 'read_skill', 'list_skills'];

/**
 * Answers a `tools/call` for a tool the server does not have with the JSON-RPC error the
 * specification names (-32602, Invalid params, "Unknown tool"), not a tool result: the SDK's
 * server turns it into an `isError` result, which a client reads as the tool having run.
 */
export function answerUnknownTools(transport: Transport, tools: readonly string[]): void {
  const inner = transport.onmessage;
  if (!inner) throw new Error('connect the server to the transport first');
  transport.onmessage = (message, extra) => {
    const m = message as { id?: string | number; method?: string; params?: { name?: unknown } };
    if (m.method === 'tools/call' && m.id !== undefined && !tools.includes(String(m.params?.name))) {
      const error = { code: ErrorCode.InvalidParams, message: `Unknown tool: ${String(m.params?.name)}; the tools are ${tools.join(', ')}` };
      transport.send({ jsonrpc: '2.0', id: m.id, error }).catch(() => undefined);
      return;
    }
    inner(message, extra);
  };
}

/** Server identity and what it tells clients. */
export interface McpServerInfo {
  name: string;
  version: string;
}

/** The MCP server with the three tools over `library` (not yet connected to a transport). */
export function createSkillRouterServer(library: ToolLibrary, info: McpServerInfo): McpServer {
  const server = new McpServer(info, {
    capabilities: { logging: {} },
    instructions:
      `Skill Router routes requests over the Agent Skills library at ${library.root}. Before a task, call search_skills with the user's request: ` +
      'use the skills of its set together, read each with read_skill (or its path) before following it, and when it answers that no skill fits, use none.',
  });

  server.registerTool(
    'search_skills',
    {
      title: 'Find the skills for a task',
      description:
        'Routes a task over this skill library: returns the set of skills to use together (best first), then other relevant ones, ' +
        'each with id, name, description, SKILL.md path and relevance; or says that no skill in the library fits (then use none).',
      inputSchema: SEARCH_INPUT,
      outputSchema: SEARCH_OUTPUT,
      annotations: READ_ONLY,
    },
    async ({ request, top_k, client }, extra) => {
      const capped = capRequest(request);
      if (!capped.text) throw new McpError(ErrorCode.InvalidParams, 'request has no words: send the task in words');
      const progress = reportProgress(library, extra);
      try {
        await indexed(library, library.words);
        const result = await library.route(capped.text, { k: top_k ?? DEFAULT_TOP_K });
        const answer = shapeAnswer(result, { root: library.root, truncated: capped.truncated, listing: client ? listingOf(library, client) : undefined });
        if (!library.skills().length) answer.message = `The library has no skills yet (no SKILL.md under ${library.root}).`;
        const wordsOnly = result.wordsOnly && vectorsOf(result.wordsOnly);
        progress.end(wordsOnly ? `answered by words: ${vectorPhrase(wordsOnly)}` : 'answered');
        return answerResult(answer, library.root, wordsOnly);
      } finally {
        progress.end();
      }
    },
  );

  server.registerTool(
    'read_skill',
    {
      title: 'Read a skill',
      description: 'Returns a skill\'s SKILL.md (or another file of its folder, with `file`) and the list of the files in its folder.',
      inputSchema: READ_INPUT,
      outputSchema: READ_OUTPUT,
      annotations: READ_ONLY,
    },
    async ({ id, file }, extra) => {
      await waitForWords(library, extra);
      const doc = library.skill(id);
      if (!doc) {
        throw new McpError(ErrorCode.InvalidParams, `unknown skill id "${id.slice(0, 200)}": use an id from search_skills or list_skills (a folder path inside the library, e.g. "tools/pdf-extract")`);
      }
      try {
        const rel = file === undefined ? doc.path.split('/').pop()! : safeRelative(file);
        if (!rel) throw new SkillFileError('file names the skill folder itself; name a file in it, e.g. "SKILL.md"');
        const folder = await skillFolder(library.root, doc.id);
        const [content, listing] = await Promise.all([readSkillFile(folder, rel), listSkillFolder(folder)]);
        const abs = path.join(folder.dir, ...rel.split('/'));
        const structured = { id: doc.id, name: doc.name, file: rel, path: abs, text: content.text, bytes: content.bytes, truncated: content.truncated, files: listing.files, filesTruncated: listing.truncated };
        const notes = [
          content.truncated ? `[cut at ${content.text.length} characters of ${content.bytes} bytes; read the rest from ${abs}]` : '',
          `Files of ${doc.id}/ (${listing.files.length}${listing.truncated ? '+' : ''}): ${listing.files.join(', ')}`,
          listing.skippedLinks ? `(${listing.skippedLinks} links to outside the library or to folders left out)` : '',
        ].filter(Boolean);
        return { content: [{ type: 'text', text: `${content.text}\n\n---\n${notes.join('\n')}` }], structuredContent: structured };
      } catch (err) {
        if (err instanceof SkillFileError) throw new McpError(ErrorCode.InvalidParams, err.message);
        throw err;
      }
    },
  );

  server.registerTool(
    'list_skills',
    {
      title: 'List the skills',
      description: `Lists the library's skills (id, name, description), ${DEFAULT_LIST_LIMIT} at a time. To find skills for a task, search_skills is better.`,
      inputSchema: LIST_INPUT,
      outputSchema: LIST_OUTPUT,
      annotations: READ_ONLY,
    },
    async ({ offset, limit }, extra) => {
      await waitForWords(library, extra);
      const all = library.skills();
      const from = offset ?? 0;
      const page = all.slice(from, from + (limit ?? DEFAULT_LIST_LIMIT)).map((d) => ({
        id: d.id,
        name: d.name,
        description: d.description.length > LIST_DESCRIPTION_CHARS ? `${d.description.slice(0, LIST_DESCRIPTION_CHARS - 1)}…` : d.description,
      }));
      const next = from + page.length < all.length ? from + page.length : undefined;
      const structured = { total: all.length, offset: from, skills: page, ...(next !== undefined ? { nextOffset: next } : {}) };
      const lines = page.map((s) => `- ${label(s)}: ${oneLine(s.description, 160)}`);
      const head = all.length
        ? `Skills ${page.length ? `${from + 1}-${from + page.length}` : 'none'} of ${all.length}${next !== undefined ? ` (next page: offset ${next})` : ''}:`
        : `The library has no skills (no SKILL.md under ${library.root}).`;
      return { content: [{ type: 'text', text: [head, ...lines].join('\n') }], structuredContent: structured };
    },
  );

  return server;
}

/** Waits for `stage` of the first index; a failed index is the tool's error, with its reason. */
async function indexed<T>(library: ToolLibrary, stage: Promise<T>): Promise<T> {
  try {
    return await stage;
  } catch (err) {
    throw new McpError(ErrorCode.InternalError, `the library at ${library.root} could not be indexed: ${(err as Error).message}`);
  }
}

/** Waits until the skills are listed (their words indexed), with progress notifications meanwhile. */
async function waitForWords(library: ToolLibrary, extra: ToolExtra): Promise<void> {
  const progress = reportProgress(library, extra);
  try {
    await indexed(library, library.words);
  } finally {
    progress.end();
  }
}

type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Least time between two progress notifications of one call. */
const PROGRESS_EVERY_MS = 250;

/**
 * Sends `notifications/progress` for a call whose request carries `_meta.progressToken`: where
 * the first index stands when the call arrives, its steps while the call waits (at most one per
 * `PROGRESS_EVERY_MS`), and `end`'s message. Nothing without a token, or once the index is done
 * and the call did not wait.
 */
function reportProgress(library: ToolLibrary, extra: ToolExtra): { end(message?: string): void } {
  const token = extra._meta?.progressToken;
  const now = library.building();
  if (token === undefined || !now) return { end: () => undefined };
  let step = 0;
  let last = 0;
  let ended = false;
  const send = (message: string) => {
    last = Date.now();
    step++;
    extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, message } }).catch(() => undefined);
  };
  send(progressPhrase(now));
  const off = library.onProgress((p) => {
    if (Date.now() - last >= PROGRESS_EVERY_MS) send(progressPhrase(p));
  });
  return {
    end(message) {
      if (ended) return;
      ended = true;
      off();
      if (message) send(message);
    },
  };
}

/** How far the vectors are, from the progress of a words-only answer. */
function vectorsOf(p: IndexProgress): { embedded: number; total: number } {
  return p.stage === 'embed' ? { embedded: p.done, total: p.total } : { embedded: 0, total: 0 };
}

function vectorPhrase(v: { embedded: number; total: number }): string {
  return v.total ? `the skill vectors are being built (${v.embedded} of ${v.total} texts embedded)` : 'the skill vectors are being built';
}

/** One progress step in words. */
export function progressPhrase(p: IndexProgress): string {
  switch (p.stage) {
    case 'read':
      return p.total ? `reading the skills (${p.done} of ${p.total})` : 'listing the skills';
    case 'words':
      return `${p.done} skills read; indexing their vectors`;
    case 'embed':
      return vectorPhrase({ embedded: p.done, total: p.total });
    case 'load model':
      return 'loading the model';
    default:
      return `indexing: ${p.stage}`;
  }
}

function listingOf(library: ToolLibrary, client: ProfileId): ListingOf {
  const profile = CLIENT_PROFILES[client];
  return (id) => {
    const doc = library.skill(id);
    return doc ? listingText(doc.frontMatter, profile) : undefined;
  };
}

const oneLine = (s: string, max: number) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The tool result: the answer as text for the model, and as structured content for programs. */
function answerResult(answer: SkillAnswer, root: string, wordsOnly?: { embedded: number; total: number }): CallToolResult {
  const text = answerText(answer);
  if (!wordsOnly) return { content: [{ type: 'text', text }], structuredContent: { ...answer, library: root } };
  const mark = `(words-only answer: ${vectorPhrase(wordsOnly)}; search again in a moment for the full ranking)`;
  return { content: [{ type: 'text', text: `${mark}\n${text}` }], structuredContent: { ...answer, library: root, wordsOnly } };
}

/** The answer as the model reads it. */
export function answerText(a: SkillAnswer): string {
  const lines: string[] = [];
  if (a.readAs) lines.push(`(read as: ${a.readAs})`);
  if (a.declined) lines.push(`(${declinedNote(a.declined)})`);
  if (a.unread && a.match !== 'none') lines.push(`(most of the request is in ${a.unread}, which the router ${howRead(a.unread)}: these skills matched ${matchedWords(a.unread)} only; read their descriptions to judge)`);
  if (a.truncated) lines.push('(the request was long: only its first 2,000 words were routed)');
  lines.push(a.message);
  if (a.match === 'none') return lines.join('\n');
  const item = (s: SkillAnswer['set'][number]) => {
    const out = [`${s.rank}. ${label(s)}, relevance ${s.relevance.toFixed(3)}${s.listing ? ` [${s.listing === 'cut' ? 'description cut in this client\'s listing' : 'not in this client\'s listing'}]` : ''}`];
    out.push(`   ${oneLine(s.description, 400)}`);
    out.push(`   SKILL.md: ${s.path}`);
    if (s.why) out.push(`   why: ${s.why}`);
    for (const p of s.leftOut ?? []) out.push(`   left out: ${p.id} ${skipPhrase(p.reason)} this one (${oneLine(p.evidence, 160)})`);
    if (s.setAsideFor) out.push(`   set aside: ${skipPhrase(s.setAsideFor.reason)} ${s.setAsideFor.id} (${oneLine(s.setAsideFor.evidence, 160)}); use one of the two`);
    return out.join('\n');
  };
  lines.push('', a.match === 'weak' ? 'Closest skills:' : a.set.length > 1 ? 'Use together:' : 'Use:');
  lines.push(...a.set.map(item));
  if (a.others.length) lines.push('', 'Other relevant skills:', ...a.others.map(item));
  lines.push('', 'Read a skill with read_skill (its id) before following it.');
  return lines.join('\n');
}
