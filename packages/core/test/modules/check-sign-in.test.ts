/**
 * A module's word on every sign-in (`SesameModule.checkSignIn`): asked after the app's `signIn`
 * callback let the sign-in go on, with its parameters; `true` goes on, `false` or a throw refuses
 * (`AccessDenied`, no session), a URL of the app is where the browser goes instead. A module is no
 * way to send a visitor off-site: a URL on another origin refuses. Beside each, the sign-in that
 * goes through.
 */
import type { AuthConfig, SesameModule, SignInCallbackParams } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { describe, expect, it } from "vitest"
import { aliceCredentials, CookieJar, origin, send, signInAlice } from "../helpers.js"

function gate(answer: (params: SignInCallbackParams) => boolean | string, seen: string[] = []): SesameModule {
  return {
    id: "gate",
    checkSignIn(params, context) {
      seen.push(`${params.user.email} at ${context.authUrl}`)
      return answer(params)
    },
  }
}

function app(module: SesameModule, extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: "check-sign-in-secret-0123456789abcdefghijkl",
    trustHost: true,
    providers: [aliceCredentials()],
    plugins: [module],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    ...extra,
  }
}

async function signedInAs(config: AuthConfig, jar: CookieJar): Promise<string | null> {
  const body = (await (await send(config, "/auth/session", { jar })).json()) as { user?: { email?: string } } | null
  return body?.user?.email ?? null
}

describe("checkSignIn", () => {
  it("is asked with the sign-in's user and where the endpoints are; true goes on", async () => {
    const seen: string[] = []
    const config = app(gate(() => true, seen))
    const jar = new CookieJar()
    const response = await signInAlice(config, jar)
    expect(response.headers.get("location")).toBe(`${origin}/`)
    // Asked before the decision, and again once the session is stored (a suspension that landed meanwhile).
    expect(seen).toEqual([`alice@example.com at ${origin}/auth`, `alice@example.com at ${origin}/auth`])
    expect(await signedInAs(config, jar)).toBe("alice@example.com")
  })

  it("false refuses: AccessDenied, no session", async () => {
    const config = app(gate(() => false))
    const jar = new CookieJar()
    const response = await signInAlice(config, jar)
    expect(response.headers.get("location")).toBe(`${origin}/auth/error?error=AccessDenied`)
    expect(await signedInAs(config, jar)).toBeNull()
  })

  it("a throw refuses too", async () => {
    const config = app(gate(() => {
      throw new Error("the module's store is unreachable")
    }))
    const jar = new CookieJar()
    expect((await signInAlice(config, jar)).headers.get("location")).toBe(`${origin}/auth/error?error=AccessDenied`)
    expect(await signedInAs(config, jar)).toBeNull()
  })

  it("a URL of the app sends the browser there, signed out", async () => {
    const config = app(gate(() => `${origin}/auth/gate/why`))
    const jar = new CookieJar()
    expect((await signInAlice(config, jar)).headers.get("location")).toBe(`${origin}/auth/gate/why`)
    expect(await signedInAs(config, jar)).toBeNull()
  })

  it("a URL on another origin refuses rather than sending the visitor off-site", async () => {
    for (const url of ["https://evil.example/phish", "//evil.example/x", "javascript:alert(1)"]) {
      const config = app(gate(() => url))
      const jar = new CookieJar()
      expect((await signInAlice(config, jar)).headers.get("location"), url).toBe(`${origin}/auth/error?error=AccessDenied`)
      expect(await signedInAs(config, jar)).toBeNull()
    }
  })

  it("is not asked when the app's signIn callback refused first", async () => {
    const seen: string[] = []
    const config = app(gate(() => true, seen), { callbacks: { signIn: () => false } })
    await signInAlice(config, new CookieJar())
    expect(seen).toEqual([])
  })

  it("is asked with database sessions too, before any session is stored", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser({ id: "1", email: "alice@example.com", name: "Alice", image: null, emailVerified: new Date() })
    const config = app(gate(() => false), { adapter, providers: [aliceCredentials({ createUser: false })] })
    await signInAlice(config, new CookieJar())
    expect(await adapter.listSessionsByUserId("1")).toEqual([])
  })

  it("must be a function", async () => {
    const config = app({ id: "gate", checkSignIn: "yes" as never })
    expect((await send(config, "/auth/session")).status).toBe(500)
  })
})
