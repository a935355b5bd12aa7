/**
 * A query-side adapter for the dense stage (the embedding issue, "R3-Embedding on a CPU"):
 * `q' = normalise(q + A q)` over the frozen encoder's request vector, A a D×D matrix trained for
 * routing with the paper's multi-positive InfoNCE (`L = L_nce + 0.25 L_sib`, temperature 1/30).
 * Skill vectors are not touched, so the vector cache stays valid and only requests change; the
 * encoder's own passages (near-duplicate evidence, the panel's passages) keep their meaning.
 *
 * Training reads vectors only (the requests' and the skills'), so a user-supplied encoder gets
 * its adapter from the same command on its own vectors.
 */
import type { CancelToken, Embedder, EmbedderInfo } from '../types';
import { contentHash } from '../text/hash';
import { prng } from '../random';

export interface QueryAdapter {
  /** The encoder the adapter was trained over (`EmbedderInfo.id`); another encoder ignores it. */
  base: string;
  dims: number;
  /** A, row-major D×D. */
  matrix: Float32Array;
}

/** A short, stable name of an adapter's weights, reported with the model. */
export function adapterId(adapter: QueryAdapter): string {
  // The weights' bit patterns as text (contentHash reads UTF-16 units).
  const words = new Uint16Array(adapter.matrix.buffer, adapter.matrix.byteOffset, adapter.matrix.length * 2);
  let text = '';
  for (let i = 0; i < words.length; i += 4096) text += String.fromCharCode(...words.subarray(i, i + 4096));
  return `qa-${contentHash(text).slice(0, 10)}`;
}

/** How results name the encoder: its id, and its adapter's when requests are adapted. */
export function encoderLabel(info: EmbedderInfo): string {
  return info.adapter ? `${info.id} + ${info.adapter}` : info.id;
}

/** `normalise(v + A v)`. */
export function adaptQuery(adapter: QueryAdapter, v: Float32Array): Float32Array {
  const d = adapter.dims;
  const a = adapter.matrix;
  const out = new Float32Array(d);
  let norm = 0;
  for (let i = 0; i < d; i++) {
    let s = v[i];
    const row = i * d;
    for (let j = 0; j < d; j++) s += a[row + j] * v[j];
    out[i] = s;
    norm += s * s;
  }
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < d; i++) out[i] /= norm;
  return out;
}

/** Why an adapter cannot serve an encoder, or null when it can. */
export function adapterMismatch(adapter: QueryAdapter, info: Pick<EmbedderInfo, 'id' | 'dims'>): string | null {
  if (adapter.base !== info.id) return `it was trained over ${adapter.base}, the encoder is ${info.id}`;
  if (adapter.dims !== info.dims) return `it has ${adapter.dims} dimensions, the encoder ${info.dims}`;
  return null;
}

/**
 * The encoder with its requests adapted; passages are the encoder's own. The id stays the
 * encoder's (it keys the vector cache, which the adapter does not change); `info.adapter` names
 * the adapter.
 */
export function withQueryAdapter(embedder: Embedder, adapter: QueryAdapter): Embedder {
  const info: EmbedderInfo = { ...embedder.info, adapter: adapterId(adapter) };
  return {
    info,
    async embed(texts: string[], kind: 'query' | 'passage', token?: CancelToken): Promise<Float32Array[]> {
      const out = await embedder.embed(texts, kind, token);
      return kind === 'query' ? out.map((v) => adaptQuery(adapter, v)) : out;
    },
    recycle: () => embedder.recycle?.() ?? Promise.resolve(),
    dispose: () => embedder.dispose?.(),
  };
}

/** One training request: its vector (the encoder's, unadapted) and the skills it was written for. */
export interface AdapterExample {
  vector: Float32Array;
  /** Indices into the training skills. */
  targets: number[];
}

export interface AdapterTrainOptions {
  epochs: number;
  batch: number;
  learningRate: number;
  /** Inverse temperature of the softmax (the paper's 1/τ = 30). */
  scale: number;
  /** Weight of the per-sibling term. */
  sibling: number;
  seed: number;
}

export const DEFAULT_ADAPTER_TRAIN: AdapterTrainOptions = { epochs: 4, batch: 256, learningRate: 5e-4, scale: 30, sibling: 0.25, seed: 7 };

/**
 * Trains A from zero with Adam. Each request's negatives are every skill of the library but its
 * own targets (the in-batch and mined hard negatives of the paper are subsumed: the whole library
 * is the batch's candidate set). Loss per request, over its targets P:
 *   L_nce = -log(Σ_{p∈P} e^{s·q'd_p} / Σ_all e^{s·q'd})
 *   L_sib = mean_{p∈P} -log(e^{s·q'd_p} / (e^{s·q'd_p} + Σ_{n∉P} e^{s·q'd_n}))  (siblings are no negatives)
 * q' = q + A q is not re-normalised in training (a cosine against unit skill vectors up to a scale
 * that the ranking ignores). Deterministic for a seed. `onEpoch` sees the mean loss.
 */
export function trainQueryAdapter(
  skills: readonly Float32Array[],
  examples: readonly AdapterExample[],
  opts: AdapterTrainOptions = DEFAULT_ADAPTER_TRAIN,
  onEpoch?: (epoch: number, loss: number, adapter: Float32Array) => void,
): Float32Array {
  const d = skills[0].length;
  const n = skills.length;
  const a = new Float32Array(d * d);
  const m = new Float64Array(d * d);
  const v = new Float64Array(d * d);
  const rand = prng(opts.seed);
  const order = examples.map((_, i) => i);
  let step = 0;
  const qa = new Float64Array(d);
  const logits = new Float64Array(n);
  const weights = new Float64Array(n);
  const gq = new Float64Array(d);
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let lossSum = 0;
    for (let b = 0; b < order.length; b += opts.batch) {
      const grad = new Float64Array(d * d);
      const batch = order.slice(b, b + opts.batch);
      for (const e of batch) {
        const { vector: q, targets } = examples[e];
        for (let i = 0; i < d; i++) {
          let s = q[i];
          const row = i * d;
          for (let j = 0; j < d; j++) s += a[row + j] * q[j];
          qa[i] = s;
        }
        let max = -Infinity;
        for (let k = 0; k < n; k++) {
          const sk = skills[k];
          let s = 0;
          for (let i = 0; i < d; i++) s += qa[i] * sk[i];
          logits[k] = opts.scale * s;
          if (logits[k] > max) max = logits[k];
        }
        // dL/dlogit: softmax over all minus the targets' share (L_nce), plus per target a softmax
        // over itself and the non-targets minus one at the target (L_sib).
        let negSum = 0;
        let posSum = 0;
        const isTarget = new Set(targets);
        for (let k = 0; k < n; k++) {
          const ex = Math.exp(logits[k] - max);
          weights[k] = ex;
          if (isTarget.has(k)) posSum += ex;
          else negSum += ex;
        }
        const all = negSum + posSum;
        lossSum += -Math.log(posSum / all);
        const coef = new Float64Array(n);
        for (let k = 0; k < n; k++) coef[k] = weights[k] / all - (isTarget.has(k) ? weights[k] / posSum : 0);
        const sib = opts.sibling / targets.length;
        for (const p of targets) {
          const own = weights[p];
          const z = own + negSum;
          lossSum += -opts.sibling * Math.log(own / z) / targets.length;
          for (let k = 0; k < n; k++) if (!isTarget.has(k)) coef[k] += (sib * weights[k]) / z;
          coef[p] += sib * (own / z - 1);
        }
        gq.fill(0);
        for (let k = 0; k < n; k++) {
          const c = coef[k] * opts.scale;
          if (Math.abs(c) < 1e-12) continue;
          const sk = skills[k];
          for (let i = 0; i < d; i++) gq[i] += c * sk[i];
        }
        for (let i = 0; i < d; i++) {
          const g = gq[i];
          if (g === 0) continue;
          const row = i * d;
          for (let j = 0; j < d; j++) grad[row + j] += g * q[j];
        }
      }
      step++;
      const lr = opts.learningRate;
      const c1 = 1 - 0.9 ** step;
      const c2 = 1 - 0.999 ** step;
      for (let i = 0; i < grad.length; i++) {
        const g = grad[i] / batch.length;
        m[i] = 0.9 * m[i] + 0.1 * g;
        v[i] = 0.999 * v[i] + 0.001 * g * g;
        a[i] -= (lr * (m[i] / c1)) / (Math.sqrt(v[i] / c2) + 1e-8);
      }
    }
    onEpoch?.(epoch, lossSum / order.length, a);
  }
  return a;
}
