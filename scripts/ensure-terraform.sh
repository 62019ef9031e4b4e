#!/usr/bin/env bash
# Makes a Terraform-compatible CLI (OpenTofu) and the vendor's Terraform provider for Infisical
# available offline, for the bench beside the vendor (scripts/bench-vendor.ts), and prints the directory holding
# `tofu` and `terraform-provider-infisical` (last line of stdout). Progress goes to stderr.
#
# Both are built from Go modules through the Go module proxy (the only route this machine has), into
#   ${SECRETOPS_PULUMI_CACHE:-~/.cache/secretops-pulumi}/terraform-tofu-<v>-infisical-<v>/bin
# A second run finds the binaries there and takes well under a second.
#
# Why OpenTofu and not Terraform: `go install github.com/hashicorp/terraform@v1.13.3` is refused
# (its go.mod has replace directives), and releases.hashicorp.com is out of reach. OpenTofu's module
# also refuses `go install` for its one replace (hcl/v2 => opentofu/hcl/v2), so its source is taken
# from the proxy with `go mod download` and built as the main module, where the replace applies.
#
# The provider: github.com/Infisical/terraform-provider-infisical is NOT served by the module proxy
# (403 "This module version is not available" for the version list, @latest and tags), so this
# script stops there with that message unless SECRETOPS_TF_PROVIDER_DIR names a directory already
# holding a `terraform-provider-infisical` binary (built elsewhere), which is then used through
# dev_overrides (see the test's CLI config), with no registry download.
set -euo pipefail

TOFU_VERSION="${SECRETOPS_TOFU_VERSION:-1.10.6}"
PROVIDER_MODULE="github.com/Infisical/terraform-provider-infisical"
PROVIDER_VERSION="${SECRETOPS_TF_PROVIDER_VERSION:-latest}"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
log() { echo "[ensure-terraform] $*" >&2; }
# shellcheck source=engine/common.sh
. "$here/engine/common.sh"

root="$cache/terraform-tofu-$TOFU_VERSION-infisical-$PROVIDER_VERSION"
bin="$root/bin"
ready() { [ -x "$bin/tofu" ] && [ -x "$bin/terraform-provider-infisical" ]; }

place_provider() { # a provider built elsewhere, named by SECRETOPS_TF_PROVIDER_DIR
  local dir="${SECRETOPS_TF_PROVIDER_DIR:-}"
  if [ -n "$dir" ] && [ -x "$dir/terraform-provider-infisical" ] &&
    ! cmp -s "$dir/terraform-provider-infisical" "$bin/terraform-provider-infisical" 2>/dev/null; then
    mkdir -p "$bin"
    cp "$dir/terraform-provider-infisical" "$bin/terraform-provider-infisical"
    chmod 0755 "$bin/terraform-provider-infisical"
  fi
}

place_provider
if ready; then echo "$bin"; exit 0; fi

hold_lock "$root/.build.lock" "the Terraform CLI and provider"
place_provider
if ready; then echo "$bin"; exit 0; fi

command -v go >/dev/null 2>&1 || { log "no Go toolchain: install Go >= 1.24"; exit 1; }
start=$(date +%s)
mkdir -p "$bin"
# The proxy only: never a direct VCS fetch (github.com is unreachable), no toolchain download.
proxy="$(go env GOPROXY | tr ',|' '\n\n' | grep -v -x -e direct -e off | head -n1)"
export GOPROXY="${proxy:-https://proxy.golang.org}" GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod
# The modules' own go.sum still verifies every download when the checksum database is out of reach.
if ! go env GOSUMDB | grep -q '^off$' && ! timeout 10 curl -fsS -o /dev/null https://sum.golang.org/latest 2>/dev/null; then
  log "checksum database unreachable: GOSUMDB=off (go.sum is still verified locally)"
  export GOSUMDB=off
fi

if [ ! -x "$bin/tofu" ]; then
  log "building OpenTofu v$TOFU_VERSION from the Go module proxy into $bin (a cold build compiles for several minutes)"
  src="$(cd "$root" && timeout 900 go mod download -json "github.com/opentofu/opentofu@v$TOFU_VERSION" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [ -d "$src" ] || { log "go mod download gave no source directory for opentofu v$TOFU_VERSION"; exit 1; }
  rm -rf "$root/src" && cp -r "$src" "$root/src" && chmod -R u+w "$root/src"
  ( cd "$root/src" && tick "compiling tofu" go build -trimpath -ldflags "-s -w" -o "$bin/tofu.tmp" ./cmd/tofu )
  # Renamed last, so an interrupted build is never mistaken for a finished one.
  mv "$bin/tofu.tmp" "$bin/tofu"
  log "tofu built in $(( $(date +%s) - start ))s: $("$bin/tofu" version 2>/dev/null | head -n1)"
fi

if [ ! -x "$bin/terraform-provider-infisical" ]; then
  log "building $PROVIDER_MODULE@$PROVIDER_VERSION from the Go module proxy"
  if ! out="$(cd "$root" && GOBIN="$bin" timeout 900 go install "$PROVIDER_MODULE@$PROVIDER_VERSION" 2>&1)"; then
    log "$out"
    log "the vendor's provider cannot be built here: the module proxy does not serve $PROVIDER_MODULE"
    log "and github.com is unreachable. Build it elsewhere and set SECRETOPS_TF_PROVIDER_DIR to its directory."
    exit 2
  fi
fi
log "ready in $(( $(date +%s) - start ))s"
echo "$bin"
