/**
 * Everything an action knows about the request it handles.
 *
 * The origin of the app, which every link, `redirect_uri`, state and redirect is built on, comes
 * only from what the app said it trusts (see `requestOrigin`): `AUTH_URL` / `SESAME_URL` when set,
 * whatever the headers say; else, with `trustHost`, the headers of the proxy in front of it; else
 * the `Host` header of a request for a loopback host (local development). Any other request is
 * refused with `UntrustedHost`; and a request for a non-loopback origin while no secret is
 * configured (the development secret is in use) with `MissingSecretError`.
 *
 * The CSRF state and the callback URL are computed on first use, so that the actions that do not
 * need them (a session read, say) do no work and set no cookie for them.
 *
 * @module
 */
import { isLoopbackHost } from "../config/origins.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { AuthError, MissingSecretError, UntrustedHost } from "../errors.js"
import { bearerCookies } from "./bearer.js"
import { ParsedCookies, type CookiesOptions, type RequestCookies, type ResponseCookie } from "./cookies.js"
import { csrfState, type CsrfState } from "./csrf.js"
import type { VerificationToken } from "../adapters/types.js"
import type { HeaderReader, Incoming } from "./incoming.js"
import type { Action } from "./request.js"

const hostPattern = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i

/**
 * The value the nearest proxy added: proxies append to `X-Forwarded-*` lists, so the first value
 * may be the client's own, and only the last one is the trusted proxy's.
 */
function lastValue(header: string | null): string | undefined {
  const value = header?.split(",").pop()?.trim()
  return value || undefined
}

/**
 * The origin of the first well-formed host among `hosts` (a malformed header is passed over), else
 * the request URL's.
 */
function originOf(url: URL, protocol: string, ...hosts: (string | null | undefined)[]): URL {
  for (const host of hosts) {
    if (!host || !hostPattern.test(host)) continue
    try {
      return new URL(`${protocol}://${host}`)
    } catch {
      // Try the next one.
    }
  }
  return new URL(url.origin)
}

/**
 * The app's origin for this request; else the error to answer with (`UntrustedHost` or
 * `MissingSecretError`, saying what to configure). `url` is the request's URL, parsed once by the caller.
 */
export function requestOrigin(headers: HeaderReader, url: URL, config: ResolvedConfig): string | AuthError {
  if (config.publicUrl && !config.generatedSecret) return config.publicUrl.origin
  // The answer depends only on the configuration and these values, which repeat from request to
  // request: parsing a URL for each costs more than the rest of a session check's routing.
  // Every input `originFor` reads is in the key: the URL's origin too, which it falls back on
  // when the Host header is missing or malformed (an HTTP/2 request, a `Request` built without one).
  const key = `${url.origin}\n${headers.get("host")}\n${config.hostPolicy === "proxy" ? `${headers.get("x-forwarded-host")}\n${headers.get("x-forwarded-proto")}` : ""}`
  let known = origins.get(config)
  if (!known) origins.set(config, (known = new Map()))
  const cached = known.get(key)
  if (cached !== undefined) return cached
  const origin = originFor(headers, url, config)
  // Errors are made anew each time (each is logged); an app sees few origins, anyone may send many.
  if (typeof origin === "string") {
    if (known.size >= 32) known.delete(known.keys().next().value as string)
    known.set(key, origin)
  }
  return origin
}

/** Origins already worked out, per configuration and request values (see `requestOrigin`). */
const origins = new WeakMap<ResolvedConfig, Map<string, string>>()

function originFor(headers: HeaderReader, url: URL, config: ResolvedConfig): string | AuthError {
  let origin: URL
  if (config.publicUrl) {
    origin = config.publicUrl
  } else {
    const host = headers.get("host")
    if (config.hostPolicy === "proxy") {
      const proto = lastValue(headers.get("x-forwarded-proto"))?.toLowerCase()
      const protocol = proto === "https" || proto === "http" ? proto : url.protocol.slice(0, -1)
      origin = originOf(url, protocol, lastValue(headers.get("x-forwarded-host")), host)
    } else {
      origin = originOf(url, url.protocol.slice(0, -1), host)
      if (!isLoopbackHost(origin.hostname)) {
        return new UntrustedHost(
          `A request for ${JSON.stringify(origin.host)} was refused: without AUTH_URL (or SESAME_URL) or \`trustHost\` only loopback hosts (localhost, 127.0.0.1, [::1]) are served. Set AUTH_URL to the app's public URL, or set \`trustHost: true\` (AUTH_TRUST_HOST=true) when a proxy you control sets the Host and X-Forwarded-* headers.`,
        )
      }
    }
  }
  if (config.generatedSecret && !isLoopbackHost(origin.hostname)) {
    return new MissingSecretError(
      `A request for ${JSON.stringify(origin.host)} was refused: no secret is set, and the development secret Sesame generates serves loopback hosts only. Set AUTH_SECRET (or SESAME_SECRET); \`npx @sesame/cli secret\` prints one.`,
    )
  }
  return origin.origin
}

/** A URL to redirect to, resolved against `origin`; null when it is not an http(s) URL. */
export function httpUrl(value: unknown, origin: string): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > 4096) return null
  try {
    const url = new URL(value, origin)
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null
  } catch {
    return null
  }
}

export interface ContextInput {
  config: ResolvedConfig
  incoming: Incoming
  method: "GET" | "POST"
  head: boolean
  action: Action
  providerId: string | undefined
  /** With the action `module`: the endpoint's path. */
  modulePath?: string
  query: Record<string, string>
  body: Record<string, unknown>
  cookies: ParsedCookies
}

/**
 * Everything an action knows about the request it handles. A class rather than an object literal
 * with a getter and closures: one is made per request, and its methods and the `request` getter
 * then live once on the prototype. Exported as a type only: `createContext` makes them.
 */
class RequestContext {
  readonly config: ResolvedConfig
  /** The request's headers (what the endpoints read). */
  readonly headers: HeaderReader
  readonly url: URL
  /** The app's origin, e.g. `https://example.com`. */
  readonly origin: string
  /**
   * The origin plus the base path: where the endpoints live. Never an issuer: with `trustHost` it
   * follows the request's headers, and an issuer must not (`issuerOf`, `http/issuer.ts`).
   */
  readonly authUrl: string
  readonly method: "GET" | "POST"
  readonly head: boolean
  readonly action: Action
  /** The provider named in the path (the dispatcher looks it up). */
  readonly providerId: string | undefined
  /** With the action `module`: the module endpoint's path under the base path. */
  readonly modulePath: string | undefined
  readonly query: Readonly<Record<string, string>>
  readonly body: Readonly<Record<string, unknown>>
  readonly secure: boolean
  readonly cookieOptions: CookiesOptions
  /** The client wants redirects as `200 {url}`. */
  readonly returnRedirect: boolean
  /** The session comes from `Authorization: Bearer` (a native app), not a cookie (`http/bearer.ts`). */
  readonly bearer: boolean
  /** Cookies to set on whatever response ends the request (errors included). */
  readonly setCookies: ResponseCookie[] = []
  /** One-time values this request used up: put back if it ends in a storage outage (`adapters/one-time-tokens.ts`). */
  readonly spentOneTime: VerificationToken[] = []
  readonly #incoming: Incoming
  #cookies: RequestCookies
  #csrf: Promise<CsrfState> | undefined
  #callbackUrl: Promise<string> | undefined

  constructor(input: ContextInput, origin: string) {
    const { config, incoming } = input
    this.config = config
    this.#incoming = incoming
    this.headers = incoming.headers
    this.url = incoming.url
    this.origin = origin
    this.authUrl = `${origin}${config.basePath}`
    this.method = input.method
    this.head = input.head
    this.action = input.action
    this.providerId = input.providerId
    this.modulePath = input.modulePath
    this.query = input.query
    this.body = input.body
    this.secure = config.useSecureCookies ?? origin.startsWith("https:")
    this.cookieOptions = config.cookies(this.secure)
    const fromBearer = bearerCookies(config.nativeApps !== undefined, input.action, incoming.headers, input.cookies, this.cookieOptions.sessionToken.name)
    this.#cookies = fromBearer ?? input.cookies
    this.bearer = fromBearer !== null
    this.returnRedirect = !!incoming.headers.get("x-auth-return-redirect")
  }

  /** The request's cookies by name, as the browser sent them (or as `treatAsSent` left them). */
  get cookies(): RequestCookies {
    return this.#cookies
  }

  /**
   * Reads the rest of the request as if the browser had sent `cookies` (cookies just queued on the
   * answer; a deletion removes its name): a session carried over from Auth.js (`migrate/authjs/`)
   * is then read by the same code, in this request, as the browser's next request will be.
   */
  treatAsSent(cookies: readonly ResponseCookie[]): void {
    const next = new ParsedCookies(this.#cookies)
    for (const name of this.#cookies.repeated) next.repeated.add(name)
    for (const { name, value, options } of cookies) {
      if (options.maxAge === 0) next.delete(name)
      else next.set(name, value)
    }
    this.#cookies = next
  }

  /** A read the app's own server made for a page it renders (`Incoming.appRead`). */
  get appRead(): boolean {
    return this.#incoming.appRead === true
  }

  /** The TCP peer's address, when whatever carried the request knows it (`Incoming.peer`). */
  get peer(): string | undefined {
    return this.#incoming.peer
  }

  /** The client's address by the configuration's rule (`trustedProxy`; `http/client-ip.ts`), null when not known. */
  get clientAddress(): string | null {
    return this.config.clientAddress(this.#incoming.headers, this.#incoming.peer)
  }

  /** The request as a web `Request`, for the app's callbacks (made on first use by the Node.js handler). */
  get request(): Request {
    return this.#incoming.request()
  }

  /** The CSRF state (the token is minted, and its cookie queued, on first call). */
  csrf(): Promise<CsrfState> {
    this.#csrf ??= (() => {
      const { config, cookies, cookieOptions, setCookies } = this
      const { name } = cookieOptions.csrfToken
      // A CSRF cookie sent twice is trusted in neither copy (`http/csrf.ts`, layer 2).
      const repeated = cookies.repeated.has(name)
      if (repeated) config.logger.debug("the request carries the CSRF cookie more than once (a planted cookie?); neither copy is used")
      return csrfState(
        repeated ? undefined : cookies.get(name),
        this.method === "POST" ? this.body.csrfToken : undefined,
        config.secrets,
        cookieOptions.csrfToken,
      ).then((state) => {
        if (state.cookie) setCookies.push(state.cookie)
        return state
      })
    })()
    return this.#csrf
  }

  /**
   * Where to send the user when the flow ends: validated, and through the `redirect` callback.
   * `recorded`: where the flow itself recorded it would go (a module's pending sign-in), in place of
   * the request's field, query and cookie; the first call decides.
   */
  callbackUrl(recorded?: string): Promise<string> {
    this.#callbackUrl ??= (async () => {
      const { config, origin, body, query, cookies, cookieOptions } = this
      const candidate =
        recorded !== undefined
          ? httpUrl(recorded, origin)
          : (httpUrl(body.callbackUrl, origin) ?? httpUrl(query.callbackUrl, origin) ?? httpUrl(cookies.get(cookieOptions.callbackUrl.name), origin))
      const home = `${origin}/`
      if (!candidate) return home
      let chosen: unknown
      try {
        chosen = await config.callbacks.redirect({ url: candidate, baseUrl: origin })
      } catch (error) {
        config.logger.error(error instanceof Error ? error : new Error(String(error)))
        return home
      }
      return httpUrl(chosen, origin) ?? home
    })()
    return this.#callbackUrl
  }
}

export function createContext(input: ContextInput): RequestContext {
  const origin = requestOrigin(input.incoming.headers, input.incoming.url, input.config)
  if (typeof origin !== "string") throw origin
  return new RequestContext(input, origin)
}

export type { RequestContext }
