/**
 * `GET {basePath}/captcha-script`: the few lines reCAPTCHA v3 needs on a page, served by the app
 * (so the page runs no inline script). v3 shows no widget: when a guarded form is sent, the script
 * asks `grecaptcha.execute` for a token with the action of the flow the form posts to (the button's
 * `formaction`, else the form's), puts it in the form's `g-recaptcha-response` field, and sends the
 * form again with the same button.
 *
 * @module
 */
import { BadRequest } from "../errors.js"
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"

/** Bumped when the script changes (the URL's `?v=`, so a cached copy is never used for a new one). */
const version = "1"

const script = `(() => {
  "use strict";
  const actionOf = (target) => {
    const path = new URL(target, location.href).pathname;
    if (/\\/signup\\/[^/]+$/.test(path)) return "signup";
    if (/\\/forgot-password\\/[^/]+$/.test(path)) return "forgot_password";
    if (/\\/signin\\/[^/]+$/.test(path)) return "email_signin";
    return "signin";
  };
  for (const field of document.querySelectorAll("input[data-sesame-recaptcha]")) {
    const form = field.form;
    if (!form) continue;
    form.addEventListener("submit", (event) => {
      if (field.value) return;
      event.preventDefault();
      const submitter = event.submitter;
      const target = submitter && submitter.formAction ? submitter.formAction : form.action;
      const grecaptcha = window.grecaptcha;
      if (!grecaptcha) return;
      grecaptcha.ready(() => {
        grecaptcha.execute(field.dataset.sesameRecaptcha, { action: actionOf(target) }).then((token) => {
          field.value = token;
          form.requestSubmit(submitter || undefined);
        });
      });
    });
  }
})();
`

/** The script's URL under `basePath` (a path: always fetched from the page's origin). */
export function captchaScriptUrl(basePath: string): string {
  return `${basePath}/captcha-script?v=${version}`
}

export function serveCaptchaScript(ctx: RequestContext): InternalResponse {
  if (ctx.config.captcha?.provider !== "recaptcha-v3") throw new BadRequest("The captcha script is served with reCAPTCHA v3 only.", 404)
  const headers: Record<string, string> = {
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": ctx.query.v === version ? "public, max-age=31536000, immutable" : "no-cache",
  }
  return { status: 200, headers, body: script }
}
