import { DataType, INT64_MAX, OnnxGraph, float32Tensor, int64Bytes, int64Tensor } from './onnxGraph';
import { stridedSliceToSlice } from './stridedSlice';
import { TfjsModel, TfjsNode, TfjsTensor, tensorValues } from './tfjsModel';

export interface ConvertOptions {
  /**
   * TF tensor names ("node" or "node:1") answered by values already in the ONNX graph instead
   * of by their TF producers: placeholders, or any tensor a caller computes in front of the graph.
   */
  bind: Record<string, string>;
  /** TF tensor names to convert; only what they depend on is emitted. */
  outputs: string[];
}

// int32 is widened to int64: ONNX shape ops (Shape, Slice, Reshape, Range...) work in int64,
// and mixing widths would need a Cast at every boundary.
const ONNX_TYPE: Record<number, number> = {
  1: DataType.FLOAT,
  3: DataType.INT64,
  9: DataType.INT64,
  10: DataType.BOOL,
};

/**
 * Converts the part of a TF.js graph that `opts.outputs` depends on into `graph`, one TF node at
 * a time, and returns the ONNX names of the outputs. Constants that only parameterise an op
 * (axes, permutations, slice bounds) are folded into it rather than stored as initializers.
 */
export function convertTfjsGraph(model: TfjsModel, graph: OnnxGraph, opts: ConvertOptions): string[] {
  const converter = new Converter(model, graph, opts.bind);
  return opts.outputs.map((ref) => converter.value(ref));
}

type Handler = (c: Converter, n: TfjsNode) => void;

class Converter {
  private readonly nodes = new Map<string, TfjsNode>();
  private readonly done = new Set<string>();
  private readonly active = new Set<string>();

  constructor(
    private readonly model: TfjsModel,
    readonly g: OnnxGraph,
    private readonly bind: Record<string, string>,
  ) {
    for (const n of model.nodes) this.nodes.set(n.name, n);
  }

  /** The ONNX value for a TF tensor reference, converting its producer first if needed. */
  value(ref: string): string {
    const [name, index] = parseRef(ref);
    const bound = this.bind[outputName(name, index)];
    if (bound !== undefined) return bound;
    this.convert(name);
    return outputName(name, index);
  }

  /** Input `i` of `n` as an ONNX value. */
  in(n: TfjsNode, i: number): string {
    return this.value(inputs(n)[i]);
  }

  /** Input `i` of `n`, which must be a constant, as its stored tensor. */
  constTensor(n: TfjsNode, i: number): TfjsTensor {
    const ref = inputs(n)[i];
    const [name] = parseRef(ref);
    if (this.nodes.get(name)?.op !== 'Const') throw new Error(`${n.op} ${n.name}: input ${i} (${ref}) must be a constant`);
    return this.weight(name);
  }

  /** The stored value of a Const node (TF.js keeps every constant in the weight shards). */
  weight(name: string): TfjsTensor {
    const tensor = this.model.weights.get(name);
    if (!tensor) throw new Error(`constant ${name} has no entry in the weights manifest`);
    return tensor;
  }

  constInts(n: TfjsNode, i: number): number[] {
    return tensorValues(this.constTensor(n, i));
  }

  out(n: TfjsNode, index = 0): string {
    return outputName(n.name, index);
  }

  /** A name for an extra value created while converting `n`. */
  aux(n: TfjsNode, what: string): string {
    return this.g.fresh(`${n.name}:onnx/${what}`);
  }

  private convert(name: string): void {
    if (this.done.has(name)) return;
    const n = this.nodes.get(name);
    if (!n) throw new Error(`graph has no node ${name}`);
    if (this.active.has(name)) throw new Error(`cycle through ${name}`);
    this.active.add(name);
    const handler = HANDLERS[n.op];
    if (!handler) throw new Error(`TF op ${n.op} (${n.name}) has no ONNX mapping`);
    handler(this, n);
    this.active.delete(name);
    this.done.add(name);
  }
}

function parseRef(ref: string): [string, number] {
  if (ref.startsWith('^')) throw new Error(`control input ${ref} is not supported`);
  const m = /^(.*):(\d+)$/.exec(ref);
  return m ? [m[1], Number(m[2])] : [ref, 0];
}

function outputName(name: string, index: number): string {
  return index === 0 ? name : `${name}:${index}`;
}

function inputs(n: TfjsNode): string[] {
  return (n.input ?? []).filter((r) => !r.startsWith('^'));
}

function attrInt(n: TfjsNode, key: string, fallback = 0): number {
  const v = n.attr?.[key]?.i;
  return v === undefined ? fallback : Number(v);
}

function attrBool(n: TfjsNode, key: string): boolean {
  return n.attr?.[key]?.b === true;
}

function attrInts(n: TfjsNode, key: string): number[] {
  return (n.attr?.[key]?.list?.i ?? []).map(Number);
}

function attrString(n: TfjsNode, key: string): string | undefined {
  const s = n.attr?.[key]?.s;
  if (s === undefined) return undefined;
  return typeof s === 'string' ? Buffer.from(s, 'base64').toString('utf8') : String.fromCharCode(...s);
}

function onnxType(n: TfjsNode, key: string): number {
  const tf = n.attr?.[key]?.type ?? 1;
  const t = ONNX_TYPE[tf];
  if (t === undefined) throw new Error(`${n.op} ${n.name}: TF dtype ${tf} is not supported`);
  return t;
}

function simple(opType: string, arity: number): Handler {
  return (c, n) => {
    const ins = Array.from({ length: arity }, (_, i) => c.in(n, i));
    c.g.node(opType, ins, [c.out(n)], {}, n.name);
  };
}

function reduce(opType: string, axesAsInput: boolean): Handler {
  // Opset 17 takes ReduceSum's axes as an input but the other reductions' as an attribute.
  return (c, n) => {
    const axes = c.constInts(n, 1);
    const keepdims = attrBool(n, 'keep_dims') ? 1 : 0;
    if (axesAsInput) c.g.node(opType, [c.in(n, 0), c.g.int64(axes)], [c.out(n)], { keepdims }, n.name);
    else c.g.node(opType, [c.in(n, 0)], [c.out(n)], { axes: { ints: axes }, keepdims }, n.name);
  };
}

function transposeLastTwo(c: Converter, n: TfjsNode, x: string, rank: number): string {
  const perm = Array.from({ length: rank }, (_, i) => i);
  [perm[rank - 2], perm[rank - 1]] = [perm[rank - 1], perm[rank - 2]];
  return c.g.op('Transpose', [x], `${n.name}:onnx/transpose`, { perm: { ints: perm } });
}

function requireNhwc(n: TfjsNode): void {
  const format = attrString(n, 'data_format');
  if (format !== undefined && format !== 'NHWC') throw new Error(`${n.op} ${n.name}: data_format ${format}`);
}

const HANDLERS: Record<string, Handler> = {
  Const: (c, n) => {
    const t = c.weight(n.name);
    if (t.dtype === 'float32') c.g.initializer(n.name, DataType.FLOAT, t.shape, t.data);
    else if (t.dtype === 'int32') c.g.initializer(n.name, DataType.INT64, t.shape, int64Bytes(tensorValues(t)));
    else c.g.initializer(n.name, DataType.BOOL, t.shape, t.data);
  },
  Placeholder: (_c, n) => {
    throw new Error(`placeholder ${n.name} is not bound to a graph input`);
  },
  Identity: simple('Identity', 1),
  Add: simple('Add', 2),
  AddV2: simple('Add', 2),
  Sub: simple('Sub', 2),
  Mul: simple('Mul', 2),
  RealDiv: simple('Div', 2),
  Maximum: simple('Max', 2),
  Minimum: simple('Min', 2),
  Less: simple('Less', 2),
  Greater: simple('Greater', 2),
  LogicalNot: simple('Not', 1),
  Sin: simple('Sin', 1),
  Cos: simple('Cos', 1),
  Tanh: simple('Tanh', 1),
  Relu: simple('Relu', 1),
  Shape: simple('Shape', 1),
  GatherNd: simple('GatherND', 2),
  Range: simple('Range', 3),
  BiasAdd: (c, n) => {
    requireNhwc(n);
    c.g.node('Add', [c.in(n, 0), c.in(n, 1)], [c.out(n)], {}, n.name);
  },
  Reshape: (c, n) => {
    // In TF a 0 in the target shape is an empty axis; ONNX reads it as "copy" unless allowzero.
    c.g.node('Reshape', [c.in(n, 0), c.in(n, 1)], [c.out(n)], { allowzero: 1 }, n.name);
  },
  Square: (c, n) => {
    const x = c.in(n, 0);
    c.g.node('Mul', [x, x], [c.out(n)], {}, n.name);
  },
  Rsqrt: (c, n) => {
    const root = c.g.op('Sqrt', [c.in(n, 0)], c.aux(n, 'sqrt'));
    c.g.node('Reciprocal', [root], [c.out(n)], {}, n.name);
  },
  Softmax: (c, n) => {
    c.g.node('Softmax', [c.in(n, 0)], [c.out(n)], { axis: -1 }, n.name);
  },
  Cast: (c, n) => {
    c.g.node('Cast', [c.in(n, 0)], [c.out(n)], { to: onnxType(n, 'DstT') }, n.name);
  },
  ExpandDims: (c, n) => {
    c.g.node('Unsqueeze', [c.in(n, 0), c.g.int64(c.constInts(n, 1))], [c.out(n)], {}, n.name);
  },
  Squeeze: (c, n) => {
    const dims = attrInts(n, 'squeeze_dims');
    const ins = dims.length ? [c.in(n, 0), c.g.int64(dims)] : [c.in(n, 0)];
    c.g.node('Squeeze', ins, [c.out(n)], {}, n.name);
  },
  Transpose: (c, n) => {
    c.g.node('Transpose', [c.in(n, 0)], [c.out(n)], { perm: { ints: c.constInts(n, 1) } }, n.name);
  },
  ConcatV2: (c, n) => {
    const count = attrInt(n, 'N');
    const parts = Array.from({ length: count }, (_, i) => c.in(n, i));
    const [axis] = c.constInts(n, count);
    c.g.node('Concat', parts, [c.out(n)], { axis }, n.name);
  },
  Pack: (c, n) => {
    const axis = attrInt(n, 'axis');
    const parts = inputs(n).map((_, i) =>
      c.g.op('Unsqueeze', [c.in(n, i), c.g.int64([axis])], `${n.name}:onnx/unsqueeze`),
    );
    c.g.node('Concat', parts, [c.out(n)], { axis }, n.name);
  },
  GatherV2: (c, n) => {
    const [axis] = c.constInts(n, 2);
    if (attrInt(n, 'batch_dims') !== 0) throw new Error(`GatherV2 ${n.name}: batch_dims is not supported`);
    c.g.node('Gather', [c.in(n, 0), c.in(n, 1)], [c.out(n)], { axis }, n.name);
  },
  Where: (c, n) => {
    // TF's one-input Where lists coordinates as rows; ONNX NonZero lists them as columns.
    if (inputs(n).length !== 1) throw new Error(`Where ${n.name}: only the one-input form is supported`);
    const coords = c.g.op('NonZero', [c.in(n, 0)], c.aux(n, 'nonzero'));
    c.g.node('Transpose', [coords], [c.out(n)], { perm: { ints: [1, 0] } }, n.name);
  },
  ScatterNd: (c, n) => {
    // TF scatters into zeros; ONNX ScatterND needs the zeros as a tensor. TF adds duplicate
    // indices where ONNX keeps one, which is the same here: the indices come from Where.
    const zero = onnxType(n, 'T') === DataType.FLOAT ? float32Tensor([0], [1]) : int64Tensor([0], [1]);
    const zeros = c.g.op('ConstantOfShape', [c.in(n, 2)], c.aux(n, 'zeros'), { value: { tensor: zero } });
    c.g.node('ScatterND', [zeros, c.in(n, 0), c.in(n, 1)], [c.out(n)], {}, n.name);
  },
  SparseToDense: (c, n) => {
    const filled = c.g.op('Expand', [c.in(n, 3), c.in(n, 1)], c.aux(n, 'default'));
    c.g.node('ScatterND', [filled, c.in(n, 0), c.in(n, 2)], [c.out(n)], {}, n.name);
  },
  Sum: reduce('ReduceSum', true),
  Max: reduce('ReduceMax', false),
  Mean: reduce('ReduceMean', false),
  Prod: reduce('ReduceProd', false),
  MatMul: (c, n) => {
    let a = c.in(n, 0);
    let b = c.in(n, 1);
    if (attrBool(n, 'transpose_a')) a = transposeLastTwo(c, n, a, 2);
    if (attrBool(n, 'transpose_b')) b = transposeLastTwo(c, n, b, 2);
    c.g.node('MatMul', [a, b], [c.out(n)], {}, n.name);
  },
  BatchMatMul: batchMatMul,
  BatchMatMulV2: batchMatMul,
  Conv2D: (c, n) => {
    // A 1x1 NHWC convolution with unit strides is a MatMul over the channel axis.
    requireNhwc(n);
    const kernel = c.constTensor(n, 1);
    const [kh, kw, cin, cout] = kernel.shape;
    const unit = (key: string) => attrInts(n, key).every((v) => v === 1);
    if (kh !== 1 || kw !== 1 || !unit('strides') || !unit('dilations')) {
      throw new Error(`Conv2D ${n.name}: only 1x1 kernels with unit strides and dilations are supported`);
    }
    const weights = c.g.initializer(c.aux(n, 'kernel'), DataType.FLOAT, [cin, cout], kernel.data);
    c.g.node('MatMul', [c.in(n, 0), weights], [c.out(n)], {}, n.name);
  },
  SplitV: (c, n) => {
    const sizes = c.constInts(n, 1);
    const [axis] = c.constInts(n, 2);
    if (sizes.some((s) => s < 0)) throw new Error(`SplitV ${n.name}: inferred (-1) sizes are not supported`);
    const outs = sizes.map((_, i) => c.out(n, i));
    c.g.node('Split', [c.in(n, 0), c.g.int64(sizes)], outs, { axis }, n.name);
  },
  Slice: (c, n) => {
    const begin = c.constInts(n, 1);
    const size = c.constInts(n, 2);
    const ends = begin.map((b, i) => (size[i] === -1 ? INT64_MAX : BigInt(b + size[i])));
    const axes = begin.map((_, i) => i);
    c.g.node('Slice', [c.in(n, 0), c.g.int64(begin), c.g.int64(ends), c.g.int64(axes)], [c.out(n)], {}, n.name);
  },
  StridedSlice: (c, n) => {
    const p = stridedSliceToSlice({
      begin: c.constInts(n, 1),
      end: c.constInts(n, 2),
      strides: c.constInts(n, 3),
      beginMask: attrInt(n, 'begin_mask'),
      endMask: attrInt(n, 'end_mask'),
      shrinkAxisMask: attrInt(n, 'shrink_axis_mask'),
      ellipsisMask: attrInt(n, 'ellipsis_mask'),
      newAxisMask: attrInt(n, 'new_axis_mask'),
    });
    const ins = [c.in(n, 0), c.g.int64(p.starts), c.g.int64(p.ends), c.g.int64(p.axes), c.g.int64(p.steps)];
    if (!p.squeeze.length) {
      c.g.node('Slice', ins, [c.out(n)], {}, n.name);
      return;
    }
    const sliced = c.g.op('Slice', ins, c.aux(n, 'slice'));
    c.g.node('Squeeze', [sliced, c.g.int64(p.squeeze)], [c.out(n)], {}, n.name);
  },
};

function batchMatMul(c: Converter, n: TfjsNode): void {
  // Adjoints swap the last two axes. Without shape inference the rank is not known here; the
  // graphs converted so far (multi-head attention) use [batch, heads, seq, depth].
  let a = c.in(n, 0);
  let b = c.in(n, 1);
  if (attrBool(n, 'adj_x')) a = transposeLastTwo(c, n, a, 4);
  if (attrBool(n, 'adj_y')) b = transposeLastTwo(c, n, b, 4);
  c.g.node('MatMul', [a, b], [c.out(n)], {}, n.name);
}
