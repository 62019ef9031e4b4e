// Added to the Node.js language host's package (sdk/v3@3.68.0, nodejs/cmd/pulumi-language-nodejs)
// by `go build -overlay` in scripts/ensure-pulumi.sh; nothing of the host itself is changed.
//
// The engines of that release passed a project's runtime options (`runtime.options` in
// Pulumi.yaml: `typescript`, `tsconfig`, `nodeargs`) to the language host as flags
// (`buildArgsForNewPlugin` in sdk/go/common/resource/plugin/langruntime_plugin.go, v3.68.0). The
// engine built beside this host (v3.69 and later) sends them over RPC instead, which this host
// does not read: without this file every program runs with the flags' defaults, so a JavaScript
// program that says `typescript: false` still loads TypeScript and ts-node, whose source-map
// hook then maps every stack the SDK captures. This reads the options from the project the
// engine started the host in (its working directory) and passes them as those engines did.
package main

import (
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
)

// The options this host has flags for; any other would stop it at flag parsing.
var projectOptionFlags = []string{"typescript", "tsconfig", "nodeargs"}

func init() {
	if len(os.Args) < 2 {
		return
	}
	cwd, err := os.Getwd()
	if err != nil {
		return
	}
	path, err := workspace.DetectProjectPathFrom(cwd)
	if err != nil || path == "" {
		return
	}
	project, err := workspace.LoadProject(path)
	if err != nil {
		return
	}
	options := project.Runtime.Options()
	var flags []string
	for _, name := range projectOptionFlags {
		if value, ok := options[name]; ok {
			flags = append(flags, fmt.Sprintf("-%s=%v", name, value))
		}
	}
	// Before the engine's arguments (its address comes last).
	os.Args = append(append([]string{os.Args[0]}, flags...), os.Args[1:]...)
}
