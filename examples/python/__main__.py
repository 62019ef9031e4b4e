"""The tree and the resources on it from nothing, from Python, through the native provider
(docs/native-provider.md): a project, its `prod` environment, folders and a secret; two
connections, a sync and a rotation; a certificate-manager project with a CA, a policy and a
profile.

It targets the local emulator by default. Set the endpoint and credentials as for any program
(`pulumi config set secretops:apiUrl ...`, `pulumi config set --secret secretops:token ...`) and
the secret values (`pulumi config set --secret apiKey ...`, `vercelToken`, `ordersDbPassword`).
"""

import pulumi
import secretops_pulumi as secretops

config = pulumi.Config()
slug = config.get("projectSlug") or "python-example"

app = secretops.Project("app", project_name="Python example", slug=slug)
# The project's template made `prod`: declaring it manages it.
prod = secretops.ProjectEnvironment("prod", project_id=app.id, name="Production", slug="prod")
app_folder = secretops.SecretFolder("app-folder", project_id=app.id, environment=prod.slug, name="app")
db_folder = secretops.SecretFolder(
    "db-folder", project_id=app.id, environment=prod.slug, name="db", path=app_folder.secret_path
)

# Its value is secret: encrypted in state, never an output, masked in previews.
api_key = secretops.Secret(
    "api-key",
    project_id=app.id,
    environment=prod.slug,
    secret_path=app_folder.secret_path,
    secret_name="API_KEY",
    secret_value=config.require_secret("apiKey"),
)

vercel = secretops.AppConnection(
    "vercel",
    app="vercel",
    name="python-vercel",
    project_id=app.id,
    method="api-token",
    credentials=secretops.AppConnectionVercelApiTokenCredentialsArgs(api_token=config.require_secret("vercelToken")),
)

# A connection made in code: its password is secret (encrypted in state, masked in previews).
orders_db = secretops.AppConnection(
    "orders-db",
    app="postgres",
    name="orders-db",
    project_id=app.id,
    method="username-and-password",
    credentials=secretops.AppConnectionPostgresUsernameAndPasswordCredentialsArgs(
        host="orders-db.internal.example.com",
        port=5432,
        database="orders",
        username="secretops_rotator",
        password=config.require_secret("ordersDbPassword"),
        ssl_enabled=True,
        ssl_reject_unauthorized=True,
    ),
)

# Rotated monthly through that connection, into the folder /app/db.
orders_db_credentials = secretops.SecretRotation(
    "orders-db-credentials",
    type="postgres-credentials",
    name="orders-db-credentials",
    project_id=app.id,
    connection_id=orders_db.id,
    environment=prod.slug,
    secret_path=db_folder.secret_path,
    rotation_interval=30,
    rotate_at_utc=secretops.SecretRotationRotateAtUtcArgs(hours=2, minutes=30),
    parameters=secretops.SecretRotationPostgresCredentialsParametersArgs(
        username1="orders_blue", username2="orders_green"
    ),
    secrets_mapping=secretops.SecretRotationPostgresCredentialsSecretsMappingArgs(
        username="ORDERS_DB_USER", password="ORDERS_DB_PASSWORD"
    ),
    delete_secrets=True,
)

# Pushes /app, with the secret in it (depends_on: its first job carries it).
web_to_vercel = secretops.SecretSync(
    "web-to-vercel",
    destination="vercel",
    name="web-to-vercel",
    project_id=app.id,
    connection_id=vercel.id,
    environment=prod.slug,
    secret_path=app_folder.secret_path,
    sync_options=secretops.SecretSyncVercelSyncOptionsArgs(initial_sync_behavior="overwrite-destination"),
    destination_config=secretops.SecretSyncVercelDestinationConfigArgs(
        app="prj_web", app_name="web", env="production", team_id="team_platform"
    ),
    opts=pulumi.ResourceOptions(depends_on=[api_key]),
)

pki = secretops.Project("pki", project_name="Python example PKI", slug=f"{slug}-pki", type="cert-manager")
root_ca = secretops.CertificateAuthority(
    "root-ca",
    project_id=pki.id,
    name="python-root",
    configuration=secretops.CertificateAuthorityConfigurationArgs(
        type="root", common_name="Python Example Root CA", not_after="2036-01-01T00:00:00Z"
    ),
)
mtls_policy = secretops.CertificatePolicy(
    "mtls-policy",
    project_id=pki.id,
    name="service-mtls",
    subject=[secretops.CertificatePolicySubjectItemArgs(type="common_name", allowed=["*.svc.example.com"])],
    validity=secretops.CertificatePolicyValidityArgs(max="30d"),
)
service_mtls = secretops.CertificateProfile(
    "service-mtls",
    project_id=pki.id,
    certificate_policy_id=mtls_policy.id,
    ca_id=root_ca.id,
    slug="service-mtls",
    enrollment_type="api",
    api_config=secretops.CertificateProfileApiConfigArgs(auto_renew=True, renew_before_days=14),
    defaults=secretops.CertificateProfileDefaultsArgs(ttl_days=30, key_algorithm="EC_prime256v1"),
)

pulumi.export("projectId", app.id)
pulumi.export("secretId", api_key.id)
pulumi.export("syncId", web_to_vercel.id)
pulumi.export("syncStatus", web_to_vercel.sync_status)
pulumi.export("rotationId", orders_db_credentials.id)
pulumi.export("profileId", service_mtls.id)
pulumi.export("connectionId", orders_db.id)
pulumi.export("caId", root_ca.id)
