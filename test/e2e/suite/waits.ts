/** Waiting for what the server publishes inside the real VS Code, shared by the e2e suites. */
import * as vscode from 'vscode';

/** Resolves with the diagnostics of `uri` once `ok` holds, re-checked on every diagnostics change. */
export function diagnosticsOf(uri: vscode.Uri, ok: (d: vscode.Diagnostic[]) => boolean): Promise<vscode.Diagnostic[]> {
  return new Promise((resolve) => {
    const check = () => {
      const d = vscode.languages.getDiagnostics(uri).filter((x) => x.source === 'skill-router');
      if (!ok(d)) return false;
      sub.dispose();
      resolve(d);
      return true;
    };
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === uri.toString())) check();
    });
    check();
  });
}

export const codeOf = (d: vscode.Diagnostic) => String(typeof d.code === 'object' ? d.code.value : d.code);

/**
 * The code actions offered at `range`, asked again (at most 10 times, 300 ms apart) until one is
 * titled `title`: VS Code hands the provider the markers it holds at that moment, and once in a
 * CI run it asked while the server was re-publishing the file's diagnostics and got none; in
 * another, the request was cancelled ("Canceled") as the markers changed under it, which is asked
 * again too.
 */
export async function actionsOffering(uri: vscode.Uri, range: vscode.Range, title: string): Promise<vscode.CodeAction[]> {
  let actions: vscode.CodeAction[] = [];
  for (let i = 0; i < 10; i++) {
    try {
      actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range);
    } catch (err) {
      if (!(err instanceof Error && err.message === 'Canceled') || i === 9) throw err;
      actions = [];
    }
    if (actions.some((a) => a.title === title)) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  return actions;
}
