/**
 * Signing in and out from the app's server code (`@sesame/core/integration`), which the Express,
 * Hono and SvelteKit integrations and the Next.js server actions build on: what each answers, the
 * cookies it hands back, the errors it throws, and the attacks it refuses (another site's post, a
 * callback URL or `Referer` on another origin, a forged `Host` in a guard's redirect).
 */
import { describe, expect, it } from "vitest"
import type { AuthConfig } from "@sesame/core"
import { CredentialsSignin } from "@sesame/core/errors"
import {
  setCookieLines,
  signInFromServer,
  signInPageUrl,
  signOutFromServer,
  updateSessionFromServer,
  wantsJson,
  type RequestLike,
  type ServerSignInOptions,
} from "@sesame/core/integration"
import GitHub from "@sesame/core/providers/github"
import { aliceCredentials, origin, secret } from "./helpers.js"

const config: AuthConfig = {
  secret,
  trustHost: true,
  basePath: "/api/auth",
  providers: [aliceCredentials(), GitHub({ clientId: "id", clientSecret: "secret" })],
  callbacks: {
    jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, name: (session as { name: string }).name } : token),
  },
}

/** A browser's request to the app's own route, as the integration hands it over. */
function browser(headers: Record<string, string> = {}, url = `${origin}/login`): RequestLike {
  return { headers: new Headers({ host: "localhost:3000", ...headers }), url }
}

const alice = { username: "alice", password: "correct horse" }

/** The `Cookie` header a browser would send back after `cookies` were set. */
function cookieHeaderOf(cookies: readonly { name: string; value: string }[]): string {
  return cookies.map(({ name, value }) => `${name}=${value}`).join("; ")
}

describe("signInFromServer", () => {
  it("signs in with credentials: the callback URL, and the session cookie to set", async () => {
    const result = await signInFromServer(config, browser(), "credentials", { ...alice, redirectTo: "/account" })
    expect(result.url).toBe(`${origin}/account`)
    expect(result.redirect).toBe(true)
    const session = result.cookies.find((cookie) => cookie.name === "sesame.session-token")
    expect(session?.value).toBeTruthy()
    expect(setCookieLines(result.cookies).join("\n")).toMatch(/sesame\.session-token=[^;]+; Path=\/; Expires=.*; HttpOnly; SameSite=Lax/)
  })

  it("reads a form, and says whether the caller asked to be redirected: only the app's boolean false counts", async () => {
    const form = new FormData()
    form.set("username", "alice")
    form.set("password", alice.password)
    form.set("redirectTo", "/after")
    // A posted field is the visitor's text: it must not leave the app's route without an answer.
    form.set("redirect", "false")
    expect(await signInFromServer(config, browser(), "credentials", form)).toMatchObject({ url: `${origin}/after`, redirect: true })
    // A parsed body (an Express route's `req.body`), whose types no compiler checked.
    const posted: ServerSignInOptions = JSON.parse(JSON.stringify({ username: "alice", password: alice.password, redirect: "false" }))
    expect(await signInFromServer(config, browser(), "credentials", posted)).toMatchObject({ redirect: true })
    expect(await signInFromServer(config, browser(), "credentials", { ...alice, redirect: false })).toMatchObject({ redirect: false })
  })

  it("throws CredentialsSignin for rejected credentials, and hands back no session", async () => {
    await expect(signInFromServer(config, browser(), "credentials", { username: "alice", password: "wrong" })).rejects.toBeInstanceOf(CredentialsSignin)
  })

  it("refuses a call made while handling another site's post (login CSRF); the app's own post passes", async () => {
    const attack = signInFromServer(config, browser({ origin: "https://evil.example" }), "credentials", alice)
    await expect(attack).rejects.toMatchObject({ type: "BadRequest", status: 403 })
    const sibling = signInFromServer(config, browser({ "sec-fetch-site": "same-site" }), "credentials", alice)
    await expect(sibling).rejects.toMatchObject({ type: "BadRequest", status: 403 })
    const own = await signInFromServer(config, browser({ origin, "sec-fetch-site": "same-origin" }), "credentials", alice)
    expect(own.cookies.some((cookie) => cookie.name === "sesame.session-token")).toBe(true)
  })

  it("starts an OAuth sign-in: the provider's authorization URL, with the check cookies to set", async () => {
    const result = await signInFromServer(config, browser(), "github", { redirectTo: "/account" }, { prompt: "consent" })
    const url = new URL(result.url)
    expect(url.origin + url.pathname).toBe("https://github.com/login/oauth/authorize")
    expect(url.searchParams.get("prompt")).toBe("consent")
    expect(url.searchParams.get("redirect_uri")).toBe(`${origin}/api/auth/callback/github`)
    expect(result.cookies.map((cookie) => cookie.name)).toEqual(expect.arrayContaining(["sesame.pkce.code_verifier", "sesame.callback-url"]))
  })

  it("sends the browser to the sign-in page without a provider or with one that is not configured", async () => {
    for (const provider of [undefined, "gitlab"]) {
      const result = await signInFromServer(config, browser(), provider, { redirectTo: "/account" })
      expect(result).toEqual({ url: `${origin}/api/auth/signin?callbackUrl=%2Faccount`, redirect: true, cookies: [] })
    }
  })

  it("comes back to the page the browser was on, never to another origin", async () => {
    const fromPage = await signInFromServer(config, browser({ referer: `${origin}/pricing?plan=pro` }), "credentials", alice)
    expect(fromPage.url).toBe(`${origin}/pricing?plan=pro`)
    const foreignReferer = await signInFromServer(config, browser({ referer: "https://evil.example/phish" }), "credentials", alice)
    expect(foreignReferer.url).toBe(`${origin}/`)
    const foreignTarget = await signInFromServer(config, browser(), "credentials", { ...alice, redirectTo: "https://evil.example/phish" })
    expect(new URL(foreignTarget.url).origin).toBe(origin)
  })

  it("does not take another origin's Referer even when the app's redirect callback allows any URL", async () => {
    const permissive: AuthConfig = { ...config, callbacks: { redirect: ({ url }) => url } }
    const result = await signInFromServer(permissive, browser({ referer: "https://evil.example/phish" }), "credentials", alice)
    expect(new URL(result.url, origin).origin).toBe(origin)
  })
})

describe("signOutFromServer", () => {
  it("clears the session cookie and sends the browser to the callback URL", async () => {
    const { cookies } = await signInFromServer(config, browser(), "credentials", alice)
    const result = await signOutFromServer(config, browser({ cookie: cookieHeaderOf(cookies) }), { redirectTo: "/bye" })
    expect(result.url).toBe(`${origin}/bye`)
    const cleared = setCookieLines(result.cookies).find((line) => line.startsWith("sesame.session-token="))
    expect(cleared).toMatch(/^sesame\.session-token=; Path=\/; Max-Age=0/)
  })

  it("refuses another site's post", async () => {
    await expect(signOutFromServer(config, browser({ origin: "https://evil.example" }))).rejects.toMatchObject({ status: 403 })
  })
})

describe("updateSessionFromServer", () => {
  it("runs the jwt callback with trigger update, and hands back the new session and its cookie", async () => {
    const { cookies } = await signInFromServer(config, browser(), "credentials", alice)
    const result = await updateSessionFromServer(config, browser({ cookie: cookieHeaderOf(cookies) }), { name: "Alicia" })
    expect(result.session?.user?.name).toBe("Alicia")
    expect(result.cookies.some((cookie) => cookie.name === "sesame.session-token" && cookie.value)).toBe(true)
  })

  it("is null without a session", async () => {
    expect(await updateSessionFromServer(config, browser(), { name: "Mallory" })).toMatchObject({ session: null })
  })
})

describe("signInPageUrl", () => {
  it("is the core's sign-in endpoint with the page to come back to", () => {
    expect(signInPageUrl(config, browser({}, `${origin}/account`), "/account?tab=keys")).toBe(
      `${origin}/api/auth/signin?callbackUrl=%2Faccount%3Ftab%3Dkeys`,
    )
  })

  it("collapses leading slashes, so that the return address stays on the site", () => {
    expect(signInPageUrl(config, browser(), "//evil.example/x")).toBe(`${origin}/api/auth/signin?callbackUrl=%2Fevil.example%2Fx`)
    expect(signInPageUrl(config, browser(), "/\\evil.example")).toBe(`${origin}/api/auth/signin?callbackUrl=%2Fevil.example`)
    // A URL gives only its path and query, whatever its origin.
    expect(signInPageUrl(config, browser(), "https://evil.example/account?x=1")).toBe(`${origin}/api/auth/signin?callbackUrl=%2Faccount%3Fx%3D1`)
  })

  it("is a path when the core refuses the request's host: a forged Host is never written into it", () => {
    const strict: AuthConfig = { ...config, trustHost: false }
    const forged = { headers: new Headers({ host: "evil.example" }), url: "http://evil.example/account" }
    expect(signInPageUrl(strict, forged, "/account")).toBe("/api/auth/signin?callbackUrl=%2Faccount")
  })
})

describe("wantsJson", () => {
  it("is true for a client that asks for JSON and not a page, or a script's request", () => {
    expect(wantsJson(new Headers({ accept: "application/json" }))).toBe(true)
    expect(wantsJson(new Headers({ accept: "application/problem+json" }))).toBe(true)
    expect(wantsJson(new Headers({ "x-requested-with": "XMLHttpRequest" }))).toBe(true)
    expect(wantsJson(new Headers({ accept: "text/html,application/xhtml+xml,application/json;q=0.9" }))).toBe(false)
    expect(wantsJson(new Headers({ accept: "*/*" }))).toBe(false)
    expect(wantsJson(new Headers())).toBe(false)
  })
})
