/**
 * Where "Save as routing test" writes, and how: the same file `skill-router check` reads
 * (docs/cli.md), found the way the CLI finds it, and appended to without losing the author's
 * comments when the file's layout allows it. No `vscode` here: the panel host passes file access
 * in, and unit tests call it directly.
 */
import * as path from 'node:path';
import { CORE_SCHEMA, dump, load } from 'js-yaml';
import { findConfigFile, findTestsFile, TESTS_FILE_NAMES, type ConfigFileAccess } from '../core/configFiles';
import { DEFAULT_TEST_TOP } from '../core/eval/routingTest';
import type { RoutingTestEntry } from '../shared/webviewProtocol';

/** File access over `/`-separated paths (a URI's path). */
export interface TestsFileIo {
  exists(file: string): Promise<boolean>;
  read(file: string): Promise<string>;
}

export interface TestsFileLocation {
  /** `/`-separated path of the tests file. */
  file: string;
  exists: boolean;
  /** N of "in the top N" for a test without `top`: the config's `top`, as `check` reads it. */
  defaultTop: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isJson = (file: string) => file.toLowerCase().endsWith('.json');

function parse(text: string, file: string): unknown {
  return isJson(file) ? JSON.parse(text.replace(/^\uFEFF/, '')) : load(text, { schema: CORE_SCHEMA, filename: file });
}

/**
 * The routing tests file for the library rooted at `folder`, as `skill-router check` run in that
 * folder would find it: the config's `tests`, else a tests file next to the config, else one in
 * the config's `library`; when there is none, `skill-router.tests.yaml` next to the config (to
 * be created). Throws when the config cannot be read.
 */
export async function locateTestsFile(folder: string, io: TestsFileIo): Promise<TestsFileLocation> {
  const access: ConfigFileAccess = {
    exists: (file) => io.exists(file),
    resolve: (dir, rel) => (path.posix.isAbsolute(rel) ? path.posix.normalize(rel) : path.posix.join(dir, rel)),
  };
  const configFile = await findConfigFile(folder, access);
  let config: Record<string, unknown> = {};
  if (configFile) {
    let doc: unknown;
    try {
      doc = parse(await io.read(configFile), configFile);
    } catch (err) {
      throw new Error(`${path.posix.basename(configFile)} cannot be read: ${(err as Error).message}`);
    }
    if (isRecord(doc)) config = doc;
  }
  const nonEmpty = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);
  const library = nonEmpty(config.library);
  const found = await findTestsFile(
    { configDir: folder, tests: nonEmpty(config.tests), libraryDir: library === undefined ? undefined : access.resolve(folder, library) },
    access,
  );
  const defaultTop = Number.isInteger(config.top) && (config.top as number) > 0 ? (config.top as number) : DEFAULT_TEST_TOP;
  if (found) return { file: found.file, exists: found.exists, defaultTop };
  return { file: path.posix.join(folder, TESTS_FILE_NAMES[0]), exists: false, defaultTop };
}

/**
 * The entry as the tests file spells it: `expect` and `notExpect` always lists (one shape, as the
 * README writes them, however many skills), `notExpect`/`top`/`set` only when set.
 */
function plainEntry(entry: RoutingTestEntry): Record<string, unknown> {
  return {
    query: entry.query,
    ...(entry.expect.length ? { expect: entry.expect } : {}),
    ...(entry.notExpect?.length ? { notExpect: entry.notExpect } : {}),
    ...(entry.top !== undefined ? { top: entry.top } : {}),
    ...(entry.set ? { set: true } : {}),
  };
}

const NEW_FILE_HEADER = '# Routing tests for `skill-router check` (docs/cli.md): each request and the skills it must (not) route to.\n';

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * `text` (the tests file's content, null when it does not exist yet) with `entry` appended.
 * YAML: the entry is added as text at the end, so comments and layout stay, when the file is a
 * block list (or a mapping whose `tests:` list comes last); the result is parsed back and
 * compared, and any other layout is rewritten from its parsed form. JSON is rewritten with
 * two-space indentation. Throws when the file is not a list of tests (or `{tests: [...]}`).
 */
export function appendRoutingTest(text: string | null, file: string, entry: RoutingTestEntry): string {
  const item = plainEntry(entry);
  const source = text ?? '';
  let doc: unknown;
  try {
    doc = source.trim() ? parse(source, file) : null;
  } catch (err) {
    throw new Error(`${path.posix.basename(file)} cannot be read: ${(err as Error).message}`);
  }
  const list = doc === null || doc === undefined ? [] : Array.isArray(doc) ? doc : isRecord(doc) && Array.isArray(doc.tests) ? doc.tests : undefined;
  if (!list) throw new Error(`${path.posix.basename(file)} is not a list of tests (or a mapping with "tests:")`);
  const expected = Array.isArray(doc) || doc === null || doc === undefined ? [...list, item] : { ...doc, tests: [...list, item] };

  if (isJson(file)) return `${JSON.stringify(expected, null, 2)}\n`;

  const block = dump([item], { flowLevel: 2, lineWidth: -1 });
  const base = text === null ? NEW_FILE_HEADER : source.length && !source.endsWith('\n') ? `${source}\n` : source;
  const indents = [''];
  if (!Array.isArray(doc) && isRecord(doc)) {
    // Items under `tests:` are indented like the file's existing items (or by two spaces).
    const m = /^([ \t]*)-[ \t]/m.exec(source.slice(source.search(/^tests[ \t]*:/m)));
    indents.unshift(m ? m[1] : '  ');
  }
  for (const indent of indents) {
    const candidate = base + block.replace(/^(?=.)/gm, indent);
    try {
      if (sameJson(parse(candidate, file), expected)) return candidate;
    } catch {
      // Not valid in this layout; try the next, then rewrite.
    }
  }
  return dump(expected, { lineWidth: -1, flowLevel: Array.isArray(expected) ? 2 : 3 });
}
