/**
 * Labelled routing queries in JSON Lines, one object a line:
 * `{"id"?, "query", "skill_ids": [...], "also_ok"?: [...], "not"?: [...], "k"?, "direction"?}`.
 * Negatives: `"skill_ids": []` (or no `skill_ids` with `"not": []`) is a request no skill should
 * answer; `"not": [ids]` names skills that must not come first, and alone (no `skill_ids`) it says
 * only that: another skill of the library may answer ("this is not a job for X"). Other keys (such
 * as `style`) are ignored. Blank lines are skipped.
 */

export interface EvalQuery {
  /** The `id` field, or `line-N` when it is missing. */
  id: string;
  /** 1-based line in the file. */
  line: number;
  query: string;
  /** G: skills the request needs together (deduplicated, in file order). */
  skillIds: string[];
  /** Skills that serve as well as a required one. */
  alsoOk: string[];
  /** Skills that must not come first (a boundary negative); empty when the file names none. */
  not: string[];
  /**
   * Whether no skill should answer (`"skill_ids": []`, or `"not": []` alone). False for a `not` list
   * without `skill_ids`: it names who must not answer, not that nobody should.
   */
  noSkill: boolean;
  /** The `k` field when given; it must equal `skillIds.length`. */
  k?: number;
  /** Skill language then query language: `en2en`, `en2zh`, `zh2zh`, `zh2en`. */
  direction?: string;
}

export interface QueryFileProblem {
  /** 1-based line. */
  line: number;
  message: string;
}

/** Thrown by `parseQueries`; `message` lists the first problems as `source:line: message`. */
export class QueryFileError extends Error {
  constructor(
    readonly source: string,
    readonly problems: QueryFileProblem[],
  ) {
    const shown = problems.slice(0, 10).map((p) => `${source}:${p.line}: ${p.message}`);
    if (problems.length > shown.length) shown.push(`... and ${problems.length - shown.length} more`);
    super(shown.join('\n'));
    this.name = 'QueryFileError';
  }
}

function stringList(value: unknown, field: string, problems: string[]): string[] | undefined {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v.trim() === '')) {
    problems.push(`"${field}" must be an array of non-empty strings`);
    return undefined;
  }
  return [...new Set(value as string[])];
}

/**
 * Parses a queries file. Collects every problem and throws one `QueryFileError` when there is
 * any, so a bad file is reported in one go.
 */
export function parseQueries(text: string, source = 'queries.jsonl'): EvalQuery[] {
  const queries: EvalQuery[] = [];
  const problems: QueryFileProblem[] = [];
  const ids = new Map<string, number>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      problems.push({ line, message: `not valid JSON (${(err as Error).message})` });
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push({ line, message: 'expected a JSON object' });
      return;
    }
    const record = value as Record<string, unknown>;
    const here: string[] = [];
    const query = record.query;
    if (typeof query !== 'string' || query.trim() === '') here.push('"query" must be a non-empty string');
    const not = record.not === undefined ? [] : stringList(record.not, 'not', here);
    // A request that names no skill to expect (and says so with `"not": []` or `"skill_ids": []`)
    // is one no skill should answer; a `not` list alone only keeps its skills off the top.
    const skillIds = record.skill_ids === undefined && record.not !== undefined ? [] : stringList(record.skill_ids, 'skill_ids', here);
    const alsoOk = record.also_ok === undefined ? [] : stringList(record.also_ok, 'also_ok', here);
    if (skillIds && not && skillIds.some((id) => not.includes(id))) here.push('a skill cannot be both in "skill_ids" and in "not"');
    let id = `line-${line}`;
    if (record.id !== undefined) {
      if (typeof record.id === 'string' && record.id !== '') id = record.id;
      else if (typeof record.id === 'number' && Number.isFinite(record.id)) id = String(record.id);
      else here.push('"id" must be a non-empty string or a number');
    }
    const k = record.k;
    if (k !== undefined) {
      if (typeof k !== 'number' || !Number.isInteger(k) || k < 0) here.push('"k" must be a whole number');
      else if (skillIds && k !== skillIds.length) {
        here.push(`"k" is ${k} but "skill_ids" has ${skillIds.length} skills`);
      }
    }
    const direction = record.direction;
    if (direction !== undefined && (typeof direction !== 'string' || direction === '')) {
      here.push('"direction" must be a non-empty string');
    }
    const earlier = ids.get(id);
    if (earlier !== undefined) here.push(`duplicate id "${id}" (first on line ${earlier})`);
    else ids.set(id, line);
    if (here.length) {
      for (const message of here) problems.push({ line, message });
      return;
    }
    queries.push({
      id,
      line,
      query: query as string,
      skillIds: skillIds as string[],
      alsoOk: (alsoOk as string[]).filter((s) => !(skillIds as string[]).includes(s)),
      not: not as string[],
      noSkill: (skillIds as string[]).length === 0 && (record.skill_ids !== undefined || (not as string[]).length === 0),
      ...(typeof k === 'number' ? { k } : {}),
      ...(typeof direction === 'string' ? { direction } : {}),
    });
  });
  if (problems.length) throw new QueryFileError(source, problems);
  return queries;
}
