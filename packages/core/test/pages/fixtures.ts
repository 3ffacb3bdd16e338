/**
 * Providers and pages shared by the page tests.
 *
 * This build resolves only credentials providers (OAuth and email land with their own issues), so
 * a sign-in page with every provider kind is rendered straight from `signInPage()`: the same
 * renderer and layout `Auth()` uses, with a real CSRF-shaped token and the request's language.
 */
import type { CredentialsConfig, EmailConfig, OAuthConfig, Provider, Theme, WebAuthnConfig } from "@sesame/core"
import { defaultTheme } from "../../src/config/defaults.js"
import { toResponse } from "../../src/http/response.js"
import { translatorForRequest } from "../../src/pages/i18n.js"
import { signInPage } from "../../src/pages/signin.js"

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

export function credentialsProvider(name = "Password"): CredentialsConfig {
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

/** Every kind the page renders (the passkey form hidden until its script runs). */
export function allKinds(): Provider[] {
  return [oauthProvider(), oidcProvider(), emailProvider(), credentialsProvider(), passkeyProvider()]
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
      email: query.get("email") ?? undefined,
      theme: { ...defaultTheme, ...theme },
    },
    translatorForRequest(request),
  )
  return toResponse(page, { returnRedirect: false, head: false })
}
