/**
 * The authorization server: one oidc-provider instance per issuer, configured for Sesame. The
 * protocol is oidc-provider's (OpenID Certified); what is Sesame's is who the user is (the Sesame
 * session, asked at every authorization request), the pages (consent, device code, errors: the
 * module's own endpoints, `routes.ts`), and the storage (the app's store, `storage.ts`).
 *
 * Policy, in one place:
 * - PKCE (S256) for every client, confidential ones too (OAuth 2.1).
 * - Redirect URIs compared exactly (oidc-provider's rule; nothing here loosens it).
 * - Refresh tokens rotate at each use; a used one presented again revokes the whole grant
 *   (oidc-provider, and `storage.ts` for two uses racing).
 * - An access token for a resource (RFC 8707) is a JWT for that audience alone; without one, an
 *   opaque token for the userinfo endpoint.
 * - The user of an authorization is whoever is signed in to Sesame now: a session of the server's
 *   own that no longer matches (signed out, someone else signed in) asks to sign in again.
 *
 * @module
 */
import type { ModuleContext, User } from "@sesame/core"
import Provider, { errors, interactionPolicy, type ClientMetadata, type Configuration, type KoaContextWithOIDC } from "oidc-provider"
import { knownScopes, type OAuthClient, type ResolvedOptions } from "./options.js"
import { serverSecrets } from "./secrets.js"
import { storeAdapter } from "./storage.js"
import { ownedClientsOnly } from "./clients.js"
import { loadExistingGrant } from "./consent.js"

/** Where the bridge leaves who is signed in to Sesame, on the request oidc-provider reads (`bridge.ts`). */
export const signedInKey = Symbol("sesame.oauth.signedIn")

/** Who is signed in to Sesame (`ModuleServiceContext.user`, `ModuleRequest.user`). */
export type SignedIn = () => Promise<User | null>

/** The id of the user signed in to Sesame, for the request oidc-provider is handling; null when no one is. */
async function sesameUserIdOf(ctx: KoaContextWithOIDC): Promise<string | null> {
  const read = (ctx.req as unknown as Record<symbol, SignedIn | undefined>)[signedInKey]
  return (read && (await read())?.id) || null
}

/** The built server, with what the module's endpoints need besides it. */
export interface Server {
  provider: Provider
  /** oidc-provider's Node.js handler (`bridge.ts`). */
  handler: ReturnType<Provider["callback"]>
  /** Whether it signs with the API tokens' key ring, whose key set (`published()`) its `jwks` endpoint answers. */
  keysFromRing: boolean
  issuer: string
  cookieKeys: readonly string[]
  /** The cookie names as the module's endpoints read them (`ModuleRequest.cookie`). */
  cookieName(kind: "interaction" | "resume" | "session"): string
}

/** The standard scopes and the claims each reveals. */
const claims = { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"] }

function clientMetadata(client: OAuthClient, known: readonly string[]): ClientMetadata {
  return {
    client_id: client.clientId,
    client_name: client.name,
    ...(client.clientSecret === undefined ? { token_endpoint_auth_method: "none" } : { client_secret: client.clientSecret, token_endpoint_auth_method: "client_secret_basic" }),
    redirect_uris: [...(client.redirectUris ?? [])],
    post_logout_redirect_uris: [...(client.postLogoutRedirectUris ?? [])],
    grant_types: [...(client.grantTypes ?? [])],
    response_types: client.grantTypes?.includes("authorization_code") ? ["code"] : [],
    scope: (client.scopes ?? known).join(" "),
    application_type: client.applicationType ?? "web",
  }
}

/** Builds the server for `issuer` (`<authUrl>/oauth`), where the module's pages are too. */
export async function buildServer(issuer: string, options: ResolvedOptions, context: Pick<ModuleContext, "store" | "users" | "sealing" | "signingKeys" | "logger">): Promise<Server> {
  const { store, users } = context
  if (!store || !users) throw new Error("oauthProvider: it needs an adapter with a store.")
  const secrets = await serverSecrets(store, context.sealing)
  // The API tokens' key ring when the app has one: one key set, one rotation, published at
  // `<basePath>/jwks` for every verifier. Else the server's own keys (`secrets.ts`).
  const ring = context.signingKeys ? await context.signingKeys.signing() : undefined
  const jwks = ring ? [{ ...ring.jwk, kid: ring.kid, alg: ring.alg, use: "sig" }] : secrets.keys
  const idTokenAlgorithms = ring ? [ring.alg] : ["RS256", "ES256"]
  const accessTokenAlgorithm = ring?.alg ?? "ES256"
  const secure = new URL(issuer).protocol === "https:"
  // Named as the module's endpoints' cookies are, so that they reach them (`ModuleService.browser`).
  const cookieName = (kind: string) => `${secure ? "__Secure-" : ""}sesame.oauth.${kind}`
  const known = knownScopes(options)

  const firstParty: ReadonlySet<string> = new Set(options.clients.filter((client) => client.firstParty).map((client) => client.clientId))
  const policy = interactionPolicy.base()
  // The user of the authorization is the one signed in to Sesame now, whatever the server's own session remembers.
  policy.get("login")!.checks.add(
    new interactionPolicy.Check("sesame_session", "the End-User signed in to the app is not the one of this session", "login_required", async (ctx) => {
      const userId = await sesameUserIdOf(ctx)
      return userId === null || userId !== ctx.oidc.session?.accountId ? interactionPolicy.Check.REQUEST_PROMPT : interactionPolicy.Check.NO_NEED_TO_PROMPT
    }),
    0,
  )

  const configuration: Configuration = {
    // A client registered through the module's functions signs no one in once its owner is gone (`clients.ts`).
    adapter: (name) => (name === "Client" ? ownedClientsOnly(storeAdapter(store, context.sealing)(name), store) : storeAdapter(store, context.sealing)(name)),
    clients: options.clients.map((client) => clientMetadata(client, known)),
    jwks: { keys: jwks as never },
    // Every client's ID tokens in the algorithm of the key that signs them.
    clientDefaults: { id_token_signed_response_alg: idTokenAlgorithms[0] as "RS256", grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "client_secret_basic" },
    cookies: {
      keys: [...secrets.cookieKeys],
      names: { session: cookieName("session"), interaction: cookieName("interaction"), resume: cookieName("resume") },
      long: { httpOnly: true, sameSite: "lax", secure },
      short: { httpOnly: true, sameSite: "lax", secure },
    },
    claims,
    // The scopes' claims in the ID token too, as Google's and most providers' are: clients that read
    // only the ID token (Auth.js's and Sesame's `oidc` providers) get the address and name.
    conformIdTokenClaims: false,
    scopes: known,
    pkce: { required: () => true },
    rotateRefreshToken: true,
    // A refresh token only when the user allowed offline access and the client may use one.
    issueRefreshToken: async (_ctx, client, code) => client.grantTypeAllowed("refresh_token") && code.scopes.has("offline_access"),
    ttl: {
      AccessToken: options.accessTokenTtl,
      ClientCredentials: options.accessTokenTtl,
      RefreshToken: options.refreshTokenTtl,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
      Grant: options.refreshTokenTtl,
      DeviceCode: 600,
    },
    async findAccount(_ctx, sub) {
      const user = await users.get(sub)
      if (!user) return undefined
      return {
        accountId: user.id,
        claims: async () => ({ sub: user.id, email: user.email, email_verified: user.emailVerified !== null, name: user.name ?? undefined, picture: user.image ?? undefined }),
      }
    },
    // First party is the configuration's word alone: no metadata a client registers can claim it.
    loadExistingGrant: (ctx) => loadExistingGrant(ctx, store, firstParty),
    interactions: {
      policy,
      url: (_ctx, interaction) => `${issuer}/interaction?uid=${encodeURIComponent(interaction.uid)}`,
    },
    features: {
      devInteractions: { enabled: false },
      // A client learns about, and revokes, its own tokens only: never another client's (RFC 7009 §2.1).
      introspection: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      clientCredentials: { enabled: true },
      // Sender-constrained tokens (RFC 9449) for the clients that ask: a stolen DPoP-bound token is useless without the client's key.
      dPoP: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // The confirmation is the module's page; the form it posts is oidc-provider's, with its CSRF token.
        logoutSource: (ctx, form) => {
          ctx.state.logoutPage = true
          ctx.redirect(`${issuer}/logout?xsrf=${encodeURIComponent(xsrfOf(form))}`)
        },
        postLogoutSuccessSource: (ctx) => {
          ctx.redirect(`${issuer}/logout?done=1`)
        },
      },
      deviceFlow: {
        enabled: options.deviceFlow,
        charset: "base-20",
        mask: "****-****",
        userCodeInputSource: (ctx, form, out, err) => {
          // The page says in words what went wrong: the re-render error's name (a code not found, expired, used, cancelled).
          const reason = err?.name ?? out?.error
          const error = reason ? `&error=${encodeURIComponent(reason)}` : ""
          // A code in the verification URI (`verification_uri_complete`) fills the field in.
          const code = /value="([^"]*)"[^>]*name="user_code"/.exec(form)?.[1] ?? (ctx.state as { userCode?: string }).userCode
          ctx.redirect(`${issuer}/user-code?xsrf=${encodeURIComponent(xsrfOf(form))}${code ? `&code=${encodeURIComponent(code)}` : ""}${error}`)
        },
        userCodeConfirmSource: (ctx, form, _client, _deviceInfo, userCode) => {
          ctx.redirect(`${issuer}/user-code?xsrf=${encodeURIComponent(xsrfOf(form))}&user_code=${encodeURIComponent(userCode)}`)
        },
        successSource: (ctx) => {
          ctx.redirect(`${issuer}/user-code?done=1`)
        },
      },
      registration: { enabled: options.dynamicRegistration !== false },
      ...(options.clientIdMetadataDocuments === false
        ? {}
        : { clientIdMetadataDocument: { enabled: true, ack: "draft-02", allowFetch: (_ctx: unknown, clientId: string) => (options.clientIdMetadataDocuments as { allow(id: string): boolean | Promise<boolean> }).allow(clientId) } }),
      resourceIndicators: {
        enabled: true,
        // Without a `resource`, an access token for the userinfo endpoint: never one for an API the client did not name.
        defaultResource: () => undefined as never,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator, client) => {
          const resource = options.resources[indicator]
          if (!resource) throw new errors.InvalidTarget()
          const allowed = new Set(String(client.scope ?? "").split(" "))
          return {
            scope: resource.scopes.filter((scope) => allowed.has(scope)).join(" "),
            audience: indicator,
            accessTokenTTL: resource.accessTokenTtl ?? options.accessTokenTtl,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: accessTokenAlgorithm as "ES256" } },
          }
        },
      },
    },
    // Errors a browser sees end on the module's error page, in the user's language, under the app's CSP.
    renderError: (ctx, out) => {
      ctx.status = 303
      ctx.redirect(`${issuer}/error?error=${encodeURIComponent(out.error)}`)
    },
    enabledJWA: { idTokenSigningAlgValues: idTokenAlgorithms as ["RS256"] },
  }
  const provider = new Provider(issuer, configuration)
  // `verification_uri_complete` (`/device?user_code=…`): oidc-provider answers it with its own
  // auto-submitting page (an inline script, English only); the code goes to the module's page
  // instead, filled in for the user to check and submit.
  provider.use(async (ctx, next) => {
    if (ctx.method === "GET" && ctx.path === "/device" && typeof ctx.query.user_code === "string") {
      ctx.state.userCode = ctx.query.user_code
      const query = new URLSearchParams(ctx.querystring)
      query.delete("user_code")
      ctx.querystring = query.toString()
    }
    await next()
    // A logout with no account in the server's own session: oidc-provider confirms it by itself (an
    // auto-submitting form). While someone is signed in to the app, it goes through the module's
    // page instead, which ends the app's session too (`logout.ts`): the server's session is the app's.
    if (ctx.path === "/session/end" && !ctx.state.logoutPage && ctx.status === 200 && ctx.oidc?.session?.state?.secret && (await sesameUserIdOf(ctx as unknown as KoaContextWithOIDC))) {
      ctx.status = 303
      ctx.redirect(`${issuer}/logout?xsrf=${encodeURIComponent(String(ctx.oidc.session.state.secret))}`)
    }
  })
  // A failure inside oidc-provider (answered 500 `server_error`) is logged as Sesame's are, never lost.
  provider.on("server_error", (_ctx: unknown, error: Error) => context.logger.error(error))
  // Host and scheme come from the issuer through the bridge, never from the request (`bridge.ts`).
  provider.proxy = true
  return { provider, handler: provider.callback(), issuer, keysFromRing: ring !== undefined, cookieKeys: secrets.cookieKeys, cookieName: (kind) => cookieName(kind) }
}

/** The CSRF token of oidc-provider's form, for the module's page that posts it. */
function xsrfOf(form: string): string {
  return /name="xsrf" value="([^"]+)"/.exec(form)?.[1] ?? ""
}
