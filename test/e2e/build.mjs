// Bundles the in-editor suite for VS Code's extension host: out/test/e2e/{index,*.test}.js.
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';

const entries = readdirSync('test/e2e/suite').filter((f) => f.endsWith('.ts')).map((f) => `test/e2e/suite/${f}`);
await esbuild.build({
  entryPoints: entries,
  outdir: 'out/test/e2e',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['vscode', 'mocha'],
  logLevel: 'warning',
});
