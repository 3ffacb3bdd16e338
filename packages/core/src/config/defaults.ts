/**
 * The defaults of the configuration: what `resolveConfig` (and the helpers that stand in for it,
 * such as `encode` and `getToken` in `jwt/`) use where the app says nothing.
 *
 * A few defaults are owned by the one module that applies them, each named there `default…`, and
 * are not repeated here:
 * - the cookies (names, prefixes, attributes, the 15-minute check cookies): `http/cookies.ts`,
 *   `defaultCookies`, the whole cookie policy;
 * - an OAuth/OIDC provider's profile and account mapping: `oauth/provider.ts`; its access-token
 *   refresh leeway (30 s): `oauth/refresh.ts`;
 * - a passkey provider's ceremony timeout (5 min) and form fields: `webauthn/provider.ts`;
 * - an email provider's token generator: `email/token.ts` (its link lifetime and rate limit are
 *   below);
 * - the pages' language: `pages/locales/index.ts`.
 *
 * @module
 */
import { randomToken } from "../crypto/encoding.js"
import type { CallbacksOptions, DefaultSession, Theme } from "../types.js"

export const defaultBasePath = "/auth"
/** `session.maxAge`, and the lifetime of a token made by `encode` without one: 30 days. */
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
  // The session the strategies made: the user (its own fields and the app's `user.fields`), the
  // expiry, and the plugins' parts under their ids.
  session: ({ session }): DefaultSession => ({
    ...session,
    user: { ...session.user, name: session.user?.name ?? null, email: session.user?.email ?? null, image: session.user?.image ?? null },
    expires: session.expires,
  }),
  jwt: ({ token }) => token,
}

/** Lifetime of an email sign-in link: 24 hours. */
export const defaultEmailMaxAge = 24 * 60 * 60

/** Email sign-in links per address, and per client IP, in one rate-limit window. */
export const defaultEmailRateLimit = { perAddress: 5, perIp: 20, window: 10 * 60 } as const

/**
 * The password provider's Argon2id parameters: 19 MiB of memory (m=19456 KiB), 2 passes, 1 lane,
 * a 32-byte tag. This is the first of the equivalent settings in OWASP's Password Storage Cheat
 * Sheet (its stated minimum). Of those settings it is the one that balances memory against time:
 * every sign-in holds `memoryCost` KiB for the length of a hash, so a server answering 50
 * concurrent sign-ins needs about 1 GiB for them, and the 46 MiB setting would need 2.3 GiB; more
 * passes over less memory (t=3..5) give GPUs an easier job. Apps with memory to spare raise it;
 * stored hashes made with other parameters are rehashed at their owner's next sign-in.
 */
export const defaultArgon2Parameters = { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 } as const

/**
 * Password length limits, counted in Unicode code points after NFKC normalisation. NIST SP 800-63B
 * asks for at least 8 characters and for allowing at least 64. The maximum, 256, is there to bound
 * the work one request can cause (normalising, hashing and the breached-password digest all
 * grow with the length, and a form body can carry megabytes); no person types more.
 */
export const defaultPasswordLength = { min: 8, max: 256 } as const

/**
 * The breached-password check, when an app turns it on: the Have I Been Pwned range API, with a
 * 2-second timeout so that a slow service delays a sign-up by at most that (the check fails open).
 */
export const defaultBreachCheck = { baseUrl: "https://api.pwnedpasswords.com", timeout: 2_000 } as const

/**
 * Brute-force throttling of password sign-in, per account (the address typed) and per client IP.
 * Seconds throughout. An account gets 5 free failures, then waits 1 s, 2 s, 4 s… (at most 60 s)
 * after each further failure, and after 20 is locked for 15 minutes after each further failure;
 * failures are forgotten a day after the last one, or at a successful sign-in. A client IP, which
 * may be a whole office behind one NAT, gets ten times the room before the same treatment.
 */
export const defaultPasswordThrottle = {
  account: { freeAttempts: 5, maxDelay: 60, lockoutAfter: 20, lockout: 15 * 60, forgetAfter: 24 * 60 * 60 },
  ip: { freeAttempts: 50, maxDelay: 60, lockoutAfter: 200, lockout: 15 * 60, forgetAfter: 24 * 60 * 60 },
} as const

/**
 * The password provider's links and emails: an address confirmation lasts a day like a sign-in
 * link; a reset link an hour (OWASP's Forgot Password Cheat Sheet asks for a short life, as it
 * replaces the password). At most 3 emails per address in 15 minutes, so the forms cannot be used
 * to flood someone's mailbox.
 */
export const defaultPasswordProvider = { verificationMaxAge: 24 * 60 * 60, resetMaxAge: 60 * 60, emailsPerAddress: 3, emailWindow: 15 * 60 } as const

/**
 * `session.freshAge`: how recent, in seconds, a session's sign-in must be for what cannot be undone
 * or takes over an account: deleting the user, setting a first password, changing the second
 * factor, adding a passkey. A session left open on a shared computer must not be enough.
 */
export const defaultMaxSignInAge = 10 * 60

/**
 * A one-time code sent by email, as a first factor or a second: it lasts 10 minutes and takes 5
 * tries.
 */
export const defaultEmailCode = {
  maxAge: 10 * 60,
  tries: 5,
} as const

/**
 * Wrong email codes per address (across every code sent to it) and per client IP: five free
 * tries, waits that double up to a minute, and after ten a lockout of ten minutes, the window of
 * the email rate limit. Anyone who knows an address can hold its code sign-in for that long (as
 * they can spend its email rate limit); a guesser gets about 1,500 tries a day against a 1 in a
 * million chance each.
 */
export const defaultEmailCodeThrottle = {
  account: { freeAttempts: 5, maxDelay: 60, lockoutAfter: 10, lockout: 10 * 60, forgetAfter: 60 * 60 },
  ip: defaultPasswordThrottle.ip,
} as const

/** Lifetime of an API token (`apiTokens.maxAge`): 15 minutes. */
export const defaultApiTokenMaxAge = 15 * 60
/** The algorithm of generated API-token signing keys: Ed25519, small and fast. */
export const defaultApiTokenAlgorithm = "EdDSA" as const
/** How long a generated signing key signs before the next one takes over: 30 days. */
export const defaultSigningKeyRotationAge = 30 * 24 * 60 * 60
/**
 * How long verifiers may keep the published keys (`Cache-Control` of `GET jwks`): 5 minutes. A new
 * stored key is published this long before it signs, so that no verifier meets a `kid` its copy
 * of the key set lacks.
 */
export const defaultJwksMaxAge = 5 * 60
