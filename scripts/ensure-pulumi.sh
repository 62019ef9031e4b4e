#!/usr/bin/env bash
# Makes the real Pulumi engine available offline and prints the directory holding
# `pulumi`, `pulumi-language-nodejs`, `pulumi-resource-pulumi-nodejs` and `pulumi-analyzer-policy-node`
# (last line of stdout).
#
# 1. A `pulumi` on PATH at least as new as MIN_VERSION is used as is.
# 2. Otherwise the CLI and the Node.js language host are built from Go modules through
#    the Go module proxy, into a cache outside the repo keyed by version:
#      ${SECRETOPS_PULUMI_CACHE:-~/.cache/secretops-pulumi}/pulumi-<version>/bin
#    A second run finds the binaries there and takes well under a second.
# Progress goes to stderr, so callers can capture the directory from stdout.
#
# `ensure-pulumi.sh --languages` adds the language hosts and runtimes for YAML, Python, Go and C#
# programs and SDKs (scripts/engine/languages.sh) and prints the directory holding them and the above.
set -euo pipefail

PULUMI_VERSION="${SECRETOPS_PULUMI_VERSION:-3.259.0}"
# See scripts/engine/language-host.go.mod.tmpl for why the language host is built from sdk/v3@3.68.0.
LANGUAGE_HOST_VERSION="${SECRETOPS_PULUMI_LANGUAGE_HOST_VERSION:-3.68.0}"
# The SDK needs `configure` (3.139) and read() returning inputs (3.216); we pin the SDK at 3.248.0.
MIN_VERSION="3.248.0"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
if [ "${1:-}" = "--languages" ]; then exec bash "$here/engine/languages.sh"; fi
log() { echo "[ensure-pulumi] $*" >&2; }
# shellcheck source=engine/common.sh
. "$here/engine/common.sh"

shim_src="$repo/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
# The policy-pack launcher (`pulumi preview --policy-pack`), a bin of this package, also placed here for this checkout.
analyzer_src="$here/pulumi-analyzer-policy-node"

place_file() { # place_file SRC DEST: copy when missing or different (a second run copies nothing)
  if [ -f "$1" ] && ! cmp -s "$1" "$2" 2>/dev/null; then
    cp "$1" "$2"
    chmod 0755 "$2"
  fi
}

place_shim() { # the dynamic-provider shim ships in the @pulumi/pulumi npm package
  local bin="$1"
  place_file "$shim_src" "$bin/pulumi-resource-pulumi-nodejs"
  place_file "$analyzer_src" "$bin/pulumi-analyzer-policy-node"
}

# 1. An installed pulumi that is new enough, with its language host beside it or on PATH.
if [ -z "${SECRETOPS_PULUMI_FORCE_BUILD:-}" ] && command -v pulumi >/dev/null 2>&1; then
  found="$(PULUMI_SKIP_UPDATE_CHECK=true pulumi version 2>/dev/null | sed 's/^v//' || true)"
  if [ -n "$found" ] && version_ge "$found" "$MIN_VERSION" && command -v pulumi-language-nodejs >/dev/null 2>&1; then
    log "using pulumi $found from PATH"
    bin="$(dirname "$(readlink -f "$(command -v pulumi)")")"
    if [ -w "$bin" ]; then place_shim "$bin"; fi
    echo "$bin"
    exit 0
  fi
  log "pulumi on PATH is ${found:-unknown}; need >= $MIN_VERSION with pulumi-language-nodejs, building instead"
fi

root="$cache/pulumi-$PULUMI_VERSION-nodejs-$LANGUAGE_HOST_VERSION"
bin="$root/bin"
# Compiled into the language host (see the file); its copy beside the host says which one it was
# built with, so a changed file rebuilds the host (not the CLI) in a cache built before it.
host_options="$here/engine/language-host-options.go"
host_ready() { [ -x "$bin/pulumi-language-nodejs" ] && cmp -s "$host_options" "$bin/.language-host-options.go"; }

if [ -x "$bin/pulumi" ] && host_ready; then
  place_shim "$bin"
  echo "$bin"
  exit 0
fi

hold_lock "$root/.build.lock" "the engine"
if [ -x "$bin/pulumi" ] && host_ready; then
  place_shim "$bin"
  echo "$bin"
  exit 0
fi

command -v go >/dev/null 2>&1 || {
  log "no usable pulumi on PATH and no Go toolchain: install Go >= 1.24 (or pulumi >= $MIN_VERSION)"
  exit 1
}

if [ -x "$bin/pulumi" ]; then
  log "building the Node.js language host v$LANGUAGE_HOST_VERSION from Go modules into $bin (language-host-options.go changed)"
else
  log "building pulumi v$PULUMI_VERSION and its Node.js language host from Go modules into $bin"
fi
log "a cold build downloads ~1.5 GB of modules and compiles for several minutes on 2 cores; later runs reuse the cache"
start=$(date +%s)
mkdir -p "$bin" "$root/cli" "$root/language-host"

go_from_proxy_only "$root/cli"

build() { # build MODULE_DIR PACKAGE VERSION OUTPUT
  local dir="$1" pkg="$2" ver="$3" out="$4"
  ( cd "$dir" &&
    tick "resolving $pkg" go get "$pkg@v$ver" &&
    tick "compiling $(basename "$out")" go build -trimpath -tags osusergo,grpcnotrace \
      -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$ver" -o "$out.tmp" "$pkg" )
}

# The host's package copied from the module, with language-host-options.go added (the go command
# builds no added file into a package of the module cache, even through -overlay).
build_language_host() {
  local dir="$root/language-host" sdk
  sed "s/@LANGUAGE_HOST_VERSION@/$LANGUAGE_HOST_VERSION/g" "$here/engine/language-host.go.mod.tmpl" > "$dir/go.mod"
  ( cd "$dir" &&
    tick "resolving the language host" go mod download "github.com/pulumi/pulumi/sdk/v3@v$LANGUAGE_HOST_VERSION" &&
    sdk="$(go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)" &&
    rm -rf host && mkdir host &&
    find "$sdk/nodejs/cmd/pulumi-language-nodejs" -maxdepth 1 -name '*.go' ! -name '*_test.go' -exec cp {} host/ \; &&
    cp "$host_options" host/secretops_project_options.go && chmod -R u+w host &&
    tick "compiling pulumi-language-nodejs" go build -trimpath -tags osusergo,grpcnotrace \
      -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$LANGUAGE_HOST_VERSION" \
      -o "$bin/pulumi-language-nodejs.tmp" ./host )
  # Renamed last, so an interrupted build is never mistaken for a finished one.
  mv "$bin/pulumi-language-nodejs.tmp" "$bin/pulumi-language-nodejs"
  cp "$host_options" "$bin/.language-host-options.go"
}

host_ready || build_language_host
if [ ! -x "$bin/pulumi" ]; then
  sed "s/@PULUMI_VERSION@/$PULUMI_VERSION/g" "$here/engine/cli.go.mod.tmpl" > "$root/cli/go.mod"
  build "$root/cli" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi "$PULUMI_VERSION" "$bin/pulumi"
  mv "$bin/pulumi.tmp" "$bin/pulumi"
fi
place_shim "$bin"
log "built in $(( $(date +%s) - start ))s: pulumi $("$bin/pulumi" version 2>/dev/null), language host v$LANGUAGE_HOST_VERSION"
log "disk: $(du -sh "$bin" | cut -f1) binaries, $(du -sh "$(go env GOMODCACHE)" | cut -f1) module cache, $(du -sh "$(go env GOCACHE)" | cut -f1) build cache"
echo "$bin"
