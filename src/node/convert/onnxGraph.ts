import { onnx } from 'onnx-proto';

export const DataType = onnx.TensorProto.DataType;

/** Attribute values by kind; the wrapper object keeps `[1]` (ints) apart from a tensor. */
export type AttrValue =
  | number
  | { ints: number[] }
  | { tensor: onnx.ITensorProto }
  | string;

/** A dimension: a fixed size or a symbolic name. */
export type Dim = number | string;

// ONNX's "to the end" for Slice; a JS number cannot hold it, so int64 tensors are built from bigint.
export const INT64_MAX = 9223372036854775807n;
export const INT64_MIN = -9223372036854775808n;

/**
 * Collects nodes and initializers in insertion order and encodes them as a ModelProto. Nothing
 * here depends on time or iteration order of hash maps, so the same calls give the same bytes.
 */
export class OnnxGraph {
  readonly nodes: onnx.INodeProto[] = [];
  readonly initializers: onnx.ITensorProto[] = [];
  readonly inputs: onnx.IValueInfoProto[] = [];
  readonly outputs: onnx.IValueInfoProto[] = [];
  private readonly names = new Set<string>();
  private readonly constCache = new Map<string, string>();

  /** A value name not used yet, derived from `base`. */
  fresh(base: string): string {
    let name = base;
    for (let i = 1; this.names.has(name); i++) name = `${base}_${i}`;
    this.names.add(name);
    return name;
  }

  /** Adds a node; `outputs` are taken as given (callers make them unique). Returns them. */
  node(opType: string, inputs: string[], outputs: string[], attrs: Record<string, AttrValue> = {}, name?: string): string[] {
    for (const o of outputs) this.names.add(o);
    const attribute = Object.entries(attrs).map(([key, value]) => attr(key, value));
    this.nodes.push({ opType, input: inputs, output: outputs, name: name ?? outputs[0], attribute });
    return outputs;
  }

  /** Adds a node with one output named after `base`, and returns that output. */
  op(opType: string, inputs: string[], base: string, attrs: Record<string, AttrValue> = {}): string {
    return this.node(opType, inputs, [this.fresh(base)], attrs)[0];
  }

  initializer(name: string, dataType: number, dims: number[], rawData: Uint8Array): string {
    this.names.add(name);
    this.initializers.push({ name, dataType, dims, rawData });
    return name;
  }

  /** An int64 initializer, shared between callers that ask for the same values. */
  int64(values: Array<number | bigint>, dims: number[] = [values.length]): string {
    const key = `i64:${dims.join('x')}:${values.join(',')}`;
    const cached = this.constCache.get(key);
    if (cached) return cached;
    const name = this.initializer(this.fresh(`const_i64_${this.constCache.size}`), DataType.INT64, dims, int64Bytes(values));
    this.constCache.set(key, name);
    return name;
  }

  input(name: string, elemType: number, dims: Dim[]): void {
    this.names.add(name);
    this.inputs.push(valueInfo(name, elemType, dims));
  }

  /** Declares a graph output; without `dims` its shape is left to the runtime. */
  output(name: string, elemType: number, dims?: Dim[]): void {
    this.outputs.push(valueInfo(name, elemType, dims));
  }

  /** Serialises the graph as an opset-17 model. */
  encode(meta: { graphName: string; producer: string; docString?: string; metadata?: Record<string, string> }): Uint8Array {
    const model: onnx.IModelProto = {
      irVersion: 8,
      opsetImport: [{ domain: '', version: 17 }],
      producerName: meta.producer,
      docString: meta.docString,
      graph: {
        name: meta.graphName,
        node: this.nodes,
        initializer: this.initializers,
        input: this.inputs,
        output: this.outputs,
      },
      metadataProps: Object.entries(meta.metadata ?? {}).map(([key, value]) => ({ key, value })),
    };
    return onnx.ModelProto.encode(onnx.ModelProto.create(model)).finish();
  }
}

export function int64Bytes(values: Array<number | bigint>): Uint8Array {
  const out = new BigInt64Array(values.length);
  values.forEach((v, i) => (out[i] = BigInt(v)));
  return new Uint8Array(out.buffer);
}

export function float32Tensor(values: number[], dims: number[] = []): onnx.ITensorProto {
  return { dataType: DataType.FLOAT, dims, rawData: new Uint8Array(new Float32Array(values).buffer) };
}

export function int64Tensor(values: number[], dims: number[] = []): onnx.ITensorProto {
  return { dataType: DataType.INT64, dims, rawData: int64Bytes(values) };
}

function attr(name: string, value: AttrValue): onnx.IAttributeProto {
  const T = onnx.AttributeProto.AttributeType;
  if (typeof value === 'number') return { name, type: T.INT, i: value };
  if (typeof value === 'string') return { name, type: T.STRING, s: Buffer.from(value, 'utf8') };
  if ('ints' in value) return { name, type: T.INTS, ints: value.ints };
  return { name, type: T.TENSOR, t: value.tensor };
}

function valueInfo(name: string, elemType: number, dims?: Dim[]): onnx.IValueInfoProto {
  const shape = dims && { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) };
  return { name, type: { tensorType: { elemType, shape } } };
}
