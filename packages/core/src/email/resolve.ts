/**
 * Resolving an email provider: its defaults filled in and its options checked once, when the
 * configuration is resolved, so that a sign-in only reads ready values.
 *
 * The resolved settings are kept in a WeakMap keyed by the resolved provider object: actions can
 * only get settings for a provider that went through here.
 *
 * @module
 */
import { defaultEmailMaxAge, defaultEmailRateLimit } from "../config/defaults.js"
import { InvalidProvider } from "../errors.js"
import type { Awaitable } from "../types.js"
import { normalizeEmail } from "./normalize.js"
import { lastForwardedFor, processRateLimitStore, type ResolvedRateLimit } from "./rate-limit.js"
import { defaultVerificationToken } from "./token.js"
import type { EmailConfig, EmailRateLimitOptions } from "./types.js"

/** What the email actions need of a provider. */
export interface EmailSettings {
  /** Link lifetime in milliseconds. */
  maxAgeMs: number
  normalize: (identifier: string) => string
  generateToken: () => Awaitable<string>
  rateLimit: ResolvedRateLimit | undefined
}

const settingsOf = new WeakMap<EmailConfig, EmailSettings>()

export interface EmailResolveOptions {
  name: string
  apiKey: string | undefined
  /** The configuration explicitly trusts the proxy in front of the app (not merely inferred). */
  trustProxy: boolean
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

function resolveRateLimit(id: string, input: EmailRateLimitOptions | false | undefined, trustProxy: boolean): ResolvedRateLimit | undefined {
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
    clientIp: input?.clientIp ?? (trustProxy ? lastForwardedFor : undefined),
  }
}

/** The provider with its defaults; throws `InvalidProvider` naming a bad option. */
export function resolveEmailProvider(provider: EmailConfig, options: EmailResolveOptions): EmailConfig {
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
  const resolved: EmailConfig = { ...provider, name: options.name, apiKey: options.apiKey, maxAge }
  settingsOf.set(resolved, {
    maxAgeMs: maxAge * 1000,
    normalize: provider.normalizeIdentifier ?? normalizeEmail,
    generateToken: provider.generateVerificationToken ?? defaultVerificationToken,
    rateLimit: resolveRateLimit(id, provider.rateLimit, options.trustProxy),
  })
  return resolved
}

/** The settings of a resolved email provider. */
export function emailSettings(provider: EmailConfig): EmailSettings {
  const settings = settingsOf.get(provider)
  if (!settings) throw new InvalidProvider(`The email provider "${provider.id}" was not resolved with the configuration.`)
  return settings
}
