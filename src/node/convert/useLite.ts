import { DataType, OnnxGraph } from './onnxGraph';
import { convertTfjsGraph } from './tfjsToOnnx';
import { TfjsModel } from './tfjsModel';

/** The graph clips every text to its first 128 tokens (`ClipToMaxLength`). */
export const USE_LITE_MAX_TOKENS = 128;
export const USE_LITE_DIMS = 512;

const PREFIX = 'module_apply_default/Encoder_en/';
const OUTPUT = `${PREFIX}hidden_layers/l2_normalize`;
const DENSE_SHAPE = `${PREFIX}KonaTransformer/ClipToMaxLength/Maximum`;

/**
 * Converts the TF.js Universal Sentence Encoder lite graph to an ONNX model with the usual
 * dense signature: `input_ids` and `attention_mask` (int64 [batch, sequence], right-padded) in,
 * `embeddings` (float32 [batch, 512], L2-normalised) out.
 *
 * The TF graph takes a sparse batch (`indices` = (text, position) pairs, `values` = token ids) and
 * rebuilds the dense batch itself, so the front of the ONNX graph turns the dense input back into
 * that sparse form. The dense batch shape is taken from the input rather than from the largest
 * index, so a text with no tokens still gets its row.
 */
export function convertUseLite(model: TfjsModel, metadata: Record<string, string> = {}): Uint8Array {
  const g = new OnnxGraph();
  g.input('input_ids', DataType.INT64, ['batch', 'sequence']);
  g.input('attention_mask', DataType.INT64, ['batch', 'sequence']);

  // Columns past 128 would be dropped by ClipToMaxLength anyway; cutting them first keeps the
  // attention matrices small when a caller sends longer rows.
  const window = [g.int64([0]), g.int64([USE_LITE_MAX_TOKENS]), g.int64([1])];
  const ids = g.op('Slice', ['input_ids', ...window], 'input_ids_clipped');
  const mask = g.op('Slice', ['attention_mask', ...window], 'attention_mask_clipped');
  const coords = g.op('NonZero', [mask], 'token_coords');
  const indices = g.op('Transpose', [coords], 'sparse_indices', { perm: { ints: [1, 0] } });
  const values = g.op('GatherND', [ids, indices], 'sparse_values');
  const denseShape = g.op('Shape', [ids], 'dense_shape');

  const [vectors] = convertTfjsGraph(model, g, {
    bind: { indices, values, [DENSE_SHAPE]: denseShape },
    outputs: [OUTPUT],
  });
  g.node('Identity', [vectors], ['embeddings']);
  g.output('embeddings', DataType.FLOAT, ['batch', USE_LITE_DIMS]);
  return g.encode({
    graphName: 'use_lite',
    producer: 'skill-router',
    docString: 'Universal Sentence Encoder lite, converted from TF.js by src/node/convert',
    metadata,
  });
}
