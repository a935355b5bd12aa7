/** The real server with the real default model (models/use-lite): near-duplicates routed with it, a warm reopen, and degrading when a model fails. */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { IndexStatusRequest } from '../../src/shared/protocol';
import { copyFixture, removeDir, TestClient } from './lspClient';

describe('server: with the built-in USE-lite model', function () {
  this.timeout(120_000);
  let ws: string;
  let cacheDir: string;
  const file = (id: string) => path.join(ws, id, 'SKILL.md');

  before(() => {
    ws = copyFixture('duplicates');
    cacheDir = mkdtempSync(path.join(tmpdir(), 'sr-cache-model-'));
  });
  after(() => {
    removeDir(ws);
    removeDir(cacheDir);
  });

  it('reports the near-duplicate from routing with the model and re-checks the twin on edit', async () => {
    const c = await TestClient.start({ folders: [ws], init: { cacheDir, model: { enabled: true } } });
    try {
      const s = await c.ready();
      assert.equal(s.model, 'use-lite-en@1');
      assert.equal(s.semanticDisabled, null);
      assert.equal(s.folders[0].embedded, 3);
      const [d] = await c.diagnosticsOf(file('csv-tidy'), (x) => x.length > 0);
      assert.equal(d.code, 'skill.near-duplicate');
      assert.match(d.message, /\d of \d requests written for csv-(tidy|cleaner) also rank csv-(tidy|cleaner) in the top 3/);
      const text = readFileSync(file('csv-cleaner'), 'utf8');
      await c.open(file('csv-cleaner'), text);
      // The skill made into another one: its description and its steps (a new description over the
      // old CSV steps still routes CSV requests to it by its body, and the pair stays).
      const repurposed = text
        .replace(/^description: .*$/m, 'description: Compose release notes from merged pull requests, grouped by label.')
        .replace(/\n# CSV cleaner[\s\S]*$/, '\n# Release notes\n\n1. List the pull requests merged since the last tag.\n2. Group them by label and write one line each.\n');
      assert.notEqual(repurposed, text);
      const v = await c.change(file('csv-cleaner'), repurposed);
      // The pair is gone once the cross-skill checks of the edit ran; the new description may also
      // earn the edited skill a reach finding, when the reach pass runs first.
      const paired = (x: { code?: string | number }[]) => x.some((d) => d.code === 'skill.near-duplicate');
      await c.diagnosticsOf(file('csv-cleaner'), (x, p) => p.version === v && !paired(x));
      await c.diagnosticsOf(file('csv-tidy'), (x) => !paired(x), 'the twin re-checked with the new vectors');
      const status = await c.conn.sendRequest(IndexStatusRequest);
      assert.ok(status.timings.lastDiagnosticsMs !== null && status.timings.lastUpdateMs !== null);
      await c.close(file('csv-cleaner'));
    } finally {
      assert.equal(await c.stop(), 0);
    }
  });

  it('reopens warm from the cache folder it was given', async () => {
    const c = await TestClient.start({ folders: [ws], init: { cacheDir, model: { enabled: true } } });
    try {
      const s = await c.ready();
      assert.deepEqual([s.folders[0].cached, s.folders[0].embedded], [3, 0]);
    } finally {
      assert.equal(await c.stop(), 0);
    }
  });

  it('degrades when the model cannot load: front-matter checks stay, semantic checks fall back, the status says why', async () => {
    const c = await TestClient.start({ folders: [ws], init: { cacheDir, model: { enabled: true, folder: path.join(ws, 'no-such-model') } } });
    try {
      const s = await c.ready();
      assert.equal(s.model, null);
      assert.match(s.semanticDisabled!, /no-such-model/);
      const [d] = await c.diagnosticsOf(file('csv-tidy'), (x) => x.length > 0);
      assert.equal(d.code, 'skill.near-duplicate', 'routing by words still finds the pair');
      const text = readFileSync(file('k8s-deploy'), 'utf8');
      await c.open(file('k8s-deploy'), text.replace('name: k8s-deploy', 'name: K8s-Deploy'));
      const own = await c.diagnosticsOf(file('k8s-deploy'), (x, p) => p.version === 1 && x.length > 0);
      assert.ok(own.some((x) => x.code === 'frontmatter.name-case'));
    } finally {
      assert.equal(await c.stop(), 0);
    }
  });
});
