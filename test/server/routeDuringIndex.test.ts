/**
 * Requests sent while the first index runs (issue 24): the real server wiring (`startServer`) in
 * this process over a stream pair, with an in-memory engine whose first index is held until the
 * test lets it go. Twenty `skillRouter/route` requests are sent meanwhile, some cancelled by the
 * client: every one is answered, with a ranking or with RequestCancelled, and none is lost.
 */
import { strict as assert } from 'node:assert';
import { CancellationTokenSource, LSPErrorCodes, ResponseError, type ProtocolConnection } from 'vscode-languageserver-protocol/node';
import { RouteRequest, type RouteResponse } from '../../src/shared/protocol';
import { skill } from '../helpers/fakes';
import { startInProcess, type InProcessServer } from './inProcessServer';

const REQUESTS = 20;

describe('server: route requests during the first index', () => {
  let lsp: InProcessServer;
  let client: ProtocolConnection;
  let releaseIndex: () => void = () => undefined;
  let indexEntered: Promise<void>;
  let ready: Promise<void>;
  let routed = 0;

  before(async () => {
    const files = new Map<string, string>([
      ['csv-cleaner/SKILL.md', skill('csv-cleaner', 'Clean messy CSV files: fix delimiters and drop duplicate rows.')],
      ['k8s-deploy/SKILL.md', skill('k8s-deploy', 'Deploy services to Kubernetes with Helm charts.')],
      ['pdf-extract/SKILL.md', skill('pdf-extract', 'Extract text and tables from PDF files.')],
    ]);
    const held = new Promise<void>((resolve) => (releaseIndex = resolve));
    let entered: () => void = () => undefined;
    indexEntered = new Promise<void>((resolve) => (entered = resolve));
    lsp = await startInProcess(files, (svc) => {
      const index = svc.index.bind(svc);
      svc.index = async (o) => {
        entered();
        await held;
        return index(o);
      };
      const route = svc.route.bind(svc);
      svc.route = async (query, o) => {
        routed++;
        return route(query, o);
      };
      return svc;
    });
    client = lsp.client;
    ready = lsp.ready;
  });

  after(async () => {
    releaseIndex();
    await lsp.stop();
  });

  it('answers every one of 20 requests sent while the first index runs, with a ranking or as cancelled', async () => {
    await indexEntered; // the first index is running, and held
    type Outcome = { kind: 'result'; response: RouteResponse } | { kind: 'cancelled' } | { kind: 'error'; error: unknown };
    const cancelled = new Set<number>();
    const sources: CancellationTokenSource[] = [];
    const answers: Promise<Outcome>[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const source = new CancellationTokenSource();
      sources.push(source);
      const query = i % 2 ? 'clean a messy csv file' : 'deploy to kubernetes with helm';
      answers.push(
        client.sendRequest(RouteRequest, { query, k: 1 }, source.token).then(
          (response): Outcome => ({ kind: 'result', response }),
          (error: unknown): Outcome =>
            error instanceof ResponseError && error.code === LSPErrorCodes.RequestCancelled ? { kind: 'cancelled' } : { kind: 'error', error },
        ),
      );
    }
    // A quarter are cancelled by the client while they wait for the index.
    for (let i = 0; i < REQUESTS; i += 4) {
      cancelled.add(i);
      sources[i].cancel();
    }
    // The cancelled ones are answered before the index is let go: they do not wait for it.
    const early = await Promise.all([...cancelled].map((i) => answers[i]));
    for (const o of early) assert.equal(o.kind, 'cancelled');
    assert.equal(routed, 0, 'nothing was routed before the index was ready');
    releaseIndex();
    const outcomes = await Promise.all(answers);
    await ready;
    assert.equal(outcomes.length, REQUESTS);
    outcomes.forEach((o, i) => {
      if (cancelled.has(i)) {
        assert.equal(o.kind, 'cancelled', `request ${i}`);
        return;
      }
      assert.equal(o.kind, 'result', `request ${i}: ${o.kind === 'error' ? String(o.error) : o.kind}`);
      const expected = i % 2 ? 'csv-cleaner' : 'k8s-deploy';
      assert.equal((o as { response: RouteResponse }).response.results[0]?.skillId, expected, `request ${i}`);
    });
    assert.equal(routed, REQUESTS - cancelled.size, 'each request not cancelled was routed once');
  });
});
