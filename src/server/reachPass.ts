/**
 * The editor's `skill.unreachable`: the reach (core/reach/measure.ts) of the skills open in an
 * editor, in the listing of `skillRouter.reach.client`. Measured after a skill's cross-skill
 * checks (its pair findings are known), one skill at a time, never library-wide: each request is
 * routed as its own job on the library's queue and the library's probe requests are brought up
 * to date in time slices, so edits and requests are served in between; the words' statistics are
 * the engine's index's (`termFrequencies`), not a second analysis of every body.
 * Results are kept by content (the skill's text, the client, the skill list): republishing an
 * unchanged skill reads them, and a skill edited since shows its last known finding until the
 * new one is measured, as its pair findings do.
 */
import * as path from 'node:path';
import type { BackgroundFrequencies } from '../core/index/background';
import { runTimeSliced } from '../core/jobs/timeSliced';
import { LISTING_RULES, simulateListing, type ListingClient } from '../core/profiles';
import { unreachableFinding } from '../core/reach/finding';
import { measureReach, type ReachRequest, type SkillReach } from '../core/reach/measure';
import { DEFAULT_PROBES, probeRequests } from '../core/reach/probes';
import type { CancelToken, Finding, Logger, SkillDoc } from '../core/types';
import { loadBackground } from '../node/backgroundFile';
import { packageRoot } from '../node/library';
import type { DiagnosticData } from './diagnostics';
import type { FolderLibrary } from './folderLibrary';

/** What the pass needs from the index that publishes. */
export interface ReachHost {
  /** Publishes a skill's diagnostics again (now with its reach). */
  publishSkill(lib: FolderLibrary, doc: SkillDoc): void;
  /** Whether the skill is open in an editor. */
  isOpen(lib: FolderLibrary, doc: SkillDoc): boolean;
  fail(what: string, err: unknown): void;
  log: Logger;
}

interface Measured {
  /** `measureKey` of what it was measured from. */
  key: string;
  reach: SkillReach;
  client: ListingClient;
}

/** One library's state: probe requests and measurements, and the queue of skills to measure. */
interface LibraryReach {
  probes: Map<string, { hash: string; queries: string[] }>;
  measured: Map<string, Measured>;
  queue: Set<string>;
  timer?: ReturnType<typeof setTimeout>;
  running: boolean;
}


export class ReachPass {
  private readonly libs = new WeakMap<FolderLibrary, LibraryReach>();
  /** A number per skill list (the engine's `skills()` array): a measurement holds for the list it saw. */
  private readonly lists = new WeakMap<readonly SkillDoc[], number>();
  private nextList = 1;
  private background: BackgroundFrequencies | null | undefined;
  private disposed = false;

  /** `delayMs`: quiet time after a skill is due before it is measured (typing goes on meanwhile). */
  constructor(private readonly host: ReachHost, private readonly delayMs = 400) {}

  /**
   * The `skill.unreachable` finding to publish with `doc` (the last measured, null when none or
   * when its reach is above the bar), and a measurement scheduled when the last one is stale.
   */
  finding(lib: FolderLibrary, doc: SkillDoc): { finding: Finding; data: DiagnosticData } | null {
    const { client, min } = lib.settings.reach;
    if (client === 'off' || !lib.service) return null;
    const state = this.state(lib);
    const last = state.measured.get(doc.id);
    const open = this.host.isOpen(lib, doc);
    if (open && lib.state === 'ready' && lib.pairs.has(doc.id) && last?.key !== this.measureKey(lib, doc, client)) this.schedule(lib, doc.id);
    if (!open || !last || last.client !== client) return null;
    const finding = unreachableFinding(doc, last.reach, { label: LISTING_RULES[client].label, min, severity: 'info', client, actionableOnly: true });
    if (!finding) return null;
    const words = last.reach.suggest;
    return { finding, data: words.length ? { words, ...(last.reach.cut ? { atStart: true } : {}) } : {} };
  }

  dispose(): void {
    this.disposed = true;
  }

  private state(lib: FolderLibrary): LibraryReach {
    let s = this.libs.get(lib);
    if (!s) this.libs.set(lib, (s = { probes: new Map(), measured: new Map(), queue: new Set(), running: false }));
    return s;
  }

  private measureKey(lib: FolderLibrary, doc: SkillDoc, client: ListingClient): string {
    const list = lib.service!.skills();
    let n = this.lists.get(list);
    if (n === undefined) this.lists.set(list, (n = this.nextList++));
    return `${doc.hash}|${client}|${n}`;
  }

  private schedule(lib: FolderLibrary, id: string): void {
    const state = this.state(lib);
    if (state.queue.has(id)) return;
    state.queue.add(id);
    if (state.running) return;
    clearTimeout(state.timer);
    state.timer = setTimeout(() => void this.drain(lib, state).catch((err) => this.host.fail(`${lib.name}: reach`, err)), this.delayMs);
    state.timer.unref?.();
  }

  private async drain(lib: FolderLibrary, state: LibraryReach): Promise<void> {
    if (state.running) return;
    state.running = true;
    try {
      while (state.queue.size && !this.disposed && this.libs.get(lib) === state) {
        const [id] = state.queue;
        state.queue.delete(id);
        await this.measure(lib, state, id);
      }
    } finally {
      state.running = false;
    }
  }

  /** Measures one open skill and publishes it again. */
  private async measure(lib: FolderLibrary, state: LibraryReach, id: string): Promise<void> {
    const service = lib.service;
    const client = lib.settings.reach.client;
    const doc = service?.skill(id);
    if (!service || !doc || client === 'off' || !this.host.isOpen(lib, doc)) return;
    const generation = lib.generation;
    const key = this.measureKey(lib, doc, client);
    if (state.measured.get(id)?.key === key) return;
    // Stale once the skill changes, the folder re-indexes or the pass ends: the work stops there.
    const token: CancelToken = {
      get isCancellationRequested() {
        return lib.generation !== generation || lib.service !== service || service.skill(id) !== doc;
      },
    };
    const t0 = performance.now();
    const live = () => !token.isCancellationRequested && !this.disposed;
    const docs = service.skills();
    const done = await runTimeSliced(
      docs,
      (d) => {
        const known = state.probes.get(d.id);
        if (known?.hash !== d.hash) state.probes.set(d.id, { hash: d.hash, queries: probeRequests(d, DEFAULT_PROBES) });
      },
      { live, runSlice: (slice) => lib.runIdle(slice) },
    );
    if (!done) return;
    const ids = new Set(docs.map((d) => d.id));
    for (const known of state.probes.keys()) if (!ids.has(known)) state.probes.delete(known);
    const requests: ReachRequest[] = docs.flatMap((d) => (state.probes.get(d.id)?.queries ?? []).map((query) => ({ query, source: 'probe' as const, expect: [d.id] })));
    this.background ??= loadBackground(path.join(packageRoot(), 'models'), this.host.log);
    const report = await measureReach({
      docs,
      listing: (added) => simulateListing(docs, client, added ? { added } : {}),
      requests,
      targets: [id],
      stats: service.termFrequencies?.(),
      background: this.background,
      token,
      router: {
        // Each request is its own job on the library's queue: an edit waits for one routing at most.
        rank: (query, view, t) =>
          lib.run(async () => {
            const result = await service.route(query, {
              k: 10,
              passages: false,
              token: t,
              ...(view.kind === 'listing' ? { view: { client, ...(view.added ? { listing: { added: view.added } } : {}) } } : {}),
            });
            return result.candidates.map((c) => c.skillId);
          }),
      },
    }).catch((err) => {
      if (token.isCancellationRequested) return null;
      throw err;
    });
    if (!report || !live() || this.libs.get(lib) !== state) return;
    state.measured.set(id, { key, reach: report.skills[0], client });
    this.host.log.debug(`${doc.path}: reach in ${LISTING_RULES[client].label}'s listing measured in ${Math.round(performance.now() - t0)} ms (${report.verification.routed} routings)`);
    await lib.run(async () => {
      const now = lib.service?.skill(id);
      if (now === doc) this.host.publishSkill(lib, now);
    });
  }
}
