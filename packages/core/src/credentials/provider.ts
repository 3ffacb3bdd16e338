/**
 * A `credentials` provider as its flow uses it.
 *
 * @module
 */
import type { CheckedAdapter } from "../adapters/wrap.js"
import { InvalidProvider, MissingAuthorize } from "../errors.js"
import { clientIpRule, type ClientAddressRule } from "../http/client-ip.js"
import { counterStoreFor } from "../password/counters.js"
import { passwordThrottle, type PasswordThrottle } from "../password/throttle.js"
import type { CredentialsConfig } from "./types.js"

/** A credentials provider's throttle, resolved: its limits and store, the field naming the account, the client's IP. */
export interface CredentialsThrottle {
  readonly limits: PasswordThrottle
  readonly field: string
  readonly clientIp: ((request: Request) => string | null | undefined) | undefined
}

export interface CredentialsProvider {
  readonly type: "credentials"
  readonly id: string
  readonly name: string
  /** The provider's options with their defaults (`credentials: {}` when none are given). */
  readonly config: CredentialsConfig
  /**
   * With database sessions, the adapter where the users `authorize` returns are found (and created
   * with `createUser`); undefined with JWT sessions, which store nothing.
   */
  readonly users: CheckedAdapter | undefined
  /** Brute-force throttling, when the provider turns it on. */
  readonly throttle: CredentialsThrottle | undefined
}

/**
 * Checks `provider` and fills in its defaults: all but `users` and the throttle's default store,
 * which come with the adapter (see `config/providers.ts`). Throws `MissingAuthorize` or
 * `InvalidProvider`.
 */
export function resolveCredentialsProvider(provider: CredentialsConfig, name: string, clientAddress: ClientAddressRule): Omit<CredentialsProvider, "users"> {
  if (typeof provider.authorize !== "function") {
    throw new MissingAuthorize(`The credentials provider "${provider.id}" needs an \`authorize(credentials, request)\` function.`)
  }
  const config = { ...provider, name, credentials: provider.credentials ?? {} }
  return { type: "credentials", id: provider.id, name, config, throttle: resolveThrottle(config, clientAddress) }
}

/** The posted field that names the account when the app names none: `email`, else `username`. */
const defaultField = (provider: CredentialsConfig): string | undefined => ["email", "username"].find((f) => Object.hasOwn(provider.credentials ?? {}, f))

function resolveThrottle(provider: CredentialsConfig, clientAddress: ClientAddressRule): CredentialsThrottle | undefined {
  const { throttle } = provider
  if (throttle === false) return undefined
  // On unless the app says no: every wrong guess must cost the guesser (the red team sent 300 wrong
  // passwords, all of which reached `authorize`). By default it needs a field that names the
  // account: counted under one shared name, the failures of some would lock everyone out.
  if (throttle === undefined) return defaultField(provider) ? resolveThrottle({ ...provider, throttle: true }, clientAddress) : undefined
  const invalid = (message: string, cause?: unknown) => new InvalidProvider(`The credentials provider "${provider.id}": ${message}`, cause === undefined ? undefined : { cause })
  if (throttle !== true && (typeof throttle !== "object" || throttle === null)) throw invalid("`throttle` must be true, false or an object of limits.")
  const { field: named, clientIp, ...options } = throttle === true ? {} : throttle
  const field = named ?? defaultField(provider)
  if (typeof field !== "string" || field.length === 0) {
    throw invalid("`throttle` needs `field`, the posted field that names the account (the form has no `email` or `username` field).")
  }
  if (clientIp !== undefined && typeof clientIp !== "function") throw invalid("`throttle.clientIp` must be a function.")
  let limits: PasswordThrottle | false
  try {
    limits = passwordThrottle(options)
  } catch (error) {
    throw invalid(`\`throttle\`: ${error instanceof Error ? error.message : String(error)}`, error)
  }
  if (!limits) return undefined
  return { limits, field, clientIp: clientIpRule(clientIp, clientAddress) }
}

/** The throttle with its store: the one the app gave, else the adapter's counters when it has them, else this process's memory. */
export function withThrottleStore(provider: Omit<CredentialsProvider, "users">, adapter: CheckedAdapter | undefined): CredentialsThrottle | undefined {
  const { throttle } = provider
  if (!throttle) return undefined
  const given = provider.config.throttle !== true && provider.config.throttle ? provider.config.throttle.store : undefined
  return { ...throttle, limits: { ...throttle.limits, store: counterStoreFor(given, adapter) } }
}
