/**
 * The server functions of `Sesame(config)` (accounts, sessions, passkeys), with `next/headers`
 * standing in for Next.js and everything of Sesame's running for real: they act for the user of
 * the browser's cookies, through the configuration `handlers` uses.
 */
import { aliceCredentials, current, newRequest, secret } from "./next-request.js"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "@sesame/core/adapters"
import GitHub from "@sesame/core/providers/github"
import Password from "@sesame/core/providers/password"
import { argon2id, importPasswordHash } from "@sesame/core/password"
import Sesame, { CredentialsSignin, type PrimaryAuthConfig } from "@sesame/next"
import type { ServerFunctionsOf } from "@sesame/core"
import { twoFactorModel } from "../../core/src/two-factor/storage.js"
import { apiTokenKeys } from "@sesame/core/api-tokens"
import { verifyApiToken } from "@sesame/core/verify"
import { visits } from "../../core/test/fixtures/visits-plugin.js"

const alice = { email: "alice@example.com", password: "wonderland", redirect: false } as const
const passkey = {
  credentialID: "cred-1",
  providerAccountId: "cred-1",
  credentialPublicKey: "cHVibGlj",
  counter: 0,
  credentialDeviceType: "multiDevice",
  credentialBackedUp: true,
  transports: "internal",
}

beforeEach(() => {
  current.jar.clear()
  newRequest()
})
afterEach(() => {
  vi.restoreAllMocks()
})

/** Database sessions in memory, with Alice created on her first sign-in; GitHub configured too. */
function databaseConfig(extra: Partial<PrimaryAuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const config: PrimaryAuthConfig = {
    secret,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    providers: [aliceCredentials(true), GitHub({ clientId: "app", clientSecret: "a-long-client-secret-0123456789abcdef" })],
    ...extra,
  }
  return { adapter, config }
}

/** Alice signed in (the cookie in the jar), her GitHub account and a passkey linked; her user id. */
async function aliceWithAccounts(sesame: ReturnType<typeof Sesame>, adapter: ReturnType<typeof MemoryAdapter>): Promise<string> {
  await sesame.signIn("credentials", alice)
  const userId = [...adapter.tables.users.values()][0]!.id
  await adapter.linkAccount({ userId, type: "oauth", provider: "github", providerAccountId: "1234" })
  await adapter.linkAccount({ userId, type: "webauthn", provider: "passkey", providerAccountId: passkey.providerAccountId })
  await adapter.createAuthenticator({ ...passkey, userId })
  return userId
}

describe("server functions of Sesame(config)", () => {
  it("answer as signed out without a session cookie", async () => {
    const { config } = databaseConfig()
    const sesame = Sesame(config)
    expect(await sesame.listAccounts()).toBeNull()
    expect(await sesame.listSessions()).toBeNull()
    expect(await sesame.listPasskeys()).toBeNull()
    expect(await sesame.unlinkAccount({ provider: "github", providerAccountId: "1234" })).toEqual({ unlinked: false, reason: "NotSignedIn" })
    expect(await sesame.deleteUser()).toEqual({ deleted: false, reason: "NotSignedIn" })
    expect(await sesame.revokeSession("x")).toBe(false)
    expect(await sesame.revokeOtherSessions()).toBe(0)
    expect(await sesame.renamePasskey("cred-1", "Laptop")).toBeNull()
    expect(await sesame.deletePasskey("cred-1")).toEqual({ deleted: false, reason: "NotSignedIn" })
  })

  it("updateUserFields sets the browser's user's own input fields, and refuses the others", async () => {
    const { adapter, config } = databaseConfig({ user: { fields: { role: { type: "string", default: "member" }, locale: { type: "string", optional: true, input: true } } } })
    const sesame = Sesame(config)
    expect(await sesame.updateUserFields({ locale: "fr" })).toEqual({ updated: false, reason: "NotSignedIn" })
    await sesame.signIn("credentials", alice)
    expect(await sesame.updateUserFields({ locale: "fr" })).toEqual({ updated: true, fields: { locale: "fr" } })
    expect(await sesame.updateUserFields({ role: "admin" })).toEqual({ updated: false, reason: "InvalidField", field: "role" })
    expect([...adapter.tables.users.values()][0]).toMatchObject({ locale: "fr", role: "member" })
    expect((await sesame.auth())?.user).toMatchObject({ locale: "fr", role: "member" })
  })

  it("list and unlink the accounts of the browser's user, keeping a way to sign in", async () => {
    const { adapter, config } = databaseConfig()
    const sesame = Sesame(config)
    await aliceWithAccounts(sesame, adapter)
    expect(await sesame.listAccounts()).toEqual(
      expect.arrayContaining([
        { provider: "github", providerAccountId: "1234", type: "oauth", providerName: "GitHub" },
        { provider: "passkey", providerAccountId: "cred-1", type: "webauthn", providerName: "passkey" },
      ]),
    )
    // GitHub stays, so the passkey's account may go, and its passkey with it.
    expect(await sesame.unlinkAccount({ provider: "passkey", providerAccountId: "cred-1" })).toEqual({ unlinked: true })
    expect(await sesame.listPasskeys()).toEqual([])
    // GitHub is now the only way in, unless the app says there is another (a password).
    expect(await sesame.unlinkAccount({ provider: "github", providerAccountId: "1234" })).toEqual({ unlinked: false, reason: "LastSignInMethod" })
    expect(await sesame.unlinkAccount({ provider: "github", providerAccountId: "1234" }, { canSignInWithout: () => true })).toEqual({ unlinked: true })
    expect(await sesame.unlinkAccount({ provider: "github", providerAccountId: "1234" })).toEqual({ unlinked: false, reason: "NotFound" })
    expect(await sesame.listAccounts()).toEqual([])
  })

  it("sign in with the password provider through the signIn action, then change the password and set none twice", async () => {
    const adapter = MemoryAdapter()
    const sesame = Sesame({
      secret,
      trustHost: true,
      adapter,
      providers: [Password({ sendEmail: () => {}, requireEmailVerification: false, hasher: argon2id({ memoryCost: 64, timeCost: 1 }) })],
    })
    expect(await sesame.hasPassword()).toBeNull()
    const user = await adapter.createUser({ id: "u1", email: "ada@example.com", name: "Ada", emailVerified: new Date() })
    await importPasswordHash(adapter, user.id, await argon2id({ memoryCost: 64, timeCost: 1 }).hash("analytical engine"))
    // The action posts to the password provider's callback, as it does for credentials.
    // A refused password throws, as a refused credentials sign-in does.
    await expect(sesame.signIn("password", { email: "ada@example.com", password: "wrong guess", redirect: false })).rejects.toBeInstanceOf(CredentialsSignin)
    expect(await sesame.auth()).toBeNull()
    await sesame.signIn("password", { email: "ada@example.com", password: "analytical engine", redirect: false })
    expect((await sesame.auth())?.user?.email).toBe("ada@example.com")
    expect(await sesame.hasPassword()).toBe(true)
    expect(await sesame.changePassword({ currentPassword: "wrong guess", newPassword: "difference engine" })).toEqual({ changed: false, reason: "WrongPassword" })
    expect(await sesame.changePassword({ currentPassword: "analytical engine", newPassword: "difference engine" })).toEqual({ changed: true, sessionsEnded: 0 })
    expect(await sesame.setPassword({ newPassword: "yet another one" })).toEqual({ set: false, reason: "HasPassword" })
  })

  it("requests an email change for the signed-in user: the link goes to the new address only", async () => {
    const adapter = MemoryAdapter()
    const mails: { kind: string; to: string }[] = []
    const hasher = argon2id({ memoryCost: 64, timeCost: 1 })
    const sesame = Sesame({ secret, trustHost: true, adapter, providers: [Password({ sendEmail: ({ kind, to }) => void mails.push({ kind, to }), requireEmailVerification: false, hasher })] })
    expect(await sesame.requestEmailChange({ email: "ada@new.example" })).toEqual({ requested: false, reason: "NotSignedIn" })
    const user = await adapter.createUser({ id: "u1", email: "ada@example.com", name: "Ada", emailVerified: new Date() })
    await importPasswordHash(adapter, user.id, await hasher.hash("analytical engine"))
    await sesame.signIn("password", { email: "ada@example.com", password: "analytical engine", redirect: false })
    expect(await sesame.requestEmailChange({ email: "not an address" })).toEqual({ requested: false, reason: "InvalidEmail" })
    expect(await sesame.requestEmailChange({ email: "ada@new.example" })).toEqual({ requested: true })
    expect(mails).toEqual([{ kind: "change-email", to: "ada@new.example" }])
  })

  it("list, rename and delete passkeys", async () => {
    const { adapter, config } = databaseConfig()
    const sesame = Sesame(config)
    await aliceWithAccounts(sesame, adapter)
    expect(await sesame.listPasskeys()).toEqual([expect.objectContaining({ id: "cred-1", name: null, transports: ["internal"] })])
    expect(await sesame.renamePasskey("cred-1", "  Work laptop ")).toMatchObject({ id: "cred-1", name: "Work laptop" })
    expect(await sesame.renamePasskey("someone-else", "x")).toBeNull()
    await expect(sesame.renamePasskey("cred-1", "")).rejects.toThrow(TypeError)
    // GitHub is still linked, so the passkey may go.
    expect(await sesame.deletePasskey("cred-1")).toEqual({ deleted: true })
    expect(await sesame.deletePasskey("cred-1")).toEqual({ deleted: false, reason: "NotFound" })
    expect(await sesame.listPasskeys()).toEqual([])
  })

  it("list and revoke the user's sessions, from the browser's own", async () => {
    const { config } = databaseConfig()
    const sesame = Sesame(config)
    await sesame.signIn("credentials", alice)
    const elsewhere = new Map(current.jar)
    current.jar.clear()
    await sesame.signIn("credentials", alice)
    const sessions = await sesame.listSessions()
    expect(sessions?.map((s) => s.current).sort()).toEqual([false, true])
    expect(await sesame.revokeSession("not-an-id")).toBe(false)
    const other = sessions!.find((s) => !s.current)!
    expect(await sesame.revokeSession(other.id)).toBe(true)
    expect((await sesame.listSessions())?.map((s) => s.current)).toEqual([true])

    // The other browser signs in again; "sign out everywhere else" ends it.
    const here = new Map(current.jar)
    current.jar.clear()
    for (const [name, value] of elsewhere) current.jar.set(name, value)
    expect(await sesame.auth()).toBeNull()
    await sesame.signIn("credentials", alice)
    current.jar.clear()
    for (const [name, value] of here) current.jar.set(name, value)
    expect(await sesame.revokeOtherSessions()).toBe(1)
    expect(await sesame.listSessions()).toHaveLength(1)
  })

  it("delete the user only after a recent sign-in", async () => {
    const { adapter, config } = databaseConfig()
    const sesame = Sesame(config)
    await sesame.signIn("credentials", alice)
    const now = Date.now()
    vi.spyOn(Date, "now").mockReturnValue(now + 5_000)
    expect(await sesame.deleteUser({ maxSignInAge: 1 })).toEqual({ deleted: false, reason: "SignInTooOld" })
    vi.restoreAllMocks()
    expect(await sesame.deleteUser()).toEqual({ deleted: true })
    expect(adapter.tables.users.size).toBe(0)
    expect(await sesame.auth()).toBeNull()
  })

  it("requireRecentSignIn sends a stale session to re-authenticate and back to the page the request came from; twoFactorStatus reports the second factor", async () => {
    const { adapter, config } = databaseConfig()
    const sesame = Sesame(config)
    expect(await sesame.requireRecentSignIn()).toEqual({
      recent: false,
      reason: "NotSignedIn",
      redirect: `https://app.example.test:8443/api/auth/signin?callbackUrl=${encodeURIComponent("https://app.example.test:8443/")}`,
    })
    await sesame.signIn("credentials", alice)
    expect(await sesame.requireRecentSignIn()).toEqual({ recent: true })
    expect(await sesame.twoFactorStatus()).toEqual({ enabled: false, method: null, recoveryCodesLeft: 0, settingsUrl: "https://app.example.test:8443/api/auth/two-factor/setup" })
    const userId = [...adapter.tables.users.values()][0]!.id
    // The row two-factor sign-in stores for a user who turned it on (the core's model, on the adapter's store).
    await adapter.store.create(twoFactorModel, { userId, method: "totp", secret: "sealed", enabledAt: new Date(), devicesRevokedAt: null })
    expect(await sesame.twoFactorStatus()).toMatchObject({ enabled: true, method: "totp" })

    const now = Date.now()
    vi.spyOn(Date, "now").mockReturnValue(now + 11 * 60_000)
    newRequest({ referer: "https://app.example.test:8443/settings/danger" })
    const stale = await sesame.requireRecentSignIn()
    expect(stale).toEqual({
      recent: false,
      reason: "SignInTooOld",
      redirect: `https://app.example.test:8443/api/auth/reauthenticate?callbackUrl=${encodeURIComponent("https://app.example.test:8443/settings/danger")}`,
    })
    // A Referer of another site is not where the browser comes back to; `returnTo` is.
    newRequest({ referer: "https://evil.example/" })
    expect(await sesame.requireRecentSignIn()).toMatchObject({ redirect: expect.stringContaining(encodeURIComponent("https://app.example.test:8443/")) })
    expect(await sesame.requireRecentSignIn({ returnTo: "/billing" })).toMatchObject({ redirect: expect.stringContaining(encodeURIComponent("https://app.example.test:8443/billing")) })
    expect(await sesame.requireRecentSignIn({ maxAge: 3600 })).toEqual({ recent: true })
  })

  it("getApiToken gives the signed-in user an API token that verifies against the key set, and null when signed out", async () => {
    // The tokens' issuer never comes from the request's Host (trustHost here): AUTH_URL fixes it.
    vi.stubEnv("AUTH_URL", "https://app.example.test:8443")
    try {
      const audience = "https://api.example.test"
      const { config } = databaseConfig({ apiTokens: { audience } })
      const sesame = Sesame(config)
      expect(await sesame.getApiToken()).toBeNull()
      await sesame.signIn("credentials", alice)
      const issued = await sesame.getApiToken()
      expect(Object.keys(issued!).sort()).toEqual(["expiresAt", "token", "tokenType"])
      // The keys are stored through the adapter, so the app's own configuration object publishes them too.
      const jwks = await apiTokenKeys(config)
      const claims = await verifyApiToken(issued!.token, { jwks, issuer: "https://app.example.test:8443/api/auth", audience })
      expect((await sesame.auth())?.user?.email).toBe("alice@example.com")
      expect(claims.sub).toBe([...(config.adapter as ReturnType<typeof MemoryAdapter>).tables.users.values()][0]!.id)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it("pass the configuration handlers use: a lazy one is called without a request, a custom basePath is kept", async () => {
    const { adapter, config } = databaseConfig({ basePath: "/auth" })
    const lazy = vi.fn(() => config)
    const sesame = Sesame(lazy)
    await sesame.signIn("credentials", alice)
    await adapter.linkAccount({ userId: [...adapter.tables.users.values()][0]!.id, type: "oauth", provider: "github", providerAccountId: "1" })
    expect(await sesame.listAccounts()).toEqual([expect.objectContaining({ provider: "github" })])
    expect(lazy).toHaveBeenCalledWith(undefined)
  })

  it("work in a server component, where cookies cannot be set", async () => {
    const { config } = databaseConfig()
    const sesame = Sesame(config)
    await sesame.signIn("credentials", alice)
    newRequest({ readonly: true })
    expect(await sesame.listSessions()).toEqual([expect.objectContaining({ current: true })])
    expect(await sesame.listAccounts()).toEqual([])
    expect(current.written.size).toBe(0)
  })

  it("throw the core's configuration error to the caller (no adapter)", async () => {
    const sesame = Sesame({ secret, trustHost: true, providers: [aliceCredentials()] })
    await sesame.signIn("credentials", alice)
    await expect(sesame.listAccounts()).rejects.toThrow(/adapter/)
    await expect(sesame.listPasskeys()).rejects.toThrow(/adapter/)
  })
})

describe("api: the plugins' server functions", () => {

  it("act for the browser's user, with no code for the plugin in @sesame/next", async () => {
    const { config } = databaseConfig({ plugins: [visits] })
    const sesame = Sesame(config)
    const api = sesame.api as ServerFunctionsOf<typeof visits>
    expect(await api.visit(1)).toBeNull()
    await sesame.signIn("credentials", alice)
    expect(await api.visit(2)).toMatchObject({ email: "alice@example.com", count: 2 })
    expect(await api.visit(3)).toMatchObject({ email: "alice@example.com", count: 5 })
    await expect(sesame.api.nothingLikeThis!()).rejects.toThrow(/no plugin has a server function "nothingLikeThis"/i)
  })

  it("throw MissingAdapterMethods for a plugin that is off (an adapter without a store)", async () => {
    const { adapter, config } = databaseConfig()
    const { store: _store, ...withoutStore } = adapter
    const sesame = Sesame({ ...config, adapter: withoutStore, plugins: [visits] })
    await sesame.signIn("credentials", alice)
    await expect((sesame.api as ServerFunctionsOf<typeof visits>).visit(1)).rejects.toMatchObject({ type: "MissingAdapterMethods" })
  })
})
