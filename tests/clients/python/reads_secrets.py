"""The vendor's Python client (infisicalsdk) against the emulator, as a user runs it (issue 48).

Logs in with universal auth, reads what the Pulumi program wrote, writes secrets and folders, and
prints one JSON object of what it saw for the test (tests/clients/python-sdk.test.ts) to check.
Settings come from the environment: SITE_URL, CLIENT_ID, CLIENT_SECRET, PROJECT_ID, ENVIRONMENT,
SECRET_PATH, and STEP: "read" (secrets), "write" (secrets) or "folders" (list, create, get, update,
delete).
"""
import json
import os

from infisical_sdk import InfisicalSDKClient

env = os.environ
# cache_ttl=None: every call goes to the service (the emulator), none is answered from the cache.
client = InfisicalSDKClient(host=env["SITE_URL"], cache_ttl=None)
login = client.auth.universal_auth.login(client_id=env["CLIENT_ID"], client_secret=env["CLIENT_SECRET"])
where = dict(project_id=env["PROJECT_ID"], environment_slug=env["ENVIRONMENT"], secret_path=env["SECRET_PATH"])


def listed():
    return {s.secretKey: s.secretValue for s in client.secrets.list_secrets(**where).secrets}


report = {"tokenType": login.tokenType, "expiresIn": login.expiresIn}
folder_where = dict(project_id=env["PROJECT_ID"], environment_slug=env["ENVIRONMENT"], path="/")

if env["STEP"] == "read":
    report["listed"] = listed()
    report["got"] = client.secrets.get_secret_by_name(secret_name="DB_URL", **where).secretValue

if env["STEP"] == "write":
    created = client.secrets.create_secret_by_name(secret_name="FROM_PY", secret_value="py-value", **where)
    updated = client.secrets.update_secret_by_name(
        current_secret_name="API_KEY", secret_value="key-from-py", **where
    )
    deleted = client.secrets.delete_secret_by_name(secret_name="DB_URL", **where)
    report["created"] = [created.secretKey, created.secretValue]
    report["updated"] = [updated.secretKey, updated.secretValue]
    report["deleted"] = deleted.secretKey
    report["listed"] = listed()

if env["STEP"] == "folders":
    report["before"] = sorted(f.name for f in client.folders.list_folders(**folder_where).folders)
    folder = client.folders.create_folder(name="made-by-py", **folder_where)
    renamed = client.folders.update_folder(folder_id=folder.id, name="renamed-by-py", **folder_where)
    by_id = client.folders.get_folder_by_id(folder.id)
    temporary = client.folders.create_folder(name="gone-by-py", **folder_where)
    removed = client.folders.delete_folder(folder_id_or_name=temporary.id, **folder_where)
    report["folder"] = [folder.name, renamed.name, by_id.name, by_id.environment.envSlug]
    report["removed"] = removed.name
    report["after"] = sorted(f.name for f in client.folders.list_folders(**folder_where).folders)

client.close()
print(json.dumps(report))
