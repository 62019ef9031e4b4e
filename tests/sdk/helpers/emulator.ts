import {
  EmulatorAdmin,
  type EmulatorOptions,
  type Fixtures,
  type RunningEmulator,
  startEmulator,
} from "../../../emulator";
import { defaultFixtures } from "../../../emulator/fixtures";

/** The emulator (emulator/index.ts) with its admin client (emulator/admin-client.ts). */

export { defaultFixtures };
export type Fixture = typeof defaultFixtures;

export interface TestEmulator {
  emu: RunningEmulator;
  url: string;
  token: string;
  admin: EmulatorAdmin;
  stop(): Promise<void>;
}

export async function startTestEmulator(opts: EmulatorOptions = {}): Promise<TestEmulator> {
  const emu = await startEmulator({
    port: 0,
    admin: true,
    rateLimits: false,
    syncJobDelayMs: 10,
    checkResponses: true,
    ...opts,
  });
  const admin = new EmulatorAdmin(emu.url);
  return { emu, url: emu.url, token: emu.token, admin, stop: () => emu.stop() };
}

/** Fixtures with a different universal-auth access-token lifetime (seconds). */
export function fixturesWithTokenTtl(ttlSeconds: number): Fixtures {
  const fx = structuredClone(defaultFixtures) as Fixture;
  for (const i of fx.identities)
    if ("universalAuth" in i && i.universalAuth) i.universalAuth.accessTokenTTL = ttlSeconds;
  return fx as unknown as Fixtures;
}

export const defaultIdentity = defaultFixtures.identities[0]!;
export const universalAuth = {
  clientId: defaultIdentity.universalAuth!.clientId,
  clientSecret: defaultIdentity.universalAuth!.clientSecret,
};

/** A project of the default identity's organization that the identity is not a member of. */
export const restrictedProjectId = defaultFixtures.projects.find(
  (p) => p.orgId === defaultIdentity.orgId && !defaultIdentity.projectIds.includes(p.id),
)!.id;
/** A project of another organization. */
export const foreignProjectId = defaultFixtures.projects.find((p) => p.orgId !== defaultIdentity.orgId)!.id;

export const poll = async <T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 5000): Promise<T> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
};
