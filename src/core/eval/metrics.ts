/**
 * Retrieval metrics for labelled routing queries, as defined in "Skill Is Not Document"
 * (following SkillRet): Hit@1, NDCG@k, Recall@k, Comp@k and Set-Compat, plus their means
 * overall, by the number of required skills and by language direction.
 *
 * How `also_ok` counts (the stand-in rule). A query needs the skills of `required` (G); `alsoOk`
 * lists other skills that would serve as well, typically a copy of a required skill in another
 * collection. Each required skill is a slot that one ranked item can fill:
 * - a required skill fills its own slot;
 * - an also_ok skill stands in for the required skill it duplicates and fills that slot instead.
 *   With one required skill it duplicates that one. With several it duplicates the required skills
 *   whose folder name (the last `/` segment of the id, case-insensitive) equals its own; when no
 *   folder name matches, it may stand in for any one required skill (but only one).
 * A ranked item is a hit when it fills a slot no earlier item filled; the hits of a prefix of the
 * ranking are the largest assignment of its items to distinct slots (a bipartite matching), so a
 * list can never score more than |G| hits, a copy found after its original adds nothing, and an
 * original found after its copy adds nothing either. Every metric counts filled slots:
 * Hit@1 is whether rank 1 is a hit (so `top[0]` in G or in also_ok), NDCG@k takes binary gains
 * from the hits, Recall@k and Comp@k count slots filled within `top[:k]`, and Set-Compat asks that
 * all slots be filled within `top[:|G|]`. also_ok skills are never required: they can fill a
 * slot, never add a hit beyond |G|, and their absence costs nothing. To score strictly by G,
 * pass no `alsoOk`.
 *
 * Rankings shorter than k are scored as if padded with misses.
 */

/** The metric keys reported for every query and group, in report order. */
export const METRIC_KEYS = [
  'hit@1',
  'ndcg@5',
  'ndcg@10',
  'ndcg@15',
  'recall@5',
  'recall@10',
  'recall@15',
  'recall@20',
  'comp@5',
  'comp@10',
  'comp@15',
  'set_compat',
] as const;

export type MetricKey = (typeof METRIC_KEYS)[number];
/** Metrics every query has a value for. */
export type RankMetricKey = Exclude<MetricKey, 'set_compat'>;

/** Metric values of one query: fractions 0..1; `set_compat` is null when |G| < 2. */
export type QueryMetrics = Record<RankMetricKey, number> & { set_compat: number | null };

/** The labels of one query. */
export interface Judgement {
  /** G: skills the request needs together. */
  required: readonly string[];
  /** Skills that serve as well as a required one (see the stand-in rule above). */
  alsoOk?: readonly string[];
}

/** Language directions of the labelled sets, skill language then query language. */
export const DIRECTIONS = ['en2en', 'en2zh', 'zh2zh', 'zh2en'] as const;

function folderName(id: string): string {
  const slash = id.lastIndexOf('/');
  return (slash < 0 ? id : id.slice(slash + 1)).toLowerCase();
}

/**
 * Which ranks are hits under the stand-in rule: `result[i]` is true when `top[i]` fills a
 * required slot that `top[0..i-1]` could not already fill. At most `required.length` are true.
 */
export function creditedHits(top: readonly string[], judgement: Judgement): boolean[] {
  const required = [...new Set(judgement.required)];
  const requiredIndex = new Map(required.map((id, i) => [id, i]));
  const everySlot = required.map((_, i) => i);
  const standIn = new Map<string, number[]>();
  for (const id of judgement.alsoOk ?? []) {
    if (requiredIndex.has(id) || standIn.has(id)) continue;
    if (required.length === 1) {
      standIn.set(id, [0]);
      continue;
    }
    const name = folderName(id);
    const same = everySlot.filter((i) => folderName(required[i]) === name);
    standIn.set(id, same.length ? same : everySlot);
  }

  // Incremental augmenting paths (Kuhn): when the matching of the prefix is maximum, one search
  // from the new item finds an augmenting path exactly when the maximum grows by one.
  const slotsOf: number[][] = [];
  const owner: (number | undefined)[] = new Array(required.length).fill(undefined);
  const assign = (item: number, seen: boolean[]): boolean => {
    for (const slot of slotsOf[item]) {
      if (seen[slot]) continue;
      seen[slot] = true;
      const current = owner[slot];
      if (current === undefined || assign(current, seen)) {
        owner[slot] = item;
        return true;
      }
    }
    return false;
  };

  const seenIds = new Set<string>();
  return top.map((id) => {
    const item = slotsOf.length;
    const own = requiredIndex.get(id);
    slotsOf.push(seenIds.has(id) ? [] : own !== undefined ? [own] : (standIn.get(id) ?? []));
    seenIds.add(id);
    return slotsOf[item].length > 0 && assign(item, new Array(required.length).fill(false));
  });
}

function countHits(hits: readonly boolean[], k: number): number {
  let n = 0;
  for (let i = 0; i < Math.min(k, hits.length); i++) if (hits[i]) n++;
  return n;
}

/** NDCG@k with binary gains from `hits`; the ideal DCG places min(k, size) hits first. */
export function ndcgFromHits(hits: readonly boolean[], size: number, k: number): number {
  const ideal = Math.min(k, size);
  if (ideal === 0) return 0;
  let dcg = 0;
  for (let i = 0; i < Math.min(k, hits.length); i++) if (hits[i]) dcg += 1 / Math.log2(i + 2);
  let idcg = 0;
  for (let i = 0; i < ideal; i++) idcg += 1 / Math.log2(i + 2);
  return dcg / idcg;
}

/** All metrics of one ranked list against its labels. */
export function scoreQuery(top: readonly string[], judgement: Judgement): QueryMetrics {
  const size = new Set(judgement.required).size;
  const hits = creditedHits(top, judgement);
  const recall = (k: number): number => (size === 0 ? 0 : countHits(hits, k) / size);
  const comp = (k: number): number => (size === 0 ? 0 : countHits(hits, k) / Math.min(size, k));
  return {
    'hit@1': hits[0] ? 1 : 0,
    'ndcg@5': ndcgFromHits(hits, size, 5),
    'ndcg@10': ndcgFromHits(hits, size, 10),
    'ndcg@15': ndcgFromHits(hits, size, 15),
    'recall@5': recall(5),
    'recall@10': recall(10),
    'recall@15': recall(15),
    'recall@20': recall(20),
    'comp@5': comp(5),
    'comp@10': comp(10),
    'comp@15': comp(15),
    set_compat: size >= 2 ? (countHits(hits, size) === size ? 1 : 0) : null,
  };
}

/** One scored query, as `summarize` groups it. */
export interface ScoredQuery {
  /** |G|, the number of required skills; the "by k" group. */
  size: number;
  /** `en2en`, `en2zh`, `zh2zh`, `zh2en` or another label; queries without one join no direction group. */
  direction?: string;
  metrics: QueryMetrics;
}

/**
 * Means of a group of queries. `set_compat` averages only the queries with |G| >= 2 and is null
 * when the group has none; every other metric averages all `n` queries (0 when `n` is 0).
 */
export type MetricSummary = { n: number } & QueryMetrics;

export interface EvalSummary {
  n: number;
  overall: MetricSummary;
  /** Keyed by |G| as a string (`"1"`, `"2"`, `"3"`), ascending; only groups with queries. */
  byK: Record<string, MetricSummary>;
  /** Keyed by direction: the four known ones first in DIRECTIONS order, then others sorted. */
  byDirection: Record<string, MetricSummary>;
}

/** Mean metrics of `rows`. */
export function meanMetrics(rows: readonly ScoredQuery[]): MetricSummary {
  const out = { n: rows.length } as MetricSummary;
  for (const key of METRIC_KEYS) {
    if (key === 'set_compat') continue;
    let sum = 0;
    for (const row of rows) sum += row.metrics[key];
    out[key] = rows.length ? sum / rows.length : 0;
  }
  const multi = rows.filter((row) => row.metrics.set_compat !== null);
  out.set_compat = multi.length
    ? multi.reduce((sum, row) => sum + (row.metrics.set_compat ?? 0), 0) / multi.length
    : null;
  return out;
}

/** Overall, by-|G| and by-direction means. */
export function summarize(rows: readonly ScoredQuery[]): EvalSummary {
  const byK: Record<string, MetricSummary> = {};
  for (const size of [...new Set(rows.map((row) => row.size))].sort((a, b) => a - b)) {
    byK[String(size)] = meanMetrics(rows.filter((row) => row.size === size));
  }
  const known: readonly string[] = DIRECTIONS;
  const present = new Set(rows.flatMap((row) => (row.direction ? [row.direction] : [])));
  const order = [
    ...known.filter((d) => present.has(d)),
    ...[...present].filter((d) => !known.includes(d)).sort(),
  ];
  const byDirection: Record<string, MetricSummary> = {};
  for (const direction of order) {
    byDirection[direction] = meanMetrics(rows.filter((row) => row.direction === direction));
  }
  return { n: rows.length, overall: meanMetrics(rows), byK, byDirection };
}

/** Nearest-rank percentile (`p` in 0..100) of `values`; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** What a negative reads of a routed answer. */
export interface RoutedAnswer {
  /** How well the library answers the request (`none`: no skill fits); absent counts as an answer. */
  match?: 'strong' | 'weak' | 'none';
  /** Result ids in rank order, with whether each is judged relevant (absent counts as relevant). */
  results: readonly { id: string; relevant?: boolean }[];
}

/** The negative part of a labelled request (an `EvalQuery`'s `not` and `noSkill`). */
export interface NegativePart {
  not: readonly string[];
  /** No skill should answer (`required` is then empty; a `not` list alone is a boundary test). */
  noSkill: boolean;
}

/**
 * Whether an answer keeps a query's negative part: a request no skill should answer must get
 * `match: "none"` or no relevant result; skills in `not` must not be the first relevant result (a
 * `not` list without required skills says only that: another skill may answer). Null when the
 * query has no negative part.
 */
export function negativeHeld(q: NegativePart, answer: RoutedAnswer): boolean | null {
  const first = answer.match === 'none' ? undefined : answer.results.find((r) => r.relevant !== false);
  if (q.noSkill) return first === undefined;
  if (!q.not.length) return null;
  return first === undefined || !q.not.includes(first.id);
}

/** Whether a request that needs skills got `match: "none"` (the router abstained). */
export function abstained(answer: RoutedAnswer): boolean {
  return answer.match === 'none' || !answer.results.some((r) => r.relevant !== false);
}

/** Counts of the negatives of a queries file: no-skill requests and boundary lists, and how many held. */
export interface NegativeTally {
  n: number;
  passed: number;
  noSkill: { n: number; passed: number };
  boundary: { n: number; passed: number };
}

export function emptyTally(): NegativeTally {
  return { n: 0, passed: 0, noSkill: { n: 0, passed: 0 }, boundary: { n: 0, passed: 0 } };
}

/** Adds one query's negative part to `tally`; returns whether it held (null: it has none). */
export function tallyNegative(tally: NegativeTally, q: NegativePart, answer: RoutedAnswer): boolean | null {
  const held = negativeHeld(q, answer);
  if (held === null) return null;
  const kind = q.noSkill ? tally.noSkill : tally.boundary;
  tally.n++;
  kind.n++;
  if (held) {
    tally.passed++;
    kind.passed++;
  }
  return held;
}
