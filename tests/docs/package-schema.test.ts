import * as fs from "node:fs";
import * as path from "node:path";
import { packageSchema, packageSchemaText } from "../../scripts/package-schema";
import { NATIVE_RESOURCES, tokenOf } from "../../provider/native-provider";
import { replaceFields, secretArgs } from "../../provider/definition";
import { secretSyncDefinition } from "../../provider/secret-sync";
import { appConnectionDefinition } from "../../provider/app-connection";

const repoRoot = path.resolve(__dirname, "..", "..");
/** What `npm run schema` would write today (a TypeScript program for the docs, a prettier run), built once. */
let generated: string | undefined;
const expectedText = () => (generated ??= packageSchemaText(repoRoot));
type Spec = Record<string, unknown> & { inputProperties: Record<string, Record<string, unknown>> };

test("schema.json is what `npm run schema` writes from the definitions today (else run it)", () => {
  expect(fs.readFileSync(path.join(repoRoot, "schema.json"), "utf8")).toEqual(expectedText());
}, 180_000);

describe("the package schema", () => {
  const schema = () => JSON.parse(expectedText()) as { resources: Record<string, Spec>; types: Record<string, Spec> };

  test("has one resource per class the native provider serves, secretops:index:<Class>", () => {
    expect(Object.keys(schema().resources).sort()).toEqual(Object.keys(NATIVE_RESOURCES).map(tokenOf).sort());
  });

  test("marks the args holding secrets secret, and a secret field inside a kind's object type", () => {
    const conn = schema().resources[tokenOf("AppConnection")]!;
    for (const arg of secretArgs(appConnectionDefinition))
      expect(conn.inputProperties[arg]).toHaveProperty("secret", true);
    const postgres = schema().types["secretops:index:AppConnectionPostgresUsernameAndPasswordCredentials"]!;
    expect((postgres.properties as Record<string, Record<string, unknown>>).password).toHaveProperty("secret", true);
    expect((postgres.properties as Record<string, Record<string, unknown>>).host).not.toHaveProperty("secret");
  });

  test("replaceOnChanges on exactly the args the definitions replace on (and the endpoint)", () => {
    const sync = schema().resources[tokenOf("SecretSync")]!;
    const schemas = secretSyncDefinition.schemas({ destination: "vercel" }, {});
    if (typeof schemas === "string") throw new Error(schemas);
    const replaced = Object.entries(sync.inputProperties)
      .filter(([, p]) => p.replaceOnChanges === true)
      .map(([k]) => k);
    expect(replaced.sort()).toEqual([...replaceFields(secretSyncDefinition, schemas), "endpoint"].sort());
  });

  test("types a kind-selected arg as a union of the kinds' object types", () => {
    const config = schema().resources[tokenOf("SecretSync")]!.inputProperties.destinationConfig!;
    const refs = (config.oneOf as { $ref?: string }[]).map((o) => o.$ref);
    expect(refs).toContain("#/types/secretops:index:SecretSyncVercelDestinationConfig");
  });

  test("asks SDK generators for the package's version", () => {
    const language = (schema() as unknown as { language: Record<string, Record<string, unknown>> }).language;
    for (const lang of ["python", "csharp", "go", "nodejs"])
      expect(language[lang]).toHaveProperty("respectSchemaVersion", true);
    expect(language.go).toHaveProperty("importBasePath");
    expect(packageSchema).toBeInstanceOf(Function);
  });
});
