/**
 * `@sesame/admin`: admin tools as a Sesame plugin. Who is an admin (a user field's value, a list
 * of ids, or a function); a user's accounts, sessions, suspension, second factor and
 * organizations at a glance; creating a user and sending a password reset link; suspending a
 * user (every session ended, every sign-in refused with a page that says so, until a date or
 * until lifted); ending a user's sessions; deleting a user. Each action is a server function and a
 * JSON endpoint, refused to anyone but an admin, and never aimed at the admin themselves or at
 * another admin unless `actOnAdmins` says so; each records a security event (`admin.…`) naming
 * the admin as its actor.
 *
 * ```ts
 * import { admin } from "@sesame/admin"
 * const config = { adapter, providers, session: { strategy: "jwt", revocation: true }, plugins: [admin({ admins: { field: "role", values: ["admin"] } })] }
 * ```
 *
 * @module
 */
import type { ModuleRequest, PasswordResetOutcome, SesameModule } from "@sesame/core"
import { banOf, banUser, refuseSuspended, unbanUser } from "./bans.js"
import { suspended, type BanInfo } from "./suspension.js"
import { adminMessages } from "./messages.js"
import { banModel, impersonationModel } from "./models.js"
import { resolveOptions, type AdminOptions } from "./options.js"
import { pageRoutes } from "./pages.js"
import { adminRoutes } from "./routes.js"
import { createUser, deleteUserAsAdmin, listUsers, revokeUserSessions, sendPasswordReset, userDetails, type NewUser, type UserDetails, type UserListing } from "./users.js"
import { adminOf } from "./access.js"
import { actingOf, actingPage, impersonationHolds, keepMark, stopAndReturn } from "./impersonation.js"
import { AdminError } from "./errors.js"

export { AdminError, adminErrorStatus, type AdminErrorCode } from "./errors.js"
export { banModel, impersonationModel } from "./models.js"
export type { AdminOptions, AdminRule } from "./options.js"
export type { BanInfo } from "./suspension.js"
export type { NewUser, UserDetails, UserListing } from "./users.js"

/** The module's server functions; each acts for the request's user, who must be an admin. */
export type AdminApi = {
  /** Whether the request's user is an admin (false when signed out). */
  isAdmin(request: ModuleRequest): Promise<boolean>
  /** The users by address, `limit` (default 25, at most 100) at a time, whose address or name holds `search`; `next` is the following page's cursor. */
  listUsers(request: ModuleRequest, query?: { search?: string; limit?: number; cursor?: string }): Promise<{ users: UserListing[]; next: string | null }>
  userDetails(request: ModuleRequest, userId: string): Promise<UserDetails>
  banUser(request: ModuleRequest, userId: string, input?: { reason?: string; until?: Date | string }): Promise<BanInfo & { sessionsEnded: number }>
  unbanUser(request: ModuleRequest, userId: string): Promise<boolean>
  userBan(request: ModuleRequest, userId: string): Promise<BanInfo | null>
  revokeUserSessions(request: ModuleRequest, userId: string): Promise<number>
  /** Deletes the user with everything stored for them (the user's own `deleteUser` is core's). */
  removeUser(request: ModuleRequest, userId: string): Promise<boolean>
  /**
   * Creates a user (`Conflict` when the address has one); with `sendPasswordReset`, emails them a
   * link to set their password, and says what became of it (`sent`, `limited`, `failed`,
   * `unavailable` without a password provider).
   */
  createUser(request: ModuleRequest, user: NewUser): Promise<{ user: UserListing; passwordReset: PasswordResetOutcome | null }>
  /** Emails the user the password provider's reset link (an admin never sets a password someone else would know). */
  sendPasswordReset(request: ModuleRequest, userId: string): Promise<true>
}

/** The plugin, typed so that `ServerFunctionsOf<Admin>` types an integration's `api`. */
export type Admin = Omit<SesameModule, "api"> & { api: AdminApi }

/**
 * The admin module: add it to `plugins`. Its id, `admin`, is where its endpoints live
 * (`<basePath>/admin/…`). Throws a `TypeError` when an option is wrong.
 */
export function admin(options: AdminOptions): Admin {
  const resolved = resolveOptions(options)
  const api: AdminApi = {
    async isAdmin(request) {
      try {
        await adminOf(resolved, request)
        return true
      } catch (error) {
        // "Could not ask" (a storage outage) is not "no".
        if (error instanceof AdminError) return false
        throw error
      }
    },
    listUsers: (request, query) => listUsers(resolved, request, query),
    userDetails: (request, userId) => userDetails(resolved, request, userId),
    banUser: (request, userId, input) => banUser(resolved, request, userId, input),
    unbanUser: (request, userId) => unbanUser(resolved, request, userId),
    userBan: (request, userId) => banOf(resolved, request, userId),
    revokeUserSessions: (request, userId) => revokeUserSessions(resolved, request, userId),
    removeUser: (request, userId) => deleteUserAsAdmin(resolved, request, userId),
    createUser: (request, user) => createUser(resolved, request, user),
    sendPasswordReset: (request, userId) => sendPasswordReset(resolved, request, userId),
  }
  return {
    id: "admin",
    models: [banModel, impersonationModel],
    routes: {
      ...adminRoutes(resolved),
      ...pageRoutes(resolved),
      "GET admin/acting": { run: actingPage },
      "POST admin/acting": { run: stopAndReturn },
    },
    checkSignIn: refuseSuspended,
    // A suspended user's long-lived credentials (another plugin's API keys) stop too.
    userStanding: async (userId, context) => !(await suspended(context.store!, userId)),
    // An impersonation's mark (`impersonation.ts`): `session.admin` is `{ by, until, id }` while it lasts.
    keepsSessionPart: true,
    session: keepMark,
    acting: actingOf,
    actingHolds: impersonationHolds(resolved),
    messages: adminMessages,
    api,
  }
}
