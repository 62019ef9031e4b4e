// The bench's floor (scripts/bench.ts): the least the engine can do for a program's resources. A
// `Noop` registers its args as secretops-pulumi's resource classes register theirs
// (provider/program-side.ts, `resourceClass`): a `pulumi.CustomResource` of a dynamic type token,
// its `__provider` the text of a short `require` of this package's runtime module (written, not
// serialized), and no stack trace captured at registration. So the floor and the package differ
// only in what the package does.
const pulumi = require("@pulumi/pulumi");

// The text providerModuleText writes for a runtime module (tests/scripts/bench-floor.test.ts
// checks that the two stay the same but for the module's name).
const PROVIDER = [
  "exports.handler = __f0;",
  `const provider = require(${JSON.stringify("secretops-bench-floor/runtime")});`,
  "",
  "function __f0() {",
  "  return (function() {",
  "    with({ this: undefined, arguments: undefined }) {",
  "",
  "return () => provider;",
  "",
  "    }",
  "  }).apply(undefined, undefined).apply(this, arguments);",
  "}",
  "",
].join("\n");

class Noop extends pulumi.CustomResource {
  constructor(name, args, opts) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super("pulumi-nodejs:dynamic/benchfloor:Noop", name, { ...args, __provider: PROVIDER }, opts);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

module.exports = { Noop, PROVIDER };
