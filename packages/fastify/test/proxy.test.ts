/**
 * Behind a proxy: Fastify's `trustProxy` option and Sesame's rules (the core's: `AUTH_URL`,
 * `trustHost` / `AUTH_TRUST_HOST` for the origin, `trustedProxy` for the client's address).
 * `trustProxy` governs what Fastify derives (`request.host`, `request.protocol`, `request.ip`) and
 * nothing of Sesame's: without `trustHost`, a forged `X-Forwarded-Host` reaches no URL Sesame
 * writes, even in an app that trusts every proxy; with it (a proxy the operator controls), the
 * forwarded host and scheme are the app's origin; `AUTH_URL` overrides both. The limits per client
 * count the socket's address the plugin hands over, whatever headers the client writes.
 */
import formbody from "@fastify/formbody"
import { afterEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "@sesame/core"
import { memoryCounterStore } from "@sesame/core/password"
import { roomInWindow } from "@sesame/testing"
import { requireSession, signIn } from "@sesame/fastify"
import { alice, appWith, config, cookieLine, listen, send, transports } from "./helpers.js"

/** The app behind a proxy: `trustProxy` on, the endpoints, a guarded page, a sign-in route, and what Fastify itself derived. */
async function proxiedApp(options: AuthConfig) {
  const app = await appWith(options, { trustProxy: true })
  await app.register(formbody)
  app.get("/account", { preHandler: requireSession(options) }, async () => "account")
  app.post<{ Body: Record<string, string> }>("/login", async (request, reply) => {
    await signIn(request, reply, options, "credentials", { username: request.body.username, password: request.body.password, redirectTo: "/account" })
    return reply
  })
  app.get("/fastify-sees", async (request) => ({ host: request.host, protocol: request.protocol, ip: request.ip }))
  return app
}

const forged = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" }
const proxy = { "x-forwarded-host": "app.example", "x-forwarded-proto": "https" }

afterEach(() => {
  vi.unstubAllEnvs()
})

describe.each(transports)("behind a proxy, reached by $label", ({ serve }) => {
  it("without trustHost, a forged X-Forwarded-Host reaches no URL Sesame writes, though Fastify trusts it", async () => {
    const served = await serve(await proxiedApp(config()))
    // Fastify believes the header: `trustProxy` is its own option.
    expect(await (await send(served, "/fastify-sees", { headers: { ...forged, "x-forwarded-for": "192.0.2.7" } })).json()).toEqual({ host: "evil.example", protocol: "https", ip: "192.0.2.7" })

    const guard = await send(served, "/account", { headers: forged })
    expect(new URL(guard.headers.get("location")!).origin).toBe(served.origin)
    const providers = (await (await send(served, "/auth/providers", { headers: forged })).json()) as Record<string, { signinUrl: string }>
    expect(new URL(providers.credentials!.signinUrl).origin).toBe(served.origin)
    const signedIn = await send(served, "/login", { form: { username: "alice", password: alice.password }, headers: forged })
    expect(new URL(signedIn.headers.get("location")!).origin).toBe(served.origin)
  })

  it("with trustHost (a proxy you control), the forwarded host and scheme are the app's origin", async () => {
    const served = await serve(await proxiedApp(config({ trustHost: true })))
    const guard = await send(served, "/account", { headers: proxy })
    expect(guard.headers.get("location")).toBe(`https://app.example/auth/signin?callbackUrl=${encodeURIComponent("/account")}`)
    const signedIn = await send(served, "/login", { form: { username: "alice", password: alice.password }, headers: { ...proxy, origin: "https://app.example" } })
    expect(signedIn.headers.get("location")).toBe("https://app.example/account")
    // Served over https: the session cookie is a secure, prefixed one.
    expect(cookieLine(signedIn.headers.getSetCookie(), "__Secure-sesame.session-token")).toMatch(/Secure/)
  })

  it("with AUTH_URL, the origin is AUTH_URL's whatever the headers say", async () => {
    vi.stubEnv("AUTH_URL", "https://public.example")
    const served = await serve(await proxiedApp(config({ trustHost: true })))
    const guard = await send(served, "/account", { headers: forged })
    expect(guard.headers.get("location")).toBe(`https://public.example/auth/signin?callbackUrl=${encodeURIComponent("/account")}`)
  })
})

describe("the client's address for the limits per client, with trustProxy on", () => {
  it("counts the socket's address on the endpoints, whatever CF-Connecting-IP or X-Real-IP say; the app's own pages count nothing", async () => {
    const warnings: string[] = []
    const logger = { error: () => {}, warn: (code: string) => void warnings.push(code), debug: () => {} }
    const options = config({ rateLimit: { enabled: true, store: memoryCounterStore(), rules: { session: { max: 3, window: 60 } } }, logger })
    const app = await proxiedApp(options)
    app.get("/", async () => "home")
    const served = await listen(app)
    await roomInWindow(60)
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await send(served, "/auth/session", { headers: { "cf-connecting-ip": `192.0.2.${i}`, "x-real-ip": `192.0.2.${i}` } })).status)
    expect(statuses).toEqual([200, 200, 200, 429, 429])
    // Known: the plugin handed the socket's address over.
    expect(warnings).not.toContain("rate-limit-no-address")
    expect((await send(served, "/")).status).toBe(200)
  })

  it("never takes the X-Forwarded-For that Fastify's trustProxy believes for the client's address: from a loopback peer, no proxy declared, the client is unknown", async () => {
    const warnings: string[] = []
    const logger = { error: () => {}, warn: (code: string) => void warnings.push(code), debug: () => {} }
    const options = config({ rateLimit: { enabled: true, store: memoryCounterStore(), rules: { session: { max: 1, window: 60 } } }, logger })
    const served = await listen(await proxiedApp(options))
    await roomInWindow(60)
    // Had Sesame taken request.ip, two requests from one forwarded address would meet the limit.
    for (let i = 0; i < 2; i++) expect((await send(served, "/auth/session", { headers: { "x-forwarded-for": "192.0.2.7" } })).status).toBe(200)
    expect(warnings).toContain("rate-limit-no-address")
  })
})
