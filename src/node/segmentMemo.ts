/**
 * Chinese runs jieba has segmented, by run text, kept in the index cache folder (`segments.json`).
 * A warm start reads its skills' analyses from the snapshot, but ranking still analyses the
 * fields of the candidates it reranks: one Chinese candidate loaded jieba's dictionary (~0.25 s)
 * on every `route`. With the runs met before on file, jieba loads only for a run never seen.
 * The words are jieba's own for the same text, so results do not change. The file is read on the
 * first lookup, written (temporary file, then rename) when the library is disposed and new runs
 * were added; one that is unreadable or damaged is reported and rebuilt, one written by another
 * jieba build is dropped quietly.
 */
import { readFileSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Logger } from '../core/types';

export const SEGMENTS_FILE = 'segments.json';
const VERSION = 1;
/** Most runs kept: enough for what a library's ranking meets, a few MB on disk. */
const MAX_RUNS = 100_000;

interface SegmentsFile {
  version: number;
  /** The segmenter's identity (jieba's version): another one may cut differently. */
  segmenter: string;
  runs: [string, string[]][];
}

export class SegmentMemo {
  private runs: Map<string, string[]> | undefined;
  private added = false;

  constructor(
    readonly file: string,
    private readonly segmenter: string,
    private readonly log: Logger,
  ) {}

  /** The words of `run` when it was segmented before. */
  get(run: string): string[] | undefined {
    return this.load().get(run);
  }

  /** Records jieba's words for `run` (ignored once the memo is full). */
  set(run: string, words: string[]): void {
    const runs = this.load();
    if (runs.size >= MAX_RUNS || runs.has(run)) return;
    runs.set(run, words);
    this.added = true;
  }

  /** Writes the file when runs were added since it was read. */
  async flush(): Promise<void> {
    if (!this.added || !this.runs) return;
    const body: SegmentsFile = { version: VERSION, segmenter: this.segmenter, runs: [...this.runs] };
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(body));
    await fs.rename(tmp, this.file);
    this.added = false;
  }

  private load(): Map<string, string[]> {
    if (this.runs) return this.runs;
    this.runs = new Map();
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.log.warn(`segmentation cache ${this.file} unreadable; rebuilding it`);
      return this.runs;
    }
    try {
      const parsed = JSON.parse(text) as SegmentsFile;
      if (parsed?.version !== VERSION || parsed.segmenter !== this.segmenter) {
        this.added = true; // rewritten for this segmenter
        return this.runs;
      }
      if (!Array.isArray(parsed.runs)) throw new Error('no runs');
      for (const e of parsed.runs) {
        if (!Array.isArray(e) || typeof e[0] !== 'string' || !Array.isArray(e[1]) || !e[1].every((w) => typeof w === 'string')) throw new Error('bad entry');
      }
      for (const [run, words] of parsed.runs) this.runs.set(run, words);
    } catch (err) {
      this.runs.clear();
      this.added = true;
      this.log.warn(`segmentation cache ${this.file} is corrupt (${(err as Error).message}); rebuilding it`);
    }
    return this.runs;
  }
}
