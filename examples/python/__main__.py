"""One of each resource from Python, through the native provider (docs/native-provider.md).

It targets the local emulator by default: the ids below are those of its default fixture. Set the
endpoint and credentials as for any program (`pulumi config set secretops:apiUrl ...`,
`pulumi config set --secret secretops:token ...`) and the password the connection logs in with
(`pulumi config set --secret ordersDbPassword ...`).
"""

import pulumi
import secretops_pulumi as secretops

config = pulumi.Config()
project_id = config.get("projectId") or "10000000-0000-4000-8000-000000000001"
vercel_connection_id = config.get("vercelConnectionId") or "50000000-0000-4000-8000-000000000012"
certificate_policy_id = config.get("certificatePolicyId") or "70000000-0000-4000-8000-000000000001"
ca_id = config.get("caId") or "60000000-0000-4000-8000-000000000001"

# A connection made in code: its password is secret (encrypted in state, masked in previews).
orders_db = secretops.AppConnection(
    "orders-db",
    app="postgres",
    name="orders-db",
    project_id=project_id,
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

# Rotated monthly through that connection.
orders_db_credentials = secretops.SecretRotation(
    "orders-db-credentials",
    type="postgres-credentials",
    name="orders-db-credentials",
    project_id=project_id,
    connection_id=orders_db.id,
    environment="prod",
    secret_path="/app/db",
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

web_to_vercel = secretops.SecretSync(
    "web-to-vercel",
    destination="vercel",
    name="web-to-vercel",
    project_id=project_id,
    connection_id=vercel_connection_id,
    environment="dev",
    secret_path="/app",
    sync_options=secretops.SecretSyncVercelSyncOptionsArgs(initial_sync_behavior="overwrite-destination"),
    destination_config=secretops.SecretSyncVercelDestinationConfigArgs(
        app="prj_web", app_name="web", env="production", team_id="team_platform"
    ),
)

service_mtls = secretops.CertificateProfile(
    "service-mtls",
    project_id=project_id,
    certificate_policy_id=certificate_policy_id,
    ca_id=ca_id,
    slug="service-mtls",
    enrollment_type="api",
    api_config=secretops.CertificateProfileApiConfigArgs(auto_renew=True, renew_before_days=14),
    defaults=secretops.CertificateProfileDefaultsArgs(ttl_days=30, key_algorithm="EC_prime256v1"),
)

pulumi.export("syncId", web_to_vercel.id)
pulumi.export("syncStatus", web_to_vercel.sync_status)
pulumi.export("rotationId", orders_db_credentials.id)
pulumi.export("profileId", service_mtls.id)
pulumi.export("connectionId", orders_db.id)
