/**
 * The real server wiring (`startServer`) in this process over a stream pair, with an in-memory
 * engine whose route can be held until the client cancels: a cancelled `skillRouter/route` reaches
 * the engine as a cancelled token and is answered with the LSP RequestCancelled error.
 */
import { strict as assert } from 'node:assert';
import { CancellationTokenSource, LSPErrorCodes, ResponseError, type CancellationToken, type ProtocolConnection } from 'vscode-languageserver-protocol/node';
import type { CancelToken } from '../../src/core/types';
import { RouteRequest } from '../../src/shared/protocol';
import { skill } from '../helpers/fakes';
import { startInProcess, type InProcessServer } from './inProcessServer';

/** Resolves once the connection's token is cancelled (a token without the event never is). */
function cancelled(token: CancelToken | undefined): Promise<void> {
  const events = token as Partial<CancellationToken> | undefined;
  return new Promise((resolve) => events?.onCancellationRequested?.(() => resolve()));
}

describe('server: route cancellation', () => {
  let lsp: InProcessServer;
  let client: ProtocolConnection;
  /** While set, the engine's route waits for its token to be cancelled before it ranks. */
  let hold = false;
  const seen: { token: CancelToken | undefined; cancelledAtRank?: boolean }[] = [];
  let entered: (token: CancelToken | undefined) => void = () => undefined;

  before(async () => {
    const files = new Map<string, string>([
      ['csv-cleaner/SKILL.md', skill('csv-cleaner', 'Clean messy CSV files: fix delimiters and drop duplicate rows.')],
      ['k8s-deploy/SKILL.md', skill('k8s-deploy', 'Deploy services to Kubernetes with Helm charts.')],
    ]);
    lsp = await startInProcess(files, (svc) => {
      const route = svc.route.bind(svc);
      svc.route = async (query, o) => {
        const call: (typeof seen)[number] = { token: o?.token };
        seen.push(call);
        entered(o?.token);
        if (hold && o?.token) await cancelled(o.token);
        call.cancelledAtRank = o?.token?.isCancellationRequested ?? false;
        return route(query, o);
      };
      return svc;
    });
    client = lsp.client;
    await lsp.ready;
  });

  after(() => lsp.stop());

  it('answers a route that nobody cancels, and the engine gets the request token', async () => {
    const r = await client.sendRequest(RouteRequest, { query: 'clean a messy csv file', k: 1 });
    assert.equal(r.results[0].skillId, 'csv-cleaner');
    assert.ok(seen[seen.length - 1].token, 'the engine got a token');
    assert.equal(seen[seen.length - 1].cancelledAtRank, false);
  });

  it('a route cancelled while the engine is busy answers RequestCancelled, and the engine saw the cancellation', async () => {
    hold = true;
    const inEngine = new Promise<CancelToken | undefined>((resolve) => (entered = resolve));
    const source = new CancellationTokenSource();
    const answer = client.sendRequest(RouteRequest, { query: 'deploy to kubernetes' }, source.token);
    const token = await inEngine;
    assert.ok(token, 'the engine got the request token');
    source.cancel(); // the client sends $/cancelRequest
    await assert.rejects(answer, (err: unknown) => {
      assert.ok(err instanceof ResponseError, String(err));
      assert.equal(err.code, LSPErrorCodes.RequestCancelled);
      return true;
    });
    assert.equal(seen[seen.length - 1].cancelledAtRank, true);
    hold = false;
  });
});
