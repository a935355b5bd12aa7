/**
 * Real requests for the relevance model: the tune half of the authors' libraries
 * (bench/realsuites, split by bench/realsuites/SPLIT.md's hash rule) and the shared dotnet library,
 * each opened on its own as an author opens it. Per library, its own requests that need a skill
 * (labelled by the authors' tests), its requests no skill should answer, and requests of the other
 * tune libraries (off-library: written for skills this library does not have) are routed, and the
 * rerank stage's features recorded under the regime routing would use (a request the encoder does
 * not read goes to the words-only regime even in the library opened with the model).
 *
 * Pseudo-requests are written from a skill's own words, and relevance fitted on them alone called
 * most right answers in real libraries "weak" (dotnet: 32 of 34) while off-topic requests still
 * reached "weak"; these lists teach it what a real request looks like. The held-out half is never
 * read here.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { ListFeatures } from '../src/core/route/rerankFeatures';
import { openLibrary } from '../src/node/library';
import { realSuites, type DevLibrary } from './devLibraries';

export type Regime = 'dense' | 'lexical';

/** One real request routed in one library. */
export interface RealList {
  library: string;
  features: ListFeatures;
  /** Skills (and copies the authors accept) that serve it; empty for a negative. */
  targets: string[];
  /** `own`: the library's request for one of its skills; `none`: one no skill should answer; `off`: another library's request. */
  kind: 'own' | 'none' | 'off';
}

/** SPLIT.md's rule: tune when the first hex digit of sha256(name) is 0-7. */
export function isTuneLibrary(name: string): boolean {
  return parseInt(createHash('sha256').update(name, 'utf8').digest('hex')[0], 16) < 8 && !HELD_OUT_ALWAYS.has(name);
}

/**
 * Libraries SPLIT.md holds out whatever their hash: the fresh, fresh2, fresh3, fresh4, fresh5,
 * fresh6 and fresh7 collections (kadenn, z80, all of fresh4, mongodb and journalism of fresh6, and
 * both of fresh7 would be tune by the rule). Never trained on.
 */
export const HELD_OUT_ALWAYS: ReadonlySet<string> = new Set(['kadenn', 'jayden', 'web-motion', 'frontend-niche', 'z80', 'gtm', 'idaibin', 'hengmu', 'orchestkit', 'msdotnet', 'elias', 'uipath', 'artisan', 'dapi', 'buildkite', 'switchroom', 'amd', 'ixingchen', 'wenyao', 'paper-repro', 'openscience', 'bolna', 'mongodb', 'gds', 'journalism', 'claudemods', 'claude1337']);

/**
 * The tune libraries the shipped reranker and relevance model were fitted on (with dotnet). A
 * tune library added later is measured with the tune half but joins the training only when the
 * models are retrained on purpose (`trainReranker --all-tune`), so that `--check` keeps
 * reproducing the shipped weights. beez, sdd, b2c and n8n joined on 2026-12-07, when the
 * reranker's weights began to learn from these requests too.
 */
export const TRAINED_ON: readonly string[] = ['alicoder', 'b2c', 'beez', 'decisions', 'finance-writing', 'git-skills', 'mcu', 'n8n', 'sdd', 'spring'];

/**
 * Off-library requests taken from each other library (every n-th of its positives): 15, fewer when
 * there are more than 11 libraries, so that each library routes about 150 off-library requests.
 */
const OFF_PER_LIBRARY = 15;
const OFF_IN_ALL = 150;

/**
 * A library's own requests routed at most (every n-th beyond it): uipath's 1,318 would otherwise
 * outweigh ten libraries together. Above every library the shipped model was fitted on (b2c: 265).
 */
export const OWN_PER_LIBRARY = 300;

/** At most `max` of `items`, every n-th, in order. */
function everyNth<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const step = items.length / max;
  return Array.from({ length: max }, (_, i) => items[Math.floor(i * step)]);
}

/**
 * Libraries no training may read, whatever is asked: the split measured once, at the end of the
 * work (SPLIT.md, fresh4; fresh6 and fresh7 likewise).
 */
export const UNTOUCHED: ReadonlySet<string> = new Set(['artisan', 'dapi', 'buildkite', 'switchroom', 'amd', 'ixingchen', 'wenyao', 'paper-repro', 'openscience', 'bolna', 'mongodb', 'gds', 'journalism', 'claudemods', 'claude1337']);

/**
 * The tune libraries of `dir` trained on (`TRAINED_ON`; `all`: every tune library; `names`: exactly
 * these, held-out ones included, never an `UNTOUCHED` one) and the shared development library
 * `dotnet`, when present.
 */
export function tuneLibraries(dir: string, devLibrary?: string, all = false, names?: readonly string[]): DevLibrary[] {
  const untouched = names?.filter((n) => UNTOUCHED.has(n)) ?? [];
  if (untouched.length) throw new Error(`never trained on: ${untouched.join(', ')} (SPLIT.md measures them once, at the end)`);
  const missing = names?.filter((n) => !realSuites(dir).some((l) => l.name === n)) ?? [];
  if (missing.length) throw new Error(`no such library under ${dir}: ${missing.join(', ')}`);
  const libs = realSuites(dir).filter((l) => (names ? names.includes(l.name) : isTuneLibrary(l.name) && (all || TRAINED_ON.includes(l.name))));
  if (devLibrary && existsSync(devLibrary)) libs.push(...realSuites(path.dirname(devLibrary)).filter((l) => l.name === path.basename(devLibrary)));
  return libs.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Routes every library's own, no-skill and off-library requests in both regimes. */
/** Each library's requests that serve as off-library requests for the others (every n-th positive, at most 15). */
export function offLibrarySample(libs: readonly DevLibrary[]): Map<string, string[]> {
  const per = Math.max(3, Math.min(OFF_PER_LIBRARY, Math.floor(OFF_IN_ALL / Math.max(1, libs.length - 1))));
  return new Map(
    libs.map((l) => {
      const pos = l.queries.filter((q) => q.skillIds.length);
      const step = Math.max(1, Math.floor(pos.length / per));
      return [l.name, pos.filter((_, i) => i % step === 0).slice(0, per).map((q) => q.query)];
    }),
  );
}

export async function recordRealLists(libs: readonly DevLibrary[], log: (msg: string) => void): Promise<Record<Regime, RealList[]>> {
  const out: Record<Regime, RealList[]> = { dense: [], lexical: [] };
  const offSample = offLibrarySample(libs);
  for (const noModel of [false, true]) {
    for (const lib of libs) {
      const svc = await openLibrary({ root: lib.root, noModel });
      try {
        const stats = await svc.index();
        if (!noModel && !stats.model) throw new Error(`the dense regime needs the embedding model: ${stats.denseDisabled}`);
        const requests: { query: string; targets: string[]; kind: RealList['kind'] }[] = [
          ...everyNth(lib.queries.filter((q) => q.skillIds.length), OWN_PER_LIBRARY).map((q) => ({ query: q.query, targets: [...q.skillIds, ...q.alsoOk], kind: 'own' as const })),
          ...lib.queries.filter((q) => !q.skillIds.length && q.noSkill).map((q) => ({ query: q.query, targets: [], kind: 'none' as const })),
          ...libs.filter((o) => o !== lib).flatMap((o) => offSample.get(o.name)!.map((query) => ({ query, targets: [], kind: 'off' as const }))),
        ];
        for (const r of requests) {
          const { pool } = await svc.pipeline.retrieve(r.query);
          if (!pool.candidates.length) continue;
          const regime: Regime = pool.candidates.some((c) => c.dense !== null) ? 'dense' : 'lexical';
          // A request the encoder does not read is words-only in both passes: recorded once.
          if (!noModel && regime === 'lexical') continue;
          out[regime].push({ library: lib.name, features: svc.pipeline.features(pool), targets: r.targets, kind: r.kind });
        }
        log(`real lists (${noModel ? 'words alone' : 'model'}): ${lib.name}, ${requests.length} requests`);
      } finally {
        await svc.dispose();
      }
    }
  }
  return out;
}
