/**
 * The plugin API: a feature module is one object that declares what a capability adds to Sesame —
 * its storage (models), its endpoints, what it does on Sesame's events, and its server functions.
 * The app lists modules in `plugins`; the core's hubs read the list and name none of them.
 *
 * ```ts
 * import type { SesameModule } from "@sesame/core"
 *
 * export function greeting(options: { text: string }): SesameModule {
 *   if (typeof options.text !== "string") throw new TypeError("greeting: `text` must be a string.")
 *   return {
 *     id: "greeting",
 *     routes: { "GET greeting": { run: async (request) => ({ body: { text: options.text, user: (await request.user())?.id ?? null } }) } },
 *   }
 * }
 * ```
 *
 * A module's options are its factory's parameters: check them there, with their defaults, so that
 * a mistake fails when the configuration is written, not at the first request.
 *
 * @module
 */
import type { JWK } from "jose"
import type { AdapterUser } from "../adapters/types.js"
import type { LoggerInstance } from "../logger.js"
import type { SafeHtml } from "../pages/html.js"
import type { OAuthConfig } from "../oauth/types.js"
import type { SecurityEventInput } from "../security-events.js"
import type { RateLimitFamily } from "./route.js"
import type { JsonValue, ModelDeclaration, Store } from "../store/model.js"
import type { Account, Awaitable, EventCallbacks, Profile, SignInCallbackParams, User } from "../types.js"

/** What every part of a module works with. */
export interface ModuleContext {
  /**
   * The adapter's generic store, where the module's models live. A module that declares models is
   * only on when the adapter has a store, so for it this is always set; for one that declares none,
   * it is the adapter's store when there is one.
   */
  store: Store | undefined
  /** The configuration's logger: `debug` for details, `error` for failures (never log secrets). */
  logger: Pick<LoggerInstance, "debug" | "error">
  /**
   * The adapter's users, for a module that shows who someone is (a list of members) or finds a
   * user by address: undefined without an adapter.
   */
  users?: ModuleUsers
  /** Encrypting what the module stores and must keep secret (an identity provider's client secret). */
  sealing: ModuleSealing
  /**
   * The keys that sign the app's API tokens (`apiTokens`), for a module that signs tokens of its
   * own (an authorization server's ID and access tokens), so that one key set, rotated by one
   * policy, is published at `GET <basePath>/jwks` for every verifier. Undefined when the app has no
   * `apiTokens`.
   */
  signingKeys?: ModuleSigningKeys
  /**
   * Reports one of the module's security events (an organization's member added): the app's
   * `events.security` and every module's `security` handler receive it, as they receive the
   * core's (a sign-in, a password changed), and an audit log records it. `type` is the module's
   * own, dotted and prefixed with its name (`"organization.member.added"`; the core's types are
   * refused); `details` holds names, counts and flags only (strings, numbers, booleans, null,
   * arrays of strings), never a secret, token or code. The time, the IP (with `trustHost`) and the
   * user agent are filled in from the request. `actorId`: who acted; default, in an endpoint or a
   * server function, the signed-in user; in a browser service, its signed-in user; elsewhere (an
   * event handler, a machine-to-machine service) null.
   *
   * In an event handler's context there is no request: the IP and user agent are null. Set on every
   * context Sesame makes (optional here for contexts a test makes).
   *
   * @throws TypeError for a type that is not dotted or is one of the core's, or `details` that are not plain values.
   */
  securityEvent?(event: SecurityEventInput): Promise<void>
}

/** The API tokens' key ring, as a module signs with it ({@link ModuleContext.signingKeys}). */
export interface ModuleSigningKeys {
  /** The key that signs now: its `kid`, algorithm, and private JWK. It changes when the ring rotates. */
  signing(): Promise<{ kid: string; alg: string; jwk: JWK }>
  /** The public keys verifiers must know now (`GET <basePath>/jwks`). */
  published(): Promise<JWK[]>
}

/** What names the app to others, in a module's endpoints, server functions and services. */
interface PublicAuthUrl {
  /**
   * Where Sesame's endpoints are as no request can change them: `AUTH_URL`'s origin and the base
   * path (`https://app.example/api/auth`); without `AUTH_URL`, on a loopback host (development),
   * the request's. Null otherwise: with `trustHost` and no `AUTH_URL`, `authUrl` follows the
   * request's `Host`, which anyone can forge. What the module names the app with to others (an
   * authorization server's issuer) is made from this, never from `authUrl`.
   */
  publicAuthUrl: string | null
}

/**
 * A module's secrets at rest, encrypted under the app's secret: a copy of the database alone does
 * not reveal them. `purpose` names what is sealed and starts with the module's id
 * (`"sso.client-secret"`); a value sealed for one purpose never opens for another.
 */
export interface ModuleSealing {
  /** `value` encrypted with the app's newest secret: a string to store. */
  seal(purpose: string, value: string): Promise<string>
  /**
   * What `seal` sealed, or null when none of the app's secrets opens it (a secret retired, or
   * another purpose's value). `rotated`: it was sealed with an older secret; seal it again.
   */
  open(purpose: string, sealed: string): Promise<{ value: string; rotated: boolean } | null>
}

/** Reading the adapter's users (`getUser`, `getUserByEmail`), as a module may, and ending their sessions. */
export interface ModuleUsers {
  get(id: string): Promise<AdapterUser | null>
  getByEmail(email: string): Promise<AdapterUser | null>
  /**
   * Ends every database session of the user (when the adapter can list them:
   * `deleteSessionsByUserId`), and forgets the devices remembered for their second factor, as
   * "sign out everywhere" does; how many sessions ended. JWT sessions end too with
   * `session.revocation` (not counted); without it a JWT session lives in its cookie until it
   * expires, and what a module adds to it is checked again at its next re-issue.
   */
  endSessions(id: string): Promise<number>
  /**
   * Creates a user (an organization's identity provider provisioning its people ahead of their
   * first sign-in), with the app's user fields' defaults, and sends the `createUser` event. The
   * module decides that the address is proven (`emailVerified`); Sesame does not check it.
   */
  create(user: { email: string; name: string | null; emailVerified: Date | null }): Promise<AdapterUser>
  /**
   * The user's provider accounts (no tokens), for an admin's view of a user. Needs the adapter's
   * `listAccountsByUserId` (every Sesame adapter), else `MissingAdapterMethods`.
   */
  accounts(id: string): Promise<{ provider: string; type: string; providerAccountId: string }[]>
  /**
   * The user's live database sessions (no token, no hash), newest first. Empty with JWT sessions,
   * which are not stored. Needs `listSessionsByUserId` with database sessions.
   */
  sessions(id: string): Promise<{ createdAt: Date | null; lastUsedAt: Date | null; expires: Date; userAgent: string | null }[]>
  /**
   * Deletes the user with everything stored for them (the adapter's `deleteUser`), ends their JWT
   * sessions with `session.revocation`, and sends `deleteUser`, as the user's own `deleteUser`
   * does. False when there was no such user.
   */
  delete(id: string): Promise<boolean>
  /**
   * The users by address (then id), `limit` (1 to 100) at a time, whose address or name holds
   * `search` (any case); `next` is the cursor of the following page, null on the last. Needs the
   * adapter's `listUsers` (every Sesame adapter), else `MissingAdapterMethods`.
   */
  list(query: { search?: string; limit: number; cursor?: string }): Promise<{ users: AdapterUser[]; next: string | null }>
  /**
   * Whether the user may act now: false when a module holds them back ({@link SesameModule.userStanding}:
   * a suspended account), or when there is no such user. Ask it before a credential that no
   * sign-in renews acts for the user (a long-lived API key), since ending sessions does not reach
   * it. A storage outage throws `StorageUnavailable`; a module that throws anything else is logged,
   * and the answer is false.
   */
  inGoodStanding(id: string): Promise<boolean>
}

/**
 * What became of a password reset link sent on another's word: `sent`; `limited`, held back by
 * the password provider's `emailsPerAddress`; `failed`, the email could not be sent (logged);
 * `unavailable`, no password provider is configured.
 */
export type PasswordResetOutcome = "sent" | "limited" | "failed" | "unavailable"

/** What a capability keeps for a user, as an admin's view of the user shows it: a heading and lines of plain text (escaped where shown). */
export interface UserFacts {
  title: string
  items: string[]
}

/** The request a module's endpoint or server function handles. */
export interface ModuleRequest extends ModuleContext, PublicAuthUrl {
  /**
   * Emails the user `userId` a link to set a new password, the one the forgotten-password form
   * sends (the same expiry and per-address limit), from the configuration's password provider: an
   * admin's "send a reset", which never lets anyone but the owner know the new password. A user
   * without a password gets one this way. `unavailable` too when there is no such user.
   */
  sendPasswordReset(userId: string): Promise<PasswordResetOutcome>
  /**
   * What the built-in capabilities (the second factor) and the plugins (`aboutUser`: their
   * organizations, …) keep for the user `userId`, in the request's language, for an admin's view of
   * a user. `source` is the capability's or plugin's id. Ask it only for someone allowed to see it.
   */
  aboutUser(userId: string): Promise<(UserFacts & { source: string })[]>
  /**
   * The other plugins' parts of one of this module's pages (`SesameModule.sections`): `place` is
   * `<this module's id>.<name>` (a module shows only its own places), `input` what those parts are
   * about (`{ organizationId }`), in the configured order. A part that throws, or answers something
   * not made with `html`, is logged and left out: the page must show whatever one of them does.
   * Each part checks itself what the signed-in user may see.
   */
  sections(place: string, input: Readonly<Record<string, string>>): Promise<SafeHtml[]>
  /** See {@link ModuleContext.securityEvent}: here `actorId` defaults to the signed-in user, and the request's IP and user agent are recorded. */
  securityEvent(event: SecurityEventInput): Promise<void>
  /**
   * Signs this browser in as `userId` on behalf of the signed-in user (an admin impersonating a
   * user), with this module's part `part`, until `endsAt` (ms). The signed-in user's own session is
   * kept aside, sealed in a cookie, for {@link stopActing}. The module must declare `acting` (which
   * must recognise `part`) and `keepsSessionPart`; its endpoint's answer carries the cookies, so a
   * server function cannot. False when there is no such user or the request is not signed in.
   */
  actAs(userId: string, part: JsonValue, options: { endsAt: number }): Promise<boolean>
  /**
   * Ends this browser's session and brings back the one {@link actAs} kept aside: false when there
   * is none (expired), and the browser is then signed out. From one of the module's endpoints.
   */
  stopActing(): Promise<boolean>
  /**
   * Whether the request's session is an acting one (any module's: an admin as the user), and who
   * acts until when; undefined otherwise. A module that hands out the user's own credentials (an
   * authorization server's consent) refuses such a session.
   */
  acting(): Promise<{ actorId: string; endsAt: number } | undefined>
  method: "GET" | "POST"
  /** The request's URL, at the app's public origin. */
  url: URL
  /** Where Sesame's endpoints are: the app's public origin and the base path (`https://app.example/api/auth`). */
  authUrl: string
  headers: { get(name: string): string | null }
  /** Query parameters; one given twice is refused before the module sees it. */
  query: Readonly<Record<string, string>>
  /** A POST's form or JSON fields (empty for a GET). */
  body: Readonly<Record<string, unknown>>
  /**
   * The signed-in user, or null. A session cookie sent twice counts as no user (a cookie planted
   * by a sibling subdomain), as everywhere in Sesame.
   */
  user(): Promise<User | AdapterUser | null>
  /**
   * Whether the signed-in user's sign-in is recent: within `maxAge` seconds (default
   * `session.freshAge`) of the sign-in, or of the last time they proved who they are again. What a
   * sensitive action asks first (deleting something shared); when not, answer so, and the app sends
   * the browser to re-authenticate (`requireRecentSignIn` gives the URL). False when no one is signed in.
   */
  recentSignIn(maxAge?: number): Promise<boolean>
  /**
   * Sets this module's part of the signed-in session from now on (`undefined` removes it): what
   * its `session` is asked with as `previous` at every later read (database sessions) or re-issue
   * (JWT sessions), so that it can check the value still holds (the user is still a member of the
   * organization) before it answers it. A JWT session is re-issued at once, carrying `value` as the
   * claim of the module's id; a database session keeps it in the store (the model
   * `sessionPart`). Only for a module that says `keepsSessionPart`. Check `value` first: it
   * reaches the session as it is until the next read or re-issue. With JWT sessions, call it from
   * the module's endpoint: a server function sends no cookie, so there it throws a `TypeError`.
   *
   * @returns false when no one is signed in (nothing is set).
   */
  setSessionPart(value: JsonValue | undefined): Promise<boolean>
  /**
   * This module's part of the signed-in session as it stands (`session[<id>]`: its `session`'s
   * last answer, checked again as every read checks it); undefined when no one is signed in, the
   * session has none, or the module has no `session`. What a page shows as current (the active
   * organization). It reads the session as `auth()` does: the app's `session` callback and event
   * run, and a session due for it is extended.
   */
  sessionPart(): Promise<JsonValue | undefined>
  /**
   * The visitor's language (a BCP 47 tag), chosen from `Accept-Language` among the languages the
   * built-in pages speak and those the app's `messages` add; English when none matches.
   */
  readonly lang: string
  /**
   * The module's text `key` (one of its `messages`, the app's `messages` override over it) in
   * {@link ModuleRequest.lang}, falling back to English, with `{name}` placeholders replaced by `vars`.
   */
  text(key: string, vars?: Readonly<Record<string, string>>): string
  /**
   * The CSRF token a page's form sends back as its `csrfToken` field (its cookie goes out with the
   * answer). Only in an endpoint: a server function's caller never sends the cookie on, so there
   * it throws a `TypeError`.
   */
  csrfToken(): Promise<string>
  /**
   * Starts a sign-in with one of this module's providers ({@link SesameModule.providers}): the
   * answer to return from the endpoint, which sends the browser to the provider's authorization
   * endpoint with Sesame's checks (state, PKCE, nonce) in their cookies, exactly as
   * `POST <basePath>/signin/<id>` does. `params` are the authorization request's extra parameters
   * (`login_hint`, `prompt`); the request's own fields never reach the provider. The flow ends at
   * `<basePath>/callback/<id>`, then where the request's `callbackUrl` said (checked as everywhere).
   * Only in an endpoint (a server function sends no cookie): elsewhere it throws a `TypeError`.
   */
  signInWith(providerId: string, params?: Readonly<Record<string, string>>): Promise<ModuleResponse>
  /**
   * This module's cookie `name` as the browser sent it; undefined when it did not, or sent it
   * twice (a cookie planted by a sibling subdomain is trusted in neither copy).
   */
  cookie(name: string): string | undefined
  /**
   * Sets this module's cookie `name` (lowercase letters, digits and hyphens) on the answer:
   * HttpOnly, `SameSite=Lax`, Secure and `__Secure-`-prefixed on https, for `maxAge` seconds (0
   * deletes it). `crossSite`: sent along a POST from another site too (`SameSite=None`, which needs
   * https: on plain http it stays `Lax`), for a flow that comes back through an identity
   * provider's form. Only in an endpoint: a server function's answer sends no cookie.
   */
  setCookie(name: string, value: string, options: { maxAge: number; crossSite?: boolean }): void
  /**
   * Signs in the person a module's own identity provider vouched for (a SAML assertion it
   * verified): the same steps as every sign-in, in this order: the account already linked, the
   * app's `signIn` callback, the account-linking rules (with `emailVerified`, the provider speaks
   * for the address, and may link to its existing user, as `allowDangerousEmailAccountLinking`
   * does for a provider that vouches), the second factor, the session, the `signIn` event, and the
   * redirect to {@link ModuleRequest.callbackUrl}. The account is stored as `{ provider:
   * providerId, type: "oauth", providerAccountId }` (the four account types are the adapters'
   * contract). Check first that the answer is bound to this browser: this trusts it as it is. Only
   * in an endpoint; its answer is the one to return.
   */
  signIn(identity: ModuleIdentity): Promise<ModuleResponse>
  /**
   * Ends the browser's session, as `POST <basePath>/signout` does (the database session deleted,
   * the session cookie cleared, the `signOut` event sent): an identity provider's logout (an
   * authorization server's RP-initiated logout). Only in an endpoint, whose answer carries the
   * cleared cookie.
   */
  signOut(): Promise<void>
  /**
   * The answer that sends the browser to `url` on another origin: an identity provider's sign-in
   * (a SAML AuthnRequest), with the cookies the endpoint set. The only way a module's answer leaves
   * the app's origin (`redirect` stays on it): never build `url` from the request's own input, or it
   * is an open redirect. `url` must be https, or http on a loopback host. Only in an endpoint.
   */
  redirectToIdentityProvider(url: string): ModuleResponse
  /**
   * Where the visitor goes once signed in: the request's `callbackUrl` (field, query, or the cookie
   * a sign-in in progress set), checked by the app's `redirect` callback as everywhere; the app's
   * home page when there is none.
   */
  callbackUrl(): Promise<string>
}

/** Who a module's own identity provider signed in ({@link ModuleRequest.signIn}). */
export interface ModuleIdentity {
  /** The module's provider id, `<module id>-<name>` (`sso-<connection id>`). */
  providerId: string
  /** What pages call the provider. Default `providerId`. */
  providerName?: string
  /** The person's id at the identity provider (a SAML NameID), unique there. */
  providerAccountId: string
  /** The person as the identity provider describes them. */
  user: { email: string | null; name?: string | null; image?: string | null }
  /** What the identity provider said, as the `signIn` callback and event receive it. */
  profile: Record<string, unknown>
  /** Whether the identity provider speaks for `user.email` (see {@link ModuleRequest.signIn}). */
  emailVerified: boolean
  /**
   * Whether the module bound this answer to the browser that started the sign-in (a SAML response
   * to its own request). Default true. False (an IdP-initiated response, which any page can make a
   * browser post): the account is never linked to whoever is signed in in that browser, as for a
   * provider without checks.
   */
  boundToBrowser?: boolean
  /**
   * Where to go once signed in, as the module recorded it when the sign-in started (checked by
   * the app's `redirect` callback as everywhere). Default: the request's `callbackUrl`.
   */
  callbackUrl?: string
}

/**
 * A page a module's endpoint answers: shown in the built-in pages' document (their stylesheet, the
 * app's `theme`, `<html lang>` from {@link ModuleRequest.lang}, a Content-Security-Policy with no
 * script and a nonce for the one stylesheet, no framing, `Referrer-Policy: strict-origin`).
 * `body` is made with `html`, which escapes everything interpolated: a member's name or an
 * organization's can never become markup. The built-in pages' classes apply: `card` holds the
 * body; `alert` and `notice` for messages; `lead`, `hint` and `note` for secondary text;
 * `buttons`, `primary`, `links`, `titled`.
 */
export interface ModulePage {
  /** The document's `<title>`. */
  title: string
  body: SafeHtml
  /** `"wide"`: room for tables and lists (the built-in pages' card is narrow, for one form). */
  width?: "narrow" | "wide"
}

/**
 * A module endpoint's answer. A `body` that is a string is sent as is (say what it is in
 * `headers`); anything else as JSON. Answers are `Cache-Control: private, no-store` unless
 * `headers` says otherwise. `redirect` must be a path or a URL on the app's own origin.
 */
export interface ModuleResponse {
  status?: number
  headers?: Record<string, string>
  body?: unknown
  redirect?: string
  /** A page, instead of `body` (see {@link ModulePage}). */
  page?: ModulePage
}

/**
 * One endpoint, at `<basePath>/<path>` where its key is `"<METHOD> <path>"` and the path starts
 * with the module's id (`"GET audit-trail/recent"`). Every POST is refused when the browser says it
 * comes from another site, and needs the CSRF token (`csrfToken` field, from `GET <basePath>/csrf`)
 * unless `csrf: false` (for a POST that changes nothing a visitor could be tricked into).
 */
export interface ModuleRoute {
  /** Checks the CSRF token of a POST. Default true. */
  csrf?: boolean
  /**
   * A POST another site's page sends (an identity provider's `form_post`, as a SAML response):
   * the same-origin check is left out for it, as for an OIDC `form_post` callback. It needs
   * `csrf: false`, and the endpoint binds what it receives to the browser itself (a cookie with
   * `crossSite`).
   */
  crossSite?: boolean
  /**
   * The family its requests count in for each client's rate limit (`rateLimit`): `"sign-in"` for
   * an endpoint that checks a secret or starts a sign-in, `"email"` for one that sends an email.
   * Default: `"pages"` for a GET, `"account"` for a POST.
   */
  rateLimit?: RateLimitFamily
  run(request: ModuleRequest): Awaitable<ModuleResponse>
}

/** A module's handlers of Sesame's events: the app's events' messages, and the module's context. */
export type ModuleEvents = {
  [E in keyof EventCallbacks]?: (message: Parameters<EventCallbacks[E]>[0], context: ModuleContext) => Awaitable<void>
}

/**
 * A server function: what the app calls from its own server code (`auth.api.<name>(...args)` in
 * the integrations, `callModuleApi` in the core), with the request it is handling.
 */
export type ModuleFunction = (request: ModuleRequest, ...args: never[]) => Promise<unknown>

/** What a module's `session` is asked with. */
export interface ModuleSessionInput extends ModuleContext {
  /** The signed-in user: the stored user with an adapter, else the one the provider or `authorize` gave. */
  user: User | AdapterUser
  /**
   * `"signIn"`: a JWT session starts; `"refresh"`: a JWT session is re-issued (its expiry extended
   * after `session.updateAge`, or updated), and what the module answers is kept in the token until
   * the next one; `"read"`: a database session is read (every request that reads it).
   */
  trigger: "signIn" | "read" | "refresh"
  /**
   * What this session holds for the module: for a JWT session at `"refresh"`, the token's claim
   * (the module's last answer, or what it set with `setSessionPart`); for a database session, what
   * the module set with `setSessionPart` (only for a module that `keepsSessionPart`). Undefined at
   * `"signIn"`. It is the module's own earlier answer, never the browser's (a JWT `update()` cannot
   * change it), but it may be out of date: check it before answering it again.
   */
  previous?: JsonValue
}

/**
 * Providers a module keeps itself (an organization's own identity provider), found when a request
 * names one: their ids are `<module id>-<name>`, and `signin/<id>` and `callback/<id>` serve them
 * with the same code, checks and account-linking rules as the configured `oauth`/`oidc` providers.
 * They are not listed on the sign-in page; the module starts their sign-ins
 * ({@link ModuleRequest.signInWith}).
 */
export interface ModuleProviders {
  /**
   * The settings of provider `id` (an `oauth` or `oidc` provider with that `id`), or null when
   * there is none. Asked at every request that names such a provider. Return the same object for
   * as long as the settings do not change: Sesame keeps what it learns per object (the discovery
   * document, the provider's keys). A configured provider of the same id always wins.
   */
  find(id: string, context: ModuleContext): Awaitable<OAuthConfig | null>
  /**
   * Whether a sign-in through one of the module's providers may go on, asked before anything is
   * created or linked for it (and before the app's `signIn` callback): for the module's sign-ins
   * with `request.signIn` too. Anything but `true` refuses it (`AccessDenied`), as does a throw.
   * For what only holds while something lasts, which an account's link alone cannot say: an
   * organization still owning the domain of the user its provider signs in as.
   */
  admit?(signIn: ModuleSignIn, context: ModuleContext): Awaitable<boolean>
}

/** A module's part of another module's page (`SesameModule.sections`): what `request.sections(place, input)` shows. */
export type ModuleSection = (request: ModuleRequest, input: Readonly<Record<string, string>>) => Awaitable<SafeHtml | null>

/** A sign-in through a module's provider, as {@link ModuleProviders.admit} is asked about it. */
export interface ModuleSignIn {
  /**
   * `linked`: the stored user the provider's account belongs to, who signs in. Otherwise the person
   * as the provider describes them, whom the account-linking rules then link to the user of that
   * address, or make a new user of, or refuse.
   */
  user: User | AdapterUser
  linked: boolean
  account: Account
  /** The provider's profile of the person. */
  profile?: Profile
}

/**
 * A machine-to-machine API a module serves under `<basePath>/<prefix>/…` (SCIM, which identity
 * providers call): the web `Request` as it came, any method. Sesame reads no cookie and sets none,
 * and checks neither the origin nor a CSRF token: nothing a browser sends by itself may
 * authenticate such a request, so the handler authenticates every one (a bearer token) and reads
 * the body itself, within a limit.
 */
export interface ModuleService {
  handle(request: Request, context: ModuleServiceContext): Promise<Response>
  /**
   * A service a browser visits too (an OAuth authorization endpoint, which keeps its own cookies
   * between the steps of a sign-in): its requests keep the cookies named as the module's
   * endpoints' cookies are (`sesame.<id>.<name>`, `__Secure-` first on https: what
   * {@link ModuleRequest.cookie} reads as `<name>`) and no other, its answer may set only such
   * cookies, and {@link ModuleServiceContext.user} says who is signed in. Still no
   * origin or CSRF check: the service defends its own forms. Default false.
   */
  browser?: boolean
}

/** What a module's service handles a request with. */
export interface ModuleServiceContext extends ModuleContext, PublicAuthUrl {
  /**
   * See {@link ModuleContext.securityEvent}: the request's IP and user agent are recorded, and
   * `actorId` defaults to a browser service's signed-in user, else null (say who: the SCIM
   * connection a bearer token names, as `scim:<connection id>`).
   */
  securityEvent(event: SecurityEventInput): Promise<void>
  /** The path after the service's prefix, without a leading `/` (`Users/2819c223`); empty at the prefix itself. */
  path: string
  /** Where Sesame's endpoints are: the app's public origin and the base path. */
  authUrl: string
  /**
   * A browser service's ({@link ModuleService.browser}) signed-in user, read as everywhere (a
   * session cookie sent twice is no one); undefined for a machine-to-machine service. Reading it
   * never extends the session: no Sesame cookie leaves a service.
   */
  user?(): Promise<User | AdapterUser | null>
}

/** A feature module, built in or the app's (`plugins`). */
export interface SesameModule {
  /** Lowercase letters, digits and hyphens; unique in a configuration; the first segment of its endpoints' paths. */
  id: string
  /**
   * What it stores. Without a `store` on the adapter, a module that declares models is off (the
   * start-up log says so, and its server functions throw `MissingAdapterMethods`); the rest of
   * Sesame works as before. `sesame migrate` (or an adapter's `migrate(db, { models })`) makes the tables.
   */
  models?: readonly ModelDeclaration[]
  /** Its endpoints, by `"<METHOD> <path>"`. */
  routes?: Readonly<Record<string, ModuleRoute>>
  /**
   * Its handlers of Sesame's events, run after the app's own (`events`). A handler that throws is
   * logged as `EventError` and never changes the flow, as the app's.
   */
  events?: ModuleEvents
  /**
   * Its machine-to-machine APIs by path prefix (`"sso/scim/v2"`: a path of lowercase segments
   * starting with the module's id), each serving that path and everything under it (see
   * {@link ModuleService}).
   */
  services?: Readonly<Record<string, ModuleService>>
  /** Providers it keeps itself, found by id at request time (see {@link ModuleProviders}). */
  providers?: ModuleProviders
  /** Its server functions, by name: unique across the configuration's modules. */
  api?: Readonly<Record<string, ModuleFunction>>
  /**
   * Its part of the session, as `session[<id>]` (JSON; `undefined` adds nothing): with database
   * sessions asked at every session read, with JWT sessions at sign-in and kept in the token as the
   * claim `<id>`. It reaches the `jwt` and `session` callbacks, and `GET session` sends it to the
   * browser: never put a secret there. One that throws is logged as `EventError` and left out; the
   * session goes on.
   */
  session?(input: ModuleSessionInput): Awaitable<JsonValue | undefined>
  /**
   * Whether the module sets its part of a session itself (`ModuleRequest.setSessionPart`): a
   * choice made for one session, such as the active organization. It needs `session`, which is
   * asked with the value as `previous`. Database sessions keep the values in the store, in the
   * model `sessionPart` (`sesame_session_parts`, made by `migrate` with the plugins' models), so
   * such a module is off without a store, as one with models is.
   */
  keepsSessionPart?: boolean
  /**
   * Claims the module adds to the API tokens issued for a session (`GET <basePath>/token`,
   * `getApiToken`), from its part of that session (`part`, as `session[<id>]` has it): the active
   * organization's id, say. The app's `apiTokens.claims` may replace them, and the registered claims
   * (`iss`, `sub`, `exp`, …) always do. One that throws is logged as `EventError` and adds nothing.
   */
  tokenClaims?(input: { userId: string; part: JsonValue | undefined }): Awaitable<Record<string, JsonValue> | undefined>
  /**
   * Its part of the built-in sign-in page, shown first, above the providers (a "work address" form
   * that finds the visitor's identity provider, say); undefined shows nothing. Made with `html`.
   * Its forms post to the module's own endpoints with {@link ModuleRequest.csrfToken} and
   * {@link ModuleRequest.callbackUrl}. One that throws is logged and left out; the page shows.
   */
  signInSection?(request: ModuleRequest): Awaitable<SafeHtml | undefined>
  /**
   * Its part of the built-in account page (`GET <basePath>/account`), shown in the configured
   * order among the plugins' parts (the page's `plugins` section): an `<h2>` heading and what the
   * signed-in user has with the module (their organizations, say), with links to the module's own
   * pages; null shows nothing. Made with `html`; forms post to the module's endpoints with
   * {@link ModuleRequest.csrfToken}. One that throws is logged and left out; the page shows.
   */
  accountSection?(request: ModuleRequest): Awaitable<SafeHtml | null>
  /**
   * Its parts of other modules' pages, by place (`"organization.manage"`: the organizations
   * module's page of one organization), as that module documents the place and its `input`: an
   * `<h2>` heading and what the module has there, made with `html` (null: nothing). Asked with this
   * module's own request, so its texts and its forms' CSRF token; it must check what the signed-in
   * user may see, since the page shows it to whoever the page is for.
   */
  sections?: Readonly<Record<string, ModuleSection>>
  /**
   * What the module keeps for the user `userId` (memberships, keys, …), in `request`'s language,
   * for an admin's view of a user (`ModuleRequest.aboutUser`); null says nothing. `request` is the
   * asking module's request, made for this module: whoever asks has checked that the caller may
   * see it. Never a secret. One that throws is logged and left out.
   */
  aboutUser?(userId: string, request: ModuleRequest): Awaitable<UserFacts | null>
  /**
   * Its word on every sign-in, asked once the app's `signIn` callback let it go on, with the same
   * parameters, in the configured order: `true` lets it go on, `false` refuses it (`AccessDenied`),
   * a URL of the app sends the browser there instead (the module's page that says why). One that
   * throws refuses. A suspended account is the example. Like the callback, it is also asked when
   * an email link is requested (`params.email.verificationRequest`): answer `true` there unless
   * the refusal may tell a stranger something about the address. `context.authUrl` is where the
   * app's endpoints are, for the URL of the module's page.
   */
  checkSignIn?(params: SignInCallbackParams, context: ModuleContext & { authUrl: string }): Awaitable<boolean | string>
  /**
   * Whether the stored user `userId` may act now, for a credential that no sign-in renews (another
   * module's API key): false for a suspended account. `checkSignIn` is its counterpart at sign-in;
   * ending sessions does not reach such a credential. Asked through
   * {@link ModuleUsers.inGoodStanding}, in the configured order, at every use of such a credential:
   * keep it to one indexed read.
   */
  userStanding?(userId: string, context: ModuleContext): Awaitable<boolean>
  /**
   * A session for a request that carries the module's own credential instead of a session cookie
   * (an API key in `Authorization: Bearer`): who it acts for, until when, and the module's part of
   * that session (`session[<id>]`: the key's scopes, say). Asked only for reads of the session, with
   * no session cookie in the request (`GET session`, and so every integration's session getter),
   * in the configured order, the first answer winning; never where a cookie session's CSRF rules
   * apply (a POST, a sign-out, another module's endpoint), which see no session. The user must be
   * stored, and in good standing (`userStanding`). The session starts as `{ user, expires, [id]:
   * part }` and goes through the app's callbacks as the strategy reads a session of that user
   * (`modules/credential-session.ts`); no cookie is set. The module's id may not be a key Sesame
   * uses. Null: no such session; a throw other than a storage outage is logged and is no session.
   */
  credentialSession?(request: ModuleRequest): Awaitable<{ userId: string; expires: Date; part?: JsonValue } | null>
  /**
   * What its part of a session says of an acting session: one it started on someone's behalf with
   * {@link ModuleRequest.actAs} (an admin impersonating a user), as `{ actorId, endsAt }`, or
   * undefined for any other session. The core holds such a session to its rules: it ends at
   * `endsAt`, when {@link SesameModule.actingHolds} says it no longer holds, and when its actor's
   * own sessions are ended (database sessions: the actor's session it was started from, kept
   * aside, is gone or over; JWT sessions: `session.revocation` ended the actor's sessions after it
   * started); it is never a recent sign-in (no sensitive action); it hands out no credential of
   * the user's own (an API token says who acts, in `act`; a native app gets no code); and every
   * built-in page shows a banner saying so, with a link to `<basePath>/<stopPath>` when given (the
   * module's page that ends it). Synchronous, from the part alone: it is asked at every read, and
   * says whether the session acts, never whether it still may. Needs `keepsSessionPart`.
   */
  acting?(part: JsonValue): { actorId: string; endsAt: number; stopPath?: string } | undefined
  /**
   * Whether the acting session its part marks ({@link SesameModule.acting}) still holds, for a
   * module whose record of it can end before `endsAt`: stopped, or its actor no longer allowed to
   * act (an admin suspended or demoted). Asked with that part at every use of such a session, with
   * either strategy (`auth()`, `GET session`, `request.user()`, an API token), and never for
   * another session, which costs nothing more. Anything but `true` ends it there and then, as
   * `endsAt` would: signed out, its cookie cleared at the read, so that a copy of it is worth
   * nothing either. A storage outage it meets is the request's 503 (the cookie stays); any other
   * throw ends the session, logged as `EventError`. Needs `acting`.
   */
  actingHolds?(part: JsonValue, context: ModuleContext): Awaitable<boolean>
  /**
   * The texts of its pages by language (`{ en: { "greeting.title": "Hello" }, fr: { … } }`), read
   * with {@link ModuleRequest.text}. Every key starts with the module's id and a dot; English
   * (`en`) has every key, and another language may leave some out (English stands in). The app's
   * `messages` option overrides any of them, and may add a language.
   */
  messages?: Readonly<Record<string, Readonly<Record<string, string>>>>
}

/**
 * The server functions of module `M` as an integration's `api` offers them: without the request,
 * which the integration supplies. `auth.api as ServerFunctionsOf<ReturnType<typeof auditTrail>>`.
 */
export type ServerFunctionsOf<M extends SesameModule> = {
  [K in keyof NonNullable<M["api"]>]: NonNullable<M["api"]>[K] extends (request: ModuleRequest, ...args: infer A) => infer R ? (...args: A) => R : never
}
