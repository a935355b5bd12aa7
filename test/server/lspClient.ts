/**
 * A real LSP client for server tests: spawns `node dist/server.js --stdio` and talks to it with
 * vscode-languageserver-protocol. Everything waits for events (diagnostics, status), never sleeps.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import {
  ConfigurationRequest,
  DidChangeConfigurationNotification,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidChangeWorkspaceFoldersNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializeRequest,
  InitializedNotification,
  LogMessageNotification,
  MessageType,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgressCreateRequest,
  WorkDoneProgressCancelNotification,
  type Diagnostic,
  type FileChangeType,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type ProgressToken,
  type TextEdit,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { IndexStatusNotification, type IndexStatus, type InitializationOptions } from '../../src/shared/protocol';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../../src/shared/serverProcess';

/** The repository root: the compiled tests and benches live at different depths under out/. */
function findRepo(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'test', 'fixtures'))) return dir;
  }
  throw new Error(`no repository root above ${__dirname}`);
}

export const REPO = findRepo();
export const SERVER = path.join(REPO, 'dist', 'server.js');
export const FIXTURES = path.join(REPO, 'test', 'fixtures', 'workspaces');

export const uriOf = (file: string) => pathToFileURL(file).href;

/** Copies a fixture workspace to a temp folder (tests write to it). */
export function copyFixture(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `sr-ws-${name}-`));
  cpSync(path.join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

export interface StartOptions {
  folders: string[];
  /** The `skillRouter` section answered to `workspace/configuration`. */
  settings?: Record<string, unknown>;
  init?: InitializationOptions;
  /** Advertise `window.workDoneProgress` (default true). */
  progress?: boolean;
  /** Debounce of document checks and their cross-skill checks; tests use 10 ms, `default` keeps the server's own. */
  debounceMs?: number | 'default';
  /** Wait (per 100 skills) before the library-wide recheck; default `debounceMs`. */
  recheckMs?: number;
  /** Extra Node options for the server process (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** Extra `workspace.workspaceEdit` client capabilities (e.g. `resourceOperations`). */
  workspaceEdit?: Record<string, unknown>;
  /** Called when the server creates a progress token. */
  onProgressCreate?: (token: ProgressToken, client: TestClient) => void;
}

export class TestClient {
  readonly diagnostics = new Map<string, PublishDiagnosticsParams>();
  /** Every publish, in order. */
  readonly history: PublishDiagnosticsParams[] = [];
  /** `$/progress` values, in order. */
  readonly progress: { token: ProgressToken; value: { kind: string; message?: string; percentage?: number; cancellable?: boolean } }[] = [];
  readonly statuses: IndexStatus[] = [];
  readonly logs: string[] = [];
  /** When each log line and `$/progress` value arrived (performance.now()), for the benches' timelines. */
  readonly timeline: { at: number; what: string }[] = [];
  /** Messages the server logged as errors (a handler that threw, a failed check). */
  readonly errors: string[] = [];
  readonly registrations: string[] = [];
  stderr = '';
  settings: Record<string, unknown>;
  private readonly waiters = new Set<() => void>();
  private readonly versions = new Map<string, number>();
  private readonly texts = new Map<string, string>();

  private constructor(readonly conn: ProtocolConnection, readonly proc: ChildProcess, readonly cacheDir: string, settings: Record<string, unknown>) {
    this.settings = settings;
  }

  static async start(opts: StartOptions): Promise<TestClient> {
    const proc = spawn(process.execPath, [...SERVER_NODE_ARGS, ...(opts.nodeArgs ?? []), SERVER, '--stdio'], {
      cwd: REPO,
      env: opts.debounceMs === 'default'
        ? { ...process.env, ...SERVER_ENV }
        : {
            ...process.env,
            ...SERVER_ENV,
            SKILL_ROUTER_DEBOUNCE_MS: String(opts.debounceMs ?? 10),
            SKILL_ROUTER_SEMANTIC_DELAY_MS: String(opts.debounceMs ?? 10),
            SKILL_ROUTER_RECHECK_MS: String(opts.recheckMs ?? opts.debounceMs ?? 10),
          },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
    const cacheDir = opts.init?.cacheDir ?? mkdtempSync(path.join(tmpdir(), 'sr-cache-'));
    const client = new TestClient(conn, proc, cacheDir, opts.settings ?? {});
    proc.stderr!.on('data', (d) => (client.stderr += String(d)));
    conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
      client.diagnostics.set(fileURLToPath(p.uri), p);
      client.history.push(p);
      client.notify();
    });
    conn.onNotification(IndexStatusNotification, (s) => {
      client.statuses.push(s);
      client.notify();
    });
    conn.onNotification(LogMessageNotification.type, (m) => {
      client.logs.push(m.message);
      client.timeline.push({ at: performance.now(), what: m.message });
      if (m.type === MessageType.Error) client.errors.push(m.message);
      client.notify();
    });
    conn.onNotification('$/progress', (p: TestClient['progress'][number]) => {
      client.progress.push(p);
      client.timeline.push({ at: performance.now(), what: `progress ${p.value.kind}${p.value.message ? `: ${p.value.message}` : ''}${p.value.percentage !== undefined ? ` ${p.value.percentage}%` : ''}` });
      client.notify();
    });
    conn.onRequest(ConfigurationRequest.type, (p) => p.items.map((i) => (i.section === 'skillRouter' ? client.settings : null)));
    conn.onRequest(RegistrationRequest.type, (p) => {
      client.registrations.push(...p.registrations.map((r) => r.method));
      return null;
    });
    conn.onRequest(WorkDoneProgressCreateRequest.type, (p) => {
      opts.onProgressCreate?.(p.token, client);
      return null;
    });
    conn.listen();
    const died = new Promise<never>((_, reject) => {
      proc.once('exit', (code) => reject(new Error(`the server exited (${code}) before it answered initialize:\n${client.stderr}`)));
    });
    await Promise.race([died, conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: opts.folders[0] ? uriOf(opts.folders[0]) : null,
      workspaceFolders: opts.folders.map((f) => ({ uri: uriOf(f), name: path.basename(f) })),
      initializationOptions: { cacheDir, model: { enabled: false }, ...opts.init },
      capabilities: {
        workspace: {
          configuration: true,
          workspaceFolders: true,
          didChangeConfiguration: { dynamicRegistration: true },
          didChangeWatchedFiles: { dynamicRegistration: true },
          workspaceEdit: { changeAnnotationSupport: { groupsOnLabel: true }, ...opts.workspaceEdit },
        },
        window: { workDoneProgress: opts.progress ?? true },
        textDocument: { publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, dataSupport: true } },
      },
    })]);
    died.catch(() => undefined);
    await conn.sendNotification(InitializedNotification.type, {});
    return client;
  }

  private notify(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Resolves with the first truthy value of `probe`, re-checked on every message from the server. */
  waitFor<T>(probe: () => T | undefined | null | false, what: string, timeoutMs = 60_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        let v: T | undefined | null | false;
        try {
          v = probe();
        } catch (err) {
          cleanup();
          reject(err);
          return;
        }
        if (v) {
          cleanup();
          resolve(v);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        const last = [...this.diagnostics.entries()].slice(-10).map(([f, p]) => [path.basename(path.dirname(f)), p.version, p.diagnostics.map((d) => d.code)]);
        reject(new Error(`timed out waiting for ${what}\nlast diagnostics: ${JSON.stringify(last)}\nserver log:\n${this.logs.slice(-20).join('\n')}\n${this.stderr.slice(-2000)}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Waits until every folder is indexed. */
  ready(timeoutMs?: number): Promise<IndexStatus> {
    return this.waitFor(() => {
      const s = this.statuses[this.statuses.length - 1];
      return s && s.folders.length > 0 && s.folders.every((f) => f.state === 'ready') && !s.progress && !s.analysis ? s : undefined;
    }, 'the index and the cross-skill checks to be done', timeoutMs);
  }

  /** Waits for diagnostics of `file` that satisfy `ok`. */
  diagnosticsOf(file: string, ok: (d: Diagnostic[], p: PublishDiagnosticsParams) => boolean, what = `diagnostics of ${file}`, timeoutMs?: number): Promise<Diagnostic[]> {
    return this.waitFor(() => {
      const p = this.diagnostics.get(file);
      return p && ok(p.diagnostics, p) ? p.diagnostics : undefined;
    }, what, timeoutMs);
  }

  /** The buffer text last sent for an open file. */
  textOf(file: string): string {
    const text = this.texts.get(file);
    if (text === undefined) throw new Error(`${file} is not open`);
    return text;
  }

  current(file: string): Diagnostic[] {
    return this.diagnostics.get(file)?.diagnostics ?? [];
  }

  async open(file: string, text: string, languageId = 'markdown'): Promise<number> {
    this.versions.set(file, 1);
    this.texts.set(file, text);
    await this.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: uriOf(file), languageId, version: 1, text } });
    return 1;
  }

  /** Replaces the whole buffer; returns the new version. */
  async change(file: string, text: string): Promise<number> {
    const version = (this.versions.get(file) ?? 0) + 1;
    this.versions.set(file, version);
    this.texts.set(file, text);
    await this.conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: uriOf(file), version }, contentChanges: [{ text }] });
    return version;
  }

  async close(file: string): Promise<void> {
    this.versions.delete(file);
    await this.conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: uriOf(file) } });
  }

  async filesChanged(changes: { file: string; type: FileChangeType }[]): Promise<void> {
    await this.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: changes.map((c) => ({ uri: uriOf(c.file), type: c.type })) });
  }

  async foldersChanged(added: string[], removed: string[]): Promise<void> {
    const f = (d: string) => ({ uri: uriOf(d), name: path.basename(d) });
    await this.conn.sendNotification(DidChangeWorkspaceFoldersNotification.type, { event: { added: added.map(f), removed: removed.map(f) } });
  }

  /** Replaces the `skillRouter` settings and tells the server (it pulls them again). */
  async setSettings(settings: Record<string, unknown>): Promise<void> {
    this.settings = settings;
    await this.conn.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
  }

  async cancelProgress(token: ProgressToken): Promise<void> {
    await this.conn.sendNotification(WorkDoneProgressCancelNotification.type, { token });
  }

  /** Shuts the server down and waits for the process to exit. */
  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => {
      if (this.proc.exitCode !== null) resolve(this.proc.exitCode);
      else this.proc.once('exit', (code) => resolve(code));
    });
    try {
      await Promise.race([this.conn.sendRequest(ShutdownRequest.type), new Promise((r) => setTimeout(r, 10_000))]);
      await this.conn.sendNotification(ExitNotification.type);
    } catch {
      // already gone
    }
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(timer);
    this.conn.dispose();
    return code;
  }
}

/** `text` with LSP edits applied, as an editor applies them. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('file:///edited', 'markdown', 1, text), edits);
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
