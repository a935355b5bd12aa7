/**
 * `OnnxEmbedder` in a worker thread. onnxruntime-node runs a session synchronously on the thread
 * that calls it, so in-thread every embedding blocks the event loop: a cold index could not
 * analyse skills while they are embedded, and the language server answered nothing during a
 * query's or an edited skill's embedding. Here the worker owns the session and the main thread
 * only posts texts and receives vectors (their buffers transferred, not copied).
 *
 * The worker is `embedWorker.js`, bundled next to the bundles (dist/, and out/ for tests and
 * benches); see `embedWorkerFile`.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  CancelledError,
  SILENT_LOGGER,
  throwIfCancelled,
  type CancelToken,
  type Embedder,
  type EmbedderInfo,
  type Logger,
} from '../core/types';
import { ModelLoadError, type ModelLoadOptions } from './modelFolder';

/**
 * The worker's limits. onnxruntime-node's session creation takes stack in proportion to the
 * process's command line (seen with 1.30 on Linux): a request of 16,000 characters passed to
 * `skill-router route` crashed the worker (a segmentation fault) at Node's default worker stack,
 * 60,000 characters needed 64 MB and the longest argument Linux passes (128 KB) 128 MB. So with a
 * long command line the worker gets a stack to match; otherwise Node's default.
 */
export function workerLimits(argv: readonly string[] = [...process.execArgv, ...process.argv]): { stackSizeMb: number } | undefined {
  const bytes = argv.reduce((n, a) => n + Buffer.byteLength(a) + 1, 0);
  if (bytes < 8_000) return undefined;
  return { stackSizeMb: Math.min(512, 16 + Math.ceil(bytes / 1024) * 2) };
}

/** File name of the worker bundle (esbuild.mjs writes it, .vscodeignore ships it). */
export const EMBED_WORKER_FILE = 'embedWorker.js';

/** How often pending calls' tokens are read: `CancelToken` is a flag, not an event. */
const CANCEL_POLL_MS = 20;
/** How long `dispose` lets the worker release its session before it is terminated. */
const DISPOSE_GRACE_MS = 2_000;

/** What the worker is started with: the `OnnxEmbedder.load` arguments that can be cloned. */
export interface EmbedWorkerData {
  folder: string;
  options: Omit<ModelLoadOptions, 'logger'>;
}

/** An error sent across the thread boundary; a ModelLoadError keeps its parts. */
export interface WireError {
  name: string;
  message: string;
  stack?: string;
  problem?: string;
  file?: string;
  fix?: string;
}

export type ToEmbedWorker =
  | { type: 'embed'; id: number; texts: string[]; kind: 'query' | 'passage' }
  | { type: 'cancel'; id: number }
  | { type: 'dispose' };

export type FromEmbedWorker =
  | { type: 'log'; level: keyof Logger; message: string }
  | { type: 'ready'; info: EmbedderInfo }
  | { type: 'loadFailed'; error: WireError }
  | { type: 'vectors'; id: number; vectors: Float32Array[] }
  | { type: 'failed'; id: number; error: WireError };

export function toWireError(err: unknown): WireError {
  if (err instanceof ModelLoadError) {
    return { name: err.name, message: err.message, stack: err.stack, problem: err.problem, file: err.file, fix: err.fix };
  }
  if (err instanceof Error) return { name: err.name, message: err.message, stack: err.stack };
  return { name: 'Error', message: String(err) };
}

function fromWireError(wire: WireError): Error {
  let err: Error;
  if (wire.name === 'ModelLoadError' && wire.problem !== undefined && wire.file !== undefined && wire.fix !== undefined) {
    err = new ModelLoadError(wire.problem, wire.file, wire.fix);
  } else if (wire.name === 'CancelledError') {
    err = new CancelledError();
  } else {
    err = new Error(wire.message);
    err.name = wire.name;
  }
  // The worker's stack says where it failed; ours would only show the message handler.
  if (wire.stack) err.stack = wire.stack;
  return err;
}

/**
 * The worker bundle for the bundle running this code: next to it (dist/server.js, dist/cli.js) or
 * up to two folders above (out/bench/*.js, out/test/<suite>/*.test.js use out/embedWorker.js).
 * Undefined when it is not there.
 */
export function embedWorkerFile(): string | undefined {
  let dir = __dirname;
  for (let up = 0; up <= 2; up++) {
    const file = join(dir, EMBED_WORKER_FILE);
    if (existsSync(file)) return file;
    dir = dirname(dir);
  }
  return undefined;
}

interface Pending {
  resolve(vectors: Float32Array[]): void;
  reject(err: Error): void;
  token?: CancelToken;
}

export class WorkerEmbedder implements Embedder {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private loading?: { resolve(info: EmbedderInfo): void; reject(err: Error): void };
  private info_?: EmbedderInfo;
  /** Why calls are refused once the worker is gone (disposed, crashed, exited). */
  private stopped?: string;
  private poll?: NodeJS.Timeout;
  private closing?: Promise<void>;
  private recycling?: Promise<void>;
  /** Workers let go by `recycle`: their exit is not a failure. */
  private readonly retired = new WeakSet<Worker>();
  private worker: Worker;
  private exited: Promise<number>;

  private constructor(
    private readonly start: () => Worker,
    private readonly label: string,
    private readonly logger: Logger,
  ) {
    this.worker = start();
    this.exited = this.attach(this.worker);
  }

  /** Listens to `worker`; only the current worker's failure or exit stops the embedder. */
  private attach(worker: Worker): Promise<number> {
    worker.on('message', (msg: FromEmbedWorker) => this.receive(msg));
    // Without these listeners an error in the worker would be thrown in the main thread.
    const failed = (why: string) => {
      if (worker === this.worker && !this.retired.has(worker)) this.fail(why);
    };
    worker.on('error', (err) => failed(`the embedding worker failed (${err.message})`));
    worker.on('messageerror', (err) => failed(`the embedding worker sent a message that could not be read (${err.message})`));
    return new Promise((resolve) => {
      worker.on('exit', (code) => {
        failed(`the embedding worker exited (code ${code})`);
        resolve(code);
      });
    });
  }

  /**
   * Starts the worker and loads `folder` there with `OnnxEmbedder.load`: the same checks, and the
   * same `ModelLoadError` (file and fix) when they fail. Worker log lines go to `opts.logger`.
   */
  static async load(folder: string, opts: ModelLoadOptions = {}): Promise<WorkerEmbedder> {
    const { logger = SILENT_LOGGER, ...options } = opts;
    const file = embedWorkerFile();
    if (!file) throw new Error(`${EMBED_WORKER_FILE} is missing next to ${__filename}; rebuild with \`node esbuild.mjs\``);
    const data: EmbedWorkerData = { folder, options };
    const embedder = new WorkerEmbedder(() => new Worker(file, { workerData: data, resourceLimits: workerLimits() }), folder, logger);
    try {
      embedder.info_ = await embedder.loaded();
    } catch (err) {
      await embedder.worker.terminate();
      throw err;
    }
    embedder.settle();
    return embedder;
  }

  /** The current worker's model, once its load is answered. */
  private loaded(): Promise<EmbedderInfo> {
    return new Promise<EmbedderInfo>((resolve, reject) => (this.loading = { resolve, reject }));
  }

  /**
   * Replaces the worker with a fresh one (the model loaded again): onnxruntime keeps the memory its
   * largest batches took for the life of its session, ~50-110 MB after a cold index's passages,
   * which requests never need again. The old worker answers the calls it has, then goes before
   * the new one loads (the two are never held together); calls made meanwhile wait for the new
   * one (~0.5 s). A fresh worker that cannot load stops the embedder, as a crash would.
   */
  recycle(): Promise<void> {
    if (this.stopped || this.closing) return Promise.resolve();
    this.recycling ??= (async () => {
      while (this.pending.size) await new Promise((r) => setTimeout(r, CANCEL_POLL_MS));
      if (this.stopped || this.closing) return;
      const old = this.worker;
      this.retired.add(old);
      this.post({ type: 'dispose' });
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([this.exited, new Promise((resolve) => (grace = setTimeout(resolve, DISPOSE_GRACE_MS)))]);
      clearTimeout(grace);
      await old.terminate();
      if (this.stopped || this.closing) return;
      this.worker = this.start();
      this.exited = this.attach(this.worker);
      try {
        await this.loaded();
      } catch (err) {
        this.fail(`the embedding worker could not start afresh (${(err as Error).message})`);
        await this.worker.terminate();
      }
      this.settle();
    })().finally(() => (this.recycling = undefined));
    return this.recycling;
  }

  get info(): EmbedderInfo {
    if (!this.info_) throw new Error(`${this.label}: the model is not loaded`);
    return this.info_;
  }

  /**
   * Embeds `texts` in the worker. A cancelled `token` rejects the call with `CancelledError`
   * within ~20 ms; the worker stops at its next batch and its result is dropped.
   */
  async embed(texts: string[], kind: 'query' | 'passage', token?: CancelToken): Promise<Float32Array[]> {
    throwIfCancelled(token);
    if (this.recycling) await this.recycling;
    throwIfCancelled(token);
    if (this.stopped) throw new Error(`${this.info.id}: ${this.stopped}`);
    if (texts.length === 0) return [];
    const id = this.nextId++;
    const vectors = new Promise<Float32Array[]>((resolve, reject) => this.pending.set(id, { resolve, reject, token }));
    this.worker.ref();
    this.post({ type: 'embed', id, texts, kind });
    if (token) this.poll ??= setInterval(() => this.checkCancelled(), CANCEL_POLL_MS);
    return vectors;
  }

  /** Lets the worker release its session, then terminates it; pending calls are rejected. */
  dispose(): Promise<void> {
    this.closing ??= (async () => {
      const stillRunning = !this.stopped;
      this.fail('the embedder was disposed');
      if (!stillRunning) return;
      this.worker.ref();
      this.post({ type: 'dispose' });
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([this.exited, new Promise((resolve) => (grace = setTimeout(resolve, DISPOSE_GRACE_MS)))]);
      clearTimeout(grace);
      await this.worker.terminate();
    })();
    return this.closing;
  }

  private post(msg: ToEmbedWorker): void {
    this.worker.postMessage(msg);
  }

  private receive(msg: FromEmbedWorker): void {
    switch (msg.type) {
      case 'log':
        this.logger[msg.level](msg.message);
        return;
      case 'ready':
        this.loading?.resolve(msg.info);
        this.loading = undefined;
        return;
      case 'loadFailed':
        this.loading?.reject(fromWireError(msg.error));
        this.loading = undefined;
        return;
      case 'vectors':
      case 'failed': {
        const call = this.pending.get(msg.id);
        if (!call) return; // cancelled meanwhile
        this.pending.delete(msg.id);
        if (msg.type === 'vectors') call.resolve(msg.vectors);
        else call.reject(fromWireError(msg.error));
        this.settle();
        return;
      }
    }
  }

  /** The worker is gone or going: every waiting and later call is refused with `reason`. */
  private fail(reason: string): void {
    if (this.stopped) return;
    this.stopped = reason;
    const prefix = this.info_?.id ?? this.label;
    this.loading?.reject(new Error(`${prefix}: ${reason} while loading the model`));
    this.loading = undefined;
    for (const call of this.pending.values()) call.reject(new Error(`${prefix}: ${reason}`));
    this.pending.clear();
    this.settle();
  }

  private checkCancelled(): void {
    for (const [id, call] of this.pending) {
      if (!call.token?.isCancellationRequested) continue;
      this.pending.delete(id);
      this.post({ type: 'cancel', id });
      call.reject(new CancelledError());
    }
    this.settle();
  }

  /** An idle worker must not keep the process alive (the CLI exits when its work is done). */
  private settle(): void {
    if (![...this.pending.values()].some((call) => call.token)) {
      clearInterval(this.poll);
      this.poll = undefined;
    }
    if (this.pending.size === 0 && !this.closing) this.worker.unref();
  }
}
