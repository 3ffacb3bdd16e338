/**
 * The server functions for the signed-in user (accounts, sessions, passkeys): the request and the
 * options as `getSession` takes them, the core configuration `SolidAuth` uses.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "@sesame/core/adapters"
import GitHub from "@sesame/core/providers/github"
import Password from "@sesame/core/providers/password"
import {
  deletePasskey,
  deleteUser,
  listAccounts,
  listPasskeys,
  listSessions,
  renamePasskey,
  requestEmailChange,
  revokeOtherSessions,
  revokeSession,
  SolidAuth,
  unlinkAccount,
  type SolidAuthConfig,
} from "@sesame/solid-start"
import { aliceCredentials, config, CookieJar, request, signInAlice } from "./helpers.js"

const github = { provider: "github", providerAccountId: "1234" }

/** Database sessions in memory, Alice created on her first sign-in, GitHub configured too. */
function databaseOptions(overrides: Partial<SolidAuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const options = config({
    adapter,
    session: { strategy: "database" },
    providers: [aliceCredentials({ createUser: true }), GitHub({ clientId: "app", clientSecret: "a-long-client-secret-0123456789abcdef" })],
    ...overrides,
  })
  return { adapter, options }
}

/** Alice signed in (in `jar`) with her GitHub account and a passkey linked. */
async function signedInAlice(adapter: ReturnType<typeof MemoryAdapter>, options: SolidAuthConfig, jar = new CookieJar()): Promise<CookieJar> {
  await signInAlice(SolidAuth(options), jar, options.prefix)
  const userId = [...adapter.tables.users.values()][0]!.id
  await adapter.linkAccount({ userId, type: "oauth", ...github })
  await adapter.createAuthenticator({
    credentialID: "cred-1",
    providerAccountId: "cred-1",
    userId,
    credentialPublicKey: "cHVibGlj",
    counter: 0,
    credentialDeviceType: "multiDevice",
    credentialBackedUp: true,
  })
  return jar
}

describe("server functions", () => {
  it("answer as signed out without a session cookie", async () => {
    const { options } = databaseOptions()
    const req = request("/settings")
    expect(await listAccounts(req, options)).toBeNull()
    expect(await listSessions(req, options)).toBeNull()
    expect(await listPasskeys(req, options)).toBeNull()
    expect(await unlinkAccount(req, options, github)).toEqual({ unlinked: false, reason: "NotSignedIn" })
    expect(await deleteUser(req, options)).toEqual({ deleted: false, reason: "NotSignedIn" })
    expect(await revokeSession(req, options, "x")).toBe(false)
    expect(await revokeOtherSessions(req, options)).toBe(0)
    expect(await renamePasskey(req, options, "cred-1", "Laptop")).toBeNull()
    expect(await deletePasskey(req, options, "cred-1")).toEqual({ deleted: false, reason: "NotSignedIn" })
  })

  it("list and unlink the request user's accounts, keeping a way to sign in", async () => {
    const { adapter, options } = databaseOptions()
    const jar = await signedInAlice(adapter, options)
    const req = () => request("/settings", { jar })
    expect(await listAccounts(req(), options)).toEqual([{ ...github, type: "oauth", providerName: "GitHub" }])
    expect(await unlinkAccount(req(), options, github)).toEqual({ unlinked: false, reason: "LastSignInMethod" })
    expect(await unlinkAccount(req(), options, github, { canSignInWithout: () => true })).toEqual({ unlinked: true })
    expect(await listAccounts(req(), options)).toEqual([])
  })

  it("list, rename and delete passkeys, under a non-default prefix", async () => {
    const { adapter, options } = databaseOptions({ prefix: "/my/auth" })
    const jar = await signedInAlice(adapter, options)
    const req = () => request("/settings", { jar })
    expect(await listPasskeys(req(), options)).toEqual([expect.objectContaining({ id: "cred-1", name: null })])
    expect(await renamePasskey(req(), options, "cred-1", "Work laptop")).toMatchObject({ name: "Work laptop" })
    await expect(renamePasskey(req(), options, "cred-1", "")).rejects.toThrow(TypeError)
    expect(await deletePasskey(req(), options, "cred-1")).toEqual({ deleted: true })
    expect(await listPasskeys(req(), options)).toEqual([])
  })

  it("list and revoke the user's sessions", async () => {
    const { adapter, options } = databaseOptions()
    const here = await signedInAlice(adapter, options)
    await signInAlice(SolidAuth(options), new CookieJar())
    await signInAlice(SolidAuth(options), new CookieJar())
    const sessions = await listSessions(request("/", { jar: here }), options)
    expect(sessions?.filter((s) => s.current)).toHaveLength(1)
    expect(sessions).toHaveLength(3)
    expect(await revokeSession(request("/", { jar: here }), options, sessions!.find((s) => !s.current)!.id)).toBe(true)
    expect(await revokeOtherSessions(request("/", { jar: here }), options)).toBe(1)
    expect(await listSessions(request("/", { jar: here }), options)).toEqual([expect.objectContaining({ current: true })])
  })

  it("request an email change for the request's user: the link goes to the new address only", async () => {
    const mails: { kind: string; to: string }[] = []
    const password = Password({ sendEmail: ({ kind, to }) => void mails.push({ kind, to }) })
    const { adapter, options } = databaseOptions({ providers: [aliceCredentials({ createUser: true }), password] })
    expect(await requestEmailChange(request("/"), options, { email: "alice@new.example" })).toEqual({ requested: false, reason: "NotSignedIn" })
    const jar = await signedInAlice(adapter, options)
    expect(await requestEmailChange(request("/", { jar }), options, { email: "alice@new.example" })).toEqual({ requested: true })
    expect(mails).toEqual([{ kind: "change-email", to: "alice@new.example" }])
  })

  it("delete the request's user", async () => {
    const { adapter, options } = databaseOptions()
    const jar = await signedInAlice(adapter, options)
    expect(await deleteUser(request("/", { jar }), options, { maxSignInAge: 60 })).toEqual({ deleted: true })
    expect(adapter.tables.users.size).toBe(0)
  })

  it("reject a bad configuration, and one without an adapter, as the core does", async () => {
    const jar = new CookieJar()
    const options = config()
    await signInAlice(SolidAuth(options), jar)
    await expect(listAccounts(request("/", { jar }), options)).rejects.toThrow(/adapter/)
    await expect(listSessions(request("/", { jar }), config({ prefix: "no-slash" }))).rejects.toThrow(TypeError)
  })
})
