// The Python and Go language hosts for `scripts/ensure-pulumi.sh --languages`, in one binary that
// acts by the name it is run as. Built by that script only; the package does not ship it.
//
// The official hosts live in modules the Go module proxy reachable here refuses
// (github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3 and
// .../sdk/go/pulumi-language-go/v3), so:
//
//   - pulumi-language-python runs the Python host of sdk/v3@v3.68.0 (the last release that carried
//     it, built as pulumi-language-python-3.68 beside this binary) as a child process and forwards
//     every call to it, except SDK and program generation: that host predates them, and the CLI
//     (`pulumi package gen-sdk`, `pulumi import`) asks the language host for them. They are served
//     here by pkg/v3's codegen/python, the code the official host calls.
//   - pulumi-language-go serves SDK and program generation (pkg/v3's codegen/go, as the official
//     host does) and runs programs as the official host does: `go build`, then the binary with the
//     engine's addresses and the stack's config in PULUMI_* variables (sdk/go/pulumi/run.go).
//
// Each generation method below follows the official host's method of the same name
// (sdk/python/cmd/pulumi-language-python/main.go, sdk/go/pulumi-language-go/main.go in pulumi/pulumi).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/pkg/v3/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/constant"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/cmdutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/emptypb"
)

// version is set by the build (-ldflags -X main.version=…): the CLI's version, whose codegen this is.
var version = "0.0.0"

func main() {
	// The engine passes its own address as the last argument.
	engine := ""
	if len(os.Args) > 1 {
		engine = os.Args[len(os.Args)-1]
	}
	var server pulumirpc.LanguageRuntimeServer
	switch name := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe"); name {
	case "pulumi-language-python":
		host, err := startPythonHost(os.Args[1:])
		if err != nil {
			cmdutil.Exit(err)
		}
		server = host
	case "pulumi-language-go":
		server = &goHost{engine: engine}
	default:
		cmdutil.Exit(fmt.Errorf("run as pulumi-language-python or pulumi-language-go, not %s", name))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancelled := make(chan bool)
	go func() { <-ctx.Done(); close(cancelled) }()
	// Exit with the engine, as every plugin does.
	if engine != "" {
		if err := rpcutil.Healthcheck(ctx, engine, 5*time.Minute, cancel); err != nil {
			cmdutil.Exit(fmt.Errorf("could not start health check: %w", err))
		}
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancelled,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, server)
			return nil
		},
		Options: rpcutil.OpenTracingServerInterceptorOptions(nil),
	})
	if err != nil {
		cmdutil.Exit(fmt.Errorf("could not start the language host's server: %w", err))
	}
	fmt.Printf("%d\n", handle.Port) // the engine reads the port from the first line
	err = <-handle.Done
	if closer, ok := server.(interface{ close() }); ok {
		closer.close()
	}
	if err != nil {
		cmdutil.Exit(err)
	}
}

// bindPackage binds the schema the CLI sends, resolving references through its loader.
func bindPackage(req *pulumirpc.GeneratePackageRequest) (*schema.Package, schema.ReferenceLoader, func(),
	*pulumirpc.GeneratePackageResponse, error,
) {
	client, err := schema.NewLoaderClient(req.LoaderTarget)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.Schema), &spec); err != nil {
		client.Close()
		return nil, nil, nil, nil, err
	}
	loader := schema.NewCachedLoader(client)
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil || diags.HasErrors() {
		client.Close()
		return nil, nil, nil, &pulumirpc.GeneratePackageResponse{
			Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags),
		}, err
	}
	return pkg, loader, func() { client.Close() }, nil, nil
}

func writeFiles(dir string, files map[string][]byte) error {
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// generateProgram binds the PCL program the CLI sends (`pulumi import` writes one) and renders it.
func generateProgram(req *pulumirpc.GenerateProgramRequest, preferOutputInvokes bool,
	render func(*pcl.Program) (map[string][]byte, hcl.Diagnostics, error),
) (*pulumirpc.GenerateProgramResponse, error) {
	client, err := schema.NewLoaderClient(req.LoaderTarget)
	if err != nil {
		return nil, err
	}
	defer client.Close()
	parser := syntax.NewParser()
	for path, contents := range req.Source {
		if err := parser.ParseFile(strings.NewReader(contents), path); err != nil {
			return nil, err
		}
		if parser.Diagnostics.HasErrors() {
			return nil, parser.Diagnostics
		}
	}
	var opts []pcl.BindOption
	if preferOutputInvokes {
		opts = append(opts, pcl.PreferOutputVersionedInvokes)
	}
	if !req.Strict {
		opts = append(opts, pcl.NonStrictBindOptions()...)
	}
	program, diags, err := pcl.BindProgram(parser.Files, schema.NewCachedLoader(client), opts...)
	if err != nil {
		return nil, err
	}
	out := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() || program == nil {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: out}, nil
	}
	files, genDiags, err := render(program)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProgramResponse{
		Source:      files,
		Diagnostics: append(out, plugin.HclDiagnosticsToRPCDiagnostics(genDiags)...),
	}, nil
}

// pythonHost forwards to the v3.68 Python host and adds generation.
type pythonHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	child  *exec.Cmd
	client pulumirpc.LanguageRuntimeClient
}

func startPythonHost(args []string) (*pythonHost, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	// Its -exec script is found beside it (pulumi-language-python-exec).
	child := exec.Command(filepath.Join(filepath.Dir(self), "pulumi-language-python-3.68"), args...)
	child.Stderr = os.Stderr
	stdout, err := child.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := child.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		_ = child.Process.Kill()
		return nil, fmt.Errorf("the v3.68 Python host printed no port: %w", err)
	}
	port, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		_ = child.Process.Kill()
		return nil, fmt.Errorf("the v3.68 Python host printed %q, not a port", line)
	}
	conn, err := grpc.NewClient(fmt.Sprintf("127.0.0.1:%d", port),
		grpc.WithTransportCredentials(insecure.NewCredentials()), rpcutil.GrpcChannelOptions())
	if err != nil {
		_ = child.Process.Kill()
		return nil, err
	}
	return &pythonHost{child: child, client: pulumirpc.NewLanguageRuntimeClient(conn)}, nil
}

func (h *pythonHost) close() {
	_ = h.child.Process.Kill()
	_ = h.child.Wait()
}

func (h *pythonHost) GetRequiredPlugins(ctx context.Context, req *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return h.client.GetRequiredPlugins(ctx, req)
}

func (h *pythonHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	return h.client.Run(ctx, req)
}

func (h *pythonHost) GetPluginInfo(ctx context.Context, req *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return h.client.GetPluginInfo(ctx, req)
}

func (h *pythonHost) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	return h.client.About(ctx, req)
}

func (h *pythonHost) GetProgramDependencies(ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return h.client.GetProgramDependencies(ctx, req)
}

func (h *pythonHost) InstallDependencies(req *pulumirpc.InstallDependenciesRequest,
	server pulumirpc.LanguageRuntime_InstallDependenciesServer,
) error {
	stream, err := h.client.InstallDependencies(server.Context(), req)
	if err != nil {
		return err
	}
	for {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := server.Send(msg); err != nil {
			return err
		}
	}
}

func (h *pythonHost) GeneratePackage(ctx context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	pkg, loader, done, failed, err := bindPackage(req)
	if failed != nil || err != nil {
		return failed, err
	}
	defer done()
	files, err := pygen.GeneratePackage("pulumi-language-python", pkg, req.ExtraFiles, loader)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GeneratePackageResponse{}, writeFiles(req.Directory, files)
}

func (h *pythonHost) GenerateProgram(ctx context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	return generateProgram(req, true, pygen.GenerateProgram)
}

// goHost generates Go SDKs and programs, and runs Go programs.
type goHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	engine string
}

func (h *goHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

// GetRequiredPackages: none declared up front; the engine loads each provider when a resource
// needs it (from PATH, as plugin acquisition is off in tests).
func (h *goHost) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *goHost) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *goHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetPwd()
	}
	tmp, err := os.MkdirTemp("", "pulumi-go-program-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "program")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("error in compiling Go: %w\n%s", err, out)
	}
	config, err := json.Marshal(req.GetConfig())
	if err != nil {
		return nil, err
	}
	secretKeys, err := json.Marshal(append([]string{}, req.GetConfigSecretKeys()...))
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bin, req.GetArgs()...)
	cmd.Dir = req.GetPwd()
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.Env = os.Environ()
	for k, v := range map[string]string{
		pulumi.EnvOrganization:        req.GetOrganization(),
		pulumi.EnvProject:             req.GetProject(),
		pulumi.EnvPulumiRootDirectory: req.GetInfo().GetRootDirectory(),
		pulumi.EnvStack:               req.GetStack(),
		pulumi.EnvConfig:              string(config),
		pulumi.EnvConfigSecretKeys:    string(secretKeys),
		pulumi.EnvDryRun:              strconv.FormatBool(req.GetDryRun()),
		pulumi.EnvParallel:            strconv.Itoa(int(req.GetParallel())),
		pulumi.EnvMonitor:             req.GetMonitorAddress(),
		pulumi.EnvEngine:              h.engine,
	} {
		if v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return &pulumirpc.RunResponse{}, nil
	case errors.As(err, &exit) && exit.ExitCode() == constant.ExitStatusLoggedError:
		return &pulumirpc.RunResponse{Bail: true}, nil // the program reported its error to the engine
	case errors.As(err, &exit):
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("program exited with non-zero exit code: %d", exit.ExitCode())}, nil
	default:
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
}

func (h *goHost) GeneratePackage(ctx context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	if len(req.ExtraFiles) > 0 {
		return nil, errors.New("overlays are not supported for Go")
	}
	pkg, _, done, failed, err := bindPackage(req)
	if failed != nil || err != nil {
		return failed, err
	}
	defer done()
	files, err := gogen.GeneratePackage("pulumi-language-go", pkg, req.LocalDependencies)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GeneratePackageResponse{}, writeFiles(req.Directory, files)
}

func (h *goHost) GenerateProgram(ctx context.Context, req *pulumirpc.GenerateProgramRequest,
) (*pulumirpc.GenerateProgramResponse, error) {
	return generateProgram(req, false, gogen.GenerateProgram)
}
