/**
 * The banner every built-in page shows while someone acts as the user (`session/acting.ts`): who
 * the page is seen as, on whose behalf, until when, and the way back to the actor's own account
 * (the acting module's page). Asked only when a configured module declares `acting`, and only for
 * built-in pages, so that no other response pays for the session read.
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import type { InternalResponse } from "../http/response.js"
import { currentActing } from "../session/acting.js"
import { html } from "./html.js"
import { isBuiltInPage, withNotice } from "./layout.js"
import { translatorFor } from "./where.js"

export async function withActingBanner(ctx: RequestContext, response: InternalResponse): Promise<InternalResponse> {
  const { config } = ctx
  if (!isBuiltInPage(response) || config.modules.actors.length === 0) return response
  const acting = await currentActing(ctx)
  if (!acting) return response
  const t = translatorFor(ctx)
  const [user, actor] = await Promise.all([config.sessionStrategy.currentUser(ctx), config.adapter?.getUser(acting.actorId)])
  const time = new Intl.DateTimeFormat(t.lang, { timeStyle: "short", timeZone: "UTC" }).format(new Date(acting.endsAt))
  const stop = acting.stopPath ? `${ctx.authUrl}/${acting.stopPath}` : undefined
  return withNotice(
    response,
    html`<p class="acting" role="status">${t.t("acting.banner", { user: user?.email ?? user?.name ?? "?", actor: actor?.email ?? acting.actorId, time: `${time} UTC` })}${stop ? html` <a href="${stop}">${t.t("acting.stop")}</a>` : ""}</p>`,
  )
}
