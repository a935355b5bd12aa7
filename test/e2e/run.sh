#!/usr/bin/env bash
# In-editor tests in a real VS Code (code-server 1.100.3 + headless Chromium): installs them if
# needed, builds the extension, packages the .vsix and builds the suite, then runs
#   grammar:    the front-matter injection tokenized by VS Code's TextMate engine and grammars,
#   int:        the mocha suite in test/e2e/suite inside VS Code's extension host,
#   ui:         the workbench driven like a user (status item, squiggle, hover, quick fix, query panel),
#               with screenshots,
#   activation: extension start -> index ready on the fixture and on $E2E_CORPUS (default
#               /work/shared/corpus/skills when present), and the .vsix size, into
#               bench/results/activation.json (not part of "all").
# int, ui and activation install the packaged .vsix into code-server (offline) and run that copy.
# Usage: test/e2e/run.sh [grammar|int|ui|all|activation] [--dev]   (default all; --dev runs the source
# tree as a development extension instead of the .vsix). Env: E2E_TOOLS, E2E_OUT (screenshots, logs),
# E2E_VSIX (use this .vsix instead of packaging one).
# Closes with the line CI reads: "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/../.."
export E2E_TOOLS="${E2E_TOOLS:-$PWD/.e2e/tools}"
export E2E_OUT="${E2E_OUT:-$PWD/.e2e/out}"
mode="${1:-all}"
dev=()
[ "${2:-}" = "--dev" ] && dev=(--dev)
case "$mode" in grammar|int|ui|all|activation) ;; *) echo "usage: $0 [grammar|int|ui|all|activation] [--dev]" >&2; exit 2 ;; esac
bash test/e2e/setup.sh >/dev/null
[ -f models/use-lite/onnx/model.onnx ] || npm run build:models
node esbuild.mjs
node test/e2e/build.mjs
if [ "$mode" != grammar ] && [ ${#dev[@]} -eq 0 ] && [ -z "${E2E_VSIX:-}" ]; then
  node scripts/package.mjs | tail -1
fi
passed=0; failed=0
run() {
  local out
  if out=$(node "$@" 2>&1); then :; fi
  printf '%s\n' "$out" | grep -v '^[0-9]* passed, [0-9]* failed$' || true
  local line; line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -1)
  if [ -z "$line" ]; then failed=$((failed + 1)); return; fi
  passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
  failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
}
case "$mode" in
  grammar) run test/e2e/grammar.mjs ;;
  int) run test/e2e/vscode.mjs int "${dev[@]}" ;;
  ui) run test/e2e/vscode.mjs ui "${dev[@]}" ;;
  all) run test/e2e/grammar.mjs; run test/e2e/vscode.mjs int "${dev[@]}"; run test/e2e/vscode.mjs ui "${dev[@]}" ;;
  activation)
    json=bench/results/activation.json
    mkdir -p bench/results
    vsix="${E2E_VSIX:-$(node -p 'const p=require("./package.json");`${p.name}-${p.version}-${process.platform}-${process.arch}.vsix`')}"
    node -e '
      const fs = require("fs"); const [json, vsix] = process.argv.slice(1);
      const out = { measured: new Date().toISOString(), machine: `${require("os").cpus().length} CPUs, Node ${process.version}`, loadAverageAtStart: require("os").loadavg().map((x) => +x.toFixed(1)),
        vscode: "code-server 4.100.3 (VS Code 1.100.3), extension installed from the .vsix",
        vsix: { file: require("path").basename(vsix), bytes: fs.statSync(vsix).size, mb: +(fs.statSync(vsix).size / 1048576).toFixed(1) } };
      fs.writeFileSync(json, JSON.stringify(out, null, 2) + "\n");' "$json" "$vsix"
    run test/e2e/vscode.mjs activation --json "$json" --label fixture "${dev[@]}"
    corpus="${E2E_CORPUS:-/work/shared/corpus/skills}"
    if [ -d "$corpus" ]; then run test/e2e/vscode.mjs activation --workspace "$corpus" --json "$json" --label corpus "${dev[@]}"; fi
    cat "$json" ;;
esac
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
