/**
 * Everything an action knows about the request it handles.
 *
 * The origin of the app comes from `AUTH_URL` / `SESAME_URL` when set. Otherwise, when the host is
 * trusted, from `X-Forwarded-Host` / `Host` and `X-Forwarded-Proto` (frameworks such as Next.js
 * hand over a `request.url` that says `localhost`), and last from the request URL.
 *
 * The CSRF state and the callback URL are computed on first use, so that the actions that do not
 * need them (a session read, say) do no work and set no cookie for them.
 *
 * @module
 */
import type { ResolvedConfig } from "../config/resolve.js"
import type { Provider } from "../types.js"
import type { CookiesOptions, ResponseCookie } from "./cookies.js"
import { csrfState, type CsrfState } from "./csrf.js"
import type { Action } from "./request.js"

export interface RequestContext {
  readonly config: ResolvedConfig
  readonly request: Request
  readonly url: URL
  /** The app's origin, e.g. `https://example.com`. */
  readonly origin: string
  /** The origin plus the base path: where the endpoints live. */
  readonly authUrl: string
  readonly method: "GET" | "POST"
  readonly head: boolean
  readonly action: Action
  readonly providerId: string | undefined
  /** The provider named in the path, when it exists. */
  readonly provider: Provider | undefined
  readonly query: Readonly<Record<string, string>>
  readonly body: Readonly<Record<string, unknown>>
  readonly cookies: ReadonlyMap<string, string>
  readonly secure: boolean
  readonly cookieOptions: CookiesOptions
  /** The client wants redirects as `200 {url}`. */
  readonly returnRedirect: boolean
  /** Cookies to set on whatever response ends the request (errors included). */
  readonly setCookies: ResponseCookie[]
  /** The CSRF state (the token is minted, and its cookie queued, on first call). */
  csrf(): Promise<CsrfState>
  /** Where to send the user when the flow ends: validated, and through the `redirect` callback. */
  callbackUrl(): Promise<string>
}

const hostPattern = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i

function firstValue(header: string | null): string | undefined {
  const value = header?.split(",")[0]?.trim()
  return value || undefined
}

/** The app's origin for this request. */
export function requestOrigin(request: Request, url: URL, config: ResolvedConfig): string {
  if (config.publicUrl) return config.publicUrl.origin
  if (config.trustHost) {
    const host = firstValue(request.headers.get("x-forwarded-host")) ?? firstValue(request.headers.get("host"))
    if (host && hostPattern.test(host)) {
      const proto = firstValue(request.headers.get("x-forwarded-proto"))?.toLowerCase()
      const protocol = proto === "https" || proto === "http" ? proto : url.protocol.slice(0, -1)
      try {
        return new URL(`${protocol}://${host}`).origin
      } catch {
        // Fall back to the request URL.
      }
    }
  }
  return url.origin
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
  request: Request
  url: URL
  method: "GET" | "POST"
  head: boolean
  action: Action
  providerId: string | undefined
  query: Record<string, string>
  body: Record<string, unknown>
  cookies: Map<string, string>
}

export function createContext(input: ContextInput): RequestContext {
  const { config, request, url, query, body, cookies } = input
  const origin = requestOrigin(request, url, config)
  const secure = config.useSecureCookies ?? origin.startsWith("https:")
  const cookieOptions = config.cookies(secure)
  const setCookies: ResponseCookie[] = []
  let csrf: Promise<CsrfState> | undefined
  let callbackUrl: Promise<string> | undefined

  return {
    config,
    request,
    url,
    origin,
    authUrl: `${origin}${config.basePath}`,
    method: input.method,
    head: input.head,
    action: input.action,
    providerId: input.providerId,
    provider: input.providerId === undefined ? undefined : config.providerById.get(input.providerId),
    query,
    body,
    cookies,
    secure,
    cookieOptions,
    returnRedirect: !!request.headers.get("x-auth-return-redirect"),
    setCookies,
    csrf() {
      csrf ??= csrfState(
        cookies.get(cookieOptions.csrfToken.name),
        input.method === "POST" ? body.csrfToken : undefined,
        config.secrets,
        cookieOptions.csrfToken,
      ).then((state) => {
        if (state.cookie) setCookies.push(state.cookie)
        return state
      })
      return csrf
    },
    callbackUrl() {
      callbackUrl ??= (async () => {
        const candidate =
          httpUrl(body.callbackUrl, origin) ??
          httpUrl(query.callbackUrl, origin) ??
          httpUrl(cookies.get(cookieOptions.callbackUrl.name), origin)
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
      return callbackUrl
    },
  }
}
