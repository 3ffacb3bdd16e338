/**
 * Every default value, in one place.
 *
 * @module
 */
import { randomToken } from "../crypto/encoding.js"
import type { CallbacksOptions, DefaultSession, Theme } from "../types.js"

export const defaultBasePath = "/auth"
/** 30 days. */
export const defaultMaxAge = 30 * 24 * 60 * 60
/** 1 day. */
export const defaultUpdateAge = 24 * 60 * 60
/**
 * Off: a session used within every `maxAge` never has to sign in again, as in Auth.js. Bounding it
 * would sign out every existing app's users on upgrade, so it is the app's decision.
 */
export const defaultAbsoluteMaxAge: number | undefined = undefined

export const defaultTheme: Required<Theme> = { colorScheme: "auto", logo: "", brandColor: "", buttonText: "" }

/** 32 random bytes (256 bits), base64url. Only its SHA-256 is ever stored. */
export function defaultGenerateSessionToken(): string {
  return randomToken(32)
}

/** Same-origin redirects only; relative URLs resolve against the origin. */
export function defaultRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  try {
    const base = new URL(baseUrl)
    const target = new URL(url, base)
    if (target.origin === base.origin) return target.href
  } catch {
    // Not a URL: fall through to the origin.
  }
  return baseUrl
}

export const defaultCallbacks: CallbacksOptions = {
  signIn: () => true,
  redirect: defaultRedirect,
  session: ({ session }): DefaultSession => ({
    user: { name: session.user?.name ?? null, email: session.user?.email ?? null, image: session.user?.image ?? null },
    expires: session.expires,
  }),
  jwt: ({ token }) => token,
}

/** Lifetime of an email sign-in link: 24 hours. */
export const defaultEmailMaxAge = 24 * 60 * 60

/** Email sign-in links per address, and per client IP, in one rate-limit window. */
export const defaultEmailRateLimit = { perAddress: 5, perIp: 20, window: 10 * 60 } as const
