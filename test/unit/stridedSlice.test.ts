import assert from 'node:assert/strict';
import { INT64_MAX, INT64_MIN } from '../../src/node/convert/onnxGraph';
import { stridedSliceToSlice } from '../../src/node/convert/stridedSlice';

describe('stridedSliceToSlice', () => {
  it('turns begin/end masks into open bounds and shrinks the masked-out axis (x[:, 1])', () => {
    // USE-lite's ClipToMaxLength/strided_slice: the position column of the sparse indices.
    const p = stridedSliceToSlice({
      begin: [0, 1], end: [0, 2], strides: [1, 1], beginMask: 1, endMask: 1, shrinkAxisMask: 2,
    });
    assert.deepEqual(p.starts, [0n, 1n]);
    assert.deepEqual(p.ends, [INT64_MAX, 2n]);
    assert.deepEqual(p.axes, [0, 1]);
    assert.deepEqual(p.steps, [1n, 1n]);
    assert.deepEqual(p.squeeze, [1]);
  });

  it('keeps the tail when only end_mask is set (shape[1:])', () => {
    const p = stridedSliceToSlice({ begin: [1], end: [0], strides: [1], beginMask: 0, endMask: 1, shrinkAxisMask: 0 });
    assert.deepEqual(p.starts, [1n]);
    assert.deepEqual(p.ends, [INT64_MAX]);
    assert.deepEqual(p.squeeze, []);
  });

  it('shrinks at begin even when the begin mask is set, as TF does', () => {
    const p = stridedSliceToSlice({ begin: [2], end: [0], strides: [1], beginMask: 1, endMask: 1, shrinkAxisMask: 1 });
    assert.deepEqual(p.starts, [2n]);
    assert.deepEqual(p.ends, [3n]);
    assert.deepEqual(p.squeeze, [0]);
  });

  it('reads the last element for shrink at -1 instead of the empty slice [-1:0]', () => {
    const p = stridedSliceToSlice({ begin: [-1], end: [0], strides: [1], beginMask: 0, endMask: 0, shrinkAxisMask: 1 });
    assert.deepEqual(p.starts, [-1n]);
    assert.deepEqual(p.ends, [INT64_MAX]);
  });

  it('opens masked bounds the other way for negative strides (x[::-1])', () => {
    const p = stridedSliceToSlice({ begin: [0], end: [0], strides: [-1], beginMask: 1, endMask: 1, shrinkAxisMask: 0 });
    assert.deepEqual(p.starts, [INT64_MAX]);
    assert.deepEqual(p.ends, [INT64_MIN]);
    assert.deepEqual(p.steps, [-1n]);
  });

  it('refuses ellipsis and new-axis masks rather than slicing the wrong axes', () => {
    const base = { begin: [0], end: [1], strides: [1], beginMask: 0, endMask: 0, shrinkAxisMask: 0 };
    assert.throws(() => stridedSliceToSlice({ ...base, ellipsisMask: 1 }), /ellipsis_mask/);
    assert.throws(() => stridedSliceToSlice({ ...base, newAxisMask: 1 }), /new_axis_mask/);
  });
});
