/**
 * A branch switch (issue 24): most SKILL.md files of a library change on disk at once, some go,
 * some are new, and the watcher reports them in one batch. The server re-reads the library in one
 * index run (not file by file), and the findings it then shows equal those of a fresh server
 * started on the new tree. At this scale (90 skills) the test checks correctness; the event-loop
 * stall of the same batch at corpus scale is measured by a bench, not asserted here.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FileChangeType, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { BATCH_REREAD } from '../../src/server/workspaceIndex';
import { removeDir, TestClient } from './lspClient';

const TOPICS = ['csv files', 'kubernetes deployments', 'pdf invoices', 'sql queries', 'react components', 'release notes', 'docker images', 'python packages', 'git history'];
const VERBS = ['clean', 'deploy', 'extract', 'tune', 'review', 'write', 'build', 'publish', 'summarise', 'audit'];

/** A skill's text on one branch; `broken` gives it front-matter findings. */
function skillText(i: number, branch: 'main' | 'feature'): string {
  const topic = TOPICS[(i + (branch === 'feature' ? 3 : 0)) % TOPICS.length];
  const verb = VERBS[(i * 7 + (branch === 'feature' ? 1 : 0)) % VERBS.length];
  const name = `skill-${i}`;
  const broken = branch === 'feature' ? i % 9 === 0 : i % 11 === 0;
  const description = broken ? `${verb}: ${topic}` : `${verb[0].toUpperCase()}${verb.slice(1)} ${topic} for a team; use when asked to ${verb} ${topic}.`;
  const front = broken ? `name: ${name}\ndescription: ${description}\ncolour: blue` : `name: ${name}\ndescription: ${JSON.stringify(description)}`;
  return `---\n${front}\n---\n# ${name}\n\nSteps to ${verb} ${topic}.\n`;
}

/** Diagnostics by file, without the empty lists a server publishes for files it cleared. */
function snapshot(c: TestClient, root: string): Record<string, Diagnostic[]> {
  const out: Record<string, Diagnostic[]> = {};
  for (const [file, p] of c.diagnostics) {
    if (!p.diagnostics.length) continue;
    out[path.relative(root, file)] = p.diagnostics.map((d) => ({ ...d, relatedInformation: d.relatedInformation?.map((r) => ({ ...r, location: { ...r.location, uri: path.relative(root, new URL(r.location.uri).pathname) } })) }));
  }
  return out;
}

describe('server: a branch switch that changes most skills at once', function () {
  this.timeout(120_000);
  let ws: string;
  const file = (i: number) => path.join(ws, `skill-${i}`, 'SKILL.md');

  before(() => {
    ws = mkdtempSync(path.join(tmpdir(), 'sr-ws-branch-'));
    for (let i = 0; i < 90; i++) {
      mkdirSync(path.dirname(file(i)), { recursive: true });
      writeFileSync(file(i), skillText(i, 'main'));
    }
  });
  after(() => removeDir(ws));

  it('re-reads the library in one batch, and its findings equal a fresh index of the new tree', async () => {
    const c = await TestClient.start({ folders: [ws], init: { model: { enabled: false } } });
    const changes: { file: string; type: FileChangeType }[] = [];
    try {
      await c.ready();
      // The switch: 80 skills rewritten, 5 gone, 5 new (skill-90 .. skill-94).
      for (let i = 0; i < 80; i++) {
        writeFileSync(file(i), skillText(i, 'feature'));
        changes.push({ file: file(i), type: FileChangeType.Changed });
      }
      for (let i = 85; i < 90; i++) {
        rmSync(path.dirname(file(i)), { recursive: true });
        changes.push({ file: file(i), type: FileChangeType.Deleted });
      }
      for (let i = 90; i < 95; i++) {
        mkdirSync(path.dirname(file(i)), { recursive: true });
        writeFileSync(file(i), skillText(i, 'feature'));
        changes.push({ file: file(i), type: FileChangeType.Created });
      }
      assert.ok(changes.length >= BATCH_REREAD);
      // Files written this instant are read again whatever their stamp; old times make both servers read the same.
      const hourAgo = new Date(Date.now() - 3_600_000);
      for (let i = 0; i < 95; i++) if (i < 85 || i >= 90) utimesSync(file(i), hourAgo, hourAgo);
      await c.filesChanged(changes);
      await c.waitFor(() => c.logs.some((l) => /\d+ changed files re-read as one batch/.test(l)), 'the batch re-read');
      // The status sent after that line, then the cross-skill checks it started.
      const seen = c.statuses.length;
      await c.waitFor(() => c.statuses.length > seen, 'the status after the batch');
      await c.ready();
    } catch (err) {
      await c.stop();
      throw err;
    }
    const after = snapshot(c, ws);
    assert.equal(await c.stop(), 0);

    const fresh = await TestClient.start({ folders: [ws], init: { model: { enabled: false } } });
    try {
      await fresh.ready();
      const expected = snapshot(fresh, ws);
      assert.ok(Object.keys(expected).length > 0, 'the new tree has findings to compare');
      assert.deepEqual(after, expected);
    } finally {
      assert.equal(await fresh.stop(), 0);
    }
  });
});
