/**
 * Signing out: the session strategy ends the browser's session (its `signOut` event included),
 * and the `sign-out` security event names who signed out. The one path of `POST signout` and a
 * module's `request.signOut()`. The user is read before the session ends, by the rule of every
 * decision made for the signed-in user (a session cookie sent twice is no one): a sign-out with no
 * session is no event. It also forgets an actor's session kept aside (`acting.ts`).
 *
 * @module
 */
import type { RequestContext } from "../http/context.js"
import { emitSecurity } from "../security-events.js"
import { currentActing, forgetKeptSession } from "./acting.js"
import { signedInUserId } from "./index.js"

export async function endSession(ctx: RequestContext): Promise<void> {
  const userId = await signedInUserId(ctx)
  const acting = await currentActing(ctx)
  await ctx.config.sessionStrategy.end(ctx)
  // A session kept aside while acting as someone (`acting.ts`) goes too: signed out means signed out.
  forgetKeptSession(ctx)
  if (userId !== null) await emitSecurity(ctx.config, ctx.headers, { type: "sign-out", userId, ...(acting ? { actorId: acting.actorId } : {}) })
}
