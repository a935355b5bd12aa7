/**
 * Worker-thread side of `WorkerEmbedder` (bundled as embedWorker.js): loads the model with
 * `OnnxEmbedder.load` and answers embed requests, so onnxruntime's synchronous runs block this
 * thread instead of the caller's.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { CancelToken, Logger } from '../core/types';
import { OnnxEmbedder } from './onnxEmbedder';
import { toWireError, type EmbedWorkerData, type FromEmbedWorker, type ToEmbedWorker } from './workerEmbedder';

if (!parentPort) throw new Error('embedWorker.js runs in a worker thread started by WorkerEmbedder');
const port: MessagePort = parentPort;

const post = (msg: FromEmbedWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(msg, transfer);
const logAs = (level: keyof Logger) => (message: string) => post({ type: 'log', level, message });
const logger: Logger = { debug: logAs('debug'), info: logAs('info'), warn: logAs('warn'), error: logAs('error') };

/** Calls in progress, and those of them the caller has given up on. */
const running = new Set<number>();
const cancelled = new Set<number>();

const { folder, options } = workerData as EmbedWorkerData;
const loading = OnnxEmbedder.load(folder, { ...options, logger });
loading.then(
  (embedder) => post({ type: 'ready', info: embedder.info }),
  // The thread stays until the parent, having read why, terminates it: were it to end here, its
  // exit could reach the parent before this message, and the parent would say only "exited".
  (err: unknown) => post({ type: 'loadFailed', error: toWireError(err) }),
);

port.on('message', (msg: ToEmbedWorker) => {
  if (msg.type === 'embed') void embed(msg.id, msg.texts, msg.kind);
  else if (msg.type === 'cancel') {
    if (running.has(msg.id)) cancelled.add(msg.id);
  } else if (msg.type === 'dispose') void dispose();
});

async function embed(id: number, texts: string[], kind: 'query' | 'passage'): Promise<void> {
  running.add(id);
  // OnnxEmbedder reads the token between batches, where this thread also takes in cancel messages.
  const token: CancelToken = { get isCancellationRequested() { return cancelled.has(id); } };
  try {
    const vectors = await (await loading).embed(texts, kind, token);
    if (!cancelled.has(id)) post({ type: 'vectors', id, vectors }, buffersOf(vectors));
  } catch (err) {
    if (!cancelled.has(id)) post({ type: 'failed', id, error: toWireError(err) });
  } finally {
    running.delete(id);
    cancelled.delete(id);
  }
}

async function dispose(): Promise<void> {
  try {
    await (await loading).dispose();
  } catch (err) {
    logger.warn(`releasing the model: ${(err as Error).message}`);
  }
  port.close();
}

/** Each vector's buffer once (a transfer list must not repeat one). */
function buffersOf(vectors: Float32Array[]): ArrayBuffer[] {
  return [...new Set(vectors.map((v) => v.buffer as ArrayBuffer))];
}
