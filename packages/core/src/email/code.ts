/**
 * One-time codes sent by email: six digits, for people who read their mail on another device than
 * the one they sign in on. The `email` provider sends them as a first factor (its `code` option:
 * beside the link or instead of it), and two-factor sign-in as a second factor (`two-factor/`).
 *
 * - A code is drawn uniformly from the platform's CSPRNG (rejection sampling, so that no code is
 *   likelier than another), leading zeros kept.
 * - It is stored like a link's token, as HMAC-SHA-256 under the secret with a purpose of its own
 *   (`adapters/one-time-tokens.ts`), so a copy of the table holds no code, and under the
 *   identifier `sesame-code:<binding>`. The binding is an opaque random id that only the browser
 *   that asked holds (in a sealed cookie), or a pending sign-in's id: a code is good only with it,
 *   so the code alone, read over a shoulder or from a notification, signs nobody in elsewhere.
 * - It lasts 10 minutes and is used once: `useVerificationToken` returns and deletes it in one
 *   step, so of two requests with the same code exactly one gets it.
 * - A binding allows 5 tries in all. Each try is counted, atomically, *before* the code is looked
 *   up, so concurrent guesses cannot slip past the count; the fifth wrong try, and any try after
 *   it, is `exhausted`, and then even the right code is refused. With a million codes, that is a
 *   1 in 200,000 chance per code; what limits how many codes a guesser gets is the per-address
 *   and per-IP rate limit of sign-in requests (`rate-limit.ts`), the same as for links.
 *
 * @module
 */
import { oneTimeHash, stillValid, useOneTime } from "../adapters/one-time-tokens.js"
import type { VerificationToken } from "../adapters/types.js"
import type { CheckedAdapter } from "../adapters/wrap.js"
import { defaultEmailCode } from "../config/defaults.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { randomToken } from "../crypto/encoding.js"
import type { RequestContext } from "../http/context.js"
import { codeCookieMaxAge, expiredCookie } from "../http/cookies.js"
import { sealedCookie, unsealCookie } from "../http/sealed-cookie.js"
import { translatorFor } from "../pages/where.js"
import type { CounterStore } from "../password/counters.js"
import { attemptFailed, attemptSucceeded, beginAttempt, type PasswordThrottle, type ThrottleSubject } from "../password/throttle.js"
import { codeEmail } from "./message.js"
import type { EmailProvider } from "./resolve.js"
import { deliver, type StoredForEmail } from "./send.js"
import type { SendVerificationRequestParams } from "./types.js"

/** The purpose under which codes are hashed: a code never matches a link's token or a passkey challenge. */
const codePurpose = "sesame-email-code"
const identifierOf = (binding: string) => `sesame-code:${binding}`
const triesKey = (binding: string) => `sesame:email-code:tries:${binding}`
/** The largest multiple of 10^6 that fits in 32 bits: drawing below it keeps every code equally likely. */
const drawLimit = Math.floor(2 ** 32 / 1_000_000) * 1_000_000
/** Longer input is no code, however it is spaced; it is refused before any normalisation. */
const maxTypedLength = 64

/** The first `email` provider whose `code` option is on, or undefined. */
export function codeSendingProvider(config: ResolvedConfig): EmailProvider | undefined {
  for (const provider of config.providers.values()) if (provider.type === "email" && provider.code !== "off") return provider
  return undefined
}

/** A new six-digit code (uniform, from crypto randomness, leading zeros kept). */
export function newEmailCode(): string {
  const word = new Uint32Array(1)
  for (;;) {
    crypto.getRandomValues(word)
    if (word[0]! < drawLimit) return String(word[0]! % 1_000_000).padStart(6, "0")
  }
}

/** The verification token that stores `code` for `binding`, hashed under `secret`. */
export async function emailCodeRecord(secret: string, binding: string, code: string): Promise<StoredForEmail> {
  return { identifier: identifierOf(binding), token: await oneTimeHash(codePurpose, code, secret) }
}

/**
 * Stores `code` for `binding` (an opaque random id the browser holds in a sealed cookie, or the
 * pending sign-in's id): a verification token with identifier `sesame-code:${binding}` and token
 * `oneTimeHash("sesame-email-code", code, secrets[0])` (adapters/one-time-tokens.ts), expiring at `expires`.
 */
export async function storeEmailCode(adapter: CheckedAdapter, secrets: readonly string[], binding: string, code: string, expires: Date): Promise<void> {
  await adapter.createVerificationToken({ ...(await emailCodeRecord(secrets[0]!, binding, code)), expires })
}

/** What was typed, as a code: spaces dropped, full-width digits (an IME's) made plain; null when it is not six digits. */
function typedCode(typed: string): string | null {
  if (typed.length > maxTypedLength) return null
  const code = typed.normalize("NFKC").replace(/\s+/g, "")
  return /^[0-9]{6}$/.test(code) ? code : null
}

/**
 * Checks a typed code for `binding`: "ok" (and the code is used up: useOneTime deletes it),
 * "wrong", "expired" (the stored token's expiry passed), or "exhausted" (5 wrong tries were made
 * for this binding: then every code of the binding is refused, even the right one). Tries are
 * counted in `counters` (password/counters.ts CounterStore) under
 * `sesame:email-code:tries:${binding}`, expiring with the code's 10 minutes. Typed input is
 * forgiving about spaces; anything that is not 6 digits is "wrong" (and counts).
 *
 * The fifth wrong try itself answers "exhausted", so that the caller does not ask for a sixth.
 * With `throttled`, a try the binding still allows is also counted against that throttle (wrong
 * codes per address, across every code sent to it), which may refuse it first ("throttled").
 */
export async function checkEmailCode(
  adapter: CheckedAdapter,
  counters: CounterStore,
  secrets: readonly string[],
  binding: string,
  typed: string,
  throttled?: { throttle: PasswordThrottle; subject: ThrottleSubject },
  spent?: VerificationToken[],
): Promise<"ok" | "wrong" | "expired" | "exhausted" | "throttled"> {
  const limit = defaultEmailCode.tries
  // Counted before the lookup, in one atomic step: of any number of concurrent tries, only `limit` are ever looked up.
  const tries = await counters.incrementCounter(triesKey(binding), new Date(Date.now() + defaultEmailCode.maxAge * 1000))
  if (tries.count > limit) return "exhausted"
  if (throttled && !(await beginAttempt(throttled.throttle, throttled.subject)).allowed) return "throttled"
  const code = typedCode(typed)
  const stored = code === null ? null : await useOneTime(adapter, identifierOf(binding), codePurpose, code, secrets, spent)
  if (throttled) await (stored ? attemptSucceeded : attemptFailed)(throttled.throttle, throttled.subject)
  if (!stored) return tries.count >= limit ? "exhausted" : "wrong"
  return stillValid(stored) ? "ok" : "expired"
}

export interface CodeEmailInput {
  to: string
  code: string
  /** When the code stops working. */
  expires: Date
  /** The page where the code is typed. */
  url: string
  /** The sign-in link sent beside the code, with its raw token and expiry. */
  link?: { url: string; token: string; expires: Date }
}

/** What `sendVerificationRequest` receives for an email with a code (and the link, when there is one). */
export function codeEmailParams(ctx: RequestContext, provider: EmailProvider, input: CodeEmailInput): SendVerificationRequestParams {
  const { theme } = ctx.config
  const minutes = Math.max(1, Math.round((input.expires.getTime() - Date.now()) / 60_000))
  const message = codeEmail({ code: input.code, minutes, host: new URL(ctx.origin).host, theme, ...(input.link ? { url: input.link.url } : {}) }, translatorFor(ctx))
  const { link } = input
  return {
    identifier: input.to,
    url: link ? link.url : input.url,
    expires: link ? link.expires : input.expires,
    provider: provider.config,
    token: link ? link.token : input.code,
    code: input.code,
    theme,
    request: ctx.request,
    message,
  }
}

/**
 * Sends `code` to `to` through `provider.config.sendVerificationRequest`, with the built-in code
 * email (localised with translatorFor(ctx), subject like "Your sign-in code for <host>") as
 * `message`, `code` set in the params, `url` = the page where the code is typed (passed in),
 * `token` = the code. Logs failures like `sendLink` does (never the code) and returns false then.
 */
export async function sendEmailCode(ctx: RequestContext, provider: EmailProvider, params: { to: string; code: string; expires: Date; url: string }): Promise<boolean> {
  const failure = await deliver(ctx, provider, codeEmailParams(ctx, provider, params), [])
  if (failure) ctx.config.logger.error(failure)
  return !failure
}

/** What the emailCode cookie binds to the browser that asked for a code as a first factor. */
export interface CodeBinding {
  /** The address the code was sent to (or, when none was, would have been). */
  email: string
  binding: string
  /** The email provider's id. */
  provider: string
  /** Where the sign-in ends, as validated when the code was asked for. */
  callbackUrl: string
}

/** Makes a binding for `email` and queues its sealed cookie: the code of a first-factor sign-in is good only in this browser. */
export async function bindBrowser(ctx: RequestContext, provider: EmailProvider, email: string): Promise<string> {
  const binding = randomToken(32)
  const contents: CodeBinding = { email, binding, provider: provider.id, callbackUrl: await ctx.callbackUrl() }
  ctx.setCookies.push(await sealedCookie(ctx, ctx.cookieOptions.emailCode, contents, codeCookieMaxAge))
  return binding
}

/** The request's code binding, or null when it has none, or one that is altered, expired or malformed. */
export async function readBinding(ctx: RequestContext): Promise<CodeBinding | null> {
  const contents = await unsealCookie(ctx, ctx.cookieOptions.emailCode.name)
  if (!contents) return null
  const { email, binding, provider, callbackUrl } = contents
  const text = (value: unknown): value is string => typeof value === "string" && value.length > 0 && value.length <= 4096
  return text(email) && text(binding) && text(provider) && text(callbackUrl) ? { email, binding, provider, callbackUrl } : null
}

/** Queues the deletion of the emailCode cookie, when the request carried one. */
export function clearBinding(ctx: RequestContext): void {
  const { name, options } = ctx.cookieOptions.emailCode
  if (ctx.cookies.has(name)) ctx.setCookies.push(expiredCookie(name, options))
}
