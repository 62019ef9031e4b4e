import * as nodeModule from "node:module";

/**
 * Runs first in a provider process (each `provider/runtime/<type>` imports it before anything
 * else). On Node ≥ 22.1, V8 keeps the compiled code of the modules loaded after this on disk
 * (`module.enableCompileCache`, in the directory `NODE_COMPILE_CACHE` names or the system's temp
 * directory), so the next provider process the engine starts loads this package without compiling
 * it again. Older Node has no such cache, and `NODE_DISABLE_COMPILE_CACHE=1` turns it off.
 */
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
