/**
 * Types of the credentials provider kind.
 *
 * @module
 */
import type { ThrottleOptions } from "../password/throttle.js"
import type { Awaitable, CommonProviderOptions, User } from "../types.js"

/** One field of the generated sign-in form. */
export interface CredentialInput {
  label?: string
  /** The `<input type>`. Default `text`. */
  type?: string
  placeholder?: string
  /** The `autocomplete` attribute, e.g. `username`, `current-password`. */
  autocomplete?: string
  required?: boolean
  value?: string
}

/** Brute-force throttling of a credentials provider: the limits, and where the account and the client come from. */
export interface CredentialsThrottleOptions extends ThrottleOptions {
  /** The posted field that names the account. Default: `email` when the form has that field, else `username`. */
  field?: string
  /**
   * The client's IP address, for the per-IP limits. Default: the last `X-Forwarded-For` entry when
   * the configuration explicitly trusts the proxy in front of it (`trustHost: true` or
   * `AUTH_TRUST_HOST=true`), else none, and then there is no per-IP limit.
   */
  clientIp?: (request: Request) => string | null | undefined
}

/** A provider that signs users in with an app-defined `authorize` function. */
export interface CredentialsConfig<Fields extends Record<string, CredentialInput> = Record<string, CredentialInput>>
  extends CommonProviderOptions {
  type: "credentials"
  /** The fields of the sign-in form, by name. */
  credentials: Fields
  /**
   * Checks the submitted fields and returns the user, or null (or throws `CredentialsSignin`) to
   * refuse. Any other throw is a server error: logged in full, shown as `Configuration`.
   */
  authorize: (credentials: Partial<Record<keyof Fields, unknown>>, request: Request) => Awaitable<User | null>
  /**
   * Database sessions: create the user through the adapter when `authorize` returns one the
   * adapter does not know (matched by id, then email). Otherwise such a sign-in is refused
   * (`AccessDenied`). Left out, it is refused too, and the warning `credentials-users-not-created`
   * says so when the configuration is first read (an adapter, added for another provider, makes
   * sessions database sessions); `false` says the refusal is meant.
   */
  createUser?: boolean
  /**
   * Brute-force throttling of this provider's sign-ins, per account and per client IP: after a few
   * failures each attempt waits longer (1 s, 2 s, 4 s… up to a minute), and many failures lock the
   * account for a while (15 minutes after 20 by default). A refused attempt is answered exactly as
   * a wrong password (`CredentialsSignin`), without calling `authorize`, plus `Retry-After`. On by
   * default when the form has an `email` or `username` field, which names the account; with
   * neither, name it (`{ field }`) to turn it on. `false` turns it off (your `authorize` throttles
   * on its own); an object sets the limits. Counts are kept in the adapter when it has counters
   * (shared by every instance of the app), else in this process's memory, unless `store` says
   * otherwise.
   */
  throttle?: boolean | CredentialsThrottleOptions
}
