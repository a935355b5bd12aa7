/**
 * LSP wiring: capabilities, document sync, watched files, folders, settings and the custom
 * requests, each handler a thin call into the workspace index or a pure helper. Handlers never
 * throw at the client: errors are logged and answered with an empty result (or a request error).
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Connection, InitializeResult } from 'vscode-languageserver';
import {
  CodeActionKind,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  LSPErrorCodes,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  WatchKind,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { version } from '../../package.json';
import { CancelledError } from '../core/types';
import { openLibrary, packageRoot } from '../node/library';
import { readPairCache, writePairCache } from '../node/pairCacheFile';
import { workspaceProfiles } from '../node/workspaceProfiles';
import {
  CancelIndexNotification,
  IndexStatusNotification,
  IndexStatusRequest,
  ListingRequest,
  ReindexRequest,
  RouteRequest,
  isRouteView,
  type IndexStatus,
  type InitializationOptions,
} from '../shared/protocol';
import { codeActions } from './codeActions';
import { definition, documentLinks, prepareRename, references, rename, RenameRefused } from './references';
import { frontMatterCompletions, frontMatterHover } from './frontMatterHelp';
import { errorMessage, ServerLogger } from './logger';
import { LoopMonitor, memoryNow } from './loopMonitor';
import { sanitiseSettings, withProfiles, type ServerSettings } from './settings';
import { isSkillDocument, WorkspaceIndex, type IndexHost } from './workspaceIndex';

export const SERVER_VERSION: string = version;

/** Where diagnostic codes link to: the installed docs/diagnostics.md, else the project's copy online. */
export function diagnosticsDocs(): string {
  const local = path.join(packageRoot(), 'docs', 'diagnostics.md');
  return existsSync(local) ? pathToFileURL(local).href : 'https://github.com/skill-router/skill-router/blob/main/docs/diagnostics.md';
}

export interface ServerDeps {
  openLibrary?: IndexHost['openLibrary'];
  /** Debounce of document checks and of their cross-skill checks (tests shorten them). */
  debounceMs?: number;
  semanticDelayMs?: number;
  /** Wait (per 100 skills) before pair findings are rechecked after the listing changed. */
  recheckDelayMs?: number;
}

/** Wires the Skill Router language server onto `connection` (call `connection.listen()` after). */
export function startServer(connection: Connection, deps: ServerDeps = {}): void {
  const documents = new TextDocuments(TextDocument);
  const log = new ServerLogger(connection.console);
  const docsHref = diagnosticsDocs();
  let index: WorkspaceIndex | undefined;
  const loop = new LoopMonitor();
  const withLoop = (status: IndexStatus): IndexStatus => ({ ...status, timings: { ...status.timings, loopDelayMaxMs: loop.maxMs() }, memory: memoryNow() });
  let hasConfiguration = false;
  let canRegisterWatchers = false;
  let canRegisterConfiguration = false;
  let hasFolderEvents = false;
  let annotations = false;
  let canRenameFolders = false;
  let folders: string[] = [];
  let fallbackSettings: unknown = {};
  let lastPublish: Promise<void> = Promise.resolve();
  let editor: InitializationOptions['editor'];

  const settingsFor = async (scopeUri: string | null): Promise<ServerSettings> => {
    let raw: unknown = fallbackSettings;
    if (hasConfiguration) {
      try {
        raw = await connection.workspace.getConfiguration({ scopeUri: scopeUri ?? undefined, section: 'skillRouter' });
      } catch (err) {
        log.warn(`could not read settings: ${errorMessage(err)}`);
      }
    }
    const { settings, problems } = sanitiseSettings(raw);
    for (const p of problems) log.warn(p);
    log.level = settings.logLevel;
    // The folder's own default, as `skill-router check` chooses it for the same folder.
    return withProfiles(settings, () => (scopeUri?.startsWith('file:') ? workspaceProfiles(fileURLToPath(scopeUri)) : null));
  };

  /** Runs a handler; a throw is logged and answered with `fallback`. */
  const safe = <P, R>(name: string, fallback: R, fn: (p: P) => R | Promise<R>) => async (p: P): Promise<R> => {
    try {
      return await fn(p);
    } catch (err) {
      log.error(`${name} failed: ${errorMessage(err)}${err instanceof Error && err.stack ? `\n${err.stack}` : ''}`);
      return fallback;
    }
  };

  connection.onInitialize((params): InitializeResult => {
    const init = (params.initializationOptions ?? {}) as InitializationOptions & { settings?: unknown };
    fallbackSettings = init.settings ?? {};
    editor = init.editor;
    const caps = params.capabilities;
    hasConfiguration = !!caps.workspace?.configuration;
    canRegisterWatchers = !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration;
    canRegisterConfiguration = !!caps.workspace?.didChangeConfiguration?.dynamicRegistration;
    hasFolderEvents = !!caps.workspace?.workspaceFolders;
    annotations = !!caps.workspace?.workspaceEdit?.changeAnnotationSupport;
    canRenameFolders = !!caps.workspace?.workspaceEdit?.documentChanges && !!caps.workspace.workspaceEdit.resourceOperations?.includes('rename');
    folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    const envMs = (name: string) => {
      const v = Number(process.env[name]);
      return process.env[name] && Number.isFinite(v) && v >= 0 ? v : undefined;
    };
    index = new WorkspaceIndex(
      {
        openLibrary: deps.openLibrary ?? openLibrary,
        settings: settingsFor,
        publish: (uri, diagnostics, version) => {
          // Messages are written in order: the last one written means every one before it is.
          lastPublish = connection.sendDiagnostics({ uri, diagnostics, version }).catch(() => undefined);
        },
        written: () => lastPublish,
        progress: (title) => connection.window.createWorkDoneProgress().then((r) => {
          r.begin(title, 0, undefined, true);
          return r;
        }),
        status: (status) => void connection.sendNotification(IndexStatusNotification, withLoop(status)),
        href: (code) => `${docsHref}#${code}`,
        pairCacheStorage: (dir) => ({ read: () => readPairCache(dir, log), write: (cache) => writePairCache(dir, cache, log) }),
        log,
      },
      {
        init,
        debounceMs: deps.debounceMs ?? envMs('SKILL_ROUTER_DEBOUNCE_MS'),
        semanticDelayMs: deps.semanticDelayMs ?? envMs('SKILL_ROUTER_SEMANTIC_DELAY_MS'),
        recheckDelayMs: deps.recheckDelayMs ?? envMs('SKILL_ROUTER_RECHECK_MS'),
      },
    );
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        completionProvider: { resolveProvider: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        documentLinkProvider: { resolveProvider: false },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'skill-router', version: SERVER_VERSION },
    };
  });

  connection.onInitialized(
    safe('initialized', undefined, async () => {
      if (canRegisterConfiguration) await connection.client.register(DidChangeConfigurationNotification.type, { section: 'skillRouter' });
      if (canRegisterWatchers) {
        await connection.client.register(DidChangeWatchedFilesNotification.type, {
          watchers: [{ globPattern: '**/SKILL.md' }, { globPattern: '**/*', kind: WatchKind.Delete }],
        });
      }
      if (hasFolderEvents) {
        connection.workspace.onDidChangeWorkspaceFolders(
          safe('workspace folders', undefined, (e) => index!.changeFolders(e.added.map((f) => f.uri), e.removed.map((f) => f.uri))),
        );
      }
      log.info(`Skill Router ${SERVER_VERSION} (Node ${process.version}), ${folders.length} workspace folder(s)${editor ? `, ${editor.name} ${editor.version}` : ''}`);
      await index!.changeFolders(folders, []);
    }),
  );

  connection.onDidChangeConfiguration(safe('configuration', undefined, () => index?.settingsChanged()));
  connection.onDidChangeWatchedFiles(safe('watched files', undefined, (p) => index?.filesChanged(p.changes)));

  documents.onDidChangeContent((e) => {
    try {
      if (isSkillDocument(e.document.uri, e.document.languageId)) {
        index?.documentChanged(e.document.uri, e.document.getText(), e.document.version, e.document.languageId);
      }
    } catch (err) {
      log.error(`change of ${e.document.uri}: ${errorMessage(err)}`);
    }
  });
  documents.onDidClose((e) => {
    try {
      if (isSkillDocument(e.document.uri, e.document.languageId)) index?.documentClosed(e.document.uri);
    } catch (err) {
      log.error(`close of ${e.document.uri}: ${errorMessage(err)}`);
    }
  });

  connection.onHover(
    safe('hover', null, (p) => {
      const doc = documents.get(p.textDocument.uri);
      if (!doc || !index || !isSkillDocument(doc.uri, doc.languageId)) return null;
      return frontMatterHover(doc.getText(), p.position, index.settingsFor(doc.uri).profiles);
    }),
  );

  connection.onCompletion(
    safe('completion', [], (p) => {
      const doc = documents.get(p.textDocument.uri);
      if (!doc || !index || !isSkillDocument(doc.uri, doc.languageId)) return [];
      return frontMatterCompletions(doc.getText(), p.position, index.settingsFor(doc.uri).profiles);
    }),
  );

  connection.onCodeAction(
    safe('code actions', [], (p) => {
      const doc = documents.get(p.textDocument.uri);
      if (!doc || !index || !isSkillDocument(doc.uri, doc.languageId)) return [];
      return codeActions({
        uri: doc.uri,
        text: doc.getText(),
        range: p.range,
        diagnostics: p.context.diagnostics,
        folderName: index.folderNameOf(doc.uri),
        annotations,
      });
    }),
  );

  /** The library of an open SKILL.md, for the reference requests (references.ts). */
  const referenceView = (uri: string) => {
    const doc = documents.get(uri);
    return doc && index && isSkillDocument(doc.uri, doc.languageId) ? index.referenceView(doc.uri, doc.getText()) : undefined;
  };
  /** A refused rename is said to the user as the request's error; anything else is logged too. */
  const renameError = (err: unknown): never => {
    if (err instanceof RenameRefused) throw new ResponseError(LSPErrorCodes.RequestFailed, err.message);
    log.error(`rename failed: ${errorMessage(err)}${err instanceof Error && err.stack ? `\n${err.stack}` : ''}`);
    throw new ResponseError(LSPErrorCodes.RequestFailed, `rename failed: ${errorMessage(err)}`);
  };
  connection.onDefinition(safe('definition', null, (p) => {
    const view = referenceView(p.textDocument.uri);
    return view ? definition(view, p.position) : null;
  }));
  connection.onReferences(safe('references', [], (p) => {
    const view = referenceView(p.textDocument.uri);
    return view ? references(view, p.position, p.context.includeDeclaration) : [];
  }));
  connection.onDocumentLinks(safe('document links', [], (p) => {
    const view = referenceView(p.textDocument.uri);
    return view ? documentLinks(view) : [];
  }));
  connection.onPrepareRename((p) => {
    const view = referenceView(p.textDocument.uri);
    try {
      return view ? prepareRename(view, p.position) : null;
    } catch (err) {
      return renameError(err);
    }
  });
  connection.onRenameRequest(async (p) => {
    const view = referenceView(p.textDocument.uri);
    try {
      return view ? await rename(view, p.position, p.newName, canRenameFolders) : null;
    } catch (err) {
      return renameError(err);
    }
  });

  connection.onRequest(RouteRequest, async (params, token) => {
    if (!index) throw new ResponseError(-32002, 'the server is not initialised');
    if (typeof params?.query !== 'string' || !params.query.trim()) throw new ResponseError(-32602, 'route needs a non-empty "query"');
    if (params.view !== undefined && !isRouteView(params.view)) throw new ResponseError(-32602, 'route "view" must be { client: claude-code|codex|copilot|cursor, of?: SKILL.md URIs }');
    try {
      return await index.route(params, token);
    } catch (err) {
      // vscode-jsonrpc answers a cancelled request like any other: the handler says it was cancelled.
      if (err instanceof CancelledError || token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'route cancelled');
      log.warn(`route: ${errorMessage(err)}`);
      throw new ResponseError(-32803, errorMessage(err));
    }
  });
  connection.onRequest(IndexStatusRequest, () => {
    if (!index) throw new ResponseError(-32002, 'the server is not initialised');
    return withLoop(index.status());
  });
  connection.onRequest(ListingRequest, () => {
    if (!index) throw new ResponseError(-32002, 'the server is not initialised');
    return index.listing();
  });
  connection.onNotification(CancelIndexNotification, safe('cancel index', undefined, () => index?.cancelIndexing()));
  connection.onRequest(ReindexRequest, async () => {
    if (!index) throw new ResponseError(-32002, 'the server is not initialised');
    await index.reindex();
    return withLoop(index.status());
  });

  connection.onShutdown(async () => {
    loop.dispose();
    await index?.dispose().catch((err) => log.error(`shutdown: ${errorMessage(err)}`));
  });

  documents.listen(connection);
}
