#!/usr/bin/env bash
# Cross-compiles the Windows backend of the capture addon with mingw-w64 and writes
# prebuilds/win32-x64/mcp-gates.node, where node-gyp-build looks on Windows.
#
# Needs: Debian's g++-mingw-w64-x86-64-posix (the posix thread model: node-addon-api
# uses std::mutex, which the win32 model lacks) and the node-api-headers and
# node-addon-api npm packages (npm ci).
#
# The DLL imports the N-API symbols from "node.exe" by name, through an import
# library made from node-api-headers' .def files, so it loads only into a host
# executable named node.exe (the official Windows builds are).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

cxx="${MINGW_CXX:-x86_64-w64-mingw32-g++-posix}"
dlltool="${MINGW_DLLTOOL:-x86_64-w64-mingw32-dlltool}"
for tool in "$cxx" "$dlltool"; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "cross-build-windows: $tool not found; install it with: apt-get install -y g++-mingw-w64-x86-64-posix" >&2
    exit 1
  fi
done

headers="$(node -p "require('path').dirname(require.resolve('node-api-headers/package.json'))")"
addon_api="$(node -p "require('node-addon-api').include_dir")"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# One .def for both halves of the API. The files lack a trailing newline, so join
# them line by line, keeping a single NAME/EXPORTS header.
{
  cat "$headers/def/js_native_api.def"
  echo
  grep -v -e '^NAME ' -e '^EXPORTS' "$headers/def/node_api.def"
  echo
} >"$work/node.def"
"$dlltool" -d "$work/node.def" -l "$work/libnode_imp.a" -D node.exe

out_dir="prebuilds/win32-x64"
mkdir -p "$out_dir"
out="$out_dir/mcp-gates.node"

"$cxx" -shared -std=c++17 -O2 -Wall -Wextra -Werror \
  -DNAPI_VERSION=8 -DNAPI_CPP_EXCEPTIONS -DNODE_ADDON_API_DISABLE_DEPRECATED \
  -I"$headers/include" -I"$addon_api" -Inative \
  native/binding.cc native/capture_win.cc native/lifeline_win.cc \
  "$work/libnode_imp.a" \
  -static -s -o "$out"

# Fail hard unless the result is a PE32+ DLL importing nothing beyond the system
# DLLs and node.exe (a stray dependency would not load on a clean machine).
if ! file "$out" | grep -q 'PE32+ executable (DLL)'; then
  echo "cross-build-windows: $out is not a PE32+ DLL: $(file "$out")" >&2
  exit 1
fi
imports="$(x86_64-w64-mingw32-objdump -p "$out" | sed -n 's/^\s*DLL Name: //p' | tr 'A-Z' 'a-z' | sort -u | tr '\n' ' ')"
for dll in $imports; do
  case "$dll" in
    kernel32.dll | msvcrt.dll | node.exe) ;;
    *)
      echo "cross-build-windows: unexpected import $dll in $out (imports: $imports)" >&2
      exit 1
      ;;
  esac
done
echo "cross-build-windows: wrote $out ($(wc -c <"$out") bytes; imports: $imports)"
