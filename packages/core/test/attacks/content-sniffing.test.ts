/**
 * Threat: a response that repeats text from the request (an error naming the path, a provider id,
 * a query parameter) read as HTML. A link to `/auth/signin/<script>…` whose JSON error were
 * sniffed as a page, or rendered by a tool that treats it as markup, would run the attacker's
 * script on the app's origin. Every response `Auth()` returns says `X-Content-Type-Options:
 * nosniff`, and JSON is written with `<`, `>`, `&`, U+2028 and U+2029 escaped, so no quoted text
 * is markup whatever reads it, while `response.json()` still gives the same value.
 */
import { Auth, type AuthConfig } from "@sesame/core"
import Passkey from "@sesame/core/providers/passkey"
import { MemoryAdapter } from "@sesame/core/adapters"
import { describe, expect, it, vi } from "vitest"
import { CookieJar, csrfToken, jwtConfig, request, send, signInAlice } from "../helpers.js"
import { quietLogger } from "../oauth/harness.js"

const script = "<script>alert(1)</script>"
const quiet = () => quietLogger().logger

/** The body as sent, and as a JSON reader sees it. */
async function both(response: Response): Promise<{ text: string; value: { error?: string; message?: string; url?: string } }> {
  const text = await response.text()
  return { text, value: JSON.parse(text) as { error?: string; message?: string; url?: string } }
}

describe("JSON bodies never carry markup, and read back as the same value", () => {
  it("an unknown provider named <script>…</script> in the path: 404, the name escaped", async () => {
    const response = await send(jwtConfig({ logger: quiet() }), `/auth/signin/${encodeURIComponent(script)}`, { form: {} })
    expect(response.status).toBe(404)
    const { text, value } = await both(response)
    expect(text).not.toMatch(/[<>]/)
    expect(text).toContain("\\u003cscript\\u003ealert(1)\\u003c/script\\u003e")
    expect(value.message).toContain(`"${script}"`)
  })

  it("a path with <script>…</script> under the base path: no markup in the answer", async () => {
    const response = await Auth(new Request(`http://localhost:3000/auth/${script}`), jwtConfig({ logger: quiet() }))
    expect(response.status).toBe(400)
    const { text, value } = await both(response)
    expect(text).not.toMatch(/[<>]/)
    expect(value.error).toBe("BadRequest")
  })

  it("a repeated query parameter named <b>, and &, U+2028, U+2029 in a provider id", async () => {
    const config = jwtConfig({ logger: quiet() })
    const repeated = await send(config, "/auth/session?%3Cb%3E=1&%3Cb%3E=2")
    expect(repeated.status).toBe(400)
    const first = await both(repeated)
    expect(first.text).not.toMatch(/[<>]/)
    expect(first.value.message).toContain('"<b>"')

    const id = "a&b\u2028c\u2029d"
    const unknown = await send(config, `/auth/callback/${encodeURIComponent(id)}`)
    expect(unknown.status).toBe(404)
    const second = await both(unknown)
    expect(second.text).not.toMatch(/[&\u2028\u2029]/)
    expect(second.text).toContain("a\\u0026b\\u2028c\\u2029d")
    expect(second.value.message).toContain(id)
  })

  it("a redirect answered as JSON ({ url }) keeps its & escaped, and the same URL", async () => {
    const config = jwtConfig({ logger: quiet() })
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    // A failed credentials sign-in goes back to the sign-in page with callbackUrl, error and code.
    const response = await send(config, "/auth/callback/credentials", {
      jar,
      form: { csrfToken: token, username: "alice", password: "wrong", callbackUrl: "/a?x=<2>" },
      headers: { "x-auth-return-redirect": "1" },
    })
    expect(response.status).toBe(200)
    const { text, value } = await both(response)
    expect(text).not.toMatch(/[<>&]/)
    expect(text).toContain("\\u0026error=CredentialsSignin")
    const url = new URL(value.url!)
    expect(url.searchParams.get("error")).toBe("CredentialsSignin")
    expect(url.searchParams.get("callbackUrl")).toBe("http://localhost:3000/a?x=%3C2%3E")
  })
})

describe("X-Content-Type-Options: nosniff on every response", () => {
  const passkeyConfig = (): AuthConfig =>
    jwtConfig({ adapter: MemoryAdapter(), providers: [Passkey()], experimental: { enableWebAuthn: true }, logger: quiet() })

  it("JSON, HTML pages, redirects, the passkey script, HEAD, and every kind of error", async () => {
    const config = jwtConfig({ logger: quiet() })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const token = await csrfToken(config, jar)
    const responses: [string, Response][] = [
      ["GET session (JSON)", await send(config, "/auth/session", { jar })],
      ["GET csrf (JSON)", await send(config, "/auth/csrf")],
      ["GET providers (JSON)", await send(config, "/auth/providers")],
      ["GET signin (HTML)", await send(config, "/auth/signin")],
      ["GET signout (HTML)", await send(config, "/auth/signout")],
      ["GET error (HTML)", await send(config, "/auth/error?error=AccessDenied")],
      ["HEAD signin", await Auth(request("/auth/signin", { method: "HEAD" }), config)],
      ["POST signout (redirect)", await send(config, "/auth/signout", { jar, form: { csrfToken: token } })],
      ["POST signin, a redirect as JSON", await send(config, "/auth/signin", { form: {}, headers: { "x-auth-return-redirect": "1" } })],
      ["MissingCSRF (redirect)", await send(config, "/auth/signout", { form: { csrfToken: "nope" } })],
      ["400", await send(config, "/auth/nothing-here")],
      ["403 cross-site", await send(config, "/auth/signout", { form: {}, headers: { origin: "https://evil.example" } })],
      ["404", await send(config, "/auth/signin/nobody", { form: {} })],
      ["413", await send(config, "/auth/signout", { form: { big: "x".repeat(1024 * 1024 + 1) } })],
      ["415", await send(config, "/auth/signout", { body: "x", headers: { "content-type": "text/plain" } })],
      ["405-like", await Auth(request("/auth/session", { method: "PUT" }), config)],
      ["passkey script", await send(passkeyConfig(), "/auth/webauthn-script")],
    ]
    for (const [name, response] of responses) expect(response.headers.get("x-content-type-options"), name).toBe("nosniff")
    // The list covers what it says.
    expect(responses.map(([, r]) => r.status)).toEqual([200, 200, 200, 200, 200, 403, 200, 302, 200, 302, 400, 403, 404, 413, 415, 400, 200])
  })

  it("the configuration-error responses: the 500 JSON, the error page, and a lazy configuration that throws", async () => {
    // A configuration that does not resolve: an unknown session strategy.
    const broken = jwtConfig({ logger: quiet(), session: { strategy: "nope" as "jwt" } })
    const json = await Auth(request("/auth/session"), broken)
    const page = await Auth(request("/auth/signin"), broken)
    const spy = vi.spyOn(console, "error").mockImplementation(() => {})
    const lazy = await Auth(request("/auth/session"), () => {
      throw new Error("env missing")
    })
    spy.mockRestore()
    for (const response of [json, page, lazy]) {
      expect(response.status).toBe(500)
      expect(response.headers.get("x-content-type-options")).toBe("nosniff")
    }
    expect(page.headers.get("content-type")).toContain("text/html")
  })
})
