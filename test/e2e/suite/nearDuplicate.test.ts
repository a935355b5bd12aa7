/** Inside a real VS Code: the extension starts its server, and a fixture SKILL.md shows the near-duplicate warning. */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { actionsOffering, codeOf, diagnosticsOf } from './waits';

const WS = process.env.E2E_WS!;
const file = (id: string) => vscode.Uri.file(path.join(WS, id, 'SKILL.md'));

/** The near-duplicate warnings only: an open skill may also get skill.unreachable (information) once its checks run. */
const nearDuplicates = (ds: vscode.Diagnostic[]) => ds.filter((d) => codeOf(d) === 'skill.near-duplicate');

describe('Skill Router in VS Code', () => {
  it('activates in a workspace with SKILL.md files and registers its commands', async () => {
    const ext = vscode.extensions.getExtension('skill-router.skill-router');
    assert.ok(ext, 'extension found');
    // The runner installs the .vsix into this folder; the copy there is the one under test.
    if (process.env.E2E_EXTENSIONS_DIR) assert.ok(ext.extensionPath.startsWith(process.env.E2E_EXTENSIONS_DIR), ext.extensionPath);
    await ext.activate();
    assert.ok(ext.isActive);
    const commands = await vscode.commands.getCommands(true);
    for (const c of ['skillRouter.reindex', 'skillRouter.restartServer', 'skillRouter.openQueryPanel', 'skillRouter.showOutput']) {
      assert.ok(commands.includes(c), c);
    }
  });

  it('starts its language server with the memory settings the benches measure', function () {
    if (process.platform !== 'linux') this.skip(); // read from /proc
    const ext = vscode.extensions.getExtension('skill-router.skill-router')!;
    const module = path.join(ext.extensionPath, 'dist', 'server.js');
    const read = (pid: string, what: string) => {
      try {
        return readFileSync(`/proc/${pid}/${what}`, 'utf8').split('\0');
      } catch {
        return [];
      }
    };
    const server = readdirSync('/proc').find((pid) => /^\d+$/.test(pid) && read(pid, 'cmdline').includes(module));
    assert.ok(server, `a process running ${module}`);
    const args = read(server, 'cmdline');
    // src/shared/serverProcess.ts SERVER_NODE_ARGS, before the module.
    assert.ok(args.indexOf('--max-semi-space-size=8') >= 0 && args.indexOf('--max-semi-space-size=8') < args.indexOf(module), args.join(' '));
    assert.ok(read(server, 'environ').includes('MALLOC_ARENA_MAX=2'), 'MALLOC_ARENA_MAX=2 in its environment');
  });

  it('shows the near-duplicate warning on an opened SKILL.md, pointing at its twin', async () => {
    const doc = await vscode.workspace.openTextDocument(file('csv-tidy'));
    await vscode.window.showTextDocument(doc);
    const [d] = nearDuplicates(await diagnosticsOf(doc.uri, (x) => nearDuplicates(x).length > 0));
    assert.equal(d.severity, vscode.DiagnosticSeverity.Warning);
    assert.match(d.message, /Near-duplicate of "csv-cleaner"/);
    assert.match(d.message, /\d of \d requests written for csv-(tidy|cleaner) also rank csv-(tidy|cleaner) in the top 3/, 'routing evidence from the built-in model');
    assert.equal(d.relatedInformation?.[0].location.uri.fsPath, file('csv-cleaner').fsPath);
    assert.ok(typeof d.code === 'object' && d.code.target.toString().includes('diagnostics.md'));
  });

  it('editing one twin clears the warning on the other', async () => {
    const doc = await vscode.workspace.openTextDocument(file('csv-cleaner'));
    const editor = await vscode.window.showTextDocument(doc);
    const line = doc.lineAt(2);
    await editor.edit((e) => e.replace(line.range, 'description: Compose release notes from merged pull requests, grouped by label.'));
    await diagnosticsOf(file('csv-tidy'), (x) => nearDuplicates(x).length === 0);
    await vscode.commands.executeCommand('undo');
    await diagnosticsOf(file('csv-tidy'), (x) => nearDuplicates(x).length === 1);
  });

  it('offers the quick fixes and explains front-matter keys on hover', async () => {
    const uri = file('csv-tidy');
    const [d] = nearDuplicates(await diagnosticsOf(uri, (x) => nearDuplicates(x).length === 1));
    const ignore = 'Ignore skill.near-duplicate about "csv-cleaner" in this skill (comment)';
    const titles = (await actionsOffering(uri, d.range, ignore)).map((a) => a.title);
    assert.ok(titles.includes(ignore), titles.join('; '));
    // The twins share their words, so there is no line that would tell them apart to offer.
    assert.ok(!titles.some((t) => t.startsWith('Add to the description')), titles.join('; '));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(2, 3));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /\*\*description\*\*: Required/);
  });

  it('applies the quick fix that sets name to the folder name', async () => {
    const doc = await vscode.workspace.openTextDocument(file('k8s-deploy'));
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.replace(doc.lineAt(1).range, 'name: k8s-deployer'));
    const title = 'Set name to the folder name "k8s-deploy"';
    const actions = await actionsOffering(doc.uri, doc.lineAt(1).range, title);
    const fix = actions.find((a) => a.title === title);
    assert.ok(fix?.edit, `offered: ${actions.map((a) => a.title).join('; ')}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.equal(doc.lineAt(1).text, 'name: k8s-deploy');
    await doc.save();
  });

  it('runs its commands without error', async () => {
    await vscode.commands.executeCommand('skillRouter.showOutput');
    await vscode.commands.executeCommand('skillRouter.reindex');
  });
});
