#!/usr/bin/env bash
# In-editor tests in a real VS Code (code-server 1.100.3 + headless Chromium): installs them if
# needed, builds the extension and the suite, then runs
#   grammar: the front-matter injection tokenized by VS Code's TextMate engine and grammars,
#   int:     the mocha suite in test/e2e/suite inside VS Code's extension host,
#   ui:      the workbench driven like a user (status bar, squiggle, hover), with screenshots.
# Usage: test/e2e/run.sh [grammar|int|ui|all]   (default all). Env: E2E_TOOLS, E2E_OUT (screenshots, logs).
# Closes with the line CI reads: "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/../.."
export E2E_TOOLS="${E2E_TOOLS:-$PWD/.e2e/tools}"
export E2E_OUT="${E2E_OUT:-$PWD/.e2e/out}"
mode="${1:-all}"
bash test/e2e/setup.sh >/dev/null
[ -f models/use-lite/onnx/model.onnx ] || npm run build:models
node esbuild.mjs
node test/e2e/build.mjs
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
  int) run test/e2e/vscode.mjs int ;;
  ui) run test/e2e/vscode.mjs ui ;;
  all) run test/e2e/grammar.mjs; run test/e2e/vscode.mjs int; run test/e2e/vscode.mjs ui ;;
  *) echo "usage: $0 [grammar|int|ui|all]" >&2; exit 2 ;;
esac
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
