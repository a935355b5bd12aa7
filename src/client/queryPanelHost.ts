/**
 * The query panel hook: `skillRouter.openQueryPanel` lands here and opens the "test a query"
 * webview panel (src/client/queryPanel.ts), which routes through the language server.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ListingRequest, RouteRequest } from '../shared/protocol';
import { QueryPanel, type QueryPanelDeps } from './queryPanel';

export interface QueryPanelHost {
  context: vscode.ExtensionContext;
  /** The running language client; undefined while the server is down. */
  client(): LanguageClient | undefined;
  log: vscode.LogOutputChannel;
  /** The profiles the server chose for the workspace (the folder's default when the setting is empty). */
  serverProfiles(): readonly string[];
}

/** What the panel needs from the extension: requests go to the running language client. */
function panelDeps(host: QueryPanelHost): QueryPanelDeps {
  return {
    extensionUri: host.context.extensionUri,
    memento: host.context.workspaceState,
    log: host.log,
    serverProfiles: host.serverProfiles,
    route: async (params, token) => {
      const client = host.client();
      if (!client?.isRunning()) throw new Error('the Skill Router server is not running; run "Skill Router: Restart Server"');
      return client.sendRequest(RouteRequest, params, token);
    },
    listing: async () => {
      const client = host.client();
      if (!client?.isRunning()) throw new Error('the Skill Router server is not running');
      return client.sendRequest(ListingRequest);
    },
  };
}

/** Opens the query panel beside the editor (or reveals it); routes `initialQuery` when given. */
export async function openQueryPanel(host: QueryPanelHost, initialQuery?: string): Promise<void> {
  await QueryPanel.show(panelDeps(host), initialQuery);
}

/**
 * Brings the panel back after a window reload; call once during activation (with the
 * `onWebviewPanel:skillRouter.queryPanel` activation event).
 */
export function registerQueryPanelSerializer(host: QueryPanelHost): vscode.Disposable {
  return QueryPanel.registerSerializer(panelDeps(host));
}
