#!/usr/bin/env bash
# Installs what the in-editor tests need, offline-safe (Debian apt + the npm registry only):
# headless Chromium, a CJK font (the screenshots show Chinese skills and requests; without one
# they render as boxes), and code-server 4.100.3 (VS Code 1.100.3 server + web workbench) in $E2E_TOOLS.
# About 2-3 minutes on a fresh machine; a no-op when both are there.
set -euo pipefail
TOOLS="${E2E_TOOLS:-$(cd "$(dirname "$0")/../.." && pwd)/.e2e/tools}"
CS_VERSION=4.100.3          # VS Code 1.100.3; its postinstall wants Node 20
RG_PKG_VERSION=1.15.11      # @vscode/ripgrep in code-server 4.100.3's shrinkwrap
RG_TAG=v13.0.0-10           # the ripgrep-prebuilt tag that package downloads
export DEBIAN_FRONTEND=noninteractive
if ! command -v chromium >/dev/null || ! command -v rg >/dev/null || [ ! -e /usr/include/gssapi/gssapi.h ]; then
  apt-get update -qq
  # libkrb5-dev: code-server's kerberos addon builds against it; ripgrep: seeds the download below
  apt-get install -y -qq chromium libkrb5-dev ripgrep >/dev/null
fi
if ! fc-list :lang=zh 2>/dev/null | grep -q .; then
  apt-get update -qq
  apt-get install -y -qq fonts-noto-cjk >/dev/null
fi
if [ ! -x "$TOOLS/node_modules/.bin/code-server" ]; then
  # @vscode/ripgrep downloads from GitHub unless its cache holds the archive: put Debian's rg there.
  RG_CACHE="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-$RG_PKG_VERSION"
  mkdir -p "$RG_CACHE" "$TOOLS/rgseed"
  cp "$(command -v rg)" "$TOOLS/rgseed/rg"
  tar czf "$RG_CACHE/ripgrep-$RG_TAG-x86_64-unknown-linux-musl.tar.gz" -C "$TOOLS/rgseed" rg
  [ -f "$TOOLS/package.json" ] || echo '{"private":true}' > "$TOOLS/package.json"
  # unsafe_perm: code-server's postinstall refuses root without it; yes: a postinstall runs npx without a TTY
  ( cd "$TOOLS" && npm_config_unsafe_perm=true npm_config_yes=true \
      npm install --no-audit --no-fund --foreground-scripts "code-server@$CS_VERSION" > install.log 2>&1 ) \
    || { tail -40 "$TOOLS/install.log"; exit 1; }
fi
"$TOOLS/node_modules/.bin/code-server" --version --config "$TOOLS/config.yaml" | head -1
