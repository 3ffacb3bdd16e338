/**
 * Resolving an email provider: its defaults filled in and its options checked once, when the
 * configuration is resolved, so that a sign-in only reads ready values ({@link EmailProvider}).
 *
 * @module
 */
import type { CheckedAdapter } from "../adapters/wrap.js"
import { defaultEmailMaxAge, defaultEmailRateLimit } from "../config/defaults.js"
import { InvalidProvider } from "../errors.js"
import { clientIpRule, type ClientAddressRule } from "../http/client-ip.js"
import type { Awaitable } from "../types.js"
import { normalizeEmail } from "./normalize.js"
import { processRateLimitStore, type ResolvedRateLimit } from "./rate-limit.js"
import { defaultVerificationToken } from "./token.js"
import type { EmailConfig, EmailRateLimitOptions } from "./types.js"

/** An `email` provider as its flows use it: every default applied, and the adapter its links are kept in. */
export interface EmailProvider {
  readonly type: "email"
  readonly id: string
  readonly name: string
  /** The provider's options with their defaults, as `sendVerificationRequest` receives them. */
  readonly config: EmailConfig
  /** Where the links' tokens are stored and users found (validated with the configuration). */
  readonly adapter: CheckedAdapter
  /** Link lifetime in milliseconds. */
  readonly maxAgeMs: number
  readonly normalize: (identifier: string) => string
  readonly generateToken: () => Awaitable<string>
  readonly rateLimit: ResolvedRateLimit | undefined
  /** The secrets a link's token (and a first-factor code) is hashed with, newest first: the provider's own `secret`, else the configuration's. */
  readonly tokenSecrets: readonly string[]
  /** What a sign-in email carries: the link (`off`: no code), the link and a code, or only a code. */
  readonly code: "off" | "beside-link" | "only"
}

export interface EmailResolveOptions {
  name: string
  apiKey: string | undefined
  /** The configuration explicitly trusts the proxy in front of the app (not merely inferred). */
  clientAddress: ClientAddressRule
  /** The configuration's secrets, newest first. */
  secrets: readonly string[]
}

function invalid(id: string, message: string): never {
  throw new InvalidProvider(`The email provider "${id}": ${message}`)
}

function checkFunction(id: string, option: string, value: unknown): void {
  if (value !== undefined && typeof value !== "function") invalid(id, `\`${option}\` must be a function.`)
}

function checkCount(id: string, option: string, value: unknown): void {
  if (value !== false && (typeof value !== "number" || !Number.isInteger(value) || value < 1)) {
    invalid(id, `\`rateLimit.${option}\` must be a whole number of at least 1, or false; got ${JSON.stringify(value)}.`)
  }
}

function resolveCode(id: string, value: unknown): EmailProvider["code"] {
  if (value === undefined || value === false) return "off"
  if (value === true) return "beside-link"
  if (value === "only") return "only"
  invalid(id, `\`code\` must be true, false or "only"; got ${JSON.stringify(value)}.`)
}

function resolveRateLimit(id: string, input: EmailRateLimitOptions | false | undefined, clientAddress: ClientAddressRule): ResolvedRateLimit | undefined {
  if (input === false) return undefined
  if (input !== undefined && (typeof input !== "object" || input === null)) invalid(id, "`rateLimit` must be an object or false.")
  const perAddress = input?.perAddress ?? defaultEmailRateLimit.perAddress
  const perIp = input?.perIp ?? defaultEmailRateLimit.perIp
  const window = input?.window ?? defaultEmailRateLimit.window
  checkCount(id, "perAddress", perAddress)
  checkCount(id, "perIp", perIp)
  if (typeof window !== "number" || !Number.isFinite(window) || window <= 0) {
    invalid(id, `\`rateLimit.window\` must be a positive number of seconds; got ${JSON.stringify(window)}.`)
  }
  const store = input?.store ?? processRateLimitStore
  if (typeof store?.increment !== "function") invalid(id, "`rateLimit.store` must have an `increment(key, windowMs)` method.")
  checkFunction(id, "rateLimit.clientIp", input?.clientIp)
  return {
    perAddress,
    perIp,
    windowMs: window * 1000,
    store,
    clientIp: clientIpRule(input?.clientIp, clientAddress),
  }
}

/**
 * The provider with its defaults, all but its adapter (attached once the adapter is checked, see
 * `config/providers.ts`); throws `InvalidProvider` naming a bad option.
 */
export function resolveEmailProvider(provider: EmailConfig, options: EmailResolveOptions): Omit<EmailProvider, "adapter"> {
  const { id } = provider
  if (typeof provider.sendVerificationRequest !== "function") invalid(id, "it needs a `sendVerificationRequest` function.")
  const maxAge = provider.maxAge ?? defaultEmailMaxAge
  if (typeof maxAge !== "number" || !Number.isFinite(maxAge) || maxAge <= 0) {
    invalid(id, `\`maxAge\` must be a positive number of seconds; got ${JSON.stringify(maxAge)}.`)
  }
  checkFunction(id, "normalizeIdentifier", provider.normalizeIdentifier)
  checkFunction(id, "generateVerificationToken", provider.generateVerificationToken)
  if (provider.secret !== undefined && (typeof provider.secret !== "string" || provider.secret.length === 0)) {
    invalid(id, "`secret` must be a non-empty string.")
  }
  return {
    type: "email",
    id,
    name: options.name,
    config: { ...provider, name: options.name, apiKey: options.apiKey, maxAge },
    maxAgeMs: maxAge * 1000,
    normalize: provider.normalizeIdentifier ?? normalizeEmail,
    generateToken: provider.generateVerificationToken ?? defaultVerificationToken,
    rateLimit: resolveRateLimit(id, provider.rateLimit, options.clientAddress),
    tokenSecrets: Object.freeze(provider.secret ? [provider.secret] : [...options.secrets]),
    code: resolveCode(id, provider.code),
  }
}
