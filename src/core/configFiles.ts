/**
 * The files `skill-router check` reads besides the skills, and where it finds them: the config,
 * the routing tests file and each skill's trigger evals. The CLI and the editor's "Save as routing
 * test" both locate them through here, so they agree. File access is passed in: the CLI gives
 * Node's file system, the editor VS Code's.
 */

/** Config files, in the order they are looked for; the first found is used. */
export const CONFIG_FILE_NAMES: readonly string[] = ['skill-router.yaml', 'skill-router.yml', 'skill-router.json'];
/** Routing tests files, in the order they are looked for. */
export const TESTS_FILE_NAMES: readonly string[] = ['skill-router.tests.yaml', 'skill-router.tests.yml', 'skill-router.tests.json'];
/** Trigger-eval files looked for in every skill folder, in this order; the first found is used. */
export const EVALS_FILE_NAMES: readonly string[] = ['evals/evals.json', 'evals.json'];

/** What discovery needs of a file system. */
export interface ConfigFileAccess {
  exists(file: string): Promise<boolean>;
  /** `rel` resolved against folder `dir` (an absolute `rel` stands as it is). */
  resolve(dir: string, rel: string): string;
}

/** The first of `names` that exists in folder `dir`. */
export async function firstExisting(dir: string, names: readonly string[], fs: ConfigFileAccess): Promise<string | undefined> {
  for (const name of names) {
    const file = fs.resolve(dir, name);
    if (await fs.exists(file)) return file;
  }
  return undefined;
}

/** The config file of folder `dir`, if it has one. */
export function findConfigFile(dir: string, fs: ConfigFileAccess): Promise<string | undefined> {
  return firstExisting(dir, CONFIG_FILE_NAMES, fs);
}

/** Where the routing tests are looked for. */
export interface TestsFileSearch {
  /** The config's folder; tests files next to it are found first. */
  configDir?: string;
  /** The config's `tests` key, relative to `configDir`: when set, no search is made. */
  tests?: string;
  /** The library folder, searched after `configDir`. */
  libraryDir?: string;
}

/**
 * The routing tests file: the config's `tests` when set (`configured`, whether or not it exists),
 * else the first tests file next to the config, else in the library folder; undefined when none
 * is found.
 */
export async function findTestsFile(
  where: TestsFileSearch,
  fs: ConfigFileAccess,
): Promise<{ file: string; exists: boolean; configured: boolean } | undefined> {
  if (where.tests !== undefined && where.configDir !== undefined) {
    const file = fs.resolve(where.configDir, where.tests);
    return { file, exists: await fs.exists(file), configured: true };
  }
  for (const dir of [where.configDir, where.libraryDir]) {
    if (dir === undefined) continue;
    const file = await firstExisting(dir, TESTS_FILE_NAMES, fs);
    if (file) return { file, exists: true, configured: false };
  }
  return undefined;
}
