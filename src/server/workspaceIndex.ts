/**
 * The server's view of the workspace: one library (engine instance) per workspace folder, the
 * open SKILL.md buffers (which win over disk), incremental updates of one skill at a time, and
 * which skills' diagnostics depend on which (a near-duplicate warning sits on both twins, so an
 * edit to either re-checks the other). This class owns the folders' lifecycle, publishing, the
 * status and routing; state lives in small owners: `FolderLibrary` (one folder's engine and
 * queue), `PairFindingsStore` and `PairPasses` (pair findings and the passes that find and
 * recheck them), `DocumentScheduler` (open buffers, debounce, cancellation), `LibraryReferences`
 * (references between skills), `StatusThrottle` and `listing.ts`; what remains shares the
 * folders' queues, buffers and publications.
 *
 * Work on one library runs in order on its queue; superseded edits are cancelled and results for
 * a stale document version dropped. An edit is checked in two steps, as type checkers do: the
 * skill itself at once (its buffer validated, with its last known pair findings, ahead of queued
 * work), then after a pause in typing the cross-skill checks, which rescan the library for that
 * skill and re-publish its twins. Term weights are library-wide, so an edit to a name or
 * description can also move findings between skills nobody edited: once edits pause, every
 * skill's pairs are rechecked.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CancellationToken } from 'vscode-languageserver';
import { CancellationTokenSource, FileChangeType } from 'vscode-languageserver';
import type { PairFinding } from '../core/analysis/types';
import { runTimeSliced, yieldToLoop } from '../core/jobs/timeSliced';
import { SkillReadError } from '../core/parse/skillDoc';
import type { LiveSkillService } from '../core/service';
import type { SkillDoc } from '../core/types';
import { CancelledError, type CancelToken } from '../core/types';
import type { SkillFileRef } from '../core/workspace';
import { skillRefFor } from '../node/fsWorkspace';
import { startsWithBom } from '../node/skillFolderFiles';
import type { IndexStatus, ListingResponse, RouteParams, RouteResponse } from '../shared/protocol';
import { bufferDiagnostics, editorReportedCodes, skillDiagnostics, unreadableDiagnostic, type DiagnosticContext } from './diagnostics';
import { DocumentScheduler, keyOf, type OpenDoc } from './documentScheduler';
import { cancelOnce, FolderLibrary, innermostLibrary, type RequestToken } from './folderLibrary';
import { indexPercent, indexStatus, StatusThrottle, workDoneProgress } from './indexStatus';
import { LibraryReferences } from './libraryReferences';
import { listingBudget, listingReport, OverBudgetNotes } from './listing';
import { routeLibraries } from './listingRanks';
import { errorMessage } from './logger';
import { pairInputKey } from './pairFindings';
import { PairPasses } from './pairPasses';
import { ReachPass } from './reachPass';
import type { ReferenceView } from './references';
import { DEFAULT_SETTINGS, indexAffected, type ServerSettings } from './settings';
import type { IndexHost, WorkspaceIndexOptions } from './indexHost';

export { cancelOnce } from './folderLibrary';
export { isSkillDocument, keyOf } from './documentScheduler';
export type { IndexHost, WorkspaceIndexOptions } from './indexHost';

const now = () => performance.now();

/** Changed files in one watched-files batch from which the library is re-read in one index run (a branch switch). */
export const BATCH_REREAD = 64;

export class WorkspaceIndex {
  private readonly libraries = new Map<string, FolderLibrary>();
  private readonly docs: DocumentScheduler;
  private progress: IndexStatus['progress'] = null;
  private lastError: string | null = null;
  private timings: IndexStatus['timings'] = { indexMs: null, lastUpdateMs: null, lastDiagnosticsMs: null };
  private readonly statusOut: StatusThrottle;
  private disposed = false;
  private readonly passes: PairPasses;
  /** `skill.unreachable` of open skills, measured after their cross-skill checks. */
  private readonly reach: ReachPass;
  private readonly flushAfterMs: number;
  /** Codes the client's editor reports on SKILL.md itself (by its version). */
  private readonly editorReports: ReadonlySet<string>;
  /** References between skills: the names the checks read, and the names changed since the last publication. */
  private readonly references = new LibraryReferences();
  private readonly budgetNotes = new OverBudgetNotes();

  constructor(private readonly host: IndexHost, private readonly opts: WorkspaceIndexOptions) {
    this.docs = new DocumentScheduler({
      debounceMs: opts.debounceMs ?? 75,
      semanticDelayMs: opts.semanticDelayMs ?? 400,
      check: (key) => void this.checkDocument(key).catch((err) => this.fail(`checking ${key}`, err)),
    });
    this.passes = new PairPasses(
      {
        publishSkill: (lib, doc) => void this.publishSkill(lib, doc),
        written: () => this.host.written?.() ?? Promise.resolve(),
        shouldPublish: (lib, relPath) => this.shouldPublish(lib, relPath),
        openIds: (lib) => new Set([...this.docs.values()].map((d) => this.refFor(lib, d.key)?.id).filter((id) => id !== undefined)),
        progressed: () => this.emitStatus(),
        fail: (what, err) => this.fail(what, err),
        log: host.log,
      },
      opts.recheckDelayMs ?? 2000,
    );
    const isOpen = (lib: FolderLibrary, doc: SkillDoc) => this.docs.has(path.join(lib.root, ...doc.path.split('/')));
    this.reach = new ReachPass({ publishSkill: (lib, doc) => void this.publishSkill(lib, doc), isOpen, fail: (what, err) => this.fail(what, err), log: host.log }, opts.semanticDelayMs);
    this.flushAfterMs = opts.flushAfterMs ?? 5000;
    this.editorReports = editorReportedCodes(opts.init.editor);
    this.statusOut = new StatusThrottle(() => this.host.status(this.status()));
  }

  // -------------------------------------------------------------------------------------------
  // Folders and indexing

  /** Adds and removes workspace folders; added ones are indexed. */
  async changeFolders(added: string[], removed: string[]): Promise<void> {
    for (const uri of removed) {
      const lib = this.libraries.get(uri);
      if (!lib) continue;
      this.libraries.delete(uri);
      await lib.close();
      for (const u of lib.published) this.host.publish(u, []);
    }
    const fresh: FolderLibrary[] = [];
    for (const uri of added) {
      if (this.libraries.has(uri) || !uri.startsWith('file:')) continue;
      const lib = new FolderLibrary(uri, keyOf(uri), this.host.log, this.flushAfterMs);
      this.libraries.set(uri, lib);
      fresh.push(lib);
    }
    this.emitStatus();
    if (fresh.length) await this.reindex(fresh);
  }

  /** Indexes `libs` (default: all) under one cancellable progress report; one being indexed starts over. */
  async reindex(libs: FolderLibrary[] = [...this.libraries.values()]): Promise<void> {
    if (!libs.length) {
      this.emitStatus(true);
      return;
    }
    const sources = libs.map((lib) => {
      cancelOnce(lib.cancel);
      lib.cancel = new CancellationTokenSource();
      lib.state = 'indexing';
      lib.generation++;
      return lib.cancel;
    });
    this.progress = { stage: 'starting', done: 0, total: 0, percent: 0 };
    this.emitStatus(true);
    // A client that shows progress from the status (VS Code: one status item, one notification)
    // gets no work-done progress, which VS Code would draw as a second status bar entry.
    const reporter = this.opts.init.progressFromStatus
      ? undefined
      : await workDoneProgress(() => this.host.progress('Indexing skills'), () => sources.forEach(cancelOnce), this.host.log);
    const t0 = now();
    let lastReport = 0;
    try {
      for (let i = 0; i < libs.length; i++) {
        const lib = libs[i];
        if (!this.libraries.has(lib.uri)) continue;
        const onProgress = (stage: string, done: number, total: number) => {
          const percent = indexPercent(stage, done, total, i, libs.length);
          this.progress = { stage, done, total, percent };
          if (now() - lastReport > 100 || done === total) {
            lastReport = now();
            reporter?.report(percent, `${lib.name}: ${stage} ${done}/${total}`);
            this.emitStatus();
          }
        };
        await this.indexLibrary(lib, sources[i].token, onProgress);
      }
    } finally {
      reporter?.done();
      libs.forEach((lib, i) => {
        if (lib.cancel === sources[i]) lib.cancel = null;
      });
      this.progress = null;
      this.timings.indexMs = Math.round(now() - t0);
      this.emitStatus(true);
    }
  }

  private async indexLibrary(lib: FolderLibrary, token: CancellationToken, progress: (stage: string, done: number, total: number) => void): Promise<void> {
    const generation = lib.generation;
    await lib.run(async () => {
      if (generation !== lib.generation || this.disposed) return;
      if (token.isCancellationRequested) {
        lib.state = 'cancelled';
        return;
      }
      await lib.disposeService();
      lib.pairs.analysis.supersede(null);
      this.passes.stopRecheck(lib);
      let service: LiveSkillService | null = null;
      try {
        lib.settings = await this.host.settings(lib.uri);
        service = await this.host.openLibrary(lib.openOptions(this.opts.init, this.docs.overlay, this.host.log, progress));
        const stats = await service.index({ token, progress });
        if (generation !== lib.generation || this.disposed) {
          await service.dispose();
          return;
        }
        lib.service = service;
        lib.stats = stats;
        lib.error = null;
        // Buffers edited while the files were being read.
        for (const doc of this.docs.values()) {
          const ref = this.refFor(lib, doc.key);
          if (ref) await this.updateOne(lib, ref, new TextEncoder().encode(doc.text)).catch(() => undefined);
        }
        this.passes.stopRecheck(lib); // the pass below finds every pair
        // Cancel clicked during the index's last steps: the user asked for no index.
        if (token.isCancellationRequested) throw new CancelledError();
        lib.state = 'ready';
        this.host.log.info(
          `${lib.name}: ${stats.skills} skills (${stats.cached} from cache, ${stats.embedded} embedded, ${stats.failed} unreadable) ` +
            `in ${stats.ms} ms; ${stats.model ? `model ${stats.model}` : stats.denseDisabled}`,
        );
        // Ready: requests are routed now. The scan cache, every skill's diagnostics (in slices: 3.8 s at
        // 19,909 skills) and the checks follow, shown due; then what a Chinese skill's edit loads.
        lib.pairs.analysis.supersede(service.skills().filter((d) => this.shouldPublish(lib, d.path)).length);
        const current = () => generation === lib.generation && !this.disposed;
        void (async () => {
          if (this.host.pairCacheStorage) await lib.pairs.attach(this.host.pairCacheStorage(lib.pairCacheDir(this.opts.init)));
          if (current()) await this.publishAll(lib, true, (slice) => lib.run(async () => (current() ? slice() : undefined)));
          await lib.run(async () => (current() ? lib.service?.warmUp?.() : undefined));
        })().catch((err) => this.fail(`${lib.name}: publishing the index`, err));
      } catch (err) {
        await service?.dispose().catch(() => undefined);
        if (service && lib.service === service) lib.service = null; // adopted before the failure
        if (err instanceof CancelledError || token.isCancellationRequested) {
          lib.state = 'cancelled';
          this.host.log.info(`${lib.name}: indexing cancelled`);
        } else {
          lib.state = 'error';
          lib.error = errorMessage(err);
          this.lastError = `${lib.name}: ${lib.error}`;
          this.host.log.error(`${lib.name}: indexing failed: ${lib.error}`);
        }
        // Open files still get their front-matter checks.
        for (const doc of this.docs.values()) if (this.libraryFor(doc.key) === lib) this.publishStandalone(doc, lib);
      }
    });
  }

  /** Stops the indexing in progress (`skillRouter/cancelIndex`): folders not done end `cancelled`. */
  cancelIndexing(): void {
    for (const lib of this.libraries.values()) if (lib.cancel) cancelOnce(lib.cancel);
  }

  /** Re-reads settings; re-indexes folders whose index depends on what changed, re-publishes the rest. */
  async settingsChanged(): Promise<void> {
    const reindex: FolderLibrary[] = [];
    for (const lib of this.libraries.values()) {
      const next = await this.host.settings(lib.uri);
      if (indexAffected(lib.settings, next) || lib.state === 'error' || lib.state === 'cancelled') reindex.push(lib);
      else {
        // Another scope covers other skills: their pairs are found again.
        const rescan = next.diagnostics.scope !== lib.settings.diagnostics.scope;
        lib.settings = next;
        await lib.run(() => this.publishAll(lib, rescan));
      }
    }
    for (const doc of this.docs.values()) if (!this.libraryFor(doc.key)) this.docs.schedule(doc.key, 0);
    this.emitStatus(true);
    if (reindex.length) await this.reindex(reindex);
  }

  // -------------------------------------------------------------------------------------------
  // Open documents

  /** A SKILL.md buffer was opened or edited. */
  documentChanged(uri: string, text: string, version: number, languageId = 'markdown'): void {
    const { key } = this.docs.changed(uri, text, version, languageId);
    // Typing postpones the library-wide recheck (and stops one that runs).
    const lib = this.libraryFor(key);
    if (lib) this.passes.postponeRecheck(lib);
  }

  /** A buffer was closed: disk wins again. */
  documentClosed(uri: string): void {
    const key = keyOf(uri);
    const doc = this.docs.closed(uri);
    const lib = this.libraryFor(key);
    if (!lib || !this.refFor(lib, key)) {
      if (doc) this.host.publish(doc.uri, []);
      return;
    }
    void this.diskChanged(lib, [key]);
  }

  private async checkDocument(key: string): Promise<void> {
    const doc = this.docs.get(key);
    if (!doc) return;
    const { version } = doc;
    const lib = this.libraryFor(key);
    const ref = lib && this.refFor(lib, key);
    if (!lib || !ref || lib.state !== 'ready' || !lib.service) {
      this.publishStandalone(doc, lib);
      return;
    }
    // The skill's own checks need its text only: publish them now, with its last known pair
    // findings, rather than after the index update (an embedding) and whatever else is queued.
    const ownPublished = this.publishOwn(lib, ref, doc);
    const check = this.docs.begin(key, version);
    await lib.run(async () => {
      if (!check.current() || !lib.service) return;
      const t0 = now();
      const previous = lib.service.skill(ref.id);
      try {
        await this.updateOne(lib, ref, new TextEncoder().encode(doc.text), check.token);
      } catch (err) {
        if (err instanceof CancelledError) return;
        if (!(err instanceof SkillReadError)) throw err;
      }
      this.timings.lastUpdateMs = Math.round(now() - t0);
      if (!check.current()) return;
      const updated = lib.service.skill(ref.id);
      if (!updated) await this.publishAffected(lib, [ref.id]);
      else if (!ownPublished) this.publishSkill(lib, updated);
      this.host.log.debug(`${ref.path}: v${version} updated in ${this.timings.lastUpdateMs} ms, ${Math.round(now() - doc.receivedAt)} ms after the edit`);
      // An unchanged text (opening a file) keeps its pairs; a changed one is rescanned.
      if (updated && (updated !== previous || !lib.pairs.has(ref.id))) this.scheduleSemantic(lib, key, ref.id, version);
      lib.flushLater();
      this.emitStatus();
    });
  }

  /** Runs the cross-skill checks of an edited skill once typing pauses (the version is still current). */
  private scheduleSemantic(lib: FolderLibrary, key: string, id: string, version: number): void {
    this.docs.scheduleSemantic(key, () => {
      void lib
        .run(async () => {
          if (!this.docs.isCurrent(key, version) || !lib.service) return;
          const t0 = now();
          await this.publishAffected(lib, [id]);
          this.host.log.debug(`${id}: cross-skill checks of v${version} in ${Math.round(now() - t0)} ms`);
        })
        .catch((err) => this.fail(`cross-skill checks of ${id}`, err));
    });
  }

  /**
   * Publishes an open skill's own findings from its buffer, with the pair findings last known for
   * it. Returns whether it could (an unreadable buffer is published as such, and left to the update).
   */
  private publishOwn(lib: FolderLibrary, ref: SkillFileRef, doc: OpenDoc): boolean {
    const ok = this.publishBuffer(doc, ref, lib.settings, lib.pairs.of(ref.id), this.context(lib, lib.settings));
    lib.published.add(doc.uri);
    return ok;
  }

  /** Validation only (no pair findings): files outside every folder, or before the index is ready. */
  private publishStandalone(doc: OpenDoc, lib: FolderLibrary | undefined): void {
    const settings = lib?.settings ?? DEFAULT_SETTINGS;
    const dir = path.basename(path.dirname(doc.key));
    const ref = (lib && this.refFor(lib, doc.key)) ?? { id: dir, path: 'SKILL.md', folderName: dir };
    this.publishBuffer(doc, ref, settings, [], this.context(lib, settings));
  }

  /** Parses and validates a buffer and publishes the findings; false when it was unreadable. */
  private publishBuffer(doc: OpenDoc, ref: SkillFileRef, settings: ServerSettings, pairs: readonly PairFinding[], ctx: DiagnosticContext): boolean {
    const { diagnostics, ok } = bufferDiagnostics(doc.text, ref, settings.profiles, pairs, ctx);
    this.host.publish(doc.uri, diagnostics, doc.version);
    this.timings.lastDiagnosticsMs = Math.round(now() - doc.receivedAt);
    return ok;
  }

  // -------------------------------------------------------------------------------------------
  // Files on disk

  /** Watched-file events: SKILL.md created, changed or deleted, or a folder deleted. */
  async filesChanged(changes: { uri: string; type: FileChangeType }[]): Promise<void> {
    const byLib = new Map<FolderLibrary, string[]>();
    for (const change of changes) {
      const key = keyOf(change.uri);
      const lib = this.libraryFor(key);
      if (!lib || this.docs.has(key)) continue; // open buffers win over disk
      const list = byLib.get(lib) ?? [];
      // A deleted folder (every skill under it goes) is marked with a trailing separator.
      list.push(change.type === FileChangeType.Deleted && !key.endsWith('SKILL.md') ? `${key}${path.sep}` : key);
      byLib.set(lib, list);
    }
    await Promise.all([...byLib].map(([lib, keys]) => this.diskChanged(lib, keys)));
  }

  /**
   * Re-reads `keys` from disk (gone files are removed) and re-publishes what depends on them. A key
   * ending in a separator is a deleted folder: the skills under it are found when the work runs, so
   * that a skill whose creation is still queued goes too.
   */
  private async diskChanged(lib: FolderLibrary, keys: string[]): Promise<void> {
    if (!keys.length) return;
    await lib.run(async () => {
      if (!lib.service || lib.state !== 'ready') return;
      const changed = lib.expandDeletedFolders(keys).filter((k) => !this.docs.has(k));
      if (changed.length >= BATCH_REREAD) return this.rereadAll(lib, changed.length);
      const ids: string[] = [];
      for (const key of changed) {
        const ref = this.refFor(lib, key);
        if (!ref) continue;
        const bytes = await fs.readFile(key).then((b) => new Uint8Array(b), () => null);
        try {
          await this.updateOne(lib, ref, bytes);
        } catch (err) {
          if (!(err instanceof SkillReadError)) this.host.log.warn(`${ref.path}: ${errorMessage(err)}`);
        }
        ids.push(ref.id);
      }
      await this.publishAffected(lib, ids);
      lib.flushLater();
      this.emitStatus();
    });
  }

  /**
   * A batch of changed files as large as a branch switch: one index run of the engine (unchanged
   * files cost a stat, the changed ones are read, analysed and embedded together, in slices),
   * then every skill re-published and the cross-skill checks run again, as after the first index.
   * File by file, each update re-derived library-wide state; thousands of them took minutes.
   */
  private async rereadAll(lib: FolderLibrary, files: number): Promise<void> {
    const service = lib.service!;
    const t0 = now();
    const source = new CancellationTokenSource();
    lib.cancel = source;
    try {
      await service.index({ token: source.token });
    } finally {
      if (lib.cancel === source) lib.cancel = null;
    }
    this.references.forget(service);
    this.budgetNotes.forget(service.skills());
    if (lib.service !== service || this.disposed) return;
    this.passes.stopRecheck(lib); // the pass below finds every pair
    await this.publishAll(lib, true);
    lib.flushLater();
    this.host.log.info(`${lib.name}: ${files} changed files re-read as one batch in ${Math.round(now() - t0)} ms`);
    this.emitStatus(true);
  }

  private async updateOne(lib: FolderLibrary, ref: SkillFileRef, bytes: Uint8Array | null, token?: CancelToken): Promise<SkillDoc | null> {
    lib.paths.set(ref.id, ref.path);
    const service = lib.service!;
    const before = pairInputKey(service.skill(ref.id));
    const namesBefore = this.references.namesOf(service.skill(ref.id));
    try {
      return await service.updateFile(ref, bytes, { token });
    } finally {
      lib.namesChanged();
      this.references.updated(lib, service, namesBefore, this.references.namesOf(service.skill(ref.id)));
      this.budgetNotes.forget(service.skills());
      if (lib.service === service && pairInputKey(service.skill(ref.id)) !== before) this.passes.scheduleRecheck(lib);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Publishing

  private context(lib: FolderLibrary | undefined, settings: ServerSettings): DiagnosticContext {
    return {
      settings,
      editorReports: this.editorReports,
      href: (code) => this.host.href(code),
      skill: (id) => lib?.service?.skill(id),
      uriOf: (id) => (lib ? this.uriOf(lib, lib.paths.get(id) ?? lib.service?.skill(id)?.path ?? `${id}/SKILL.md`) : ''),
      // Open files only: a closed file was read from disk, mark included.
      bomOnDisk: (doc) => {
        if (!lib) return false;
        const file = path.join(lib.root, ...doc.path.split('/'));
        return this.docs.has(file) && startsWithBom(file);
      },
      sameName: (doc) => lib?.sameNames()?.findings(doc) ?? [],
      reach: (doc) => (lib ? this.reach.finding(lib, doc) : null),
      budget: (doc) => (lib?.service ? this.budgetNotes.finding(doc, lib.service.skills(), settings) : null),
      references: (doc) => this.references.findings(lib, doc),
    };
  }

  /**
   * The library of an open SKILL.md as it stands (open buffers win), for definition, references,
   * rename and document links; undefined outside every folder or before the index is ready.
   */
  referenceView(uri: string, text: string): ReferenceView | undefined {
    const key = keyOf(uri);
    const lib = this.libraryFor(key);
    const ref = lib && this.refFor(lib, key);
    if (!lib || !ref) return undefined;
    return this.references.view(lib, ref, text, (file) => this.docs.get(file)?.text, (relPath) => this.uriOf(lib, relPath));
  }

  private uriOf(lib: FolderLibrary, relPath: string): string {
    const abs = path.join(lib.root, ...relPath.split('/'));
    return this.docs.get(abs)?.uri ?? pathToFileURL(abs).href;
  }

  private shouldPublish(lib: FolderLibrary, relPath: string): boolean {
    return lib.settings.diagnostics.scope === 'workspace' || this.docs.has(path.join(lib.root, ...relPath.split('/')));
  }

  /**
   * Publishes every skill of a library with the pair findings known so far. `analyse` (after an
   * index) forgets them and starts the pass that finds them again. In slices, each written before
   * the next (19,909 skills' messages held the event loop 1.5 s in one go), each run by `runSlice`:
   * on the library's queue when called from outside it.
   */
  private async publishAll(lib: FolderLibrary, analyse: boolean, runSlice = (slice: () => Promise<void>): Promise<unknown> => slice()): Promise<void> {
    const service = lib.service;
    if (!service) return;
    let [wanted, stale]: [SkillDoc[], Set<string>] = [[], new Set()];
    await runSlice(async () => {
      if (analyse) lib.pairs.clear();
      lib.namesChanged();
      wanted = service.skills().filter((d) => this.shouldPublish(lib, d.path));
      stale = new Set(lib.published);
      lib.published.clear();
      for (const doc of service.skills()) lib.paths.set(doc.id, doc.path);
    });
    const live = () => lib.service === service && !this.disposed;
    const yieldToOthers = () => Promise.resolve(this.host.written?.()).then(yieldToLoop);
    if (!(await runTimeSliced(wanted, (doc) => stale.delete(this.publishSkill(lib, doc)), { live, yieldToOthers, runSlice }))) return;
    await runSlice(async () => {
      if (!live()) return;
      const ctx = this.context(lib, lib.settings);
      for (const f of service.failures()) {
        if (!f.path.endsWith('SKILL.md') || !this.shouldPublish(lib, f.path)) continue;
        const uri = this.uriOf(lib, f.path);
        this.host.publish(uri, unreadableDiagnostic(f.message, ctx), this.docs.versionOf(uri));
        lib.published.add(uri);
        stale.delete(uri);
      }
      for (const uri of stale) this.host.publish(uri, []);
      if (analyse) this.passes.analyse(lib, wanted.map((d) => d.id)).catch((err) => this.fail(`${lib.name}: cross-skill checks`, err));
    });
  }

  /** Re-publishes `ids` (just updated) and every skill whose findings named them before or name them now. */
  private async publishAffected(lib: FolderLibrary, ids: string[]): Promise<void> {
    const service = lib.service;
    if (!service) return;
    const affected = new Set<string>(ids);
    for (const id of ids) for (const t of await lib.pairs.refresh(service, id)) affected.add(t);
    if (lib.service !== service) return;
    // The skills that shared a name with a changed one, and those that share its name now.
    for (const id of ids) {
      for (const peer of lib.namePeers.get(id) ?? []) affected.add(peer);
      const doc = service.skill(id);
      if (doc) for (const peer of lib.sameNames()?.peers(doc) ?? []) affected.add(peer.id);
    }
    // Skills that may name one that came, went or changed its name.
    for (const id of this.references.takeAffected(lib, service)) affected.add(id);
    if (lib.settings.diagnostics.scope === 'openFiles') {
      for (const doc of this.docs.values()) {
        const ref = this.refFor(lib, doc.key);
        if (ref) affected.add(ref.id);
      }
    }
    const failures = new Map(service.failures().map((f) => [f.path, f.message]));
    for (const id of affected) {
      const doc = service.skill(id);
      const relPath = doc?.path ?? lib.paths.get(id);
      if (!relPath) continue;
      const uri = this.uriOf(lib, relPath);
      const wanted = this.shouldPublish(lib, relPath);
      if (doc && wanted) {
        this.publishSkill(lib, doc);
        continue;
      }
      const failure = !doc && wanted ? failures.get(relPath) : undefined;
      if (failure) {
        this.host.publish(uri, unreadableDiagnostic(failure, this.context(lib, lib.settings)), this.docs.versionOf(uri));
        lib.published.add(uri);
      } else if (!doc || lib.published.has(uri)) {
        this.host.publish(uri, [], this.docs.versionOf(uri));
        lib.published.delete(uri);
      }
    }
  }

  private publishSkill(lib: FolderLibrary, doc: SkillDoc): string {
    const uri = this.uriOf(lib, doc.path);
    const peers = lib.sameNames()?.peers(doc).map((p) => p.id) ?? [];
    if (peers.length) lib.namePeers.set(doc.id, peers);
    else lib.namePeers.delete(doc.id);
    const diagnostics = skillDiagnostics(doc, lib.pairs.of(doc.id), this.context(lib, lib.settings));
    this.host.publish(uri, diagnostics, this.docs.versionOf(uri));
    lib.published.add(uri);
    return uri;
  }

  // -------------------------------------------------------------------------------------------
  // Lookups

  /** The library whose folder holds `key` (the innermost one for nested folders). */
  private libraryFor(key: string): FolderLibrary | undefined {
    return innermostLibrary(this.libraries.values(), key);
  }

  private refFor(lib: FolderLibrary, key: string): SkillFileRef | undefined {
    return skillRefFor(lib.root, key, lib.settings.exclude);
  }

  /** Settings that apply to a document (its folder's, else the defaults). */
  settingsFor(uri: string): ServerSettings {
    return this.libraryFor(keyOf(uri))?.settings ?? DEFAULT_SETTINGS;
  }

  /** The folder name the spec compares `name` with, for a document. */
  folderNameOf(uri: string): string | undefined {
    const key = keyOf(uri);
    const lib = this.libraryFor(key);
    const ref = lib && this.refFor(lib, key);
    return ref ? ref.folderName : uri.startsWith('file:') ? path.basename(path.dirname(key)) : undefined;
  }

  // -------------------------------------------------------------------------------------------
  // Requests

  /** `skillRouter/route` over every folder, or `params.folder` (listingRanks.ts). */
  route(params: RouteParams, token?: RequestToken): Promise<RouteResponse> {
    return routeLibraries([...this.libraries.values()], params, token, (lib, relPath) => this.uriOf(lib, relPath));
  }

  /** Every indexed skill by its share of the listing budget (`skillRouter/listing`). */
  listing(): ListingResponse {
    const libs = [...this.libraries.values()].map((lib) => ({ lib, skills: lib.service?.skills() ?? [], uriOf: (p: string) => this.uriOf(lib, p) }));
    return listingReport(libs, libs[0]?.lib.settings ?? DEFAULT_SETTINGS);
  }

  status(): IndexStatus {
    const libs = [...this.libraries.values()];
    const budget = listingBudget(libs.flatMap((l) => l.service?.skills() ?? []), libs[0]?.settings ?? DEFAULT_SETTINGS);
    return indexStatus(libs, { progress: this.progress, timings: this.timings, lastError: this.lastError, budget });
  }

  private emitStatus(force = false): void {
    if (!this.disposed) this.statusOut.emit(force);
  }

  private fail(what: string, err: unknown): void {
    this.lastError = `${what}: ${errorMessage(err)}`;
    this.host.log.error(`${this.lastError}${err instanceof Error && err.stack ? `\n${err.stack}` : ''}`);
    this.emitStatus();
  }

  /** Writes caches and closes every library. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.docs.dispose();
    this.passes.dispose();
    this.reach.dispose();
    for (const lib of this.libraries.values()) this.passes.stopRecheck(lib);
    this.statusOut.dispose();
    await Promise.all([...this.libraries.values()].map((lib) => lib.close()));
  }
}
