#!/usr/bin/env bash
# Prints the directory holding a `node` that meets the package's `engines.node` (>= 22.9.0, what
# the dependencies require: tests/docs/node-engines.test.ts) (last line of stdout). Every script of
# package.json runs under it (scripts/with-node.sh, scripts/setup.sh), and the engine tests' program
# and provider processes run on it with Node's module compile cache (NODE_COMPILE_CACHE, Node >=
# 22.1), which saves about 40% of the CPU each process spends loading @pulumi/pulumi and this
# package (tests/engine/harness.ts, docs/development.md).
#
# 1. A `node` on PATH at least as new as MIN_VERSION is used as is (the directory of the binary
#    itself, should PATH hold a link to it).
# 2. Otherwise Node NODE_VERSION is unpacked from the npm registry's node-linux-<arch> package (the
#    official binaries) into a cache outside the repo, keyed by version, as ensure-pulumi.sh keeps
#    the engine:  ${SECRETOPS_PULUMI_CACHE:-~/.cache/secretops-pulumi}/node-<version>/bin
#    A 50 MB download, 120 MB unpacked, once; a second run takes a few milliseconds.
# Progress goes to stderr.
set -euo pipefail

NODE_VERSION="${SECRETOPS_NODE_VERSION:-22.23.3}"
MIN_VERSION="22.9.0"
log() { echo "[ensure-node] $*" >&2; }
# shellcheck source=engine/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/engine/common.sh"

found="$(node --version 2>/dev/null | sed 's/^v//' || true)"
if [ -n "$found" ] && version_ge "$found" "$MIN_VERSION"; then
  dirname "$(readlink -f "$(command -v node)")"
  exit 0
fi

root="$cache/node-$NODE_VERSION"
if [ -x "$root/bin/node" ]; then
  echo "$root/bin"
  exit 0
fi

hold_lock "$root.lock" "Node.js $NODE_VERSION"
if [ -x "$root/bin/node" ]; then
  echo "$root/bin"
  exit 0
fi

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) log "no Node.js package for $(uname -m)"; exit 1 ;;
esac
log "installing Node.js $NODE_VERSION (node-linux-$arch from the npm registry) into $root"
tmp="$(mktemp -d "$cache/node-download.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "node-linux-$arch@$NODE_VERSION" --silent >/dev/null && tar xzf node-linux-*.tgz)
"$tmp/package/bin/node" --version >/dev/null
rm -rf "$tmp/package/include" # C headers, for native addons only
# Renamed last, so an interrupted download is never mistaken for a finished one.
mv "$tmp/package" "$root"
echo "$root/bin"
