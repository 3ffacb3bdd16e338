import { describe, expect, it } from "vitest"
import { encode } from "@sesame/core/jwt"
import {
  chunkSize,
  clearChunkedCookie,
  cookieProblem,
  coreCookies,
  mergeCookies,
  parseCookieHeader,
  readChunkedCookie,
  serializeCookie,
  writeChunkedCookie,
} from "../src/http/cookies.js"
import { CookieJar, jwtConfig, send, signInAlice } from "./helpers.js"

describe("cookie policy", () => {
  it("uses sesame. names, and __Secure- / __Host- prefixes when secure", () => {
    const plain = coreCookies(false)
    expect(plain.sessionToken.name).toBe("sesame.session-token")
    expect(plain.csrfToken.name).toBe("sesame.csrf-token")
    expect(plain.pkceCodeVerifier.name).toBe("sesame.pkce.code_verifier")
    const secure = coreCookies(true)
    expect(secure.sessionToken.name).toBe("__Secure-sesame.session-token")
    expect(secure.callbackUrl.name).toBe("__Secure-sesame.callback-url")
    expect(secure.csrfToken.name).toBe("__Host-sesame.csrf-token")
    expect(secure.state.options).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/", secure: true, maxAge: 900 })
  })

  it("serialises HttpOnly, SameSite=Lax, Path=/, Secure and expiry", () => {
    const header = serializeCookie({ name: "__Secure-x", value: "a|b", options: { ...coreCookies(true).sessionToken.options, maxAge: 60 } })
    expect(header).toMatch(/^__Secure-x=a%7Cb; Path=\/; Max-Age=60; Expires=.+; HttpOnly; Secure; SameSite=Lax$/)
  })

  it("enforces prefix rules when serialising", () => {
    expect(() => serializeCookie({ name: "__Host-x", value: "v", options: { secure: true, path: "/app" } })).toThrow(/path/)
    expect(() => serializeCookie({ name: "__Host-x", value: "v", options: { secure: true, path: "/", domain: "a.com" } })).toThrow(/domain/)
    expect(() => serializeCookie({ name: "__Secure-x", value: "v", options: {} })).toThrow(/secure/)
    expect(() => serializeCookie({ name: "x", value: "v", options: { sameSite: "none" } })).toThrow(/secure/)
    expect(cookieProblem("bad name", {})).toMatch(/characters/)
    expect(cookieProblem("ok", { path: "/" })).toBeNull()
  })

  it("merges the cookies option role by role", () => {
    const merged = mergeCookies(coreCookies(false), { sessionToken: { name: "app.session", options: { domain: "example.com" } } })
    expect(merged.sessionToken).toEqual({ name: "app.session", options: { httpOnly: true, sameSite: "lax", path: "/", secure: false, domain: "example.com" } })
    expect(merged.csrfToken.name).toBe("sesame.csrf-token")
  })

  it("parses headers robustly: first wins, bad encodings kept, garbage ignored", () => {
    const cookies = parseCookieHeader('a=1; a=2; b=%E0%A4%A; ;=x; c="quoted"; noequals; d=%7C')
    expect(cookies.get("a")).toBe("1")
    expect(cookies.get("b")).toBe("%E0%A4%A")
    expect(cookies.get("c")).toBe("quoted")
    expect(cookies.get("d")).toBe("|")
    expect(cookies.has("noequals")).toBe(false)
    expect(parseCookieHeader(undefined).size).toBe(0)
  })
})

describe("chunking", () => {
  const options = coreCookies(false).sessionToken.options

  it("keeps small values in one cookie and splits large ones into .0, .1, …", () => {
    const small = writeChunkedCookie("s", "x".repeat(100), options, new Map())
    expect(small.map((c) => c.name)).toEqual(["s"])
    const value = "y".repeat(chunkSize * 2 + 10)
    const big = writeChunkedCookie("s", value, options, new Map())
    expect(big.map((c) => c.name)).toEqual(["s.0", "s.1", "s.2"])
    for (const c of big) expect(`${c.name}=${c.value}`.length).toBeLessThanOrEqual(4096)
    const read = new Map(big.map((c) => [c.name, c.value]))
    expect(readChunkedCookie(read, "s")).toBe(value)
  })

  it("clears stale chunks and the unchunked cookie when the value changes size", () => {
    const had = new Map([
      ["s.0", "a"],
      ["s.1", "b"],
      ["s.2", "c"],
      ["s", "old"],
      ["s.x", "not a chunk"],
      ["other", "z"],
    ])
    const written = writeChunkedCookie("s", "y".repeat(chunkSize + 1), options, had)
    const set = written.filter((c) => c.options.maxAge !== 0).map((c) => c.name)
    const cleared = written.filter((c) => c.options.maxAge === 0).map((c) => c.name)
    expect(set).toEqual(["s.0", "s.1"])
    expect(cleared.sort()).toEqual(["s", "s.2"])
    expect(clearChunkedCookie("s", options, had).map((c) => c.name).sort()).toEqual(["s", "s.0", "s.1", "s.2"])
    expect(clearChunkedCookie("s", options, new Map()).map((c) => c.name)).toEqual(["s"])
  })

  it("round-trips a large session through Auth() and shrinks it back cleanly", async () => {
    const big = "z".repeat(9000)
    const config = jwtConfig({
      callbacks: {
        jwt: ({ token, trigger, session }) => {
          if (trigger === "update") return { ...token, blob: (session as { blob?: string }).blob }
          return trigger === "signIn" ? { ...token, blob: big } : token
        },
        session: ({ session, token }) => ({ ...session, blobLength: String(token.blob ?? "").length }) as never,
      },
    })
    const jar = new CookieJar()
    await signInAlice(config, jar)
    const names = [...jar.cookies.keys()].filter((n) => n.startsWith("sesame.session-token"))
    expect(names.length).toBeGreaterThanOrEqual(3)
    expect(names.sort()).toEqual(names.map((_, i) => `sesame.session-token.${i}`))
    const session = await (await send(config, "/auth/session", { jar })).json()
    expect(session.blobLength).toBe(9000)

    // Shrink: the update makes the token small; every chunk goes, one cookie stays.
    const { csrfToken } = await (await send(config, "/auth/csrf", { jar })).json()
    const updated = await send(config, "/auth/session", { jar, json: { csrfToken, data: { blob: "" } } })
    expect(updated.status).toBe(200)
    expect([...jar.cookies.keys()].filter((n) => n.startsWith("sesame.session-token"))).toEqual(["sesame.session-token"])
    expect((await (await send(config, "/auth/session", { jar })).json()).blobLength).toBe(0)
  })

  it("ignores stray chunks that do not start at .0", async () => {
    const config = jwtConfig()
    const token = await encode({ token: { name: "A" }, secret: config.secret as string, salt: "sesame.session-token" })
    const res = await send(config, "/auth/session", { cookie: `sesame.session-token.1=${token}` })
    expect(await res.json()).toBeNull()
  })
})
