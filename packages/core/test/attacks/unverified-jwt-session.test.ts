/**
 * Threat: a squatter's JWT session outlives the owner's proof. Someone registers a passkey (or
 * signs in with a provider that does not verify addresses) for an address they do not own, which
 * creates an unverified user and starts a session. When the owner later proves the address, the
 * sign-in decision sets that user aside under a placeholder address; a database session then shows
 * the placeholder, but a JWT carries the owner's address in its claims. So a JWT session started for
 * an unverified stored user carries a marker, and each read of such a token checks the user: once
 * the user is gone or no longer holds the token's address, the session ends and is no signed-in
 * user for linking either. A user who merely became verified keeps the session (Auth.js's users,
 * all unverified, at their first email link). Sessions of verified users never pay for the check.
 */
import { MemoryAdapter, type Adapter, type MemoryAdapterInstance } from "@sesame/core/adapters"
import { decode } from "@sesame/core/jwt"
import { SoftAuthenticator } from "@sesame/testing"
import { describe, expect, it } from "vitest"
import { CookieJar, secret, send } from "../helpers.js"
import { authenticate, expectSignedIn, register, setup } from "../webauthn/harness.js"

const victim = "owner@example.com"
const cookieName = "sesame.session-token"

/** A memory adapter that records the name of every method called on it. */
function countingAdapter(): { adapter: Adapter; memory: MemoryAdapterInstance; calls: string[] } {
  const memory = MemoryAdapter()
  const calls: string[] = []
  const adapter = new Proxy(memory, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver)
      if (typeof value !== "function") return value
      return (...args: unknown[]) => {
        calls.push(String(property))
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  })
  return { adapter, memory, calls }
}

function jwtPasskeys() {
  const counted = countingAdapter()
  const { config } = setup({ adapter: counted.adapter, session: { strategy: "jwt" } })
  return { config, ...counted }
}

async function readSession(config: Parameters<typeof send>[0], jar: CookieJar) {
  const response = await send(config, "/auth/session", { jar })
  return { response, body: (await response.json()) as { user?: { email?: string } } | null }
}

/** The squatter registers a passkey for the victim's address: an unverified user and a JWT session. */
async function squat(config: Parameters<typeof send>[0], memory: MemoryAdapterInstance, key = new SoftAuthenticator()) {
  const jar = new CookieJar()
  const { response } = await register(config, jar, key, victim)
  await expectSignedIn(config, jar, response, victim)
  const [user] = [...memory.tables.users.values()]
  expect(user).toMatchObject({ email: victim, emailVerified: null })
  return { jar, user: user! }
}

describe("JWT sessions of users whose address was unverified", () => {
  it("end once the owner proves the address: the read answers null and clears the cookie", async () => {
    const { config, adapter, memory } = jwtPasskeys()
    const { jar, user } = await squat(config, memory)
    const token = await decode({ token: jar.get(cookieName), secret, salt: cookieName })
    expect(token?.email_unverified).toBe(victim)
    // Meanwhile the session works (the user is still unverified).
    expect((await readSession(config, jar)).body?.user?.email).toBe(victim)

    // The owner proves the address (the sign-in decision sets the squatter's user aside).
    await adapter.updateUser!({ id: user.id, email: `unproven+${user.id}@sesame.invalid` })
    const stolen = jar.header()
    const { response, body } = await readSession(config, jar)
    expect(body).toBeNull()
    expect(response.headers.getSetCookie().find((c) => c.startsWith(`${cookieName}=`))).toMatch(/^sesame\.session-token=; Path=\/; Max-Age=0/)
    expect(jar.get(cookieName)).toBeUndefined()

    // The squatter's copy of the cookie is no signed-in user for linking: adding a passkey is
    // refused as if signed out.
    const again = await send(config, "/auth/session", { cookie: stolen })
    expect(await again.json()).toBeNull()
    const withStolen = await send(config, "/auth/webauthn-options/passkey?action=register", { cookie: stolen })
    expect(withStolen.status).toBe(400)
    expect(((await withStolen.json()) as { message: string }).message).toMatch(/needs an `email`, or a signed-in user/)
  })

  it("end when the user is gone", async () => {
    const { config, adapter, memory } = jwtPasskeys()
    const { jar, user } = await squat(config, memory)
    await adapter.deleteUser!(user.id)
    expect((await readSession(config, jar)).body).toBeNull()
    expect(jar.get(cookieName)).toBeUndefined()
  })

  it("keep the marker whatever the jwt callback returns", async () => {
    const counted = countingAdapter()
    const { config } = setup({
      adapter: counted.adapter,
      session: { strategy: "jwt" },
      callbacks: { jwt: ({ token }) => ({ sub: token.sub, email: token.email, email_unverified: false }) },
    })
    const { jar, user } = await squat(config, counted.memory)
    expect((await decode({ token: jar.get(cookieName), secret, salt: cookieName }))?.email_unverified).toBe(victim)
    expect((await readSession(config, jar)).body?.user?.email).toBe(victim)
    expect((await decode({ token: jar.get(cookieName), secret, salt: cookieName }))?.email_unverified).toBe(victim)
    await counted.adapter.updateUser!({ id: user.id, email: "elsewhere@example.com" })
    expect((await readSession(config, jar)).body).toBeNull()
  })

  it("stay when the user merely becomes verified, keeping its address (an Auth.js user's first email link)", async () => {
    const { config, adapter, memory } = jwtPasskeys()
    const { jar, user } = await squat(config, memory)
    await adapter.updateUser!({ id: user.id, emailVerified: new Date() })
    expect((await readSession(config, jar)).body?.user?.email).toBe(victim)
    expect(jar.get(cookieName)).toBeDefined()
  })

  it("a verified user's session is unaffected and its reads never call the adapter", async () => {
    const { config, adapter, memory, calls } = jwtPasskeys()
    const key = new SoftAuthenticator()
    const { jar: unverifiedJar, user } = await squat(config, memory, key)
    // The owner verifies the address, then signs in with the passkey: a new, unmarked session.
    await adapter.updateUser!({ id: user.id, emailVerified: new Date() })
    const jar = new CookieJar()
    await expectSignedIn(config, jar, (await authenticate(config, jar, key)).response, victim)
    expect((await decode({ token: jar.get(cookieName), secret, salt: cookieName }))?.email_unverified).toBeUndefined()

    calls.length = 0
    for (let i = 0; i < 3; i++) expect((await readSession(config, jar)).body?.user?.email).toBe(victim)
    expect(calls).toEqual([])

    // The session started while unverified pays one getUser per read (and holds on: its user still
    // holds the address).
    expect((await readSession(config, unverifiedJar)).body?.user?.email).toBe(victim)
    expect(calls).toEqual(["getUser"])
  })
})
