/**
 * Providers and pages shared by the page tests.
 *
 * This build resolves only credentials providers (OAuth and email land with their own issues), so
 * a sign-in page with every provider kind is rendered straight from `signInPage()`: the same
 * renderer and layout `Auth()` uses, with a real CSRF-shaped token and the request's language.
 *
 * The password provider's pages are served by `Auth()` itself: `passwordSetup()` makes a
 * configuration whose emails are recorded, and `passwordLinks()` walks sign-up and a forgotten
 * password through it to get the links those emails carry.
 */
import type { AuthConfig, CredentialsConfig, EmailConfig, OAuthConfig, PasswordEmailParams, Provider, Theme, WebAuthnConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import { argon2id } from "@sesame/core/password"
import Password, { type PasswordOptions } from "@sesame/core/providers/password"
import { defaultTheme } from "../../src/config/defaults.js"
import { toResponse } from "../../src/http/response.js"
import { resolveMessages } from "../../src/config/appearance.js"
import { translatorForRequest } from "../../src/pages/i18n.js"
import { signInPage } from "../../src/pages/signin.js"
import { CookieJar, csrfToken, secret, send } from "../helpers.js"

/** A small inline SVG logo, as built-in providers ship theirs. */
export const svgLogo = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20"><circle cx="10" cy="10" r="9" fill="#fff"/><path d="M6 10h8" stroke="#24292f" stroke-width="2"/></svg>',
)}`

export function oauthProvider(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return {
    id: "octo",
    name: "Octo",
    type: "oauth",
    authorization: "https://octo.example/authorize",
    token: "https://octo.example/token",
    userinfo: "https://octo.example/user",
    style: { brandColor: "#24292f", logo: svgLogo },
    ...overrides,
  } as OAuthConfig
}

export function oidcProvider(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return { id: "acme-id", name: "Acme ID", type: "oidc", issuer: "https://id.acme.example", ...overrides } as OAuthConfig
}

export function emailProvider(overrides: Partial<EmailConfig> = {}): EmailConfig {
  return { id: "email", name: "Email", type: "email", sendVerificationRequest: () => {}, ...overrides }
}

export function passkeyProvider(): WebAuthnConfig {
  return { id: "passkey", name: "Passkey", type: "webauthn" }
}

/** A credentials provider (named apart from the password provider, which the page shows too). */
export function credentialsProvider(name = "Staff account"): CredentialsConfig {
  return {
    id: "credentials",
    name,
    type: "credentials",
    credentials: {
      username: { label: "Username", autocomplete: "username", required: true },
      password: { label: "Password", type: "password", autocomplete: "current-password", required: true },
    },
    authorize: () => null,
  }
}

/** Cheap Argon2id parameters: the page tests check pages, not the hash's cost. */
const fastHasher = () => argon2id({ memoryCost: 64, timeCost: 1 })

/** A password provider whose emails go nowhere (the sign-in page only reads its id, name and `signUp`). */
export function passwordProvider(options: Partial<PasswordOptions> = {}) {
  return Password({ sendEmail: () => {}, hasher: fastHasher(), ...options })
}

/** Every kind the page renders (the passkey form hidden until its script runs). */
export function allKinds(): Provider[] {
  return [oauthProvider(), oidcProvider(), emailProvider(), credentialsProvider(), passwordProvider(), passkeyProvider()]
}

export interface PasswordSetup {
  config: AuthConfig
  /** Every email the provider sent, oldest first. */
  mails: PasswordEmailParams[]
}

/** A configuration with a memory adapter and a password provider whose `sendEmail` records each email. */
export function passwordSetup(basePath = "/auth", options: Partial<PasswordOptions> = {}): PasswordSetup {
  const mails: PasswordEmailParams[] = []
  const config: AuthConfig = {
    secret,
    trustHost: true,
    basePath,
    adapter: MemoryAdapter(),
    providers: [Password({ sendEmail: (params) => void mails.push(params), hasher: fastHasher(), ...options })],
    logger: { error: () => {}, warn: () => {} },
  }
  return { config, mails }
}

/** The links of the emails: an address-confirmation link and a password-reset link, as paths with their query. */
export interface PasswordLinks {
  verify: string
  reset: string
}

/**
 * Signs `email` up and then asks for its password to be reset, through `Auth()` at `origin` (the
 * links are built from the request's origin), and returns the two links the emails carry.
 */
export async function passwordLinks({ config, mails }: PasswordSetup, origin: string, email: string): Promise<PasswordLinks> {
  const jar = new CookieJar()
  const base = `${origin}${config.basePath ?? "/auth"}`
  const token = await csrfToken(config, jar, base)
  for (const [endpoint, form] of [
    ["signup", { email, password: "correct horse battery", name: "Ada" }],
    ["forgot-password", { email }],
  ] as const) {
    const res = await send(config, `${base}/${endpoint}/password`, { jar, form: { csrfToken: token, ...form } })
    if (res.status !== 302 || !res.headers.get("location")?.includes("sent=1")) throw new Error(`${endpoint} for ${email}: ${res.status} ${res.headers.get("location")}`)
  }
  const link = (kind: PasswordEmailParams["kind"]) => {
    const mail = mails.findLast((m) => m.kind === kind && m.to === email)
    if (!mail) throw new Error(`no ${kind} email to ${email}`)
    const url = new URL(mail.url)
    return `${url.pathname}${url.search}`
  }
  return { verify: link("verify-email"), reset: link("reset-password") }
}

export interface FixtureOptions {
  providers?: readonly Provider[]
  /** Where the forms post: `<origin><basePath>`. */
  authUrl: string
  theme?: Theme
}

/** The sign-in page for `request` (its `error`, `email` and `callbackUrl` query, its language). */
export function renderSignIn(request: Request, { providers = allKinds(), authUrl, theme }: FixtureOptions): Response {
  const query = new URL(request.url).searchParams
  const page = signInPage(
    {
      providers,
      authUrl,
      csrfToken: "f".repeat(64),
      callbackUrl: query.get("callbackUrl") ?? `${new URL(authUrl).origin}/`,
      error: query.get("error") ?? undefined,
      notice: query.get("notice") ?? undefined,
      email: query.get("email") ?? undefined,
      theme: { ...defaultTheme, ...theme },
    },
    // The capabilities' texts, as a resolved configuration without `messages` has them.
    translatorForRequest(request, resolveMessages(undefined)),
  )
  return toResponse(page, { returnRedirect: false, head: false })
}
