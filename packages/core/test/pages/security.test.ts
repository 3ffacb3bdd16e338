/**
 * The pages' own Content-Security-Policy, and escaping of everything that reaches their HTML.
 * (The browser tests check the same in Chromium: no CSP violation, no script run.)
 */
import { describe, expect, it } from "vitest"
import type { AuthConfig } from "@sesame/core"
import { jwtConfig, origin, send } from "../helpers.js"
import { credentialsProvider, emailProvider, oauthProvider, oidcProvider, passwordLinks, passwordSetup, renderSignIn } from "./fixtures.js"

const pagePaths = ["/auth/signin?error=CredentialsSignin", "/auth/signout", "/auth/error?error=Verification", "/auth/verify-request"]

/** The password provider's pages (the two links' pages are added once the emails are sent). */
const passwordPagePaths = ["/auth/signup", "/auth/signup?sent=1", "/auth/signup?error=too-short", "/auth/forgot-password", "/auth/forgot-password?sent=1", "/auth/signin?notice=PasswordReset"]

function directives(policy: string): Map<string, string> {
  return new Map(policy.split(";").map((d) => d.trim().split(/\s+(.*)/s) as [string, string]))
}

describe("Content-Security-Policy", () => {
  it("allows only the page's own style element (by nonce), same-origin and data: images, and no framing", async () => {
    const broken: AuthConfig = { ...jwtConfig(), session: { strategy: "database" }, logger: { error: () => {} } }
    const password = passwordSetup()
    const links = await passwordLinks(password, origin, "ada@example.com")
    const passwordPages = await Promise.all([...passwordPagePaths, links.reset, links.verify].map((p) => send(password.config, p)))
    expect(passwordPages.map((res) => res.status)).toEqual(passwordPages.map(() => 200))
    const responses = [...(await Promise.all(pagePaths.map((p) => send(jwtConfig(), p)))), await send(broken, "/auth/signin"), ...passwordPages]
    for (const res of responses) {
      const policy = res.headers.get("content-security-policy")!
      const html = await res.text()
      const nonce = /<style nonce="([A-Za-z0-9_-]{24})">/.exec(html)?.[1]
      expect(nonce, policy).toBeDefined()
      expect(Object.fromEntries(directives(policy))).toEqual({
        "default-src": "'none'",
        "style-src": `'nonce-${nonce}'`,
        "img-src": "'self' data:",
        "base-uri": "'none'",
        "frame-ancestors": "'none'",
      })
      expect(policy).not.toContain("unsafe")
      expect(res.headers.get("x-frame-options")).toBe("DENY")
      expect(res.headers.get("x-content-type-options")).toBe("nosniff")
      expect(res.headers.get("referrer-policy")).toBe("strict-origin")
      expect(res.headers.get("cache-control")).toBe("private, no-cache, no-store")
      // No script of any kind, no inline style or event handler for a policy to allow.
      expect(html).not.toMatch(/<script|\sstyle=|\son[a-z]+=|javascript:/i)
    }
  })

  it("uses a fresh nonce for every response", async () => {
    const nonces = new Set<string>()
    for (let i = 0; i < 5; i++) nonces.add((await send(jwtConfig(), "/auth/signin")).headers.get("content-security-policy")!)
    expect(nonces.size).toBe(5)
  })
})

const script = "<script>window.__xss=1</script>"
const breakout = `"><img src=x onerror="window.__xss=1">`
const single = `'><svg onload='window.__xss=1'>`

/** The payloads, escaped as the template escapes them. */
function escaped(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;")
}

/** No markup from any payload made it into the page as markup. */
function expectInert(html: string) {
  expect(html).not.toContain("<script>")
  expect(html).not.toContain("<img src=x")
  expect(html).not.toContain("<svg onload")
  // Escaped payloads may still read "onerror=" as text or inside a quoted value; what matters is
  // that no tag has such an attribute of its own. Quoted values hold no `"` (it is escaped).
  const attributeNames = [...html.matchAll(/<[a-z][^>]*>/gi)].map((tag) => tag[0].replace(/="[^"]*"/g, "")).join(" ")
  expect(attributeNames).not.toMatch(/\son[a-z]+/i)
}

describe("escaping", () => {
  it("?error= is never echoed, whatever it holds", async () => {
    for (const payload of [script, breakout, single]) {
      const html = await (await send(jwtConfig(), `/auth/signin?error=${encodeURIComponent(payload)}`)).text()
      expectInert(html)
      expect(html).not.toContain("__xss")
      expect(html).toContain("Something went wrong while signing in.")
      const error = await (await send(jwtConfig(), `/auth/error?error=${encodeURIComponent(payload)}`)).text()
      expectInert(error)
      expect(error).not.toContain("__xss")
    }
  })

  it("?email= lands escaped in the email field's value", async () => {
    for (const payload of [breakout, single, script]) {
      const html = await renderSignIn(new Request(`${origin}/?email=${encodeURIComponent(payload)}`), {
        authUrl: `${origin}/auth`,
        providers: [emailProvider()],
      }).text()
      expectInert(html)
      expect(html).toContain(`value="${escaped(payload)}">`)
    }
  })

  it("a callback URL lands escaped in hidden fields and links", async () => {
    // The default redirect callback normalises URLs (percent-encoding quotes and brackets in most
    // places); an app's callback may return anything http(s), so the page must escape it itself.
    const payload = `${origin}/'x"><script>window.__xss=1</script>`
    const config = jwtConfig({ callbacks: { redirect: () => payload } })
    for (const path of ["/auth/signin", "/auth/signout"]) {
      const html = await (await send(config, `${path}?callbackUrl=%2F`)).text()
      expectInert(html)
      const normalised = new URL(payload).href
      expect(html).toContain(`name="callbackUrl" value="${escaped(normalised)}"`)
    }
    const direct = await renderSignIn(new Request(`${origin}/?callbackUrl=${encodeURIComponent(`https://x.example/"${breakout}`)}`), {
      authUrl: `${origin}/auth`,
    }).text()
    expectInert(direct)
    expect(direct).toContain(`name="callbackUrl" value="${escaped(`https://x.example/"${breakout}`)}"`)
  })

  it("provider names, credential labels, placeholders, names and values land escaped", async () => {
    const config = jwtConfig({
      providers: [
        {
          ...credentialsProvider(`${script}${breakout}`),
          credentials: {
            [`user${breakout}`]: { label: script, placeholder: breakout, autocomplete: single, value: breakout },
            password: { label: single, type: `password${breakout}` },
          },
        },
      ],
    })
    const html = await (await send(config, "/auth/signin")).text()
    expectInert(html)
    expect(html).toContain(`Sign in with ${escaped(script + breakout)}</button>`)
    expect(html).toContain(`<label for="provider-0-field-0">${escaped(script)}</label>`)
    expect(html).toContain(`name="user${escaped(breakout)}" type="text" placeholder="${escaped(breakout)}" autocomplete="${escaped(single)}" value="${escaped(breakout)}">`)
    expect(html).toContain(`name="password" type="text">`)

    const direct = await renderSignIn(new Request(origin), {
      authUrl: `${origin}/auth`,
      providers: [
        oauthProvider({ name: script, style: { brandColor: `red;}</style>${script}`, logo: `javascript:window.__xss=1` } }),
        oidcProvider({ name: breakout, style: { bg: "red}body{display:none", logo: `/logo.svg${breakout}` } }),
        emailProvider({ name: single }),
      ],
    }).text()
    expectInert(direct)
    expect(direct).toContain(`Sign in with ${escaped(script)}</span>`)
    expect(direct).toContain(`Sign in with ${escaped(breakout)}</span>`)
    expect(direct).toContain(`Sign in with ${escaped(single)}</button>`)
    expect(direct).not.toContain("javascript:")
    expect(direct).not.toContain("body{display:none")
    expect(direct).not.toMatch(/<\/style>[\s\S]*<\/style>/)
  })

  it("the password pages: ?email= and a link's token land escaped; a link with an address it could not have is refused", async () => {
    const { config } = passwordSetup()
    for (const payload of [breakout, single, script]) {
      const value = encodeURIComponent(payload)
      for (const path of [`/auth/signup?email=${value}`, `/auth/signup?error=too-short&email=${value}`, `/auth/forgot-password?email=${value}`]) {
        const html = await (await send(config, path)).text()
        expectInert(html)
        expect(html, path).toContain(`value="${escaped(payload)}">`)
      }
      // A link's page posts its token back without checking it (opening it consumes nothing)…
      for (const path of [`/auth/reset-password/password?token=${value}&email=ada%40example.com`, `/auth/verify-email/password?token=${value}&email=ada%40example.com`]) {
        const res = await send(config, path)
        expect(res.status, path).toBe(200)
        const html = await res.text()
        expectInert(html)
        expect(html, path).toContain(`<input type="hidden" name="token" value="${escaped(payload)}">`)
      }
      // …but shows no address that the provider could not have sent to.
      for (const path of [`/auth/reset-password/password?token=abc&email=${value}`, `/auth/verify-email/password?token=abc&email=${value}`]) {
        const res = await send(config, path)
        expect(res.headers.get("location"), path).toBe(`${origin}/auth/error?error=Verification`)
        expect(await res.text()).not.toContain("__xss")
      }
    }
  })

  it("a message override is text, not markup", async () => {
    const config = jwtConfig({ messages: { en: { "signin.heading": script, "signin.with": `{provider} ${breakout}` } } })
    const html = await (await send(config, "/auth/signin")).text()
    expectInert(html)
    expect(html).toContain(`<h1>${escaped(script)}</h1>`)
    expect(html).toContain(`<title>${escaped(script)}</title>`)
  })
})
