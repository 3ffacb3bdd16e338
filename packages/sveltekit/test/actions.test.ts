/**
 * `signIn` and `signOut` as form actions, through SvelteKit's own server (test/kit.ts): the test
 * app's `/signin` has `signIn` itself as its default action; `/login` has an action of its own
 * that catches `CredentialsSignin` (`?/credentials`), and one without a redirect (`?/quiet`);
 * `/signout` has `signOut` as its default action. SvelteKit's own origin check is off in the test app, so that
 * the cross-site posts here reach Sesame's.
 */
import { setCookieLines } from "@sesame/core/integration"
import type { ResponseCookie } from "@sesame/core"
import { serialize } from "cookie"
import { beforeAll, describe, expect, it } from "vitest"
import { cookieOptions } from "../src/cookies.js"
import { CookieJar, origin, sameOrigin, signInAlice, startApp, type Send } from "./kit.js"

let send: Send

beforeAll(async () => {
  send = await startApp()
}, 120_000)

const alice = { username: "alice", password: "correct horse" }
const crossSite = { origin: "https://evil.example", "sec-fetch-site": "cross-site", accept: "text/html" }

/** The attributes of a `Set-Cookie` line, by lower-case name, without the value of `Expires` (a time). */
function attributes(line: string): Record<string, string> {
  const entries = line
    .split(";")
    .slice(1)
    .map((part) => {
      const [key = "", ...value] = part.trim().split("=")
      return [key.toLowerCase(), key.toLowerCase() === "expires" ? "(a date)" : value.join("=")] as const
    })
  return Object.fromEntries(entries)
}

const sessionLine = (response: Response) => response.headers.getSetCookie().find((line) => line.startsWith("sesame.session-token="))

describe("signIn as the form action", () => {
  it("signs in with the provider the form names, back to redirectTo, with the core's cookie attributes", async () => {
    const jar = new CookieJar()
    const response = await send("/signin", { jar, headers: sameOrigin(), form: { providerId: "credentials", ...alice, redirectTo: "/account" } })
    expect(response.status).toBe(303)
    expect(response.headers.get("location")).toBe(`${origin}/account`)
    expect(await (await send("/account", { jar })).text()).toContain("Account of Alice")

    // The same cookie as the credentials endpoint sets, which the core serialises itself.
    const fromAction = sessionLine(response)!
    const fromEndpoint = sessionLine(await signInAlice(send, new CookieJar()))!
    expect(attributes(fromAction)).toEqual(attributes(fromEndpoint))
    expect(attributes(fromAction)).toMatchObject({ path: "/", httponly: "", samesite: "Lax", expires: "(a date)" })
  })

  it("sends the browser to an OAuth provider with the check cookies set", async () => {
    const response = await send("/signin", { headers: sameOrigin(), form: { providerId: "github" } })
    expect(response.status).toBe(303)
    const location = new URL(response.headers.get("location")!)
    expect(location.origin + location.pathname).toBe("https://github.com/login/oauth/authorize")
    expect(location.searchParams.get("redirect_uri")).toBe(`${origin}/auth/callback/github`)
    expect(response.headers.getSetCookie().some((line) => line.startsWith("sesame.pkce.code_verifier="))).toBe(true)
  })

  it("without a provider, sends the browser to the sign-in page", async () => {
    const response = await send("/signin", { headers: sameOrigin(), form: { redirectTo: "/account" } })
    expect(response.headers.get("location")).toBe(`${origin}/auth/signin?callbackUrl=%2Faccount`)
  })

  it("answers a client-side form (use:enhance) with SvelteKit's JSON redirect and the cookie", async () => {
    const response = await send("/signin", {
      headers: sameOrigin({ accept: "application/json", "x-sveltekit-action": "true" }),
      form: { providerId: "credentials", ...alice, redirectTo: "/account" },
    })
    expect(await response.json()).toEqual({ type: "redirect", status: 303, location: `${origin}/account` })
    expect(sessionLine(response)).toBeDefined()
  })

  it("throws CredentialsSignin to the caller: the app's action answers with its own message", async () => {
    const response = await send("/login?/credentials", { headers: sameOrigin(), form: { ...alice, password: "wrong" } })
    expect(response.status).toBe(400)
    expect(await response.text()).toContain("Wrong username or password.")
    expect(sessionLine(response)).toBeUndefined()
  })

  it("used as it is, a rejected sign-in is thrown too (SvelteKit's error page, no stack, no cookie)", async () => {
    const response = await send("/signin", { headers: sameOrigin(), form: { providerId: "credentials", ...alice, password: "wrong" } })
    expect(response.status).toBe(500)
    expect(await response.text()).not.toMatch(/CredentialsSignin|at .*\.(js|ts):\d+/)
    expect(sessionLine(response)).toBeUndefined()
  })

  it("with redirect: false, returns the URL to the action", async () => {
    const response = await send("/login?/quiet", { headers: sameOrigin({ accept: "application/json", "x-sveltekit-action": "true" }), form: alice })
    const result = (await response.json()) as { type: string; data: string }
    expect(result.type).toBe("success")
    expect(result.data).toContain(origin)
    expect(sessionLine(response)).toBeDefined()
  })

  it("a posted field redirect=false (text a visitor chose) does not stop the redirect of signIn or signOut", async () => {
    const jar = new CookieJar()
    const signedIn = await send("/signin", { jar, headers: sameOrigin(), form: { providerId: "credentials", ...alice, redirect: "false" } })
    expect(signedIn.status).toBe(303)
    expect(signedIn.headers.get("location")).toBe(`${origin}/`)
    const out = await send("/signout", { jar, headers: sameOrigin(), form: { redirect: "false" } })
    expect(out.status).toBe(303)
    expect(sessionLine(out)).toMatch(/Max-Age=0/i)
  })
})

describe("attacks on signIn and signOut", () => {
  it("another site's post (login CSRF) is refused with 403 and sets no session; the same post from the app works", async () => {
    const others: Record<string, string>[] = [
      crossSite,
      { "sec-fetch-site": "cross-site", accept: "text/html" },
      { "sec-fetch-site": "same-site", accept: "text/html" },
      { origin: "null", accept: "text/html" },
    ]
    for (const headers of others) {
      const response = await send("/signin", { headers, form: { providerId: "credentials", ...alice } })
      expect(response.status, JSON.stringify(headers)).toBe(403)
      expect(sessionLine(response)).toBeUndefined()
    }
    expect((await send("/signin", { headers: sameOrigin(), form: { providerId: "credentials", ...alice } })).status).toBe(303)
  })

  it("another site's multipart or text/plain post sets no session either", async () => {
    const multipart = new FormData()
    for (const [name, value] of Object.entries({ providerId: "credentials", ...alice })) multipart.set(name, value)
    const posts = [
      { body: multipart, headers: crossSite },
      { body: "providerId=credentials&username=alice&password=correct+horse", headers: { ...crossSite, "content-type": "text/plain" } },
    ]
    for (const post of posts) {
      const response = await send("/signin", { method: "POST", ...post })
      expect(response.status).toBeGreaterThanOrEqual(400)
      expect(response.status).toBeLessThan(500)
      expect(sessionLine(response)).toBeUndefined()
    }
  })

  it("redirectTo on another site is not followed", async () => {
    const elsewhere = ["https://evil.example/steal", "//evil.example/steal", "/\\evil.example", "https:evil.example", "\t//evil.example", `${origin}@evil.example/`]
    for (const redirectTo of elsewhere) {
      const response = await send("/signin", { headers: sameOrigin(), form: { providerId: "credentials", ...alice, redirectTo } })
      expect(response.status).toBe(303)
      expect(new URL(response.headers.get("location")!).origin, redirectTo).toBe(origin)
    }
  })

  it("signOut from another site is refused and the session stays; from the app it ends", async () => {
    const jar = new CookieJar()
    await signInAlice(send, jar)
    const refused = await send("/signout", { jar, headers: crossSite, form: { redirectTo: "/" } })
    expect(refused.status).toBe(403)
    expect(await (await send("/account", { jar })).text()).toContain("Account of Alice")

    const out = await send("/signout", { jar, headers: sameOrigin(), form: { redirectTo: "/account" } })
    expect(out.status).toBe(303)
    expect(out.headers.get("location")).toBe(`${origin}/account`)
    expect(sessionLine(out)).toMatch(/Max-Age=0/i)
    expect((await send("/account", { jar })).status).toBe(303)
  })
})

describe("the cookie attributes handed to SvelteKit", () => {
  // What SvelteKit's `cookies.set` merges under the options it is given.
  const kitDefaults = { httpOnly: true, sameSite: "lax", secure: true } as const
  const cookies: ResponseCookie[] = [
    { name: "__Secure-sesame.session-token", value: "a.b.c", options: { httpOnly: true, sameSite: "lax", path: "/", secure: true, maxAge: 3600 } },
    { name: "sesame.callback-url", value: "http://localhost:3000/a b?c=d", options: { httpOnly: true, sameSite: "lax", path: "/", secure: false } },
    { name: "__Secure-sesame.state", value: "s", options: { httpOnly: true, sameSite: "none", path: "/", secure: true, partitioned: true, maxAge: 900 } },
    { name: "sesame.session-token", value: "", options: { path: "/", maxAge: 0 } },
    { name: "sesame.remembered-device", value: "r", options: { path: "/app", domain: "example.com", expires: new Date("2030-01-01T00:00:00Z") } },
  ]

  it("are the core's, whatever SvelteKit's defaults, with the value encoded alike", () => {
    const lines = setCookieLines(cookies)
    cookies.forEach(({ name, value }, i) => {
      const kit = serialize(name, value, { ...kitDefaults, ...cookieOptions(lines[i]!) })
      expect(kit.slice(0, kit.indexOf(";")), name).toBe(lines[i]!.slice(0, lines[i]!.indexOf(";")))
      expect(attributes(kit), name).toEqual(attributes(lines[i]!))
    })
  })
})
