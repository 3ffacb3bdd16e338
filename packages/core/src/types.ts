/**
 * Public types of `@sesame/core`: the configuration, the session and user shapes, callbacks and
 * events. Provider-kind specific types live with their kind (`credentials/`, `oauth/`, `email/`,
 * `webauthn/`) and are re-exported from the package root.
 *
 * @module
 */
import type { UserOptions } from "./user/fields.js"
import type { AccountInfo } from "./account/management.js"
import type { Adapter, AdapterSession, AdapterUser } from "./adapters/types.js"
import type { CredentialsConfig } from "./credentials/types.js"
import type { TrustedProxy } from "./http/client-ip.js"
import type { PartialCookiesOptions } from "./http/cookies.js"
import type { JWT, JWTOptions } from "./jwt/index.js"
import type { LoggerInstance } from "./logger.js"
import type { SesameModule } from "./modules/types.js"
import type { AnyOAuthConfig, OAuthConfig } from "./oauth/types.js"
import type { MessageOverrides } from "./pages/messages.js"
import type { BuiltInEvents, BuiltInOptions, BuiltInProviderConfig, BuiltInProviderOptions } from "./registry.js"
import type { SecurityEvent } from "./security-events.js"
import type { raw, skipCSRFCheck } from "./symbols.js"

export type Awaitable<T> = T | PromiseLike<T>

/** The user as the app sees it. */
export interface User {
  id?: string
  name?: string | null
  email?: string | null
  image?: string | null
}

/** The session returned by `GET session` and `auth()`. */
export interface DefaultSession {
  user?: User
  /** Absolute expiry, ISO 8601. */
  expires: string
}

/** The session. Augment this interface to type what your `session` callback adds. */
export interface Session extends DefaultSession {}

/** OpenID Connect standard claims, as returned by an identity provider. */
export interface Profile {
  sub?: string | null
  id?: string | null
  name?: string | null
  given_name?: string | null
  family_name?: string | null
  middle_name?: string | null
  nickname?: string | null
  preferred_username?: string | null
  profile?: string | null
  picture?: unknown
  website?: string | null
  email?: string | null
  email_verified?: boolean | null
  gender?: string | null
  birthdate?: string | null
  zoneinfo?: string | null
  locale?: string | null
  phone_number?: string | null
  updated_at?: string | number | Date | null
  address?: {
    country?: string | null
    formatted?: string | null
    locality?: string | null
    postal_code?: string | null
    region?: string | null
    street_address?: string | null
  } | null
  [claim: string]: unknown
}

/** The kinds of provider. */
export type ProviderType = "oidc" | "oauth" | "email" | "credentials" | "webauthn" | "password"

/** A provider account and, for OAuth, its token set. */
export interface Account {
  /** The provider's id. */
  provider: string
  /** oauth/oidc: the profile id; email: the address; credentials: the id `authorize` returned. */
  providerAccountId: string
  type: ProviderType
  userId?: string
  access_token?: string
  refresh_token?: string
  id_token?: string
  scope?: string
  expires_in?: number
  /** Absolute expiry of `access_token`, in seconds since the epoch. */
  expires_at?: number
  /** Always lower case. */
  token_type?: "bearer" | "dpop" | Lowercase<string>
  session_state?: string
  [key: string]: unknown
}

/** Fields shared by every provider; the built-in capabilities add theirs (`registry.ts`). */
export interface CommonProviderOptions extends BuiltInProviderOptions {
  /** Unique among the providers; part of the URLs (`/signin/<id>`). */
  id: string
  /** Shown on the sign-in button: "Sign in with <name>". */
  name: string
  type: ProviderType
}

/**
 * How a user proved who they are in one sign-in: the first factor, named by its provider's kind,
 * then the second factor when one was asked: an authenticator app's code (`totp`), a code sent by
 * email (`email-code`), a recovery code, or a device remembered from an earlier sign-in.
 */
export type AuthFactor = ProviderType | "totp" | "email-code" | "recovery-code" | "remembered-device"

/** Any provider object. An OAuth provider may be typed with its own profile type (`AnyOAuthConfig`). */
export type Provider = OAuthConfig | AnyOAuthConfig | CredentialsConfig | BuiltInProviderConfig

/** A provider, or a provider factory called with no options (`providers: [GitHub]`). */
export type ProviderInput = Provider | (() => Provider)

/** The public view of a provider, as `GET providers` lists it. */
export interface AppProvider {
  id: string
  name: string
  type: ProviderType
  signinUrl: string
  callbackUrl: string
}

/** Paths (or absolute URLs) of custom pages that replace the built-in ones. */
export interface PagesOptions {
  signIn: string
  signOut: string
  error: string
  verifyRequest: string
  /** First-time users land here after signing up, with `?callbackUrl=`. */
  newUser: string
  /** The app's own account page, in place of the built-in one (`GET <basePath>/account` redirects there). */
  account: string
}

/** The look of the built-in pages and emails. Checked when the configuration is resolved. */
export interface Theme {
  /** `auto` follows the visitor's `prefers-color-scheme`. Default `auto`. */
  colorScheme?: "auto" | "dark" | "light"
  /**
   * A logo shown above the forms: a path on this site (`/logo.svg`) or a `data:image/…` URL.
   * Never a URL on another host: the pages load nothing from third parties.
   */
  logo?: string
  /** Colour of the main buttons: a hex colour, a colour name, or rgb()/hsl()/oklch() with numbers. */
  brandColor?: string
  /** Text colour on those buttons. Default: white or near-black, whichever reads better on a hex or rgb() `brandColor`. */
  buttonText?: string
}

export interface SignInCallbackParams {
  user: User | AdapterUser
  account: Account | null
  profile?: Profile
  /** Present for email sign-in; `verificationRequest` is true when the link is being requested. */
  email?: { verificationRequest?: boolean }
  /** For credentials sign-in: the submitted fields. */
  credentials?: Record<string, unknown>
}

export interface JWTCallbackParams {
  /** The token: on sign-in, `{ name, email, picture, sub }`; afterwards, the stored claims. */
  token: JWT
  /** On sign-in and sign-up only. */
  user?: User | AdapterUser
  /** On sign-in and sign-up only. */
  account?: Account | null
  /** On OAuth sign-in only. */
  profile?: Profile
  trigger?: "signIn" | "signUp" | "update"
  /**
   * On sign-in and sign-up only: how the user proved who they are, first factor first
   * (`["password", "totp"]`). The token keeps it as its `factors` claim.
   */
  factors?: AuthFactor[]
  /** @deprecated Use `trigger === "signUp"`. */
  isNewUser?: boolean
  /** With trigger `update`: the data the client sent. Validate it before trusting it. */
  session?: unknown
}

export interface SessionCallbackParams {
  /** The default session: `{ user: { name, email, image }, expires }`. */
  session: Session
  /**
   * JWT strategy: the decoded session token. Database strategy: a token-shaped view of the user
   * (`{ sub, name, email, picture }`), so `token.sub` is the user id with either strategy.
   */
  token: JWT
  /** Database strategy only: the user from the adapter. */
  user?: AdapterUser
  /**
   * How the user proved who they are when the session started (`["password", "totp"]`): with
   * either strategy (JWT sessions also carry it as `token.factors`). Undefined for a session
   * started before Sesame recorded it, or by an adapter that does not store it.
   */
  factors?: AuthFactor[]
  /** With trigger `update`: the data the client sent. Validate it before trusting it. */
  newSession?: unknown
  trigger?: "update"
}

/** Functions that decide what happens. Each has a default. */
export interface CallbacksOptions {
  /**
   * Whether a sign-in may go on: `true` continues, `false` sends the user to the error page with
   * `AccessDenied`, a string redirects there (through the `redirect` callback). A throw is
   * `AccessDenied` too.
   */
  signIn: (params: SignInCallbackParams) => Awaitable<boolean | string>
  /**
   * Where a redirect to a callback URL may go. Default: relative URLs resolve against the site's
   * origin, absolute URLs must be on that origin, anything else goes to the origin.
   */
  redirect: (params: { url: string; baseUrl: string }) => Awaitable<string>
  /** What the client sees of the session. Default: `{ user: { name, email, image }, expires }`. */
  session: (params: SessionCallbackParams) => Awaitable<Session | DefaultSession>
  /** What is stored in the session token (JWT strategy). Return null to end the session. */
  jwt: (params: JWTCallbackParams) => Awaitable<JWT | null>
}

export interface SignInEventMessage {
  /** For credentials, the value `authorize` returned. */
  user: User | AdapterUser
  account: Account | null
  profile?: Profile
  isNewUser?: boolean
}

export interface SignInFailureMessage {
  provider: string
  identifier: string | null
  /**
   * Why: the credentials (or password) were refused, too many attempts failed before this one, or
   * (password provider) the password was right but the address is not confirmed yet.
   */
  reason: "credentials" | "throttled" | "unverified"
  /** With `throttled`: seconds until another attempt may be made. */
  retryAfter?: number
}


/**
 * Functions told about what happened. They cannot change the flow; a throw is only logged. The
 * built-in capabilities add theirs (`registry.ts`).
 */
export interface EventCallbacks extends BuiltInEvents {
  signIn: (message: SignInEventMessage) => Awaitable<void>
  /** Database strategy: `session` (the removed session); JWT strategy: `token`. */
  signOut: (message: { session: AdapterSession | null | undefined } | { token: JWT | null }) => Awaitable<void>
  createUser: (message: { user: User | AdapterUser }) => Awaitable<void>
  updateUser: (message: { user: User | AdapterUser }) => Awaitable<void>
  linkAccount: (message: { user: User | AdapterUser; account: Account; profile: User | AdapterUser }) => Awaitable<void>
  /** A provider account was removed from the user (`unlinkAccount`). No tokens are included. */
  unlinkAccount: (message: { user: AdapterUser; account: AccountInfo }) => Awaitable<void>
  /**
   * A credentials sign-in failed: `authorize` refused it, or the throttle refused the attempt before
   * `authorize` ran (`retryAfter`, in seconds). `identifier` is the posted value that names the
   * account (the throttle's `field`, else `email` or `username`), never the password.
   */
  signInFailure: (message: SignInFailureMessage) => Awaitable<void>
  /** The user was deleted with everything stored for them (`deleteUser`). */
  deleteUser: (message: { user: AdapterUser }) => Awaitable<void>
  /** JWT strategy: `session` and `token`; database strategy: `session`. */
  session: (message: { session: Session; token?: JWT }) => Awaitable<void>
  /**
   * Something an audit log records happened: a sign-in or a failed attempt, a sign-out, a change
   * to a user's ways in, sessions revoked, or a plugin's event (an organization's members). One
   * event per action, with who acted, whose account, when, the IP (with `trustHost`) and the user
   * agent; never a secret. See {@link SecurityEvent} for the types.
   */
  security: (event: SecurityEvent) => Awaitable<void>
}

/** Session settings. */
export interface SessionOptions {
  /** `jwt` (default without an adapter) or `database` (default with one). */
  strategy: "jwt" | "database"
  /** Idle lifetime in seconds. Default 30 days. */
  maxAge: number
  /** A database session is extended at most once per this many seconds; 0 extends on every read. Default 1 day. */
  updateAge: number
  /**
   * Makes the database session token (the cookie value). Default: 32 random bytes, base64url.
   * Whatever it returns, only its SHA-256 is stored.
   */
  generateSessionToken: () => string
  /**
   * Absolute lifetime in seconds: a session ends this long after the sign-in that started it,
   * however often it is used. Default: off, as in Auth.js (a session used within every `maxAge`
   * lives for ever). Set it when a stolen session cookie must stop working after a bounded time
   * whatever the thief does, e.g. `7 * 24 * 60 * 60` to sign everyone in again weekly.
   *
   * - JWT sessions: the token carries the sign-in time in the `auth_time` claim, which Sesame keeps
   *   whatever the `jwt` callback returns; the cookie and the token never expire after the limit.
   *   A token without `auth_time` (made before this option existed) ends at its next read.
   * - Database sessions: the limit counts from the stored session's `createdAt`, which only
   *   adapters that implement session management (`listSessionsByUserId`) store; with another
   *   adapter this option is a configuration error. Extensions never pass the limit.
   *
   * It may be smaller than `maxAge`. Apps that read tokens with `getToken` pass the same value as
   * its `absoluteMaxAge`.
   */
  absoluteMaxAge?: number
  /**
   * JWT sessions that can be ended. Off by default (it needs a table: run `sesame migrate`, or
   * your adapter's `migrate` with `modelsOf(config)`, after turning it on). With `true` (or
   * `{ cache }`), each user has a "sessions valid after" time, kept in the adapter's generic store
   * and checked at every read of a JWT session; it is set by a password reset (every session ends),
   * a password change or a first password (every session but the one that made it),
   * `revokeOtherSessions`, `deleteUser`, and plugins that end a user's sessions (a ban).
   *
   * `cache`: how many seconds an instance believes what it read of a user (default 30; 0 asks the
   * store at every read). It is the bound: an ended session is refused at most that long after it
   * was ended, and at once on the instance that ended it. The cost is one lookup by primary key
   * per user, instance and `cache` seconds.
   *
   * With database sessions the option changes nothing: their sessions end by being deleted. It
   * needs an adapter with a generic store (Sesame's); an adapter without one (Auth.js's) is a
   * configuration error.
   */
  revocation?: boolean | { cache?: number }
  /**
   * How recent, in seconds, a sign-in must be for a sensitive action (changing the second factor,
   * adding a passkey, setting a first password, deleting the account, and `requireRecentSignIn`
   * without its own `maxAge`). An older session is asked to prove who it is again first.
   * Default 10 minutes.
   */
  freshAge?: number
}

/** Experimental features. They may change in a minor release. */
export interface ExperimentalOptions {
  /** Enables the `webauthn` provider kind (passkeys). */
  enableWebAuthn?: boolean
}

/** The configuration of `Auth()`; the built-in capabilities' options are declared in their folders. */
export interface AuthConfig extends BuiltInOptions {
  /** The sign-in methods. */
  providers: ProviderInput[]
  /** Where users, accounts, sessions and tokens are stored. */
  adapter?: Adapter
  /** The path under which the endpoints live. Default `/auth` (`/api/auth` in `@sesame/next`). */
  basePath?: string
  /**
   * Encrypts tokens and signs cookies. With an array, the first encrypts and all decrypt: put a new
   * secret first to rotate without ending sessions. Default: `AUTH_SECRET` or `SESAME_SECRET`.
   */
  secret?: string | string[]
  session?: Partial<SessionOptions>
  jwt?: Partial<JWTOptions>
  callbacks?: Partial<CallbacksOptions>
  events?: Partial<EventCallbacks>
  pages?: Partial<PagesOptions>
  /** Overrides cookie names and options. Advanced: you take over the cookie policy. */
  cookies?: PartialCookiesOptions
  /** Logs debug messages (never secrets). */
  debug?: boolean
  /** Replaces log levels. */
  logger?: Partial<LoggerInstance>
  experimental?: ExperimentalOptions
  /**
   * OAuth `redirect_uri` base for preview deployments: the URL, up to the base path, of a stable
   * deployment that forwards callbacks. Default `AUTH_REDIRECT_PROXY_URL`.
   */
  redirectProxyUrl?: string
  /**
   * Take the app's origin from the `X-Forwarded-Host` / `Host` and `X-Forwarded-Proto` headers: set
   * it when a proxy you control overwrites them (with a list, the last value, the one the nearest
   * proxy added, is believed). Default: `AUTH_TRUST_HOST` when set, else true on Vercel and
   * Cloudflare Pages. `AUTH_URL`, when set, wins over any header.
   *
   * With neither this nor `AUTH_URL`, production refuses to start, and elsewhere only requests for
   * a loopback host (`localhost`, `127.0.0.1`, `[::1]`) are served, from their `Host` header.
   */
  trustHost?: boolean
  /**
   * Which proxies in front of the app say who the client is, for limits per client (rate limits,
   * sign-in throttling, email requests) and the security events' IP: `{ hops: n }` when `n`
   * proxies you control each append to `X-Forwarded-For`; `{ header: "cf-connecting-ip" }` when
   * one proxy sets a header to the client's address; `false` when clients connect to the app
   * directly (the socket's address, which no header changes). Default: `{ hops: 1 }` when
   * `trustHost` (or `AUTH_TRUST_HOST`) is said explicitly, else `false`.
   */
  trustedProxy?: TrustedProxy
  /**
   * Origins other than the app's own that it vouches for: the deployments the redirect proxy may
   * forward OAuth callbacks to (preview deployments), and pages on another origin that post to the
   * endpoints. Each is `scheme://host[:port]`; `*` matches one DNS label's letters, digits and
   * hyphens (`"https://*.preview.example.com"`). Default: `AUTH_TRUSTED_ORIGINS` (comma-separated),
   * else none.
   */
  trustedOrigins?: string[]
  /** Default: true on https origins. */
  useSecureCookies?: boolean
  /**
   * Turns CSRF checks off.
   *
   * WARNING: only for callers that protect against CSRF another way (server actions).
   */
  skipCSRFCheck?: typeof skipCSRFCheck
  /** The look of the built-in pages and emails. */
  theme?: Theme
  /**
   * Replaces texts of the built-in pages and emails, per language and key:
   * `{ fr: { "signin.heading": "Bienvenue" } }`. English, French, German, Spanish and Japanese are
   * built in and picked by `Accept-Language`; a language named here is offered too.
   */
  messages?: MessageOverrides
  /**
   * Keeps an Auth.js v5 app's users signed in across the switch to Sesame. With `"authjs"`:
   * - Auth.js's session cookie (`authjs.session-token`, `__Secure-authjs.session-token` on https,
   *   chunks included) is read when the request has no Sesame session cookie, and re-issued as
   *   Sesame's on that first read, then deleted. A JWT session is decrypted as Auth.js encrypted it,
   *   with `secret` (each of an array); a database session, whose row holds the raw token, is found
   *   with `getSessionAndUser` and re-keyed: a new token, stored hashed, until the same expiry, and
   *   the old row deleted. Keep the session strategy, `secret` and adapter the Auth.js app had.
   * - Email sign-in links Auth.js sent before the switch work, once, until they expire.
   *
   * A carried-over session's sign-in time is unknown, never "now": it is not recent enough for a
   * sensitive action until the user signs in again, and with `session.absoluteMaxAge` it is not
   * carried over at all. A database token of 64 hex digits (Auth.js v4 on runtimes without
   * `randomUUID`, or an app's own `generateSessionToken`) is not carried over: it has the form of
   * the hash Sesame stores, and a stored hash must never work as a cookie. Custom Auth.js cookie
   * names, `jwt.encode`/`decode` and next-auth v4's `next-auth.*` cookies are not read.
   *
   * Default: off (a new app has nothing to carry over). Logs the warning `migrate-from-authjs` at
   * start-up; remove the option once Auth.js's sessions and links have expired (`session.maxAge`
   * after the switch, 30 days by default).
   */
  migrateFrom?: "authjs"
  /**
   * Feature modules that add storage, endpoints, event handlers and server functions (see
   * {@link SesameModule} and the README's "Plugins"). A module that stores data is off, with a
   * warning, when the adapter has no generic store.
   */
  plugins?: SesameModule[]
  /** The app's own user fields (a `role`, a `plan`), stored by the adapter with the user and carried into the session. */
  user?: UserOptions
  /** Returns the internal response instead of a `Response`, and throws `AuthError`s. For integrations. */
  raw?: typeof raw
}

/** A configuration, or a function of the request (absent outside a request) that returns one. */
export type LazyAuthConfig = (request: Request | undefined) => Awaitable<AuthConfig>
