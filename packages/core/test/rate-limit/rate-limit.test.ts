/**
 * Rate limits on every endpoint: a burst past a family's limit gets `429` with `Retry-After`
 * while another client, and another family, go on; the client is its socket's address unless a
 * proxy is trusted, so a rotated `X-Forwarded-For` escapes nothing when the app faces clients
 * directly; IPv6 clients count by their /64; one `rate-limited` event per window.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Auth, type AuthConfig, type RateLimitFamily, type SecurityEvent, type SesameModule } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Password from "@sesame/core/providers/password"
import { setPeerAddress } from "@sesame/core/integration"
import { toNodeHandler } from "@sesame/core/node"
import { memoryCounterStore, type CounterStore } from "@sesame/core/password"
import { afterEach, describe, expect, it } from "vitest"
import { aliceCredentials, CookieJar, frozenClock, origin, secret } from "../helpers.js"

// Mid-window: a burst that straddled the end of a fixed window would see its counts start again.
frozenClock("2026-12-03T10:00:05Z")

const quiet = { error: () => {}, warn: () => {}, debug: () => {} }

function setup(overrides: Partial<AuthConfig> = {}, store: CounterStore = memoryCounterStore()) {
  const events: SecurityEvent[] = []
  const config: AuthConfig = {
    secret,
    providers: [aliceCredentials()],
    rateLimit: { enabled: true, store },
    events: { security: (event) => void events.push(event) },
    logger: quiet,
    ...overrides,
  }
  return { config, events }
}

/** A request through `Auth()` from the socket address `peer`, as an integration hands it over. */
async function from(peer: string | undefined, config: AuthConfig, path: string, init: { form?: Record<string, string>; headers?: Record<string, string>; jar?: CookieJar } = {}) {
  const headers = new Headers(init.headers)
  const cookie = init.jar?.header()
  if (cookie) headers.set("cookie", cookie)
  let body: string | undefined
  if (init.form) {
    body = new URLSearchParams(init.form).toString()
    headers.set("content-type", "application/x-www-form-urlencoded")
  }
  const request = new Request(`${origin}${path}`, { method: body === undefined ? "GET" : "POST", headers, body })
  setPeerAddress(request, peer)
  const response = await Auth(request, config)
  init.jar?.apply(response)
  return response
}

/** A wrong password from `peer`: the sign-in family. */
const guess = (peer: string | undefined, config: AuthConfig, headers: Record<string, string> = {}) =>
  from(peer, config, "/auth/callback/credentials", { form: { username: "alice", password: "wrong" }, headers })

describe("rate limits per client and family", () => {
  it("a burst past the sign-in limit gets 429 with Retry-After; another client and another family go on", async () => {
    const { config } = setup()
    for (let i = 0; i < 30; i++) expect((await guess("203.0.113.7", config)).status).not.toBe(429)
    const refused = await guess("203.0.113.7", config)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60)
    expect(await refused.json()).toEqual({ error: "RateLimited", message: expect.stringMatching(/^Too many requests\. Try again in \d+ s\.$/) })
    // Another client signs in; the same client still reads its session (another family).
    const jar = new CookieJar()
    const { csrfToken } = (await (await from("198.51.100.2", config, "/auth/csrf", { jar })).json()) as { csrfToken: string }
    const signedIn = await from("198.51.100.2", config, "/auth/callback/credentials", { jar, form: { csrfToken, username: "alice", password: "correct horse" } })
    expect(signedIn.status).toBe(302)
    expect(jar.get("sesame.session-token")).toBeTruthy()
    expect((await from("203.0.113.7", config, "/auth/session")).status).toBe(200)
  })

  it("each family has its own room: the pages family refuses its 301st request while the session family goes on", async () => {
    const { config } = setup({ providers: [aliceCredentials()] })
    for (let i = 0; i < 300; i++) expect((await from("203.0.113.8", config, "/auth/signin")).status).toBe(200)
    expect((await from("203.0.113.8", config, "/auth/signin")).status).toBe(429)
    expect((await from("203.0.113.8", config, "/auth/session")).status).toBe(200)
  })

  it("a browser's navigation gets the page, in its language, with 429, Retry-After and no cache", async () => {
    const { config } = setup({ rateLimit: { enabled: true, store: memoryCounterStore(), rules: { pages: { max: 1, window: 60 } } } })
    const headers = { accept: "text/html", "accept-language": "fr" }
    expect((await from("203.0.113.9", config, "/auth/signin", { headers })).status).toBe(200)
    const refused = await from("203.0.113.9", config, "/auth/signin", { headers })
    expect(refused.status).toBe(429)
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/)
    expect(refused.headers.get("cache-control")).toContain("no-store")
    expect(refused.headers.get("content-security-policy")).toContain("default-src 'none'")
    const page = await refused.text()
    expect(page).toContain('<html lang="fr"')
    expect(page).toContain("Trop de requêtes")
    expect(page).toContain(`href="${origin}/auth/signin"`)
  })

  it("says so once per client, family and window as a rate-limited security event, with the client's address", async () => {
    const { config, events } = setup({ rateLimit: { enabled: true, store: memoryCounterStore(), rules: { "sign-in": { max: 2, window: 60 } } } })
    for (let i = 0; i < 6; i++) await guess("203.0.113.10", config)
    const limited = events.filter((event) => event.type === "rate-limited")
    expect(limited).toHaveLength(1)
    expect(limited[0]).toMatchObject({ userId: null, actorId: null, ip: "203.0.113.10", details: { family: "sign-in", limit: 2, window: 60 } })
  })
})

describe("who the client is", () => {
  it("facing clients directly (the default without trustHost), a rotated X-Forwarded-For escapes nothing: the socket's address counts", async () => {
    const { config } = setup({ rateLimit: { enabled: true, store: memoryCounterStore(), rules: { "sign-in": { max: 5, window: 60 } } } })
    const statuses: number[] = []
    for (let i = 0; i < 8; i++) statuses.push((await guess("203.0.113.11", config, { "x-forwarded-for": `10.0.0.${i}`, "x-real-ip": `10.1.0.${i}` })).status)
    expect(statuses.slice(0, 5).every((status) => status !== 429)).toBe(true)
    expect(statuses.slice(5)).toEqual([429, 429, 429])
  })

  it("through the Node.js handler, the socket's address is the client, whatever headers of its own the client sends", async () => {
    const { config } = setup({ rateLimit: { enabled: true, store: memoryCounterStore(), rules: { session: { max: 3, window: 60 } } } })
    const server = await listen(createServer(toNodeHandler(config)))
    try {
      const { port } = server.address() as AddressInfo
      const statuses: number[] = []
      for (let i = 0; i < 5; i++) {
        statuses.push((await fetch(`http://localhost:${port}/auth/session`, { headers: { "cf-connecting-ip": `192.0.2.${i}`, "x-real-ip": `192.0.2.${i}` } })).status)
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429])
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it("a request from a private address that says a proxy forwarded it has no client the configuration can tell: not counted, where counting would lump every visitor together", async () => {
    const { config } = setup({ rateLimit: { enabled: true, store: memoryCounterStore(), rules: { "sign-in": { max: 2, window: 60 } } } })
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) statuses.push((await guess("127.0.0.1", config, { "x-forwarded-for": "203.0.113.90" })).status)
    expect(statuses).not.toContain(429)
    // Without the header, a loopback client (a developer's browser) is counted as any other.
    for (let i = 0; i < 2; i++) await guess("10.0.0.5", config)
    expect((await guess("10.0.0.5", config)).status).toBe(429)
  })

  it("with trustHost, the last X-Forwarded-For entry is the client: entries the client wrote further left change nothing", async () => {
    const { config } = setup({ trustHost: true, rateLimit: { enabled: true, store: memoryCounterStore(), rules: { "sign-in": { max: 3, window: 60 } } } })
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await guess("10.0.0.1", config, { "x-forwarded-for": `6.6.6.${i}, 203.0.113.12` })).status)
    expect(statuses.slice(3)).toEqual([429, 429])
    // Another client behind the same proxy is another count.
    expect((await guess("10.0.0.1", config, { "x-forwarded-for": "203.0.113.13" })).status).not.toBe(429)
  })

  it("{ hops: 2 } believes two proxies' entries; { header } believes the one header", async () => {
    const hops = setup({ trustedProxy: { hops: 2 }, rateLimit: { enabled: true, store: memoryCounterStore(), rules: { "sign-in": { max: 2, window: 60 } } } })
    const two: number[] = []
    for (let i = 0; i < 4; i++) two.push((await guess("10.0.0.1", hops.config, { "x-forwarded-for": `6.6.6.${i}, 203.0.113.14, 10.0.0.2` })).status)
    expect(two.slice(2)).toEqual([429, 429])

    const header = setup({ trustedProxy: { header: "cf-connecting-ip" }, rateLimit: { enabled: true, store: memoryCounterStore(), rules: { "sign-in": { max: 2, window: 60 } } } })
    const one: number[] = []
    for (let i = 0; i < 4; i++) one.push((await guess("10.0.0.1", header.config, { "cf-connecting-ip": "203.0.113.15", "x-forwarded-for": `6.6.6.${i}` })).status)
    expect(one.slice(2)).toEqual([429, 429])
    expect((await guess("10.0.0.1", header.config, { "cf-connecting-ip": "203.0.113.16" })).status).not.toBe(429)
  })

  it("IPv6 clients count by their /64: rotating the interface part escapes nothing, another /64 is another client", async () => {
    const { config } = setup({ rateLimit: { enabled: true, store: memoryCounterStore(), rules: { "sign-in": { max: 3, window: 60 } } } })
    const statuses: number[] = []
    for (let i = 1; i <= 5; i++) statuses.push((await guess(`2001:db8:1:2::${i.toString(16)}`, config)).status)
    expect(statuses.slice(3)).toEqual([429, 429])
    expect((await guess("2001:db8:1:2:ffff:ffff:ffff:ffff", config)).status).toBe(429)
    expect((await guess("2001:db8:1:3::1", config)).status).not.toBe(429)
    // An IPv4 client on a dual-stack socket is its IPv4 address.
    for (let i = 0; i < 3; i++) await guess("::ffff:203.0.113.17", config)
    expect((await guess("203.0.113.17", config)).status).toBe(429)
  })

  it("a request whose client cannot be told is not limited, and the log says why, once a process", async () => {
    const warnings: string[] = []
    const { config } = setup({ logger: { ...quiet, warn: (code) => void warnings.push(code) }, rateLimit: { enabled: true, store: memoryCounterStore(), rules: { "sign-in": { max: 1, window: 60 } } } })
    for (let i = 0; i < 3; i++) expect((await guess(undefined, config)).status).not.toBe(429)
    // The first such request of this file's process is here or in the test above.
    expect(warnings.filter((code) => code === "rate-limit-no-address").length).toBeLessThanOrEqual(1)
  })
})

describe("the option", () => {
  let env: string | undefined
  afterEach(() => {
    if (env === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = env
  })

  it("is on by default in production, off elsewhere unless enabled; false turns it off in production", async () => {
    env = process.env.NODE_ENV
    const burst = async (config: AuthConfig) => {
      let last = 0
      for (let i = 0; i < 12; i++) last = (await from("203.0.113.18", config, "/auth/signin", { form: { x: "y" } })).status
      return last
    }
    const rules = { pages: { max: 10, window: 60 } } as const
    process.env.NODE_ENV = "test"
    expect(await burst({ secret, providers: [aliceCredentials()], logger: quiet, rateLimit: { rules, store: memoryCounterStore() } })).not.toBe(429)
    expect(await burst({ secret, providers: [aliceCredentials()], logger: quiet, rateLimit: { enabled: true, rules, store: memoryCounterStore() } })).toBe(429)
    process.env.NODE_ENV = "production"
    const production: AuthConfig = { secret, providers: [aliceCredentials()], logger: quiet, trustHost: true, trustedProxy: false }
    expect(await burst({ ...production, rateLimit: { rules, store: memoryCounterStore() } })).toBe(429)
    expect(await burst({ ...production, rateLimit: false })).not.toBe(429)
  })

  it("refuses a mistake at start-up, naming it", async () => {
    const bad = async (overrides: Partial<AuthConfig>) => {
      const errors: unknown[] = []
      const response = await from("203.0.113.19", { secret, providers: [aliceCredentials()], logger: { ...quiet, error: (e) => void errors.push(e) }, ...overrides }, "/auth/session")
      expect(response.status).toBe(500)
      return String((errors[0] as Error)?.message)
    }
    expect(await bad({ trustedProxy: { hops: 0 } })).toContain("`trustedProxy`")
    expect(await bad({ trustedProxy: { header: "x y" } })).toContain("`trustedProxy`")
    expect(await bad({ rateLimit: { enabled: true, rules: { "sign-in": { max: 0, window: 60 } } } })).toContain('`rateLimit.rules["sign-in"]`')
    expect(await bad({ rateLimit: { enabled: true, rules: { everything: { max: 1, window: 1 } } as never } })).toContain("which is no family")
    expect(await bad({ rateLimit: { enabled: true, store: "adapter" } })).toContain("needs an adapter with a store")
  })

  it("a counter store that fails lets requests through, logged", async () => {
    const errors: unknown[] = []
    const broken: CounterStore = { incrementCounter: () => Promise.reject(new Error("counter store down")), getCounter: () => null, deleteCounter: () => {} }
    const { config } = setup({ logger: { ...quiet, error: (e) => void errors.push(e) } }, broken)
    expect((await from("203.0.113.20", config, "/auth/session")).status).toBe(200)
    expect(errors.length).toBeGreaterThan(0)
  })
})

describe("modules' endpoints and services", () => {
  const counted: string[] = []
  const plugin: SesameModule = {
    id: "probe",
    routes: {
      "POST probe/check": { csrf: false, rateLimit: "sign-in", run: () => (counted.push("check"), { body: { ok: true } }) },
      "GET probe/list": { run: () => ({ body: [] }) },
    },
    services: { "probe/api": { handle: async () => new Response("ok") } },
  }

  it("a module's row says its family (default: pages for a GET); its services count in their own", async () => {
    const { config } = setup({ plugins: [plugin], rateLimit: { enabled: true, store: memoryCounterStore(), rules: { "sign-in": { max: 2, window: 60 }, services: { max: 2, window: 60 }, pages: { max: 3, window: 60 } } } })
    const post = () => from("203.0.113.21", config, "/auth/probe/check", { form: {}, headers: { "sec-fetch-site": "same-origin" } })
    expect([(await post()).status, (await post()).status, (await post()).status]).toEqual([200, 200, 429])
    expect(counted).toHaveLength(2)
    const list: number[] = []
    for (let i = 0; i < 4; i++) list.push((await from("203.0.113.21", config, "/auth/probe/list")).status)
    expect(list).toEqual([200, 200, 200, 429])
    const api: number[] = []
    for (let i = 0; i < 3; i++) api.push((await from("203.0.113.21", config, "/auth/probe/api/x")).status)
    expect(api).toEqual([200, 200, 429])
  })
})

function listen(server: Server): Promise<Server> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)))
}

describe("an address as a client", () => {
  it("a port a proxy adds, brackets, letter case and IPv4-mapped forms are the same client", async () => {
    const { config } = setup({ trustedProxy: { header: "x-client-ip" }, rateLimit: { enabled: true, store: memoryCounterStore(), rules: { "sign-in": { max: 2, window: 60 } } } })
    const as = (value: string) => guess(undefined, config, { "x-client-ip": value })
    await as("203.0.113.70:51234")
    await as("203.0.113.70:443")
    expect((await as("203.0.113.70")).status).toBe(429)
    await as("[2001:DB8:0:1::1]:443")
    await as("2001:db8:0:1:0:0:0:2")
    expect((await as("2001:0db8:0000:0001::3%eth0")).status).toBe(429)
    expect((await as("::FFFF:203.0.113.70")).status).toBe(429)
  })
})

describe("every family", () => {
  // One endpoint of each family, as a client reaches it; each family limited to one request.
  const endpoints: Record<Exclude<RateLimitFamily, "services">, { path: string; form?: Record<string, string> }> = {
    session: { path: "/auth/session" },
    pages: { path: "/auth/signin" },
    "sign-in": { path: "/auth/callback/credentials", form: { username: "alice", password: "wrong" } },
    callback: { path: "/auth/callback/credentials" },
    email: { path: "/auth/forgot-password/password", form: { email: "ada@example.com" } },
    account: { path: "/auth/signout", form: {} },
  }

  it("a burst past each family's limit gets 429 there, while another client of the same family goes on", async () => {
    const rules = Object.fromEntries(Object.keys(endpoints).map((family) => [family, { max: 1, window: 60 }]))
    const { config } = setup({
      adapter: MemoryAdapter(),
      providers: [aliceCredentials(), Password({ sendEmail: () => {} })],
      rateLimit: { enabled: true, store: memoryCounterStore(), rules },
    })
    for (const [family, { path, form }] of Object.entries(endpoints)) {
      const headers = { "sec-fetch-site": "same-origin" }
      const first = await from("203.0.113.100", config, path, { form, headers })
      expect(first.status, `${family}: first`).not.toBe(429)
      expect((await from("203.0.113.100", config, path, { form, headers })).status, `${family}: second`).toBe(429)
      expect((await from("203.0.113.101", config, path, { form, headers })).status, `${family}: another client`).not.toBe(429)
    }
  })
})
