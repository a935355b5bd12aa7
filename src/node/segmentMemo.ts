/**
 * Chinese runs jieba has segmented, by run text, kept in the index cache folder (`segments.json`).
 * A warm start reads its skills' analyses from the snapshot, but ranking still analyses the
 * fields of the candidates it reranks: one Chinese candidate loaded jieba's dictionary (~0.25 s)
 * on every `route`. With the runs met before on file, jieba loads only for a run never seen.
 * The words are jieba's own for the same text, so results do not change.
 *
 * The runs are spread over `SHARDS` shards by a hash of the run: a JSON header line
 * {version, segmenter, shards: [byte length, runs, crc32 or sha1][]}, then each shard's JSON
 * array of `[run, words]`. A lookup parses its run's shard only (~3 KB): a warm `route` meets a
 * few dozen runs, and parsing all of them (6 MB) cost ~0.08 s. The file is written (temporary file, then rename)
 * when the library is disposed and new runs were added, unparsed shards as they were read. A
 * header or shard that is unreadable or damaged is reported and rebuilt; a file written by
 * another jieba build or layout is dropped quietly.
 *
 * In memory a run's words are one string (joined by `SEP`), split on each lookup: a cold index
 * fills the memo (100,000 runs), and as arrays of strings they held ~30 MB of the language
 * server's heap for the process's life (7,000 skills, heap snapshot with the checks done), to
 * save jieba's ~1.6 µs a run; joined they take under half of that (the adapter test: 22 → 10 MB).
 */
import { readFileSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { detach } from '../core/text/detach';
import type { Logger } from '../core/types';
import { Checksum, StaleCacheFile } from './cacheFile';

export const SEGMENTS_FILE = 'segments.json';
const VERSION = 3;
/** Most runs kept: enough for what a library's ranking meets, a few MB on disk. */
const MAX_RUNS = 100_000;
const SHARDS = 2048;
/** Between a run's words in memory; never in a run (they are cut from runs of letters). */
const SEP = '\u0001';

interface Header {
  version: number;
  /** The segmenter's identity (jieba's version): another one may cut differently. */
  segmenter: string;
  shards: [length: number, runs: number, checksum: number | string][];
}

/** One shard: its runs once parsed (words joined by `SEP`), else its bytes as read (and how many runs they hold). */
interface Shard {
  runs?: Map<string, string>;
  bytes?: Buffer;
  checksum?: number | string;
  size?: number;
}


/** The shard of a run (FNV-1a over its UTF-16 code units). */
function shardOf(run: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < run.length; i++) h = Math.imul(h ^ run.charCodeAt(i), 0x01000193);
  return (h >>> 0) % SHARDS;
}

export class SegmentMemo {
  private shards: Shard[] | undefined;
  private count = 0;
  private added = false;

  constructor(
    readonly file: string,
    private readonly segmenter: string,
    private readonly log: Logger,
  ) {}

  /** The words of `run` when it was segmented before. */
  get(run: string): string[] | undefined {
    const words = this.shard(run).get(run);
    return words === undefined ? undefined : words ? words.split(SEP) : [];
  }

  /** Records jieba's words for `run` (ignored once the memo is full). */
  set(run: string, words: string[]): void {
    const runs = this.shard(run);
    if (this.count >= MAX_RUNS || runs.has(run) || words.some((w) => w.includes(SEP))) return;
    runs.set(detach(run), words.join(SEP)); // a run is cut from a body: the key alone is kept
    this.count++;
    this.added = true;
  }

  /** Writes the file when runs were added since it was read. */
  async flush(): Promise<void> {
    if (!this.added || !this.shards) return;
    const blobs = this.shards.map((s) => (s.runs ? Buffer.from(JSON.stringify(Array.from(s.runs, ([run, words]) => [run, words ? words.split(SEP) : []])), 'utf8') : s.bytes!));
    const sum = (b: Buffer) => {
      const c = new Checksum().update(b).digest();
      return 'crc32' in c ? c.crc32 : c.sha1;
    };
    const rows = this.shards.map((s, i): Header['shards'][number] => (s.runs ? [blobs[i].length, s.runs.size, sum(blobs[i])] : [blobs[i].length, s.size!, s.checksum!]));
    const header: Header = { version: VERSION, segmenter: this.segmenter, shards: rows };
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    await fs.writeFile(tmp, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), ...blobs]));
    await fs.rename(tmp, this.file);
    this.added = false;
  }

  /** The runs of `run`'s shard, parsed on first use. */
  private shard(run: string): Map<string, string> {
    const shards = this.load();
    const shard = shards[shardOf(run)];
    if (shard.runs) return shard.runs;
    shard.runs = new Map();
    const { bytes } = shard;
    shard.bytes = undefined;
    if (!bytes) return shard.runs;
    try {
      Checksum.check(typeof shard.checksum === 'number' ? { crc32: shard.checksum } : { sha1: shard.checksum }, bytes);
      const entries = JSON.parse(bytes.toString('utf8')) as unknown;
      if (!Array.isArray(entries)) throw new Error('no runs');
      for (const e of entries) {
        if (!Array.isArray(e) || typeof e[0] !== 'string' || !Array.isArray(e[1]) || !e[1].every((w) => typeof w === 'string' && !w.includes(SEP))) throw new Error('bad entry');
      }
      for (const [r, words] of entries as [string, string[]][]) shard.runs.set(r, words.join(SEP));
    } catch (err) {
      // The rest of the file stays good: this shard is dropped and written again.
      this.count -= shard.size ?? 0;
      shard.runs.clear();
      this.added = true;
      if (!(err instanceof StaleCacheFile)) this.log.warn(`segmentation cache ${this.file} is corrupt (${(err as Error).message}); rebuilding it`);
    }
    return shard.runs;
  }

  private load(): Shard[] {
    if (this.shards) return this.shards;
    const empty = () => Array.from({ length: SHARDS }, (): Shard => ({ runs: new Map() }));
    let buf: Buffer;
    try {
      buf = readFileSync(this.file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.log.warn(`segmentation cache ${this.file} unreadable; rebuilding it`);
      return (this.shards = empty());
    }
    // Every layout starts with its version: an older file is dropped before it is parsed.
    const lead = /^\{"version":(\d+),/.exec(buf.toString('latin1', 0, 32));
    if (lead && Number(lead[1]) !== VERSION) {
      this.added = true;
      return (this.shards = empty());
    }
    try {
      const eol = buf.indexOf(10);
      if (eol < 0) throw new Error('truncated header');
      let header: Header;
      try {
        header = JSON.parse(buf.toString('utf8', 0, eol)) as Header;
      } catch {
        throw new Error('header is not JSON');
      }
      if (header?.version !== VERSION || header.segmenter !== this.segmenter) {
        this.added = true; // rewritten for this segmenter and layout
        return (this.shards = empty());
      }
      const rows = header.shards;
      const isRow = (r: unknown) =>
        Array.isArray(r) && r.length === 3 && [r[0], r[1]].every((n) => Number.isSafeInteger(n) && n >= 0) && (typeof r[2] === 'string' || Number.isSafeInteger(r[2]));
      if (!Array.isArray(rows) || rows.length !== SHARDS || !rows.every(isRow)) throw new Error('bad header');
      const shards: Shard[] = [];
      let at = eol + 1;
      let count = 0;
      for (const [length, size, checksum] of rows) {
        if (at + length > buf.length) throw new Error('data shorter than the header says');
        shards.push({ bytes: buf.subarray(at, at + length), checksum, size });
        at += length;
        count += size;
      }
      if (at !== buf.length) throw new Error('data longer than the header says');
      this.count = count;
      return (this.shards = shards);
    } catch (err) {
      this.added = true;
      this.log.warn(`segmentation cache ${this.file} is corrupt (${(err as Error).message}); rebuilding it`);
      return (this.shards = empty());
    }
  }
}
