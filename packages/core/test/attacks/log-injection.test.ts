/**
 * Threat: forged log lines. Error and debug messages quote what the request sent (a provider id in
 * the path, an email address, a username an `authorize` function repeats, a header), so a value
 * with CR/LF (or another line break: U+0085, U+2028, U+2029) could end the real record and start
 * one of the attacker's, such as `[sesame][error] …`, misleading whoever reads the log or parses
 * it. The built-in logger escapes every control character: each record it prints is one line,
 * followed only by the stack frames and causes it prints itself, indented.
 */
import { format } from "node:util"
import { Auth, type AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import Email, { memoryRateLimitStore } from "@sesame/core/providers/email"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { CookieJar, csrfToken, secret, send } from "../helpers.js"

const forged = "\r\n[sesame][error] forged"
const lineBreak = /\r\n|\r|\n|\u0085|\u2028|\u2029/

/** What each console call printed, as one string per call (a record). */
let records: string[] = []

beforeEach(() => {
  records = []
  for (const level of ["error", "warn", "debug", "info", "log"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void records.push(format(...args)))
  }
})
afterEach(() => {
  vi.restoreAllMocks()
})

/**
 * Every record is one line starting with `[sesame][<level>]`, or that line followed by lines the
 * logger printed itself: stack frames (`    at …`) and causes (`  caused by …`).
 */
function expectNoForgedLine(): void {
  expect(records.length).toBeGreaterThan(0)
  for (const record of records) {
    const [first, ...rest] = record.split(lineBreak)
    expect(first, record).toMatch(/^\[sesame\]\[(error|warn|debug)\] /)
    for (const line of rest) expect(line, record).toMatch(/^( {4}at \S| {2}caused by \S)/)
  }
}

/** The injection reached the log, escaped (so the test is not passing for want of trying). */
function expectEscapedMarker(times = 1): void {
  const escaped = records.filter((r) => r.includes("\\r\\n[sesame][error] forged"))
  expect(escaped.length).toBeGreaterThanOrEqual(times)
}

/** An app with the built-in logger (debug on) and providers that repeat what they were given in their errors. */
function app(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret,
    trustHost: true,
    debug: true,
    adapter: MemoryAdapter(),
    session: { strategy: "jwt" },
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: async ({ username }) => {
          throw new Error(`No user named ${String(username)}`)
        },
      }),
      Email({
        rateLimit: { store: memoryRateLimitStore() },
        // An app's own normaliser that lets anything through, and a mailer that names the address.
        normalizeIdentifier: (identifier) => identifier,
        async sendVerificationRequest({ identifier }) {
          throw new Error(`Mailbox ${identifier} refused the message`)
        },
      }),
    ],
    ...overrides,
  }
}

describe("the built-in logger prints no forged line", () => {
  it("a provider id with CR/LF in the path (POST signin, GET callback): debug lines stay single", async () => {
    const config = app()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const id = encodeURIComponent(`x${forged}`)
    expect((await send(config, `/auth/signin/${id}`, { jar, form: { csrfToken: token } })).status).toBe(404)
    expect((await send(config, `/auth/callback/${id}`, { jar })).status).toBe(404)
    expectNoForgedLine()
    expectEscapedMarker(2)
  })

  it("a username that authorize repeats in its error: the error, its cause and the stack frames", async () => {
    const config = app()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const response = await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: token, username: `mallory${forged}`, password: "x" } })
    expect(response.status).toBe(302)
    expectNoForgedLine()
    expectEscapedMarker()
    const error = records.find((r) => r.startsWith("[sesame][error] CallbackRouteError"))
    expect(error).toBeDefined()
    // The stack frames are printed (the lines V8 puts the message on are not).
    expect(error!.split(lineBreak).some((line) => line.startsWith("    at "))).toBe(true)
    expect(error).toContain("  caused by Error: No user named mallory\\r\\n[sesame][error] forged")
  })

  it("an email address that the mailer repeats in its error", async () => {
    const config = app()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    await send(config, "/auth/signin/email", { jar, form: { csrfToken: token, email: `victim@example.com${forged}` } })
    expectNoForgedLine()
    expectEscapedMarker()
    expect(records.some((r) => r.startsWith("[sesame][error] EmailSignin: "))).toBe(true)
  })

  it("other line breaks and control characters (U+0085, U+2028, U+2029, ESC, NUL) are escaped too", async () => {
    const config = app()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const id = encodeURIComponent("a\u0085[sesame][error] nel\u2028[sesame][error] ls\u2029[sesame][error] ps\u001b[31mred\u0000")
    await send(config, `/auth/signin/${id}`, { jar, form: { csrfToken: token } })
    expectNoForgedLine()
    const line = records.find((r) => r.includes("nel"))
    expect(line).toContain("a\\u0085[sesame][error] nel\\u2028[sesame][error] ls\\u2029[sesame][error] ps\\u001b[31mred\\u0000")
  })

  it("a header (Origin) with a line break the Headers class lets through (U+0085) is not printed at all", async () => {
    const config = app()
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    const response = await send(config, "/auth/signout", {
      jar,
      form: { csrfToken: token },
      headers: { origin: "https://evil.example\u0085[sesame][error] forged" },
    })
    expect(response.status).toBe(403)
    expectNoForgedLine()
    expect(records.some((r) => r.includes("a malformed origin"))).toBe(true)
    expect(records.join("\n")).not.toContain("forged")
  })

  it("debug metadata: one line, escaped", async () => {
    const config = app({
      jwt: {
        decode: async () => {
          const error = new Error("unreadable")
          // JSON.stringify escapes CR/LF itself, but not U+2028 or U+0085.
          error.name = `Unreadable${forged}\u2028[sesame][error] ls\u0085[sesame][error] nel`
          throw error
        },
      },
    })
    await send(config, "/auth/session", { cookie: "sesame.session-token=anything" })
    expectNoForgedLine()
    expect(records.find((r) => r.startsWith("[sesame][debug] session token did not decode"))).toContain(
      '{"error":"Unreadable\\r\\n[sesame][error] forged\\u2028[sesame][error] ls\\u0085[sesame][error] nel"}',
    )
  })

  it("a lazy configuration that throws (printed before any logger is configured)", async () => {
    const response = await Auth(new Request("http://localhost:3000/auth/session"), () => {
      throw new Error(`No configuration for ${forged}`)
    })
    expect(response.status).toBe(500)
    expectNoForgedLine()
    expectEscapedMarker()
  })

  it("an error whose message was changed after its stack was made: the stale message in the stack is not printed", async () => {
    const config = app({
      providers: [
        Credentials({
          credentials: { username: {} },
          authorize: async ({ username }) => {
            const error = new Error(`No user named ${String(username)}`)
            void error.stack
            error.message = "No such user"
            throw error
          },
        }),
      ],
    })
    const jar = new CookieJar()
    const token = await csrfToken(config, jar)
    await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: token, username: `mallory${forged}` } })
    expectNoForgedLine()
    expect(records.join("\n")).not.toContain("forged")
  })
})

it("a custom logger gets the raw error, with the request's text as it came (escaping it is the app's business)", async () => {
  const errors: Error[] = []
  const config = app({ logger: { error: (e) => void errors.push(e) } })
  const jar = new CookieJar()
  const token = await csrfToken(config, jar)
  await send(config, "/auth/callback/credentials", { jar, form: { csrfToken: token, username: `mallory${forged}`, password: "x" } })
  const cause = (errors[0]?.cause as { err?: Error } | undefined)?.err
  expect(cause?.message).toBe(`No user named mallory${forged}`)
})
