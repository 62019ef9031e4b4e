module secretops-go-example

go 1.25.11

require (
	github.com/pulumi/pulumi/sdk/v3 v3.259.0
	github.com/secretops/secretops-pulumi/sdk v0.0.0
)

// The SDK generated from the package's schema (`pulumi package gen-sdk <schema.json> --language go -o sdk`).
replace github.com/secretops/secretops-pulumi/sdk => ./sdk
