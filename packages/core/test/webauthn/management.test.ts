/**
 * Passkey management for the signed-in user: list, rename, delete, and the refusal to delete the
 * last way to sign in.
 */
import { deletePasskey, listPasskeys, renamePasskey, type AuthConfig } from "@sesame/core"
import Passkey from "@sesame/core/providers/passkey"
import WebAuthn from "@sesame/core/providers/webauthn"
import { SoftAuthenticator } from "@sesame/testing"
import { describe, expect, it } from "vitest"
import { CookieJar, request } from "../helpers.js"
import { authenticate, register, setup, signOut } from "./harness.js"

const email = "ada@example.com"

/** A user with `count` passkeys, signed in; and the request of their browser. */
async function withPasskeys(count: number, overrides: Partial<AuthConfig> = {}) {
  const s = setup(overrides)
  const jar = new CookieJar()
  const keys: SoftAuthenticator[] = []
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const key = new SoftAuthenticator()
    const { data } = await register(s.config, jar, key, i === 0 ? email : undefined)
    keys.push(key)
    ids.push(Buffer.from(data.id, "base64url").toString("base64"))
  }
  const user = [...s.adapter.tables.users.values()][0]!
  return { ...s, jar, keys, ids, user, me: () => request("/", { jar }) }
}

describe.each(["database", "jwt"] as const)("with %s sessions", (strategy) => {
  it("lists the user's passkeys, oldest first, and nobody else's", async () => {
    const s = await withPasskeys(2, { session: { strategy } })
    await register(s.config, new CookieJar(), new SoftAuthenticator(), "grace@example.com")
    const listed = (await listPasskeys(s.me(), s.config))!
    expect(listed.map((p) => p.id)).toEqual(s.ids)
    expect(listed[0]).toEqual({ id: s.ids[0], name: null, createdAt: expect.any(Date), deviceType: "singleDevice", backedUp: false, transports: ["internal"] })
    expect(listed[0]!.createdAt!.getTime()).toBeLessThanOrEqual(listed[1]!.createdAt!.getTime())
  })
})

describe("not signed in", () => {
  it("lists nothing, renames nothing, deletes nothing", async () => {
    const s = await withPasskeys(1)
    const stranger = request("/")
    expect(await listPasskeys(stranger, s.config)).toBeNull()
    expect(await renamePasskey(stranger, s.config, s.ids[0]!, "Laptop")).toBeNull()
    expect(await deletePasskey(stranger, s.config, s.ids[0]!)).toEqual({ deleted: false, reason: "NotSignedIn" })
    expect(s.adapter.tables.authenticators.get(s.ids[0]!)?.name).toBeNull()
  })
})

describe("renamePasskey", () => {
  it("names the user's passkey, trimmed; another user's passkey or an unknown id is not found", async () => {
    const s = await withPasskeys(1)
    expect(await renamePasskey(s.me(), s.config, s.ids[0]!, "  Work laptop — Touch ID  ")).toMatchObject({ id: s.ids[0], name: "Work laptop — Touch ID" })
    expect((await listPasskeys(s.me(), s.config))![0]!.name).toBe("Work laptop — Touch ID")

    const grace = new CookieJar()
    await register(s.config, grace, new SoftAuthenticator(), "grace@example.com")
    expect(await renamePasskey(request("/", { jar: grace }), s.config, s.ids[0]!, "Mine now")).toBeNull()
    expect(await renamePasskey(s.me(), s.config, "AAAA", "Nope")).toBeNull()
    expect(s.adapter.tables.authenticators.get(s.ids[0]!)?.name).toBe("Work laptop — Touch ID")
  })

  it("refuses an empty name, one over 64 characters, or one with control characters", async () => {
    const s = await withPasskeys(1)
    for (const name of ["", "   ", "x".repeat(65), "line\nbreak", "tab\there", 42 as unknown as string]) {
      await expect(renamePasskey(s.me(), s.config, s.ids[0]!, name)).rejects.toThrow(TypeError)
    }
    expect(await renamePasskey(s.me(), s.config, s.ids[0]!, "😀".repeat(64))).toMatchObject({ name: "😀".repeat(64) })
  })
})

describe("deletePasskey", () => {
  it("deletes a passkey with its account while another remains, then refuses to delete the last one", async () => {
    const s = await withPasskeys(2)
    expect(await deletePasskey(s.me(), s.config, s.ids[0]!)).toEqual({ deleted: true })
    expect(s.adapter.tables.authenticators.has(s.ids[0]!)).toBe(false)
    expect([...s.adapter.tables.accounts.values()].map((a) => a.providerAccountId)).toEqual([s.ids[1]])

    expect(await deletePasskey(s.me(), s.config, s.ids[1]!)).toEqual({ deleted: false, reason: "LastSignInMethod" })
    expect(s.adapter.tables.authenticators.has(s.ids[1]!)).toBe(true)
    expect(s.adapter.tables.accounts.size).toBe(1)

    // The deleted passkey no longer signs in; the other still does.
    await signOut(s.config, s.jar)
    const jar = new CookieJar()
    const asked = await authenticate(s.config, jar, s.keys[1]!)
    expect(asked.response.headers.get("location")).toBe("http://localhost:3000/")
  })

  it("counts an account of a configured OAuth provider, not of one no longer configured", async () => {
    const oidc = { id: "company", name: "Company", type: "oidc" as const, issuer: "https://id.company.example", clientId: "c", clientSecret: "s" }
    const s = await withPasskeys(1, { providers: [Passkey(), oidc] })
    await s.adapter.linkAccount({ userId: s.user.id, provider: "old-idp", type: "oidc", providerAccountId: "ada" })
    expect(await deletePasskey(s.me(), s.config, s.ids[0]!)).toEqual({ deleted: false, reason: "LastSignInMethod" })
    await s.adapter.linkAccount({ userId: s.user.id, provider: "company", type: "oidc", providerAccountId: "ada" })
    expect(await deletePasskey(s.me(), s.config, s.ids[0]!)).toEqual({ deleted: true })
  })

  it("counts another passkey only while its provider is configured", async () => {
    const s = await withPasskeys(1, { providers: [Passkey(), WebAuthn({ id: "keys", enableConditionalUI: false })] })
    // A second passkey, through the second provider.
    const jar = s.jar
    const { askOptions, postResponse } = await import("./harness.js")
    const asked = await askOptions(s.config, jar, { action: "register" }, "keys")
    const key = new SoftAuthenticator()
    await postResponse(s.config, jar, "register", key.register(asked.options, { origin: "http://localhost:3000" }), { provider: "keys" })
    expect(s.adapter.tables.authenticators.size).toBe(2)
    const withoutKeys = { ...s.config, providers: [Passkey()] }
    expect(await deletePasskey(s.me(), withoutKeys, s.ids[0]!)).toEqual({ deleted: false, reason: "LastSignInMethod" })
    expect(await deletePasskey(s.me(), s.config, s.ids[0]!)).toEqual({ deleted: true })
  })

  it("counts what the app says through canSignInWithout", async () => {
    const s = await withPasskeys(1)
    const seen: string[] = []
    expect(await deletePasskey(s.me(), s.config, s.ids[0]!, { canSignInWithout: (user) => (seen.push(user.email), false) })).toEqual({
      deleted: false,
      reason: "LastSignInMethod",
    })
    expect(await deletePasskey(s.me(), s.config, s.ids[0]!, { canSignInWithout: () => true })).toEqual({ deleted: true })
    expect(seen).toEqual([email])
    expect(s.adapter.tables.authenticators.size).toBe(0)
    expect(s.adapter.tables.accounts.size).toBe(0)
  })

  it("does not find another user's passkey, or an unknown one", async () => {
    const s = await withPasskeys(2)
    const grace = new CookieJar()
    await register(s.config, grace, new SoftAuthenticator(), "grace@example.com")
    expect(await deletePasskey(request("/", { jar: grace }), s.config, s.ids[0]!, { canSignInWithout: () => true })).toEqual({ deleted: false, reason: "NotFound" })
    expect(await deletePasskey(s.me(), s.config, "AAAA")).toEqual({ deleted: false, reason: "NotFound" })
    expect(s.adapter.tables.authenticators.size).toBe(3)
  })

  it("needs an adapter", async () => {
    const { config } = setup()
    await expect(listPasskeys(request("/"), { ...config, adapter: undefined, providers: [] })).rejects.toMatchObject({ type: "MissingAdapter" })
  })
})
