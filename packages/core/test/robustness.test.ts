/**
 * Thousands of malformed requests: `Auth()` must never throw and never answer 500 (the
 * configurations here are valid, so no 500 is a configuration error). The seed is printed; set
 * SESAME_FUZZ_SEED to replay a failure, SESAME_FUZZ_RUNS to change the count.
 */
import { describe, expect, it } from "vitest"
import { Auth, type AuthConfig } from "@sesame/core"
import { encode } from "@sesame/core/jwt"
import { MemoryAdapter } from "@sesame/core/adapters"
import { aliceCredentials, jwtConfig, secret } from "./helpers.js"

function mulberry32(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Rng = () => number
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!
const chance = (rng: Rng, p: number) => rng() < p

/** A header-safe string: printable Latin-1 without CR, LF or NUL. */
function headerText(rng: Rng, max: number): string {
  const length = Math.floor(rng() * max)
  let out = ""
  for (let i = 0; i < length; i++) {
    const code = chance(rng, 0.9) ? 0x20 + Math.floor(rng() * 0x5f) : 0xa0 + Math.floor(rng() * 0x5f)
    out += String.fromCharCode(code)
  }
  return out
}

function garbage(rng: Rng, max: number): string {
  const length = Math.floor(rng() * max)
  let out = ""
  for (let i = 0; i < length; i++) out += String.fromCharCode(Math.floor(rng() * 0xffff))
  return out
}

const badCallbackUrls = [
  "https://evil.example",
  "//evil.example",
  "/\\evil.example",
  "javascript:alert(1)",
  "http://[::1",
  "http://%zz",
  "%",
  "%E0%A4%A",
  "",
  " ",
  "http://",
  "x".repeat(10_000),
  "data:,x",
  "\u0000",
  "http://localhost:3000@evil.example",
]

const segments = [
  "session",
  "csrf",
  "providers",
  "signin",
  "signout",
  "callback",
  "error",
  "verify-request",
  "webauthn-options",
  "credentials",
  "unknown",
  "%",
  "%E0%A4%A",
  "%00",
  "..",
  ".",
  "%2F",
  "undefined",
  "\u00e9t\u00e9",
  "a".repeat(3000),
]

const routes = [
  "session",
  "csrf",
  "providers",
  "signin",
  "signin/credentials",
  "signout",
  "callback/credentials",
  "error",
  "verify-request",
  "signin/nobody",
  "callback/nobody",
]

function randomPath(rng: Rng, basePath: string): string {
  // Mostly well-formed routes (with hostile contents), so that the actions themselves are fuzzed.
  if (chance(rng, 0.7)) return `${basePath}/${pick(rng, routes)}`
  const depth = Math.floor(rng() * 4)
  let path = pick(rng, [basePath, "/auth", "/api/auth", "", `${basePath}/`, "/AUTH"])
  for (let i = 0; i < depth; i++) path += `/${pick(rng, segments)}`
  return path
}

async function randomRequest(rng: Rng, validToken: string, basePath: string): Promise<Request> {
  const method = chance(rng, 0.9) ? pick(rng, ["GET", "POST", "HEAD"]) : pick(rng, ["PUT", "DELETE", "PATCH", "OPTIONS"])
  const path = randomPath(rng, basePath)
  const query = new URLSearchParams()
  if (chance(rng, 0.5)) query.append("callbackUrl", pick(rng, badCallbackUrls))
  if (chance(rng, 0.1)) query.append("callbackUrl", pick(rng, badCallbackUrls))
  if (chance(rng, 0.3)) query.append("error", pick(rng, ["<script>", "Configuration", garbage(rng, 20), "CredentialsSignin"]))
  if (chance(rng, 0.2)) query.append(garbage(rng, 10), garbage(rng, 30))
  let url = `http://localhost:3000${path || "/"}`
  const search = query.toString()
  if (search) url += `?${search}`
  if (chance(rng, 0.1)) url += pick(rng, ["&%", "?%%", "#frag", "?a=%E0%A4%A"])

  const headers = new Headers()
  const cookieParts: string[] = []
  if (chance(rng, 0.4)) cookieParts.push(`sesame.session-token=${pick(rng, [validToken, validToken.slice(0, -5), headerText(rng, 200), `${validToken}x`])}`)
  if (chance(rng, 0.2)) for (let i = 0; i < 1 + Math.floor(rng() * 5); i++) cookieParts.push(`sesame.session-token.${pick(rng, [i, 99, -1, "x"])}=${headerText(rng, 100)}`)
  if (chance(rng, 0.3)) cookieParts.push(`sesame.csrf-token=${pick(rng, ["a|b", "%7C", headerText(rng, 150), `${"a".repeat(64)}%7C${"b".repeat(64)}`])}`)
  if (chance(rng, 0.3)) cookieParts.push(`sesame.callback-url=${encodeURIComponent(pick(rng, badCallbackUrls))}`)
  if (chance(rng, 0.1)) cookieParts.push(headerText(rng, 8000))
  if (cookieParts.length) headers.set("cookie", cookieParts.join(pick(rng, ["; ", ";", " ;; "])))
  if (chance(rng, 0.1)) headers.set("x-forwarded-host", headerText(rng, 60))
  if (chance(rng, 0.1)) headers.set("x-forwarded-proto", pick(rng, ["https", "ftp", headerText(rng, 10)]))
  if (chance(rng, 0.1)) headers.set("host", headerText(rng, 40))
  if (chance(rng, 0.2)) headers.set("x-auth-return-redirect", "1")
  if (chance(rng, 0.05)) headers.set("x-huge", "h".repeat(64 * 1024))
  if (chance(rng, 0.1)) headers.set("accept-language", headerText(rng, 80))

  let body: string | Uint8Array | undefined
  if (method !== "GET" && method !== "HEAD") {
    const kind = pick(rng, ["form", "json", "badjson", "multipart", "text", "none", "binary", "repeated", "big"])
    switch (kind) {
      case "form": {
        headers.set("content-type", "application/x-www-form-urlencoded")
        const form = new URLSearchParams()
        if (chance(rng, 0.7)) form.set("csrfToken", pick(rng, ["", "a".repeat(64), garbage(rng, 80)]))
        if (chance(rng, 0.5)) form.set("callbackUrl", pick(rng, badCallbackUrls))
        if (chance(rng, 0.5)) form.set("username", garbage(rng, 30))
        if (chance(rng, 0.5)) form.set("password", garbage(rng, 30))
        body = form.toString() + (chance(rng, 0.1) ? "&%zz=%" : "")
        break
      }
      case "json":
        headers.set("content-type", "application/json")
        body = JSON.stringify(pick(rng, [{ csrfToken: "x", data: { a: garbage(rng, 20) } }, [], null, 42, "str", { data: null }]))
        break
      case "badjson":
        headers.set("content-type", "application/json")
        body = pick(rng, ["{", "}", "nul", garbage(rng, 50)])
        break
      case "multipart":
        headers.set("content-type", pick(rng, ["multipart/form-data", "multipart/form-data; boundary=x"]))
        body = pick(rng, ["--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb\r\n--x--\r\n", garbage(rng, 100)])
        break
      case "text":
        headers.set("content-type", pick(rng, ["text/plain", "text/xml", headerText(rng, 30)]))
        body = garbage(rng, 200)
        break
      case "binary":
        headers.set("content-type", "application/x-www-form-urlencoded")
        body = crypto.getRandomValues(new Uint8Array(Math.floor(rng() * 500)))
        break
      case "repeated":
        headers.set("content-type", "application/x-www-form-urlencoded")
        body = "csrfToken=a&csrfToken=b&callbackUrl=x"
        break
      case "big":
        headers.set("content-type", "application/x-www-form-urlencoded")
        body = `password=${"p".repeat(1024 * 1024 + 10)}`
        break
      default:
        break
    }
  }
  return new Request(url, { method, headers, body: body as BodyInit | undefined })
}

describe("robustness", () => {
  it("survives thousands of malformed requests without a 500 or a throw", async () => {
    const seed = Number(process.env.SESAME_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31))
    const runs = Number(process.env.SESAME_FUZZ_RUNS ?? 3000)
    console.log(`robustness: seed ${seed}, ${runs} requests (replay with SESAME_FUZZ_SEED=${seed})`)
    const rng = mulberry32(seed)
    const silent = { error: () => {}, warn: () => {}, debug: () => {} }
    const configs: AuthConfig[] = [
      jwtConfig({ logger: silent }),
      jwtConfig({ logger: silent, basePath: "/api/auth", pages: { signIn: "/login", error: "/oops" } }),
      { secret: [secret, "older-secret-0123456789abcdef"], trustHost: true, logger: silent, providers: [aliceCredentials()], useSecureCookies: true },
      { secret, trustHost: true, logger: silent, adapter: MemoryAdapter(), providers: [aliceCredentials({ createUser: true })] },
    ]
    const validToken = await encode({ token: { sub: "1", name: "Alice" }, secret, salt: "sesame.session-token" })
    const statuses = new Map<number, number>()
    for (let i = 0; i < runs; i++) {
      const config = configs[i % configs.length]!
      const req = await randomRequest(rng, validToken, config.basePath ?? "/auth")
      const description = `${req.method} ${req.url.slice(0, 200)} (seed ${seed}, request ${i})`
      let res: Response
      try {
        res = await Auth(req, config)
      } catch (error) {
        throw new Error(`Auth() threw for ${description}: ${String(error)}`)
      }
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
      // The one 500 allowed: the error page displaying a configuration error, which anyone can
      // request with ?error=Configuration (the page's status says what it shows).
      const url = new URL(req.url)
      const showsConfigurationError =
        url.pathname.replace(/\/+/g, "/").replace(/\/$/, "") === `${config.basePath ?? "/auth"}/error` &&
        url.searchParams.get("error") === "Configuration"
      if (!(showsConfigurationError && res.status === 500)) expect(res.status, description).toBeLessThan(500)
      const text = await res.text()
      expect(text, description).not.toMatch(/\n\s+at .+:\d+:\d+/)
    }
    console.log(`robustness: statuses ${JSON.stringify(Object.fromEntries(statuses))}`)
    // The generator must actually reach the interesting paths.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(runs / 5)
    expect(statuses.get(302) ?? 0).toBeGreaterThan(runs / 20)
    expect(statuses.get(400) ?? 0).toBeGreaterThan(runs / 10)
  }, 120_000)
})
