/**
 * The whole cookie policy.
 *
 * - Names start with `sesame.`. When cookies are secure (https, or `useSecureCookies`), names get
 *   the `__Secure-` prefix, and the CSRF cookie gets `__Host-` (no Domain, Path=/), so a sibling
 *   subdomain cannot plant one.
 * - Every cookie is HttpOnly, SameSite=Lax, Path=/, and Secure when cookies are secure. The one
 *   exception is a sign-in whose callback comes back as a cross-site POST (OAuth `form_post`): its
 *   check and callback-URL cookies are SameSite=None (see `crossSiteCookieOptions`).
 * - The short-lived check cookies (state, PKCE, nonce, WebAuthn challenge) live 15 minutes; the
 *   pending sign-in between two factors 5 minutes; a TOTP secret being set up and an email code's
 *   binding to the browser that asked for it 10 minutes; a remembered device as long as the app
 *   says (`twoFactor.rememberDevice`).
 * - The session cookie is split into chunks `name.0`, `name.1`, … when its value exceeds what every
 *   browser stores in one cookie (4096 bytes for name and value). Writing it deletes any chunk the
 *   request carried that the new value does not use, so no stale tail survives.
 * - The prefix rules are enforced twice: when the configuration is resolved and when a cookie is
 *   serialised.
 *
 * @module
 */

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

/** Every cookie Sesame sets, by role. */
export interface CookiesOptions {
  sessionToken: CookieOption
  callbackUrl: CookieOption
  csrfToken: CookieOption
  pkceCodeVerifier: CookieOption
  state: CookieOption
  nonce: CookieOption
  webauthnChallenge: CookieOption
  /** A sign-in whose first factor passed, waiting for the second. */
  pendingSignIn: CookieOption
  /** A TOTP secret shown for setup, until a first code confirms it. */
  twoFactorSetup: CookieOption
  /** The browser that asked for an email code (the code is only good there). */
  emailCode: CookieOption
  /** This browser passed the second factor and may skip it for a while ("remember this device"). */
  rememberedDevice: CookieOption
  /** When the browser's database session started, for adapters that do not store it (`session/start-cookie.ts`). */
  sessionStart: CookieOption
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
/** Seconds a pending sign-in waits for its second factor. */
export const pendingSignInMaxAge = 5 * 60
/** Seconds a TOTP secret being set up, or an emailed code, stays usable. */
export const codeCookieMaxAge = 10 * 60

/**
 * Name + value size per cookie that every browser accepts is 4096 bytes; we keep 160 of them for the
 * name, leaving 3936 for each chunk's value.
 */
export const chunkSize = 4096 - 160
/** More chunks than this is not a session cookie of ours. */
const maxChunks = 64

/** The built-in cookie names and options. */
export function defaultCookies(secure: boolean): CookiesOptions {
  const prefix = secure ? "__Secure-" : ""
  const base: CookieOptions = { httpOnly: true, sameSite: "lax", path: "/", secure }
  return {
    sessionToken: { name: `${prefix}sesame.session-token`, options: { ...base } },
    callbackUrl: { name: `${prefix}sesame.callback-url`, options: { ...base } },
    csrfToken: { name: `${secure ? "__Host-" : ""}sesame.csrf-token`, options: { ...base } },
    pkceCodeVerifier: { name: `${prefix}sesame.pkce.code_verifier`, options: { ...base, maxAge: checkCookieMaxAge } },
    state: { name: `${prefix}sesame.state`, options: { ...base, maxAge: checkCookieMaxAge } },
    nonce: { name: `${prefix}sesame.nonce`, options: { ...base, maxAge: checkCookieMaxAge } },
    webauthnChallenge: { name: `${prefix}sesame.challenge`, options: { ...base, maxAge: checkCookieMaxAge } },
    pendingSignIn: { name: `${prefix}sesame.pending-sign-in`, options: { ...base, maxAge: pendingSignInMaxAge } },
    twoFactorSetup: { name: `${prefix}sesame.two-factor-setup`, options: { ...base, maxAge: codeCookieMaxAge } },
    emailCode: { name: `${prefix}sesame.email-code`, options: { ...base, maxAge: codeCookieMaxAge } },
    // Its lifetime is the app's `twoFactor.rememberDevice`, set where it is issued.
    rememberedDevice: { name: `${prefix}sesame.remembered-device`, options: { ...base } },
    // Its lifetime is the session's, set where it is issued.
    sessionStart: { name: `${prefix}sesame.session-start`, options: { ...base } },
  }
}

/**
 * The session cookie of Auth.js v5, read only with `migrateFrom: "authjs"` (`migrate/authjs/`):
 * `authjs.session-token`, `__Secure-authjs.session-token` on secure origins (the rule Auth.js
 * shares with Sesame: `useSecureCookies`, else https), chunked `.0`, `.1`, … like Sesame's. The
 * options are Auth.js's (host-only, `Path=/`), whatever the app set for its own cookies: they are
 * what deletes the cookie.
 */
export function authjsSessionCookie(secure: boolean): CookieOption {
  return { name: `${secure ? "__Secure-" : ""}authjs.session-token`, options: { httpOnly: true, sameSite: "lax", path: "/", secure } }
}

/**
 * Set once an Auth.js session was carried over in this browser (`migrate/authjs/`), and kept by
 * sign-out: an Auth.js cookie that Sesame could not delete (set with a `Domain`, to share it across
 * subdomains) is then never carried over again, which would sign the browser back in after a
 * sign-out. Its lifetime, `maxAge`, is the app's `session.maxAge`, set where it is issued.
 */
export function authjsCarriedCookie(secure: boolean): CookieOption {
  return { name: `${secure ? "__Secure-" : ""}sesame.authjs-carried`, options: { httpOnly: true, sameSite: "lax", path: "/", secure } }
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
export function mergeCookies(defaults: CookiesOptions, overrides: PartialCookiesOptions | undefined): CookiesOptions {
  if (!overrides) return defaults
  const merged = { ...defaults }
  for (const role of Object.keys(defaults) as (keyof CookiesOptions)[]) {
    const override = overrides[role]
    if (!override) continue
    merged[role] = {
      name: override.name ?? defaults[role].name,
      options: { ...defaults[role].options, ...override.options },
    }
  }
  return merged
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
