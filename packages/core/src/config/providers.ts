/**
 * The `providers` option, resolved: each provider checked, named and filled from the environment
 * (`AUTH_<ID>_ID`, `_SECRET`, `_ISSUER`, `_KEY`), and the `oauth`/`oidc` ones validated with their
 * defaults (`oauth/provider.ts`).
 *
 * A provider whose own settings are missing (an OAuth or OIDC provider without its client id,
 * client secret or issuer: values that usually come from the environment and differ per
 * deployment) is *unavailable* rather than an error of the whole configuration: it is left out of
 * the `providers` endpoint and the sign-in page, its own endpoints answer the `Configuration`
 * error, and the message, logged when the configuration is resolved and each time one of those
 * endpoints is used, names the provider and the exact variables to set. The other providers and
 * every session read keep working. This holds in production too: a deployment that lacks one
 * provider's variables should not sign everybody out and refuse every other way in; it should say
 * loudly which provider is off and why. When no provider is left at all, the configuration fails
 * as a whole, with the same messages, since the sign-in page would offer nothing.
 *
 * Anything else that is wrong with a provider (a malformed id, an unknown type, a bad URL, a check
 * that cannot work) is a mistake in the code, not in one deployment's environment, and stays a
 * configuration error of the whole configuration.
 *
 * @module
 */
import type { CheckedAdapter } from "../adapters/wrap.js"
import type { ClientAddressRule } from "../http/client-ip.js"
import { resolveCredentialsProvider, withThrottleStore, type CredentialsProvider } from "../credentials/provider.js"
import { InvalidProvider, MissingAdapter, type AuthError } from "../errors.js"
import type { ProviderKind, UnboundProvider } from "../modules/feature.js"
import { missingSettings, resolveOAuthProvider, type OAuthProvider, type ProviderSetting } from "../oauth/provider.js"
import type { OAuthConfig } from "../oauth/types.js"
import { builtInFeatures, type BuiltInProvider } from "../registry.js"
import type { AuthConfig, ExperimentalOptions, Provider, ProviderType } from "../types.js"
import { providerEnvName, type Env } from "./env.js"

/**
 * A provider as the request path uses it: one shape per kind, keyed on `type`, each carrying what
 * its flows need (the validated options with their defaults as `config`, and the adapter for the
 * kinds that store something), so that no flow looks anything up again or casts.
 */
export type ResolvedProvider = OAuthProvider | CredentialsProvider | BuiltInProvider

/** A provider checked and with its defaults, before the adapter is attached (`bindProviders`). */
type Unbound = OAuthProvider | Omit<CredentialsProvider, "users"> | UnboundProvider

let kinds: ReadonlyMap<string, ProviderKind> | undefined

/** The provider kinds the built-in capabilities bring (`email`, `password`, `webauthn`), by type. */
export function providerKinds(): ReadonlyMap<string, ProviderKind> {
  kinds ??= new Map(builtInFeatures().flatMap((feature) => Object.entries(feature.providerKinds ?? {})))
  return kinds
}

/** The providers of a configuration, before the adapter is attached. */
export interface ResolvedProviders {
  /**
   * Every configured provider's options, in order, unavailable ones included (for checks that must
   * not depend on the environment).
   */
  readonly all: readonly Provider[]
  /** The providers that can be used, in order. */
  readonly available: readonly Unbound[]
  /** The providers that cannot be used, by id, with the error saying which settings they lack. */
  readonly unavailable: ReadonlyMap<string, AuthError>
}

export interface ProviderContext {
  env: Env
  experimental: ExperimentalOptions
  /** How per-client limits (the email rate limit, sign-in throttling) find the client's address (`trustedProxy`). */
  clientAddress: ClientAddressRule
  /** The configuration-wide `redirectProxyUrl`. */
  redirectProxyUrl: string | undefined
  /** The configuration's secrets, newest first. */
  secrets: readonly string[]
}

const providerId = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/
const providerTypes: ReadonlySet<string> = new Set<ProviderType>(["oidc", "oauth", "email", "credentials", "webauthn", "password"])

/** Resolves `providers`. Throws an `AuthError` for a configuration error. */
export function resolveProviders(input: AuthConfig["providers"], context: ProviderContext): ResolvedProviders {
  const read = readProviders(input, context)
  const available: Unbound[] = []
  const unavailable = new Map<string, AuthError>()
  for (const provider of read) {
    if (provider.type !== "oauth" && provider.type !== "oidc") {
      available.push(provider)
      continue
    }
    const missing = missingSettings(provider)
    if (missing.length > 0) unavailable.set(provider.id, unavailableError(provider, missing))
    else available.push(resolveOAuthProvider(provider, context.redirectProxyUrl))
  }
  if (available.length === 0 && unavailable.size > 0) {
    throw new InvalidProvider([...unavailable.values()].map((e) => e.message).join(" "))
  }
  return { all: read.map((p) => (p.type === "oauth" || p.type === "oidc" ? p : p.config)), available, unavailable }
}

/**
 * The usable providers by id, in order, each with the adapter it needs: the configuration has
 * checked that the adapter exists and has the methods they call (`config/resolve.ts`), so a
 * provider that needs one and finds none here is a mistake in that check.
 */
export function bindProviders(
  providers: ResolvedProviders,
  adapter: CheckedAdapter | undefined,
  databaseSessions: boolean,
): ReadonlyMap<string, ResolvedProvider> {
  const needed = (id: string): CheckedAdapter => {
    if (!adapter) throw new MissingAdapter(`Provider "${id}" stores tokens, so it needs an \`adapter\`.`)
    return adapter
  }
  const bound = providers.available.map((p): ResolvedProvider => {
    if (p.type === "oauth" || p.type === "oidc") return p as OAuthProvider
    if (p.type === "credentials") {
      const credentials = p as Omit<CredentialsProvider, "users">
      return Object.freeze({ ...credentials, users: databaseSessions ? adapter : undefined, throttle: withThrottleStore(credentials, adapter) })
    }
    // A kind that needs no more than its adapter attached declares no `bind`.
    const kind = providerKinds().get(p.type)!
    return (kind.bind ? kind.bind(p as never, needed(p.id)) : Object.freeze({ ...p, adapter: needed(p.id) })) as ResolvedProvider
  })
  return new Map(bound.map((p) => [p.id, p]))
}

/** How each setting is named: in words, in the environment, in the provider's options. */
const settingNames: Record<ProviderSetting, { words: string; variable: string; option: string }> = {
  clientId: { words: "client id", variable: "ID", option: "clientId" },
  clientSecret: { words: "client secret", variable: "SECRET", option: "clientSecret" },
  issuer: { words: "issuer", variable: "ISSUER", option: "issuer" },
}

function list(items: string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`
}

function unavailableError(provider: OAuthConfig, missing: readonly ProviderSetting[]): AuthError {
  const envId = providerEnvName(provider.id)
  const names = missing.map((setting) => settingNames[setting])
  return new InvalidProvider(
    `Provider "${provider.id}" is unavailable: it has no ${list(names.map((n) => n.words))}. Set ${list(names.map((n) => `AUTH_${envId}_${n.variable}`))} in the environment (or ${list(names.map((n) => `\`${n.option}\``))} in the provider's options). Until then its sign-in answers the Configuration error and it is left off the sign-in page; the other providers work.`,
  )
}

/**
 * Checks each entry and applies the name and the environment's values: the `oauth`/`oidc` options
 * (resolved once their settings are known to be there), the other kinds resolved.
 */
function readProviders(input: AuthConfig["providers"], { env, experimental, clientAddress, secrets }: ProviderContext): (OAuthConfig | Exclude<Unbound, OAuthProvider>)[] {
  if (!Array.isArray(input)) throw new InvalidProvider("`providers` must be an array of providers.")
  const seen = new Set<string>()
  return input.map((entry, index) => {
    const provider = (typeof entry === "function" ? entry() : entry) as Provider | undefined
    if (!provider || typeof provider !== "object") throw new InvalidProvider(`providers[${index}] is not a provider object.`)
    const { id, type } = provider
    if (typeof id !== "string" || !providerId.test(id)) {
      throw new InvalidProvider(`providers[${index}] needs an \`id\` made of letters, digits, "-", "_" or "."; got ${JSON.stringify(id)}.`)
    }
    if (seen.has(id)) throw new InvalidProvider(`Two providers have the id "${id}". Give each a unique \`id\`.`)
    seen.add(id)
    if (typeof type !== "string" || !providerTypes.has(type)) {
      throw new InvalidProvider(`Provider "${id}" has an unknown type ${JSON.stringify(type)}; use one of ${[...providerTypes].join(", ")}.`)
    }
    if (type !== "credentials" && type !== "oauth" && type !== "oidc" && !providerKinds().has(type)) {
      throw new InvalidProvider(`Provider "${id}" is of type "${type}", which this version of @sesame/core does not support yet.`)
    }
    const name = typeof provider.name === "string" && provider.name ? provider.name : id
    if (provider.type === "credentials") return resolveCredentialsProvider(provider, name, clientAddress)
    if (provider.type === "oauth" || provider.type === "oidc") {
      // Endpoints, checks and client authentication are validated by resolveOAuthProvider.
      const envId = providerEnvName(id)
      return {
        ...provider,
        name,
        clientId: provider.clientId ?? env[`AUTH_${envId}_ID`],
        clientSecret: provider.clientSecret ?? env[`AUTH_${envId}_SECRET`],
        issuer: provider.issuer ?? env[`AUTH_${envId}_ISSUER`],
      }
    }
    return providerKinds().get(type)!.resolve(provider as never, { name, env, experimental, clientAddress, secrets })
  })
}
