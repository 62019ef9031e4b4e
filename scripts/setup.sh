#!/usr/bin/env bash
# Everything `npm test` (and `npm run setup`) needs on a fresh clone, and nothing on a second run:
# a Node that meets `engines.node`, dependencies (npm install), the TypeScript build, the Pulumi
# engine (found or built from Go modules), and the YAML, Python, Go and .NET language hosts.
# `--typescript`: only what a TypeScript program needs (`npm run demo`, `npm run emulator`): the
# Node, the dependencies, the build, and the engine with its Node.js language host.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { echo "[setup] $*" >&2; }
# Everything below, npm install first, runs on a Node that meets `engines.node` (the machine's own
# when new enough, else Node 22 unpacked once into the cache): scripts/ensure-node.sh.
PATH="$(bash scripts/ensure-node.sh | tail -n1):$PATH"
export PATH

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # `npm install` follows package-lock.json. Not `npm ci`: npm 11 writes locks without other
  # platforms' optional packages (e.g. @unrs/resolver-binding-*), and `npm ci` then refuses them.
  log "installing dependencies (npm install, from package-lock.json)"
  npm install --no-audit --no-fund --loglevel=error
fi
log "building (tsc)"
npm run --silent build
# Programs in this checkout (the quickstart, the examples, the engine tests' programs) load the
# package by name, in the program and in the provider process, as an installed copy would be.
ln -sfn .. node_modules/secretops-pulumi
bash scripts/ensure-pulumi.sh >/dev/null
[ "${1:-}" = "--typescript" ] && exit 0
# The language hosts and runtimes the native provider's YAML, Python and Go tests run under
# (built once and cached: about 17 minutes cold on 2 cores, instant after).
bash scripts/ensure-pulumi.sh --languages >/dev/null
