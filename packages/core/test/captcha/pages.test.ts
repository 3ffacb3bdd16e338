/**
 * The captcha on the built-in pages: the widget in the forms of the flows it guards (and in no
 * other), the provider's script loaded with the page's nonce, and the Content-Security-Policy
 * allowing the provider's origins on those pages alone; every other page keeps its policy as it is
 * without a captcha, to the byte (but for the nonce).
 */
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import GitHub from "@sesame/core/providers/github"
import Password from "@sesame/core/providers/password"
import { describe, expect, it } from "vitest"
import { recordingEmail } from "../email/helpers.js"
import { secret, send } from "../helpers.js"

type Provider = "turnstile" | "hcaptcha" | "recaptcha-v2" | "recaptcha-v3"

const quiet = { error: () => {}, warn: () => {}, debug: () => {} }

function config(providers: AuthConfig["providers"], captcha?: AuthConfig["captcha"]): AuthConfig {
  return { secret, trustHost: true, adapter: MemoryAdapter(), providers, logger: quiet, ...(captcha ? { captcha } : {}) }
}
const password = () => Password({ sendEmail: () => {} })
const credentials = () => Credentials({ credentials: { username: { label: "Username" } }, authorize: () => null })
const all = () => [password(), recordingEmail().provider, credentials(), GitHub({ clientId: "id", clientSecret: "secret" })]
const captcha = (provider: Provider, on?: NonNullable<AuthConfig["captcha"]>["on"]) => ({ provider, siteKey: "site-key-1", secretKey: "secret-key-1", ...(on ? { on } : {}) })

/** Each provider's origins, by directive, as its documentation lists them. */
const expectedSources: Record<Provider, { script: string; frame: string; style?: string; connect?: string }> = {
  turnstile: { script: "https://challenges.cloudflare.com", frame: "https://challenges.cloudflare.com" },
  hcaptcha: {
    script: "https://hcaptcha.com https://*.hcaptcha.com",
    frame: "https://hcaptcha.com https://*.hcaptcha.com",
    style: "https://hcaptcha.com https://*.hcaptcha.com",
    connect: "https://hcaptcha.com https://*.hcaptcha.com",
  },
  "recaptcha-v2": { script: "https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/", frame: "https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/" },
  "recaptcha-v3": { script: "https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/", frame: "https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/" },
}

function expectedPolicy(provider: Provider, nonce: string, ownScript: boolean): string {
  const s = expectedSources[provider]
  const connect = [...(ownScript ? ["'self'"] : []), ...(s.connect ? [s.connect] : [])]
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'${s.style ? ` ${s.style}` : ""}`,
    `script-src 'nonce-${nonce}' ${s.script}`,
    ...(connect.length > 0 ? [`connect-src ${connect.join(" ")}`] : []),
    `frame-src ${s.frame}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ")
}

async function get(target: AuthConfig, path: string) {
  const response = await send(target, path)
  const policy = response.headers.get("content-security-policy") ?? ""
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1] ?? ""
  return { response, html: await response.text(), policy, nonce }
}

/** The forms of a page, each from `<form` to `</form>`. */
const forms = (html: string) => html.match(/<form[\s\S]*?<\/form>/g) ?? []

const widgetClass: Record<Provider, string | undefined> = { turnstile: "cf-turnstile", hcaptcha: "h-captcha", "recaptcha-v2": "g-recaptcha", "recaptcha-v3": undefined }

describe.each(["turnstile", "hcaptcha", "recaptcha-v2", "recaptcha-v3"] as const)("%s", (provider) => {
  const widget = widgetClass[provider]
  const marker = widget ? `<div class="${widget}" data-sitekey="site-key-1"` : `<input type="hidden" name="g-recaptcha-response" value="" data-sesame-recaptcha="site-key-1">`

  it("puts the widget in the sign-up and forgotten-password forms, with the provider's script under the nonce and its origins in the policy", async () => {
    const target = config([password()], captcha(provider))
    for (const path of ["/auth/signup", "/auth/forgot-password"]) {
      const { html, policy, nonce } = await get(target, path)
      expect(forms(html)).toHaveLength(1)
      expect(forms(html)[0]).toContain(marker)
      expect(policy).toBe(expectedPolicy(provider, nonce, provider === "recaptcha-v3"))
      const scripts = [...html.matchAll(/<script nonce="([^"]+)" src="([^"]+)" defer><\/script>/g)]
      expect(scripts.map((m) => m[1])).toEqual(scripts.map(() => nonce))
      expect(scripts[0]![2]).toMatch(/^https:\/\/(challenges\.cloudflare\.com\/turnstile\/v0\/api\.js|js\.hcaptcha\.com\/1\/api\.js\?hl=en|www\.google\.com\/recaptcha\/api\.js\?)/)
      if (provider === "recaptcha-v3") expect(scripts[1]![2]).toBe("/auth/captcha-script?v=1")
      expect(html).toContain("<noscript><p class=\"hint\">This form asks your browser to show that you’re a person")
    }
    // The "check your email" pages have no form, hence no widget and no other origin.
    for (const path of ["/auth/signup?sent=1", "/auth/forgot-password?sent=1"]) {
      const { policy } = await get(target, path)
      expect(policy).toMatch(/^default-src 'none'; style-src 'nonce-[\w-]+'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'$/)
    }
  })

  it("puts it in the sign-in page's password, email and credentials forms, not in an OAuth button's", async () => {
    const target = config(all(), captcha(provider))
    const { html, policy, nonce } = await get(target, "/auth/signin")
    const [address, ...rest] = forms(html)
    // The password and the email provider share the address form: one widget in it.
    expect(address).toContain('action="http://localhost:3000/auth/callback/password"')
    expect(address!.split(marker)).toHaveLength(2)
    const credentialsForm = rest.find((f) => f.includes("/auth/callback/credentials"))!
    const oauthForm = rest.find((f) => f.includes("/auth/signin/github"))!
    expect(credentialsForm).toContain(marker)
    expect(oauthForm).not.toContain(marker)
    expect(policy).toBe(expectedPolicy(provider, nonce, provider === "recaptcha-v3"))
  })
})

describe("pages without a widget keep their policy", () => {
  const normalized = (policy: string) => policy.replace(/'nonce-[^']+'/g, "'nonce-N'")

  it("to the byte, with the captcha on for other flows or not at all", async () => {
    const plain = config(all())
    const signUpOnly = config(all(), captcha("hcaptcha", ["sign-up"]))
    const signInOnly = config(all(), captcha("turnstile", ["sign-in"]))
    for (const path of ["/auth/signout", "/auth/error?error=Verification", "/auth/verify-request?provider=email&type=email"]) {
      const before = normalized((await get(plain, path)).policy)
      expect(before).toMatch(/^default-src 'none'/)
      expect(normalized((await get(signUpOnly, path)).policy), path).toBe(before)
      expect(normalized((await get(signInOnly, path)).policy), path).toBe(before)
    }
    // The sign-in page with only sign-up guarded: no widget there, so no other origin.
    const signIn = await get(signUpOnly, "/auth/signin")
    expect(normalized(signIn.policy)).toBe(normalized((await get(plain, "/auth/signin")).policy))
    expect(signIn.html).not.toMatch(/hcaptcha/)
    // The forgotten-password page with only sign-in guarded.
    const forgot = await get(signInOnly, "/auth/forgot-password")
    expect(normalized(forgot.policy)).toBe(normalized((await get(plain, "/auth/forgot-password")).policy))
    expect(forgot.html).not.toContain("cf-turnstile")
    // No provider's origin anywhere without a captcha.
    for (const path of ["/auth/signin", "/auth/signup", "/auth/forgot-password"]) {
      expect((await get(plain, path)).policy).not.toMatch(/cloudflare|hcaptcha|google|gstatic/)
    }
  })

  it("the sign-in page with OAuth alone shows no widget and allows no other origin", async () => {
    const target = config([GitHub({ clientId: "id", clientSecret: "secret" })], captcha("turnstile"))
    const { policy, html } = await get(target, "/auth/signin")
    expect(policy).toMatch(/^default-src 'none'; style-src 'nonce-[\w-]+'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'$/)
    expect(html).not.toContain("turnstile")
  })
})

describe("GET captcha-script", () => {
  it("serves reCAPTCHA v3's script, and nothing for the other providers", async () => {
    const v3 = await send(config([password()], captcha("recaptcha-v3")), "/auth/captcha-script?v=1")
    expect(v3.status).toBe(200)
    expect(v3.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    expect(v3.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    expect(await v3.text()).toContain("grecaptcha.execute")
    expect((await send(config([password()], captcha("turnstile")), "/auth/captcha-script?v=1")).status).toBe(404)
    expect((await send(config([password()]), "/auth/captcha-script?v=1")).status).toBe(404)
  })
})
