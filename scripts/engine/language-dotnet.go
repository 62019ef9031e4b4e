// pulumi-language-dotnet for `scripts/ensure-pulumi.sh --languages`: C# SDK and program generation
// only (`pulumi package gen-sdk --language dotnet`, `pulumi import` into a C# project). Running C#
// programs needs .NET, which this machine does not have.
//
// The official host (github.com/pulumi/pulumi-dotnet) is refused by the Go module proxy reachable
// here, and pkg/v3 dropped codegen/dotnet after v3.225.1, so this binary is built in its own module
// at pkg/v3 v3.225.1 (scripts/engine/languages.sh). Its methods follow the official
// host's GeneratePackage and GenerateProgram.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/cmdutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// version is set by the build (-ldflags -X main.version=…): the pkg/v3 version whose codegen this is.
var version = "0.0.0"

type dotnetHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
}

// codegen/dotnet fetches the package's logo for the .csproj with http.Get (the schema's logoUrl, or
// Pulumi's logo on GitHub): offline, a blank 64x64 PNG stands in, so the SDK is still generated.
type offlineLogo struct{ next http.RoundTripper }

func (t offlineLogo) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err == nil {
		return resp, nil
	}
	fmt.Fprintf(os.Stderr, "pulumi-language-dotnet: %v; logo.png is blank\n", err)
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 64, 64))); err != nil {
		return nil, err
	}
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: http.Header{},
		Body: io.NopCloser(&buf), ContentLength: int64(buf.Len()), Request: req}, nil
}

func main() {
	http.DefaultTransport = offlineLogo{next: http.DefaultTransport}
	ctx, cancel := context.WithCancel(context.Background())
	cancelled := make(chan bool)
	go func() { <-ctx.Done(); close(cancelled) }()
	if len(os.Args) > 1 { // the engine's address: exit with it
		if err := rpcutil.Healthcheck(ctx, os.Args[len(os.Args)-1], 5*time.Minute, cancel); err != nil {
			cmdutil.Exit(fmt.Errorf("could not start health check: %w", err))
		}
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancelled,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, &dotnetHost{})
			return nil
		},
	})
	if err != nil {
		cmdutil.Exit(err)
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		cmdutil.Exit(err)
	}
}

func (*dotnetHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

func (*dotnetHost) Run(context.Context, *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	return nil, errors.New("this pulumi-language-dotnet only generates code: running C# programs needs .NET")
}

func (*dotnetHost) GeneratePackage(ctx context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	client, err := schema.NewLoaderClient(req.LoaderTarget)
	if err != nil {
		return nil, err
	}
	defer client.Close()
	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.Schema), &spec); err != nil {
		return nil, err
	}
	pkg, diags, err := schema.BindSpec(spec, schema.NewCachedLoader(client),
		schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil || diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, err
	}
	files, err := dotnet.GeneratePackage("pulumi-language-dotnet", pkg, req.ExtraFiles, req.LocalDependencies)
	if err != nil {
		return nil, err
	}
	for name, data := range files {
		path := filepath.Join(req.Directory, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return nil, err
		}
	}
	return &pulumirpc.GeneratePackageResponse{}, nil
}

func (*dotnetHost) GenerateProgram(ctx context.Context, req *pulumirpc.GenerateProgramRequest,
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
	opts := []pcl.BindOption{pcl.Loader(schema.NewCachedLoader(client))}
	if !req.Strict {
		opts = append(opts, pcl.NonStrictBindOptions()...)
	}
	program, diags, err := pcl.BindProgram(parser.Files, opts...)
	if err != nil {
		return nil, err
	}
	out := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() || program == nil {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: out}, nil
	}
	files, genDiags, err := dotnet.GenerateProgram(program)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GenerateProgramResponse{
		Source:      files,
		Diagnostics: append(out, plugin.HclDiagnosticsToRPCDiagnostics(genDiags)...),
	}, nil
}
