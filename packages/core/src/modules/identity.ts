/**
 * A sign-in a module's own identity provider vouched for (`ModuleRequest.signIn`: a SAML
 * assertion the SSO module verified). It takes the steps of an OAuth sign-in (`account/sign-in.ts`),
 * with a provider object made for it: the sign-in steps read its id, name, linking rule and
 * second-factor setting. That object serves no endpoint: `signin/<id>` and `callback/<id>` find
 * providers in the configuration and the modules' `providers` only.
 *
 * @module
 */
import { reportingFailure } from "../account/failure.js"
import { signIn } from "../account/sign-in.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { providerEmail } from "../oauth/profile.js"
import { resolveOAuthProvider } from "../oauth/provider.js"
import { isJson } from "../store/json.js"
import { ownsProviderId } from "./providers.js"
import type { ModuleIdentity, SesameModule } from "./types.js"

function checked(ctx: RequestContext, module: SesameModule, identity: ModuleIdentity): ModuleIdentity {
  const named = `Plugin "${module.id}"`
  if (!identity || typeof identity !== "object") throw new TypeError(`${named}: \`signIn\` takes the identity to sign in.`)
  const { providerId, providerAccountId, user, profile, emailVerified } = identity
  if (typeof providerId !== "string" || !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(providerId) || !ownsProviderId(ctx, module, providerId)) {
    throw new TypeError(`${named} signs in with its own providers only (ids starting "${module.id}-", neither a configured provider's nor another plugin's); got ${JSON.stringify(providerId)}.`)
  }
  if (typeof providerAccountId !== "string" || providerAccountId.length === 0 || providerAccountId.length > 1024) {
    throw new TypeError(`${named}: \`providerAccountId\` must be a non-empty string.`)
  }
  if (!user || typeof user !== "object" || (user.email !== null && typeof user.email !== "string")) throw new TypeError(`${named}: \`user.email\` must be a string or null.`)
  if (typeof emailVerified !== "boolean") throw new TypeError(`${named}: \`emailVerified\` must be a boolean.`)
  if (!profile || typeof profile !== "object" || Array.isArray(profile) || !isJson(profile)) throw new TypeError(`${named}: \`profile\` must be a JSON object.`)
  return identity
}

export async function moduleSignIn(ctx: RequestContext, module: SesameModule, input: ModuleIdentity): Promise<InternalResponse> {
  const identity = checked(ctx, module, input)
  const here = `${ctx.authUrl}/${module.id}`
  const resolved = resolveOAuthProvider(
    {
      id: identity.providerId,
      name: identity.providerName || identity.providerId,
      type: "oauth",
      clientId: module.id,
      client: { token_endpoint_auth_method: "none" },
      authorization: here,
      token: here,
      userinfo: here,
      // The module bound the answer to this browser (unless it says `boundToBrowser: false`):
      // accounts may be linked to a signed-in user, as for a provider with checks. (A client
      // without a secret needs PKCE to be resolved; no authorization request is made with it.)
      checks: ["pkce"],
      allowDangerousEmailAccountLinking: true,
    },
    undefined,
  )
  if (identity.boundToBrowser !== undefined && typeof identity.boundToBrowser !== "boolean") throw new TypeError(`Plugin "${module.id}": \`boundToBrowser\` must be a boolean.`)
  // Unbound: no checks, so the sign-in decision never links the account to a signed-in user.
  const provider = identity.boundToBrowser === false ? { ...resolved, checks: new Set<never>() } : resolved
  if (identity.callbackUrl !== undefined) {
    if (typeof identity.callbackUrl !== "string") throw new TypeError(`Plugin "${module.id}": \`callbackUrl\` must be a string.`)
    await ctx.callbackUrl(identity.callbackUrl)
  }
  const email = providerEmail(identity.user.email)
  const user = { id: identity.providerAccountId, email, name: identity.user.name ?? null, image: identity.user.image ?? null }
  // A refusal from here on is a failed sign-in with the module's provider (`account/failure.ts`).
  return reportingFailure(ctx, provider.id, () => signIn(ctx, { kind: "oauth", provider, user, profile: identity.profile, tokens: {} as never, emailVerified: !!email && identity.emailVerified }))
}
