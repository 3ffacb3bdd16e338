/**
 * Threat: a guessable secret. Everything Sesame seals (JWT sessions, check cookies, challenge
 * cookies) and every keyed token hash rests on the secret; whoever guesses it forges a session for
 * any user offline. In production a short or visibly non-random secret is a configuration error
 * (every request answers `Configuration`); elsewhere it is a warning. Real random secrets always pass.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth, type AuthConfig } from "@sesame/core"
import { encode } from "@sesame/core/jwt"
import { newSecret } from "../../../cli/src/secret.js"
import { estimateSecretBits, secretWeakness } from "../../src/config/secret-strength.js"
import { aliceCredentials, CookieJar, request, secret, send, signInAlice } from "../helpers.js"

afterEach(() => {
  vi.unstubAllEnvs()
})

function capture() {
  const errors: Error[] = []
  const warnings: string[] = []
  return { errors, warnings, logger: { error: (e: Error) => void errors.push(e), warn: (c: string) => void warnings.push(c), debug: () => {} } }
}

function config(overrides: Partial<AuthConfig>, log = capture()): AuthConfig {
  return { trustHost: true, providers: [aliceCredentials()], logger: log.logger as AuthConfig["logger"], ...overrides }
}

/** A deterministic byte source (mulberry32), so the loop below tests the same strings every run. */
function seededBytes(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) & 0xff
  }
  return (n: number) => Buffer.from(Array.from({ length: n }, next))
}

const weak: [string, string][] = [
  ["one repeated character", "a".repeat(48)],
  ["a word repeated to length", "password".repeat(6)],
  ["a word repeated, then digits", `${"password".repeat(4)}1234567890`],
  ["a short repeated pattern", "Xy7!".repeat(12)],
  ["the alphabet and the digits", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"],
  ["digits only, repeated", "0123456789".repeat(4)],
]

describe("the secret-strength rule", () => {
  it("passes real random secrets in every usual format (a seeded loop) and the CLI's output", () => {
    const bytes = seededBytes(16)
    for (let i = 0; i < 2000; i++) {
      for (const candidate of [
        bytes(33).toString("base64"), // openssl rand -base64 33
        bytes(32).toString("hex"), // openssl rand -hex 32
        bytes(32).toString("base64url"), // npx sesame secret
        bytes(24).toString("base64url"), // 32 base64url characters, the shortest accepted
      ]) {
        expect(secretWeakness(candidate), candidate).toBeNull()
      }
    }
    for (let i = 0; i < 50; i++) expect(secretWeakness(newSecret())).toBeNull()
  })

  it("passes the test suite's secret and the example apps' secrets", () => {
    for (const s of [secret, "next-e2e-secret-0123456789-abcdefghijklmnop", "solid-start-e2e-secret-0123456789-abcdefghijklmnop"]) {
      expect(secretWeakness(s), s).toBeNull()
    }
  })

  it("rejects short secrets, and long ones that are clearly not random", () => {
    expect(secretWeakness(seededBytes(1)(23).toString("base64url"))).toMatch(/31 characters; at least 32/)
    for (const [what, value] of weak) {
      expect(estimateSecretBits(value), what).toBeLessThan(128)
      expect(secretWeakness(value), what).toMatch(/not random enough/)
    }
  })
})

describe("production: a weak secret is a configuration error", () => {
  it("refuses every request, so a session forged with the guessed secret is never accepted", async () => {
    vi.stubEnv("NODE_ENV", "production")
    const guessed = "password".repeat(6)
    const log = capture()
    const app = config({ secret: guessed }, log)
    // The attacker seals a session for alice under the guessed secret.
    const forged = await encode({ token: { sub: "1", name: "Alice", email: "alice@example.com" }, secret: guessed, salt: "sesame.session-token" })
    const cookie = `sesame.session-token=${forged}`
    // Outside production the forgery works, which is why production refuses the secret.
    vi.stubEnv("NODE_ENV", "development")
    const lenient = await Auth(request("/auth/session", { cookie }), config({ secret: guessed }))
    expect((await lenient.json()).user.email).toBe("alice@example.com")
    vi.stubEnv("NODE_ENV", "production")
    const res = await Auth(request("/auth/session", { cookie }), app)
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ message: "There is a problem with the server configuration. Check the server logs for more information." })
    expect(res.headers.getSetCookie()).toEqual([])
    const page = await Auth(request("/auth/signin"), app)
    expect(page.status).toBe(500)
    // The log names the problem, where the secret came from and the fix, never the secret.
    const message = log.errors[0]?.message ?? ""
    expect(log.errors[0]?.name).toBe("MissingSecretError")
    expect(message).toMatch(/The secret in `secret` is too weak: it is not random enough/)
    expect(message).toContain("npx @sesame/cli secret")
    expect(message).toContain("openssl rand -base64 33")
    expect(message).not.toContain("password")
  })

  it("checks every secret: each entry of a `secret` array, AUTH_SECRET and the rotated AUTH_SECRET_n", async () => {
    vi.stubEnv("NODE_ENV", "production")
    const cases: [Partial<AuthConfig>, Record<string, string>, RegExp][] = [
      [{ secret: [secret, "short-old-secret"] }, {}, /`secret\[1\]` is too weak: it has 16 characters/],
      [{}, { AUTH_SECRET: "a".repeat(40) }, /AUTH_SECRET is too weak/],
      [{}, { SESAME_SECRET: "Xy7!".repeat(10) }, /SESAME_SECRET is too weak/],
      [{}, { AUTH_SECRET: secret, AUTH_SECRET_2: "0123456789".repeat(4) }, /AUTH_SECRET_2 is too weak/],
    ]
    for (const [overrides, env, pattern] of cases) {
      vi.unstubAllEnvs()
      vi.stubEnv("NODE_ENV", "production")
      for (const name of ["AUTH_SECRET", "SESAME_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3"]) vi.stubEnv(name, env[name] ?? "")
      const log = capture()
      const res = await Auth(request("/auth/session"), config(overrides, log))
      expect(res.status).toBe(500)
      expect(log.errors[0]?.message).toMatch(pattern)
    }
  })

  it("works with a real random secret, rotated ones included", async () => {
    vi.stubEnv("NODE_ENV", "production")
    const log = capture()
    const app = config({ secret: [newSecret(), seededBytes(7)(33).toString("base64"), secret] }, log)
    const jar = new CookieJar()
    expect((await signInAlice(app, jar)).status).toBe(302)
    expect((await (await send(app, "/auth/session", { jar })).json()).user.name).toBe("Alice")
    expect(log.errors).toEqual([])
    expect(log.warnings).not.toContain("weak-secret")
  })
})

describe("outside production: a weak secret is a warning", () => {
  it("works, and warns once per configuration", async () => {
    const log = capture()
    const app = config({ secret: ["too-short", "b".repeat(40)] }, log)
    const jar = new CookieJar()
    expect((await signInAlice(app, jar)).status).toBe(302)
    expect((await (await send(app, "/auth/session", { jar })).json()).user.name).toBe("Alice")
    expect(log.warnings).toEqual(["weak-secret"])
  })

  it("does not warn for a strong secret", async () => {
    const log = capture()
    const app = config({ secret }, log)
    await send(app, "/auth/session")
    expect(log.warnings).not.toContain("weak-secret")
  })
})
