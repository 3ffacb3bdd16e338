import { describe, expect, it, vi } from "vitest"
import { Auth, skipCSRFCheck } from "@sesame/core"
import { CredentialsSignin } from "@sesame/core/errors"
import { decode } from "@sesame/core/jwt"
import { aliceCredentials, CookieJar, csrfToken, home, jwtConfig, origin, request, secret, send, signInAlice } from "./helpers.js"

const noStore = { "cache-control": "private, no-cache, no-store", pragma: "no-cache", expires: "0" }

function expectNoStore(response: Response) {
  for (const [k, v] of Object.entries(noStore)) expect(response.headers.get(k)).toBe(v)
}

describe("GET providers", () => {
  it("lists providers with their URLs and sets no cookie", async () => {
    const res = await send(jwtConfig(), "/auth/providers")
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      credentials: {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        signinUrl: `${origin}/auth/signin/credentials`,
        callbackUrl: `${origin}/auth/callback/credentials`,
      },
    })
    expect(res.headers.getSetCookie()).toEqual([])
  })
})

describe("GET csrf", () => {
  it("returns a token, sets the signed cookie once, and never caches", async () => {
    const config = jwtConfig()
    const jar = new CookieJar()
    const res = await send(config, "/auth/csrf", { jar })
    expectNoStore(res)
    const { csrfToken: token } = await res.json()
    expect(token).toMatch(/^[0-9a-f]{64}$/)
    const [cookie] = res.headers.getSetCookie()
    expect(cookie).toMatch(/^sesame\.csrf-token=[0-9a-f]{64}%7C[0-9a-f]{64}; Path=\/; HttpOnly; SameSite=Lax$/)
    const again = await send(config, "/auth/csrf", { jar })
    expect((await again.json()).csrfToken).toBe(token)
    expect(again.headers.getSetCookie()).toEqual([])
  })

  it("uses a __Host- cookie on https", async () => {
    const res = await send(jwtConfig(), "https://app.example.com/auth/csrf")
    expect(res.headers.getSetCookie()[0]).toMatch(/^__Host-sesame\.csrf-token=.*; Path=\/; HttpOnly; Secure; SameSite=Lax$/)
  })

  it("replaces a forged cookie whose signature does not verify", async () => {
    const forged = `${"a".repeat(64)}|${"b".repeat(64)}`
    const res = await send(jwtConfig(), "/auth/csrf", { cookie: `sesame.csrf-token=${encodeURIComponent(forged)}` })
    expect((await res.json()).csrfToken).not.toBe("a".repeat(64))
    expect(res.headers.getSetCookie()).toHaveLength(1)
  })

  it("answers 404 and clears the cookie with skipCSRFCheck", async () => {
    const res = await send(jwtConfig({ skipCSRFCheck }), "/auth/csrf")
    expect(res.status).toBe(404)
    expect(res.headers.getSetCookie()[0]).toMatch(/^sesame\.csrf-token=; Path=\/; Max-Age=0/)
  })
})

describe("GET session (JWT)", () => {
  it("is null without a cookie, sets no cookie and is never cached", async () => {
    const res = await send(jwtConfig(), "/auth/session")
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
    expect(res.headers.getSetCookie()).toEqual([])
    expectNoStore(res)
  })

  it("exposes only name, email and image by default; the expiry is the token's own, and no cookie is re-sent", async () => {
    const config = jwtConfig()
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const before = jar.get("sesame.session-token")!
    const issued = await decode({ token: before, secret, salt: "sesame.session-token" })
    const res = await send(config, "/auth/session", { jar })
    const session = await res.json()
    expect(session).toEqual({ user: { name: "Alice", email: "alice@example.com", image: null }, expires: expect.any(String) })
    expect(Date.parse(session.expires)).toBe(issued!.exp! * 1000)
    expect(res.headers.getSetCookie()).toEqual([])
    expect(jar.get("sesame.session-token")).toBe(before)
  })

  it("with updateAge 0, re-issues the token on every read and slides the expiry", async () => {
    const config = jwtConfig({ session: { updateAge: 0 } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const before = jar.get("sesame.session-token")!
    const res = await send(config, "/auth/session", { jar })
    const session = await res.json()
    expect(Date.parse(session.expires)).toBeGreaterThan(Date.now() + 30 * 86400_000 - 5000)
    const setCookie = res.headers.getSetCookie()
    expect(setCookie).toHaveLength(1)
    expect(setCookie[0]).toMatch(/^sesame\.session-token=[\w.-]+; Path=\/; Expires=.+; HttpOnly; SameSite=Lax$/)
    expect(jar.get("sesame.session-token")).not.toBe(before)
    const token = await decode({ token: jar.get("sesame.session-token"), secret, salt: "sesame.session-token" })
    expect(token).toMatchObject({ sub: "1", name: "Alice", email: "alice@example.com" })
  })

  it("answers null and clears the cookie for tampered, truncated and foreign cookies", async () => {
    const config = jwtConfig()
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const good = jar.get("sesame.session-token")!
    const foreignConfig = jwtConfig({ secret: "a-completely-different-secret-value" })
    const foreignJar = new CookieJar()
    await signInAlice(foreignConfig, foreignJar)
    const variants = [
      good.slice(0, -10),
      good.replace(/\.([^.]{6})/, ".AAAAAA"),
      `${good}x`,
      foreignJar.get("sesame.session-token")!,
      "not-a-token",
      "%%%",
    ]
    for (const value of variants) {
      const res = await send(config, "/auth/session", { cookie: `sesame.session-token=${value}` })
      expect(res.status).toBe(200)
      expect(await res.json()).toBeNull()
      expect(res.headers.getSetCookie()[0]).toMatch(/^sesame\.session-token=; Path=\/; Max-Age=0/)
    }
  })

  it("decodes a session encrypted under an older secret of the rotation list", async () => {
    const old = jwtConfig({ secret: "old-secret-0123456789-abcdefghijkl" })
    const jar = new CookieJar()
    await signInAlice(old, jar)
    const rotated = jwtConfig({ secret: ["new-secret-0123456789-abcdefghijkl", "old-secret-0123456789-abcdefghijkl"] })
    const session = await (await send(rotated, "/auth/session", { jar })).json()
    expect(session.user.name).toBe("Alice")
    // The re-issued cookie is encrypted under the new secret only.
    const reissued = await decode({ token: jar.get("sesame.session-token"), secret: "new-secret-0123456789-abcdefghijkl", salt: "sesame.session-token" })
    expect(reissued?.sub).toBe("1")
  })

  it("answers HEAD without a body", async () => {
    const res = await send(jwtConfig(), "/auth/session", { method: "HEAD" })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe("")
  })
})

describe("POST session (update)", () => {
  it("needs the CSRF token: 400 null without it", async () => {
    const config = jwtConfig()
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const res = await send(config, "/auth/session", { jar, json: { data: { name: "Mallory" } } })
    expect(res.status).toBe(400)
    expect(await res.json()).toBeNull()
    const wrong = await send(config, "/auth/session", { jar, json: { csrfToken: "f".repeat(64), data: {} } })
    expect(wrong.status).toBe(400)
  })

  it("runs the jwt callback with trigger update and the session callback with newSession", async () => {
    const jwt = vi.fn(({ token, trigger, session }) =>
      trigger === "update" ? { ...token, name: (session as { name: string }).name } : token,
    )
    const sessionCallback = vi.fn(({ session }) => session)
    const config = jwtConfig({ callbacks: { jwt, session: sessionCallback } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const token = await csrfToken(config, jar)
    const res = await send(config, "/auth/session", { jar, json: { csrfToken: token, data: { name: "Alice Liddell" } } })
    expect(res.status).toBe(200)
    expect((await res.json()).user.name).toBe("Alice Liddell")
    expect(jwt).toHaveBeenLastCalledWith(expect.objectContaining({ trigger: "update", session: { name: "Alice Liddell" } }))
    expect(sessionCallback).toHaveBeenLastCalledWith(expect.objectContaining({ trigger: "update", newSession: { name: "Alice Liddell" } }))
    expect((await (await send(config, "/auth/session", { jar })).json()).user.name).toBe("Alice Liddell")
  })
})

describe("GET signin", () => {
  it("renders a page listing the providers with CSRF token and callback URL", async () => {
    const jar = new CookieJar()
    const res = await send(jwtConfig(), "/auth/signin?callbackUrl=%2Fdashboard", { jar })
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(res.headers.get("cache-control")).toContain("no-store")
    const html = await res.text()
    const csrf = jar.get("sesame.csrf-token")!.split("|")[0]
    expect(html).toContain(`action="${origin}/auth/callback/credentials"`)
    expect(html).toContain(`name="csrfToken" value="${csrf}"`)
    expect(html).toContain(`name="callbackUrl" value="${origin}/dashboard"`)
    expect(html).toContain('name="password" type="password"')
    expect(html).toContain("Sign in with Credentials")
  })

  it("shows a message for ?error= and never echoes the raw code", async () => {
    const html = await (await send(jwtConfig(), "/auth/signin?error=CredentialsSignin")).text()
    expect(html).toContain("We couldn’t sign you in with those details. Check them and try again.")
    const odd = await (await send(jwtConfig(), "/auth/signin?error=SomethingElse")).text()
    expect(odd).toContain("Something went wrong while signing in. Please try again.")
    expect(odd).not.toContain("SomethingElse")
  })

  it("redirects to pages.signIn with callbackUrl and error", async () => {
    const res = await send(jwtConfig({ pages: { signIn: "/login" } }), "/auth/signin?callbackUrl=%2Fa&error=CredentialsSignin&code=credentials")
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get("location")!)
    expect(location.pathname).toBe("/login")
    expect(location.searchParams.get("callbackUrl")).toBe(`${origin}/a`)
    expect(location.searchParams.get("error")).toBe("CredentialsSignin")
    expect(location.searchParams.get("code")).toBe("credentials")
  })

  it("GET signin/:provider and POST signin show the sign-in page", async () => {
    const a = await send(jwtConfig(), "/auth/signin/credentials?callbackUrl=%2Fx")
    expect(a.status).toBe(302)
    expect(a.headers.get("location")).toBe(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/x`)}`)
    const b = await send(jwtConfig(), "/auth/signin", { form: {} })
    expect(b.headers.get("location")).toMatch(/\/auth\/signin\?callbackUrl=/)
  })
})

describe("POST signin/:provider", () => {
  it("needs CSRF", async () => {
    const res = await send(jwtConfig(), "/auth/signin/credentials", { form: { csrfToken: "nope" } })
    expect(res.status).toBe(302)
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF")
  })

  it("answers 404 for an unknown provider", async () => {
    const res = await send(jwtConfig(), "/auth/signin/nobody", { form: {} })
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ error: "BadRequest" })
  })
})

describe("credentials callback", () => {
  it("signs in and redirects to the callback URL", async () => {
    const config = jwtConfig()
    const jar = new CookieJar()
    const res = await signInAlice(config, jar, "/auth", { callbackUrl: "/welcome" })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${origin}/welcome`)
    expect(jar.get("sesame.session-token")).toBeTruthy()
  })

  it("passes the fields (without csrfToken) and a request to authorize", async () => {
    const authorize = vi.fn(async () => ({ id: "7", name: "Bob" }))
    const config = jwtConfig({ providers: [aliceCredentials({ authorize })] })
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: token, username: "bob", otp: "123456" } })
    const [fields, req] = authorize.mock.calls[0] as unknown as [Record<string, unknown>, Request]
    expect(fields).toEqual({ username: "bob", otp: "123456" })
    expect(req).toBeInstanceOf(Request)
    expect(await req.json()).toEqual({ username: "bob", otp: "123456" })
  })

  it("reads a multipart form whose boundary has capitals (boundaries are case-sensitive)", async () => {
    const config = jwtConfig()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const boundary = "----FormBoundaryAbCdEf"
    const fields = { csrfToken: token, username: "alice", password: "correct horse" }
    const body = `${Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join("")}--${boundary}--\r\n`
    const res = await send(config, "/auth/callback/credentials", { jar, body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(home)
    expect(jar.get("sesame.session-token")).toBeTruthy()
  })

  it("sends a refused sign-in to the sign-in page with CredentialsSignin and its code", async () => {
    const config = jwtConfig()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const res = await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: token, username: "alice", password: "wrong", callbackUrl: "/deep" } })
    const location = new URL(res.headers.get("location")!)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("CredentialsSignin")
    expect(location.searchParams.get("code")).toBe("credentials")
    expect(location.searchParams.get("callbackUrl")).toBe(`${origin}/deep`)
    expect(jar.get("sesame.session-token")).toBeUndefined()
  })

  it("puts a custom CredentialsSignin code in the URL", async () => {
    class Locked extends CredentialsSignin {
      override code = "locked"
    }
    const config = jwtConfig({
      providers: [
        aliceCredentials({
          authorize: () => {
            throw new Locked()
          },
        }),
      ],
    })
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const res = await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: token } })
    expect(new URL(res.headers.get("location")!).searchParams.get("code")).toBe("locked")
  })

  it("shows any other throw as Configuration, logged but never in the URL", async () => {
    const logged: Error[] = []
    const config = jwtConfig({
      logger: { error: (e) => logged.push(e) },
      providers: [
        aliceCredentials({
          authorize: () => {
            throw new Error("database at 10.0.0.5 refused connection")
          },
        }),
      ],
    })
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const res = await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: token } })
    const location = res.headers.get("location")!
    expect(location).toBe(`${origin}/auth/error?error=Configuration`)
    expect(location).not.toContain("10.0.0.5")
    expect(logged.some((e) => (e.cause as { err?: Error })?.err?.message.includes("10.0.0.5"))).toBe(true)
    const page = await send(config, "/auth/error?error=Configuration")
    expect(page.status).toBe(500)
    expect(await page.text()).not.toContain("10.0.0.5")
  })

  it("needs CSRF, and accepts only POST", async () => {
    const config = jwtConfig()
    const res = await send(config, "/auth/callback/credentials", { form: { username: "alice", password: "correct horse" } })
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF")
    expect(res.headers.getSetCookie().some((c) => c.startsWith("sesame.session-token="))).toBe(false)
    const get = await send(config, "/auth/callback/credentials")
    expect(get.status).toBe(400)
  })

  it("answers 200 {url} to X-Auth-Return-Redirect, for success and failure", async () => {
    const config = jwtConfig()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const headers = { "x-auth-return-redirect": "1" }
    const ok = await send(config, "/auth/callback/credentials", { jar, headers, form: { csrfToken: token, username: "alice", password: "correct horse" } })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ url: home })
    expect(jar.get("sesame.session-token")).toBeTruthy()
    const bad = await send(config, "/auth/callback/credentials", { jar, headers, form: { csrfToken: token, username: "alice", password: "no" } })
    expect(bad.status).toBe(200)
    expect((await bad.json()).url).toBe(`${origin}/auth/signin?error=CredentialsSignin&code=credentials`)
  })
})

describe("sign-out", () => {
  it("GET shows a confirmation form with the CSRF token", async () => {
    const jar = new CookieJar()
    const res = await send(jwtConfig(), "/auth/signout", { jar })
    const html = await res.text()
    expect(html).toContain(`action="${origin}/auth/signout" method="POST"`)
    expect(html).toContain(`value="${jar.get("sesame.csrf-token")!.split("|")[0]}"`)
  })

  it("POST needs CSRF, then clears the session and redirects", async () => {
    const signOut = vi.fn()
    const config = jwtConfig({ events: { signOut } })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const refused = await send(config, "/auth/signout", { jar, form: {} })
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe("MissingCSRF")
    expect(jar.get("sesame.session-token")).toBeTruthy()

    const token = await csrfToken(config, jar)
    const res = await send(config, "/auth/signout", { jar, form: { csrfToken: token, callbackUrl: "/bye" } })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${origin}/bye`)
    expect(jar.get("sesame.session-token")).toBeUndefined()
    expect(signOut).toHaveBeenCalledWith({ token: expect.objectContaining({ sub: "1" }) })
    expect(await (await send(config, "/auth/session", { jar })).json()).toBeNull()
  })
})

describe("GET error and verify-request", () => {
  it("uses the status of each error code", async () => {
    const cases: [string, number, string][] = [
      ["Configuration", 500, "Server error"],
      ["AccessDenied", 403, "Access denied"],
      ["Verification", 403, "Unable to sign in"],
      ["CredentialsSignin", 200, "Error"],
      ["", 200, "Error"],
    ]
    for (const [code, status, heading] of cases) {
      const res = await send(jwtConfig(), `/auth/error?error=${code}`)
      expect(res.status).toBe(status)
      const html = await res.text()
      expect(html).toContain(`<h1>${heading}</h1>`)
      expect(html).toContain(`href="${origin}/auth/signin"`)
    }
  })

  it("redirects to pages.error, unless that would loop", async () => {
    const custom = await send(jwtConfig({ pages: { error: "/oops" } }), "/auth/error?error=AccessDenied")
    expect(custom.headers.get("location")).toBe(`${origin}/oops?error=AccessDenied`)
    const loop = await send(jwtConfig({ pages: { error: "/auth/error" } }), "/auth/error?error=AccessDenied")
    expect(loop.status).toBe(403)
  })

  it("verify-request shows the page, or redirects to pages.verifyRequest with the query", async () => {
    const page = await send(jwtConfig(), "/auth/verify-request?provider=email&type=email")
    expect(page.status).toBe(200)
    expect(await page.text()).toContain("Check your email")
    const custom = await send(jwtConfig({ pages: { verifyRequest: "/check" } }), "/auth/verify-request?provider=email&type=email")
    expect(custom.headers.get("location")).toBe(`${origin}/check?provider=email&type=email`)
  })
})

describe("bad requests", () => {
  it("answer 400, not 500", async () => {
    const config = jwtConfig()
    const cases: [string, string][] = [
      ["GET", "/auth/unknown"],
      ["GET", "/auth"],
      ["GET", "/auth/"],
      ["GET", "/elsewhere/session"],
      ["GET", "/auth/session/extra"],
      ["GET", "/auth/signin/a/b"],
      ["PUT", "/auth/session"],
      ["DELETE", "/auth/signout"],
      ["OPTIONS", "/auth/csrf"],
      ["GET", "/auth/signin/%E0%A4%A"],
      ["GET", "/auth/session?callbackUrl=a&callbackUrl=b"],
      ["POST", "/auth/providers"],
      ["POST", "/auth/error"],
    ]
    for (const [method, path] of cases) {
      const res = await Auth(request(path, { method }), config)
      expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(400)
      expect(res.status, `${method} ${path}`).toBeLessThan(500)
    }
  })

  it("refuses repeated form fields, unsupported content types and oversized bodies", async () => {
    const config = jwtConfig()
    const repeated = await Auth(
      new Request(`${origin}/auth/callback/credentials`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "csrfToken=a&csrfToken=b",
      }),
      config,
    )
    expect(repeated.status).toBe(400)
    const xml = await Auth(new Request(`${origin}/auth/signout`, { method: "POST", headers: { "content-type": "text/xml" }, body: "<a/>" }), config)
    expect(xml.status).toBe(415)
    const huge = await Auth(
      new Request(`${origin}/auth/signout`, { method: "POST", headers: { "content-type": "application/json" }, body: "x".repeat(2 * 1024 * 1024) }),
      config,
    )
    expect(huge.status).toBe(413)
    const badJson = await Auth(new Request(`${origin}/auth/session`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" }), config)
    expect(badJson.status).toBe(400)
  })
})
