/**
 * Providers a module finds at request time: an organization's own OpenID Connect provider, say,
 * stored by the module rather than listed in `providers`. `signin/<id>` and `callback/<id>` serve
 * them through the same code as the configured ones (discovery, state, PKCE, nonce, the token and
 * ID-token checks, the account-linking rules); only where their settings come from differs.
 *
 * @module
 */
import { InvalidProvider } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import { missingSettings, resolveOAuthProvider, type OAuthProvider } from "../oauth/provider.js"
import type { OAuthConfig } from "../oauth/types.js"
import type { ModuleSignIn, SesameModule } from "./types.js"

/**
 * What was resolved from each settings object a module returned: the same object resolves to the
 * same provider, so what Sesame keeps per provider (the discovery document, the key set) lasts as
 * long as the module keeps returning that object.
 */
const resolved = new WeakMap<object, OAuthProvider>()

/** The module whose providers' ids start with `<its id>-`, for a provider id (the longest such id: ids may hold hyphens). */
function ownerOf(ctx: RequestContext, id: string): SesameModule | undefined {
  let owner: SesameModule | undefined
  for (const [moduleId, module] of ctx.config.modules.providerSources) {
    if (id.length > moduleId.length + 1 && id.startsWith(`${moduleId}-`) && moduleId.length > (owner?.id.length ?? -1)) owner = module
  }
  return owner
}

/**
 * Whether `id` is one of `module`'s provider ids, as its `signIn` and `signInWith` may use: it
 * starts with `<module id>-`, no configured provider has it, and no other module with a longer id
 * owns it (`fed-x-acme` is plugin `fed-x`'s, not `fed`'s), so that the module's sign-ins never
 * take over a configured provider's accounts nor skip another module's `admit`.
 */
export function ownsProviderId(ctx: RequestContext, module: SesameModule, id: string): boolean {
  if (!id.startsWith(`${module.id}-`) || ctx.config.providers.has(id)) return false
  return !ctx.config.modules.list.some((other) => other !== module && other.id.length > module.id.length && id.startsWith(`${other.id}-`))
}

/**
 * The provider `id` of a module (`<module id>-<name>`), resolved; undefined when no module has it.
 * A configured provider of the same id always wins (the dispatcher asks here only for an unknown
 * id). Settings that are not an `oauth`/`oidc` provider of that id, or lack a setting, are the
 * module's mistake: an `InvalidProvider` error.
 */
export async function moduleProvider(ctx: RequestContext, id: string): Promise<OAuthProvider | undefined> {
  const module = ownerOf(ctx, id)
  if (!module?.providers) return undefined
  const settings = (await module.providers.find(id, ctx.config.modules.context)) as OAuthConfig | null | undefined
  if (settings === null || settings === undefined) return undefined
  const cached = resolved.get(settings)
  if (cached) return cached
  if (typeof settings !== "object" || (settings.type !== "oidc" && settings.type !== "oauth") || settings.id !== id) {
    throw new InvalidProvider(`Plugin "${module.id}" answered provider "${id}" with settings that are not an "oauth" or "oidc" provider of that id.`)
  }
  const missing = missingSettings(settings)
  if (missing.length > 0) throw new InvalidProvider(`Plugin "${module.id}"'s provider "${id}" has no ${missing.join(", ")}.`)
  const provider = resolveOAuthProvider({ ...settings, name: settings.name || id }, ctx.config.redirectProxyUrl)
  resolved.set(settings, provider)
  return provider
}

/**
 * Whether the module whose provider this sign-in goes through lets it go on
 * (`ModuleProviders.admit`); true for a configured provider, and for a module that does not ask.
 */
export async function moduleAdmits(ctx: RequestContext, providerId: string, signIn: ModuleSignIn): Promise<boolean> {
  if (ctx.config.providers.has(providerId)) return true
  const admit = ownerOf(ctx, providerId)?.providers?.admit
  if (!admit) return true
  return (await admit(signIn, ctx.config.modules.context)) === true
}
