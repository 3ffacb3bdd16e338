/**
 * Sesame as an OAuth 2.1 / OpenID Connect provider: other apps, command-line tools, TVs and AI
 * agents sign in through the app's own users and sessions. The protocol is oidc-provider's
 * (OpenID Certified); sign-in is Sesame's, and the consent, device-code and logout pages are the
 * module's own, in the built-in pages' languages and CSP.
 *
 * ```ts
 * import { oauthProvider } from "@sesame/oauth-provider"
 *
 * // plugins: [oauthProvider({ clients: [...] })] in the Sesame configuration; with AUTH_URL=https://app.example
 * // and the base path /api/auth, the issuer is https://app.example/api/auth/oauth.
 * const server = oauthProvider({
 *   clients: [{ clientId: "reports", name: "Reports", clientSecret: process.env.REPORTS_SECRET!, redirectUris: ["https://reports.example/api/auth/callback/sesame"] }],
 *   resources: { "https://mcp.app.example/mcp": { scopes: ["tools:read"] } },
 * })
 * ```
 *
 * Besides the configuration's clients, each signed-in user registers apps of their own, and with
 * `organizations: orgs` (the organizations module of the same configuration) an organization's
 * admins register the organization's: through the server functions (`createOAuthClient`,
 * `listOAuthClients`, `rotateOAuthClientSecret`, `deleteOAuthClient`) or the built-in page
 * `<basePath>/oauth/clients[?organizationId=…]`.
 *
 * @module
 */
import type { ModuleRequest, SesameModule } from "@sesame/core"
import { throughServer } from "./bridge.js"
import { clientApi, signedInUserId } from "./clients.js"
import { clientPageRoutes } from "./clients-page.js"
import { admitRegistration } from "./registration.js"
import { consentsOf, revokeConsent, type Consent } from "./consent.js"
import { interactionRoutes } from "./interaction.js"
import { logoutRoutes } from "./logout.js"
import { oauthMessages } from "./messages.js"
import { models } from "./models.js"
import { resolveOptions, type OAuthProviderOptions } from "./options.js"
import { pageRoutes } from "./pages.js"
import { servers } from "./servers.js"

export { clientModel, consentModel, recordModel, secretModel } from "./models.js"
export type { GrantType, OAuthClient, OAuthProviderOptions, OAuthResource, OrganizationsModule } from "./options.js"
export { OAuthClientError, oauthClientErrorStatus, type CreatedOAuthClient, type CreateOAuthClientInput, type OAuthClientErrorCode, type OAuthClientInfo, type RegisteredGrantType } from "./clients.js"
export type { Consent } from "./consent.js"

/**
 * The authorization server module: add it to `plugins`. Its endpoints are under
 * `<basePath>/oauth`, which is its issuer: discovery at `<issuer>/.well-known/openid-configuration`.
 * It needs an adapter with a store (its clients' grants, codes and tokens live there).
 *
 * Throws a `TypeError` when an option is wrong.
 */
export function oauthProvider(options: OAuthProviderOptions = {}) {
  const resolved = resolveOptions(options)
  const serverFor = servers(resolved)
  const clients = clientApi(resolved, serverFor)
  return {
    id: "oauth",
    models,
    routes: { ...interactionRoutes(serverFor, new Set(resolved.clients.map((client) => client.clientId))), ...pageRoutes(serverFor), ...logoutRoutes(serverFor), ...clientPageRoutes(clients) },
    services: {
      oauth: {
        browser: true,
        async handle(request, context) {
          const server = await serverFor(context)
          if (!server) return Response.json({ error: "server_error", error_description: "The authorization server needs AUTH_URL." }, { status: 500 })
          // Signing with the API tokens' ring: its whole key set (a key retiring, one about to sign), as `<basePath>/jwks` answers it.
          if (context.path === "jwks" && request.method === "GET" && server.keysFromRing && context.signingKeys) {
            return Response.json({ keys: await context.signingKeys.published() }, { headers: { "cache-control": "public, max-age=300" } })
          }
          const admitted = context.path === "reg" && request.method === "POST" ? await admitRegistration(resolved, request) : request
          if (admitted instanceof Response) return admitted
          return throughServer(server, admitted, context.user!)
        },
      },
    },
    messages: oauthMessages,
    api: {
      ...clients,
      /** The apps the signed-in user allowed, with what each may do. */
      async oauthConsents(request: ModuleRequest): Promise<Consent[]> {
        const userId = await signedInUserId(request)
        const server = await serverFor(request)
        return server ? consentsOf(request.store!, server.provider, userId) : []
      },
      /** Withdraws the signed-in user's consent to `clientId`: its grant and every token it holds. Whether there was one. */
      async revokeOAuthConsent(request: ModuleRequest, clientId: string): Promise<boolean> {
        const userId = await signedInUserId(request)
        if (typeof clientId !== "string") throw new TypeError("revokeOAuthConsent: `clientId` must be a string.")
        return revokeConsent(request.store!, userId, clientId)
      },
    },
  } satisfies SesameModule
}
