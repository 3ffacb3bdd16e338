/**
 * The pieces of a hostile request: paths, query strings, bodies of every content type, hostile
 * host and fetch-metadata headers, and cookie headers that mix real cookies with junk (duplicated
 * names, chunked session cookies with a bad chunk, huge values). A `Draft` collects them and
 * becomes a `Request`; it also says how to print the request when it breaks a property.
 */
import { origin } from "../helpers.js"
import { bytes, chance, garbage, headerText, int, mutate, pick, tokenLike, type Rng } from "./random.js"
import { ids, type RealCookie, type Target } from "./targets.js"

export interface Draft {
  method: string
  /** The request URL's origin: the app's, or one a proxy or a forged Host made up. */
  base: string
  path: string
  query: [string, string][]
  /** Appended to the URL as it is (a broken escape, a fragment). */
  rawSuffix: string
  headers: Headers
  cookies: string[]
  cookieSeparator: string
  body: string | Uint8Array | undefined
}

export function draft(method: string, path: string): Draft {
  return { method, base: origin, path, query: [], rawSuffix: "", headers: new Headers(), cookies: [], cookieSeparator: "; ", body: undefined }
}

/** GET and HEAD (in any case: `fetch` normalises them) carry no body. */
export function readsNoBody(d: Draft): boolean {
  return /^(?:get|head)$/i.test(d.method)
}

/** The request URL, exactly as sent. */
export function draftUrl(d: Draft): string {
  const search = new URLSearchParams(d.query).toString()
  return `${d.base}${d.path || "/"}${search ? `?${search}` : ""}${d.rawSuffix}`
}

export function toRequest(d: Draft): Request {
  const url = draftUrl(d)
  const headers = new Headers(d.headers)
  if (d.cookies.length) headers.set("cookie", d.cookies.join(d.cookieSeparator))
  const body = readsNoBody(d) ? undefined : d.body
  return new Request(url, { method: d.method, headers, body: body as BodyInit | undefined })
}

/** The request, readable and cut to a printable size. */
export function describeDraft(d: Draft): string {
  const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s)
  const request = toRequest(d)
  const lines = [`${d.method} ${cut(request.url, 300)}`]
  for (const [name, value] of request.headers) lines.push(`  ${name}: ${cut(JSON.stringify(value), 400)}`)
  if (d.body !== undefined && !readsNoBody(d)) {
    lines.push(`  body: ${typeof d.body === "string" ? cut(JSON.stringify(d.body), 600) : `${d.body.length} random bytes`}`)
  }
  return lines.join("\n")
}

// ---------------------------------------------------------------------------------------------
// Values

export const badCallbackUrls = [
  "https://evil.example",
  "//evil.example",
  "/\\evil.example",
  "\\\\evil.example",
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
  "http://localhost:3000.evil.example/",
  "https://localhost:3000/",
  "/%2F%2Fevil.example",
  "/ok?next=https://evil.example",
  "http://localhost:3000/dashboard",
  "/dashboard",
]

const hosts = [
  "evil.example",
  "localhost:3000",
  "localhost:3000.evil.example",
  "127.0.0.1",
  "[::1]:3000",
  "[::1",
  "",
  "evil.example:80@localhost",
  "localhost:99999",
  "LOCALHOST:3000",
  "a".repeat(300),
  "evil.example/path",
  "evil.example\\x",
]

/** Values of `X-Forwarded-Host`, lists included (which element wins is the proxy's business). */
const forwardedHosts = [
  ...hosts,
  "evil.example, localhost:3000",
  "localhost:3000, evil.example",
  " , evil.example",
  ",,",
  "evil.example,evil2.example,evil3.example",
  "localhost:3000,localhost:3000",
]

const forwardedProtos = ["https", "http", "https, http", "http, https", "ftp", "javascript", "HTTPS", "", "wss"]
const origins = ["http://localhost:3000", "https://localhost:3000", "http://evil.example", "null", "", "http://localhost:3000.evil.example", "http://127.0.0.1:3000"]
const fetchSites = ["cross-site", "same-site", "same-origin", "none", "CROSS-SITE", "same-origin, cross-site", "x"]
const requestOrigins = ["http://evil.example", "https://localhost:3000", "http://127.0.0.1:3000", "http://localhost.evil.example:3000", "http://localhost:8080"]

// ---------------------------------------------------------------------------------------------
// Headers

/** Adds a random set of hostile headers (none at all about a third of the time). */
export function hostileHeaders(rng: Rng, d: Draft): void {
  if (chance(rng, 0.35)) return
  const h = d.headers
  if (chance(rng, 0.25)) h.set("host", chance(rng, 0.85) ? pick(rng, hosts) : headerText(rng, 40))
  if (chance(rng, 0.25)) h.set("x-forwarded-host", chance(rng, 0.85) ? pick(rng, forwardedHosts) : headerText(rng, 60))
  if (chance(rng, 0.2)) h.set("x-forwarded-proto", chance(rng, 0.9) ? pick(rng, forwardedProtos) : headerText(rng, 10))
  if (chance(rng, 0.05)) h.set("forwarded", pick(rng, ["host=evil.example;proto=https", "for=1.2.3.4;host=localhost:3000", headerText(rng, 50)]))
  if (chance(rng, 0.05)) h.set("x-forwarded-port", pick(rng, ["443", "80", "x", "99999"]))
  if (chance(rng, 0.3)) h.set("origin", chance(rng, 0.9) ? pick(rng, origins) : headerText(rng, 30))
  if (chance(rng, 0.3)) h.set("sec-fetch-site", pick(rng, fetchSites))
  if (chance(rng, 0.1)) h.set("sec-fetch-mode", pick(rng, ["navigate", "cors", "no-cors", "same-origin", "websocket"]))
  if (chance(rng, 0.1)) h.set("sec-fetch-dest", pick(rng, ["document", "iframe", "empty", "image"]))
  if (chance(rng, 0.1)) h.set("referer", pick(rng, ["https://evil.example/", "http://localhost:3000/", headerText(rng, 50)]))
  if (chance(rng, 0.15)) h.set("x-auth-return-redirect", pick(rng, ["1", "true", "0"]))
  if (chance(rng, 0.1)) h.set("accept", pick(rng, ["application/json", "text/html", "*/*", headerText(rng, 30)]))
  if (chance(rng, 0.1)) h.set("accept-language", chance(rng, 0.5) ? pick(rng, ["de", "fr-CH, fr;q=0.9", "ja", "xx", "*"]) : headerText(rng, 80))
  if (chance(rng, 0.03)) h.set(pick(rng, ["sec-purpose", "purpose", "x-purpose", "x-moz"]), pick(rng, ["prefetch", "prefetch;prerender", "preview"]))
  if (chance(rng, 0.03)) h.set("x-huge", "h".repeat(64 * 1024))
  if (chance(rng, 0.05)) d.base = pick(rng, requestOrigins)
}

// ---------------------------------------------------------------------------------------------
// Cookies

const cookieBases = ["sesame.session-token", "sesame.csrf-token", "sesame.callback-url", "sesame.state", "sesame.pkce.code_verifier", "sesame.nonce", "sesame.challenge"]

function anyCookieName(rng: Rng): string {
  return `${pick(rng, ["", "", "__Secure-", "__Host-"])}${pick(rng, cookieBases)}`
}

function junkValue(rng: Rng): string {
  switch (int(rng, 6)) {
    case 0:
      return headerText(rng, 200)
    case 1:
      return tokenLike(rng, int(rng, 400))
    case 2:
      return `${tokenLike(rng, 30)}.${tokenLike(rng, 10)}.${tokenLike(rng, 40)}.${tokenLike(rng, 20)}.${tokenLike(rng, 22)}`
    case 3:
      return pick(rng, ["a|b", "%7C", "%E0%A4%A", '"quoted"', '"', "=", "null", "undefined", "[object Object]"])
    case 4:
      return `${"a".repeat(64)}%7C${"b".repeat(64)}`
    default:
      return ""
  }
}

/** A chunked form of a real session cookie, with something wrong (or nothing) about the chunks. */
function chunked(rng: Rng, real: RealCookie): string[] {
  const cut = 1 + int(rng, Math.max(1, real.value.length - 1))
  const parts = [`${real.name}.0=${real.value.slice(0, cut)}`, `${real.name}.1=${real.value.slice(cut)}`]
  switch (int(rng, 7)) {
    case 0:
      return parts
    case 1:
      return [parts[0]!]
    case 2:
      return [parts[1]!, parts[0]!, `${real.name}.2=${junkValue(rng)}`]
    case 3:
      return [`${real.name}.0=${junkValue(rng)}`, parts[1]!]
    case 4:
      return [`${real.name}=${real.value}`, ...parts, `${real.name}.${pick(rng, ["01", "999", "-1", "x", "63", "64"])}=${junkValue(rng)}`]
    case 5:
      return [`${real.name}.1=${real.value}`]
    default:
      return [`${real.name}=${junkValue(rng)}`, ...parts]
  }
}

/** Session cookies of every target: a real cookie is sometimes sent to another configuration. */
export function allSessions(targets: readonly Target[]): RealCookie[] {
  return targets.flatMap((t) => t.material.sessions)
}

/**
 * Junk cookies, plus, often, a real session cookie (this target's or another's) as it is, mutated,
 * duplicated or chunked.
 */
export function junkCookies(rng: Rng, d: Draft, t: Target, sessions: readonly RealCookie[]): void {
  const own = t.material.sessions
  if (chance(rng, 0.35) && (own.length || sessions.length)) {
    const real = chance(rng, 0.75) && own.length ? pick(rng, own) : pick(rng, sessions)
    switch (int(rng, 6)) {
      case 0:
        d.cookies.push(`${real.name}=${real.value}`)
        break
      case 1:
        d.cookies.push(`${real.name}=${mutate(rng, real.value)}`)
        break
      case 2:
        d.cookies.push(...(chance(rng, 0.5) ? [`${real.name}=${junkValue(rng)}`, `${real.name}=${real.value}`] : [`${real.name}=${real.value}`, `${real.name}=${junkValue(rng)}`]))
        break
      case 3:
        d.cookies.push(...chunked(rng, real))
        break
      case 4:
        d.cookies.push(`${t.cookies.session}=${real.value}`)
        break
      default:
        d.cookies.push(`${real.name}=${real.value}`, `${t.cookies.csrf}=${junkValue(rng)}`)
    }
  }
  if (chance(rng, 0.3)) for (let i = 0; i < 1 + int(rng, 4); i++) d.cookies.push(`${anyCookieName(rng)}=${junkValue(rng)}`)
  if (chance(rng, 0.1)) d.cookies.push(`${t.cookies.callbackUrl}=${encodeURIComponent(pick(rng, badCallbackUrls))}`)
  if (chance(rng, 0.04)) d.cookies.push(`${pick(rng, [t.cookies.session, "big"])}=${"x".repeat(8_000 + int(rng, 60_000))}`)
  if (chance(rng, 0.05)) d.cookies.push(headerText(rng, 8000))
  if (chance(rng, 0.05)) d.cookies.push(pick(rng, ["=", "==", "noequals", "=value", ";", " "]))
  if (chance(rng, 0.05)) d.cookieSeparator = pick(rng, [";", " ;; ", ";\t", ",", "; ; "])
}

// ---------------------------------------------------------------------------------------------
// Paths, queries, bodies

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
  "webauthn-script",
  ...Object.values(ids),
  "unknown",
  "%",
  "%E0%A4%A",
  "%00",
  "..",
  ".",
  "%2F",
  "undefined",
  "__proto__",
  "constructor",
  "\u00e9t\u00e9",
  "a".repeat(3000),
]

const routes = [
  "session",
  "csrf",
  "providers",
  "signin",
  "signout",
  "error",
  "verify-request",
  "webauthn-script",
  ...Object.values(ids).flatMap((id) => [`signin/${id}`, `callback/${id}`, `webauthn-options/${id}`]),
  "signin/nobody",
  "callback/nobody",
  "callback/__proto__",
]

/** Mostly well-formed routes (so that the actions themselves are fuzzed), sometimes anything. */
export function randomPath(rng: Rng, basePath: string): string {
  if (chance(rng, 0.75)) return `${basePath}/${pick(rng, routes)}`
  let path = pick(rng, [basePath, "/auth", "/api/auth", "", `${basePath}/`, "/AUTH", `${basePath}//`])
  for (let i = 0, depth = int(rng, 4); i < depth; i++) path += `/${pick(rng, segments)}`
  return path
}

const fieldNames = ["csrfToken", "callbackUrl", "username", "password", "email", "action", "data", "token", "code", "state", "iss", "error", "redirect", "json"]

function fieldValue(rng: Rng, name: string): string {
  switch (name) {
    case "callbackUrl":
      return pick(rng, badCallbackUrls)
    case "email":
      return pick(rng, ["alice@example.com", "ALICE@EXAMPLE.COM", "a@b", "@", "a@b@c", " alice@example.com ", "x".repeat(400) + "@example.com", garbage(rng, 30)])
    case "action":
      return pick(rng, ["authenticate", "register", "", "delete", garbage(rng, 10)])
    default:
      return chance(rng, 0.5) ? tokenLike(rng, int(rng, 80)) : garbage(rng, 40)
  }
}

export function randomQuery(rng: Rng, d: Draft): void {
  if (chance(rng, 0.4)) d.query.push(["callbackUrl", pick(rng, badCallbackUrls)])
  if (chance(rng, 0.05)) d.query.push(["callbackUrl", pick(rng, badCallbackUrls)])
  if (chance(rng, 0.25)) d.query.push(["error", pick(rng, ["<script>", "Configuration", "AccessDenied", "Verification", "CredentialsSignin", garbage(rng, 20)])])
  if (chance(rng, 0.2)) d.query.push([pick(rng, fieldNames), fieldValue(rng, pick(rng, fieldNames))])
  if (chance(rng, 0.1)) d.query.push([garbage(rng, 10), garbage(rng, 30)])
  if (chance(rng, 0.08)) d.rawSuffix = pick(rng, ["&%", "?%%", "#frag", "?a=%E0%A4%A", "&callbackUrl=x&callbackUrl=y", "?__proto__=x", "?constructor[prototype]=1"])
}

/** Form fields: the ones the actions read, with hostile values, and noise. */
export function randomFields(rng: Rng): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const name of fieldNames) if (chance(rng, 0.3)) fields[name] = fieldValue(rng, name)
  if (chance(rng, 0.1)) fields[garbage(rng, 8)] = garbage(rng, 20)
  return fields
}

/** A body of a random kind, with its content type (or a lying one). */
export function randomBody(rng: Rng, d: Draft, fields: Record<string, string> = randomFields(rng)): void {
  const type = (value: string) => d.headers.set("content-type", value)
  switch (int(rng, 10)) {
    case 0:
    case 1:
      type(pick(rng, ["application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=utf-8", "APPLICATION/X-WWW-FORM-URLENCODED"]))
      d.body = new URLSearchParams(fields).toString() + (chance(rng, 0.1) ? pick(rng, ["&%zz=%", "&csrfToken=a&csrfToken=b", "&&&", "&="]) : "")
      break
    case 2:
      type("application/json")
      d.body = JSON.stringify(
        chance(rng, 0.6) ? fields : pick(rng, [[], null, 42, "str", { data: null }, { csrfToken: 1, data: { a: [1, { b: 2 }] } }, { csrfToken: ["a"], email: { $ne: null } }]),
      )
      break
    case 3:
      type(pick(rng, ["application/json", "application/json; charset=latin1"]))
      d.body = pick(rng, ["{", "}", "nul", '{"a":1,"a":2}', '{"csrfToken":"x"}'.repeat(2), '{"__proto__":{"csrfToken":"x"}}', '{"constructor":{"prototype":{"x":1}}}', garbage(rng, 50)])
      break
    case 4: {
      type(pick(rng, ["multipart/form-data; boundary=x", "multipart/form-data", "multipart/form-data; boundary="]))
      const parts = Object.entries(fields).map(([k, v]) => `--x\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, "")}"\r\n\r\n${v}\r\n`)
      if (chance(rng, 0.2)) parts.push('--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n')
      d.body = chance(rng, 0.8) ? `${parts.join("")}--x--\r\n` : garbage(rng, 100)
      break
    }
    case 5:
      type(pick(rng, ["text/plain", "text/xml", "application/octet-stream", headerText(rng, 30)]))
      d.body = garbage(rng, 200)
      break
    case 6:
      type("application/x-www-form-urlencoded")
      d.body = bytes(rng, 500)
      break
    case 7:
      if (chance(rng, 0.3)) {
        type("application/x-www-form-urlencoded")
        d.body = `password=${"p".repeat(1024 * 1024 + 10)}`
      }
      break
    default:
      if (chance(rng, 0.5)) type("application/x-www-form-urlencoded")
      d.body = new URLSearchParams(fields).toString()
  }
}
