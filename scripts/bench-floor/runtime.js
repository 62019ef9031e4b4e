// The floor's provider, loaded by module name in the provider process as secretops-pulumi loads
// `secretops-pulumi/runtime/<type>`: it does nothing but answer. No diff (the engine compares the
// inputs), no read (a refresh keeps the state), no delete.
//
// With SECRETOPS_BENCH_FLOOR_OUTPUTS=service in the engine's environment, a create answers the
// outputs a secret sync's object adds to its args too (scripts/bench.ts, "the floor with the
// service's outputs"): the engine writes every resource's state at each step, so what it costs to
// carry them is the engine's, not the package's.
const crypto = require("node:crypto");

const serviceOutputs = () => {
  const now = new Date().toISOString();
  return {
    isAutoSyncEnabled: true,
    folderId: crypto.randomUUID(),
    syncStatus: "pending",
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
};

module.exports = {
  async create(inputs) {
    const served = process.env.SECRETOPS_BENCH_FLOOR_OUTPUTS === "service";
    return { id: crypto.randomUUID(), outs: served ? { ...inputs, ...serviceOutputs() } : inputs };
  },
  async update(_id, _olds, news) {
    return { outs: news };
  },
};
