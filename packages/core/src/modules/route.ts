/**
 * One row of the dispatcher's table (`actions/index.ts`): what an endpoint serves and the checks
 * its requests get before it runs. The core's own rows are in `actions/index.ts`; each built-in
 * capability declares its own in its folder's `feature.ts`.
 *
 * @module
 */
import type { ResolvedProvider } from "../config/providers.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import type { Awaitable, ProviderType } from "../types.js"

/** What an action runs with: the provider its path names, when its row asks for one. */
export type Run<P = ResolvedProvider> = (ctx: RequestContext, provider: P) => Awaitable<InternalResponse>

/**
 * The family of routes a request counts in for its client's rate limit (`rate-limit/`): a kind of
 * work, so that a burst of one kind never uses up another's room. Without one, a row's `GET` is
 * `pages` and its `POST` is `account`.
 */
export type RateLimitFamily = "session" | "pages" | "sign-in" | "callback" | "email" | "account" | "services"

/** The families, for checking a plugin's word. */
export const rateLimitFamilies: readonly RateLimitFamily[] = ["session", "pages", "sign-in", "callback", "email", "account", "services"]

/** The family of a row without one of its own: a `GET` shows something, a `POST` changes something. */
export function defaultFamily(method: string): RateLimitFamily {
  return method === "POST" ? "account" : "pages"
}

export interface Route {
  /** Its requests' family for the rate limits (see {@link RateLimitFamily}). */
  limit?: RateLimitFamily
  /** The path names a provider: which kinds the endpoint serves (another is a `400`), whether an unknown one is let through. */
  provider?: { kinds?: readonly ProviderType[]; unknown?: "allowed" }
  /** The provider left out for missing settings answers its `Configuration` error. */
  refuseUnavailable?: boolean
  /** The CSRF token is checked: always, or for these provider kinds. */
  csrf?: true | readonly ProviderType[]
  /** Provider kinds whose POSTs may come from another site (see `actions/index.ts`); `true`: any (a module's `crossSite` endpoint). */
  crossSite?: true | readonly ProviderType[]
  run: Run<never>
}

/**
 * Rows keyed `"<METHOD> <action>"` or `"<METHOD> <action>/:provider"`, where an action is one path
 * segment or two (`two-factor/setup`).
 */
export type Routes = Readonly<Record<string, Route>>

/** A row, typed by what its action runs with. */
export function route<P extends ResolvedProvider | undefined = undefined>(row: Omit<Route, "run"> & { run: Run<P> }): Route {
  return row as Route
}
