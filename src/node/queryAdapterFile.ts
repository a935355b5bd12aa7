/**
 * Reads and writes a trained query adapter (src/core/route/queryAdapter.ts): a folder with
 * manifest.json `{id, kind: "query-adapter", base, dims, file, sha256, ...}` and the matrix as
 * little-endian float32 rows. The default lives in models/adapter (built by bench/trainAdapter.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { QueryAdapter } from '../core/route/queryAdapter';

export const ADAPTER_MANIFEST = 'manifest.json';
const MATRIX_FILE = 'query-adapter.f32';

export interface AdapterManifest {
  id: string;
  kind: 'query-adapter';
  base: string;
  dims: number;
  file: string;
  sha256: string;
  [extra: string]: unknown;
}

/** Whether `dir` holds an adapter. */
export function hasAdapter(dir: string): boolean {
  return existsSync(path.join(dir, ADAPTER_MANIFEST));
}

/** The adapter in `dir`; throws with what is wrong (missing file, wrong size, checksum). */
export function readAdapter(dir: string): QueryAdapter {
  const manifest = JSON.parse(readFileSync(path.join(dir, ADAPTER_MANIFEST), 'utf8')) as Partial<AdapterManifest>;
  if (manifest.kind !== 'query-adapter' || typeof manifest.base !== 'string' || !Number.isSafeInteger(manifest.dims) || typeof manifest.file !== 'string') {
    throw new Error(`${path.join(dir, ADAPTER_MANIFEST)} is not a query adapter's manifest`);
  }
  const bytes = readFileSync(path.join(dir, manifest.file));
  const dims = manifest.dims!;
  if (bytes.length !== dims * dims * 4) throw new Error(`${manifest.file} has ${bytes.length} bytes, expected ${dims * dims * 4}`);
  if (manifest.sha256 && createHash('sha256').update(bytes).digest('hex') !== manifest.sha256) throw new Error(`${manifest.file} does not match its checksum`);
  const matrix = new Float32Array(dims * dims);
  new Uint8Array(matrix.buffer).set(bytes);
  for (let i = 0; i < matrix.length; i++) if (!Number.isFinite(matrix[i])) throw new Error(`${manifest.file} holds non-finite values`);
  return { base: manifest.base, dims, matrix };
}

/** Writes `adapter` to `dir` with the extra manifest fields; returns the manifest. */
export function writeAdapter(dir: string, adapter: QueryAdapter, id: string, extra: Record<string, unknown>): AdapterManifest {
  mkdirSync(dir, { recursive: true });
  const bytes = Buffer.from(adapter.matrix.buffer, adapter.matrix.byteOffset, adapter.matrix.byteLength);
  writeFileSync(path.join(dir, MATRIX_FILE), bytes);
  const manifest: AdapterManifest = { id, kind: 'query-adapter', base: adapter.base, dims: adapter.dims, file: MATRIX_FILE, sha256: createHash('sha256').update(bytes).digest('hex'), ...extra };
  writeFileSync(path.join(dir, ADAPTER_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
