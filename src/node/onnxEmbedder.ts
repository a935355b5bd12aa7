/**
 * A bi-encoder from any model folder with a `manifest.json` (the built-in USE-lite, e5, bge, gte,
 * Qwen3-Embedding...), run on onnxruntime-node. See docs/models.md for the manifest.
 */
import { throwIfCancelled, type CancelToken, type Embedder, type EmbedderInfo } from '../core/types';
import { collapseWhitespace, LoadedModel, ModelLoadError, type BatchOutput, type ModelLoadOptions } from './modelFolder';

export { ModelLoadError, readManifest, type ModelDevice, type ModelLoadOptions } from './modelFolder';
export { OnnxCrossEncoder } from './onnxCrossEncoder';

const PROBE = 'probe';

export class OnnxEmbedder implements Embedder {
  private constructor(
    private readonly model: LoadedModel,
    readonly info: EmbedderInfo,
  ) {}

  /**
   * Loads the folder and runs one probe text, so a wrong output, shape or `dims` fails here with
   * a `ModelLoadError` rather than at the first request.
   */
  static async load(folder: string, opts: ModelLoadOptions = {}): Promise<OnnxEmbedder> {
    const model = await LoadedModel.load(folder, 'bi-encoder', opts);
    try {
      const { manifest } = model;
      const probe = await model.probe([model.tokenizer.encode(PROBE)]);
      const { manifestFile } = model;
      const rank = manifest.pooling === 'none' ? 2 : 3;
      if (probe.dims.length !== rank) {
        const hint =
          rank === 2
            ? 'Set `pooling` to mean, cls or last-token, or pick an output that holds sentence vectors.'
            : 'Set `pooling` to none, or pick an output that holds token states.';
        throw new ModelLoadError(
          `output "${model.output}" has shape [${probe.dims.join(', ')}], which pooling "${manifest.pooling}" cannot use (it needs ${rank} dimensions).`,
          manifestFile,
          hint,
        );
      }
      const dims = probe.dims[probe.dims.length - 1];
      if (manifest.dims !== undefined && manifest.dims !== dims) {
        throw new ModelLoadError(`dims is ${manifest.dims}, but the model outputs ${dims}-dimensional vectors.`, manifestFile, `Set \`dims\` to ${dims}.`);
      }
      model.logger.info(`${manifest.id}: loaded from ${model.folder} (${dims} dims, ${manifest.maxTokens} tokens, ${manifest.pooling} pooling)`);
      return new OnnxEmbedder(model, { id: manifest.id, dims, maxTokens: manifest.maxTokens, ...(manifest.languages ? { languages: manifest.languages } : {}) });
    } catch (err) {
      await model.dispose();
      throw err;
    }
  }

  /**
   * Embeds `texts` in batches, shortest first so rows of a batch pad little. A text with no tokens
   * at all gets a zero vector. Throws `CancelledError` between batches once `token` is cancelled.
   */
  async embed(texts: string[], kind: 'query' | 'passage', token?: CancelToken): Promise<Float32Array[]> {
    throwIfCancelled(token);
    const { manifest, tokenizer, batchSize } = this.model;
    const prefix = (kind === 'query' ? manifest.queryPrefix : manifest.passagePrefix) ?? '';
    const rows = texts.map((text) => tokenizer.encode(prefix + (manifest.collapseWhitespace ? collapseWhitespace(text) : text)));
    const vectors = texts.map(() => new Float32Array(this.info.dims));
    const order = rows
      .map((_, i) => i)
      .filter((i) => rows[i].ids.length > 0)
      .sort((a, b) => rows[a].ids.length - rows[b].ids.length);
    for (let start = 0; start < order.length; start += batchSize) {
      if (start > 0) throwIfCancelled(token);
      const batch = order.slice(start, start + batchSize);
      const out = await this.model.run(batch.map((i) => rows[i]));
      this.checkShape(out, batch.length);
      batch.forEach((i, row) => vectors[i].set(this.pool(out, row)));
    }
    if (manifest.normalize ?? true) vectors.forEach(normalize);
    return vectors;
  }

  async dispose(): Promise<void> {
    await this.model.dispose();
  }

  /** Pooling indexes the output by our padded length and `dims`; a graph that disagrees would give garbage. */
  private checkShape(out: BatchOutput, rows: number): void {
    const expected = this.model.manifest.pooling === 'none' ? [rows, this.info.dims] : [rows, out.length, this.info.dims];
    if (out.dims.length !== expected.length || out.dims.some((d, i) => d !== expected[i])) {
      throw new Error(`${this.info.id}: output "${this.model.output}" has shape [${out.dims.join(', ')}], expected [${expected.join(', ')}]`);
    }
  }

  private pool(out: BatchOutput, row: number): Float32Array {
    const dims = this.info.dims;
    const { data, length, mask } = out;
    const pooling = this.model.manifest.pooling;
    if (pooling === 'none') return data.subarray(row * dims, (row + 1) * dims);
    const base = row * length * dims;
    const tokenAt = (t: number): Float32Array => data.subarray(base + t * dims, base + (t + 1) * dims);
    if (pooling === 'cls') return tokenAt(0);
    if (pooling === 'last-token') {
      // The last real token, found from the mask so that either padding side works.
      let last = length - 1;
      while (last > 0 && mask[row * length + last] === 0) last--;
      return tokenAt(last);
    }
    const sum = new Float32Array(dims);
    let count = 0;
    for (let t = 0; t < length; t++) {
      if (mask[row * length + t] === 0) continue;
      const state = tokenAt(t);
      for (let d = 0; d < dims; d++) sum[d] += state[d];
      count++;
    }
    for (let d = 0; d < dims; d++) sum[d] /= Math.max(1, count);
    return sum;
  }
}

function normalize(vector: Float32Array): void {
  let norm = 0;
  for (const v of vector) norm += v * v;
  norm = Math.sqrt(norm);
  if (norm === 0) return;
  for (let d = 0; d < vector.length; d++) vector[d] /= norm;
}
