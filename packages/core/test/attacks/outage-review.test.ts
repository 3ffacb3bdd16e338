/**
 * An attacker's review of the storage-outage change (503 + Retry-After; one-time values put back):
 * each attack performed, beside the legitimate flow. The four findings (fixed) are explained above their tests.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { AuthConfig, OAuth2Config } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import type { StorageUnavailable } from "@sesame/core/errors"
import { unavailableAnswer } from "@sesame/core/integration"
import { argon2id, type CounterStore } from "@sesame/core/password"
import Email from "@sesame/core/providers/email"
import Password from "@sesame/core/providers/password"
import { outage } from "@sesame/testing"
import { describe, expect, it, vi } from "vitest"
import { storePassword } from "../../src/password/storage.js"
import { aliceCredentials, CookieJar, csrfToken, emailLinkConfig, recordingLogger, request, secret, send, signInAlice } from "../helpers.js"

const hasher = argon2id({ memoryCost: 64, timeCost: 1 })
const victim = "alice@example.com"
const html = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const died = () => new Error("Connection terminated unexpectedly")

async function post(config: AuthConfig, path: string, jar: CookieJar, form: Record<string, string>, headers?: Record<string, string>) {
  return send(config, path, { jar, headers, form: { csrfToken: await csrfToken(config, jar), ...form } })
}
async function sessionUser(config: AuthConfig, jar: CookieJar) {
  const body = (await (await send(config, "/auth/session", { jar })).json()) as { user?: { name?: string | null; email?: string } } | null
  return body?.user
}
/** Posts an emailed link's parameters, as its page's button does. */
function follow(config: AuthConfig, jar: CookieJar, url: string, extra: Record<string, string> = {}) {
  const link = new URL(url)
  return post(config, link.pathname, jar, { token: link.searchParams.get("token")!, email: link.searchParams.get("email")!, ...extra })
}
/** A counter store (a Redis client, say) whose operations fail while `down` includes them. */
function flakyCounters() {
  const counts = new Map<string, { count: number; expires: Date }>()
  const state = { down: new Set<string>() }
  const guard = (op: string) => {
    if (state.down.has(op)) throw new Error("Connection is closed.")
  }
  const store: CounterStore = {
    incrementCounter(key, expires) {
      guard("increment")
      const count = (counts.get(key)?.count ?? 0) + 1
      counts.set(key, { count, expires })
      return { key, count, expires }
    },
    getCounter(key) {
      guard("get")
      const found = counts.get(key)
      return found ? { key, ...found } : null
    },
    deleteCounter(key) {
      guard("delete")
      counts.delete(key)
    },
  }
  return { store, state }
}

describe("pre-hijacking through an outage: the unproven mark is a one-time value too", () => {
  /**
   * A squatter signed up with the victim's address (an unproven, marked user). The victim proves the
   * address with an email link; the database goes away just after the mark was taken (a restart
   * beginning mid-request), with an adapter without transactions (memory, many Auth.js adapters).
   */
  async function app(outageAfterMark: boolean) {
    const base = MemoryAdapter()
    const storage = outage(base)
    const take = base.useVerificationToken.bind(base)
    let armed = false
    base.useVerificationToken = async (params) => {
      const taken = await take(params)
      if (armed && params.identifier.startsWith("sesame:unproven:") && taken) storage.down()
      return taken
    }
    const links: string[] = []
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter: storage.adapter,
      providers: [Password({ sendEmail: () => {}, hasher }), Email({ sendVerificationRequest: ({ url }) => void links.push(url) })],
      logger: recordingLogger().logger,
    }
    await post(config, "/auth/signup/password", new CookieJar(), { email: victim, password: "squatter's own password", name: "Mallory" })
    const squatter = [...base.tables.users.values()].find((u) => u.email === victim)!
    expect(squatter.emailVerified).toBeNull()
    const jar = new CookieJar()
    await post(config, "/auth/signin/email", jar, { email: victim })
    if (outageAfterMark) {
      armed = true
      expect((await follow(config, jar, links[0]!)).status).toBe(503)
      armed = false
      storage.up()
      await sleep(300) // the link is put back in the background, every 100 ms
    }
    expect((await follow(config, jar, links[0]!)).headers.get("location")).not.toContain("error=")
    const owner = await sessionUser(config, jar)
    // The squatter comes back with the password he chose for the victim's address.
    const squatterJar = new CookieJar()
    await post(config, "/auth/callback/password", squatterJar, { email: victim, password: "squatter's own password" })
    return { base, squatter, owner, squatterIn: await sessionUser(config, squatterJar) }
  }

  it("legitimate: the owner's proof sets the squatter's user aside and gives the owner a user of their own", async () => {
    const { base, squatter, owner, squatterIn } = await app(false)
    expect(owner).toMatchObject({ email: victim })
    expect(owner?.name).not.toBe("Mallory")
    expect(base.tables.users.get(squatter.id)!.email).not.toBe(victim)
    expect(squatterIn?.email).not.toBe(victim)
  })

  // Found by this review (fixed since; the test failed before): ownerProved (account/decide.ts) takes the mark, then setAside fails (outage); its catch
  // re-marks with `markUnproven(...).catch(() => {})`, which fails as well (the storage is still
  // away) and is swallowed. The mark is not in `ctx.spentOneTime`, so it is never put back, while
  // the email link is. The owner's "try again" finds an unmarked unverified user (one of Auth.js's,
  // as far as Sesame can tell), verifies it and signs the owner into the squatter's account, whose
  // password the squatter still has: both are in the same, now verified, account.
  it("the owner's retry after the outage never lands in the squatter's user", async () => {
    const { base, squatter, owner, squatterIn } = await app(true)
    expect(owner).toMatchObject({ email: victim })
    expect(owner?.name).not.toBe("Mallory")
    expect(base.tables.users.get(squatter.id)!.emailVerified).toBeNull()
    expect(squatterIn?.email).not.toBe(victim)
  })
})

describe("put-back: a one-time link is never usable twice", () => {
  /**
   * Verification tokens kept as rows without a unique key (a MongoDB collection without an index):
   * a put-back write whose reply is lost ("may have run") and that is then written again leaves two.
   */
  function app(lostReply: boolean) {
    const adapter = MemoryAdapter()
    const rows: { identifier: string; token: string; expires: Date }[] = []
    let creates = 0
    let failSession = 0
    adapter.createVerificationToken = async (row) => {
      rows.push({ ...row })
      // The put-back's first write (the second write of a token) runs, but the connection dies before the answer.
      if (lostReply && ++creates === 2) throw died()
      return row
    }
    adapter.useVerificationToken = async ({ identifier, token }) => {
      const at = rows.findIndex((r) => r.identifier === identifier && r.token === token)
      return at < 0 ? null : rows.splice(at, 1)[0]!
    }
    const createSession = adapter.createSession.bind(adapter)
    adapter.createSession = async (session) => {
      if (failSession-- > 0) throw died()
      return createSession(session)
    }
    const { config, links } = emailLinkConfig(adapter)
    return { config, links, failOnce: () => void (failSession = 1) }
  }

  async function run(lostReply: boolean) {
    const { config, links, failOnce } = app(lostReply)
    const owner = new CookieJar()
    await post(config, "/auth/signin/email", owner, { email: "bob@example.com" })
    failOnce()
    expect((await follow(config, owner, links[0]!)).status).toBe(503)
    await sleep(400)
    // The "try again": signs in.
    expect((await follow(config, owner, links[0]!)).headers.get("location")).not.toContain("error=")
    // Someone who reads the link later (a forwarded mail, a shared inbox) tries it too.
    const later = new CookieJar()
    const replay = await follow(config, later, links[0]!)
    expect(replay.headers.get("location")).toContain("error=Verification")
    expect(await sessionUser(config, later)).toBeUndefined()
  }

  it("legitimate: a link put back after a 503 works once more, and only once", () => run(false))

  // Found by this review (fixed since; the test failed before): putBack (adapters/one-time-tokens.ts) retries `createVerificationToken` on ANY error
  // every 100 ms, a write whose connection died after it ran included, against the rule the
  // availability module keeps (a write that may have run is not run again). Where nothing makes the
  // row unique, the link is stored twice and signs in twice.
  it("a put-back whose first write ran but lost its reply does not store the link twice", () => run(true))
})

describe("a reset link put back after the password was changed", () => {
  it("is refused: the reset link names the password it replaces; the new password works", async () => {
    const adapter = MemoryAdapter()
    const counters = flakyCounters()
    const mails: { kind: string; url: string }[] = []
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter,
      providers: [Password({ sendEmail: ({ kind, url }) => void mails.push({ kind, url }), hasher, throttle: { store: counters.store } })],
      logger: recordingLogger().logger,
    }
    const user = await adapter.createUser({ id: crypto.randomUUID(), email: victim, emailVerified: new Date(), name: "Alice", image: null })
    await storePassword(adapter, { userId: user.id, hash: await hasher.hash("the old password 1"), updatedAt: new Date() })
    const jar = new CookieJar()
    await post(config, "/auth/forgot-password/password", jar, { email: victim })
    const link = mails.find((m) => m.kind === "reset-password")!.url
    // Everything is written, then forgetting the failed sign-ins fails: 503, and the link is put back.
    counters.state.down.add("delete")
    expect((await follow(config, jar, link, { password: "the new password 22" })).status).toBe(503)
    counters.state.down.clear()
    await sleep(300)
    // Whoever sees the link later cannot set a password of theirs with it.
    const later = await follow(config, new CookieJar(), link, { password: "an attacker's password 3" })
    expect(later.headers.get("location")).toContain("error=Verification")
    const signIn = async (password: string) => {
      const j = new CookieJar()
      await post(config, "/auth/callback/password", j, { email: victim, password })
      return sessionUser(config, j)
    }
    expect(await signIn("an attacker's password 3")).toBeUndefined()
    expect(await signIn("the old password 1")).toBeUndefined()
    expect((await signIn("the new password 22"))?.email).toBe(victim)
  })
})

describe("what an outage tells an attacker", () => {
  it("the 503 is the same whether the address has an account or not", async () => {
    const storage = outage(MemoryAdapter())
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter: storage.adapter,
      providers: [Password({ sendEmail: () => {}, hasher }), Email({ sendVerificationRequest: () => {} })],
      logger: recordingLogger().logger,
    }
    const user = await storage.adapter.createUser({ id: crypto.randomUUID(), email: victim, emailVerified: new Date(), name: "Alice", image: null })
    await storePassword(storage.adapter, { userId: user.id, hash: await hasher.hash("a good password 1"), updatedAt: new Date() })
    storage.down()
    const flows: [string, Record<string, string>][] = [
      ["/auth/callback/password", { password: "a good password 1" }],
      ["/auth/forgot-password/password", {}],
      ["/auth/signup/password", { password: "a good password 1", name: "A" }],
      ["/auth/signin/email", {}],
    ]
    for (const [path, form] of flows) {
      const answers = []
      for (const email of [victim, "nobody@example.com"]) {
        const response = await post(config, path, new CookieJar(), { email, ...form })
        const { date: _date, ...headers } = Object.fromEntries(response.headers)
        answers.push({ status: response.status, headers, body: await response.text() })
      }
      expect(answers[0]!.status).toBe(503)
      expect(answers[0]!.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|5432|alice/)
      expect(answers[1]).toEqual(answers[0])
    }
  })

  it("an integration's retry link stays on the site, whatever the requested path", () => {
    const error = { retryAfter: 3 } as StorageUnavailable
    const config: AuthConfig = { secret, trustHost: true, providers: [aliceCredentials()] }
    // Legitimate: the page the visitor asked for.
    expect(unavailableAnswer(config, request("/account?tab=1", { headers: html }), error).body).toContain('href="/account?tab=1"')
  })

  // Found by this review (fixed since; the test failed before): integration/unavailable.ts writes `${url.pathname}${url.search}` as the "Try again"
  // link. A path that starts with two slashes (`https://app.example//evil.example/x`: Express's
  // `sessionLocals` + `unavailableHandler` answer every path, and `requestOf` keeps the target as
  // is) is a protocol-relative URL: during an outage the 503 page links to another site. Fix:
  // collapse leading slashes (`/${path.replace(/^\/+/, "")}`) or write the app's origin in front.
  it("a path starting with // does not make the retry link point to another host", () => {
    const error = { retryAfter: 3 } as StorageUnavailable
    const config: AuthConfig = { secret, trustHost: true, providers: [aliceCredentials()] }
    const body = unavailableAnswer(config, request("http://localhost:3000//evil.example/account", { headers: html }), error).body
    expect(body).not.toMatch(/href="\/\/evil\.example/)
  })
})

describe("what an attacker's input can make look like an outage", () => {
  /** An OAuth server the attacker runs: it sends the browser back, but its token endpoint is not listening. */
  async function hostileProvider(): Promise<OAuth2Config> {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
    const dead = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    return {
      id: "hostile",
      name: "Hostile",
      type: "oauth",
      clientId: "c",
      clientSecret: "s",
      authorization: { url: `${dead}/authorize` },
      token: `${dead}/token`,
      userinfo: { url: `${dead}/user` },
      profile: (p) => ({ id: String(p.id), email: null }),
    }
  }

  // Holds only because oauth/protocol-error.ts's `loggableError` copies errors without their `code`
  // (to keep tokens out of logs): handle.ts classifies every error's cause chain, so a kept
  // `code: "ECONNREFUSED"` would make a provider's failure a 503 and a "StorageUnavailable" log line.
  it("a provider that refuses connections (ECONNREFUSED) or answers error=<a driver's message> is an OAuth error, not a 503", async () => {
    const log = recordingLogger()
    const config: AuthConfig = { secret, trustHost: true, adapter: MemoryAdapter(), providers: [await hostileProvider()], logger: log.logger }
    const callbacks = ["code=abc", `error=${encodeURIComponent("Connection is closed.")}&error_description=LOADING`]
    for (const query of callbacks) {
      const jar = new CookieJar()
      const start = await post(config, "/auth/signin/hostile", jar, {})
      const state = new URL(start.headers.get("location")!).searchParams.get("state")
      const callback = await send(config, `/auth/callback/hostile?${query}${state ? `&state=${state}` : ""}`, { jar })
      expect(callback.status).toBe(302)
      expect(callback.headers.get("location")).toMatch(/error=/)
    }
    expect(log.lines.filter((line) => line.startsWith("StorageUnavailable"))).toEqual([])
  })
})

describe("sessions through an outage", () => {
  const carol = "carol@example.com"
  it("a set-aside squatter's JWT (email_unverified) is never a session: 503 while the storage is away, ended after", async () => {
    const storage = outage(MemoryAdapter())
    const links: string[] = []
    const config: AuthConfig = {
      secret,
      trustHost: true,
      adapter: storage.adapter,
      session: { strategy: "jwt" },
      providers: [Password({ sendEmail: () => {}, hasher, requireEmailVerification: false }), Email({ sendVerificationRequest: ({ url }) => void links.push(url) })],
      logger: recordingLogger().logger,
    }
    const squatter = new CookieJar()
    await post(config, "/auth/signup/password", squatter, { email: carol, password: "squatter's own password", name: "Mallory" })
    expect((await sessionUser(config, squatter))?.email).toBe(carol)
    // The owner proves the address: the squatter's user is set aside.
    const owner = new CookieJar()
    await post(config, "/auth/signin/email", owner, { email: carol })
    await follow(config, owner, links[0]!)
    storage.down()
    const during = await send(config, "/auth/session", { jar: squatter })
    expect(during.status).toBe(503)
    expect(await during.text()).not.toContain(carol)
    storage.up()
    expect(await sessionUser(config, squatter)).toBeUndefined()
  })
})

describe("the log", () => {
  // Found by this review (fixed since; the test failed before): a throttle's counter store of the app's own (Redis) is not run through the adapter's
  // availability (adapters/availability.ts): each refused guess is logged as a new outage by
  // errorResponse, one error line per request, which the README promises not to do ("one line when
  // an outage begins ... not one per request"). An attacker floods the error log during a Redis outage.
  it("a counter store outage is one line in the log, however many guesses are refused", async () => {
    const counters = flakyCounters()
    const log = recordingLogger()
    const adapter = MemoryAdapter()
    const config: AuthConfig = { secret, trustHost: true, adapter, providers: [Password({ sendEmail: () => {}, hasher, throttle: { store: counters.store } })], logger: log.logger }
    counters.state.down = new Set(["get", "increment", "delete"])
    for (let i = 0; i < 5; i++) {
      expect((await post(config, "/auth/callback/password", new CookieJar(), { email: victim, password: `guess number ${i}` })).status).toBe(503)
    }
    expect(log.lines.filter((line) => line.startsWith("StorageUnavailable"))).toHaveLength(1)
  })

  it("a driver's message cannot forge log lines: the built-in logger prints the outage on one escaped line", async () => {
    const adapter = MemoryAdapter()
    const read = adapter.getSessionAndUser.bind(adapter)
    let forged = false
    adapter.getSessionAndUser = async (token) => {
      if (forged) throw new Error("Connection terminated unexpectedly\n[sesame][warn] storage-available-again: forged")
      return read(token)
    }
    const config: AuthConfig = { secret, trustHost: true, adapter, providers: [aliceCredentials({ createUser: true })] }
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const error = vi.spyOn(console, "error").mockImplementation(() => {})
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    try {
      forged = true
      expect((await send(config, "/auth/session", { jar })).status).toBe(503)
      const printed = [...error.mock.calls, ...warn.mock.calls].map((call) => String(call[0]))
      expect(printed.some((line) => line.includes("forged"))).toBe(true)
      for (const line of printed) expect(line).not.toMatch(/\n\[sesame\]/)
    } finally {
      error.mockRestore()
      warn.mockRestore()
    }
  })
})
