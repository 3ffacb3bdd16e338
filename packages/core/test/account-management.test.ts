/**
 * Account management for the signed-in user: listing the linked accounts, linking another one by
 * signing in with it, unlinking (never the last way in), and deleting the user after a fresh
 * sign-in. Real sign-ins: a passkey on a software authenticator and OIDC at the dev IdP.
 */
import { deleteUser, listAccounts, unlinkAccount, type AuthConfig } from "@sesame/core"
import Passkey from "@sesame/core/providers/passkey"
import type { DevIdp } from "@sesame/dev-idp"
import { SoftAuthenticator } from "@sesame/testing"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { CookieJar, request, send } from "./helpers.js"
import { client, oidc, signIn, startIdp } from "./oauth/harness.js"
import { register, session, setup } from "./webauthn/harness.js"

const alice = "alice@example.com"

let idp: DevIdp
beforeAll(async () => {
  idp = await startIdp({ clients: [client("dev"), client("work")] })
})
afterAll(() => idp.close())
afterEach(() => {
  vi.useRealTimers()
})

/** Alice signed up with a passkey, then linked the IdP's `dev` account by signing in with it while signed in. */
async function aliceWithPasskeyAndIdp(overrides: Partial<AuthConfig> = {}) {
  const events: { name: string; message: unknown }[] = []
  const record = (name: string) => (message: unknown) => void events.push({ name, message })
  const s = setup({
    providers: [Passkey(), oidc(idp), oidc(idp, { id: "work", name: "Work IdP", clientId: "work" })],
    events: { unlinkAccount: record("unlinkAccount"), deleteUser: record("deleteUser") },
    ...overrides,
  })
  const jar = new CookieJar()
  const { response, data } = await register(s.config, jar, new SoftAuthenticator(), alice)
  expect(response.status).toBe(302)
  const linked = await signIn(s.config, jar, "dev")
  expect(linked.status).toBe(302)
  const user = [...s.adapter.tables.users.values()][0]!
  const passkeyAccountId = Buffer.from(data.id, "base64url").toString("base64")
  return { ...s, jar, user, events, passkeyAccountId, me: () => request("/", { jar }) }
}

describe.each(["database", "jwt"] as const)("with %s sessions", (strategy) => {
  it("lists the accounts linked to the signed-in user, without tokens; linking another is signing in with it", async () => {
    const s = await aliceWithPasskeyAndIdp({ session: { strategy } })
    expect(s.adapter.tables.users.size).toBe(1)
    const listed = await listAccounts(s.me(), s.config)
    expect(listed).toEqual([
      { provider: "passkey", providerAccountId: s.passkeyAccountId, type: "webauthn", providerName: "Passkey" },
      { provider: "dev", providerAccountId: "alice", type: "oidc", providerName: "Dev IdP" },
    ])
    expect(JSON.stringify(listed)).not.toMatch(/token/i)

    // A second provider, linked while signed in.
    expect((await signIn(s.config, s.jar, "work")).status).toBe(302)
    expect((await listAccounts(s.me(), s.config))!.map((a) => a.provider)).toEqual(["passkey", "dev", "work"])
  })
})

describe("listAccounts", () => {
  it("answers null to a request that is not signed in, and lists nobody else's accounts", async () => {
    const s = await aliceWithPasskeyAndIdp()
    expect(await listAccounts(request("/"), s.config)).toBeNull()
    const bob = new CookieJar()
    await register(s.config, bob, new SoftAuthenticator(), "bob@example.com")
    expect((await listAccounts(request("/", { jar: bob }), s.config))!.map((a) => a.provider)).toEqual(["passkey"])
  })
})

describe("unlinkAccount", () => {
  it("removes an account while another way in remains, then refuses to remove the last one", async () => {
    const s = await aliceWithPasskeyAndIdp()
    expect(await unlinkAccount(s.me(), s.config, { provider: "dev", providerAccountId: "alice" })).toEqual({ unlinked: true })
    expect((await listAccounts(s.me(), s.config))!.map((a) => a.provider)).toEqual(["passkey"])
    expect(s.events).toEqual([
      { name: "unlinkAccount", message: { user: expect.objectContaining({ id: s.user.id }), account: { provider: "dev", providerAccountId: "alice", type: "oidc", providerName: "Dev IdP" } } },
    ])

    expect(await unlinkAccount(s.me(), s.config, { provider: "passkey", providerAccountId: s.passkeyAccountId })).toEqual({
      unlinked: false,
      reason: "LastSignInMethod",
    })
    expect(s.adapter.tables.authenticators.size).toBe(1)
    expect(s.events).toHaveLength(1)
  })

  it("a passkey's account takes its passkey along; the IdP account is then the last way in", async () => {
    const s = await aliceWithPasskeyAndIdp()
    expect(await unlinkAccount(s.me(), s.config, { provider: "passkey", providerAccountId: s.passkeyAccountId })).toEqual({ unlinked: true })
    expect(s.adapter.tables.authenticators.size).toBe(0)
    expect(await unlinkAccount(s.me(), s.config, { provider: "dev", providerAccountId: "alice" })).toEqual({ unlinked: false, reason: "LastSignInMethod" })
  })

  it("removes the last one when the app vouches for a way in it keeps itself", async () => {
    const s = await aliceWithPasskeyAndIdp()
    await unlinkAccount(s.me(), s.config, { provider: "passkey", providerAccountId: s.passkeyAccountId })
    const canSignInWithout = vi.fn(() => true)
    expect(await unlinkAccount(s.me(), s.config, { provider: "dev", providerAccountId: "alice" }, { canSignInWithout })).toEqual({ unlinked: true })
    expect(canSignInWithout).toHaveBeenCalledWith(expect.objectContaining({ id: s.user.id }))
  })

  it("never touches another user's account, and refuses a request that is not signed in", async () => {
    const s = await aliceWithPasskeyAndIdp()
    const bob = new CookieJar()
    await register(s.config, bob, new SoftAuthenticator(), "bob@example.com")
    const asBob = request("/", { jar: bob })
    expect(await unlinkAccount(asBob, s.config, { provider: "dev", providerAccountId: "alice" })).toEqual({ unlinked: false, reason: "NotFound" })
    expect(await unlinkAccount(asBob, s.config, { provider: "passkey", providerAccountId: s.passkeyAccountId })).toEqual({ unlinked: false, reason: "NotFound" })
    expect(await unlinkAccount(request("/"), s.config, { provider: "dev", providerAccountId: "alice" })).toEqual({ unlinked: false, reason: "NotSignedIn" })
    expect(await unlinkAccount(s.me(), s.config, { provider: "dev", providerAccountId: 42 as unknown as string })).toEqual({ unlinked: false, reason: "NotFound" })
    expect((await listAccounts(s.me(), s.config))!).toHaveLength(2)
  })
})

describe.each(["database", "jwt"] as const)("deleteUser with %s sessions", (strategy) => {
  it("deletes the user with their accounts, passkeys and sessions after a fresh sign-in", async () => {
    const s = await aliceWithPasskeyAndIdp({ session: { strategy } })
    expect(await deleteUser(s.me(), s.config)).toEqual({ deleted: true })
    expect(s.adapter.tables.users.size).toBe(0)
    expect(s.adapter.tables.accounts.size).toBe(0)
    expect(s.adapter.tables.authenticators.size).toBe(0)
    expect(s.adapter.tables.sessions.size).toBe(0)
    expect(s.events.map((e) => e.name)).toEqual(["deleteUser"])
    // Nothing is left to act for: the session names a user that is gone.
    expect(await listAccounts(s.me(), s.config)).toBeNull()
    if (strategy === "database") expect(await session(s.config, s.jar)).toBeNull()
  })

  it("refuses when the session's sign-in is older than maxSignInAge, and keeps everything", async () => {
    const s = await aliceWithPasskeyAndIdp({ session: { strategy } })
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 11 * 60 * 1000)
    expect(await deleteUser(s.me(), s.config)).toEqual({ deleted: false, reason: "SignInTooOld" })
    expect(await deleteUser(s.me(), s.config, { maxSignInAge: 3600 })).toEqual({ deleted: true })
  })
})

describe("deleteUser", () => {
  it("refuses a request that is not signed in, and a bad maxSignInAge", async () => {
    const s = await aliceWithPasskeyAndIdp()
    expect(await deleteUser(request("/"), s.config)).toEqual({ deleted: false, reason: "NotSignedIn" })
    await expect(deleteUser(s.me(), s.config, { maxSignInAge: 0 })).rejects.toThrow(TypeError)
    expect(s.adapter.tables.users.size).toBe(1)
  })

  it("needs an adapter", async () => {
    await expect(deleteUser(request("/"), { secret: "x".repeat(40), trustHost: true, providers: [oidc(idp)] })).rejects.toThrow(/needs an `adapter`/)
    expect((await send({ secret: "x".repeat(40), trustHost: true, providers: [oidc(idp)] }, "/auth/providers")).status).toBe(200)
  })
})
