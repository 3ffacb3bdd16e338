/**
 * The `captcha` option checked once, at start-up, with its defaults and the keys from the
 * environment: a mistake is a configuration error that names the option.
 *
 * @module
 */
import { envCaptchaKeys, type Env } from "../config/env.js"
import type { GuardedForm } from "../pages/section.js"
import { captchaServices, type CaptchaService } from "./providers.js"
import type { CaptchaOptions, CaptchaProvider } from "./types.js"

/** The captcha's defaults (its own, as a capability's are: `two-factor/defaults.ts`). */
export const captchaDefaults = {
  on: ["sign-up", "sign-in", "forgot-password", "email"] as const satisfies readonly GuardedForm[],
  /** reCAPTCHA v3's lowest score let through: Google's suggested starting point. */
  minScore: 0.5,
  /** Milliseconds: siteverify answers in well under a second; a form's visitor should not wait longer than this. */
  timeout: 5000,
}

/** Whether siteverify is down: logged when an outage begins and when it ends, not per request. */
export interface CaptchaOutage {
  down: boolean
}

export interface ResolvedCaptcha {
  readonly provider: CaptchaProvider
  readonly service: CaptchaService
  readonly siteKey: string
  readonly secretKey: string
  readonly on: ReadonlySet<GuardedForm>
  readonly minScore: number
  readonly verifyUrl: string
  readonly timeout: number
  /** Shared by the requests of one configuration. */
  readonly outage: CaptchaOutage
}

const providers = Object.keys(captchaServices) as CaptchaProvider[]

function invalid(option: string, message: string): TypeError {
  return new TypeError(`\`captcha.${option}\` ${message}`)
}

/** A key: a string without spaces or control characters, as every provider issues them. */
function key(option: string, value: unknown, variable: string): string {
  if (value === undefined || value === "") throw invalid(option, `is missing: give it, or set ${variable} in the environment.`)
  if (typeof value !== "string" || !/^[\x21-\x7e]{1,512}$/.test(value)) throw invalid(option, "must be the key the provider issued (printable characters, no spaces).")
  return value
}

export function resolveCaptcha(options: CaptchaOptions | undefined, env: Env): ResolvedCaptcha | undefined {
  if (options === undefined) return undefined
  if (options === null || typeof options !== "object") throw new TypeError("`captcha` must be an object: `{ provider, siteKey, secretKey }`.")
  const { provider } = options
  if (!providers.includes(provider)) throw invalid("provider", `must be one of ${providers.map((p) => `"${p}"`).join(", ")}.`)
  const fromEnv = envCaptchaKeys(env)
  const siteKey = key("siteKey", options.siteKey ?? fromEnv.siteKey, "SESAME_CAPTCHA_SITE_KEY")
  const secretKey = key("secretKey", options.secretKey ?? fromEnv.secretKey, "SESAME_CAPTCHA_SECRET_KEY")

  const on = options.on ?? captchaDefaults.on
  if (!Array.isArray(on) || on.length === 0) throw invalid("on", `must list one or more of ${captchaDefaults.on.map((f) => `"${f}"`).join(", ")}.`)
  for (const flow of on) {
    if (!(captchaDefaults.on as readonly string[]).includes(flow)) throw invalid("on", `names "${String(flow)}", which is none of ${captchaDefaults.on.map((f) => `"${f}"`).join(", ")}.`)
  }

  if (options.minScore !== undefined) {
    if (provider !== "recaptcha-v3") throw invalid("minScore", `applies to "recaptcha-v3" only (the provider is "${provider}").`)
    if (typeof options.minScore !== "number" || !(options.minScore >= 0 && options.minScore <= 1)) throw invalid("minScore", "must be a number from 0 to 1.")
  }
  const service = captchaServices[provider]
  let verifyUrl = service.verifyUrl
  if (options.verifyUrl !== undefined) {
    let url: URL
    try {
      url = new URL(options.verifyUrl)
    } catch {
      throw invalid("verifyUrl", "must be an absolute URL.")
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") throw invalid("verifyUrl", "must be an http or https URL.")
    verifyUrl = url.href
  }
  const timeout = options.timeout ?? captchaDefaults.timeout
  if (!Number.isInteger(timeout) || timeout < 1 || timeout > 60_000) throw invalid("timeout", "must be a whole number of milliseconds from 1 to 60000.")

  return Object.freeze({
    provider,
    service,
    siteKey,
    secretKey,
    on: new Set(on),
    minScore: options.minScore ?? captchaDefaults.minScore,
    verifyUrl,
    timeout,
    outage: { down: false },
  })
}
