/**
 * The host side of the "test a query" panel: creates the webview beside the editor, checks every
 * message it gets, routes requests through the language server (never in the extension host),
 * follows the active editor's skill, opens SKILL.md files and appends routing tests.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isProfileId, LISTING_RULES, type ListingClient, type ProfileId } from '../core/profiles';
import { judgeExpectation, relevanceVerdict, testDepth } from '../core/eval/routingTest';
import type { ListingResponse, RouteParams, RouteResponse } from '../shared/protocol';
import {
  DEFAULT_K,
  isHostMessage,
  isPanelSnapshot,
  isWebviewMessage,
  MAX_K,
  type ActiveSkill,
  type HostMessage,
  type PanelSnapshot,
  type RouteSummary,
  type RoutingTestEntry,
  type TestVerdict,
  type WebviewMessage,
} from '../shared/webviewProtocol';
import { createNonce, panelHtml } from './panelHtml';
import { locateActive, toPanelListing, toRouteSummary } from './panelRouting';
import { appendRoutingTest, locateTestsFile } from './routingTestsFile';

export const QUERY_PANEL_VIEW_TYPE = 'skillRouter.queryPanel';
const SNAPSHOT_KEY = 'skillRouter.queryPanel.snapshot';
/** How far up from a file the host looks for the SKILL.md of the skill it belongs to. */
const MAX_SKILL_DEPTH = 8;

export interface QueryPanelDeps {
  extensionUri: vscode.Uri;
  /** `skillRouter/route` on the language server; throws when it is not running. */
  route(params: RouteParams, token: vscode.CancellationToken): Promise<RouteResponse>;
  /** `skillRouter/listing`: every skill (for the names and ids a routing test may use). */
  listing(): Promise<ListingResponse>;
  /** Where the panel's query, K, profile and history are kept between openings (workspace state). */
  memento: vscode.Memento;
  log: vscode.LogOutputChannel;
  /** The profiles the server chose (used when `skillRouter.profiles` is empty, its default). */
  serverProfiles(): readonly string[];
}

/** Webview options: scripts on, and only media/ and dist/webview/ readable. */
export function queryPanelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    enableFindWidget: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist', 'webview')],
  };
}

/** Quiet time after the last change to a SKILL.md before the shown request is routed again. */
const STALE_DEBOUNCE_MS = 600;

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class QueryPanel implements vscode.Disposable {
  private static current: QueryPanel | undefined;
  /** The last answer shown, kept for the next time the panel opens in this window. */
  private static lastSummary: RouteSummary | null = null;

  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  private queued: string | undefined;
  private routeCts: vscode.CancellationTokenSource | undefined;
  private activeCts: vscode.CancellationTokenSource | undefined;
  /** Generation counters: an answer is posted only if no newer request started meanwhile. */
  private routeGeneration = 0;
  private activeGeneration = 0;
  /** URIs the webview may ask to open: the shown results and the tests file it was told about. */
  private readonly openable = new Set<string>();
  /** SKILL.md of the skill the last text editor belongs to (kept while the panel has focus). */
  private activeSkillUri: vscode.Uri | null = null;
  private editorColumn: vscode.ViewColumn | undefined;
  private staleTimer: ReturnType<typeof setTimeout> | undefined;
  /** A skill changed while the page was hidden (its messages are lost then): routed again once shown. */
  private changedWhileHidden = false;

  /** Opens the panel beside the editor, or reveals it; routes `query` when given. */
  static async show(deps: QueryPanelDeps, query?: string): Promise<QueryPanel> {
    const existing = QueryPanel.current;
    if (existing) {
      existing.panel.reveal(existing.panel.viewColumn, false);
      if (query) existing.run(query);
      return existing;
    }
    // After a window reload VS Code restores the panel's tab but revives it (the serializer) only
    // once it is first shown: a background tab has no panel yet. Open the one panel in its place.
    const restored = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(QUERY_PANEL_VIEW_TYPE));
    if (restored) await vscode.window.tabGroups.close(restored, true);
    const panel = vscode.window.createWebviewPanel(
      QUERY_PANEL_VIEW_TYPE,
      'Test a Query',
      { viewColumn: restored?.group.viewColumn ?? vscode.ViewColumn.Beside, preserveFocus: false },
      queryPanelOptions(deps.extensionUri),
    );
    const created = new QueryPanel(panel, deps);
    if (query) created.run(query);
    return created;
  }

  /**
   * Restores panels after a window reload (the webview's own `setState` comes back with it).
   * Needs the `onWebviewPanel:skillRouter.queryPanel` activation event and a call during activation.
   */
  static registerSerializer(deps: QueryPanelDeps): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(QUERY_PANEL_VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel) {
        panel.webview.options = queryPanelOptions(deps.extensionUri);
        QueryPanel.current?.dispose();
        new QueryPanel(panel, deps);
      },
    });
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly deps: QueryPanelDeps,
  ) {
    QueryPanel.current = this;
    const webview = panel.webview;
    const asUri = (...parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(deps.extensionUri, ...parts)).toString();
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      scriptUri: asUri('dist', 'webview', 'panel.js'),
      styleUri: asUri('media', 'panel.css'),
      nonce: createNonce(),
    });
    for (const uri of QueryPanel.lastSummary?.results.map((r) => r.uri) ?? []) this.openable.add(uri);
    this.trackEditor(vscode.window.activeTextEditor);
    this.disposables.push(
      webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      panel.onDidDispose(() => this.dispose()),
      vscode.window.onDidChangeActiveTextEditor((editor) => this.trackEditor(editor)),
      // An answer stays true to the library: a SKILL.md edited, saved, added or removed routes the shown request again.
      vscode.workspace.onDidChangeTextDocument((e) => e.contentChanges.length && this.skillChanged(e.document.uri)),
      ...this.watchSkillFiles(),
      panel.onDidChangeViewState(() => panel.visible && this.changedWhileHidden && this.postStale()),
    );
  }

  private watchSkillFiles(): vscode.Disposable[] {
    const watcher = vscode.workspace.createFileSystemWatcher('**/SKILL.md');
    const changed = (uri: vscode.Uri) => this.skillChanged(uri);
    return [watcher, watcher.onDidCreate(changed), watcher.onDidChange(changed), watcher.onDidDelete(changed)];
  }

  /** Debounced: the server applies an edit after its own short debounce, and the route request queues behind it. */
  private skillChanged(uri: vscode.Uri): void {
    if (!/(^|\/)SKILL\.md$/.test(uri.path)) return;
    clearTimeout(this.staleTimer);
    this.staleTimer = setTimeout(() => {
      this.staleTimer = undefined;
      if (this.ready && this.panel.visible) this.postStale();
      else this.changedWhileHidden = true;
    }, STALE_DEBOUNCE_MS);
  }

  private postStale(): void {
    this.changedWhileHidden = false;
    this.post({ type: 'stale' });
  }

  /** Routes `query` in the panel, as if typed (after the page has loaded). */
  run(query: string): void {
    if (this.ready) this.post({ type: 'run', query });
    else this.queued = query;
  }

  dispose(): void {
    if (QueryPanel.current === this) QueryPanel.current = undefined;
    clearTimeout(this.staleTimer);
    this.routeCts?.cancel();
    this.activeCts?.cancel();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }

  private post(msg: HostMessage): void {
    if (!isHostMessage(msg)) {
      this.deps.log.error(`query panel: not posting a malformed ${(msg as { type: string }).type} message`);
      return;
    }
    void this.panel.webview.postMessage(msg);
  }

  private receive(raw: unknown): void {
    if (!isWebviewMessage(raw)) {
      this.deps.log.warn(`query panel: ignored a malformed message ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    const msg: WebviewMessage = raw;
    switch (msg.type) {
      case 'ready':
        return this.onReady();
      case 'route':
        return void this.onRoute(msg.requestId, msg.query, msg.k, msg.client);
      case 'open':
        return void this.onOpen(msg.uri, msg.line);
      case 'saveTest':
        return void this.onSaveTest(msg.test, msg.force === true);
      case 'persist':
        return void this.deps.memento.update(SNAPSHOT_KEY, msg.snapshot);
    }
  }

  private settings(): { profiles: ProfileId[]; k: number } {
    const cfg = vscode.workspace.getConfiguration('skillRouter');
    const raw = cfg.get<unknown>('profiles');
    const set = Array.isArray(raw) ? raw.filter((p): p is ProfileId => typeof p === 'string' && isProfileId(p)) : [];
    // Empty (the default): the folder's own, as the server and `skill-router check` choose them.
    const profiles = set.length ? set : this.deps.serverProfiles().filter((p): p is ProfileId => isProfileId(p));
    const topK = cfg.get<unknown>('route.topK');
    const k = typeof topK === 'number' && Number.isInteger(topK) ? Math.max(1, Math.min(MAX_K, topK)) : DEFAULT_K;
    return { profiles: profiles.length ? [...new Set(profiles)] : ['spec'], k };
  }

  private onReady(): void {
    // The page is (re)loaded: after hiding, messages posted meanwhile were lost, so send it all.
    this.ready = true;
    const { profiles, k } = this.settings();
    const stored = this.deps.memento.get<unknown>(SNAPSHOT_KEY);
    const snapshot: PanelSnapshot | null = isPanelSnapshot(stored) ? stored : null;
    const last = QueryPanel.lastSummary;
    const restore = snapshot || last
      ? { ...(snapshot ?? { query: last?.query ?? '', k, profile: profiles[0], history: [] }), last }
      : null;
    this.post({ type: 'init', profiles, k, restore, active: this.unranked() });
    void this.refreshActive();
    if (this.queued) {
      this.post({ type: 'run', query: this.queued });
      this.queued = undefined;
    }
    else if (this.changedWhileHidden) this.postStale();
  }

  private folderLabel = (item: { folder: string; skillId: string }): string => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length < 2) return item.skillId;
    const f = folders.find((w) => w.uri.toString() === vscode.Uri.parse(item.folder).toString());
    return f ? `${f.name}/${item.skillId}` : item.skillId;
  };

  private async onRoute(requestId: number, query: string, k: number, client?: ListingClient): Promise<void> {
    this.routeCts?.cancel();
    const cts = (this.routeCts = new vscode.CancellationTokenSource());
    const generation = ++this.routeGeneration;
    try {
      const res = await this.deps.route({ query, k }, cts.token);
      if (generation !== this.routeGeneration) return;
      const normalize = (u: string) => vscode.Uri.parse(u).toString();
      const summary = toRouteSummary(res, requestId, k, this.folderLabel, normalize);
      const [active, listing] = await Promise.all([
        this.locateActive(summary, query, cts.token),
        client && res.results.length ? this.listingRanks(query, client, res.results.slice(0, k).map((r) => r.uri), normalize, cts.token) : undefined,
      ]);
      if (generation !== this.routeGeneration) return;
      if (listing) summary.listing = listing;
      QueryPanel.lastSummary = summary;
      for (const r of summary.results) this.openable.add(r.uri);
      this.post({ type: 'results', active, ...summary });
    } catch (err) {
      if (generation !== this.routeGeneration) return; // superseded: its cancellation is no error
      this.deps.log.warn(`query panel: route "${query}" failed: ${message(err)}`);
      this.post({ type: 'error', requestId, message: `Routing failed: ${message(err)}` });
    } finally {
      cts.dispose();
    }
  }

  /**
   * Where the shown results rank in `client`'s listing, and why lower (`skillRouter/route` with
   * `view.of`); undefined when the server could not say (the full-text results still show).
   */
  private async listingRanks(query: string, client: ListingClient, uris: string[], normalize: (u: string) => string, token: vscode.CancellationToken) {
    try {
      const res = await this.deps.route({ query, k: 1, view: { client, of: uris } }, token);
      return toPanelListing(res, client, LISTING_RULES[client].label, normalize);
    } catch (err) {
      if (!token.isCancellationRequested) this.deps.log.warn(`query panel: the ranks in the ${client} listing failed: ${message(err)}`);
      return undefined;
    }
  }

  private locateActive(summary: RouteSummary | null, query: string, token: vscode.CancellationToken): Promise<ActiveSkill | null> {
    const uri = this.activeSkillUri;
    return locateActive(
      uri?.toString() ?? null,
      uri ? this.folderOfSkill(uri) : '',
      summary,
      async (depth) => {
        const deeper = await this.deps.route({ query, k: depth }, token);
        return deeper.results.map((r) => ({ uri: vscode.Uri.parse(r.uri).toString(), name: r.name }));
      },
      // Ranked nowhere: the server still knows its name.
      async () => (await this.deps.listing()).skills.find((s) => vscode.Uri.parse(s.uri).toString() === uri?.toString())?.name ?? '',
    );
  }

  /** Tells the panel where the active editor's skill ranks for the request shown. */
  private async refreshActive(): Promise<void> {
    if (!this.ready) return;
    this.activeCts?.cancel();
    const cts = (this.activeCts = new vscode.CancellationTokenSource());
    const generation = ++this.activeGeneration;
    const last = QueryPanel.lastSummary;
    try {
      const active = await this.locateActive(last, last?.query ?? '', cts.token);
      if (generation === this.activeGeneration) this.post({ type: 'active', active });
    } catch (err) {
      if (generation !== this.activeGeneration) return;
      this.deps.log.warn(`query panel: ranking the active skill failed: ${message(err)}`);
      this.post({ type: 'active', active: this.unranked() });
    } finally {
      cts.dispose();
    }
  }

  /** The active skill before any routing: its folder only (its name comes with the ranking). */
  private unranked(): ActiveSkill | null {
    return this.activeSkillUri ? { uri: this.activeSkillUri.toString(), name: '', folder: this.folderOfSkill(this.activeSkillUri), rank: null, depth: 0 } : null;
  }

  /** The skill's folder as the results show it: its path in the library, after the workspace folder's name when there are several. */
  private folderOfSkill(skillMd: vscode.Uri): string {
    const ws = vscode.workspace.getWorkspaceFolder(skillMd);
    const dir = path.posix.dirname(skillMd.path);
    const rel = ws ? path.posix.relative(ws.uri.path, dir) : '';
    const id = rel && !rel.startsWith('..') ? rel : path.posix.basename(dir);
    return (vscode.workspace.workspaceFolders?.length ?? 0) > 1 && ws ? `${ws.name}/${id}` : id;
  }

  private trackEditor(editor: vscode.TextEditor | undefined): void {
    // The panel taking focus leaves no active text editor: keep the skill of the last one.
    if (!editor) return;
    this.editorColumn = editor.viewColumn ?? this.editorColumn;
    void this.skillOf(editor.document.uri).then((uri) => {
      if (uri?.toString() === this.activeSkillUri?.toString()) return;
      this.activeSkillUri = uri;
      void this.refreshActive();
    });
  }

  /** The SKILL.md of the skill that `doc` belongs to: itself, or the nearest one above it in its workspace folder. */
  private async skillOf(doc: vscode.Uri): Promise<vscode.Uri | null> {
    if (path.posix.basename(doc.path) === 'SKILL.md') return doc;
    const folder = vscode.workspace.getWorkspaceFolder(doc);
    if (!folder) return null;
    let dir = path.posix.dirname(doc.path);
    for (let i = 0; i < MAX_SKILL_DEPTH && dir.startsWith(folder.uri.path) && dir.length >= folder.uri.path.length; i++) {
      const candidate = doc.with({ path: path.posix.join(dir, 'SKILL.md') });
      try {
        await vscode.workspace.fs.stat(candidate);
        return candidate;
      } catch {
        // Not here; one folder up.
      }
      if (dir === folder.uri.path) break;
      dir = path.posix.dirname(dir);
    }
    return null;
  }

  private async onOpen(uri: string, line?: number): Promise<void> {
    if (!this.openable.has(uri)) {
      this.deps.log.warn(`query panel: refused to open ${uri}: not a result or tests file of this panel`);
      return;
    }
    try {
      const position = new vscode.Position(line ?? 0, 0);
      await vscode.window.showTextDocument(vscode.Uri.parse(uri), {
        viewColumn: this.editorColumn ?? vscode.ViewColumn.One,
        selection: new vscode.Range(position, position),
        preview: true,
      });
    } catch (err) {
      this.post({ type: 'error', message: `Could not open ${uri}: ${message(err)}` });
    }
  }

  /** The workspace folder whose library holds the expected skills (else the first folder). */
  private folderFor(test: RoutingTestEntry): vscode.WorkspaceFolder | undefined {
    const results = QueryPanel.lastSummary?.results ?? [];
    for (const ref of [...test.expect, ...(test.notExpect ?? [])]) {
      const r = results.find((x) => x.name === ref || x.skillId === ref);
      const folder = r && vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(r.uri));
      if (folder) return folder;
    }
    return vscode.workspace.workspaceFolders?.[0];
  }

  /**
   * Runs `test` as `skill-router check` runs it: its request ranked in its folder to the same
   * depth with rerank on, judged by the shared rules (core/eval/routingTest.ts) with the config's
   * default N.
   */
  private async runTest(test: RoutingTestEntry, folder: vscode.WorkspaceFolder, defaultTop: number): Promise<TestVerdict> {
    const topN = test.top ?? defaultTop;
    const cts = new vscode.CancellationTokenSource();
    try {
      const folderUri = folder.uri.toString();
      const [res, listing] = await Promise.all([
        this.deps.route({ query: test.query, k: testDepth(topN), rerank: true, folder: folderUri }, cts.token),
        this.deps.listing(),
      ]);
      const inFolder = (uri: string) => vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(uri))?.uri.toString() === folderUri;
      const skills = listing.skills.filter((s) => inFolder(s.uri)).map((s) => ({ id: s.skillId, name: s.name }));
      const verdict = judgeExpectation(
        { expect: test.expect, notExpect: test.notExpect ?? [], top: test.top, set: test.set === true },
        res.results.map((r) => r.skillId),
        skills,
        defaultTop,
        // As `check` judges: a notExpect skill judged not relevant is not chosen.
        relevanceVerdict({ match: res.match, candidates: res.results.map((r) => ({ skillId: r.skillId, relevant: r.relevant })) }),
      );
      return { passed: verdict.passed, topN: verdict.topN, problems: verdict.problems };
    } finally {
      cts.dispose();
    }
  }

  /** Runs the test; saves it when it passes, or when the author saves it anyway (`force`). */
  private async onSaveTest(test: RoutingTestEntry, force: boolean): Promise<void> {
    try {
      const folder = this.folderFor(test);
      if (!folder) throw new Error('open a folder first: routing tests live at the root of the skill library');
      const at = (p: string) => folder.uri.with({ path: p });
      const fs = vscode.workspace.fs;
      const location = await locateTestsFile(folder.uri.path, {
        exists: async (p) => {
          try {
            await fs.stat(at(p));
            return true;
          } catch {
            return false;
          }
        },
        read: async (p) => new TextDecoder().decode(await fs.readFile(at(p))),
      });
      let outcome: TestVerdict | undefined;
      try {
        outcome = await this.runTest(test, folder, location.defaultTop);
      } catch (err) {
        // Not indexed yet, or the server is down: the test is saved; check will run it.
        this.deps.log.warn(`query panel: could not run the routing test before saving it: ${message(err)}`);
      }
      if (outcome && !outcome.passed && !force) {
        this.post({ type: 'tested', query: test.query, outcome });
        return;
      }
      const uri = at(location.file);
      // An open editor's unsaved text wins over the file on disk.
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      const before = doc ? doc.getText() : location.exists ? new TextDecoder().decode(await fs.readFile(uri)) : null;
      const after = appendRoutingTest(before, location.file, test);
      if (doc) {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(before!.length)), after);
        if (!(await vscode.workspace.applyEdit(edit)) || !(await doc.save())) throw new Error(`could not write ${uri.fsPath}`);
      } else {
        await fs.writeFile(uri, new TextEncoder().encode(after));
      }
      this.openable.add(uri.toString());
      this.deps.log.info(`query panel: appended a routing test for "${test.query}" to ${uri.fsPath}`);
      this.post({ type: 'saved', file: vscode.workspace.asRelativePath(uri, true), uri: uri.toString(), query: test.query, ...(outcome ? { outcome } : {}) });
    } catch (err) {
      this.post({ type: 'error', message: `Could not save the routing test: ${message(err)}` });
    }
  }
}
