/**
 * The signed-in user of a passkey request. Passkeys always run with an adapter, and then both
 * session strategies give the stored user (the JWT one looks its `sub` up), so no second read is
 * needed.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { RequestContext } from "../http/context.js"
import { signedInUser } from "../session/index.js"

export async function currentAdapterUser(ctx: RequestContext): Promise<AdapterUser | null> {
  const user = await signedInUser(ctx)
  return user && typeof user.id === "string" && typeof user.email === "string" ? (user as AdapterUser) : null
}
