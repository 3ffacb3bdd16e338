/**
 * The configurations the fuzzer attacks, and the real material it mixes into its requests: a CSRF
 * cookie and token, session cookies of signed-in users (JWTs, database tokens), sign-ins pending at
 * the IdP (state, PKCE and nonce cookies with their state), a registered passkey. All of it is
 * obtained once, through `Auth()` like a browser would, before the first fuzzed request.
 *
 * Every valid configuration has all four provider kinds: credentials, email, OIDC (the dev IdP)
 * and passkeys. Two of them take their public URL from `AUTH_URL` and do not trust the host
 * headers: on those the fuzzer also asserts where redirects go.
 */
import type { DevIdp } from "@sesame/dev-idp"
import type { AuthConfig, SendVerificationRequestParams } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Passkey from "@sesame/core/providers/passkey"
import { SoftAuthenticator, type CreationOptionsJSON } from "@sesame/testing"
import { vi } from "vitest"
import { recordingEmail } from "../email/helpers.js"
import { aliceCredentials, CookieJar, origin, secret, send, users } from "../helpers.js"
import { callbackUrl, client, oidc } from "../oauth/harness.js"

/** The public URL of the configurations that take it from the environment. */
export const publicUrl = `${origin}/auth`

/** Provider ids, the same in every configuration. */
export const ids = { credentials: "credentials", email: "email", oidc: "dev", passkey: "passkey" } as const

/** The IdP clients the configurations need (one redirect URI per base path). */
export const idpClients = [client(ids.oidc, { redirect_uris: [callbackUrl(ids.oidc), callbackUrl(ids.oidc, `${origin}/api/auth`)] })]

export interface CookieNames {
  session: string
  csrf: string
  callbackUrl: string
  state: string
  pkce: string
  nonce: string
  challenge: string
}

/** A session cookie of a signed-in user, as the browser holds it (URL-encoded value). */
export interface RealCookie {
  name: string
  value: string
  who: string
}

/** A sign-in started at the IdP and not finished: the browser's cookies and the request's state. */
export interface PendingAuthorization {
  cookie: string
  state: string
  formPost: boolean
}

export interface Material {
  /** A CSRF cookie (value as sent, URL-encoded) and its token. */
  csrf: { name: string; value: string; token: string } | undefined
  sessions: RealCookie[]
  pending: PendingAuthorization[]
  /** Holds one passkey registered for `passkeyEmail`. */
  authenticator: SoftAuthenticator | undefined
  passkeyEmail: string
  /** What the email provider was asked to send (the sign-in links). */
  sent: readonly SendVerificationRequestParams[]
}

export interface Target {
  name: string
  config: AuthConfig
  basePath: string
  strategy: "jwt" | "database"
  /** The public URL comes from AUTH_URL: every Location must be on the app's origin (or the IdP's). */
  fixedOrigin: boolean
  /** Deliberately invalid: it must answer the configuration error, and nothing else, with a 5xx. */
  invalid: boolean
  cookies: CookieNames
  material: Material
}

function cookieNames(secure: boolean): CookieNames {
  const prefix = secure ? "__Secure-" : ""
  return {
    session: `${prefix}sesame.session-token`,
    csrf: `${secure ? "__Host-" : ""}sesame.csrf-token`,
    callbackUrl: `${prefix}sesame.callback-url`,
    state: `${prefix}sesame.state`,
    pkce: `${prefix}sesame.pkce.code_verifier`,
    nonce: `${prefix}sesame.nonce`,
    challenge: `${prefix}sesame.challenge`,
  }
}

const silent = { error: () => {}, warn: () => {}, debug: () => {} }

/** What a browser sends with a POST from the app's own page. */
const fromApp = { origin, "sec-fetch-site": "same-origin" }


interface TargetOptions {
  name: string
  strategy: "jwt" | "database"
  fixedOrigin: boolean
  invalid?: boolean
  secure?: boolean
  basePath?: string
  overrides?: Partial<AuthConfig>
}

function target(idp: DevIdp, options: TargetOptions): Target {
  const email = recordingEmail()
  const config: AuthConfig = {
    secret,
    adapter: MemoryAdapter(),
    session: { strategy: options.strategy },
    providers: [aliceCredentials({ createUser: true }), email.provider, oidc(idp, { checks: ["pkce", "state", "nonce"] }), Passkey()],
    experimental: { enableWebAuthn: !options.invalid },
    logger: silent,
    ...(options.fixedOrigin ? {} : { trustHost: true }),
    ...(options.secure ? { useSecureCookies: true } : {}),
    ...(options.basePath ? { basePath: options.basePath } : {}),
    ...options.overrides,
  }
  return {
    name: options.name,
    config,
    basePath: options.basePath ?? "/auth",
    strategy: options.strategy,
    fixedOrigin: options.fixedOrigin,
    invalid: !!options.invalid,
    cookies: cookieNames(!!options.secure),
    material: {
      csrf: undefined,
      sessions: [],
      pending: [],
      authenticator: undefined,
      passkeyEmail: `ada.${options.name.replace(/\W+/g, "-")}@example.com`,
      sent: email.sent,
    },
  }
}

/**
 * The configurations. Those with `fixedOrigin` are resolved while `AUTH_URL` is stubbed (Sesame
 * reads the environment once per configuration object, at its first request), the others after it
 * is removed, so that they really take their origin from the host headers.
 */
export async function prepareTargets(idp: DevIdp): Promise<Target[]> {
  const targets = [
    target(idp, { name: "jwt", strategy: "jwt", fixedOrigin: true }),
    target(idp, { name: "database", strategy: "database", fixedOrigin: true }),
    target(idp, {
      name: "jwt, trusted host, secure cookies, /api/auth",
      strategy: "jwt",
      fixedOrigin: false,
      secure: true,
      basePath: "/api/auth",
      overrides: { secret: [secret, "older-secret-0123456789abcdef-0123456789"], pages: { signIn: "/login", error: "/oops" } },
    }),
    target(idp, { name: "database, trusted host", strategy: "database", fixedOrigin: false }),
    // Every request to these is a configuration error: passkeys without
    // `experimental.enableWebAuthn` (reported by redirecting to `pages.error`), and email and
    // passkeys without an adapter (reported by the built-in page, or the JSON message).
    target(idp, { name: "invalid (passkeys not enabled)", strategy: "database", fixedOrigin: true, invalid: true, overrides: { pages: { error: "/oops" } } }),
    target(idp, { name: "invalid (no adapter)", strategy: "jwt", fixedOrigin: true, invalid: true, overrides: { adapter: undefined, experimental: { enableWebAuthn: true } } }),
  ]
  vi.stubEnv("AUTH_URL", publicUrl)
  try {
    for (const t of targets) if (t.fixedOrigin) await gather(t)
  } finally {
    vi.unstubAllEnvs()
  }
  for (const t of targets) if (!t.fixedOrigin) await gather(t)
  return targets
}

function cookieOf(jar: CookieJar, name: string): string | undefined {
  return jar.cookies.get(name)
}

/** Collects the target's real material; a broken configuration has none. */
async function gather(t: Target): Promise<void> {
  const { config, basePath, material } = t
  const csrf = await send(config, `${basePath}/csrf`)
  if (t.invalid) {
    if (csrf.status !== 500) throw new Error(`The invalid configuration answered ${csrf.status} to csrf.`)
    return
  }
  const csrfJar = new CookieJar().apply(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const csrfValue = cookieOf(csrfJar, t.cookies.csrf)
  if (!csrfValue) throw new Error(`Setting up ${t.name}: no CSRF cookie.`)
  material.csrf = { name: t.cookies.csrf, value: csrfValue, token: csrfToken }

  // Alice through the credentials provider.
  const alice = new CookieJar().apply(csrf)
  await send(config, `${basePath}/callback/${ids.credentials}`, {
    jar: alice,
    headers: fromApp,
    form: { csrfToken, username: "alice", password: users.alice.password },
  })
  material.sessions.push(realSession(t, alice, "alice (credentials)"))

  // Ada through a passkey she registers.
  const ada = new CookieJar()
  const authenticator = new SoftAuthenticator()
  const asked = await send(config, `${basePath}/webauthn-options/${ids.passkey}?action=register&email=${encodeURIComponent(material.passkeyEmail)}`, {
    jar: ada,
  })
  const { options } = (await asked.json()) as { options: CreationOptionsJSON }
  const data = authenticator.register(options, { origin })
  await send(config, `${basePath}/callback/${ids.passkey}`, { jar: ada, headers: fromApp, json: { action: "register", data } })
  material.sessions.push(realSession(t, ada, "ada (passkey)"))
  material.authenticator = authenticator

  // Sign-ins waiting at the IdP, redirect and form_post.
  for (const formPost of [false, false, true]) material.pending.push(await pendingAuthorization(t, formPost))
}

function realSession(t: Target, jar: CookieJar, who: string): RealCookie {
  const value = cookieOf(jar, t.cookies.session)
  if (!value) throw new Error(`Setting up ${t.name}: ${who} did not get a session cookie.`)
  return { name: t.cookies.session, value, who }
}

/** Starts a sign-in with the IdP; the browser stops before going there. */
export async function pendingAuthorization(t: Target, formPost: boolean): Promise<PendingAuthorization> {
  const { csrf } = t.material
  if (!csrf) throw new Error(`${t.name} has no CSRF material.`)
  const jar = new CookieJar()
  const response = await send(t.config, `${t.basePath}/signin/${ids.oidc}`, {
    jar,
    cookie: `${csrf.name}=${csrf.value}`,
    headers: fromApp,
    form: { csrfToken: csrf.token, ...(formPost ? { response_mode: "form_post" } : {}) },
  })
  const state = new URL(response.headers.get("location") ?? "http://invalid/").searchParams.get("state")
  if (response.status !== 302 || !state) throw new Error(`Setting up ${t.name}: the sign-in with the IdP did not start (${response.status}).`)
  return { cookie: `${jar.header()}; ${csrf.name}=${csrf.value}`, state, formPost }
}
