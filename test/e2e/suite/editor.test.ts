/**
 * Inside a real VS Code (code-server 4.100.3): the checks VS Code does not make itself are ours,
 * whatever `reportBuiltInChecks` says, and a YAML mistake is explained and quick-fixed.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { actionsOffering, codeOf, diagnosticsOf } from './waits';

const WS = process.env.E2E_WS!;

/** Writes a skill the fixture does not have (a folder of its own: no twin in the fixture). */
function skill(folder: string, text: string): vscode.Uri {
  const file = path.join(WS, folder, 'SKILL.md');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return vscode.Uri.file(file);
}

describe('Skill Router in VS Code: what VS Code reports, and YAML mistakes', () => {
  before(async () => {
    await vscode.extensions.getExtension('skill-router.skill-router')!.activate();
  });

  it('reports name-mismatch and unknown-key with reportBuiltInChecks off: VS Code 1.100 reports neither itself', async () => {
    assert.match(vscode.version, /^1\.100\./);
    assert.equal(vscode.workspace.getConfiguration('skillRouter').get('diagnostics.reportBuiltInChecks'), false);
    const uri = skill('report-builder', '---\nname: report-maker\ndescription: Build weekly status reports from issue trackers.\ntags: [reports]\n---\n\n# Reports\n');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    // skill.unreachable (information) may follow once the skill's cross-skill checks run: not this test's.
    const own = (x: vscode.Diagnostic[]) => x.filter((y) => codeOf(y) !== 'skill.unreachable');
    const d = own(await diagnosticsOf(uri, (x) => own(x).length >= 2));
    assert.deepEqual(d.map(codeOf).sort(), ['frontmatter.name-mismatch', 'frontmatter.unknown-key']);
    // The only markers on the file are ours: nothing else reports on a SKILL.md here.
    assert.deepEqual(vscode.languages.getDiagnostics(uri).filter((x) => x.source !== 'skill-router'), []);
  });

  it('explains an unquoted ": " at its column and quotes the value with the quick fix', async () => {
    const line = 'description: Create and edit Word (.docx) documents: headings, styles, tables, tracked changes and comments.';
    const uri = skill('docx-writer', '---\nname: docx-writer\ndescription: Create and edit Word documents.\n---\n\n# Word\n');
    const doc = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(doc);
    // Typed into the open buffer: what the server checks is this edit, whatever the file watcher saw.
    await editor.edit((e) => e.replace(doc.lineAt(2).range, line));
    const [d] = (await diagnosticsOf(uri, (x) => x.some((y) => codeOf(y) === 'frontmatter.invalid-yaml'))).filter((y) => codeOf(y) === 'frontmatter.invalid-yaml');
    assert.equal(d.message, "front matter is not valid YAML: the description contains ': ', which YAML reads as a nested key; put the value in quotes or use `description: >-`");
    assert.equal(d.range.start.line, 2);
    assert.equal(d.range.start.character, line.indexOf(': headings'));
    const actions = await actionsOffering(uri, d.range, 'Put the description in double quotes');
    const fix = actions.find((a) => a.title === 'Put the description in double quotes');
    assert.ok(fix?.edit, `offered: ${actions.map((a) => a.title).join('; ')}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.equal(doc.lineAt(2).text, 'description: "Create and edit Word (.docx) documents: headings, styles, tables, tracked changes and comments."');
    await diagnosticsOf(uri, (x) => x.every((y) => codeOf(y) === 'skill.unreachable'));
    await doc.save();
  });
});
