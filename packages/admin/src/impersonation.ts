/**
 * Impersonation: an admin sees the app as one of its users, for a limited time, recorded, and back
 * to their own session when they stop.
 *
 * The session it starts is an acting session of the core (`ModuleRequest.actAs`): the module's part
 * of it, `{ by, until, id }`, marks it, and the core holds it to its rules whatever the app does. It
 * ends at `until`; it is never a recent sign-in, so nothing that needs one works in it (a password
 * set, a passkey or second factor added, the account deleted); it hands out no credential of the
 * user's own (an API token carries `act: { sub: <admin> }`, a native app gets no code, the
 * authorization server gives no app the user's tokens); every built-in page shows a banner; and the
 * admin's own session waits aside, sealed, to come back. In it the admin is no admin: the module's
 * actions refuse an acting session, so impersonating cannot make admins or act on anyone.
 *
 * Each impersonation has a row (`impersonationModel`), which the mark names, and its session holds
 * only while that row is there and not stopped, and while its admin is still an admin and not
 * suspended (`actingHolds`, asked at every use of the session): so stopping ends every copy of the
 * session, wherever it was taken, and a suspension or a demotion ends it at once. The core ends it
 * too when the admin's own sessions are ended (`SesameModule.acting`).
 *
 * Never another admin, unless `impersonation.admins` says so; never oneself.
 *
 * @module
 */
import { html, type ModuleContext, type ModuleRequest, type ModuleResponse, type Store, type StoredRow } from "@sesame/core"
import type { JsonValue } from "@sesame/core/adapters"
import { adminOf, targetOf } from "./access.js"
import { suspended } from "./suspension.js"
import { AdminError } from "./errors.js"
import { impersonationModel } from "./models.js"
import type { ResolvedAdminOptions } from "./options.js"

/** The module's part of an impersonation session. */
interface Mark {
  /** The admin's user id. */
  by: string
  /** When it ends (ms). */
  until: number
  /**
   * Its row's id. A mark made before rows were kept has none: it still marks an acting session
   * (never a plain one of the user), which no longer holds.
   */
  id?: string
}

function markOf(part: JsonValue | undefined): Mark | undefined {
  if (typeof part !== "object" || part === null || Array.isArray(part)) return undefined
  const { by, until, id } = part as Record<string, JsonValue>
  if (typeof by !== "string" || typeof until !== "number" || !Number.isFinite(until)) return undefined
  return typeof id === "string" ? { by, until, id } : { by, until }
}

/** `SesameModule.acting`: what the core holds an impersonation session to. */
export function actingOf(part: JsonValue): { actorId: string; endsAt: number; stopPath: string } | undefined {
  const mark = markOf(part)
  return mark && { actorId: mark.by, endsAt: mark.until, stopPath: "admin/acting" }
}

/**
 * `SesameModule.actingHolds`: an impersonation holds while its row is there and not stopped, and
 * while its admin may still impersonate.
 */
export function impersonationHolds(options: ResolvedAdminOptions): (part: JsonValue, context: ModuleContext) => Promise<boolean> {
  return async (part, context) => {
    const mark = markOf(part)
    const row = mark && (await onRecord(context.store!, mark))
    // A user suspended meanwhile (even while it started) has no session to look at any more.
    return !!row && !(await suspended(context.store!, row.userId as string)) && (await stillAllowed(options, context, mark!.by))
  }
}

/** The impersonation `mark` names, when it is on record, by that admin, and was not stopped. */
async function onRecord(store: Store, mark: Mark): Promise<StoredRow | null> {
  const row = mark.id === undefined ? null : await store.findOne(impersonationModel, { id: mark.id })
  return row !== null && row.adminId === mark.by && row.endedAt === null ? row : null
}

/** Whether the admin `adminId` may still see the app as someone: not suspended, and still an admin. */
async function stillAllowed(options: ResolvedAdminOptions, context: ModuleContext, adminId: string): Promise<boolean> {
  if (await suspended(context.store!, adminId)) return false
  const admin = await context.users?.get(adminId)
  return admin ? options.isAdmin(admin) : false
}

/** `SesameModule.session`: the mark stays as it was set, for as long as the session lives. */
export function keepMark({ previous }: { previous?: JsonValue }): JsonValue | undefined {
  return markOf(previous) as JsonValue | undefined
}

/**
 * Starts impersonating `userId` in this browser (from an endpoint: it sends the session cookies).
 * Records `admin.impersonation-started`. Returns when it ends.
 */
export async function impersonate(options: ResolvedAdminOptions, request: ModuleRequest, userId: unknown): Promise<{ until: Date }> {
  const admin = await adminOf(options, request)
  const target = await targetOf({ ...options, actOnAdmins: options.impersonation.admins }, request, admin, userId)
  // A suspended user has no session of their own to look at; the page leaves the button out too.
  if (await suspended(request.store!, target.id)) throw new AdminError("Forbidden", "The user is suspended: lift the suspension to see the app as them.")
  const until = Date.now() + options.impersonation.maxAge * 1000
  // The row first, for the mark to name. Should the start be refused, no session names it: it
  // grants nothing, and goes at `until`.
  const id = crypto.randomUUID()
  await request.store!.create(impersonationModel, { id, adminId: admin.id, userId: target.id, until: new Date(until), endedAt: null })
  const mark: Mark = { by: admin.id, until, id }
  if (!(await request.actAs(target.id, mark as unknown as JsonValue, { endsAt: until }))) throw new AdminError("NotFound", "No such user.")
  await request.securityEvent({ type: "admin.impersonation-started", userId: target.id, actorId: admin.id, details: { until: new Date(until).toISOString() } })
  return { until: new Date(until) }
}

/** This browser's impersonation, if it is one of this module's. */
async function currentMark(request: ModuleRequest): Promise<Mark | undefined> {
  return markOf(await request.sessionPart())
}

/** Ends the impersonation in this browser and brings the admin's session back; records `admin.impersonation-ended`. */
export async function stopImpersonating(request: ModuleRequest): Promise<{ userId: string; restored: boolean } | null> {
  const mark = await currentMark(request)
  const user = await request.user()
  if (!mark || !user?.id) return null
  // Stopped on record first: every copy of this session ends with it, wherever it was taken.
  if (mark.id !== undefined) await request.store!.update(impersonationModel, { id: mark.id }, { endedAt: new Date() })
  // False when this browser holds no kept session (it was copied elsewhere, or expired): signed out.
  const restored = await request.stopActing()
  await request.securityEvent({ type: "admin.impersonation-ended", userId: user.id, actorId: mark.by })
  return { userId: user.id, restored }
}

/** `GET admin/acting`: who the browser is seen as, and the button that stops it. */
export async function actingPage(request: ModuleRequest): Promise<ModuleResponse> {
  const title = request.text("admin.acting.title")
  const mark = await currentMark(request)
  const user = await request.user()
  if (!mark || !user) return { status: 404, page: { title, body: html`<h1>${title}</h1><p>${request.text("admin.acting.none")}</p>` } }
  const base = request.url.pathname.replace(/\/admin\/acting$/, "")
  return {
    page: {
      title,
      body: html`<h1>${title}</h1>
        <p>${request.text("admin.acting.lead", { user: user.email ?? user.name ?? user.id ?? "" })}</p>
        <form method="post" action="${`${base}/admin/acting`}">
          <input type="hidden" name="csrfToken" value="${await request.csrfToken()}" />
          <button type="submit" class="primary">${request.text("admin.acting.stop")}</button>
        </form>`,
    },
  }
}

/** `POST admin/acting`: stops, and goes back to the user's page in the admin pages. */
export async function stopAndReturn(request: ModuleRequest): Promise<ModuleResponse> {
  const stopped = await stopImpersonating(request)
  const base = request.url.pathname.replace(/\/admin\/acting$/, "")
  if (stopped?.restored) return { redirect: `${base}/admin/view?${new URLSearchParams({ userId: stopped.userId, done: "impersonate" })}` }
  // The acting session ended by itself (its time), so no one is signed in here: the way back still
  // opens, if this browser holds it. A browser signed in as anyone is left as it is.
  if (!stopped && !(await request.user()) && (await request.stopActing())) return { redirect: `${base}/admin` }
  return { redirect: `${base}/signin` }
}
