// The test sets `resources:resources` to [{ kind, name, args, opts? }], or writes that list to the file
// `resources:resourcesFile` names, and changes it between steps, as a user edits a program (a file
// costs no `pulumi config set` per step). Secret values come from the secret config `resources:secrets`
// ({ resourceName: { topLevelArg: value } }, deep-merged into that arg), as a user would pass
// them with `pulumi config set --secret`. `opts` are resource options (`aliases`). Resources come
// from the package by name; `{ "$ref": "<resource>.<output>" }` passes one resource's output to another.
const pulumi = require("@pulumi/pulumi");
const secretops = require("secretops-pulumi");

const config = new pulumi.Config();
const file = config.get("resourcesFile");
const declared = file ? JSON.parse(require("node:fs").readFileSync(file, "utf8")) : config.requireObject("resources");
const secrets = config.getSecretObject("secrets");

function merge(a, b) {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return b;
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = merge(a[k], v);
  return out;
}

// `{ "$ref": "<resource>.<output>" }` anywhere in the args is an output of a resource declared
// before it (a folder's `secretPath`, a project's `id`), as a program passes one resource to another.
const made = {};
function resolve(v) {
  if (Array.isArray(v)) return v.map(resolve);
  if (typeof v !== "object" || v === null) return v;
  if (typeof v.$ref === "string") {
    const [resource, output] = v.$ref.split(".");
    return made[resource][output];
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
}

for (const { kind, name, args: declaredArgs, opts } of declared) {
  const args = resolve(declaredArgs);
  const withSecrets = { ...args };
  delete withSecrets.secretFieldsFrom;
  if (secrets) {
    for (const field of args.secretFieldsFrom ?? []) {
      withSecrets[field] = secrets.apply((s) => merge(args[field], (s[name] ?? {})[field]));
    }
  }
  const resource = new secretops[kind](name, withSecrets, opts);
  made[name] = resource;
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
