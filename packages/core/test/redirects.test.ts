import { describe, expect, it } from "vitest"
import { CookieJar, csrfToken, home, jwtConfig, origin, send, signInAlice } from "./helpers.js"

const attacks = [
  "https://evil.example",
  "https://evil.example/path?x=1",
  "//evil.example",
  "//evil.example/%2F..",
  "/\\evil.example",
  "\\\\evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "http://localhost:3000.evil.example",
  "http://localhost:3000@evil.example",
  "https:evil.example",
  "\thttps://evil.example",
  " //evil.example",
  "http://localhost:3001",
  "https://localhost:3000",
  "ftp://localhost:3000/x",
]

describe("open redirects", () => {
  it("end on the app's origin whatever the callbackUrl in the body", async () => {
    const config = jwtConfig()
    for (const attack of attacks) {
      const jar = new CookieJar()
      const res = await signInAlice(config, jar, "/auth", { callbackUrl: attack })
      const location = new URL(res.headers.get("location")!)
      expect(location.origin, attack).toBe(origin)
    }
  })

  it("end on the app's origin whatever the callbackUrl in the query", async () => {
    const config = jwtConfig()
    for (const attack of attacks) {
      const jar = new CookieJar()
      const html = await (await send(config, `/auth/signin?callbackUrl=${encodeURIComponent(attack)}`, { jar })).text()
      const value = /name="callbackUrl" value="([^"]*)"/.exec(html)![1]!.replace(/&amp;/g, "&")
      expect(new URL(value).origin, attack).toBe(origin)
      const token = await csrfToken(config, jar)
      const res = await send(config, `/auth/signout?callbackUrl=${encodeURIComponent(attack)}`, { jar, form: { csrfToken: token } })
      expect(new URL(res.headers.get("location")!).origin, attack).toBe(origin)
    }
  })

  it("end on the app's origin whatever the callback-url cookie says", async () => {
    const config = jwtConfig()
    for (const attack of attacks) {
      const jar = new CookieJar()
      const token = await csrfToken(config, jar)
      jar.cookies.set("sesame.callback-url", encodeURIComponent(attack))
      const res = await send(config, "/auth/signout", { jar, form: { csrfToken: token } })
      expect(new URL(res.headers.get("location")!).origin, attack).toBe(origin)
    }
  })

  it("keep same-origin URLs, resolving relative ones against the origin", async () => {
    const config = jwtConfig()
    const cases: [string, string][] = [
      ["/dashboard?tab=1#x", `${origin}/dashboard?tab=1#x`],
      ["dashboard", `${origin}/dashboard`],
      [`${origin}/a/b`, `${origin}/a/b`],
    ]
    for (const [input, expected] of cases) {
      const res = await signInAlice(config, new CookieJar(), "/auth", { callbackUrl: input })
      expect(res.headers.get("location")).toBe(expected)
    }
  })

  it("ignore malformed callback URLs instead of failing (no 500)", async () => {
    const config = jwtConfig()
    for (const bad of ["http://[::1", "http://%zz", "https://exa mple.com", "x".repeat(5000), "http://"]) {
      const res = await send(config, `/auth/signin?callbackUrl=${encodeURIComponent(bad)}`)
      expect(res.status, bad).toBe(200)
      const signIn = await signInAlice(config, new CookieJar(), "/auth", { callbackUrl: bad })
      expect(signIn.status, bad).toBe(302)
      expect(new URL(signIn.headers.get("location")!).origin).toBe(origin)
    }
  })

  it("let a custom redirect callback allow another origin, but never a non-http URL", async () => {
    const config = jwtConfig({
      callbacks: {
        redirect: ({ url }) => url,
      },
    })
    const ok = await signInAlice(config, new CookieJar(), "/auth", { callbackUrl: "https://partner.example/x" })
    expect(ok.headers.get("location")).toBe("https://partner.example/x")
    const js = await signInAlice(config, new CookieJar(), "/auth", { callbackUrl: "javascript:alert(1)" })
    expect(js.headers.get("location")).toBe(home)
  })
})
