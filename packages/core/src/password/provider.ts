/**
 * A `password` provider as its flows use it: options checked once, defaults applied, and the
 * adapter, hasher, policy, throttle and email limit it works with.
 *
 * @module
 */
import type { CheckedAdapter } from "../adapters/wrap.js"
import { defaultPasswordProvider } from "../config/defaults.js"
import { normalizeEmail } from "../email/normalize.js"
import { InvalidProvider } from "../errors.js"
import { clientIpRule, type ClientAddressRule } from "../http/client-ip.js"
import { counterStoreFor, type CounterStore } from "./counters.js"
import { argon2id, type PasswordHasher } from "./hash.js"
import { passwordPolicy, type PasswordPolicy } from "./policy.js"
import { passwordThrottle, type PasswordThrottle } from "./throttle.js"
import type { PasswordConfig } from "./types.js"

export interface PasswordProvider {
  readonly type: "password"
  readonly id: string
  readonly name: string
  /** The provider's options with their defaults. */
  readonly config: PasswordConfig & Required<Pick<PasswordConfig, "requireEmailVerification" | "signUp" | "verificationMaxAge" | "resetMaxAge" | "emailsPerAddress">>
  /** Where users, password hashes, link tokens and counters are kept (validated with the configuration). */
  readonly adapter: CheckedAdapter
  readonly hasher: PasswordHasher
  readonly policy: PasswordPolicy
  /** Sign-in throttling, with its store; undefined when turned off. */
  readonly throttle: PasswordThrottle | undefined
  /** Where the email limit is counted: the throttle's store, else the adapter's counters, else this process's memory. */
  readonly counters: CounterStore
  readonly clientIp: ((request: Request) => string | null | undefined) | undefined
  readonly normalize: (identifier: string) => string
  /** The secrets the links' tokens are hashed with, newest first. */
  readonly tokenSecrets: readonly string[]
}

/** The provider before its adapter is attached. */
export type UnboundPasswordProvider = Omit<PasswordProvider, "adapter" | "counters" | "throttle"> & {
  readonly throttleOptions: Omit<PasswordThrottle, "store"> & { store: CounterStore | undefined } | undefined
}

function positive(id: string, option: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidProvider(`The password provider "${id}": \`${option}\` must be a whole number of at least 1; got ${JSON.stringify(value)}.`)
  }
  return value
}

/** Checks `provider` and applies its defaults; throws `InvalidProvider` naming a bad option. */
export function resolvePasswordProvider(provider: PasswordConfig, name: string, clientAddress: ClientAddressRule, secrets: readonly string[]): UnboundPasswordProvider {
  const { id } = provider
  const invalid = (message: string, cause?: unknown) =>
    new InvalidProvider(`The password provider "${id}": ${message}`, cause === undefined ? undefined : { cause })
  if (typeof provider.sendEmail !== "function") {
    throw invalid("it needs a `sendEmail` function for its confirmation and reset emails (`smtpSender` from `@sesame/core/providers/nodemailer` makes one).")
  }
  for (const option of ["normalizeIdentifier"] as const) {
    if (provider[option] !== undefined && typeof provider[option] !== "function") throw invalid(`\`${option}\` must be a function.`)
  }
  const hasher = provider.hasher ?? argon2id()
  if (typeof hasher?.hash !== "function" || typeof hasher.verify !== "function") throw invalid("`hasher` must have `hash` and `verify` methods.")
  let policy: PasswordPolicy
  let throttle: PasswordThrottle | false
  try {
    policy = passwordPolicy(provider.policy)
  } catch (error) {
    throw invalid(`\`policy\`: ${error instanceof Error ? error.message : String(error)}`, error)
  }
  const { clientIp, ...throttleOptions } = provider.throttle === false ? { clientIp: undefined } : (provider.throttle ?? {})
  if (provider.throttle !== false && provider.throttle !== undefined && (typeof provider.throttle !== "object" || provider.throttle === null)) {
    throw invalid("`throttle` must be an object of limits, or false.")
  }
  if (clientIp !== undefined && typeof clientIp !== "function") throw invalid("`throttle.clientIp` must be a function.")
  try {
    throttle = provider.throttle === false ? false : passwordThrottle(throttleOptions)
  } catch (error) {
    throw invalid(`\`throttle\`: ${error instanceof Error ? error.message : String(error)}`, error)
  }
  const config = {
    ...provider,
    name,
    requireEmailVerification: provider.requireEmailVerification ?? true,
    signUp: provider.signUp ?? true,
    verificationMaxAge: positive(id, "verificationMaxAge", provider.verificationMaxAge ?? defaultPasswordProvider.verificationMaxAge),
    resetMaxAge: positive(id, "resetMaxAge", provider.resetMaxAge ?? defaultPasswordProvider.resetMaxAge),
    emailsPerAddress: positive(id, "emailsPerAddress", provider.emailsPerAddress ?? defaultPasswordProvider.emailsPerAddress),
  }
  return {
    type: "password",
    id,
    name,
    config,
    hasher,
    policy,
    // The store the app gave, if any; else the adapter's counters are attached with the adapter.
    throttleOptions: throttle ? { ...throttle, store: provider.throttle ? provider.throttle.store : undefined } : undefined,
    clientIp: clientIpRule(clientIp, clientAddress),
    normalize: provider.normalizeIdentifier ?? normalizeEmail,
    tokenSecrets: Object.freeze([...secrets]),
  }
}

/** The provider with its adapter, and the counter store its throttle and email limit use. */
export function bindPasswordProvider(provider: UnboundPasswordProvider, adapter: CheckedAdapter): PasswordProvider {
  const { throttleOptions, ...rest } = provider
  const counters = counterStoreFor(throttleOptions?.store, adapter)
  return Object.freeze({ ...rest, adapter, counters, throttle: throttleOptions ? { ...throttleOptions, store: counters } : undefined })
}
