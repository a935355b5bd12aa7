/**
 * A cross-encoder reranker (bge-reranker, ms-marco MiniLM...) from a model folder with a
 * `manifest.json` of kind `cross-encoder`, run on onnxruntime-node. See docs/models.md.
 */
import { throwIfCancelled, type CancelToken, type CrossEncoder } from '../core/types';
import { LoadedModel, ModelLoadError, collapseWhitespace, type BatchOutput, type ModelLoadOptions } from './modelFolder';

export class OnnxCrossEncoder implements CrossEncoder {
  private constructor(
    private readonly model: LoadedModel,
    /** Logits per pair in the output (1 or 2). */
    private readonly labels: number,
  ) {}

  get id(): string {
    return this.model.manifest.id;
  }

  /** Loads the folder and scores one probe pair, so an unusable output fails here. */
  static async load(folder: string, opts: ModelLoadOptions = {}): Promise<OnnxCrossEncoder> {
    const model = await LoadedModel.load(folder, 'cross-encoder', opts);
    try {
      const probe = await model.probe([model.tokenizer.encodePair('probe', 'probe')]);
      const labels = probe.dims.length === 1 ? 1 : probe.dims.slice(1).reduce((a, b) => a * b, 1);
      if (labels !== 1 && labels !== 2) {
        throw new ModelLoadError(
          `output "${model.output}" has shape [${probe.dims.join(', ')}]: ${labels} values per pair, where a reranker gives 1 logit (or 2, of which the last is "relevant").`,
          model.manifestFile,
          'Set `output` to the relevance logits, or choose a cross-encoder with one or two labels.',
        );
      }
      model.logger.info(`${model.manifest.id}: loaded reranker from ${model.folder} (${model.manifest.maxTokens} tokens per pair)`);
      return new OnnxCrossEncoder(model, labels);
    } catch (err) {
      await model.dispose();
      throw err;
    }
  }

  /**
   * One logit per passage, in the order given. With two logits per pair the last one counts.
   * Throws `CancelledError` between batches once `token` is cancelled.
   */
  async score(query: string, passages: string[], token?: CancelToken): Promise<number[]> {
    throwIfCancelled(token);
    const { manifest, tokenizer, batchSize } = this.model;
    const prepare = (text: string): string => (manifest.collapseWhitespace ? collapseWhitespace(text) : text);
    const q = prepare(query);
    const rows = passages.map((passage) => tokenizer.encodePair(q, prepare(passage)));
    const scores = new Array<number>(passages.length).fill(0);
    const order = rows.map((_, i) => i).sort((a, b) => rows[a].ids.length - rows[b].ids.length);
    for (let start = 0; start < order.length; start += batchSize) {
      if (start > 0) throwIfCancelled(token);
      const batch = order.slice(start, start + batchSize);
      const out = await this.model.run(batch.map((i) => rows[i]));
      batch.forEach((i, row) => (scores[i] = this.logit(out, row)));
    }
    return scores;
  }

  async dispose(): Promise<void> {
    await this.model.dispose();
  }

  private logit(out: BatchOutput, row: number): number {
    return out.data[row * this.labels + this.labels - 1];
  }
}
