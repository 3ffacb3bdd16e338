/**
 * The captcha as the flows meet it: its widget in each form it guards, and the check of a post
 * before the flow does any work (`FormGuard`, `modules/feature.ts`).
 *
 * A refusal tells nothing about the account: it comes before the address is read, so a known and
 * an unknown address get the same answer. It is answered as the form's own mistakes are: a
 * browser's form goes back to its page with `error=CaptchaFailed` (or `CaptchaUnavailable`, "try
 * again", when siteverify could not say), which shows the message in the page's language; a JSON
 * caller (`Content-Type: application/json`, `X-Auth-Return-Redirect`, or `Accept` asking for JSON
 * and not HTML) gets `400 { error: "CaptchaFailed", message }`, or `503` with `Retry-After` for
 * `CaptchaUnavailable`. An outage of siteverify is logged when it begins and when it ends.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { json, noStore, type InternalResponse } from "../http/response.js"
import { html } from "../pages/html.js"
import type { FormWidget, GuardedForm } from "../pages/section.js"
import { signInPageUrl, translatorFor } from "../pages/where.js"
import { recaptchaActions } from "./providers.js"
import { captchaScriptUrl } from "./script.js"
import type { ResolvedCaptcha } from "./settings.js"
import { maxTokenLength, siteverify, type Verdict } from "./verify.js"

/** Seconds after which a client may try again once siteverify was unreachable. */
const retryAfter = 5

/** The error codes a refused post is answered with. */
export type CaptchaErrorCode = "CaptchaFailed" | "CaptchaUnavailable"

const messages: Record<CaptchaErrorCode, string> = {
  CaptchaFailed: "The captcha token is missing, invalid, expired or already used. Complete the captcha again.",
  CaptchaUnavailable: "The captcha could not be checked just now. Try again in a moment.",
}

function settingsOf(ctx: RequestContext): ResolvedCaptcha | undefined {
  return ctx.config.captcha
}

/** Whether the caller reads JSON rather than following a redirect to a page. */
function jsonCaller(ctx: RequestContext): boolean {
  if (ctx.returnRedirect) return true
  if (/\bjson\b/i.test(ctx.headers.get("content-type") ?? "")) return true
  const accept = ctx.headers.get("accept") ?? ""
  return !/\btext\/html\b/i.test(accept) && /\bapplication\/(?:[\w.+-]+\+)?json\b/i.test(accept)
}

/** What was typed in the address field, sent back to prefill it (never the password). */
function typedEmail(ctx: RequestContext): string | undefined {
  const value = ctx.body.email
  return typeof value === "string" && value.length > 0 && value.length <= 320 ? value : undefined
}

/** The page the form was on, with `error`. */
async function formPage(ctx: RequestContext, form: GuardedForm, error: CaptchaErrorCode): Promise<string> {
  const page = form === "sign-up" ? "signup" : form === "forgot-password" ? "forgot-password" : undefined
  const url = new URL(page ? `${ctx.authUrl}/${page}` : signInPageUrl(ctx))
  url.searchParams.set("error", error)
  const email = page ? typedEmail(ctx) : undefined
  if (email) url.searchParams.set("email", email)
  if (form === "sign-up" && typeof ctx.body.name === "string" && ctx.body.name.length <= 200) url.searchParams.set("name", ctx.body.name)
  const callbackUrl = await ctx.callbackUrl()
  if (callbackUrl !== `${ctx.origin}/`) url.searchParams.set("callbackUrl", callbackUrl)
  return url.href
}

async function refusal(ctx: RequestContext, form: GuardedForm, error: CaptchaErrorCode): Promise<InternalResponse> {
  if (jsonCaller(ctx)) {
    const headers = error === "CaptchaUnavailable" ? { ...noStore, "Retry-After": String(retryAfter) } : noStore
    return { ...json({ error, message: messages[error] }, error === "CaptchaUnavailable" ? 503 : 400, headers), cookies: ctx.setCookies }
  }
  return { redirect: await formPage(ctx, form, error), cookies: ctx.setCookies }
}

/** Logs an outage of siteverify once, when it begins, and its end once. */
function noteOutage(ctx: RequestContext, settings: ResolvedCaptcha, verdict: Verdict): void {
  if (verdict.outcome === "unavailable") {
    if (settings.outage.down) return ctx.config.logger.debug("captcha: siteverify still unavailable", { reason: verdict.reason })
    settings.outage.down = true
    const error = new Error(`The captcha's siteverify (${settings.provider}) failed: ${verdict.reason}. Guarded forms are refused until it answers.`)
    error.name = "CaptchaUnavailable"
    return ctx.config.logger.error(error)
  }
  if (settings.outage.down) {
    settings.outage.down = false
    ctx.config.logger.debug(`captcha: siteverify (${settings.provider}) answers again`)
  }
}

export async function checkCaptcha(ctx: RequestContext, form: GuardedForm): Promise<InternalResponse | undefined> {
  const settings = settingsOf(ctx)
  if (!settings || !settings.on.has(form)) return undefined
  const token = ctx.body[settings.service.field]
  let verdict: Verdict
  if (typeof token !== "string" || token.length === 0) verdict = { outcome: "refused", reason: "missing-input-response" }
  else if (token.length > maxTokenLength) verdict = { outcome: "refused", reason: "invalid-input-response" }
  else verdict = await siteverify(settings, token, { action: recaptchaActions[form], hostname: new URL(ctx.origin).hostname, remoteIp: ctx.clientAddress })
  if (verdict.outcome !== "refused") noteOutage(ctx, settings, verdict)
  if (verdict.outcome === "passed") return undefined
  if (verdict.outcome === "refused") ctx.config.logger.debug(`captcha: a ${form} post was refused`, { reason: verdict.reason })
  return refusal(ctx, form, verdict.outcome === "refused" ? "CaptchaFailed" : "CaptchaUnavailable")
}

/** The widget in each guarded form, in the page's language. */
export function captchaWidgets(ctx: RequestContext): Readonly<Partial<Record<GuardedForm, FormWidget>>> {
  const settings = settingsOf(ctx)
  if (!settings) return {}
  const t = translatorFor(ctx)
  const { service, siteKey } = settings
  const scripts = [service.script(siteKey, t.lang), ...(service.widgetClass ? [] : [captchaScriptUrl(ctx.config.basePath)])]
  const noscript = html`<noscript><p class="hint">${t.t("captcha.noscript")}</p></noscript>`
  const widgets: Partial<Record<GuardedForm, FormWidget>> = {}
  for (const form of settings.on) {
    const markup = service.widgetClass
      ? html`<div class="${service.widgetClass}" data-sitekey="${siteKey}" data-action="${recaptchaActions[form]}" data-language="${t.lang}"></div>
${noscript}`
      : html`<input type="hidden" name="${service.field}" value="" data-sesame-recaptcha="${siteKey}">
${noscript}`
    widgets[form] = { markup, scripts, sources: service.sources }
  }
  return widgets
}
