/** Capabilities `core` needs from its host; the server and the CLI pass their own. */

/** A SKILL.md found in a library. */
export interface SkillFileRef {
  /** Folder path relative to the library root, `/`-separated. */
  id: string;
  /** SKILL.md path relative to the library root, `/`-separated. */
  path: string;
  /** Name of the skill folder (the spec's `name` must equal it); absent for folder-less libraries. */
  folderName?: string;
}

export interface SkillWorkspace {
  /** Every SKILL.md of the library, plus what could not be walked and why. */
  list(): Promise<{ files: SkillFileRef[]; problems: { path: string; message: string }[] }>;
  /** Current bytes of one file (an open editor buffer wins over disk). */
  read(ref: SkillFileRef): Promise<Uint8Array>;
  /**
   * A cheap token that changes whenever the file's bytes may have (size, times, inode), so a
   * parsed copy can be reused without reading it; undefined when that cannot be told (an open
   * editor buffer, a file modified too recently to trust its times): the file is then read.
   */
  stamp?(ref: SkillFileRef): Promise<string | undefined>;
}

/** Persistent vectors by content key, for one embedding model. */
export interface VectorCache {
  get(key: string): Float32Array[] | undefined;
  set(key: string, vectors: Float32Array[]): void;
  /** Writes pending changes; `keep` lists the keys still in use (others may be dropped). */
  flush(keep: Set<string>, opts?: FlushOptions): Promise<void>;
}

/**
 * How a cache flush may wait. `minShare`: write a file only once at least that share of its
 * entries changed since it was last written (one at least). A 20,000-skill library's analysis
 * snapshot is 113 MB, about 3 s of the server's main thread to encode and write: after a few
 * edits the server leaves it for later (more changes, or its exit, which writes everything), and
 * a server killed meanwhile analyses those few skills again at its next start.
 */
export interface FlushOptions {
  minShare?: number;
}
