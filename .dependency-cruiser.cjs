// Layer rules of Skill Router (docs/architecture.md), checked by `npm test`
// (test/unit/architecture.test.ts runs dependency-cruiser with this file).
//
//   core  <-  node  <-  cli, server  <-  client          shared: protocol types; webview: the panel's DOM
//
// core is pure (no file system, no native or editor modules); only the client imports `vscode`;
// the two shells (cli, server) do not import each other; nothing imports in a circle.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Import cycles hide which module owns what.', from: {}, to: { circular: true } },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment: 'core gets its capabilities injected: no other layer, no Node built-ins, no native or editor modules.',
      from: { path: '^src/core/' },
      to: {
        pathNot: ['^src/core/', '^models/[^/]+/[^/]+\\.json$', '(^|/)node_modules/(stopword|wink-porter2-stemmer|gray-matter|js-yaml)/'],
      },
    },
    { name: 'node-over-core', severity: 'error', comment: 'The Node adapters build on core only.', from: { path: '^src/node/' }, to: { path: '^src/(cli|server|client|webview|shared)/' } },
    { name: 'shells-apart', severity: 'error', comment: 'The CLI and the language server are two shells over core; what both need lives in core or node.', from: { path: '^src/(cli|server)/' }, to: { path: '^src/(cli|server)/', pathNot: '^src/$1/' } },
    { name: 'shells-below-client', severity: 'error', comment: 'The CLI and the server never reach into the editor or the panel.', from: { path: '^src/(cli|server)/' }, to: { path: '^src/(client|webview)/' } },
    { name: 'client-not-into-shells', severity: 'error', comment: 'The extension talks to the server over LSP, not by importing it.', from: { path: '^src/client/' }, to: { path: '^src/(cli|server)/' } },
    { name: 'client-no-native', severity: 'error', comment: 'Heavy work (ONNX, HNSW, segmentation) runs in the server process, never in the extension host.', from: { path: '^src/client/' }, to: { path: '(^|/)node_modules/(onnxruntime-node|hnswlib-node|@node-rs/jieba)/' } },
    { name: 'vscode-in-client-only', severity: 'error', comment: 'Only src/client imports "vscode".', from: { pathNot: '^src/client/' }, to: { path: '^vscode$|node_modules/@types/vscode/' } },
    { name: 'webview-is-a-page', severity: 'error', comment: 'The panel script runs in a browser page: shared protocol and pure core only.', from: { path: '^src/webview/' }, to: { pathNot: ['^src/(webview|shared|core)/'] } },
    { name: 'shared-is-protocol', severity: 'error', comment: 'shared holds the protocols both sides read: it builds on core only.', from: { path: '^src/shared/' }, to: { path: '^src/(node|cli|server|client|webview)/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^src/types/' },
  },
};
