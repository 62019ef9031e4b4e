# Sourced by scripts/ensure-pulumi.sh, scripts/ensure-node.sh and scripts/engine/languages.sh:
# the pieces they share. Each defines its own `log` (its prefix) before sourcing this.

# Where everything built or downloaded once is kept, outside the repo, keyed by version.
cache="${SECRETOPS_PULUMI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/secretops-pulumi}"

version_ge() { # version_ge A B: A >= B
  [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1)" = "$2" ]
}

# One build at a time: jest workers, the demo and a second checkout may all start on a cold cache.
# Holds the lock on fd 9 until the script exits; the others wait, then find what was built.
hold_lock() { # hold_lock LOCKFILE WHAT
  mkdir -p "$(dirname "$1")"
  exec 9>"$1"
  if ! flock -n 9; then
    log "another process is preparing $2; waiting for it"
    flock 9
  fi
}

tick() { # tick LABEL COMMAND...: runs it with its output on stderr, and progress every 30 s
  local label="$1"; shift
  local began; began=$(date +%s)
  ( while sleep 30; do log "$label… $(( $(date +%s) - began ))s elapsed"; done ) &
  local ticker=$!
  local rc=0
  "$@" >&2 || rc=$?
  kill "$ticker" 2>/dev/null || true
  wait "$ticker" 2>/dev/null || true
  return $rc
}

# The go command for a machine that reaches the module proxy only: never a direct VCS fetch, no
# toolchain download, and no checksum database when it cannot be reached (go.sum is still written
# and verified locally then). PROBE_DIR is a scratch module directory for the reachability check.
go_from_proxy_only() { # go_from_proxy_only PROBE_DIR
  local proxy
  proxy="$(go env GOPROXY | tr ',|' '\n\n' | grep -v -x -e direct -e off | head -n1)"
  export GOPROXY="${proxy:-https://proxy.golang.org}"
  export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod
  if ! go env GOSUMDB | grep -q '^off$'; then
    mkdir -p "$1"
    if ! (cd "$1" && timeout 30 go mod download -json "github.com/pulumi/pulumi/sdk/v3@v$PULUMI_VERSION" >/dev/null 2>&1); then
      log "checksum database unreachable: GOSUMDB=off (go.sum is still verified locally)"
      export GOSUMDB=off
    fi
  fi
}
