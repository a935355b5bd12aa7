/**
 * What the prompt hook reads before it routes: its flags, and the prompt on stdin. Kept apart from
 * hook.ts (and from the engine) so that hookFast.ts, which a hook process loads first, stays small.
 */
import { parseArgs } from 'node:util';
import type { Readable } from 'node:stream';
import { ENGINE_OPTIONS } from './options';

/** Characters the context block may take by default (about 375 tokens). */
export const DEFAULT_BUDGET = 1500;
/** The smallest budget that holds a header and one skill's name and id. */
export const MIN_BUDGET = 200;
/** Bytes of stdin read; the rest is drained unread (a prompt is routed on its first 16 KB anyway). */
export const MAX_STDIN_BYTES = 16 * 1024 * 1024;
/**
 * How long the hook waits for a running server's answer before it opens the library itself (a
 * server still reading an uncached library waits for the skills' words before it answers).
 */
export const ASK_TIMEOUT_MS = 5000;
/**
 * Characters of a prompt sent to a running server, which caps it as the hook does: more than the
 * engine reads (`MAX_REQUEST_CHARS`, 16,384), so the cut and its `truncated` are the server's;
 * a constant here, not that one, to keep the engine's text code out of the small bundle.
 */
export const ASK_PROMPT_CHARS = 32 * 1024;

export const HOOK_OPTIONS = {
  library: { type: 'string' },
  ...ENGINE_OPTIONS,
  budget: { type: 'string' },
  json: { type: 'boolean' },
  'no-server': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** What the hook prints for a block: the block, or Claude Code's JSON form of it (`--json`); nothing for none. */
export function hookOutput(block: string, json = false): string {
  if (!block) return '';
  return json ? `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: block } })}\n` : `${block}\n`;
}

/** The hook's flags (throws parseArgs's errors). */
export function parseHookArgs(args: string[]) {
  return parseArgs({ args, options: HOOK_OPTIONS }).values;
}

/** All of stdin up to `MAX_STDIN_BYTES` (the rest is read and dropped, so the writer never blocks). */
export async function readInput(stream: Readable): Promise<{ bytes: Buffer; cut: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let cut = false;
  try {
    for await (const chunk of stream) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      if (size + buf.length > MAX_STDIN_BYTES) {
        if (size < MAX_STDIN_BYTES) chunks.push(buf.subarray(0, MAX_STDIN_BYTES - size));
        size = MAX_STDIN_BYTES;
        cut = true;
        continue;
      }
      chunks.push(buf);
      size += buf.length;
    }
  } catch {
    // A stdin that fails midway (a closed pipe) gives what was read.
  }
  return { bytes: Buffer.concat(chunks), cut };
}

/**
 * The prompt in a hook's input: the `prompt` string of a JSON object, else the text itself; null
 * for input that holds none (empty, binary, a JSON object without `prompt`, JSON cut by the read
 * limit).
 */
export function promptOf(bytes: Uint8Array, cut = false): string | null {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return null;
  const text = Buffer.from(bytes).toString('utf8').replace(/^\uFEFF/, '');
  const trimmed = text.trim();
  if (!trimmed) return null;
  // Text that decodes to mostly replacement or control characters is not a prompt.
  const sample = trimmed.slice(0, 4096);
  // eslint-disable-next-line no-control-regex
  const junk = (sample.match(/[\uFFFD\u0000-\u0008\u000b\u000c\u000e-\u001f]/g) ?? []).length;
  if (junk > sample.length * 0.1) return null;
  if (trimmed.startsWith('{')) {
    try {
      const data: unknown = JSON.parse(trimmed);
      if (data && typeof data === 'object' && !Array.isArray(data)) {
        const prompt = (data as { prompt?: unknown }).prompt;
        return typeof prompt === 'string' ? prompt : null;
      }
    } catch {
      // Not JSON after all: a prompt that starts with a brace, unless the read limit cut it.
      if (cut) return null;
    }
  }
  return trimmed;
}
