/**
 * The Sesame user a provisioned resource stands for, found by its address (one at a domain the
 * organization proved: its identity provider speaks for it, as a connection's sign-in does).
 *
 * - A user with that address whose address is proven is linked.
 * - A user with that address nobody proved (someone may have registered it before its owner, to
 *   be let in by the IdP later: account pre-hijacking) is not: `409 uniqueness`. Its owner signs in
 *   through the connection once (the core's linking rules set the squatter aside), then the IdP
 *   provisions them.
 * - No user: one is made with the address proven (`emailVerified` now), through `users.create`
 *   where the core offers it to modules; where it does not, `501`, and nothing is stored.
 *
 * @module
 */
import type { ModuleUsers } from "@sesame/core"
import type { Scope } from "./auth.js"
import { ScimError } from "./errors.js"

type StoredUser = NonNullable<Awaited<ReturnType<ModuleUsers["get"]>>>

/** What the core's `ModuleUsers` gives a module that may create users (see the module comment). */
interface UserCreation {
  create(user: { email: string; name: string | null; emailVerified: Date }): Promise<StoredUser>
}

function canCreate(users: ModuleUsers): users is ModuleUsers & UserCreation {
  return typeof (users as Partial<UserCreation>).create === "function"
}

/** The user to provision for `email` (see the module comment). */
export async function accountFor(scope: Scope, email: string, name: string | null): Promise<StoredUser> {
  const users = scope.context.users
  if (!users) throw new TypeError("sso: no adapter to read users from.")
  const found = await users.getByEmail(email)
  if (found) {
    if (!found.emailVerified) throw new ScimError(409, "uniqueness", "An account holds this address without having proven it: the person signs in through the connection once, then can be provisioned.")
    return found
  }
  if (!canCreate(users)) throw new ScimError(501, undefined, "This app cannot create users through SCIM: the person signs in through the connection once, then can be provisioned.")
  return users.create({ email, name, emailVerified: new Date() })
}
