#!/usr/bin/env bash
# `npm run soak`: the reliability suite (tests/reliability) at a heavier load than CI runs it, each
# variant bounded in count and in time (jest's per-test timeouts). Every server is the emulator on
# 127.0.0.1, started and stopped by the tests. Override any figure through the environment.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export RELIABILITY_FAULT_RESOURCES="${RELIABILITY_FAULT_RESOURCES:-300}"  # CI: 100
export RELIABILITY_KILL_POINTS="${RELIABILITY_KILL_POINTS:-1,5,10,20,30,40,44}"  # CI: 2,15,30
export RELIABILITY_RATE_RESOURCES="${RELIABILITY_RATE_RESOURCES:-500}"  # CI: 200
# One file at a time: the heavy stacks would otherwise share two cores with each other.
exec bash scripts/with-node.sh npx jest tests/reliability --maxWorkers=1 "$@"
