/**
 * Inside a real VS Code (code-server 4.100.3): go to definition from a reference to the named
 * skill, and a rename from the front-matter `name` applied by VS Code itself, folder included
 * (VS Code's client advertises file renames in workspace edits).
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

const WS = process.env.E2E_WS!;

function skill(folder: string, text: string): vscode.Uri {
  const file = path.join(WS, folder, 'SKILL.md');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return vscode.Uri.file(file);
}

const doc = (uri: vscode.Uri) => vscode.workspace.textDocuments.find((d) => d.uri.fsPath === uri.fsPath)!;

/** Asks until the server answers with something (it answers nothing while the new skills are being indexed). */
async function until<T>(ask: () => Thenable<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await ask();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`no answer: ${what}`);
}

describe('Skill Router in VS Code: references between skills', () => {
  before(async () => {
    await vscode.extensions.getExtension('skill-router.skill-router')!.activate();
  });

  it('goes to the named skill and renames it with its references and folder', async () => {
    const target = skill('invoice-ocr', '---\nname: invoice-ocr\ndescription: Read supplier invoices from scans with OCR. Use for scanned invoices.\n---\n\n# Invoice OCR\n');
    const user = skill('expense-claims', '---\nname: expense-claims\ndescription: File expense claims with receipts. Use for reimbursements.\n---\n\n# Expense claims\n\nScan receipts with `invoice-ocr` first.\n');
    // Both opened: a file written behind the editor's back reaches the server only through the
    // file watcher, which code-server here does not run for files the test writes.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(target));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(user));
    const at = new vscode.Position(7, 'Scan receipts with `invoice'.length);
    const defs = await until(
      () => vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', user, at),
      (d) => (d?.length ?? 0) > 0,
      'definition',
    );
    const uri = 'targetUri' in defs[0] ? defs[0].targetUri : defs[0].uri;
    assert.equal(uri.fsPath, target.fsPath);

    const nameAt = new vscode.Position(1, 'name: inv'.length);
    const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', target, nameAt, 'invoice-scan');
    assert.ok(edit, 'a rename edit');
    const parts = edit.entries().map(([u, e]) => `${path.relative(WS, u.fsPath)}: ${e.map((x) => x.newText).join(',')}`);
    assert.ok(await vscode.workspace.applyEdit(edit), `applied: ${parts.join('; ')}`);
    const moved = path.join(WS, 'invoice-scan', 'SKILL.md');
    assert.ok(existsSync(moved) && !existsSync(target.fsPath), 'the folder moved');
    // The edits are in the editor's buffers (unsaved, as after any rename), at the new path.
    const renamed = await vscode.workspace.openTextDocument(vscode.Uri.file(moved));
    assert.equal(renamed.lineAt(1).text, 'name: invoice-scan');
    assert.equal(doc(user).lineAt(7).text, 'Scan receipts with `invoice-scan` first.');
    assert.ok(await renamed.save());
    assert.match(readFileSync(moved, 'utf8'), /^---\nname: invoice-scan\n/);
  });

  it('a reference one edit from a skill gets "did you mean" and the quick fix makes it right', async () => {
    const target = skill('receipt-parser', '---\nname: receipt-parser\ndescription: Parse shop receipts into line items. Use for receipts.\n---\n\n# Receipt parser\n');
    const user = skill('travel-claims', '---\nname: travel-claims\ndescription: File travel claims with receipts. Use for trips.\n---\n\n# Travel claims\n\nRun `receipt-parsr` on each receipt first.\n');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(target));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(user));
    const broken = () => vscode.languages.getDiagnostics(user).filter((d) => d.code === 'skill.broken-reference' || (typeof d.code === 'object' && d.code.value === 'skill.broken-reference'));
    const [d] = await until(async () => broken(), (ds) => ds.length > 0, 'the broken reference');
    assert.match(d.message, /receipt-parser/);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', user, d.range, vscode.CodeActionKind.QuickFix.value);
    const fix = actions.find((a) => a.title === "Replace with 'receipt-parser'");
    assert.ok(fix?.edit, `the quick fix: ${actions.map((a) => a.title).join(' | ')}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.equal(doc(user).lineAt(7).text, 'Run `receipt-parser` on each receipt first.');
    await until(async () => broken(), (ds) => ds.length === 0, 'the finding gone after the fix');
  });
});
