/**
 * A captcha (Cloudflare Turnstile, hCaptcha, Google reCAPTCHA v2 or v3) as a built-in feature: its
 * option resolved under `captcha`, its widget in the forms it guards and their check
 * (`guard.ts`), and the script reCAPTCHA v3's pages load (`GET captcha-script`).
 *
 * @module
 */
import type { Feature } from "../modules/feature.js"
import { route } from "../modules/route.js"
import { checkCaptcha, captchaWidgets } from "./guard.js"
import { captchaMessages } from "./messages.js"
import { serveCaptchaScript } from "./script.js"
import { resolveCaptcha, type ResolvedCaptcha } from "./settings.js"

declare module "../modules/feature.js" {
  interface FeatureSettingsMap {
    captcha: ResolvedCaptcha
  }
}

export const captchaFeature: Feature<"captcha"> = {
  id: "captcha",
  messages: captchaMessages,
  settings: {
    key: "captcha",
    resolve: ({ config, env }) => resolveCaptcha(config.captcha, env),
  },
  formGuard: { check: checkCaptcha, widgets: captchaWidgets },
  routes: {
    "GET captcha-script": route({ run: serveCaptchaScript }),
  },
}
