/**
 * The connections as Sesame providers (`sso-<connection id>`): an OpenID Connect connection is an
 * `oidc` provider discovered from its issuer, served by the core's own sign-in and callback code
 * (state, PKCE and nonce; the ID token's issuer, audience, signature and nonce checked).
 *
 * Account linking: the provider vouches for an address only at a domain its organization proved.
 * There it may link to the existing user of that address (the organization owns the domain, so
 * its identity provider speaks for it); anywhere else it never takes over an existing user
 * (`OAuthAccountNotLinked`), so one organization's identity provider cannot sign in as another's
 * people, nor as anyone outside its domains. An account it linked stops signing in once another
 * organization proves its user's domain (`admit`): the domain changed hands.
 *
 * @module
 */
import { customFetch, type ModuleProviders, type ModuleSignIn, type OIDCConfig, type Profile, type Store } from "@sesame/core"
import { clientSecretPurpose, connectionFrom, providerPrefix } from "./connections.js"
import { emailDomain, heldElsewhere, verifiedDomains } from "./domains.js"
import { connectionModel } from "./models.js"
import { publicFetch } from "./outbound.js"
import { isId } from "./stored.js"

/** Whether the IdP's profile is for an address at one of `domains` that it does not deny having checked. */
export function vouchesFor(domains: readonly string[], profile: Profile): boolean {
  const domain = emailDomain(profile.email)
  // Some IdPs send the claim as a string.
  const claim: unknown = profile.email_verified
  return domain !== null && domains.includes(domain) && claim !== false && claim !== "false"
}

/** `allowPrivateNetworks`: the global `fetch`, else one that reaches public https addresses only (`outbound.ts`). */
export function connectionProviders(allowPrivateNetworks: boolean): ModuleProviders {
  // The same settings object while the connection and its organization's domains are unchanged,
  // so that the core keeps the discovery document and keys it fetched (see ModuleProviders.find).
  const kept = new Map<string, { key: string; settings: OIDCConfig }>()
  return {
    async find(id, context) {
      const connectionId = id.slice(providerPrefix.length)
      if (!id.startsWith(providerPrefix) || !isId(connectionId) || !context.store) return null
      const store: Store = context.store
      const row = await store.findOne(connectionModel, { id: connectionId })
      if (!row) return null
      const connection = connectionFrom(row)
      if (!connection.enabled || connection.protocol !== "oidc") return null
      const domains = await verifiedDomains(store, connection.organizationId)
      const key = JSON.stringify([connection.updatedAt.getTime(), domains])
      const current = kept.get(id)
      if (current?.key === key) return current.settings
      const secret = await context.sealing.open(clientSecretPurpose, connection.settings.clientSecret)
      if (!secret) {
        // The app's secret that sealed it was retired: an admin must enter the client secret again.
        context.logger.error(new Error(`sso: the client secret of connection ${connectionId} does not open with the app's secrets (the one that sealed it was retired); enter it again on the connection.`))
        return null
      }
      if (secret.rotated) {
        // Sealed again with the newest secret, so that the old one can be retired; updatedAt stays, as nothing an admin set changed.
        const settings = { ...connection.settings, clientSecret: await context.sealing.seal(clientSecretPurpose, secret.value) }
        await store.update(connectionModel, { id: connectionId }, { settings })
      }
      const settings: OIDCConfig = {
        id,
        name: connection.name,
        type: "oidc",
        issuer: connection.settings.issuer,
        clientId: connection.settings.clientId,
        clientSecret: secret.value,
        checks: ["pkce", "state", "nonce"],
        allowDangerousEmailAccountLinking: true,
        isEmailVerified: (profile) => vouchesFor(domains, profile),
        ...(allowPrivateNetworks ? {} : { [customFetch]: publicFetch }),
      }
      kept.set(id, { key, settings })
      return settings
    },
    admit: (signIn, context) => stillSpeaksFor(context.store, signIn),
  }
}

/**
 * Whether a connection may still sign its linked user in. The account was linked when the
 * connection's organization held the user's domain; if another organization has proven that
 * domain since, the former owner's identity provider no longer speaks for its people. (A sign-in
 * that is not yet linked is left to the account-linking rules: the provider vouches only for its
 * organization's domains.)
 */
export async function stillSpeaksFor(store: Store | undefined, signIn: ModuleSignIn): Promise<boolean> {
  if (!signIn.linked) return true
  const connectionId = signIn.account.provider.slice(providerPrefix.length)
  if (!store || !isId(connectionId)) return false
  const row = await store.findOne(connectionModel, { id: connectionId })
  return row !== null && !(await heldElsewhere(store, signIn.user.email, String(row.organizationId)))
}
