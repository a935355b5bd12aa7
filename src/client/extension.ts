/**
 * The VS Code extension: starts the language server (all indexing and model work happens there),
 * registers the commands, shows the index state and listing budget in the status bar, and asks
 * for a restart when a setting the server reads at start-up changes.
 */
import * as path from 'node:path';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { LanguageClient, State, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import {
  CancelIndexNotification,
  IndexStatusNotification,
  ListingRequest,
  ReindexRequest,
  RESTART_SETTINGS,
  type IndexStatus,
  type InitializationOptions,
} from '../shared/protocol';
import { launcherScript, MCP_LAUNCHER, mcpConfigSnippet } from './mcpConfig';
import { openQueryPanel, registerQueryPanelSerializer, type QueryPanelHost } from './queryPanelHost';
import { IndexNotification } from './indexNotification';
import { listingPickItems, listingPickTitle } from './listingPick';
import { LISTING_COMMAND, overBudget, statusText, statusTooltip } from './statusText';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../shared/serverProcess';

const CLIENT_ID = 'skillRouter';
const DEVICES = ['cpu', 'cuda', 'dml', 'coreml'] as const;

let client: LanguageClient | undefined;

/** The model settings, read as the server needs them; workspace values count only in trusted workspaces. */
function modelOptions(): NonNullable<InitializationOptions['model']> {
  const cfg = vscode.workspace.getConfiguration('skillRouter.model');
  const trusted = vscode.workspace.isTrusted;
  const value = <T>(key: string, fallback: T): T => {
    if (trusted) return cfg.get<T>(key, fallback);
    const i = cfg.inspect<T>(key);
    return i?.globalValue ?? i?.defaultValue ?? fallback;
  };
  let folder = value<string>('folder', '').trim();
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (folder && !path.isAbsolute(folder) && root && trusted) folder = path.resolve(root, folder);
  const device = value<string>('device', 'cpu');
  return {
    enabled: value<boolean>('enabled', true),
    folder: folder || undefined,
    device: (DEVICES as readonly string[]).includes(device) ? (device as (typeof DEVICES)[number]) : 'cpu',
  };
}

class StatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('skillRouter.status', vscode.StatusBarAlignment.Left, 10);

  constructor() {
    this.item.name = 'Skill Router';
    this.item.command = 'skillRouter.openQueryPanel';
    this.item.text = '$(sync~spin) Skills';
    this.item.tooltip = 'Skill Router is starting';
    this.item.show();
  }

  /** The last status the server sent (the profiles it chose for the workspace, among others). */
  last: IndexStatus | null = null;

  update(s: IndexStatus): void {
    this.last = s;
    this.item.text = statusText(s);
    const tip = new vscode.MarkdownString(statusTooltip(s));
    tip.supportThemeIcons = true;
    // The tooltip links to the skills by listing cost; no other command runs from it.
    tip.isTrusted = { enabledCommands: [LISTING_COMMAND] };
    this.item.tooltip = tip;
    this.item.backgroundColor = s.state === 'error'
      ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : overBudget(s) ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  stopped(reason: string): void {
    this.item.text = '$(error) Skills: stopped';
    this.item.tooltip = `Skill Router: ${reason}. Run "Skill Router: Restart Server".`;
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
  }

  dispose(): void {
    this.item.dispose();
  }
}

async function startClient(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, status: StatusItem, notice: IndexNotification): Promise<LanguageClient> {
  const serverModule = context.asAbsolutePath(path.join('dist', 'server.js'));
  const env = { ...process.env, ...SERVER_ENV };
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: [...SERVER_NODE_ARGS], env } },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: [...SERVER_NODE_ARGS, '--nolazy', '--inspect=6011'], env } },
  };
  const storage = (context.storageUri ?? context.globalStorageUri).fsPath;
  const initializationOptions: InitializationOptions = {
    cacheDir: storage,
    model: modelOptions(),
    // What VS Code's own SKILL.md validator reports depends on its version (the server keeps the table).
    editor: { name: 'vscode', version: vscode.version },
    // One status item and one notification, drawn from the status: no work-done progress entry besides.
    progressFromStatus: true,
  };
  log.info(`starting the server: ${serverModule}; cache ${storage}; model ${JSON.stringify(initializationOptions.model)}`);
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { language: 'skill' },
      { language: 'markdown', pattern: '**/SKILL.md' },
    ],
    outputChannel: log,
    initializationOptions,
    diagnosticCollectionName: 'skill-router',
  };
  const c = new LanguageClient(CLIENT_ID, 'Skill Router', serverOptions, clientOptions);
  c.onDidChangeState((e) => {
    if (e.newState === State.Stopped) status.stopped('the server stopped');
  });
  await c.start();
  c.onNotification(IndexStatusNotification, (s) => {
    status.update(s);
    notice.update(s);
  });
  return c;
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('Skill Router', { log: true });
  const status = new StatusItem();
  const notice = new IndexNotification(() => void client?.sendNotification(CancelIndexNotification).catch(() => undefined));
  context.subscriptions.push(log, status, notice);
  const host: QueryPanelHost = { context, client: () => client, log, serverProfiles: () => status.last?.profiles ?? [] };
  // A launcher copied into an agent's MCP settings earlier now points at this version.
  const launcher = path.join(context.globalStorageUri.fsPath, MCP_LAUNCHER);
  if (fs.existsSync(launcher)) fs.promises.writeFile(launcher, launcherScript(context.extensionPath)).catch((err: Error) => log.warn(`MCP launcher: ${err.message}`));

  const restart = async () => {
    try {
      if (client) {
        const old = client;
        client = undefined;
        await old.stop().catch((err) => log.warn(`stopping the server: ${err instanceof Error ? err.message : err}`));
      }
      client = await startClient(context, log, status, notice);
    } catch (err) {
      reportFailure(log, status, err);
    }
  };

  context.subscriptions.push(
    registerQueryPanelSerializer(host),
    vscode.commands.registerCommand('skillRouter.reindex', async () => {
      if (!client?.isRunning()) return void vscode.window.showWarningMessage('The Skill Router server is not running.');
      const s = await client.sendRequest(ReindexRequest);
      void vscode.window.showInformationMessage(`Skill Router indexed ${s.skills} skills${s.timings.indexMs !== null ? ` in ${s.timings.indexMs} ms` : ''}.`);
    }),
    vscode.commands.registerCommand('skillRouter.restartServer', restart),
    vscode.commands.registerCommand('skillRouter.openQueryPanel', (query?: string) =>
      openQueryPanel(host, typeof query === 'string' ? query : undefined).catch((err) => {
        log.error(`query panel: ${err instanceof Error ? err.message : err}`);
        void vscode.window.showErrorMessage(`Skill Router: ${err instanceof Error ? err.message : err}`);
      })),
    vscode.commands.registerCommand('skillRouter.showOutput', () => log.show()),
    vscode.commands.registerCommand('skillRouter.copyMcpConfig', async () => {
      const folders = vscode.workspace.workspaceFolders ?? [];
      const folder = folders.length > 1 ? await vscode.window.showWorkspaceFolderPick({ placeHolder: 'The skill library the agent should search' }) : folders[0];
      if (!folder) return void vscode.window.showWarningMessage('Skill Router: open the folder of a skill library first.');
      // A launcher in global storage, not the versioned extension folder, which the next update removes.
      const launcher = path.join(context.globalStorageUri.fsPath, MCP_LAUNCHER);
      await fs.promises.mkdir(path.dirname(launcher), { recursive: true });
      await fs.promises.writeFile(launcher, launcherScript(context.extensionPath));
      await vscode.env.clipboard.writeText(mcpConfigSnippet(launcher, folder.uri.fsPath));
      void vscode.window.showInformationMessage(
        'Skill Router: MCP configuration copied. Paste it into .mcp.json (Claude Code) or .cursor/mcp.json (Cursor); in .vscode/mcp.json put the entry under "servers". It runs `node` (20 or later) from your PATH.',
      );
    }),
    vscode.commands.registerCommand('skillRouter.showListingCost', () => showListingCost(client)),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!RESTART_SETTINGS.some((s) => e.affectsConfiguration(s))) return;
      const pick = await vscode.window.showInformationMessage('Skill Router: the model settings apply after a server restart.', 'Restart Server');
      if (pick) await restart();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(async () => {
      const i = vscode.workspace.getConfiguration('skillRouter.model').inspect('folder');
      if (i?.workspaceValue === undefined && i?.workspaceFolderValue === undefined) return;
      const pick = await vscode.window.showInformationMessage('Skill Router: restart the server to use this workspace\'s model folder?', 'Restart Server');
      if (pick) await restart();
    }),
  );

  try {
    client = await startClient(context, log, status, notice);
  } catch (err) {
    reportFailure(log, status, err);
  }
}

/** The skills by listing cost, most expensive first; picking one opens its SKILL.md. */
async function showListingCost(c: LanguageClient | undefined): Promise<void> {
  if (!c?.isRunning()) return void vscode.window.showWarningMessage('The Skill Router server is not running.');
  const res = await c.sendRequest(ListingRequest);
  const items = listingPickItems(res);
  const pick = await vscode.window.showQuickPick(items, { title: listingPickTitle(res), placeHolder: 'Most expensive first: pick a skill to open its SKILL.md', matchOnDetail: true });
  if (pick) await vscode.window.showTextDocument(vscode.Uri.parse(pick.uri), { preview: true });
}

/** Activation failures reach the user, not just the log. */
function reportFailure(log: vscode.LogOutputChannel, status: StatusItem, err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  log.error(`the server did not start: ${message}`);
  status.stopped(`the server did not start (${message})`);
  void vscode.window.showErrorMessage(`Skill Router could not start its language server: ${message}`, 'Show Output').then((pick) => {
    if (pick) log.show();
  });
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
