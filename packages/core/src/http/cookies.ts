/**
 * The whole cookie policy.
 *
 * - Names start with `sesame.`. When cookies are secure (https, or `useSecureCookies`), names get
 *   the `__Secure-` prefix, and the CSRF cookie gets `__Host-` (no Domain, Path=/), so a sibling
 *   subdomain cannot plant one.
 * - Every cookie is HttpOnly, SameSite=Lax, Path=/, and Secure when cookies are secure. The one
 *   exception is a sign-in whose callback comes back as a cross-site POST (OAuth `form_post`): its
 *   check and callback-URL cookies are SameSite=None (see `crossSiteCookieOptions`).
 * - The short-lived check cookies (state, PKCE, nonce) live 15 minutes. A built-in capability
 *   declares its own cookies in its `feature.ts` (a name after `sesame.`, a lifetime), and they
 *   follow the same rules; the `cookies` option renames any of them by role.
 * - The session cookie is split into chunks `name.0`, `name.1`, … when its value exceeds what every
 *   browser stores in one cookie (4096 bytes for name and value). Writing it deletes any chunk the
 *   request carried that the new value does not use, so no stale tail survives.
 * - The prefix rules are enforced twice: when the configuration is resolved and when a cookie is
 *   serialised.
 *
 * @module
 */
import type { BuiltInCookies } from "../registry.js"

export interface CookieOptions {
  httpOnly?: boolean
  sameSite?: "lax" | "strict" | "none"
  path?: string
  secure?: boolean
  domain?: string
  /** Seconds. */
  maxAge?: number
  expires?: Date
  partitioned?: boolean
}

export interface CookieOption {
  name: string
  options: CookieOptions
}

/** The core's cookies, by role. */
export interface CoreCookies {
  sessionToken: CookieOption
  callbackUrl: CookieOption
  csrfToken: CookieOption
  pkceCodeVerifier: CookieOption
  state: CookieOption
  nonce: CookieOption
  /** When the browser's database session started, for adapters that do not store it (`session/start-cookie.ts`). */
  sessionStart: CookieOption
  /** The actor's own session, sealed, while a module's acting session replaces it (`session/acting.ts`). */
  keptSession: CookieOption
}

/** Every cookie Sesame sets, by role: the core's, and the built-in capabilities' (`registry.ts`). */
export interface CookiesOptions extends CoreCookies, BuiltInCookies {}

/** A cookie a capability declares: its name after `sesame.`, and its lifetime (none: set where it is issued). */
export interface CookieDeclaration {
  name: string
  maxAge?: number
}

/** The `cookies` configuration option: per role, a new name and/or options. */
export type PartialCookiesOptions = { [K in keyof CookiesOptions]?: { name?: string; options?: CookieOptions } }

/** A cookie to set (or, with an empty value and `maxAge: 0`, to delete). */
export interface ResponseCookie {
  name: string
  value: string
  options: CookieOptions
}

/** Seconds a state, PKCE, nonce or challenge cookie lives. */
export const checkCookieMaxAge = 15 * 60
/** Seconds a code's cookie lives: a secret being set up, the binding of an emailed code to its browser. */
export const codeCookieMaxAge = 10 * 60

/**
 * Name + value size per cookie that every browser accepts is 4096 bytes; we keep 160 of them for the
 * name, leaving 3936 for each chunk's value.
 */
export const chunkSize = 4096 - 160
/** More chunks than this is not a session cookie of ours. */
const maxChunks = 64

const baseOptions = (secure: boolean): CookieOptions => ({ httpOnly: true, sameSite: "lax", path: "/", secure })
const prefixed = (secure: boolean, name: string) => `${secure ? "__Secure-" : ""}sesame.${name}`

/**
 * A plugin's cookie `name` (`SesameModule` endpoints set them through `ModuleRequest.setCookie`):
 * under the module's id, with the core's prefix and options, for `maxAge` seconds.
 */
export function moduleCookie(secure: boolean, moduleId: string, name: string, maxAge: number): CookieOption {
  return { name: prefixed(secure, `${moduleId}.${name}`), options: { ...baseOptions(secure), maxAge } }
}

/** The core's cookie names and options. */
export function coreCookies(secure: boolean): CoreCookies {
  const base = baseOptions(secure)
  return {
    sessionToken: { name: prefixed(secure, "session-token"), options: { ...base } },
    callbackUrl: { name: prefixed(secure, "callback-url"), options: { ...base } },
    csrfToken: { name: `${secure ? "__Host-" : ""}sesame.csrf-token`, options: { ...base } },
    pkceCodeVerifier: { name: prefixed(secure, "pkce.code_verifier"), options: { ...base, maxAge: checkCookieMaxAge } },
    state: { name: prefixed(secure, "state"), options: { ...base, maxAge: checkCookieMaxAge } },
    nonce: { name: prefixed(secure, "nonce"), options: { ...base, maxAge: checkCookieMaxAge } },
    // Its lifetime is the session's, set where it is issued.
    sessionStart: { name: prefixed(secure, "session-start"), options: { ...base } },
    // Its lifetime is set where it is issued.
    keptSession: { name: prefixed(secure, "kept-session"), options: { ...base } },
  }
}

/** Every cookie's name and options: the core's, and those the capabilities declare (`declared`, role and cookie). */
export function defaultCookies(secure: boolean, declared: Iterable<readonly [string, CookieDeclaration]>): CookiesOptions {
  const base = baseOptions(secure)
  const cookies: Record<string, CookieOption> = { ...coreCookies(secure) }
  for (const [role, { name, maxAge }] of declared) {
    if (Object.hasOwn(cookies, role)) throw new Error(`The cookie role "${role}" is declared twice.`)
    cookies[role] = { name: prefixed(secure, name), options: maxAge === undefined ? { ...base } : { ...base, maxAge } }
  }
  return cookies as unknown as CookiesOptions
}

/**
 * `options` for a cookie that must ride along a cross-site POST: an OAuth `form_post` callback is a
 * POST from the provider's site, and browsers send only `SameSite=None` cookies with it, which must
 * be Secure. Without secure cookies (plain http) no such cookie can exist: `options` are kept
 * (`Lax`), and such a callback arrives without them.
 */
export function crossSiteCookieOptions(options: CookieOptions, secure: boolean): CookieOptions {
  return secure ? { ...options, sameSite: "none", secure: true } : options
}

/** The defaults with the user's `cookies` option merged in, role by role. */
export function mergeCookies<C extends Partial<CookiesOptions>>(defaults: C, overrides: PartialCookiesOptions | undefined): C {
  if (!overrides) return defaults
  const merged: Record<string, CookieOption> = { ...(defaults as Record<string, CookieOption>) }
  for (const [role, cookie] of Object.entries(merged)) {
    const override = overrides[role as keyof CookiesOptions]
    if (!override) continue
    merged[role] = { name: override.name ?? cookie.name, options: { ...cookie.options, ...override.options } }
  }
  return merged as C
}

const cookieNameToken = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/** Why a cookie cannot be set as configured, or null when it can. */
export function cookieProblem(name: string, options: CookieOptions): string | null {
  if (!cookieNameToken.test(name)) return `cookie name "${name}" has characters a cookie name cannot have`
  if (name.startsWith("__Secure-") && !options.secure) return `cookie "${name}" has the __Secure- prefix, so it needs secure: true`
  if (name.startsWith("__Host-")) {
    if (!options.secure) return `cookie "${name}" has the __Host- prefix, so it needs secure: true`
    if (options.path !== "/") return `cookie "${name}" has the __Host- prefix, so its path must be "/"`
    if (options.domain) return `cookie "${name}" has the __Host- prefix, so it cannot have a domain`
  }
  if (options.sameSite === "none" && !options.secure) return `cookie "${name}" has sameSite "none", so it needs secure: true`
  if (options.partitioned && !options.secure) return `cookie "${name}" is partitioned, so it needs secure: true`
  if (options.path !== undefined && /[;\r\n]/.test(options.path)) return `cookie "${name}" has an invalid path`
  if (options.domain !== undefined && /[;\r\n\s]/.test(options.domain)) return `cookie "${name}" has an invalid domain`
  return null
}

/**
 * A request's cookies by name. The first occurrence of a name wins in the map, as it does in every
 * server; `repeated` lists the names the header carried more than once, which a browser only sends
 * when two cookies of one name were set for different domains or paths: a planted cookie beside
 * the app's own is the usual reason (see `http/csrf.ts`).
 */
export class ParsedCookies extends Map<string, string> {
  readonly repeated = new Set<string>()
}

/** A request's cookies as the actions read them: by name, and the names sent more than once. */
export type RequestCookies = ReadonlyMap<string, string> & { readonly repeated: ReadonlySet<string> }

/** Parses a `Cookie` header. The first occurrence of a name wins; undecodable values are kept raw. */
export function parseCookieHeader(header: string | null | undefined): ParsedCookies {
  const cookies = new ParsedCookies()
  if (!header) return cookies
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=")
    if (eq === -1) continue
    const name = pair.slice(0, eq).trim()
    if (!name) continue
    if (cookies.has(name)) {
      cookies.repeated.add(name)
      continue
    }
    let value = pair.slice(eq + 1).trim()
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1)
    if (value.includes("%")) {
      try {
        value = decodeURIComponent(value)
      } catch {
        // A value that is not valid percent-encoding is kept as it is; it will fail validation later.
      }
    }
    cookies.set(name, value)
  }
  return cookies
}

/** Serialises a `Set-Cookie` header value. Throws a TypeError for a cookie that breaks the prefix rules. */
export function serializeCookie({ name, value, options }: ResponseCookie): string {
  const problem = cookieProblem(name, options)
  if (problem) throw new TypeError(problem)
  let out = `${name}=${encodeURIComponent(value)}`
  if (options.domain) out += `; Domain=${options.domain}`
  out += `; Path=${options.path ?? "/"}`
  if (options.maxAge !== undefined) {
    const maxAge = Math.max(0, Math.floor(options.maxAge))
    out += `; Max-Age=${maxAge}`
    // Expires as well, for clients that ignore Max-Age.
    out += `; Expires=${new Date(maxAge === 0 ? 0 : Date.now() + maxAge * 1000).toUTCString()}`
  } else if (options.expires) {
    out += `; Expires=${options.expires.toUTCString()}`
  }
  if (options.httpOnly) out += "; HttpOnly"
  if (options.secure) out += "; Secure"
  if (options.sameSite) out += `; SameSite=${options.sameSite[0]!.toUpperCase()}${options.sameSite.slice(1)}`
  if (options.partitioned) out += "; Partitioned"
  return out
}

/** A cookie that deletes `name`. */
export function expiredCookie(name: string, options: CookieOptions): ResponseCookie {
  const { expires: _expires, ...rest } = options
  return { name, value: "", options: { ...rest, maxAge: 0 } }
}

function chunkNames(cookies: ReadonlyMap<string, string>, name: string): string[] {
  const found: string[] = []
  for (const key of cookies.keys()) {
    if (key === name) found.push(key)
    else if (key.startsWith(`${name}.`) && /^\d{1,3}$/.test(key.slice(name.length + 1))) found.push(key)
  }
  return found
}

/** Reads a possibly chunked cookie: `name`, or `name.0` + `name.1` + … in order. */
export function readChunkedCookie(cookies: ReadonlyMap<string, string>, name: string): string | undefined {
  if (cookies.has(`${name}.0`)) {
    let value = ""
    for (let i = 0; i < maxChunks; i++) {
      const chunk = cookies.get(`${name}.${i}`)
      if (chunk === undefined) break
      value += chunk
    }
    return value || undefined
  }
  return cookies.get(name) || undefined
}

/**
 * The cookies that store `value` under `name`, chunked when needed, plus deletions for every chunk
 * (or unchunked cookie) the request carried that the new value does not overwrite.
 */
export function writeChunkedCookie(
  name: string,
  value: string,
  options: CookieOptions,
  requestCookies: ReadonlyMap<string, string>,
): ResponseCookie[] {
  const out: ResponseCookie[] = []
  const written = new Set<string>()
  // The encoded length is what the browser stores.
  const encoded = encodeURIComponent(value)
  if (encoded.length <= chunkSize) {
    out.push({ name, value, options })
    written.add(name)
  } else {
    // Session values are base64url JWEs (no escaping), so slicing the raw value is safe.
    const count = Math.ceil(value.length / chunkSize)
    for (let i = 0; i < count; i++) {
      const chunkName = `${name}.${i}`
      out.push({ name: chunkName, value: value.slice(i * chunkSize, (i + 1) * chunkSize), options })
      written.add(chunkName)
    }
  }
  for (const stale of chunkNames(requestCookies, name)) {
    if (!written.has(stale)) out.push(expiredCookie(stale, options))
  }
  return out
}

/** Deletions for `name` and every chunk of it that the request carried. */
export function clearChunkedCookie(name: string, options: CookieOptions, requestCookies: ReadonlyMap<string, string>): ResponseCookie[] {
  const names = chunkNames(requestCookies, name)
  if (names.length === 0) names.push(name)
  return names.map((n) => expiredCookie(n, options))
}
