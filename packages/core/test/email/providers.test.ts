/**
 * The providers and their options: what `sendVerificationRequest` receives, the address rules, the
 * overridable token and normaliser, and the configuration errors.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { Auth, type AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Email, { normalizeEmail } from "@sesame/core/providers/email"
import Nodemailer from "@sesame/core/providers/nodemailer"
import { origin, secret } from "../helpers.js"
import { CookieJar, emailConfig, followLink, lastLink, recordingEmail, requestLink } from "./helpers.js"

describe("the generic Email provider", () => {
  it("gives sendVerificationRequest { identifier, url, expires, provider, token, theme, request } and the built-in message", async () => {
    const { provider, sent } = recordingEmail()
    const { config } = emailConfig([provider], { theme: { brandColor: "#123456" } })
    const before = Date.now()
    await requestLink(config, new CookieJar(), "ada@example.com", { headers: { "accept-language": "de" } })
    expect(sent).toHaveLength(1)
    const params = sent[0]!
    expect(Object.keys(params).sort()).toEqual(["expires", "identifier", "message", "provider", "request", "theme", "token", "url"])
    expect(params.identifier).toBe("ada@example.com")
    expect(params.url).toBe(
      `${origin}/auth/callback/email?${new URLSearchParams({ callbackUrl: `${origin}/`, token: params.token, email: "ada@example.com" })}`,
    )
    expect(params.expires.getTime()).toBeGreaterThanOrEqual(before + 86_400_000)
    expect(params.expires.getTime()).toBeLessThanOrEqual(Date.now() + 86_400_000)
    expect(params.provider).toMatchObject({ id: "email", type: "email", name: "Email", maxAge: 86_400 })
    expect(params.theme).toMatchObject({ brandColor: "#123456" })
    expect(params.request).toBeInstanceOf(Request)
    expect(params.request.url).toBe(`${origin}/auth/signin/email`)
    expect(params.message.subject).toBe("Anmeldung bei localhost:3000")
    expect(params.message.text).toContain(params.url)
    expect(params.message.html).toContain("#123456")
  })

  it("escapes everything in the built-in HTML, app texts included", async () => {
    const { provider, sent } = recordingEmail()
    const { config } = emailConfig([provider], { messages: { en: { "email.button": "<b>Go</b> & sign in" } } })
    await requestLink(config, new CookieJar(), "o'brien@example.com", { callbackUrl: "/a?x=1&y=<2>" })
    const { html, text } = sent[0]!.message
    expect(html).toContain("&lt;b&gt;Go&lt;/b&gt; &amp; sign in")
    expect(html).not.toContain("<b>Go</b>")
    const href = /<a href="([^"]+)"/.exec(html)![1]!
    expect(href).not.toMatch(/[<>"']/)
    expect(href.replace(/&amp;/g, "&")).toBe(sent[0]!.url)
    expect(text).toContain(sent[0]!.url)
  })

  it("uses generateVerificationToken and normalizeIdentifier when given", async () => {
    const { provider, sent } = recordingEmail({
      generateVerificationToken: () => "custom-token-0123456789-abcdefghijklmnop",
      normalizeIdentifier: (identifier) => `${identifier.trim().toLowerCase().split("+")[0]}@example.com`,
    })
    const { config } = emailConfig([provider])
    await requestLink(config, new CookieJar(), " Ada+news ")
    expect(sent[0]).toMatchObject({ identifier: "ada@example.com", token: "custom-token-0123456789-abcdefghijklmnop" })
    expect(new URL(sent[0]!.url).searchParams.get("token")).toBe("custom-token-0123456789-abcdefghijklmnop")
    expect((await followLink(config, new CookieJar(), lastLink(sent))).headers.get("location")).toBe(`${origin}/`)
  })

  it("a generator or normaliser that returns nothing usable is a configuration error, and nothing is sent", async () => {
    for (const options of [{ generateVerificationToken: () => "" }, { generateVerificationToken: () => "x".repeat(513) }, { normalizeIdentifier: () => "" }]) {
      const { provider, sent } = recordingEmail(options)
      const { config, adapter, logs } = emailConfig([provider])
      const res = await requestLink(config, new CookieJar(), "ada@example.com")
      expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("Configuration")
      expect(sent).toEqual([])
      expect(adapter.tables.verificationTokens.size).toBe(0)
      expect(logs.join("\n")).toMatch(/must return a (non-empty )?string/)
    }
  })

  it("keys the stored hash with the provider's own secret when it has one", async () => {
    const token = "same-token-0123456789-abcdefghijklmnopqrs"
    const hashes: string[] = []
    for (const providerSecret of [undefined, "provider-secret-0123456789-abcdefghijk"]) {
      const { provider, sent } = recordingEmail({ generateVerificationToken: () => token, secret: providerSecret })
      const { config, adapter } = emailConfig([provider])
      await requestLink(config, new CookieJar(), "ada@example.com")
      hashes.push([...adapter.tables.verificationTokens.values()][0]!.token)
      expect((await followLink(config, new CookieJar(), lastLink(sent))).headers.get("location")).toBe(`${origin}/`)
    }
    expect(hashes[0]).not.toBe(hashes[1])
  })
})

describe("addresses", () => {
  it("are trimmed and lower-cased", () => {
    expect(normalizeEmail("  Ada.Lovelace+Tag@Example.COM ")).toBe("ada.lovelace+tag@example.com")
    expect(normalizeEmail("ｕｓｅｒ@example.com")).toBe("user@example.com")
    expect(normalizeEmail("élodie@exemple.fr")).toBe("élodie@exemple.fr")
    expect(normalizeEmail("dev@localhost")).toBe("dev@localhost")
  })

  it.each([
    ["", /missing/],
    ['"a@b"@example.com', /quote/],
    ["a@b@example.com", /exactly one @/],
    ["ada.example.com", /exactly one @/],
    ["ada@example.com,eve@evil.example", /comma/],
    ["ada@example,com", /comma/],
    ["ada@example.com;eve@evil.example", /comma or semicolon/],
    ["Ada <ada@example.com>", /not allowed|space/],
    ["ada(comment)@example.com", /not allowed/],
    ["ada@[127.0.0.1]", /not allowed/],
    ["ada @example.com", /space/],
    ["ada@exa\u0000mple.com", /control/],
    ["ada\r\nbcc:eve@evil.example", /space|control/],
    ["@example.com", /nothing before/],
    ["ada@", /no domain/],
    [".ada@example.com", /plain mailbox/],
    ["a..da@example.com", /plain mailbox/],
    ["ada@-example.com", /host name/],
    ["ada@example..com", /host name/],
    [`${"a".repeat(65)}@example.com`, /longer than 64/],
    [`ada@${"a".repeat(250)}.com`, /longer than 254/],
  ])("refuses %j with a clear reason", (address, reason) => {
    expect(() => normalizeEmail(address)).toThrow(reason)
  })

  it("a malformed address is refused before anything happens: EmailSignin, no email, no token, the reason logged", async () => {
    const { provider, sent } = recordingEmail()
    const { config, adapter, logs } = emailConfig([provider])
    for (const email of ['"a@b"@example.com', "ada@example.com,eve@evil.example", "a@b@example.com"]) {
      const res = await requestLink(config, new CookieJar(), email)
      const location = new URL(res.headers.get("location")!)
      expect(location.pathname).toBe("/auth/signin")
      expect(location.searchParams.get("error")).toBe("EmailSignin")
    }
    expect(sent).toEqual([])
    expect(adapter.tables.verificationTokens.size).toBe(0)
    expect(logs.join("\n")).toMatch(/refused the address[\s\S]*contains a quote/)
    // No address at all is refused the same way.
    const token = new CookieJar()
    const res = await requestLink(config, token, "")
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("EmailSignin")
  })
})

describe("configuration", () => {
  async function configurationError(config: AuthConfig, logs: string[]) {
    const res = await Auth(new Request(`${origin}/auth/providers`), config)
    expect(res.status).toBe(500)
    return logs.join("\n")
  }

  function withLogs(config: Omit<AuthConfig, "logger">) {
    const logs: string[] = []
    return { config: { ...config, logger: { error: (e: Error) => void logs.push(`${e.name} ${e.message}`) } }, logs }
  }

  it.each([
    ["maxAge: 0", { maxAge: 0 }, /maxAge/],
    ["rateLimit.perAddress: 0", { rateLimit: { perAddress: 0 } }, /rateLimit.perAddress/],
    ["rateLimit.perIp: 2.5", { rateLimit: { perIp: 2.5 } }, /rateLimit.perIp/],
    ["rateLimit.window: -1", { rateLimit: { window: -1 } }, /rateLimit.window/],
    ["a store without increment", { rateLimit: { store: {} } }, /rateLimit.store/],
    ["a string as generateVerificationToken", { generateVerificationToken: "abc" }, /generateVerificationToken/],
    ["no sendVerificationRequest", { sendVerificationRequest: undefined }, /sendVerificationRequest/],
  ])("refuses %s, naming the option", async (_label, options, message) => {
    const { config, logs } = withLogs({ secret, trustHost: true, adapter: MemoryAdapter(), providers: [{ ...Email({ sendVerificationRequest() {} }), ...(options as object) }] })
    expect(await configurationError(config, logs)).toMatch(message)
  })

  it("needs an adapter", async () => {
    const { config, logs } = withLogs({ secret, trustHost: true, providers: [Email({ sendVerificationRequest() {} })] })
    expect(await configurationError(config, logs)).toMatch(/MissingAdapter[\s\S]*"email"/)
  })

  it("lists both providers with their URLs", async () => {
    const { config } = emailConfig([Email({ sendVerificationRequest() {} }), Nodemailer({ server: "smtp://127.0.0.1:2525" })])
    const providers = await (await Auth(new Request(`${origin}/auth/providers`), config)).json()
    expect(providers).toEqual({
      email: { id: "email", name: "Email", type: "email", signinUrl: `${origin}/auth/signin/email`, callbackUrl: `${origin}/auth/callback/email` },
      nodemailer: {
        id: "nodemailer",
        name: "Email",
        type: "email",
        signinUrl: `${origin}/auth/signin/nodemailer`,
        callbackUrl: `${origin}/auth/callback/nodemailer`,
      },
    })
  })

  it("Nodemailer loads nodemailer only when it sends (nothing of it on import, for edge runtimes)", () => {
    const source = readFileSync(join(import.meta.dirname, "..", "..", "src", "providers", "nodemailer.ts"), "utf8")
    expect(source).not.toMatch(/^import\s[^;]*["']nodemailer["']/m)
    expect(source).toContain('import("nodemailer")')
  })

  it("Nodemailer needs a server, and keeps it on the provider", () => {
    expect(Nodemailer({ server: { host: "127.0.0.1", port: 2525 } }).server).toEqual({ host: "127.0.0.1", port: 2525 })
    expect(() => Nodemailer({} as Parameters<typeof Nodemailer>[0])).toThrow(/`server` must be an SMTP URL/)
  })

  it("the sign-in page shows the email form and posts it to signin/:provider", async () => {
    const { config } = emailConfig([Email({ sendVerificationRequest() {} })])
    const page = await (await Auth(new Request(`${origin}/auth/signin`), config)).text()
    expect(page).toContain(`action="${origin}/auth/signin/email"`)
    expect(page).toContain('name="email" type="email"')
  })
})
