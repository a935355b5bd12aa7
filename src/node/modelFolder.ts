/**
 * Reads a model folder (Hugging Face layout plus `manifest.json`) into something that runs: the
 * validated manifest, the sha256 checks, the tokenizer with truncation and padding, and the
 * onnxruntime session with its feeds. `OnnxEmbedder` and `OnnxCrossEncoder` are thin over this.
 *
 * Every failure while loading is a `ModelLoadError` that names the file and says what to do, so the
 * caller can switch semantic checks off and show why instead of dying.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import type * as Ort from 'onnxruntime-node';
import { SILENT_LOGGER, type Logger } from '../core/types';
import type { ModelManifest } from './modelManifest';

/**
 * onnxruntime, required on first use: the CLI's and the server's main thread never open a model
 * (the encoder runs in its worker), and loading the runtime there took ~18 ms of every `route`.
 */
function ort(): typeof Ort {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('onnxruntime-node') as typeof Ort;
}

/**
 * A model folder could not be used. `file` is the path at fault, `fix` what the user should do;
 * `problem` is kept apart so the error can be rebuilt on the other side of a worker thread.
 */
export class ModelLoadError extends Error {
  constructor(readonly problem: string, readonly file: string, readonly fix: string) {
    super(`${file}: ${problem} ${fix}`);
    this.name = 'ModelLoadError';
  }
}

export type ModelDevice = 'cpu' | 'cuda' | 'dml' | 'coreml';

export interface ModelLoadOptions {
  /** Execution provider to try first; anything but `cpu` falls back to the CPU with a warning. */
  device?: ModelDevice;
  /** onnxruntime intra-op threads (default: onnxruntime's choice). */
  threads?: number;
  logger?: Logger;
  /** Check the files listed in the manifest's `sha256` (default true). */
  verifyHash?: boolean;
  /** Texts or pairs per onnxruntime run (default 16). */
  batchSize?: number;
  /**
   * Whether this is a folder `npm run build:models` writes; it decides which fix errors suggest.
   * Default: true when the folder sits in `models/` at the root of the skill-router package.
   */
  builtIn?: boolean;
}

const MANIFEST = 'manifest.json';
const POOLINGS = ['none', 'mean', 'cls', 'last-token'] as const;
const KINDS = ['bi-encoder', 'cross-encoder'] as const;
const DEFAULT_BATCH = 16;

/** The fixes an error suggests; built-in models are rebuilt, user models re-downloaded or edited. */
interface Fixes {
  builtIn: boolean;
  /** A file in the folder is missing, damaged or does not match its hash. */
  file: string;
  /** manifest.json is missing or wrong. */
  manifest: string;
}

function fixesFor(builtIn: boolean): Fixes {
  const rebuild = 'Rebuild it with `npm run build:models`.';
  return builtIn
    ? { builtIn, file: rebuild, manifest: rebuild }
    : {
        builtIn,
        file: 'Re-download the file (or fix its path in manifest.json).',
        manifest: 'Fix manifest.json; docs/models.md lists the fields.',
      };
}

/** Folders at `<package root>/models/<id>`, the root being the skill-router package. */
async function isBuiltInFolder(folder: string): Promise<boolean> {
  const parent = dirname(resolve(folder));
  if (basename(parent) !== 'models') return false;
  try {
    const pkg = JSON.parse(await readFile(join(dirname(parent), 'package.json'), 'utf8')) as { name?: unknown };
    return pkg.name === 'skill-router';
  } catch {
    return false;
  }
}

async function kindOf(path: string): Promise<'file' | 'dir' | 'missing'> {
  try {
    return (await stat(path)).isDirectory() ? 'dir' : 'file';
  } catch {
    return 'missing';
  }
}

function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  // onnxruntime appends its native log (with terminal colours) to some messages; the first line says it.
  return text.split('\n')[0].replace(/\u001b\[[0-9;]*m/g, '').trim();
}

async function readJson(file: string, fix: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ModelLoadError(`cannot be read (${messageOf(err)}).`, file, fix);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new ModelLoadError(`is not valid JSON (${messageOf(err)}).`, file, fix);
  }
}

/**
 * Reads and validates `<folder>/manifest.json`, and checks that the ONNX and tokenizer files it
 * names exist. Cross-encoder manifests may leave `pooling` out; it is returned as `none`.
 */
export async function readManifest(folder: string, options: { builtIn?: boolean } = {}): Promise<ModelManifest> {
  const fixes = fixesFor(options.builtIn ?? (await isBuiltInFolder(folder)));
  return (await readManifestWith(folder, fixes)).manifest;
}

async function readManifestWith(folder: string, fixes: Fixes): Promise<{ manifest: ModelManifest; file: string }> {
  const dir = resolve(folder);
  const dirKind = await kindOf(dir);
  if (dirKind !== 'dir') {
    const problem = dirKind === 'missing' ? 'the model folder does not exist.' : 'is a file, not a model folder.';
    throw new ModelLoadError(problem, dir, fixes.builtIn ? fixes.file : 'Check the model path setting.');
  }
  const file = join(dir, MANIFEST);
  if ((await kindOf(file)) !== 'file') {
    throw new ModelLoadError(
      'is missing.',
      file,
      fixes.builtIn ? fixes.file : 'Write a manifest.json next to the model files; docs/models.md shows examples.',
    );
  }
  const manifest = validateManifest(await readJson(file, fixes.manifest), file, fixes.manifest);
  for (const field of ['onnx', 'tokenizer'] as const) {
    const path = resolve(dir, manifest[field]);
    if ((await kindOf(path)) !== 'file') {
      throw new ModelLoadError(`is missing (manifest.json \`${field}\`).`, path, fixes.file);
    }
  }
  return { manifest, file };
}

function validateManifest(raw: unknown, file: string, fix: string): ModelManifest {
  const bad = (field: string, expected: string): never => {
    const got = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>)[field] : undefined;
    const shown = got === undefined ? 'missing' : JSON.stringify(got);
    throw new ModelLoadError(`field \`${field}\` must be ${expected} (it is ${shown}).`, file, fix);
  };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ModelLoadError('must hold a JSON object.', file, fix);
  }
  const m = raw as Record<string, unknown>;
  const isString = (v: unknown): v is string => typeof v === 'string';
  const isCount = (v: unknown, min: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min;
  const optional = (field: string, ok: (v: unknown) => boolean, expected: string): void => {
    if (m[field] !== undefined && !ok(m[field])) bad(field, expected);
  };

  if (!isString(m.id) || m.id.trim() === '') bad('id', 'a non-empty string');
  if (!KINDS.includes(m.kind as never)) bad('kind', `one of ${KINDS.join(', ')}`);
  if (!isString(m.onnx) || m.onnx === '') bad('onnx', 'the ONNX file path, relative to the folder');
  if (!isString(m.tokenizer) || m.tokenizer === '') bad('tokenizer', 'the tokenizer.json path, relative to the folder');
  if (!isCount(m.maxTokens, 1)) bad('maxTokens', 'a positive integer');
  if (m.pooling === undefined && m.kind === 'cross-encoder') m.pooling = 'none';
  if (!POOLINGS.includes(m.pooling as never)) bad('pooling', `one of ${POOLINGS.join(', ')}`);
  optional('dims', (v) => isCount(v, 1), 'a positive integer');
  optional('normalize', (v) => typeof v === 'boolean', 'true or false');
  optional('collapseWhitespace', (v) => typeof v === 'boolean', 'true or false');
  optional('queryPrefix', isString, 'a string');
  optional('languages', (v) => Array.isArray(v) && v.length > 0 && v.every((x) => isString(x) && /^[a-z]{2,3}$/.test(x)), 'a list of language codes such as ["en", "zh"]');
  optional('passagePrefix', isString, 'a string');
  optional('output', (v) => isString(v) && v !== '', 'a graph output name');
  optional('padTokenId', (v) => isCount(v, 0), 'a non-negative integer');
  optional('license', isString, 'a string');
  optional('source', isString, 'a string');
  optional(
    'inputs',
    (v) =>
      v !== null &&
      typeof v === 'object' &&
      !Array.isArray(v) &&
      Object.entries(v as object).every(([k, name]) => ['ids', 'mask', 'typeIds'].includes(k) && isString(name) && name !== ''),
    'an object with graph input names under ids, mask and typeIds',
  );
  optional(
    'sha256',
    (v) =>
      v !== null &&
      typeof v === 'object' &&
      !Array.isArray(v) &&
      Object.values(v as object).every((h) => isString(h) && /^[0-9a-fA-F]{64}$/.test(h)),
    'an object mapping file paths to 64-digit hex sha256 digests',
  );
  return m as unknown as ModelManifest;
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function verifyHashes(dir: string, manifest: ModelManifest, fixes: Fixes): Promise<void> {
  for (const [rel, expected] of Object.entries(manifest.sha256 ?? {})) {
    const path = resolve(dir, rel);
    if ((await kindOf(path)) !== 'file') {
      throw new ModelLoadError('is missing (listed in manifest.json `sha256`).', path, fixes.file);
    }
    const actual = await sha256Of(path);
    if (actual !== expected.toLowerCase()) {
      throw new ModelLoadError(
        `sha256 mismatch: the file is ${actual}, manifest.json expects ${expected.toLowerCase()}; it is damaged or not the file the manifest describes.`,
        path,
        fixes.file,
      );
    }
  }
}

/** Collapses every whitespace run to one space and trims (USE-lite reads "\n" as unknown). */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Token ids of one text or one pair, special tokens included, at most `maxTokens` long. */
export interface Encoded {
  ids: number[];
  typeIds: number[];
}

/**
 * A Hugging Face `tokenizer.json` with the truncation the JS library leaves out: the text is
 * tokenized without special tokens, cut so that it fits `maxTokens` together with the special
 * tokens the post-processor adds ([CLS]/[SEP], an appended EOS...), then post-processed.
 */
export class TextTokenizer {
  private readonly singleSpecials: number;
  private readonly pairSpecials: number;
  private readonly unkId: number;

  private constructor(
    private readonly tokenizer: Tokenizer,
    readonly maxTokens: number,
    /** Id that pads short rows of a batch. */
    readonly padTokenId: number,
  ) {
    this.unkId = tokenizer.model?.unk_token_id ?? 0;
    this.singleSpecials = this.postProcess([], null).ids.length;
    this.pairSpecials = this.postProcess([], []).ids.length;
  }

  /**
   * Loads `file` (and `tokenizer_config.json` beside it, if there is one). `padTokenId` wins over
   * the tokenizer's own padding id, which wins over 0.
   */
  static async load(file: string, maxTokens: number, padTokenId: number | undefined, fix = fixesFor(false).file): Promise<TextTokenizer> {
    const json = await readJson(file, fix);
    if (json === null || typeof json !== 'object' || Array.isArray(json)) {
      throw new ModelLoadError('must hold a JSON object.', file, fix);
    }
    const spec = json as Record<string, unknown>;
    if (spec.model === null || typeof spec.model !== 'object') {
      throw new ModelLoadError('has no `model` section; it is not a Hugging Face tokenizer.json.', file, fix);
    }
    const configFile = join(dirname(file), 'tokenizer_config.json');
    const config = (await kindOf(configFile)) === 'file' ? await readJson(configFile, fix) : {};
    let tokenizer: Tokenizer;
    try {
      tokenizer = new Tokenizer(
        {
          normalizer: null,
          pre_tokenizer: null,
          post_processor: null,
          decoder: null,
          ...spec,
          added_tokens: Array.isArray(spec.added_tokens) ? spec.added_tokens : [],
        },
        config as object,
      );
    } catch (err) {
      throw new ModelLoadError(`cannot be used by @huggingface/tokenizers (${messageOf(err)}).`, file, fix);
    }
    const padding = spec.padding as { pad_id?: unknown } | null | undefined;
    const fromFile = typeof padding?.pad_id === 'number' ? padding.pad_id : undefined;
    return new TextTokenizer(tokenizer, maxTokens, padTokenId ?? fromFile ?? 0);
  }

  /** Special tokens the post-processor adds to one text. */
  get specialTokens(): number {
    return this.singleSpecials;
  }

  /** One text, truncated at the end. */
  encode(text: string): Encoded {
    const tokens = this.tokens(text).slice(0, Math.max(0, this.maxTokens - this.singleSpecials));
    return this.postProcess(tokens, null);
  }

  /**
   * A (query, passage) pair through the tokenizer's pair template. While the pair is too long the
   * longer side loses its last token; on a tie the passage does.
   */
  encodePair(first: string, second: string): Encoded {
    const a = this.tokens(first);
    const b = this.tokens(second);
    const budget = Math.max(0, this.maxTokens - this.pairSpecials);
    let na = a.length;
    let nb = b.length;
    if (na + nb > budget) {
      // Same result as removing one token at a time from the longer side.
      const short = Math.min(na, nb);
      if (short * 2 >= budget) {
        // Both sides end at half; an odd token stays with the first text, as ties cost the passage.
        na = Math.ceil(budget / 2);
        nb = budget - na;
      } else if (na > nb) {
        na = budget - nb;
      } else {
        nb = budget - na;
      }
    }
    return this.postProcess(a.slice(0, na), b.slice(0, nb));
  }

  private tokens(text: string): string[] {
    return this.tokenizer.tokenize(text, { add_special_tokens: false });
  }

  private postProcess(a: string[], b: string[] | null): Encoded {
    let tokens: string[];
    let typeIds: number[] | undefined;
    const processor = this.tokenizer.post_processor;
    if (processor) {
      const out = processor.post_process(a, b, true);
      tokens = out.tokens;
      typeIds = out.token_type_ids;
      // ByteLevel leaves the second text apart instead of joining it.
      if (b && out.tokens_pair) {
        typeIds = [...(typeIds ?? tokens.map(() => 0)), ...out.tokens_pair.map(() => 1)];
        tokens = [...tokens, ...out.tokens_pair];
      }
    } else {
      tokens = b ? [...a, ...b] : a;
      typeIds = [...a.map(() => 0), ...(b ?? []).map(() => 1)];
    }
    const ids = tokens.map((t) => this.tokenizer.token_to_id(t) ?? this.unkId);
    return { ids, typeIds: typeIds ?? ids.map(() => 0) };
  }
}

/** One onnxruntime run's output, with the attention mask of the rows that went in. */
export interface BatchOutput {
  data: Float32Array;
  dims: number[];
  /** Padded row length. */
  length: number;
  /** Row-major `rows x length`, 1 for real tokens. */
  mask: Uint8Array;
}

interface Feeds {
  ids: string;
  mask?: string;
  typeIds?: string;
  positions?: string;
}

/**
 * A loaded model folder: manifest, tokenizer and onnxruntime session. `run` pads rows to one
 * batch (right padding with the pad id) and returns the chosen output as float32.
 */
export class LoadedModel {
  private released = false;

  private constructor(
    readonly folder: string,
    readonly manifest: ModelManifest,
    readonly tokenizer: TextTokenizer,
    private readonly session: Ort.InferenceSession,
    private readonly feeds: Feeds,
    private readonly inputTypes: Map<string, string>,
    readonly output: string,
    readonly batchSize: number,
    readonly logger: Logger,
  ) {}

  /** Reads, verifies and opens `folder`; `kind` is what the caller can use. */
  static async load(folder: string, kind: ModelManifest['kind'], opts: ModelLoadOptions = {}): Promise<LoadedModel> {
    const logger = opts.logger ?? SILENT_LOGGER;
    const fixes = fixesFor(opts.builtIn ?? (await isBuiltInFolder(folder)));
    const dir = resolve(folder);
    const { manifest, file } = await readManifestWith(dir, fixes);
    if (manifest.kind !== kind) {
      throw new ModelLoadError(
        `describes a ${manifest.kind}, but it was loaded as a ${kind}.`,
        file,
        kind === 'bi-encoder' ? 'Choose a bi-encoder model for embeddings.' : 'Choose a cross-encoder model for reranking.',
      );
    }
    if (opts.verifyHash ?? true) await verifyHashes(dir, manifest, fixes);
    const tokenizerFile = resolve(dir, manifest.tokenizer);
    const tokenizer = await TextTokenizer.load(tokenizerFile, manifest.maxTokens, manifest.padTokenId, fixes.file);
    if (tokenizer.specialTokens >= manifest.maxTokens) {
      throw new ModelLoadError(
        `maxTokens ${manifest.maxTokens} leaves no room for text next to the ${tokenizer.specialTokens} special tokens.`,
        file,
        'Raise `maxTokens`.',
      );
    }
    const onnxFile = resolve(dir, manifest.onnx);
    const session = await openSession(onnxFile, opts, logger, manifest.id, fixes);
    try {
      const feeds = resolveFeeds(session, manifest, file, onnxFile);
      const output = resolveOutput(session, manifest, file);
      const inputTypes = new Map<string, string>();
      for (const meta of session.inputMetadata) {
        if (meta.isTensor) inputTypes.set(meta.name, meta.type);
      }
      const batchSize = Math.max(1, Math.floor(opts.batchSize ?? DEFAULT_BATCH));
      return new LoadedModel(dir, manifest, tokenizer, session, feeds, inputTypes, output, batchSize, logger);
    } catch (err) {
      await session.release();
      throw err;
    }
  }

  get onnxFile(): string {
    return resolve(this.folder, this.manifest.onnx);
  }

  get manifestFile(): string {
    return join(this.folder, MANIFEST);
  }

  /** Runs one batch of encoded rows. */
  async run(rows: Encoded[]): Promise<BatchOutput> {
    if (this.released) throw new Error(`${this.manifest.id}: the model was disposed`);
    const length = Math.max(1, ...rows.map((r) => r.ids.length));
    const n = rows.length * length;
    const ids = new Array<number>(n).fill(this.tokenizer.padTokenId);
    const typeIds = new Array<number>(n).fill(0);
    const positions = new Array<number>(n).fill(0);
    const mask = new Uint8Array(n);
    rows.forEach((row, r) => {
      row.ids.forEach((id, t) => {
        ids[r * length + t] = id;
        typeIds[r * length + t] = row.typeIds[t] ?? 0;
        positions[r * length + t] = t;
        mask[r * length + t] = 1;
      });
    });
    const shape = [rows.length, length];
    const inputs: Record<string, Ort.Tensor> = { [this.feeds.ids]: this.tensor(this.feeds.ids, ids, shape) };
    if (this.feeds.mask) inputs[this.feeds.mask] = this.tensor(this.feeds.mask, Array.from(mask), shape);
    if (this.feeds.typeIds) inputs[this.feeds.typeIds] = this.tensor(this.feeds.typeIds, typeIds, shape);
    if (this.feeds.positions) inputs[this.feeds.positions] = this.tensor(this.feeds.positions, positions, shape);
    const result = await this.session.run(inputs, [this.output]);
    const out = result[this.output];
    return { data: toFloat32(out, this.output), dims: [...out.dims], length, mask };
  }

  /** `run` at load time: a failure means the graph does not fit the manifest, so it is a ModelLoadError. */
  async probe(rows: Encoded[]): Promise<BatchOutput> {
    try {
      return await this.run(rows);
    } catch (err) {
      throw new ModelLoadError(
        `onnxruntime failed on a probe input (${messageOf(err)}).`,
        this.onnxFile,
        `Check that it is a ${this.manifest.kind} and that manifest.json \`inputs\` and \`output\` match its graph.`,
      );
    }
  }

  async dispose(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await this.session.release();
  }

  private tensor(name: string, values: number[], shape: number[]): Ort.Tensor {
    if (this.inputTypes.get(name) === 'int32') return new (ort().Tensor)('int32', Int32Array.from(values), shape);
    return new (ort().Tensor)('int64', BigInt64Array.from(values, (v) => BigInt(v)), shape);
  }
}

async function openSession(path: string, opts: ModelLoadOptions, logger: Logger, id: string, fixes: Fixes): Promise<Ort.InferenceSession> {
  const base: Ort.InferenceSession.SessionOptions = { graphOptimizationLevel: 'all' };
  if (opts.threads !== undefined && opts.threads > 0) base.intraOpNumThreads = Math.floor(opts.threads);
  const device = opts.device ?? 'cpu';
  if (device !== 'cpu') {
    try {
      const session = await ort().InferenceSession.create(path, { ...base, executionProviders: [device] });
      logger.info(`${id}: running on ${device}`);
      return session;
    } catch (err) {
      logger.warn(`${id}: cannot use ${device} (${messageOf(err)}); falling back to the CPU`);
    }
  }
  try {
    return await ort().InferenceSession.create(path, { ...base, executionProviders: ['cpu'] });
  } catch (err) {
    throw new ModelLoadError(`onnxruntime cannot load it (${messageOf(err)}); the file is damaged or not an ONNX model.`, path, fixes.file);
  }
}

function resolveFeeds(session: Ort.InferenceSession, manifest: ModelManifest, manifestFile: string, onnxFile: string): Feeds {
  const graph = new Set(session.inputNames);
  const listed = session.inputNames.join(', ');
  const named = manifest.inputs ?? {};
  const pick = (field: 'ids' | 'mask' | 'typeIds', fallback: string, required: boolean): string | undefined => {
    const name = named[field];
    if (name !== undefined) {
      if (!graph.has(name)) {
        throw new ModelLoadError(
          `inputs.${field} is "${name}", but the graph has no such input (its inputs: ${listed}).`,
          manifestFile,
          `Set inputs.${field} to one of the graph's inputs.`,
        );
      }
      return name;
    }
    if (graph.has(fallback)) return fallback;
    if (required) {
      throw new ModelLoadError(
        `the graph has no "${fallback}" input (its inputs: ${listed}).`,
        manifestFile,
        `Name the token-id input in manifest.json \`inputs.${field}\`.`,
      );
    }
    return undefined;
  };
  const feeds: Feeds = {
    ids: pick('ids', 'input_ids', true) as string,
    mask: pick('mask', 'attention_mask', false),
    typeIds: pick('typeIds', 'token_type_ids', false),
    // Decoder exports (Qwen3 and the like) take positions; right padding makes them 0..n-1.
    positions: graph.has('position_ids') ? 'position_ids' : undefined,
  };
  const fed = new Set(Object.values(feeds).filter((v): v is string => v !== undefined));
  const unfed = session.inputNames.filter((name) => !fed.has(name));
  if (unfed.length > 0) {
    throw new ModelLoadError(
      `the graph takes inputs Skill Router does not feed: ${unfed.join(', ')} (it feeds token ids, attention mask, token type ids and position ids).`,
      onnxFile,
      'Export the model without them (e.g. without past key values), or map them in manifest.json `inputs`.',
    );
  }
  return feeds;
}

function resolveOutput(session: Ort.InferenceSession, manifest: ModelManifest, manifestFile: string): string {
  const names = session.outputNames;
  if (manifest.output !== undefined) {
    if (!names.includes(manifest.output)) {
      throw new ModelLoadError(
        `output is "${manifest.output}", but the graph has no such output (its outputs: ${names.join(', ')}).`,
        manifestFile,
        'Set `output` to one of the graph outputs.',
      );
    }
    return manifest.output;
  }
  const preferred =
    manifest.kind === 'cross-encoder'
      ? ['logits']
      : manifest.pooling === 'none'
        ? ['embeddings', 'sentence_embedding']
        : ['last_hidden_state', 'token_embeddings'];
  return preferred.find((name) => names.includes(name)) ?? names[0];
}

function toFloat32(tensor: Ort.Tensor, name: string): Float32Array {
  const data = tensor.data;
  if (tensor.type === 'float32') return data as Float32Array;
  if (tensor.type === 'float64') return Float32Array.from(data as Float64Array);
  if (tensor.type === 'float16') return Float32Array.from(data as Uint16Array, halfToFloat);
  throw new Error(`output "${name}" is ${tensor.type}; Skill Router reads float32, float16 or float64 outputs`);
}

function halfToFloat(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}
