/**
 * "Ready" once routing works (issue 24): the real server wiring in this process, an in-memory
 * engine whose library-wide pair scan is held. The folder is reported ready before any skill's
 * diagnostics are published, with the cross-skill checks shown due; a request sent then is routed
 * while the scan is still held; every skill is then published with its own findings, and the
 * near-duplicate warning follows once the scan is let go.
 */
import { strict as assert } from 'node:assert';
import { PublishDiagnosticsNotification, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { IndexStatusNotification, RouteRequest, type IndexStatus } from '../../src/shared/protocol';
import { skill } from '../helpers/fakes';
import { startInProcess, type InProcessServer } from './inProcessServer';

const FILLER = 40;

describe('server: ready before the diagnostics and the cross-skill checks', () => {
  let lsp: InProcessServer;
  let releaseIndex: () => void = () => undefined;
  let releaseScan: () => void = () => undefined;
  let scanEntered: Promise<void>;
  const events: ({ kind: 'status'; status: IndexStatus } | { kind: 'publish'; params: PublishDiagnosticsParams })[] = [];
  let wake: () => void = () => undefined;
  const until = async <T>(find: () => T | undefined, what: string): Promise<T> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 200);
      });
    }
  };

  before(async () => {
    const files = new Map<string, string>([
      ['k8s-deploy/SKILL.md', skill('k8s-deploy', 'Deploy services to a Kubernetes cluster with Helm charts and roll back failed releases.', '# Rolling back a failed release')],
      ['helm-release/SKILL.md', skill('helm-release', 'Ship a release to Kubernetes with Helm, upgrade it in place and undo a rollout that fails its checks.', '# Rolling back a failed release')],
      ['pdf-extract/SKILL.md', skill('pdf-extract', 'Extract text and tables from PDF files.')],
    ]);
    for (let i = 0; i < FILLER; i++) files.set(`topic-${i}/SKILL.md`, skill(`topic-${i}`, `Answer questions about topic number ${i} and its glossary entry ${i}.`));
    const indexHeld = new Promise<void>((resolve) => (releaseIndex = resolve));
    const scanHeld = new Promise<void>((resolve) => (releaseScan = resolve));
    let entered: () => void = () => undefined;
    scanEntered = new Promise<void>((resolve) => (entered = resolve));
    lsp = await startInProcess(files, (svc) => {
      const index = svc.index.bind(svc);
      svc.index = async (o) => {
        await indexHeld; // until the test listens
        return index(o);
      };
      const pairFindings = svc.pairFindings.bind(svc);
      svc.pairFindings = async (id, run) => {
        if (id === undefined) {
          entered();
          await scanHeld;
        }
        return pairFindings(id, run);
      };
      return svc;
    });
    lsp.client.onNotification(IndexStatusNotification, (status: IndexStatus) => {
      events.push({ kind: 'status', status });
      wake();
    });
    lsp.client.onNotification(PublishDiagnosticsNotification.type, (params) => {
      events.push({ kind: 'publish', params });
      wake();
    });
    releaseIndex();
  });

  after(async () => {
    releaseScan();
    await lsp.stop();
  });

  it('says ready first, routes while the checks are held, then publishes every skill and the checks', async () => {
    const readyAt = await until(() => {
      const i = events.findIndex((e) => e.kind === 'status' && e.status.folders.length > 0 && e.status.folders.every((f) => f.state === 'ready'));
      return i >= 0 ? i : undefined;
    }, 'the ready status');
    const ready = events[readyAt] as { status: IndexStatus };
    assert.equal(events.slice(0, readyAt).filter((e) => e.kind === 'publish').length, 0, 'no skill was published before the ready status');
    assert.ok(ready.status.analysis, 'the cross-skill checks are shown due at ready');
    assert.equal(ready.status.analysis.total, FILLER + 3);

    await scanEntered;
    const r = await lsp.client.sendRequest(RouteRequest, { query: 'pull the tables out of a PDF', k: 1 });
    assert.equal(r.results[0]?.skillId, 'pdf-extract');

    const published = (file: string) => events.filter((e): e is { kind: 'publish'; params: PublishDiagnosticsParams } => e.kind === 'publish' && e.params.uri.endsWith(`/${file}/SKILL.md`));
    await until(() => (new Set(events.flatMap((e) => (e.kind === 'publish' ? [e.params.uri] : []))).size === FILLER + 3 ? true : undefined), 'every skill published');
    assert.deepEqual(published('helm-release').flatMap((e) => e.params.diagnostics.map((d) => d.code)), [], 'no pair finding before the scan ran');
    const lastStatus = events.filter((e) => e.kind === 'status').at(-1) as { status: IndexStatus };
    assert.ok(lastStatus.status.analysis, 'the checks are still due while the scan is held');

    releaseScan();
    await until(() => (published('helm-release').some((e) => e.params.diagnostics.some((d) => d.code === 'skill.near-duplicate')) ? true : undefined), 'the near-duplicate warning');
    await until(() => {
      const s = events.filter((e) => e.kind === 'status').at(-1) as { status: IndexStatus } | undefined;
      return s && s.status.analysis === null ? true : undefined;
    }, 'the checks done');
  });
});
