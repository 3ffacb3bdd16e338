/**
 * Every built-in provider: a complete configuration that Sesame accepts, options that override
 * its defaults, a logo that the sign-in page shows, and a profile callback that maps the service's
 * documented profile to the user.
 */
import type { OAuthConfig } from "@sesame/core"
import { describe, expect, it } from "vitest"
import { resolveOAuthProvider } from "../../src/oauth/provider.js"
import { isSafeImageSource } from "../../src/pages/theme.js"
import { emailProviders, oauthProviders } from "../../src/providers/lib/catalogue.js"
import { samples } from "./samples.js"

/** The services hosted per customer or per server: their issuer comes from the options or AUTH_<ID>_ISSUER. */
const multiTenant = ["auth0", "authentik", "cognito", "fusionauth", "keycloak", "kinde", "mastodon", "microsoft-entra-id", "okta", "onelogin", "ping-id", "zitadel"]

const oauthEntries = Object.entries(oauthProviders) as [keyof typeof oauthProviders, (options?: object) => OAuthConfig][]
const emailEntries = Object.entries(emailProviders)

/** The SVG inside a `data:image/svg+xml,` URL. */
function svgOf(logo: string): string {
  expect(logo.startsWith("data:image/svg+xml,")).toBe(true)
  return decodeURIComponent(logo.slice("data:image/svg+xml,".length))
}

/** Checks that `svg` is one well-formed SVG element tree (tags balanced, attributes quoted), with nothing active in it. */
function expectWellFormedSvg(svg: string) {
  expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*viewBox="0 0 24 24"[^>]*>/)
  expect(svg).not.toMatch(/<script|on\w+=|href=|<image|<foreignObject|url\(/i)
  const stack: string[] = []
  for (const [, closing, name, attributes, selfClosing] of svg.matchAll(/<(\/?)([a-zA-Z]+)((?:\s+[a-zA-Z:-]+="[^"]*")*)\s*(\/?)>/g)) {
    expect(attributes).not.toMatch(/[<>]/)
    if (closing) expect(stack.pop()).toBe(name)
    else if (!selfClosing) stack.push(name!)
  }
  expect(stack).toEqual([])
  // Nothing outside tags but the monogram's text.
  expect(svg.replace(/<[^>]*>/g, "")).toMatch(/^[A-Za-z0-9.+]{1,2}$/)
}

describe("the catalogue", () => {
  it("has at least 40 OAuth/OIDC providers with lowercase hyphenated ids, each in its own module", () => {
    expect(oauthEntries.length).toBeGreaterThanOrEqual(40)
    for (const [id, factory] of oauthEntries) {
      expect(id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
      expect(factory().id).toBe(id)
    }
  })

  it("has a sample profile for every provider (and none for a provider that does not exist)", () => {
    expect(Object.keys(samples).sort()).toEqual(oauthEntries.map(([id]) => id).sort())
  })

  it("lists exactly the per-customer services as having no default issuer", () => {
    expect(oauthEntries.filter(([, factory]) => factory().issuer === undefined && factory().type === "oidc" || factory().id === "mastodon").map(([id]) => id).sort()).toEqual(multiTenant)
  })
})

describe.each(oauthEntries)("%s", (id, factory) => {
  const config = factory()

  it("is complete: id, name, kind, endpoints or issuer, and Sesame accepts it", () => {
    expect(config.name).toMatch(/\S/)
    expect(["oauth", "oidc"]).toContain(config.type)
    if (config.type === "oidc") expect(config.issuer !== undefined || multiTenant.includes(id)).toBe(true)
    else for (const endpoint of [config.authorization, config.token, config.userinfo]) expect(endpoint).toBeDefined()
    const issuer = config.issuer ?? (multiTenant.includes(id) ? "https://tenant.example" : undefined)
    const resolved = resolveOAuthProvider({ ...config, clientId: "client-id", clientSecret: "client-secret", issuer }, undefined)
    expect(resolved.id).toBe(id)
    if (resolved.type === "oauth") {
      expect(resolved.authorization.url?.protocol).toBe("https:")
      expect(resolved.token.url ?? resolved.token.request).toBeDefined()
      expect(resolved.userinfo.url ?? resolved.userinfo.request).toBeDefined()
    } else {
      expect(resolved.discovery).toBe(true)
    }
  })

  it("has a brand colour and a monogram logo the sign-in page accepts", () => {
    expect(config.style?.brandColor).toMatch(/^#[0-9a-f]{6}$/)
    const logo = config.style?.logo ?? ""
    expect(isSafeImageSource(logo)).toBe(true)
    expect(logo.length).toBeLessThan(1200)
    expectWellFormedSvg(svgOf(logo))
  })

  it("takes options over its defaults and keeps the rest", () => {
    const profile = () => ({ id: "custom" })
    const custom = factory({
      clientId: "my-id",
      clientSecret: "my-secret",
      issuer: "https://custom-issuer.example",
      checks: ["state"],
      authorization: { params: { scope: "custom-scope", prompt: "consent" } },
      profile,
      style: { brandColor: "#123456" },
      allowDangerousEmailAccountLinking: true,
    })
    expect(custom).toMatchObject({ id, type: config.type, clientId: "my-id", clientSecret: "my-secret", issuer: "https://custom-issuer.example", checks: ["state"] })
    expect(custom.profile).toBe(profile)
    expect(custom.allowDangerousEmailAccountLinking).toBe(true)
    expect(custom.style).toEqual({ ...config.style, brandColor: "#123456" })
    const authorization = custom.authorization
    expect(typeof authorization === "object" && authorization.params).toMatchObject({ scope: "custom-scope", prompt: "consent" })
    const defaults = typeof config.authorization === "object" ? config.authorization : { url: config.authorization }
    if (typeof authorization === "object") {
      expect(authorization.url).toBe(defaults.url)
      // The other default parameters stay.
      for (const [key, value] of Object.entries(defaults.params ?? {})) if (key !== "scope") expect(authorization.params?.[key]).toEqual(value)
    }
    // An option passed as undefined keeps the default.
    expect(factory({ checks: undefined, name: undefined })).toMatchObject({ checks: config.checks, name: config.name })
  })

  it("maps a realistic profile to { id, name, email, image }", async () => {
    const sample = samples[id]
    expect(config.profile).toBeTypeOf("function")
    const user = await config.profile!(sample.profile, { access_token: "at", token_type: "bearer" })
    expect(user).toEqual(sample.user)
  })
})

describe.each(emailEntries)("email provider %s", (id, factory) => {
  it("is complete and takes options over its defaults", () => {
    const config = factory()
    expect(config).toMatchObject({ id, type: "email", maxAge: 86400 })
    expect(config.name).toMatch(/\S/)
    expect(config.sendVerificationRequest).toBeTypeOf("function")
    expect(factory({ from: "Acme <a@acme.example>", apiKey: "k", maxAge: 600, id: "mail" })).toMatchObject({
      id: "mail",
      type: "email",
      from: "Acme <a@acme.example>",
      apiKey: "k",
      maxAge: 600,
    })
  })
})

describe("per-server endpoints", () => {
  it("Mastodon's endpoints are paths under the issuer, which may come from the environment", () => {
    const resolved = resolveOAuthProvider({ ...oauthProviders.mastodon(), clientId: "id", clientSecret: "secret", issuer: "https://mastodon.example/" }, undefined)
    expect(resolved.authorization.url?.href).toBe("https://mastodon.example/oauth/authorize")
    expect(resolved.token.url?.href).toBe("https://mastodon.example/oauth/token")
    expect(resolved.userinfo.url?.href).toBe("https://mastodon.example/api/v1/accounts/verify_credentials")
    // Every endpoint is set: nothing to discover.
    expect(resolved.discovery).toBe(false)
    expect(() => resolveOAuthProvider({ ...oauthProviders.mastodon(), clientId: "id", clientSecret: "secret" }, undefined)).toThrow(/path under the `issuer`.*AUTH_MASTODON_ISSUER/)
  })
})
