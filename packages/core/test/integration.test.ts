/**
 * `@sesame/core/integration`: the surface the framework integrations build on, checked directly
 * (the integrations' own tests check it through them).
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "@sesame/core"
import { basePathOf, logFor, readSession, setCookieLines, setCookieName } from "@sesame/core/integration"
import { secret } from "./helpers.js"

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

describe("basePathOf", () => {
  it("takes basePath, else the path of AUTH_URL, else the integration's default, without trailing slashes", () => {
    vi.stubEnv("AUTH_URL", "")
    vi.stubEnv("SESAME_URL", "")
    expect(basePathOf({ basePath: "/custom/auth/" }, "/api/auth")).toBe("/custom/auth")
    expect(basePathOf({}, "/api/auth/")).toBe("/api/auth")
    vi.stubEnv("AUTH_URL", "https://example.com/")
    expect(basePathOf({}, "/api/auth")).toBe("/api/auth")
    vi.stubEnv("AUTH_URL", "https://example.com/sso/")
    expect(basePathOf({}, "/api/auth")).toBe("/sso")
    expect(basePathOf({ basePath: "/api/auth" }, "/x")).toBe("/api/auth")
  })
})

describe("logFor", () => {
  it("prints one escaped line naming the cause by its type, or hands a custom logger an Error with the cause", () => {
    const printed = vi.spyOn(console, "error").mockImplementation(() => {})
    const cause = Object.assign(new Error("no secret"), { type: "MissingSecret" })
    logFor(undefined).error("auth() answers null\nforged", cause)
    expect(printed).toHaveBeenCalledWith("[sesame][error] auth() answers null\\nforged: MissingSecret: no secret")

    const received: Error[] = []
    const config: AuthConfig = { secret, providers: [], logger: { error: (error) => received.push(error) } }
    logFor(config).error("the guard treats the request as signed out", cause)
    expect(received[0]?.message).toBe("the guard treats the request as signed out: MissingSecret: no secret")
    expect(received[0]?.cause).toBe(cause)
  })

  it("writes debug lines only with debug on", () => {
    const debug = vi.fn()
    logFor({ secret, providers: [], logger: { debug } }).debug("quiet")
    logFor({ secret, providers: [], debug: true, logger: { debug, warn: () => {} } }).debug("loud")
    expect(debug.mock.calls).toEqual([["loud"]])
  })
})

describe("readSession", () => {
  const config: AuthConfig = { secret, trustHost: true, basePath: "/api/auth", providers: [] }

  it("is null without a cookie, and sets none", async () => {
    expect(await readSession(config, new Request("http://localhost:3000/page"))).toEqual({ session: null, cookies: [] })
  })

  it("answers a cookie that is no good with the cookie that clears it, serialised by the core's policy", async () => {
    const request = new Request("http://localhost:3000/page", { headers: { cookie: "sesame.session-token=nope" } })
    const { session, cookies } = await readSession(config, request)
    expect(session).toBeNull()
    const [line] = setCookieLines(cookies)
    expect(setCookieName(line!)).toBe("sesame.session-token")
    expect(line).toMatch(/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/)
  })

  it("throws the core's error for a configuration that cannot be used", async () => {
    await expect(readSession({ ...config, trustHost: false }, new Request("http://localhost:3000/"))).rejects.toMatchObject({ type: "UntrustedHost" })
  })
})
