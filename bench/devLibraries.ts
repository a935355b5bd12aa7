/**
 * The development libraries the benches route in: the shared real suites (`<name>/library` with
 * its authors' `pos.jsonl` and `neg.jsonl`) and each corpus collection with the dev requests that
 * lie in it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseQueries, type EvalQuery } from '../src/core/eval/queries';

export interface DevLibrary {
  name: string;
  root: string;
  queries: EvalQuery[];
}

/** The real suites under `dir` that have a library and at least one of `files` (their queries, joined). */
export function realSuites(dir: string, files: readonly string[] = ['pos.jsonl', 'neg.jsonl']): DevLibrary[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => existsSync(path.join(dir, name, 'library')) && files.some((f) => existsSync(path.join(dir, name, f))))
    .map((name) => {
      const file = (f: string) => path.join(dir, name, f);
      const text = files.filter((f) => existsSync(file(f))).map((f) => readFileSync(file(f), 'utf8')).join('\n');
      return { name, root: file('library'), queries: parseQueries(text, `${name}/${files.length === 1 ? files[0] : '*.jsonl'}`) };
    });
}

/** Each corpus collection with the dev requests whose required skills all lie in it (ids made relative to it). */
export function collections(corpus: string, queries: readonly EvalQuery[]): DevLibrary[] {
  return readdirSync(corpus)
    .filter((name) => existsSync(path.join(corpus, name)))
    .map((name) => {
      const prefix = `${name}/`;
      const inside = queries
        .filter((q) => q.skillIds.length && q.skillIds.every((id) => id.startsWith(prefix)))
        .map((q) => ({ ...q, skillIds: q.skillIds.map((id) => id.slice(prefix.length)), alsoOk: q.alsoOk.filter((id) => id.startsWith(prefix)).map((id) => id.slice(prefix.length)) }));
      return { name, root: path.join(corpus, name), queries: inside };
    })
    .filter((lib) => lib.queries.length > 0);
}
