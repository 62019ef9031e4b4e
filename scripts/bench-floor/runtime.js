// The floor's provider, loaded by module name in the provider process as secretops-pulumi loads
// `secretops-pulumi/runtime/<type>`: it does nothing but answer. No diff (the engine compares the
// inputs), no read (a refresh keeps the state), no delete.
const crypto = require("node:crypto");

module.exports = {
  async create(inputs) {
    return { id: crypto.randomUUID(), outs: inputs };
  },
  async update(_id, _olds, news) {
    return { outs: news };
  },
};
