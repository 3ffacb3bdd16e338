/**
 * Suspending a user (a ban): the row that says so, every session of the user ended at once
 * (database sessions deleted; JWT sessions refused from their next read with the configuration's
 * `session.revocation`), and every later sign-in sent to the page that says the account is
 * suspended, until the suspension ends or an admin lifts it.
 *
 * The refusal is asked at every sign-in whatever the provider (`checkSignIn`), for the stored user
 * the sign-in names, by id and by address: a suspended user cannot come back through a provider
 * they never used, which would link to their account by its proven address. A request for an email
 * link is let through: refusing it would tell whoever typed the address that it is suspended.
 *
 * @module
 */
import type { ModuleContext, ModuleRequest, SignInCallbackParams } from "@sesame/core"
import { adminOf, targetOf } from "./access.js"
import { AdminError } from "./errors.js"
import { banModel } from "./models.js"
import type { ResolvedAdminOptions } from "./options.js"
import { banRow, inForce, type BanInfo } from "./suspension.js"

const maxReason = 500

function untilOf(value: unknown): Date | null {
  if (value === undefined || value === null || value === "") return null
  const date = value instanceof Date ? value : typeof value === "string" ? new Date(value) : null
  if (!date || Number.isNaN(date.getTime())) throw new AdminError("InvalidInput", "`until` must be a date (ISO 8601).")
  if (date.getTime() <= Date.now()) throw new AdminError("InvalidInput", "`until` must be in the future.")
  return date
}

function reasonOf(value: unknown): string | null {
  if (value === undefined || value === null || value === "") return null
  if (typeof value !== "string" || value.length > maxReason) throw new AdminError("InvalidInput", `\`reason\` must be text of at most ${maxReason} characters.`)
  return value
}

/**
 * Suspends `userId`: stores the suspension (replacing one already there), ends every session of
 * the user, and records `admin.user-suspended`. Returns the suspension and how many database
 * sessions ended.
 */
export async function banUser(options: ResolvedAdminOptions, request: ModuleRequest, userId: unknown, input: { reason?: unknown; until?: unknown } = {}): Promise<BanInfo & { sessionsEnded: number }> {
  const admin = await adminOf(options, request)
  const target = await targetOf(options, request, admin, userId)
  const ban: BanInfo = { userId: target.id, reason: reasonOf(input.reason), until: untilOf(input.until), bannedBy: admin.id, at: new Date() }
  const store = request.store!
  const row = { reason: ban.reason, until: ban.until, bannedBy: ban.bannedBy, at: ban.at }
  if ((await store.update(banModel, { userId: target.id }, row)) === 0) await store.create(banModel, { userId: target.id, ...row })
  // After the row: a sign-in racing the ban either finds the row or has its session ended here.
  const sessionsEnded = await request.users!.endSessions(target.id)
  await request.securityEvent({ type: "admin.user-suspended", userId: target.id, details: { until: ban.until?.toISOString() ?? null } })
  return { ...ban, sessionsEnded }
}

/** Lifts the suspension of `userId`; false when there was none. Records `admin.user-restored`. */
export async function unbanUser(options: ResolvedAdminOptions, request: ModuleRequest, userId: unknown): Promise<boolean> {
  const admin = await adminOf(options, request)
  const target = await targetOf(options, request, admin, userId)
  const lifted = (await request.store!.delete(banModel, { userId: target.id })) > 0
  if (lifted) await request.securityEvent({ type: "admin.user-restored", userId: target.id })
  return lifted
}

/** The suspension of `userId` (in force or run out), or null; for admins only. */
export async function banOf(options: ResolvedAdminOptions, request: ModuleRequest, userId: unknown): Promise<BanInfo | null> {
  await adminOf(options, request)
  if (typeof userId !== "string" || userId.length === 0) throw new AdminError("InvalidInput", "`userId` must be a user's id.")
  return banRow(request.store!, userId)
}

/** The suspension in force for the stored user a sign-in names, by id, then by address. */
async function suspensionOf(context: ModuleContext, user: SignInCallbackParams["user"]): Promise<BanInfo | null> {
  const store = context.store!
  const candidates = new Set<string>()
  if (typeof user.id === "string" && user.id.length > 0 && (await context.users?.get(user.id))) candidates.add(user.id)
  if (typeof user.email === "string" && user.email.length > 0) {
    // Only a proven owner of the address: an unproven one may be a squatter, whom the real owner's
    // sign-in sets aside, and whose suspension must not lock the owner out.
    const owner = await context.users?.getByEmail(user.email)
    if (owner?.emailVerified) candidates.add(owner.id)
  }
  for (const id of candidates) {
    const ban = await banRow(store, id)
    if (ban && inForce(ban)) return ban
  }
  return null
}

/** The module's word on every sign-in: a suspended user is sent to the page that says so. */
export async function refuseSuspended(params: SignInCallbackParams, context: ModuleContext & { authUrl: string }): Promise<boolean | string> {
  if (params.email?.verificationRequest) return true
  const ban = await suspensionOf(context, params.user)
  if (!ban) return true
  const page = new URL(`${context.authUrl}/admin/suspended`)
  if (ban.until) page.searchParams.set("until", ban.until.toISOString())
  return page.href
}
