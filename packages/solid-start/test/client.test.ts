/**
 * The browser client's signIn and signOut against the real route handlers, under a non-default
 * prefix: `fetch` is routed to SolidAuth's handlers with a cookie jar, and `window.location` is a
 * recorder. (createSession needs Solid's browser build: client-session.test.ts runs it on that
 * build without a DOM, and the end-to-end tests in examples/solid-start drive it in Chromium.)
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { startDevIdp, type DevIdp } from "@sesame/dev-idp"
import { SolidAuth, type SolidAuthConfig, type SolidAuthHandlers } from "@sesame/solid-start"
import { signIn, signOut } from "@sesame/solid-start/client"
import { aliceCredentials, alice, CookieJar, event, origin, secret } from "./helpers.js"

const prefix = "/custom/auth"
const page = `${origin}/somewhere?x=1`
let idp: DevIdp
let handlers: SolidAuthHandlers
let jar: CookieJar
let requested: string[]
let location: { href: string; assign: ReturnType<typeof vi.fn>; reload: ReturnType<typeof vi.fn> }

beforeAll(async () => {
  idp = await startDevIdp({
    clients: [{ client_id: "app", client_secret: "client-secret-0123456789-abcdefghij", redirect_uris: [`${origin}${prefix}/callback/dev`] }],
    accounts: [{ id: "ada", email: "ada@example.com", name: "Ada" }],
  })
  const config: SolidAuthConfig = {
    prefix,
    secret,
    trustHost: true,
    providers: [
      aliceCredentials(),
      { id: "dev", name: "Dev", type: "oidc", issuer: idp.issuer, clientId: "app", clientSecret: "client-secret-0123456789-abcdefghij" },
    ],
  }
  handlers = SolidAuth(config)
})

afterAll(async () => {
  await idp.close()
})

beforeEach(() => {
  jar = new CookieJar()
  requested = []
  location = { href: page, assign: vi.fn(), reload: vi.fn() }
  vi.stubGlobal("window", { location })
  const realFetch = globalThis.fetch
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), location.href)
    // Core's own requests (OIDC discovery, the token endpoint) go to the IdP for real.
    if (url.origin !== origin) return realFetch(input, init)
    requested.push(`${init?.method ?? "GET"} ${url.pathname}`)
    const headers = new Headers(init?.headers)
    headers.set("cookie", jar.header())
    const request = new Request(url, { ...init, headers })
    const response = await (request.method === "POST" ? handlers.POST : handlers.GET)(event(request))
    if (!response) return new Response("not found", { status: 404 })
    jar.apply(response)
    return response
  })
})

afterEach(() => {
  vi.unstubAllGlobals()
})

async function session(): Promise<{ user?: { name?: string } } | null> {
  return (await fetch(`${prefix}/session`)).json() as Promise<{ user?: { name?: string } } | null>
}

/** Collects the session announcements other tabs would receive. */
function announcements(): { received: unknown[]; close(): void } {
  const channel = new BroadcastChannel(`sesame.session:${prefix}`)
  const received: unknown[] = []
  channel.onmessage = (message) => received.push(message.data)
  return { received, close: () => channel.close() }
}

describe("signIn", () => {
  it("signs in with credentials in place, under the configured prefix, and tells the other tabs", async () => {
    const tabs = announcements()
    const result = await signIn("credentials", { prefix, username: "alice", password: alice.password, redirect: false })
    expect(result).toEqual({ ok: true, status: 200, error: undefined, code: undefined, url: page })
    expect(location.assign).not.toHaveBeenCalled()
    expect(requested.every((r) => r.split(" ")[1]!.startsWith(`${prefix}/`))).toBe(true)
    expect(requested).toContain(`POST ${prefix}/callback/credentials`)
    expect((await session())?.user?.name).toBe("Alice")
    await vi.waitFor(() => expect(tabs.received).toEqual([{ sesame: "session", change: "signin" }]))
    tabs.close()
  })

  it("reports a refused sign-in without announcing it", async () => {
    const tabs = announcements()
    const result = await signIn("credentials", { prefix, username: "alice", password: "wrong", redirect: false })
    expect(result).toMatchObject({ ok: false, error: "CredentialsSignin", code: "credentials" })
    expect(await session()).toBeNull()
    // A later announcement arrives after any earlier one: nothing came before it.
    const probe = new BroadcastChannel(`sesame.session:${prefix}`)
    probe.postMessage("probe")
    await vi.waitFor(() => expect(tabs.received).toEqual(["probe"]))
    probe.close()
    tabs.close()
  })

  it("goes to the callback URL after a sign-in by default", async () => {
    expect(await signIn("credentials", { prefix, username: "alice", password: alice.password, callbackUrl: "/account" })).toBeUndefined()
    expect(location.assign).toHaveBeenCalledWith(`${origin}/account`)
  })

  it("goes to the sign-in page without a provider, or with one the server does not list", async () => {
    await signIn(undefined, { prefix })
    await signIn("nope", { prefix })
    const expected = `${origin}${prefix}/signin?${new URLSearchParams({ callbackUrl: page })}`
    expect(location.assign.mock.calls).toEqual([[expected], [expected]])
  })

  it("sends the browser to the OpenID Provider with the authorization parameters, even with redirect: false", async () => {
    expect(await signIn("dev", { prefix, redirect: false }, { login_hint: "ada" })).toBeUndefined()
    const target = new URL(location.assign.mock.calls[0]![0] as string)
    expect(target.origin).toBe(idp.issuer)
    expect(target.searchParams.get("login_hint")).toBe("ada")
    expect(target.searchParams.get("redirect_uri")).toBe(`${origin}${prefix}/callback/dev`)
  })

  it("refuses a bad prefix", async () => {
    await expect(signIn("credentials", { prefix: "custom" })).rejects.toThrow(TypeError)
  })
})

describe("signOut", () => {
  it("signs out under the configured prefix, tells the other tabs and goes to the callback URL", async () => {
    await signIn("credentials", { prefix, username: "alice", password: alice.password, redirect: false })
    const tabs = announcements()
    expect(await signOut({ prefix, callbackUrl: "/bye" })).toEqual({ url: `${origin}/bye` })
    expect(requested).toContain(`POST ${prefix}/signout`)
    expect(await session()).toBeNull()
    expect(location.assign).toHaveBeenCalledWith(`${origin}/bye`)
    await vi.waitFor(() => expect(tabs.received).toEqual([{ sesame: "session", change: "signout" }]))
    tabs.close()
  })

  it("only returns the URL with redirect: false", async () => {
    expect(await signOut({ prefix, redirect: false })).toEqual({ url: page })
    expect(location.assign).not.toHaveBeenCalled()
  })
})
