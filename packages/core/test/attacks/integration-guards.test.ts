/**
 * The integration surface's guard rules (`@sesame/core/integration`), attacked directly, each beside
 * the legitimate case: a path spelled so that a router serves a protected page while a guard reads
 * another path (case, percent-encoding once or twice, `%40`, a decoded `?`, doubled and trailing
 * slashes, a path that does not decode); a refusal's redirect from a request with a forged `Host`
 * or `X-Forwarded-Host`, or for `//evil.example`; a renewed session cookie written over a
 * sign-out's cleared one, or going out on a response that says `public`; a guard whose `redirectTo`
 * it protects itself, spelled another way; what a refused server-side sign-in answers.
 */
import { describe, expect, it } from "vitest"
import { checkRedirectTarget, refusedActionAnswer, routedForms, foldedPath, protectedPaths, refusedAnswer, withMissingCookies } from "@sesame/core/integration"
import { BadRequest, CredentialsSignin, StorageUnavailable } from "@sesame/core/errors"
import { aliceCredentials, secret } from "../helpers.js"

const guarded = protectedPaths(["/dashboard"].map(foldedPath), "test")
/** Whether a guard over `routedForms` protects `path`, for a router that ignores case or not. */
const protects = (path: string, ignoresCase = true) => {
  const forms = routedForms(path, ignoresCase)
  return forms === null || forms.some((form) => guarded(form))
}

describe("routedForms: the spellings a router serves as a protected page", () => {
  it("legitimate: /dashboard and below are protected, a sibling and another page are not", () => {
    expect(protects("/dashboard")).toBe(true)
    expect(protects("/dashboard/keys")).toBe(true)
    expect(protects("/dashboards")).toBe(false)
    expect(protects("/about")).toBe(false)
  })

  it("fails: case (where the router ignores it, Unicode case variants too), encodings, doubled and trailing slashes", () => {
    for (const path of ["/DASHBOARD", "/Dashboard/", "/%64ashboard", "/%2564ashboard", "//dashboard", "/dashboard//", "/%E0%A4%A"]) expect(protects(path), path).toBe(true)
    expect(routedForms("/%40admin", false)).toContain("/@admin")
    expect(routedForms("/\u00B5enu", true)).toContain(foldedPath("/μenu"))
    // A router that minds case serves no page at /DASHBOARD: nothing to protect there.
    expect(protects("/DASHBOARD", false)).toBe(false)
  })
})

describe("refusedAnswer: the sign-in redirect", () => {
  // No trustHost, no AUTH_URL: the request's host is trusted only when it is a loopback one.
  const config = { secret, providers: [aliceCredentials()] }
  it("legitimate: a 303 to the sign-in page on the app, with the way back, private", () => {
    const answer = refusedAnswer(config, new Request("http://localhost:3000/dashboard?tab=1"), undefined, "/dashboard?tab=1", [])
    expect(answer.status).toBe(303)
    expect(answer.headers.get("location")).toBe("http://localhost:3000/auth/signin?callbackUrl=%2Fdashboard%3Ftab%3D1")
    expect(answer.headers.get("cache-control")).toBe("private, no-store")
  })

  it("fails: a forged Host or X-Forwarded-Host is never written into it; //evil.example comes back as a path on the app", () => {
    for (const headers of [{ host: "evil.example" }, { "x-forwarded-host": "evil.example" }] as Record<string, string>[]) {
      const answer = refusedAnswer(config, new Request("http://evil.example/dashboard", { headers }), undefined, "/dashboard", [])
      expect(answer.headers.get("location") ?? "").not.toContain("evil.example")
    }
    const slashes = refusedAnswer(config, new Request("http://localhost:3000//evil.example/x"), undefined, "//evil.example/x", [])
    expect(new URL(slashes.headers.get("location")!).searchParams.get("callbackUrl")).toBe("/evil.example/x")
  })
})

describe("withMissingCookies: the middleware's cookies on the route's response", () => {
  const renewed = { name: "sesame.session-token", value: "renewed", options: { path: "/", httpOnly: true } }
  it("legitimate: a renewed cookie goes on a response without one, made private", () => {
    const answer = withMissingCookies(new Response("page"), [renewed])
    expect(answer.headers.getSetCookie()).toHaveLength(1)
    expect(answer.headers.get("cache-control")).toBe("private, no-store")
  })

  it("fails: it never writes over the route's own cookie of that name (a sign-out's cleared one), and a public answer turns private", () => {
    const signedOut = new Response(null, { status: 303, headers: { "set-cookie": "sesame.session-token=; Path=/; Max-Age=0", "cache-control": "public, max-age=600" } })
    const answer = withMissingCookies(signedOut, [renewed])
    expect(answer.headers.getSetCookie()).toEqual(["sesame.session-token=; Path=/; Max-Age=0"])
    expect(answer.headers.get("cache-control")).toBe("private, no-store")
  })
})

describe("checkRedirectTarget: a guard's redirectTo that it protects itself", () => {
  const isProtected = (path: string) => guarded(foldedPath(path))

  it("legitimate: a public page, or Sesame's own sign-in page under the base path, is a fine target", () => {
    expect(() => checkRedirectTarget("authorize", "/signin", "/auth", isProtected)).not.toThrow()
    expect(() => checkRedirectTarget("authorize", "/auth/signin?x=1", "/auth", isProtected)).not.toThrow()
    expect(() => checkRedirectTarget("authorize", undefined, "/auth", isProtected)).not.toThrow()
  })

  it("fails: a protected target, with a query, in another case, or below it, throws before any request", () => {
    for (const target of ["/dashboard", "/dashboard?from=guard", "/DASHBOARD", "/dashboard/keys"]) {
      expect(() => checkRedirectTarget("authorize", target, "/auth", isProtected), target).toThrow(/is itself protected/)
    }
  })
})

describe("refusedActionAnswer: a refused server-side sign-in or sign-out", () => {
  it("legitimate: a wrong password and an outage are not answered here (the app's message, the 503)", () => {
    expect(refusedActionAnswer(new CredentialsSignin())).toBeUndefined()
    expect(refusedActionAnswer(new StorageUnavailable())).toBeUndefined()
    expect(refusedActionAnswer(new Error("boom"))).toBeUndefined()
    expect(refusedActionAnswer(null)).toBeUndefined()
  })

  it("fails: another site's post is a private JSON 403 with the core's reason, no stack", async () => {
    const caught = new BadRequest("The request came from another site.", 403)
    const answer = refusedActionAnswer(caught)!
    expect(answer.status).toBe(403)
    expect(answer.headers.get("cache-control")).toBe("private, no-store")
    const body = await answer.text()
    expect(JSON.parse(body)).toMatchObject({ message: "The request came from another site." })
    expect(body).not.toMatch(/\bat \w|\.ts:\d/)
  })
})
