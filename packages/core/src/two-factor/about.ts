/**
 * The second factor of a user as an admin's view of them shows it (`ModuleRequest.aboutUser`):
 * which one and since when, and how many recovery codes are left. Never the secret.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import type { UserFacts } from "../modules/types.js"
import { intlLocale } from "../pages/i18n.js"
import { translatorFor } from "../pages/where.js"
import { countRecoveryCodes, storedTwoFactor } from "./storage.js"

export async function aboutSecondFactor(ctx: RequestContext, userId: string): Promise<UserFacts | null> {
  const settings = ctx.config.twoFactor
  if (!settings) return null
  const t = translatorFor(ctx)
  const stored = await storedTwoFactor(settings.adapter, userId)
  if (!stored) return { title: t.t("twofactor.heading"), items: [t.t("twofactor.status.off")] }
  // As on the user's own settings page: a date in UTC.
  const date = new Intl.DateTimeFormat(intlLocale(t.lang), { dateStyle: "long", timeZone: "UTC" }).format(stored.enabledAt)
  return {
    title: t.t("twofactor.heading"),
    items: [
      t.t(stored.method === "email" ? "twofactor.status.email" : "twofactor.status.totp", { date }),
      t.t("twofactor.status.recovery", { count: String(await countRecoveryCodes(settings.adapter, userId)) }),
    ],
  }
}
