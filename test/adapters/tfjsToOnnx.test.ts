import assert from 'node:assert/strict';
import * as ort from 'onnxruntime-node';
import { DataType, OnnxGraph } from '../../src/node/convert/onnxGraph';
import { TfjsModel, TfjsNode, TfjsTensor } from '../../src/node/convert/tfjsModel';
import { convertTfjsGraph } from '../../src/node/convert/tfjsToOnnx';

// Small TF graphs, written out by hand, converted and run on onnxruntime: each checks one of
// the op mappings the USE-lite graph needs care with, against values worked out by hand.

type Feed = Record<string, { tensor: ort.Tensor; rank: number }>;

class GraphSketch {
  readonly nodes: TfjsNode[] = [];
  readonly weights = new Map<string, TfjsTensor>();

  placeholder(name: string): string {
    this.nodes.push({ name, op: 'Placeholder' });
    return name;
  }

  ints(name: string, values: number[], shape: number[] = [values.length]): string {
    this.nodes.push({ name, op: 'Const' });
    this.weights.set(name, { dtype: 'int32', shape, data: new Uint8Array(new Int32Array(values).buffer) });
    return name;
  }

  floats(name: string, values: number[], shape: number[]): string {
    this.nodes.push({ name, op: 'Const' });
    this.weights.set(name, { dtype: 'float32', shape, data: new Uint8Array(new Float32Array(values).buffer) });
    return name;
  }

  op(name: string, op: string, input: string[], attr: TfjsNode['attr'] = {}): string {
    this.nodes.push({ name, op, input, attr });
    return name;
  }

  async run(feed: Feed, outputs: Array<[string, 'float32' | 'int64' | 'bool']>): Promise<ort.Tensor[]> {
    const model: TfjsModel = { nodes: this.nodes, weights: this.weights };
    const g = new OnnxGraph();
    const bind: Record<string, string> = {};
    for (const [name, { tensor, rank }] of Object.entries(feed)) {
      const type = tensor.type === 'float32' ? DataType.FLOAT : DataType.INT64;
      g.input(`in_${name}`, type, Array.from({ length: rank }, (_, i) => `${name}_${i}`));
      bind[name] = `in_${name}`;
    }
    const names = convertTfjsGraph(model, g, { bind, outputs: outputs.map(([ref]) => ref) });
    outputs.forEach(([, type], i) => {
      const elem = type === 'float32' ? DataType.FLOAT : type === 'int64' ? DataType.INT64 : DataType.BOOL;
      g.node('Identity', [names[i]], [`out_${i}`]);
      g.output(`out_${i}`, elem);
    });
    const session = await ort.InferenceSession.create(g.encode({ graphName: 'sketch', producer: 'test' }));
    const feeds = Object.fromEntries(Object.entries(feed).map(([name, { tensor }]) => [`in_${name}`, tensor]));
    const result = await session.run(feeds);
    return outputs.map((_, i) => result[`out_${i}`]);
  }
}

const i64 = (values: number[], dims: number[]) => new ort.Tensor('int64', BigInt64Array.from(values.map(BigInt)), dims);
const f32 = (values: number[], dims: number[]) => new ort.Tensor('float32', Float32Array.from(values), dims);
const nums = (t: ort.Tensor) => Array.from(t.data as ArrayLike<number | bigint>, Number);

describe('convertTfjsGraph op mappings (onnxruntime)', () => {
  it('Where lists coordinates as rows, and StridedSlice x[:, 1] picks the column', async () => {
    const s = new GraphSketch();
    s.placeholder('x');
    const zero = s.floats('zero', [0], []);
    const mask = s.op('mask', 'Greater', ['x', zero]);
    const coords = s.op('coords', 'Where', [mask]);
    s.op('cols', 'StridedSlice', [coords, s.ints('b', [0, 1]), s.ints('e', [0, 2]), s.ints('s', [1, 1])], {
      begin_mask: { i: '1' }, end_mask: { i: '1' }, shrink_axis_mask: { i: '2' },
    });
    const [c, cols] = await s.run({ x: { tensor: f32([1, 0, 2, 0, 3, 0], [2, 3]), rank: 2 } }, [
      ['coords', 'int64'], ['cols', 'int64'],
    ]);
    assert.deepEqual(c.dims, [3, 2]);
    assert.deepEqual(nums(c), [0, 0, 0, 2, 1, 1]);
    assert.deepEqual(cols.dims, [3]);
    assert.deepEqual(nums(cols), [0, 2, 1]);
  });

  it('SparseToDense fills the default, ScatterNd fills zeros, GatherNd reads back', async () => {
    const s = new GraphSketch();
    s.placeholder('idx');
    s.placeholder('vals');
    s.placeholder('rows');
    s.op('dense', 'SparseToDense', ['idx', s.ints('shape', [2, 3]), 'vals', s.ints('dflt', [-1], [])]);
    const scattered = s.op('scattered', 'ScatterNd', ['idx', 'rows', s.ints('shape3', [2, 3, 2])], { T: { type: 1 } });
    s.op('gathered', 'GatherNd', [scattered, 'idx']);
    const [dense, sc, ga] = await s.run(
      {
        idx: { tensor: i64([0, 0, 0, 2, 1, 1], [3, 2]), rank: 2 },
        vals: { tensor: i64([5, 7, 9], [3]), rank: 1 },
        rows: { tensor: f32([1, 2, 3, 4, 5, 6], [3, 2]), rank: 2 },
      },
      [['dense', 'int64'], ['scattered', 'float32'], ['gathered', 'float32']],
    );
    assert.deepEqual(nums(dense), [5, -1, 7, -1, 9, -1]);
    assert.deepEqual(sc.dims, [2, 3, 2]);
    assert.deepEqual(nums(sc), [1, 2, 0, 0, 3, 4, 0, 0, 5, 6, 0, 0]);
    assert.deepEqual(nums(ga), [1, 2, 3, 4, 5, 6]);
  });

  it('Pack of shape scalars feeds Reshape; SplitV and ConcatV2 keep their axes', async () => {
    const s = new GraphSketch();
    s.placeholder('x'); // [2, 6]
    const shape = s.op('shape', 'Shape', ['x']);
    const rows = s.op('rows', 'StridedSlice', [shape, s.ints('b0', [0]), s.ints('e0', [1]), s.ints('s0', [1])], {
      shrink_axis_mask: { i: '1' },
    });
    const packed = s.op('packed', 'Pack', [rows, s.ints('three', [3], []), s.ints('two', [2], [])], { axis: { i: '0' }, N: { i: '3' } });
    s.op('reshaped', 'Reshape', ['x', packed]);
    s.op('split', 'SplitV', ['x', s.ints('sizes', [2, 4]), s.ints('axis1', [1], [])], { num_split: { i: '2' } });
    s.op('swapped', 'ConcatV2', ['split:1', 'split', s.ints('axis1b', [1], [])], { N: { i: '2' } });
    const x = f32([0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15], [2, 6]);
    const [p, r, sw] = await s.run({ x: { tensor: x, rank: 2 } }, [
      ['packed', 'int64'], ['reshaped', 'float32'], ['swapped', 'float32'],
    ]);
    assert.deepEqual(nums(p), [2, 3, 2]);
    assert.deepEqual(r.dims, [2, 3, 2]);
    assert.deepEqual(nums(sw), [2, 3, 4, 5, 0, 1, 12, 13, 14, 15, 10, 11]);
  });

  it('BatchMatMul with adj_y multiplies by the transpose of the last two axes', async () => {
    const s = new GraphSketch();
    s.placeholder('a'); // [1, 1, 2, 3]
    s.placeholder('b'); // [1, 1, 2, 3]
    s.op('ab', 'BatchMatMul', ['a', 'b'], { adj_x: { b: false }, adj_y: { b: true } });
    const [ab] = await s.run(
      { a: { tensor: f32([1, 2, 3, 4, 5, 6], [1, 1, 2, 3]), rank: 4 }, b: { tensor: f32([1, 0, 0, 0, 1, 1], [1, 1, 2, 3]), rank: 4 } },
      [['ab', 'float32']],
    );
    assert.deepEqual(ab.dims, [1, 1, 2, 2]);
    assert.deepEqual(nums(ab), [1, 5, 4, 11]);
  });

  it('a 1x1 NHWC Conv2D becomes a MatMul over channels', async () => {
    const s = new GraphSketch();
    s.placeholder('x'); // [1, 2, 1, 2]
    const kernel = s.floats('k', [1, 10, 100, 1000, 0, 1], [1, 1, 2, 3]);
    s.op('y', 'Conv2D', ['x', kernel], {
      strides: { list: { i: ['1', '1', '1', '1'] } }, dilations: { list: { i: ['1', '1', '1', '1'] } },
      data_format: { s: [78, 72, 87, 67] }, padding: { s: [86, 65, 76, 73, 68] },
    });
    const [y] = await s.run({ x: { tensor: f32([1, 2, 3, 4], [1, 2, 1, 2]), rank: 4 } }, [['y', 'float32']]);
    assert.deepEqual(y.dims, [1, 2, 1, 3]);
    assert.deepEqual(nums(y), [2001, 10, 102, 4003, 30, 304]);
  });

  it('refuses what it cannot map instead of guessing', () => {
    const s = new GraphSketch();
    s.placeholder('x');
    s.op('y', 'Einsum', ['x']);
    const g = new OnnxGraph();
    assert.throws(() => convertTfjsGraph({ nodes: s.nodes, weights: s.weights }, g, { bind: { x: 'x' }, outputs: ['y'] }), /Einsum/);
    assert.throws(() => convertTfjsGraph({ nodes: s.nodes, weights: s.weights }, g, { bind: {}, outputs: ['x'] }), /not bound/);
  });
});
