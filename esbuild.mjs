// Bundles each entry point. Native modules and the TF.js reference runtime stay external:
// they load their binaries from node_modules at run time.
import * as esbuild from 'esbuild';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// gray-matter's js-yaml 3 requires esprima at load time for its `!!js/function` tag (~0.1 s of
// every CLI start). Only its safe loader is used (src/core/parse/frontMatter.ts), whose schema has
// no JavaScript tags, so the bundles leave esprima out: js-yaml then treats the tag as unknown, as
// it does in a browser.
const ESPRIMA_LINE = "esprima = _require('esprima');";
const noEsprima = {
  name: 'no-esprima',
  setup(build) {
    build.onLoad({ filter: /js-yaml[\\/]lib[\\/]js-yaml[\\/]type[\\/]js[\\/]function\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(ESPRIMA_LINE)) throw new Error(`${args.path}: the esprima require moved; update esbuild.mjs`);
      return { contents: source.replace(ESPRIMA_LINE, 'esprima = undefined;'), loader: 'js' };
    });
  },
};

const external = [
  'onnxruntime-node',
  'hnswlib-node',
  '@node-rs/jieba',
  '@energetic-ai/*',
  'vscode',
];

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  external,
  logLevel: 'warning',
  plugins: [noEsprima],
};

const entries = {
  'dist/cli.js': 'src/cli/main.ts',
  // bin/skill-router.js: loads dist/cli.js with V8's code cache.
  'dist/launch.js': 'src/cli/launch.ts',
  // bin/skill-router.js loads it first for `hook`: a running server's answer without the CLI bundle.
  'dist/hookFast.js': 'src/cli/hookFast.ts',
  'dist/buildModels.js': 'src/node/buildModels.ts',
  'dist/server.js': 'src/server/main.ts',
  'dist/extension.js': 'src/client/extension.ts',
  // The embedding model's worker thread, started by the server and the CLI (src/node/workerEmbedder.ts).
  'dist/embedWorker.js': 'src/node/embedWorker.ts',
};

function listTests(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...listTests(path));
    else if (name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

const builds = [];
for (const [outfile, entry] of Object.entries(entries)) {
  try {
    statSync(entry);
  } catch {
    continue; // entry not written yet
  }
  builds.push(esbuild.build({ ...common, entryPoints: [entry], outfile }));
}
// The query panel's script runs in the webview (a browser page), not in Node.
builds.push(esbuild.build({
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  sourcemap: 'linked',
  logLevel: 'warning',
  entryPoints: ['src/webview/panel.ts'],
  outfile: 'dist/webview/panel.js',
}));
const tests = ['test/unit', 'test/adapters', 'test/cli', 'test/server', 'test/dom', 'test/package']
  .filter((d) => { try { return statSync(d).isDirectory(); } catch { return false; } })
  .flatMap(listTests);
if (tests.length) {
  builds.push(esbuild.build({
    ...common,
    entryPoints: tests,
    outdir: 'out',
    outbase: '.',
    external: [...external, 'mocha', 'playwright-core'],
  }));
}
// Compiled tests (out/test/<suite>/) and benches (out/bench/) find their worker at out/.
if (tests.length || process.argv.includes('--bench')) {
  builds.push(esbuild.build({ ...common, entryPoints: ['src/node/embedWorker.ts'], outfile: 'out/embedWorker.js' }));
}
if (process.argv.includes('--bench')) {
  const benches = readdirSync('bench').filter((f) => f.endsWith('.ts')).map((f) => join('bench', f));
  builds.push(esbuild.build({ ...common, entryPoints: benches, outdir: 'out/bench' }));
}
await Promise.all(builds);
