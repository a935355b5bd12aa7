import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One attribute value of a TF.js graph node (the JSON form of tensorflow's AttrValue). */
export interface TfjsAttr {
  i?: string | number;
  f?: number;
  b?: boolean;
  s?: number[] | string;
  type?: number;
  list?: { i?: Array<string | number>; f?: number[] };
  tensor?: unknown;
  shape?: unknown;
}

export interface TfjsNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, TfjsAttr>;
}

export type TfjsDtype = 'float32' | 'int32' | 'bool';

/** A constant read from the weight shards, still in its TF.js byte layout (little-endian). */
export interface TfjsTensor {
  dtype: TfjsDtype;
  shape: number[];
  data: Uint8Array;
}

export interface TfjsModel {
  nodes: TfjsNode[];
  weights: Map<string, TfjsTensor>;
}

interface WeightSpec {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: unknown;
}

interface ModelJson {
  modelTopology: { node: TfjsNode[]; library?: { function?: unknown[] } };
  weightsManifest: Array<{ paths: string[]; weights: WeightSpec[] }>;
}

const BYTES: Record<TfjsDtype, number> = { float32: 4, int32: 4, bool: 1 };

/** Reads a TF.js GraphModel folder: `model.json` and the weight shards it names. */
export function readTfjsModel(dir: string): TfjsModel {
  const json = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')) as ModelJson;
  if (json.modelTopology.library?.function?.length) {
    throw new Error('TF.js graphs with a function library (control flow) are not supported');
  }
  const weights = new Map<string, TfjsTensor>();
  for (const group of json.weightsManifest) {
    // A group's shards are one buffer cut into files; weights lie back to back across the cuts.
    const buffer = Buffer.concat(group.paths.map((p) => readFileSync(join(dir, p))));
    let offset = 0;
    for (const spec of group.weights) {
      if (spec.quantization) throw new Error(`quantized weight ${spec.name} is not supported`);
      if (!(spec.dtype in BYTES)) throw new Error(`weight ${spec.name}: dtype ${spec.dtype} is not supported`);
      const dtype = spec.dtype as TfjsDtype;
      const size = spec.shape.reduce((a, b) => a * b, 1) * BYTES[dtype];
      if (offset + size > buffer.length) throw new Error(`weight shards end before ${spec.name}`);
      weights.set(spec.name, { dtype, shape: spec.shape, data: buffer.subarray(offset, offset + size) });
      offset += size;
    }
  }
  return { nodes: json.modelTopology.node, weights };
}

/** The values of an int32 or float32 tensor as plain numbers. */
export function tensorValues(t: TfjsTensor): number[] {
  const view = new DataView(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  const out: number[] = [];
  for (let i = 0; i < t.data.byteLength; i += BYTES[t.dtype]) {
    if (t.dtype === 'float32') out.push(view.getFloat32(i, true));
    else if (t.dtype === 'int32') out.push(view.getInt32(i, true));
    else out.push(view.getUint8(i));
  }
  return out;
}
