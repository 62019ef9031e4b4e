// A secret sync and a certificate profile from Go, through the native provider
// (docs/native-provider.md). It targets the local emulator by default: the ids below are those of
// its default fixture. Set the endpoint and credentials as for any program
// (`pulumi config set secretops:apiUrl ...`, `pulumi config set --secret secretops:token ...`).
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
	"github.com/secretops/secretops-pulumi/sdk/go/secretops"
)

func getOr(cfg *config.Config, key, fallback string) string {
	if v := cfg.Get(key); v != "" {
		return v
	}
	return fallback
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		projectID := getOr(cfg, "projectId", "10000000-0000-4000-8000-000000000001")

		sync, err := secretops.NewSecretSync(ctx, "web-to-vercel", &secretops.SecretSyncArgs{
			Destination:  pulumi.String("vercel"),
			Name:         pulumi.String("web-to-vercel"),
			ProjectId:    pulumi.String(projectID),
			ConnectionId: pulumi.String(getOr(cfg, "vercelConnectionId", "50000000-0000-4000-8000-000000000012")),
			Environment:  pulumi.String("dev"),
			SecretPath:   pulumi.String("/app"),
			SyncOptions: secretops.SecretSyncVercelSyncOptionsArgs{
				InitialSyncBehavior: pulumi.String("overwrite-destination"),
			},
			DestinationConfig: secretops.SecretSyncVercelDestinationConfigArgs{
				App:     pulumi.String("prj_web"),
				AppName: pulumi.String("web"),
				Env:     pulumi.String("production"),
				TeamId:  pulumi.String("team_platform"),
			},
		})
		if err != nil {
			return err
		}

		profile, err := secretops.NewCertificateProfile(ctx, "service-mtls", &secretops.CertificateProfileArgs{
			ProjectId:           pulumi.String(projectID),
			CertificatePolicyId: pulumi.String(getOr(cfg, "certificatePolicyId", "70000000-0000-4000-8000-000000000001")),
			CaId:                pulumi.String(getOr(cfg, "caId", "60000000-0000-4000-8000-000000000001")),
			Slug:                pulumi.String("service-mtls"),
			EnrollmentType:      pulumi.String("api"),
			ApiConfig: &secretops.CertificateProfileApiConfigArgs{
				AutoRenew:       pulumi.Bool(true),
				RenewBeforeDays: pulumi.Int(14),
			},
		})
		if err != nil {
			return err
		}

		ctx.Export("syncId", sync.ID())
		ctx.Export("profileId", profile.ID())
		return nil
	})
}
