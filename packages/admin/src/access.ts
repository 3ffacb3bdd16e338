/**
 * Who may do what: the caller must be a signed-in admin, not suspended; the target must exist, must not be the
 * caller, and must not be an admin unless the options say admins may act on admins. Every server
 * function and endpoint asks here first, so that no action forgets a check.
 *
 * @module
 */
import type { ModuleRequest } from "@sesame/core"
import type { AdapterUser } from "@sesame/core/adapters"
import { AdminError } from "./errors.js"
import { suspended } from "./suspension.js"
import type { ResolvedAdminOptions } from "./options.js"

/** The request's user when they are an admin; otherwise `NotSignedIn` or `NotAdmin`. */
export async function adminOf(options: ResolvedAdminOptions, request: ModuleRequest): Promise<AdapterUser> {
  const user = await request.user()
  if (typeof user?.id !== "string") throw new AdminError("NotSignedIn", "Sign in as an admin first.")
  // Someone acting as another user is not that user, and not an admin while it lasts either.
  if (await request.acting()) throw new AdminError("NotAdmin", "Stop impersonating first: an admin acting as someone else is no admin.")
  // With an adapter, the signed-in user is the stored one, with the app's user fields.
  if (!(await options.isAdmin(user as AdapterUser))) throw new AdminError("NotAdmin", "Only admins may do this.")
  // A suspension ends its user's sessions, but a JWT one only through `session.revocation`, read
  // through a cache on other instances: an admin's powers must not wait for it.
  if (await suspended(request.store!, user.id)) throw new AdminError("NotSignedIn", "Sign in as an admin first.")
  return user as AdapterUser
}

/** The user an admin acts on: `NotFound`, or `Forbidden` for the admin themselves or another admin (unless `actOnAdmins`). */
export async function targetOf(options: ResolvedAdminOptions, request: ModuleRequest, admin: AdapterUser, userId: unknown): Promise<AdapterUser> {
  if (typeof userId !== "string" || userId.length === 0 || userId.length > 255) throw new AdminError("InvalidInput", "`userId` must be a user's id.")
  const target = await request.users!.get(userId)
  if (!target) throw new AdminError("NotFound", "No such user.")
  if (target.id === admin.id) throw new AdminError("Forbidden", "An admin does not act on their own account here: use the account page.")
  if (!options.actOnAdmins && (await options.isAdmin(target))) throw new AdminError("Forbidden", "The user is an admin: admins do not act on admins unless `actOnAdmins` is set.")
  return target
}
