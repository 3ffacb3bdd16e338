/**
 * Asking the provider's siteverify whether a token is good: one form-encoded POST with the secret
 * and the token (and the site key, for hCaptcha), whose JSON answer says `success` and, when not,
 * why (`error-codes`). A token is single use at every provider: a second verification of it
 * answers `timeout-or-duplicate` (hCaptcha: `already-seen-response`).
 *
 * Three outcomes, never a throw:
 * - `passed`: the provider said yes (and, for reCAPTCHA v3, the action, the host name and the
 *   score are what this form expects);
 * - `refused`: the token is missing, malformed, wrong, expired or used, or v3 thinks it a bot;
 * - `unavailable`: siteverify could not be reached in time, answered something that is not its
 *   JSON, or refused the app's own keys (a configuration mistake, not the visitor's). The flow
 *   fails closed: nothing is let through unchecked.
 *
 * `remoteip` is the client's address by the configuration's rule (`trustedProxy`,
 * `http/client-ip.ts`) when it is known: the providers score a token better with it, and it is
 * optional at every one of them.
 *
 * @module
 */
import type { ResolvedCaptcha } from "./settings.js"

export type Verdict =
  | { readonly outcome: "passed" }
  | { readonly outcome: "refused"; readonly reason: string }
  | { readonly outcome: "unavailable"; readonly reason: string }

/** What the form expects of a v3 token. */
export interface Expected {
  /** The v3 action its page asked for. */
  readonly action: string
  /** The host name of the app's origin, where the token was made. */
  readonly hostname: string
  /** The client's address, when the configuration can tell it. */
  readonly remoteIp: string | null
}

/** The longest token taken (Turnstile's are at most 2048 characters; the others' shorter). */
export const maxTokenLength = 4096

/** Error codes that say the app's own keys or request are wrong: nothing the visitor can fix. */
const ourMistakes: ReadonlySet<string> = new Set([
  "missing-input-secret",
  "invalid-input-secret",
  "invalid-sitekey",
  "sitekey-secret-mismatch",
  "bad-request",
  "invalid-keys",
  "internal-error",
])

interface SiteverifyAnswer {
  success: boolean
  "error-codes"?: unknown
  score?: unknown
  action?: unknown
  hostname?: unknown
}

function isAnswer(value: unknown): value is SiteverifyAnswer {
  return typeof value === "object" && value !== null && typeof (value as { success?: unknown }).success === "boolean"
}

export async function siteverify(settings: ResolvedCaptcha, token: string, expected: Expected): Promise<Verdict> {
  const form = new URLSearchParams({ secret: settings.secretKey, response: token })
  if (settings.provider === "hcaptcha") form.set("sitekey", settings.siteKey)
  if (expected.remoteIp) form.set("remoteip", expected.remoteIp)
  let answer: unknown
  try {
    const response = await fetch(settings.verifyUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form.toString(),
      redirect: "error",
      signal: AbortSignal.timeout(settings.timeout),
    })
    if (!response.ok) return { outcome: "unavailable", reason: `siteverify answered HTTP ${response.status}` }
    answer = await response.json()
  } catch (error) {
    const name = error instanceof Error ? error.name : "error"
    return { outcome: "unavailable", reason: name === "TimeoutError" ? `siteverify did not answer within ${settings.timeout} ms` : `siteverify could not be reached or read (${name})` }
  }
  if (!isAnswer(answer)) return { outcome: "unavailable", reason: "siteverify answered something other than its JSON" }
  const codes = Array.isArray(answer["error-codes"]) ? answer["error-codes"].filter((c): c is string => typeof c === "string") : []
  if (!answer.success) {
    const ours = codes.find((code) => ourMistakes.has(code))
    if (ours) return { outcome: "unavailable", reason: `siteverify refused the app's request: ${ours}` }
    return { outcome: "refused", reason: codes[0] ?? "invalid-input-response" }
  }
  if (settings.service.scored) {
    if (answer.action !== expected.action) return { outcome: "refused", reason: "action-mismatch" }
    if (typeof answer.hostname !== "string" || answer.hostname.toLowerCase() !== expected.hostname.toLowerCase()) return { outcome: "refused", reason: "hostname-mismatch" }
    if (typeof answer.score !== "number" || answer.score < settings.minScore) return { outcome: "refused", reason: "score-too-low" }
  }
  return { outcome: "passed" }
}
