/**
 * The real server wiring (`startServer`) in this process over a stream pair, with an in-memory
 * engine the test may wrap (hold its index, watch its routes): for tests of the request
 * handling around the engine, without a spawned server or a model.
 */
import { PassThrough } from 'node:stream';
import {
  createProtocolConnection,
  InitializedNotification,
  InitializeRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { createSkillService } from '../../src/core/route/skillService';
import { startServer } from '../../src/server/server';
import { IndexStatusNotification, type IndexStatus } from '../../src/shared/protocol';
import { MemoryWorkspace } from '../helpers/fakes';

export const FOLDER = 'file:///lib';

type Service = ReturnType<typeof createSkillService>;

export interface InProcessServer {
  client: ProtocolConnection;
  /** Resolves when every folder is indexed and no analysis runs. */
  ready: Promise<void>;
  /** Shuts the server down and closes both ends. */
  stop(): Promise<void>;
}

/**
 * Starts the server over `files` (path → SKILL.md text) in one folder, `wrap` given the engine
 * as it is opened, and initialises it with the model off. Resolves once `initialized` is sent.
 */
export async function startInProcess(files: ReadonlyMap<string, string>, wrap: (svc: Service) => Service = (svc) => svc): Promise<InProcessServer> {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const server = createConnection(ProposedFeatures.all, new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  startServer(server, {
    openLibrary: async (opts) => wrap(createSkillService({ root: opts.root, workspace: new MemoryWorkspace(new Map(files)), embedder: null, profiles: opts.profiles })),
  });
  server.listen();
  const client = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  const ready = new Promise<void>((resolve) => {
    client.onNotification(IndexStatusNotification, (s: IndexStatus) => {
      if (s.folders.length && s.folders.every((f) => f.state === 'ready') && !s.analysis) resolve();
    });
  });
  client.listen();
  await client.sendRequest(InitializeRequest.type, {
    processId: null,
    rootUri: FOLDER,
    workspaceFolders: [{ uri: FOLDER, name: 'lib' }],
    initializationOptions: { model: { enabled: false } },
    capabilities: {},
  });
  await client.sendNotification(InitializedNotification.type, {});
  return {
    client,
    ready,
    async stop() {
      await client.sendRequest(ShutdownRequest.type);
      client.dispose();
      server.dispose();
    },
  };
}
