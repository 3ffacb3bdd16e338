/**
 * `auth()` with no arguments, the server actions and the route handlers, with `next/headers`
 * standing in for Next.js and everything of Sesame's running for real.
 */
import { current, cookieHeader, jwtConfig, newRequest, redirectTarget, rejection, secret } from "./next-request.js"
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { NextRequest } from "next/server.js"
import Sesame, { CredentialsSignin } from "@sesame/next"
import { startDevIdp } from "@sesame/dev-idp"

const alice = { email: "alice@example.com", password: "wonderland" }
const sessionCookie = "__Secure-sesame.session-token"

beforeEach(() => {
  current.jar.clear()
  newRequest()
})
afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

describe("signIn (server action)", () => {
  it("signs in with credentials and redirects with Next's redirect() to redirectTo", async () => {
    const { signIn, auth } = Sesame(jwtConfig())
    const error = await rejection(signIn("credentials", { ...alice, redirectTo: "/dashboard" }))
    expect(redirectTarget(error)).toBe("https://app.example.test:8443/dashboard")
    expect(current.jar.has(sessionCookie)).toBe(true)
    expect(current.written.get(sessionCookie)).toMatchObject({ httpOnly: true, secure: true, sameSite: "lax", path: "/" })
    expect(await auth()).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })
  })

  it("returns the URL with redirect: false, and defaults to the page it was called from", async () => {
    newRequest({ referer: "https://app.example.test:8443/pricing" })
    const { signIn } = Sesame(jwtConfig())
    expect(await signIn("credentials", { ...alice, redirect: false })).toBe("https://app.example.test:8443/pricing")
    expect(current.jar.has(sessionCookie)).toBe(true)
  })

  it("takes a form (as <form action> passes it), redirectTo included; a posted redirect field does not stop the redirect", async () => {
    const { signIn } = Sesame(jwtConfig())
    const form = new FormData()
    form.set("email", alice.email)
    form.set("password", alice.password)
    form.set("redirectTo", "/after")
    form.set("redirect", "false")
    const error = await rejection(signIn("credentials", form))
    expect(String((error as { digest?: unknown }).digest)).toContain("https://app.example.test:8443/after")
  })

  it("throws CredentialsSignin to the caller for a wrong password, and sets no session", async () => {
    const { signIn } = Sesame(jwtConfig())
    const error = await rejection(signIn("credentials", { email: alice.email, password: "nope" }))
    expect(error).toBeInstanceOf(CredentialsSignin)
    expect(current.jar.has(sessionCookie)).toBe(false)
  })

  it("sends the visitor to the sign-in page without a provider, or with an unknown one", async () => {
    const { signIn } = Sesame(jwtConfig())
    expect(await signIn(undefined, { redirect: false, redirectTo: "/x" })).toBe(
      "https://app.example.test:8443/api/auth/signin?callbackUrl=%2Fx",
    )
    const error = await rejection(signIn("nobody", { redirectTo: "/x" }))
    expect(redirectTarget(error)).toBe("https://app.example.test:8443/api/auth/signin?callbackUrl=%2Fx")
  })

  it("starts an OIDC sign-in with the authorization params only (nothing else reaches the provider)", async () => {
    const origin = "https://app.example.test:8443"
    const idp = await startDevIdp({
      clients: [{ client_id: "app", client_secret: "a-long-client-secret-0123456789abcdef", redirect_uris: [`${origin}/api/auth/callback/idp`] }],
      accounts: [{ id: "grace", email: "grace@example.com", name: "Grace Hopper" }],
    })
    try {
      const { signIn } = Sesame(
        jwtConfig({
          providers: [{ id: "idp", name: "IdP", type: "oidc", issuer: idp.issuer, clientId: "app", clientSecret: "a-long-client-secret-0123456789abcdef" }],
        }),
      )
      const url = new URL(await signIn("idp", { redirect: false, redirectTo: "/inbox", other: "field" }, { login_hint: "grace" }))
      expect(url.origin).toBe(idp.issuer)
      expect(url.searchParams.get("login_hint")).toBe("grace")
      expect(url.searchParams.get("redirect_uri")).toBe(`${origin}/api/auth/callback/idp`)
      for (const ours of ["redirectTo", "redirect", "other", "callbackUrl", "csrfToken"]) expect(url.searchParams.has(ours)).toBe(false)
      // The check cookies and the callback URL are set for the callback to find.
      expect([...current.jar.keys()]).toEqual(expect.arrayContaining(["__Secure-sesame.pkce.code_verifier", "__Secure-sesame.callback-url"]))
      expect(current.jar.get("__Secure-sesame.callback-url")).toBe(`${origin}/inbox`)
    } finally {
      await idp.close()
    }
  })
})

describe("signOut (server action)", () => {
  it("ends the session and returns the URL with redirect: false", async () => {
    const { signIn, signOut, auth } = Sesame(jwtConfig())
    await signIn("credentials", { ...alice, redirect: false })
    expect(await signOut({ redirect: false, redirectTo: "/bye" })).toBe("https://app.example.test:8443/bye")
    expect(current.jar.has(sessionCookie)).toBe(false)
    expect(current.written.get(sessionCookie)).toMatchObject({ maxAge: 0 })
    expect(await auth()).toBeNull()
  })

  it("redirects with Next's redirect() by default, to the page it was called from", async () => {
    newRequest({ referer: "https://app.example.test:8443/settings" })
    const { signIn, signOut } = Sesame(jwtConfig())
    await signIn("credentials", { ...alice, redirect: false })
    expect(redirectTarget(await rejection(signOut()))).toBe("https://app.example.test:8443/settings")
  })
})

describe("unstable_update", () => {
  it("updates the session on the server; the next auth() sees it", async () => {
    const config = jwtConfig({
      callbacks: {
        jwt: ({ token, trigger, session }) => {
          const name = (session as { user?: { name?: unknown } } | undefined)?.user?.name
          if (trigger === "update" && typeof name === "string") token.name = name
          return token
        },
      },
    })
    const { signIn, auth, unstable_update } = Sesame(config)
    await signIn("credentials", { ...alice, redirect: false })
    expect(await unstable_update({ user: { name: "Alice Liddell" } })).toMatchObject({ user: { name: "Alice Liddell" } })
    expect(await auth()).toMatchObject({ user: { name: "Alice Liddell" } })
  })

  it("refuses to run where cookies cannot be set (a server component)", async () => {
    const { signIn, unstable_update } = Sesame(jwtConfig())
    await signIn("credentials", { ...alice, redirect: false })
    newRequest({ readonly: true })
    expect(await rejection(unstable_update({ user: { name: "x" } }))).toMatchObject({ name: "AuthError" })
  })
})

describe("auth() with no arguments", () => {
  it("is null when signed out, and sets no cookie", async () => {
    const { auth } = Sesame(jwtConfig())
    expect(await auth()).toBeNull()
    expect(current.written.size).toBe(0)
  })

  it("returns the session and writes the refreshed session cookie where it can (route handler, action)", async () => {
    // Re-issued on every read (`updateAge: 0`); with the default, a read within a day sets nothing.
    const { signIn, auth } = Sesame(jwtConfig({ session: { updateAge: 0 } }))
    await signIn("credentials", { ...alice, redirect: false })
    const before = current.jar.get(sessionCookie)
    newRequest()
    const session = await auth()
    expect(session).toMatchObject({ user: { email: "alice@example.com" } })
    expect(Date.parse(session!.expires)).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000)
    expect(current.written.has(sessionCookie)).toBe(true)
    expect(current.jar.get(sessionCookie)).not.toBe(before)
  })

  it("still returns the session in a server component, where cookies cannot be set", async () => {
    const { signIn, auth } = Sesame(jwtConfig())
    await signIn("credentials", { ...alice, redirect: false })
    newRequest({ readonly: true })
    expect(await auth()).toMatchObject({ user: { name: "Alice" } })
  })

  it("fails closed: a configuration that cannot be used answers null and logs why", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {})
    const { signIn, auth } = Sesame(jwtConfig())
    await signIn("credentials", { ...alice, redirect: false })
    const broken = Sesame(() => {
      throw new Error("the database is down")
    })
    expect(await broken.auth()).toBeNull()
    expect(error.mock.calls.flat().join(" ")).toContain("the database is down")
    const untrusted = Sesame({ secret, trustHost: false, providers: [] })
    expect(await untrusted.auth()).toBeNull()
  })

  it("reads a lazy configuration with no request (there is none in server components)", async () => {
    const seen: unknown[] = []
    const { signIn, auth } = Sesame((request) => {
      seen.push(request)
      return jwtConfig()
    })
    await signIn("credentials", { ...alice, redirect: false })
    expect(await auth()).toMatchObject({ user: { name: "Alice" } })
    expect(seen.every((r) => r === undefined)).toBe(true)
  })
})

describe("handlers", () => {
  it("serve the endpoints under /api/auth, with the origin from the Host header, never from request.url", async () => {
    const { handlers } = Sesame(jwtConfig())
    // What Next.js hands a route handler: localhost in the URL, the real host in the headers.
    const request = new NextRequest("http://localhost:3000/api/auth/providers", { headers: { host: "shop.example.test", "x-forwarded-proto": "https" } })
    const providers = (await (await handlers.GET(request)).json()) as Record<string, { callbackUrl: string }>
    expect(providers.credentials?.callbackUrl).toBe("https://shop.example.test/api/auth/callback/credentials")
  })

  it("take the origin and base path from AUTH_URL", async () => {
    vi.stubEnv("AUTH_URL", "https://public.example.test/custom/auth")
    const { handlers } = Sesame(jwtConfig())
    const request = new NextRequest("http://localhost:3000/custom/auth/providers", { headers: { host: "internal:3000" } })
    const providers = (await (await handlers.GET(request)).json()) as Record<string, { signinUrl: string }>
    expect(providers.credentials?.signinUrl).toBe("https://public.example.test/custom/auth/signin/credentials")
  })

  it("sign in through POST like a browser form, CSRF included", async () => {
    const { handlers, auth } = Sesame(jwtConfig())
    const host = { host: "app.example.test:8443", "x-forwarded-proto": "https" }
    const csrf = await handlers.GET(new NextRequest("http://localhost:3000/api/auth/csrf", { headers: host }))
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!
    const response = await handlers.POST(
      new NextRequest("http://localhost:3000/api/auth/callback/credentials", {
        method: "POST",
        headers: { ...host, cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ ...alice, csrfToken }).toString(),
      }),
    )
    expect(response.status).toBe(302)
    const token = response.headers.getSetCookie().find((c) => c.startsWith(`${sessionCookie}=`))!
    current.jar.set(sessionCookie, decodeURIComponent(token.split(";")[0]!.slice(sessionCookie.length + 1)))
    expect(cookieHeader()).toContain(sessionCookie)
    expect(await auth()).toMatchObject({ user: { name: "Alice" } })
  })
})

afterAll(() => {
  current.jar.clear()
})
