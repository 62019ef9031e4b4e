#!/usr/bin/env bash
# `bash scripts/with-node.sh COMMAND [ARG…]`: runs COMMAND with a Node that meets the package's
# `engines.node` first on PATH, so that `node`, `npm`, `npx` and every `#!/usr/bin/env node` script
# it starts (jest, tsc, the demo, the engine's Node.js language host) run on it. The Node is the
# one scripts/ensure-node.sh prints: the machine's own when it is new enough, else Node 22 unpacked
# once into the cache. `npm test`, `npm run demo` and the other scripts of package.json go through
# here, so they run the same on a machine whose `node` is older (Node 20 reached its end of life in
# April 2026).
set -euo pipefail
bin="$(bash "$(dirname "${BASH_SOURCE[0]}")/ensure-node.sh" | tail -n1)"
PATH="$bin:$PATH" exec "$@"
