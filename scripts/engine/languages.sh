#!/usr/bin/env bash
# `bash scripts/ensure-pulumi.sh --languages`: the engine plus the language hosts and runtimes for
# programs and SDKs in other languages, built once and cached. Prints (last line of stdout) one
# directory that holds everything: put it first on PATH, or pass its parent as
# `PulumiCommand.get({ root })`.
#
#   pulumi, pulumi-language-nodejs, the shims   links to the engine of `ensure-pulumi.sh`
#   pulumi-language-yaml                        pulumi-yaml vYAML_VERSION, built from its module
#   pulumi-language-python                      scripts/engine/language-hosts.go: forwards to
#   pulumi-language-python-3.68 (+ -exec)         the Python host of sdk/v3@3.68.0, plus codegen
#   pulumi-language-go                          scripts/engine/language-hosts.go: codegen + run
#   pulumi-language-dotnet                      scripts/engine/language-dotnet.go: codegen only
#   python3, pip                                the directory's parent is a Python venv with
#                                               `pulumi` vPULUMI_VERSION and parver from PyPI
#
# No pulumi-language-java: its only source, github.com/pulumi/pulumi-java/pkg, is refused by the
# module proxy, and no other registry ships it.
# Cache: ${SECRETOPS_PULUMI_CACHE:-~/.cache/secretops-pulumi}/pulumi-<v>-languages-…/bin, under a
# lock (flock), so concurrent runs wait for one build. Progress goes to stderr.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
log() { echo "[ensure-pulumi --languages] $*" >&2; }
# shellcheck source=common.sh
. "$here/common.sh"

PULUMI_VERSION="${SECRETOPS_PULUMI_VERSION:-3.259.0}"
# The newest pulumi-yaml the proxy serves. It does not compile against pkg/v3 v3.259.0 (it calls
# plugin.NewContextWithRoot and schema.NewPluginLoader with older signatures; v1.30.0 too), so it
# is built with its own dependencies (pkg/v3 v3.230.0) and talks to our CLI over gRPC.
YAML_VERSION="${SECRETOPS_PULUMI_YAML_VERSION:-1.32.0}"
# The last sdk/v3 release carrying the Python host (as for the Node.js host, see
# language-host.go.mod.tmpl); language-hosts.go runs it as pulumi-language-python-3.68.
PYTHON_HOST_VERSION="3.68.0"
# The last pkg/v3 release the proxy serves that still has codegen/dotnet (v3.229.0 has not).
DOTNET_CODEGEN_VERSION="3.225.1"
# The venv's packages from PyPI: the Python SDK at the CLI's version, and parver, which SDKs generated
# by codegen/python require beside it (so `pip install --no-deps <sdk>` needs no index).
PYTHON_PACKAGES="pulumi==$PULUMI_VERSION parver"

core_bin="$(bash "$here/../ensure-pulumi.sh")"
root="$cache/pulumi-$PULUMI_VERSION-languages-yaml-$YAML_VERSION-python-$PYTHON_HOST_VERSION-dotnet-$DOTNET_CODEGEN_VERSION"
bin="$root/bin"

# Each binary is current when it exists and the source it was built from is unchanged.
current() { # current BINARY [SOURCE COPY]
  [ -x "$bin/$1" ] && { [ $# -lt 3 ] || cmp -s "$2" "$3"; }
}
all_current() {
  current pulumi-language-yaml &&
    current pulumi-language-python-3.68 &&
    current pulumi-language-python "$here/language-hosts.go" "$root/hosts/main.go.built" &&
    current pulumi-language-go &&
    current pulumi-language-dotnet "$here/language-dotnet.go" "$root/dotnet/main.go.built" &&
    [ -f "$root/pyvenv.cfg" ] && [ "$(cat "$root/.python-packages" 2>/dev/null)" = "$PYTHON_PACKAGES" ]
}
link_core() { # the engine's own files, so that one directory serves everything
  local f name
  for f in "$core_bin"/pulumi*; do
    name="$(basename "$f")"
    if [ ! -e "$bin/$name" ] || [ -L "$bin/$name" ]; then ln -sfn "$f" "$bin/$name"; fi
  done
}

if all_current; then
  link_core
  echo "$bin"
  exit 0
fi

hold_lock "$root.lock" "$root"
start=$(date +%s)

# 1. The Python venv first: the directory is the venv (python3 and pip land in bin/, beside the
#    hosts, so the v3.68 host's `python3` from PATH is the venv's).
if [ "$(cat "$root/.python-packages" 2>/dev/null)" != "$PYTHON_PACKAGES" ]; then
  log "creating a Python venv in $root with $PYTHON_PACKAGES from PyPI"
  tick "python venv" python3 -m venv "$root"
  # shellcheck disable=SC2086 # one argument per package
  tick "pip install" "$bin/pip" install --disable-pip-version-check --quiet $PYTHON_PACKAGES
  echo "$PYTHON_PACKAGES" > "$root/.python-packages"
fi

command -v go >/dev/null 2>&1 || { log "building the language hosts needs Go >= 1.24"; exit 1; }
go_from_proxy_only "$root/probe"

module() { # module DIR NAME VERSION_OF_PKG_AND_SDK: a wrapper module like the CLI's
  mkdir -p "$1"
  sed -e "s/@PULUMI_VERSION@/$3/g" -e "s|^module .*|module local/$2|" "$here/cli.go.mod.tmpl" > "$1/go.mod"
  # The CLI's go.sum saves looking up the sums of the modules they share.
  [ -f "$cache/pulumi-$PULUMI_VERSION-nodejs-$PYTHON_HOST_VERSION/cli/go.sum" ] &&
    cp "$cache/pulumi-$PULUMI_VERSION-nodejs-$PYTHON_HOST_VERSION/cli/go.sum" "$1/go.sum"
  return 0
}
compile() { # compile DIR OUTPUT VERSION_LDFLAG PACKAGE
  ( cd "$1" && tick "compiling $(basename "$2")" go build -trimpath -tags osusergo,grpcnotrace \
      -ldflags "-s -w -X $3" -o "$2.tmp" "$4" ) && mv "$2.tmp" "$2"
}
mkdir -p "$bin"

# 2. pulumi-language-yaml, with its own dependency versions.
if ! current pulumi-language-yaml; then
  log "building pulumi-language-yaml v$YAML_VERSION"
  mkdir -p "$root/yaml"
  sed "s/@YAML_VERSION@/$YAML_VERSION/g" "$here/yaml.go.mod.tmpl" > "$root/yaml/go.mod"
  (cd "$root/yaml" && tick "resolving pulumi-yaml" go get "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@v$YAML_VERSION")
  compile "$root/yaml" "$bin/pulumi-language-yaml" "github.com/pulumi/pulumi-yaml/pkg/version.Version=v$YAML_VERSION" \
    github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
fi

# 3. The Python host of sdk/v3@3.68.0 and its -exec script.
if ! current pulumi-language-python-3.68; then
  log "building the Python language host of sdk/v3 v$PYTHON_HOST_VERSION"
  mkdir -p "$root/python-host"
  sed "s/@LANGUAGE_HOST_VERSION@/$PYTHON_HOST_VERSION/g" "$here/language-host.go.mod.tmpl" > "$root/python-host/go.mod"
  (cd "$root/python-host" && tick "resolving sdk/v3" go get "github.com/pulumi/pulumi/sdk/v3@v$PYTHON_HOST_VERSION")
  compile "$root/python-host" "$bin/pulumi-language-python-3.68" \
    "github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PYTHON_HOST_VERSION" \
    github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python
  sdk_dir="$(cd "$root/python-host" && go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)"
  install -m 0755 "$sdk_dir/python/cmd/pulumi-language-python-exec" "$bin/pulumi-language-python-exec"
fi

# 4. pulumi-language-python and pulumi-language-go: one binary, against the CLI's pkg/v3.
if ! current pulumi-language-python "$here/language-hosts.go" "$root/hosts/main.go.built" || ! current pulumi-language-go; then
  log "building pulumi-language-python and pulumi-language-go (scripts/engine/language-hosts.go)"
  module "$root/hosts" secretops-pulumi-language-hosts "$PULUMI_VERSION"
  cp "$here/language-hosts.go" "$root/hosts/main.go"
  compile "$root/hosts" "$root/hosts/language-hosts" "main.version=$PULUMI_VERSION" .
  # The binary acts by the name it runs as: hard links (a symlink's target name could be seen instead).
  ln -f "$root/hosts/language-hosts" "$bin/pulumi-language-python"
  ln -f "$root/hosts/language-hosts" "$bin/pulumi-language-go"
  cp "$root/hosts/main.go" "$root/hosts/main.go.built"
fi

# 5. pulumi-language-dotnet: codegen only, against pkg/v3 v3.225.1.
if ! current pulumi-language-dotnet "$here/language-dotnet.go" "$root/dotnet/main.go.built"; then
  log "building pulumi-language-dotnet (C# codegen of pkg/v3 v$DOTNET_CODEGEN_VERSION)"
  module "$root/dotnet" secretops-pulumi-language-dotnet "$DOTNET_CODEGEN_VERSION"
  rm -f "$root/dotnet/go.sum" # another pkg/v3: its own sums
  cp "$here/language-dotnet.go" "$root/dotnet/main.go"
  compile "$root/dotnet" "$bin/pulumi-language-dotnet" "main.version=$DOTNET_CODEGEN_VERSION" .
  cp "$root/dotnet/main.go" "$root/dotnet/main.go.built"
fi

link_core
log "ready in $(( $(date +%s) - start ))s: $(du -sh "$root" | cut -f1) in $root"
echo "$bin"
