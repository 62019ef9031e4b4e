// A project, a folder and a secret in it, a connection and a sync that pushes the folder, and a
// certificate-manager project with a CA, a policy and a profile, from Go, through the native
// provider (docs/native-provider.md). It targets the local emulator by default. Set the endpoint
// and credentials as for any program (`pulumi config set secretops:apiUrl ...`,
// `pulumi config set --secret secretops:token ...`) and the secret values
// (`pulumi config set --secret apiKey ...`, `vercelToken`).
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
		slug := getOr(cfg, "projectSlug", "go-example")

		// The project; its template made `dev`, which the folder and the sync name.
		project, err := secretops.NewProject(ctx, "app", &secretops.ProjectArgs{
			ProjectName: pulumi.String("Go example"),
			Slug:        pulumi.String(slug),
		})
		if err != nil {
			return err
		}
		folder, err := secretops.NewSecretFolder(ctx, "app", &secretops.SecretFolderArgs{
			ProjectId:   project.ID(),
			Environment: pulumi.String("dev"),
			Name:        pulumi.String("app"),
		})
		if err != nil {
			return err
		}
		// Its value is secret: encrypted in state, never an output, masked in previews.
		secret, err := secretops.NewSecret(ctx, "api-key", &secretops.SecretArgs{
			ProjectId:   project.ID(),
			Environment: pulumi.String("dev"),
			SecretPath:  folder.SecretPath,
			SecretName:  pulumi.String("API_KEY"),
			SecretValue: cfg.RequireSecret("apiKey"),
		})
		if err != nil {
			return err
		}
		vercel, err := secretops.NewAppConnection(ctx, "vercel", &secretops.AppConnectionArgs{
			App:       pulumi.String("vercel"),
			Name:      pulumi.String("go-vercel"),
			ProjectId: project.ID(),
			Method:    pulumi.String("api-token"),
			Credentials: secretops.AppConnectionVercelApiTokenCredentialsArgs{
				ApiToken: cfg.RequireSecret("vercelToken"),
			},
		})
		if err != nil {
			return err
		}
		sync, err := secretops.NewSecretSync(ctx, "web-to-vercel", &secretops.SecretSyncArgs{
			Destination:  pulumi.String("vercel"),
			Name:         pulumi.String("web-to-vercel"),
			ProjectId:    project.ID(),
			ConnectionId: vercel.ID(),
			Environment:  pulumi.String("dev"),
			SecretPath:   folder.SecretPath,
			SyncOptions: secretops.SecretSyncVercelSyncOptionsArgs{
				InitialSyncBehavior: pulumi.String("overwrite-destination"),
			},
			DestinationConfig: secretops.SecretSyncVercelDestinationConfigArgs{
				App:     pulumi.String("prj_web"),
				AppName: pulumi.String("web"),
				Env:     pulumi.String("production"),
				TeamId:  pulumi.String("team_platform"),
			},
		}, pulumi.DependsOn([]pulumi.Resource{secret}))
		if err != nil {
			return err
		}

		pki, err := secretops.NewProject(ctx, "pki", &secretops.ProjectArgs{
			ProjectName: pulumi.String("Go example PKI"),
			Slug:        pulumi.String(slug + "-pki"),
			Type:        pulumi.String("cert-manager"),
		})
		if err != nil {
			return err
		}
		ca, err := secretops.NewCertificateAuthority(ctx, "root-ca", &secretops.CertificateAuthorityArgs{
			ProjectId: pki.ID(),
			Name:      pulumi.String("go-root"),
			Configuration: &secretops.CertificateAuthorityConfigurationArgs{
				Type:       pulumi.String("root"),
				CommonName: pulumi.String("Go Example Root CA"),
				NotAfter:   pulumi.String("2036-01-01T00:00:00Z"),
			},
		})
		if err != nil {
			return err
		}
		policy, err := secretops.NewCertificatePolicy(ctx, "mtls-policy", &secretops.CertificatePolicyArgs{
			ProjectId: pki.ID(),
			Name:      pulumi.String("service-mtls"),
			Validity:  &secretops.CertificatePolicyValidityArgs{Max: pulumi.String("30d")},
		})
		if err != nil {
			return err
		}
		profile, err := secretops.NewCertificateProfile(ctx, "service-mtls", &secretops.CertificateProfileArgs{
			ProjectId:           pki.ID(),
			CertificatePolicyId: policy.ID(),
			CaId:                ca.ID(),
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

		ctx.Export("projectId", project.ID())
		ctx.Export("secretId", secret.ID())
		ctx.Export("syncId", sync.ID())
		ctx.Export("profileId", profile.ID())
		return nil
	})
}
