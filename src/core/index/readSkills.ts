/**
 * Reading a library's SKILL.md files: listed by the workspace, read a few at a time, parsed and
 * validated, or taken from the parse cache when the file's stamp is unchanged.
 */
import { decodeSkillBytes, parseSkill } from '../parse/skillDoc';
import type { ProfileId } from '../profiles';
import type { CancelToken, ProgressSink, SkillDoc } from '../types';
import { throwIfCancelled } from '../types';
import type { SkillFileRef, SkillWorkspace } from '../workspace';
import { PARSE_VERSION, type ParseCache } from './caches';

const READ_CONCURRENCY = 16;

export interface ReadSkills {
  /** Parsed skills in id order. */
  docs: SkillDoc[];
  /** Files that could not be read or parsed as skills, with the reason. */
  failed: { path: string; message: string }[];
  /** Writes the parse cache with the entries of this read (none without a cache). */
  flush(): Promise<void>;
  /**
   * After `flush`, the skills this read parsed (not taken from the cache) as the cache gives them
   * back once compacted, by id: documents whose body and front matter stay bytes until read. Empty
   * when the cache cannot compact or fewer than `atLeast` were parsed.
   */
  reopen(atLeast: number): Promise<Map<string, SkillDoc>>;
}

/** Reads and parses every skill of `workspace`; `progress` counts files ('read'). */
export async function readSkills(
  workspace: SkillWorkspace,
  profiles: readonly ProfileId[],
  opts: { parseCache?: ParseCache; token?: CancelToken; progress?: ProgressSink } = {},
): Promise<ReadSkills> {
  const { parseCache, token, progress } = opts;
  const listed = await workspace.list();
  throwIfCancelled(token);
  const failed = [...listed.problems];
  const docs: SkillDoc[] = [];
  let done = 0;
  const files = listed.files;
  progress?.('read', 0, files.length);
  const queue = [...files];
  const stamps = parseCache && workspace.stamp ? new Set<string>() : undefined;
  const parsed = new Map<string, string>(); // id -> key of the skills parsed here
  const worker = async () => {
    for (let ref = queue.shift(); ref; ref = queue.shift()) {
      throwIfCancelled(token);
      try {
        const stamp = stamps && (await workspace.stamp!(ref));
        const key = stamp && parseKey(ref, profiles, stamp);
        const hit = key ? parseCache!.get(key) : undefined;
        if (hit) {
          // The cache's own copy (the engine replaces findings on entries it keeps).
          docs.push(hit);
        } else {
          const { text, invalidUtf8, bom } = decodeSkillBytes(await workspace.read(ref));
          const doc = parseSkill(ref, text, profiles, { invalidUtf8, bom });
          if (key) {
            parseCache!.set(key, { ...doc, findings: [...doc.findings] });
            parsed.set(doc.id, key);
          }
          docs.push(doc);
        }
        if (key) stamps!.add(key);
      } catch (err) {
        failed.push({ path: ref.path, message: err instanceof Error ? err.message : String(err) });
      }
      progress?.('read', ++done, files.length);
    }
  };
  await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
  docs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const reopen = async (atLeast: number): Promise<Map<string, SkillDoc>> => {
    const out = new Map<string, SkillDoc>();
    if (!parseCache?.compact || parsed.size < atLeast) return out;
    await parseCache.compact();
    for (const [id, key] of parsed) {
      const doc = parseCache.get(key);
      if (doc) out.set(id, doc);
    }
    return out;
  };
  return { docs, failed, flush: async () => (parseCache && stamps ? parseCache.flush(stamps) : undefined), reopen };
}

function parseKey(ref: SkillFileRef, profiles: readonly ProfileId[], stamp: string): string {
  // The id and folder name enter the parse (name fallback, name-mismatch finding), the profiles its findings.
  return JSON.stringify([ref.path, ref.id, ref.folderName ?? null, profiles, PARSE_VERSION, stamp]);
}
