// The test sets `resources:resources` to [{ kind, name, args }] and changes it between steps,
// as a user edits a program. Resources come from the package by name, as in a user's program.
const pulumi = require("@pulumi/pulumi");
const secretops = require("secretops-pulumi");

const config = new pulumi.Config();
const declared = config.requireObject("resources");

for (const { kind, name, args } of declared) {
  const resource = new secretops[kind](name, args);
  exports[name] = { id: resource.id, urn: resource.urn };
}

const audit = config.getObject("auditQuery");
if (audit) {
  exports.audit = secretops.getAuditLogsOutput(audit).apply((r) => ({
    count: r.entries.length,
    truncated: r.truncated,
    types: r.entries.map((e) => e.event.type),
  }));
}
