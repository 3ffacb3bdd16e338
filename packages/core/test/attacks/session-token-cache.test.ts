/**
 * Threat: the claims Sesame keeps for JWT session tokens read recently (session/recent-tokens.ts,
 * so that a cookie sent again costs no decryption) serving a token they should not: one moved to
 * another cookie, one past its expiry, one under a secret the app has since removed, one a custom
 * decoder would refuse now; or a callback's change to one read's claims leaking into the next.
 * Beside each, the legitimate read still works, and a repeated read really skips the decryption.
 */
import type { AuthConfig } from "@sesame/core"
import { decode, encode } from "@sesame/core/jwt"
import { describe, expect, it, vi } from "vitest"
import { backend } from "../../src/crypto/backend-node.js"
import { CookieJar, frozenClock, jwtConfig, secret, send } from "../helpers.js"

const cookie = "sesame.session-token"
const claims = { sub: "1", name: "Alice", email: "alice@example.com" }

const advance = frozenClock("2026-05-01T08:00:00Z")

async function sessionOf(config: AuthConfig, header: string, url = "/auth/session") {
  return (await send(config, url, { cookie: header })).json()
}

describe("the claims kept for recently read session tokens", () => {
  it("a cookie sent again is answered without decrypting it again", async () => {
    const config = jwtConfig()
    const header = `${cookie}=${await encode({ token: claims, secret, salt: cookie })}`
    expect((await sessionOf(config, header)).user.name).toBe("Alice")
    const decrypt = vi.spyOn(backend, "decryptJwe")
    try {
      expect((await sessionOf(config, header)).user.name).toBe("Alice")
      expect(decrypt).not.toHaveBeenCalled()
    } finally {
      decrypt.mockRestore()
    }
  })

  it("a token read from the plain cookie is no session in the __Secure- one (each cookie name is its key's salt)", async () => {
    const config = jwtConfig()
    const token = await encode({ token: claims, secret, salt: cookie })
    expect((await sessionOf(config, `${cookie}=${token}`)).user.name).toBe("Alice")
    expect(await sessionOf(config, `__Secure-${cookie}=${token}`, "https://localhost:3000/auth/session")).toBeNull()
    const secure = await encode({ token: claims, secret, salt: `__Secure-${cookie}` })
    expect((await sessionOf(config, `__Secure-${cookie}=${secure}`, "https://localhost:3000/auth/session")).user.name).toBe("Alice")
  })

  it("a token read before its expiry is refused after it, as if never read", async () => {
    const config = jwtConfig()
    const header = `${cookie}=${await encode({ token: claims, secret, salt: cookie, maxAge: 3600 })}`
    expect((await sessionOf(config, header)).user.name).toBe("Alice")
    advance(3600_000 + 20_000)
    expect(await sessionOf(config, header)).toBeNull()
  })

  it("a token under a secret the app has removed is refused, though it was read while the secret was listed", async () => {
    const old = "old-secret-0123456789-abcdefghijkl"
    const header = `${cookie}=${await encode({ token: claims, secret: old, salt: cookie })}`
    expect((await sessionOf(jwtConfig({ secret: [secret, old] }), header)).user.name).toBe("Alice")
    expect(await sessionOf(jwtConfig({ secret }), header)).toBeNull()
  })

  it("a custom decoder is asked on every read: a token it now refuses is no session", async () => {
    const denied = new Set<string>()
    const config = jwtConfig({
      jwt: { decode: async (params) => (denied.has(params.token ?? "") ? null : decode(params)) },
    })
    const token = await encode({ token: claims, secret, salt: cookie })
    expect((await sessionOf(config, `${cookie}=${token}`)).user.name).toBe("Alice")
    denied.add(token)
    expect(await sessionOf(config, `${cookie}=${token}`)).toBeNull()
  })

  it("a jwt callback that changes the claims in place changes nothing for the next read of the same cookie", async () => {
    const seen: unknown[] = []
    const config = jwtConfig({
      callbacks: {
        jwt: ({ token }) => {
          seen.push(token.name)
          token.name = "Mallory"
          return token
        },
      },
    })
    const header = `${cookie}=${await encode({ token: claims, secret, salt: cookie })}`
    const jar = new CookieJar()
    await send(config, "/auth/session", { cookie: header, jar })
    await send(config, "/auth/session", { cookie: header })
    expect(seen).toEqual(["Alice", "Alice"])
    // The first read's change was re-issued to that browser, as a change of the claims is.
    expect((await decode({ token: jar.get(cookie), secret, salt: cookie }))?.name).toBe("Mallory")
  })
})
