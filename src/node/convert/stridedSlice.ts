import { INT64_MAX, INT64_MIN } from './onnxGraph';

export interface StridedSliceSpec {
  begin: number[];
  end: number[];
  strides: number[];
  beginMask: number;
  endMask: number;
  shrinkAxisMask: number;
  ellipsisMask?: number;
  newAxisMask?: number;
}

/** ONNX Slice inputs (one entry per sliced axis) plus the axes to squeeze afterwards. */
export interface SliceParams {
  starts: bigint[];
  ends: bigint[];
  axes: number[];
  steps: bigint[];
  squeeze: number[];
}

/**
 * Turns a TF StridedSlice with constant begin/end/strides into ONNX Slice (+ Squeeze) inputs.
 * A masked begin or end means "from the edge", which ONNX spells as an out-of-range bound that
 * it clamps. A shrunk axis keeps one element at `begin` whatever the masks say, as in TF.
 */
export function stridedSliceToSlice(spec: StridedSliceSpec): SliceParams {
  if (spec.ellipsisMask || spec.newAxisMask) {
    throw new Error('StridedSlice with ellipsis_mask or new_axis_mask is not supported');
  }
  const out: SliceParams = { starts: [], ends: [], axes: [], steps: [], squeeze: [] };
  spec.begin.forEach((b, axis) => {
    const bit = 1 << axis;
    const step = spec.strides[axis];
    if (step === 0) throw new Error('StridedSlice stride 0');
    if (spec.shrinkAxisMask & bit) {
      // begin + 1 would be 0 for begin = -1, which selects nothing; -1 needs "to the end".
      out.starts.push(BigInt(b));
      out.ends.push(b === -1 ? INT64_MAX : BigInt(b + 1));
      out.steps.push(1n);
      out.squeeze.push(axis);
    } else {
      const forward = step > 0;
      out.starts.push(spec.beginMask & bit ? (forward ? 0n : INT64_MAX) : BigInt(b));
      out.ends.push(spec.endMask & bit ? (forward ? INT64_MAX : INT64_MIN) : BigInt(spec.end[axis]));
      out.steps.push(BigInt(step));
    }
    out.axes.push(axis);
  });
  return out;
}
