/**
 * Runs first in the native provider plugin (bin/pulumi-resource-secretops requires it before
 * anything else). On Node ≥ 22.1, V8 keeps the compiled code of the modules loaded after this on
 * disk (`module.enableCompileCache`, in the directory `NODE_COMPILE_CACHE` names or the system's
 * temp directory), so the next plugin process the engine starts loads @pulumi/pulumi and this
 * package without compiling them again. Older Node has no such cache, and
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off. The dynamic provider's runtime modules do not load
 * it: they load after @pulumi/pulumi, where it saved too little to measure.
 */
// Typed for Node 20 too, whose types have no enableCompileCache.
const nodeModule: { enableCompileCache?: () => unknown } = require("node:module");
nodeModule.enableCompileCache?.();
