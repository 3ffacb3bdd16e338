/**
 * Behind a proxy: Express's `trust proxy` setting and Sesame's host rules (the core's: `AUTH_URL`,
 * `trustHost` / `AUTH_TRUST_HOST`). `trust proxy` governs what Express derives (`req.hostname`,
 * `req.protocol`, `req.ip`) and nothing of Sesame's: without `trustHost`, a forged
 * `X-Forwarded-Host` reaches no URL Sesame writes, even in an app that trusts every proxy; with it
 * (a proxy the operator controls), the forwarded host and scheme are the app's origin; `AUTH_URL`
 * overrides both.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "@sesame/core"
import { requireSession, SesameAuth, signIn } from "@sesame/express"
import { alice, config, cookieLine, send, serve, versions, type ExpressModule } from "./helpers.js"

/** The app behind a proxy: `trust proxy` on, the endpoints, a guarded page, a sign-in route, and what Express itself derived. */
function proxiedApp(express: ExpressModule, options: AuthConfig) {
  const app = express()
  app.set("trust proxy", true)
  app.use("/auth", SesameAuth(options))
  app.get("/account", requireSession(options), (_req, res) => {
    res.send("account")
  })
  app.post("/login", express.urlencoded({ extended: false }), async (req, res) => {
    const body = req.body as Record<string, string>
    await signIn(req, res, options, "credentials", { username: body.username, password: body.password, redirectTo: "/account" })
  })
  app.get("/express-sees", (req, res) => {
    res.json({ hostname: req.hostname, protocol: req.protocol })
  })
  return app
}

const forged = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" }
const proxy = { "x-forwarded-host": "app.example", "x-forwarded-proto": "https" }

afterEach(() => {
  vi.unstubAllEnvs()
})

describe.each(versions)("behind a proxy on $label", ({ express }) => {
  it("without trustHost, a forged X-Forwarded-Host reaches no URL Sesame writes, though Express trusts it", async () => {
    const served = await serve(proxiedApp(express, config()))
    // Express believes the header: `trust proxy` is its own setting.
    expect(await (await send(served, "/express-sees", { headers: forged })).json()).toEqual({ hostname: "evil.example", protocol: "https" })

    const guard = await send(served, "/account", { headers: forged })
    expect(new URL(guard.headers.get("location")!).origin).toBe(served.origin)
    const providers = (await (await send(served, "/auth/providers", { headers: forged })).json()) as Record<string, { signinUrl: string }>
    expect(new URL(providers.credentials!.signinUrl).origin).toBe(served.origin)
    const signedIn = await send(served, "/login", { form: { username: "alice", password: alice.password }, headers: forged })
    expect(new URL(signedIn.headers.get("location")!).origin).toBe(served.origin)
  })

  it("with trustHost (a proxy you control), the forwarded host and scheme are the app's origin", async () => {
    const served = await serve(proxiedApp(express, config({ trustHost: true })))
    const guard = await send(served, "/account", { headers: proxy })
    expect(guard.headers.get("location")).toBe(`https://app.example/auth/signin?callbackUrl=${encodeURIComponent("/account")}`)
    const signedIn = await send(served, "/login", { form: { username: "alice", password: alice.password }, headers: { ...proxy, origin: "https://app.example" } })
    expect(signedIn.headers.get("location")).toBe("https://app.example/account")
    // Served over https: the session cookie is a secure, prefixed one.
    expect(cookieLine(signedIn.headers.getSetCookie(), "__Secure-sesame.session-token")).toMatch(/Secure/)
  })

  it("with AUTH_URL, the origin is AUTH_URL's whatever the headers say", async () => {
    vi.stubEnv("AUTH_URL", "https://public.example")
    const served = await serve(proxiedApp(express, config({ trustHost: true })))
    const guard = await send(served, "/account", { headers: forged })
    expect(guard.headers.get("location")).toBe(`https://public.example/auth/signin?callbackUrl=${encodeURIComponent("/account")}`)
  })
})
