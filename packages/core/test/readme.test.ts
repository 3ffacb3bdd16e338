/**
 * The code blocks of the documentation's pages (docs/) and of this package's README, extracted
 * and run as written: each block's `<!-- example: name (exercised by this file) -->` marker names
 * it, and `page()` says on which page of the site it is.
 */
import { once } from "node:events"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { spawn } from "node:child_process"
import { createServer, request as httpRequest, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { afterAll, describe, expect, it, vi } from "vitest"
import { startDevIdp } from "@sesame/dev-idp"
import { callModuleApi, type AuthConfig, type ModuleRequest, type SesameModule } from "@sesame/core"
import { MemoryAdapter, type MemoryAdapterInstance } from "@sesame/core/adapters"
import { toNodeHandler } from "@sesame/core/node"
import { argon2id } from "@sesame/core/password"
import { SoftAuthenticator, type CreationOptionsJSON } from "@sesame/testing"
import { aliceCredentials, CookieJar, csrfToken, secret, send, signInAlice } from "./helpers.js"
import { accounts, client, clientSecret, session, signIn } from "./oauth/harness.js"
import { storePassword } from "../src/password/storage.js"

const root = join(import.meta.dirname, "..", "..", "..")
const scratch = join(import.meta.dirname, ".scratch")

/** The examples of the documentation site's pages, by the page that holds them (docs/<path>). */
const pages: Record<string, string> = {
  "quick-start": "start/node.md",
  "node-handler": "start/node.md",
  messages: "features/pages.md",
  plugin: "features/plugins.md",
  "user-fields": "features/user-fields.md",
  "session-management": "concepts/sessions.md",
  "jwt-revocation": "concepts/sessions.md",
  "account-management": "concepts/accounts.md",
  "password-accounts": "features/passwords.md",
  "password-without-mail": "features/passwords.md",
  "two-factor": "features/two-factor.md",
  "email-codes": "features/email.md",
  "api-tokens": "features/api-tokens.md",
  "native-apps": "features/native-apps.md",
}

/** The page of docs/ that holds the example `name`. */
function docPage(name: string): string {
  const path = pages[name]
  if (!path) throw new Error(`no page is known for the example "${name}"`)
  return join(root, "docs", path)
}

/** The code block that follows `<!-- example: <name> ... -->` in a Markdown file. */
export function readmeExample(file: string, name: string): string {
  const text = readFileSync(file, "utf8")
  const marker = text.indexOf(`<!-- example: ${name}`)
  if (marker === -1) throw new Error(`no example "${name}" in ${file}`)
  const match = /```(?:ts|typescript)\n([\s\S]*?)```/.exec(text.slice(marker))
  if (!match) throw new Error(`example "${name}" has no code block`)
  return match[1]!
}

/** Writes the example `name` of `readme` to a scratch module and imports it, with AUTH_SECRET set. */
async function importExample(readme: string, name: string): Promise<Record<string, unknown>> {
  vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
  mkdirSync(scratch, { recursive: true })
  const file = join(scratch, `${name}.ts`)
  writeFileSync(file, readmeExample(readme, name))
  return import(file)
}

afterAll(() => {
  vi.unstubAllEnvs()
})

/** A request to `url` over HTTP with the given Host header (fetch cannot set it), as a web Response. */
function throughHost(url: string, host: string, cookie: string, init: { method?: string; body?: string }): Promise<Response> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host, cookie }
    if (init.body) headers["content-type"] = "application/x-www-form-urlencoded"
    const req = httpRequest(url, { method: init.method ?? "GET", headers }, (res) => {
      const chunks: Buffer[] = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => {
        const out = new Headers()
        for (let i = 0; i < res.rawHeaders.length; i += 2) out.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!)
        resolve(new Response(res.statusCode === 302 ? null : Buffer.concat(chunks), { status: res.statusCode!, headers: out }))
      })
    })
    req.on("error", reject)
    req.end(init.body)
  })
}

/** Calls an example app like a browser on http://localhost:3000 would, keeping its cookies. */
function browserOf(app: { fetch: (r: Request) => Promise<Response> }) {
  const jar = new CookieJar()
  return async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    headers.set("cookie", jar.header())
    const res = await app.fetch(new Request(`http://localhost:3000${path}`, { ...init, headers }))
    jar.apply(res)
    return res
  }
}

describe("package README: getToken", () => {
  it("runs as written: 401 without a session, the user id with one", async () => {
    const { handler } = (await importExample(join(root, "packages", "core", "README.md"), "get-token")) as {
      handler: (r: Request) => Promise<Response>
    }
    expect((await handler(new Request("http://localhost:3000/api/me"))).status).toBe(401)
    const config = { trustHost: true, providers: [aliceCredentials()] }
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const res = await handler(new Request("http://localhost:3000/api/me", { headers: { cookie: jar.header() } }))
    expect(await res.json()).toEqual({ userId: "1" })
  })
})

describe("docs: a plugin's page", () => {
  it("greets the signed-in user in their language, and its form passes the CSRF check", async () => {
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, "plugin-page.ts")
    writeFileSync(file, readmeExample(docPage("plugin"), "plugin-page"))
    const { greeting } = (await import(file)) as { greeting: () => SesameModule }
    const config: AuthConfig = { secret, trustHost: true, providers: [aliceCredentials()], plugins: [greeting()] }
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const response = await send(config, "/auth/greeting", { jar, headers: { "accept-language": "fr" } })
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'")
    const body = await response.text()
    expect(body).toContain("<h1>Bonjour, Alice</h1>")
    const csrf = /name="csrfToken" value="([^"]+)"/.exec(body)![1]!
    const reply = await send(config, "/auth/greeting/reply", { jar, form: { csrfToken: csrf } })
    expect(reply.headers.get("location")).toBe("http://localhost:3000/")
  })
})

describe("docs: a plugin's secrets at rest", () => {
  it("seals a webhook's secret and reads it back, as written; another app's secret opens nothing", async () => {
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, "plugin-sealing.ts")
    writeFileSync(file, readmeExample(docPage("plugin"), "plugin-sealing"))
    const { saveWebhookSecret, webhookSecret } = (await import(file)) as {
      saveWebhookSecret: (request: ModuleRequest, secret: string) => Promise<string>
      webhookSecret: (request: ModuleRequest, sealed: string) => Promise<string | null>
    }
    const webhooks = (appSecret: string): AuthConfig => ({
      secret: appSecret,
      trustHost: true,
      providers: [aliceCredentials()],
      plugins: [{ id: "webhooks", api: { save: saveWebhookSecret, read: webhookSecret } } as SesameModule],
    })
    const request = () => new Request("http://localhost:3000/")
    const sealed = (await callModuleApi(request(), webhooks(secret), "save", "whsec_0123456789")) as string
    expect(sealed).not.toContain("whsec_0123456789")
    expect(await callModuleApi(request(), webhooks(secret), "read", sealed)).toBe("whsec_0123456789")
    expect(await callModuleApi(request(), webhooks("another-app-secret-0123456789abcdefghijkl"), "read", sealed)).toBeNull()
  })
})

describe("docs: plugins", () => {
  it("counts sign-ins per user, as written: its event, its endpoint and its server function, with the memory adapter's store", async () => {
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, "plugin.ts")
    writeFileSync(file, readmeExample(docPage("plugin"), "plugin"))
    const { signInCount } = (await import(file)) as { signInCount: () => SesameModule }
    const config: AuthConfig = { secret, trustHost: true, adapter: MemoryAdapter(), providers: [aliceCredentials({ createUser: true })], plugins: [signInCount()] }
    const jar = new CookieJar()
    await signInAlice(config, jar)
    await signInAlice(config, jar)
    expect(await (await send(config, "/auth/sign-in-count", { jar })).json()).toEqual({ count: 2 })
    expect(await (await send(config, "/auth/sign-in-count")).json()).toEqual({ count: null })
    const me = new Request("http://localhost:3000/", { headers: { cookie: jar.header() } })
    expect(await callModuleApi(me, config, "signInCount")).toBe(2)
  })
})

describe("docs: user fields", () => {
  it("stores, shows and sets the fields as written", async () => {
    const example = (await importExample(docPage("user-fields"), "user-fields")) as {
      config: AuthConfig
      chooseLocale: (r: Request, locale: string) => Promise<unknown>
      promote: (userId: string) => Promise<unknown>
    }
    const { config } = example
    // The example's GitHub has no client id here; a credentials provider signs Alice in.
    config.providers.push(aliceCredentials({ createUser: true }))
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const me = new Request("http://localhost:3000/", { headers: { cookie: jar.header() } })
    expect(await example.chooseLocale(me, "fr")).toEqual({ updated: true, fields: { locale: "fr" } })
    const session = (await (await send(config, "/auth/session", { jar })).json()) as { user: Record<string, unknown> }
    expect(session.user).toMatchObject({ role: "member", locale: "fr" })
    expect(session.user).not.toHaveProperty("notes")
    const alice = await config.adapter!.getUserByEmail!("alice@example.com")
    expect(await example.promote(alice!.id)).toEqual({ updated: true, fields: { role: "admin" } })
    expect(await example.chooseLocale(new Request("http://localhost:3000/"), "de")).toEqual({ updated: false, reason: "NotSignedIn" })
  })
})

describe("docs: ending JWT sessions", () => {
  it("signs the other browsers out, and keeps this one", async () => {
    const example = (await importExample(docPage("jwt-revocation"), "jwt-revocation")) as {
      config: AuthConfig
      signOutEverywhereElse: (r: Request) => Promise<number>
    }
    const { config } = example
    const adapter = config.adapter as MemoryAdapterInstance
    const user = await adapter.createUser({ id: crypto.randomUUID(), email: "pat@example.com", name: null, image: null, emailVerified: new Date() })
    await storePassword(adapter, { userId: user.id, hash: await argon2id().hash("pat's long passphrase"), updatedAt: new Date() })
    const browsers = [new CookieJar(), new CookieJar()]
    for (const jar of browsers) {
      const form = { csrfToken: await csrfToken(config, jar), email: "pat@example.com", password: "pat's long passphrase" }
      expect((await send(config, "/auth/callback/password", { jar, form })).headers.get("location")).toBe("http://localhost:3000/")
    }
    const here = new Request("http://localhost:3000/", { headers: { cookie: browsers[0]!.header() } })
    expect(await example.signOutEverywhereElse(here)).toBe(0)
    expect(await (await send(config, "/auth/session", { jar: browsers[1]! })).json()).toBeNull()
    expect(await (await send(config, "/auth/session", { jar: browsers[0]! })).json()).toMatchObject({ user: { email: "pat@example.com" } })
  })
})

describe("docs: session management", () => {
  it("lists, revokes one and revokes the others, as written", async () => {
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, "session-management.ts")
    writeFileSync(file, readmeExample(docPage("session-management"), "session-management"))
    const example = (await import(file)) as {
      devices: (r: Request, c: AuthConfig) => Promise<{ id: string; current: boolean }[] | null>
      signOutDevice: (r: Request, c: AuthConfig, id: string) => Promise<boolean>
      signOutEverywhereElse: (r: Request, c: AuthConfig) => Promise<number>
    }
    const config: AuthConfig = { secret, trustHost: true, adapter: MemoryAdapter(), providers: [aliceCredentials({ createUser: true })] }
    const jars = [new CookieJar(), new CookieJar(), new CookieJar()]
    for (const jar of jars) await signInAlice(config, jar)
    const me = new Request("http://localhost:3000/", { headers: { cookie: jars[0]!.header() } })
    const listed = (await example.devices(me, config))!
    expect(listed).toHaveLength(3)
    expect(await example.signOutDevice(me, config, listed.find((s) => !s.current)!.id)).toBe(true)
    expect(await example.signOutEverywhereElse(me, config)).toBe(1)
    expect(await example.devices(me, config)).toHaveLength(1)
  })
})

describe("docs: passwords you keep yourself", () => {
  it("runs as written: sign-up refuses a weak password, sign-in verifies, throttling refuses the sixth guess", async () => {
    const example = (await importExample(join(root, "docs", "features", "passwords.md"), "password-credentials")) as {
      signUp: (email: string, password: string) => Promise<{ ok: boolean; reason?: string }>
      config: AuthConfig
    }
    expect(await example.signUp("ada@example.com", "short")).toEqual({ ok: false, reason: "too-short" })
    expect(await example.signUp("ada@example.com", "ada@example.com")).toEqual({ ok: false, reason: "matches-context" })
    expect(await example.signUp("ada@example.com", "analytical engine")).toEqual({ ok: true })
    const config = { ...example.config, trustHost: true }
    const attempt = async (email: string, password: string) => {
      const jar = new CookieJar()
      const response = await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: await csrfToken(config, jar), email, password } })
      return { signedIn: !!jar.get("sesame.session-token"), retryAfter: response.headers.get("retry-after") }
    }
    expect((await attempt("ada@example.com", "analytical engine")).signedIn).toBe(true)
    expect((await attempt("nobody@example.com", "analytical engine")).signedIn).toBe(false)
    for (let i = 0; i < 5; i++) expect(await attempt("ada@example.com", `guess ${i}`)).toEqual({ signedIn: false, retryAfter: null })
    expect(await attempt("ada@example.com", "analytical engine")).toEqual({ signedIn: false, retryAfter: "1" })
  })
})

describe("docs: password accounts", () => {
  it("signs up, confirms, signs in and changes the password, as written (the emails go to a recording SMTP server)", async () => {
    const { startMailbox } = await import("@sesame/dev-mailbox")
    const mailbox = await startMailbox()
    vi.stubEnv("SMTP_URL", mailbox.url)
    try {
      const example = (await importExample(docPage("password-accounts"), "password-accounts")) as {
        config: AuthConfig
        newPassword: (request: Request, current: string, next: string) => Promise<unknown>
      }
      const config = { ...example.config, secret, trustHost: true }
      const jar = new CookieJar()
      const post = async (path: string, form: Record<string, string>) =>
        (await send(config, path, { jar, form: { csrfToken: await csrfToken(config, jar), ...form } })).headers.get("location")
      expect(await post("/auth/signup/password", { email: "ada@example.com", password: "analytical engine" })).toBe("http://localhost:3000/auth/signup?sent=1")
      const mail = await mailbox.waitFor("ada@example.com")
      const link = new URL(/https?:\/\/\S+verify-email\S+/.exec(mail.text)![0])
      expect(await post("/auth/verify-email/password", { token: link.searchParams.get("token")!, email: "ada@example.com", password: "analytical engine" })).toBe("http://localhost:3000/")
      const me = () => new Request("http://localhost:3000/settings", { headers: { cookie: jar.header() } })
      expect(await example.newPassword(me(), "wrong guess", "a newer passphrase")).toEqual({ changed: false, reason: "WrongPassword" })
      expect(await example.newPassword(me(), "analytical engine", "a newer passphrase")).toEqual({ changed: true, sessionsEnded: 0 })
      expect(await post("/auth/callback/password", { email: "ada@example.com", password: "a newer passphrase" })).toBe("http://localhost:3000/")
    } finally {
      await mailbox.close()
    }
  })
})

describe("docs: password accounts without a mail server", () => {
  it("signs up straight in, prints the reset link in development, and sends nothing in production, as written", async () => {
    const printed: string[] = []
    const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void printed.push(args.join(" ")))
    try {
      vi.stubEnv("NODE_ENV", "development")
      const example = (await importExample(docPage("password-without-mail"), "password-without-mail")) as { config: AuthConfig }
      const errors: Error[] = []
      const config = { ...example.config, secret, trustHost: true, logger: { error: (e: Error) => void errors.push(e), warn: () => {} } }
      const jar = new CookieJar()
      const post = async (path: string, form: Record<string, string>) =>
        (await send(config, path, { jar, form: { csrfToken: await csrfToken(config, jar), ...form } })).headers.get("location")
      // requireEmailVerification: false — signed in at once, no email.
      expect(await post("/auth/signup/password", { email: "ada@example.com", password: "analytical engine" })).toBe("http://localhost:3000/")
      expect(await (await send(config, "/auth/session", { jar })).json()).toMatchObject({ user: { email: "ada@example.com" } })
      expect(printed).toEqual([])

      // A forgotten password: the link is in the console, with the email's subject.
      expect(await post("/auth/forgot-password/password", { email: "ada@example.com" })).toBe("http://localhost:3000/auth/forgot-password?sent=1")
      expect(printed).toHaveLength(1)
      const [line, url] = printed[0]!.split("\n")
      expect(line).toBe("Email to ada@example.com: Choose a new password for localhost:3000")
      const link = new URL(url!)
      expect(link.pathname).toBe("/auth/reset-password/password")
      expect(await post(link.pathname, { token: link.searchParams.get("token")!, email: "ada@example.com", password: "a newer passphrase" })).toBe(
        "http://localhost:3000/auth/signin?notice=PasswordReset",
      )
      expect(await post("/auth/callback/password", { email: "ada@example.com", password: "a newer passphrase" })).toBe("http://localhost:3000/")

      // In production nothing is printed: the failure is logged, without the link, and the answer is the same.
      vi.stubEnv("NODE_ENV", "production")
      expect(await post("/auth/forgot-password/password", { email: "ada@example.com" })).toBe("http://localhost:3000/auth/forgot-password?sent=1")
      expect(printed).toHaveLength(1)
      const logged = errors.map((e) => `${e.message} ${(e.cause as { err?: Error } | undefined)?.err?.message}`).join("\n")
      expect(logged).toContain("could not send its reset-password email")
      expect(logged).toContain("No mail server yet: the reset-password email was not sent.")
      expect(logged).not.toContain("token=")
    } finally {
      log.mockRestore()
      vi.stubEnv("NODE_ENV", "test")
    }
  })
})

describe("docs: two-factor sign-in", () => {
  it("turns an authenticator app on, asks for its code at the next sign-in, reports the status, and sends a stale session to re-authenticate, as written", async () => {
    const { startMailbox } = await import("@sesame/dev-mailbox")
    const { generateHOTP } = await import("@oslojs/otp")
    const { decodeBase32IgnorePadding } = await import("@oslojs/encoding")
    const mailbox = await startMailbox()
    vi.stubEnv("SMTP_URL", mailbox.url)
    try {
      const example = (await importExample(docPage("two-factor"), "two-factor")) as {
        config: AuthConfig
        secondFactor: (request: Request) => Promise<unknown>
        closeAccount: (request: Request) => Promise<Response>
      }
      const config = { ...example.config, secret, trustHost: true }
      const adapter = config.adapter as MemoryAdapterInstance
      const user = await adapter.createUser({ id: crypto.randomUUID(), email: "ada@example.com", name: "Ada", emailVerified: new Date() })
      const { argon2id } = await import("@sesame/core/password")
      await storePassword(adapter, { userId: user.id, hash: await argon2id().hash("analytical engine"), updatedAt: new Date() })
      const jar = new CookieJar()
      const post = async (path: string, form: Record<string, string>) => {
        const response = await send(config, path, { jar, form: { csrfToken: await csrfToken(config, jar), ...form } })
        return { location: response.headers.get("location"), response }
      }
      const me = (url = "http://localhost:3000/settings") => new Request(url, { headers: { cookie: jar.header() } })
      expect((await post("/auth/callback/password", { email: "ada@example.com", password: "analytical engine" })).location).toBe("http://localhost:3000/")
      expect(await example.secondFactor(me())).toEqual({ enabled: false, method: null, recoveryCodesLeft: 0, settingsUrl: "http://localhost:3000/auth/two-factor/setup" })
      const page = await (await send(config, "/auth/two-factor/setup", { jar })).text()
      const uri = new URL(/otpauth:\/\/totp\/[^"]+/.exec(page.replace(/&amp;/g, "&"))![0])
      expect(uri.searchParams.get("issuer")).toBe("Example")
      const key = decodeBase32IgnorePadding(uri.searchParams.get("secret")!)
      const code = (offset = 0) => generateHOTP(key, BigInt(Math.floor(Date.now() / 30_000) + offset), 6)
      expect((await post("/auth/two-factor/setup", { code: code() })).response.status).toBe(200)
      expect(await example.secondFactor(me())).toMatchObject({ enabled: true, method: "totp", recoveryCodesLeft: 10 })
      expect((await example.closeAccount(me())).status).toBe(200)

      // The next sign-in, in a new browser, asks for the app's code.
      jar.cookies.clear()
      expect((await post("/auth/callback/password", { email: "ada@example.com", password: "analytical engine" })).location).toBe("http://localhost:3000/auth/two-factor")
      expect((await post("/auth/two-factor", { code: code(1) })).location).toBe("http://localhost:3000/")

      // Five minutes and a second later, the sensitive action sends the browser to prove who it is again.
      vi.useFakeTimers({ toFake: ["Date"] })
      vi.setSystemTime(Date.now() + 5 * 60_000 + 1000)
      const stale = await example.closeAccount(me("http://localhost:3000/close"))
      expect(stale.status).toBe(303)
      expect(stale.headers.get("location")).toBe(`http://localhost:3000/auth/reauthenticate?callbackUrl=${encodeURIComponent("http://localhost:3000/close")}`)
      expect((await post("/auth/reauthenticate", { code: code(), callbackUrl: "http://localhost:3000/close" })).location).toBe("http://localhost:3000/close")
      expect((await example.closeAccount(me())).status).toBe(200)
    } finally {
      vi.useRealTimers()
      await mailbox.close()
    }
  })
})

describe("docs: account management", () => {
  it("lists, unlinks (never the last way in) and deletes, as written", async () => {
    mkdirSync(scratch, { recursive: true })
    const file = join(scratch, "account-management.ts")
    writeFileSync(file, readmeExample(docPage("account-management"), "account-management"))
    const example = (await import(file)) as {
      linkedAccounts: (r: Request, c: AuthConfig) => Promise<{ provider: string; providerAccountId: string }[] | null>
      disconnect: (r: Request, c: AuthConfig, provider: string, id: string) => Promise<unknown>
      closeAccount: (r: Request, c: AuthConfig) => Promise<unknown>
    }
    const idp = await startDevIdp({ clients: [client("dev"), client("work")], accounts })
    try {
      const adapter = MemoryAdapter()
      const provider = (id: string) => ({ id, name: id, type: "oidc" as const, issuer: idp.issuer, clientId: id, clientSecret })
      const config: AuthConfig = { secret, trustHost: true, adapter, providers: [provider("dev"), provider("work")] }
      const jar = new CookieJar()
      await signIn(config, jar, "dev")
      await signIn(config, jar, "work")
      const me = () => new Request("http://localhost:3000/", { headers: { cookie: jar.header() } })
      expect((await example.linkedAccounts(me(), config))!.map((a) => a.provider)).toEqual(["dev", "work"])
      expect(await example.disconnect(me(), config, "work", "alice")).toEqual({ unlinked: true })
      expect(await example.disconnect(me(), config, "dev", "alice")).toEqual({ unlinked: false, reason: "LastSignInMethod" })
      expect(await example.closeAccount(me(), config)).toEqual({ deleted: true })
      expect(adapter.tables.users.size).toBe(0)
    } finally {
      await idp.close()
    }
  })
})

describe("docs: quick start", () => {
  it("is the repository README's quick start too, word for word", () => {
    expect(readmeExample(join(root, "README.md"), "quick-start")).toBe(readmeExample(docPage("quick-start"), "quick-start"))
  })

  it("runs as written: sign-in page, credentials sign-in, session", async () => {
    const app = (await importExample(docPage("quick-start"), "quick-start")).default as { fetch: (r: Request) => Promise<Response> }
    const call = browserOf(app)
    const page = await (await call("/auth/signin")).text()
    expect(page).toContain('name="username"')
    const { csrfToken } = await (await call("/auth/csrf")).json()
    const signIn = await call("/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, username: "ada", password: "analytical engine" }).toString(),
    })
    expect(signIn.status).toBe(302)
    expect(await (await call("/auth/session")).json()).toMatchObject({ user: { name: "Ada", email: "ada@example.com", image: null } })
  })
})

describe("docs: Node.js handler", () => {
  it("runs as written: the endpoints over node:http beside the app, a credentials sign-in and its session", async () => {
    // The example imports the quick start's configuration from ./auth-config.js.
    mkdirSync(scratch, { recursive: true })
    writeFileSync(join(scratch, "auth-config.ts"), readmeExample(docPage("quick-start"), "quick-start"))
    const { server } = (await importExample(docPage("node-handler"), "node-handler")) as { server: Server }
    server.listen(0, "127.0.0.1")
    await once(server, "listening")
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const jar = new CookieJar()
      // Host says localhost: the origin a loopback app is served at.
      const call = async (path: string, init: { method?: string; body?: string } = {}) => {
        const response = await throughHost(`${base}${path}`, "localhost:3000", jar.header(), init)
        jar.apply(response)
        return response
      }
      expect(await (await call("/")).text()).toBe("the app")
      const { csrfToken } = await (await call("/auth/csrf")).json()
      const signIn = await call("/auth/callback/credentials", {
        method: "POST",
        body: new URLSearchParams({ csrfToken, username: "ada", password: "analytical engine" }).toString(),
      })
      expect(signIn.status).toBe(302)
      expect(await (await call("/auth/session")).json()).toMatchObject({ user: { name: "Ada", email: "ada@example.com" } })
    } finally {
      server.close()
    }
  })
})

describe("docs: messages example", () => {
  it("runs as written: per-language overrides, an added language, the theme", async () => {
    const app = (await importExample(docPage("messages"), "messages")).default as { fetch: (r: Request) => Promise<Response> }
    const page = async (language: string) =>
      (await app.fetch(new Request("http://localhost:3000/auth/signin?error=SessionRequired", { headers: { "accept-language": language } }))).text()
    const french = await page("fr-CA,fr;q=0.9")
    expect(french).toContain('<html lang="fr"')
    expect(french).toContain("<h1>Bon retour parmi nous</h1>")
    expect(french).toContain("Se connecter avec Credentials")
    expect(await page("en-GB")).toContain("<h1>Welcome back</h1>")
    const italian = await page("it")
    expect(italian).toContain("<h1>Accedi</h1>")
    expect(italian).toContain("Accedi con Credentials")
    expect(italian).toContain("You need to sign in to see that page.")
    expect(italian).toContain(":root{--brand:#0b7a75;--brand-text:#ffffff}")
    expect(italian).toContain('<img class="logo" src="/logo.svg" alt="">')
  })
})

describe("docs: passkeys", () => {
  it("runs as written: register through Auth(), then list, rename and (not) delete the passkey", async () => {
    const app = (await importExample(join(root, "docs", "features", "passkeys.md"), "passkeys")).default as { fetch: (r: Request) => Promise<Response> }
    const call = browserOf(app)
    expect((await call("/account/passkeys")).status).toBe(401)
    const key = new SoftAuthenticator()
    const { options } = (await (await call("/auth/webauthn-options/passkey?email=ada@example.com")).json()) as { options: CreationOptionsJSON }
    const data = key.register(options, { origin: "http://localhost:3000" })
    const signedUp = await call("/auth/callback/passkey", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ action: "register", data }) })
    expect(signedUp.status).toBe(302)

    const [passkey] = (await (await call("/account/passkeys")).json()) as { id: string; name: string | null }[]
    expect(passkey).toMatchObject({ id: Buffer.from(data.id, "base64url").toString("base64"), name: null })
    const rename = new URLSearchParams({ intent: "rename", id: passkey!.id, name: "My phone" })
    expect(await (await call("/account/passkeys", { method: "POST", body: rename })).json()).toMatchObject({ name: "My phone" })
    const remove = await call("/account/passkeys", { method: "POST", body: new URLSearchParams({ intent: "delete", id: passkey!.id }) })
    expect(remove.status).toBe(409)
    expect(await remove.json()).toEqual({ deleted: false, reason: "LastSignInMethod" })
  })
})

describe("docs: OAuth and getAccessToken", () => {
  it("runs as written: signs in with the OIDC provider, then calls its API with a refreshed token", async () => {
    const idp = await startDevIdp({ clients: [client("company")], accounts, accessTokenTtl: 1 })
    try {
      vi.stubEnv("AUTH_SECRET", "readme-secret-0123456789-abcdefghijklmnop")
      vi.stubEnv("AUTH_COMPANY_ID", "company")
      vi.stubEnv("AUTH_COMPANY_SECRET", clientSecret)
      vi.stubEnv("AUTH_COMPANY_ISSUER", idp.issuer)
      const example = (await importExample(join(root, "docs", "concepts", "providers.md"), "oauth")) as {
        config: AuthConfig
        callAsUser: (userId: string, url: string) => Promise<Response>
      }
      const { config, callAsUser } = example
      const jar = new CookieJar()
      await signIn(config, jar, "company")
      expect(await session(config, jar)).toMatchObject({ user: { email: "alice@example.com" } })

      const [account] = [...(config.adapter as MemoryAdapterInstance).tables.accounts.values()]
      while (Date.now() / 1000 <= account!.expires_at!) await new Promise((r) => setTimeout(r, 100))
      const { userinfo_endpoint } = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as { userinfo_endpoint: string }
      const response = await callAsUser(account!.userId, userinfo_endpoint)
      expect(await response.json()).toMatchObject({ sub: "alice", email: "alice@example.com" })
      expect(idp.tokenRequests("refresh_token")).toBe(1)
    } finally {
      await idp.close()
    }
  })
})

describe("docs: email sign-in", () => {
  it("runs as written: the email arrives over SMTP, its link is confirmed, the session starts", async () => {
    const { startMailbox } = await import("@sesame/dev-mailbox")
    const mailbox = await startMailbox()
    try {
      vi.stubEnv("EMAIL_SERVER", mailbox.url)
      const app = (await importExample(join(root, "docs", "features", "email.md"), "email-sign-in")).default as {
        fetch: (r: Request) => Promise<Response>
      }
      const jar = new CookieJar()
      const call = async (url: string, init: RequestInit = {}) => {
        const headers = new Headers(init.headers)
        headers.set("cookie", jar.header())
        const res = await app.fetch(new Request(new URL(url, "http://localhost:3000"), { ...init, headers }))
        jar.apply(res)
        return res
      }
      const post = (url: string, fields: Record<string, string>) =>
        call(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() })
      expect(await (await call("/auth/signin")).text()).toContain('name="email"')
      const { csrfToken } = await (await call("/auth/csrf")).json()
      for (let i = 0; i < 4; i++) await post("/auth/signin/nodemailer", { csrfToken, email: "ada@example.com" })
      // perAddress: 3 — the fourth request sent nothing.
      expect(mailbox.messages()).toHaveLength(3)
      const message = await mailbox.waitFor("ada@example.com")
      expect(message.from).toBe('"Example" <no-reply@example.com>')
      const link = /https?:\/\/\S+/.exec(message.text)![0]
      const page = await (await call(link)).text()
      const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)![1]!.replace(/&amp;/g, "&")
      const confirmed = await post("/auth/callback/nodemailer", {
        csrfToken: field("csrfToken"),
        token: field("token"),
        email: field("email"),
        callbackUrl: field("callbackUrl"),
      })
      expect(confirmed.status).toBe(302)
      expect(await (await call("/auth/session")).json()).toMatchObject({ user: { email: "ada@example.com" } })
    } finally {
      await mailbox.close()
    }
  })

  it("the Redis rate-limit store counts per key in a window that starts at the first hit", async () => {
    const { redisStore } = (await importExample(join(root, "docs", "features", "email.md"), "redis-rate-limit")) as {
      redisStore: (redis: object) => { increment(key: string, ms: number): Promise<number> }
    }
    const counts = new Map<string, number>()
    const expiries: [string, number][] = []
    const redis = {
      incr: async (key: string) => {
        counts.set(key, (counts.get(key) ?? 0) + 1)
        return counts.get(key)!
      },
      pexpire: async (key: string, ms: number) => {
        expiries.push([key, ms])
        return 1
      },
    }
    const store = redisStore(redis)
    expect([await store.increment("a", 600_000), await store.increment("a", 600_000), await store.increment("b", 1000)]).toEqual([1, 2, 1])
    expect(expiries).toEqual([
      ["a", 600_000],
      ["b", 1000],
    ])
  })
})

describe("docs: email one-time codes", () => {
  it("runs as written: the code arrives over SMTP without a link, the page asks for it, typing it signs in", async () => {
    const { startMailbox } = await import("@sesame/dev-mailbox")
    const mailbox = await startMailbox()
    try {
      vi.stubEnv("EMAIL_SERVER", mailbox.url)
      const app = (await importExample(docPage("email-codes"), "email-codes")).default as { fetch: (r: Request) => Promise<Response> }
      const call = browserOf(app)
      const post = (path: string, fields: Record<string, string>) =>
        call(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() })
      const { csrfToken } = (await (await call("/auth/csrf")).json()) as { csrfToken: string }
      const asked = await post("/auth/signin/nodemailer", { csrfToken, email: "ada@example.com" })
      expect(asked.headers.get("location")).toBe("http://localhost:3000/auth/verify-request?provider=nodemailer&type=email")
      const message = await mailbox.waitFor("ada@example.com")
      expect(message.text).not.toMatch(/https?:\/\//)
      const code = /^\s*([0-9]{6})\s*$/m.exec(message.text)![1]!
      const page = await (await call("/auth/verify-request?provider=nodemailer&type=email")).text()
      expect(page).toContain('autocomplete="one-time-code"')
      const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)![1]!.replace(/&amp;/g, "&")
      const done = await post("/auth/callback/nodemailer", { csrfToken: field("csrfToken"), callbackUrl: field("callbackUrl"), code })
      expect(done.headers.get("location")).toBe("http://localhost:3000/")
      expect(await (await call("/auth/session")).json()).toMatchObject({ user: { email: "ada@example.com" } })
    } finally {
      await mailbox.close()
    }
  })
})

describe("docs: API tokens", () => {
  /** A port that was free a moment ago on 127.0.0.1. */
  async function freePort(): Promise<number> {
    const probe = createServer()
    probe.listen(0, "127.0.0.1")
    await once(probe, "listening")
    const { port } = probe.address() as AddressInfo
    await new Promise((resolve) => probe.close(resolve))
    return port
  }

  it("runs as written: the app's server gets a token for its user, and an API server in another process trusts it", async () => {
    const example = (await importExample(docPage("api-tokens"), "api-tokens")) as {
      config: AuthConfig
      callApi: (request: Request, url: string) => Promise<Response>
      wellKnownJwks: () => Promise<Response>
      whoIsCalling: (request: Request, appAuthUrl: string) => Promise<Response>
    }
    const app = createServer(toNodeHandler(example.config))
    app.listen(0, "127.0.0.1")
    await once(app, "listening")
    const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`
    const apiPort = await freePort()
    const api = spawn(process.execPath, [join(root, "examples", "resource-server", "server.mjs")], {
      env: { ...process.env, APP_AUTH_URL: `${appUrl}/auth`, PORT: String(apiPort) },
      stdio: ["ignore", "pipe", "inherit"],
    })
    try {
      await new Promise<void>((resolve, reject) => {
        api.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("API server on") && resolve())
        api.once("exit", (code) => reject(new Error(`the API server exited (${code})`)))
      })
      const jar = new CookieJar()
      const call = async (path: string, init: RequestInit = {}) => {
        const response = await fetch(`${appUrl}${path}`, { ...init, redirect: "manual", headers: { ...init.headers, cookie: jar.header() } })
        jar.apply(response)
        return response
      }
      const { csrfToken } = (await (await call("/auth/csrf")).json()) as { csrfToken: string }
      const form = new URLSearchParams({ csrfToken, username: "ada", password: "analytical engine" })
      expect((await call("/auth/callback/credentials", { method: "POST", body: form })).status).toBe(302)

      const page = new Request(`${appUrl}/dashboard`, { headers: { cookie: jar.header() } })
      const answer = await example.callApi(page, `http://127.0.0.1:${apiPort}/me`)
      expect(answer.status).toBe(200)
      expect(await answer.json()).toEqual({ user: "ada", plan: "pro" })
      expect((await example.callApi(new Request(`${appUrl}/dashboard`), `http://127.0.0.1:${apiPort}/me`)).status).toBe(401)

      const { token } = (await (await call("/auth/token")).json()) as { token: string }
      const inProcess = await example.whoIsCalling(new Request("http://api.example.com/me", { headers: { authorization: `Bearer ${token}` } }), `${appUrl}/auth`)
      expect(await inProcess.json()).toEqual({ user: "ada", plan: "pro" })
      const tampered = `${token.slice(0, -6)}AAAAAA`
      const refused = await fetch(`http://127.0.0.1:${apiPort}/me`, { headers: { authorization: `Bearer ${tampered}` } })
      expect(refused.status).toBe(401)
      expect(await refused.json()).toEqual({ error: "invalid-signature" })
      expect((await fetch(`http://127.0.0.1:${apiPort}/me`)).status).toBe(401)

      expect(await (await example.wellKnownJwks()).json()).toEqual(await (await call("/auth/jwks")).json())
    } finally {
      api.kill()
      app.close()
    }
  })

  it("runs the native apps configuration as written: a configured redirect URI starts a sign-in, another is refused", async () => {
    // The example's GitHub provider reads its credentials from the environment, as apps set them.
    vi.stubEnv("AUTH_GITHUB_ID", "github-client-id")
    vi.stubEnv("AUTH_GITHUB_SECRET", "github-client-secret")
    const { config } = (await importExample(docPage("native-apps"), "native-apps")) as { config: AuthConfig }
    const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    const authorize = (redirectUri: string) =>
      send(config, `/auth/native/authorize?${new URLSearchParams({ redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256" })}`)
    const started = await authorize("com.example.app:/oauth/callback")
    expect(new URL(started.headers.get("location")!).pathname).toBe("/auth/signin")
    expect((await authorize("http://127.0.0.1:53117/callback")).status).toBe(302)
    expect((await authorize("com.evil.app:/oauth/callback")).status).toBe(400)
  })
})
