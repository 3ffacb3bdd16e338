/**
 * Acting sessions: a session a module starts for another user on someone's behalf (an admin
 * impersonating a user, `ModuleRequest.actAs`), which the core holds to three rules whatever the
 * module does with it:
 *
 * - it ends when the module says (`SesameModule.acting(part).endsAt`), at the first read after
 *   that instant, for both strategies (a database session's expiry never passes it); sooner when
 *   the module no longer vouches for it (`actingHolds`, asked at every use of one: a copy of a
 *   stopped one is worth nothing), and when the actor's own sessions are ended, the one kept aside
 *   among them (a database acting session keeps that session's hash with its parts,
 *   `actorSessionPart`, and ends once it is gone or over; a JWT one ends when `session.revocation`
 *   cut the actor's sessions after it started);
 * - it is never a recent sign-in (each strategy's `signedInAt` knows no start for it, so
 *   `session/fresh.ts` says no), so every sensitive action (a password set, a passkey or a second
 *   factor added, the account deleted, `requireRecentSignIn`) is refused, and no step-up makes it
 *   recent: the actor is not the user; nor does a sign-in start from it (`account/sign-in.ts`);
 * - the session it replaced is kept aside, sealed in a cookie of its own (`keptSession`), and comes
 *   back when the module ends the acting (`ModuleRequest.stopActing`): the actor returns to their
 *   own session as it was, not to a new one.
 *
 * Which session is acting is the module's part of it (its claim in a JWT, its row in the store for
 * a database session), so an acting session needs a module that keeps parts (`keepsSessionPart`).
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { RequestContext } from "../http/context.js"
import { clearChunkedCookie, readChunkedCookie, writeChunkedCookie } from "../http/cookies.js"
import { decode, encode } from "../jwt/index.js"
import type { ResolvedModules } from "../modules/resolve.js"
import { guarded } from "../modules/session.js"
import type { SesameModule } from "../modules/types.js"
import type { JsonValue } from "../store/model.js"

/** What a module says of its part of an acting session. */
export interface Acting {
  /** Who acts (the admin's user id). */
  actorId: string
  /** When the acting ends (ms since the epoch). */
  endsAt: number
  /** The module's page that ends it, after `<basePath>/`. */
  stopPath?: string
}

/** An acting session: what its module says of it, and which module that is. */
export type ActingSession = Acting & { module: string }

/** The module whose part marks a session as acting (the first that says so), with the part and its word. */
function markOf(modules: ResolvedModules, parts: Readonly<Record<string, JsonValue>>): { module: SesameModule; part: JsonValue; acting: ActingSession } | undefined {
  for (const module of modules.actors) {
    const part = parts[module.id]
    if (part === undefined) continue
    const acting = module.acting!(part)
    if (acting && typeof acting.actorId === "string" && Number.isFinite(acting.endsAt)) return { module, part, acting: { ...acting, module: module.id } }
  }
  return undefined
}

/**
 * The acting session a session's parts mark, while it holds: undefined for a session of its own
 * user; `ended` once its time is up, or its module no longer vouches for it (`actingHolds`, whose
 * failure is a no). A storage outage is thrown: the request's 503. The actor's own sessions are
 * the strategy's to check, each in its way (see above).
 */
export async function actingOf(modules: ResolvedModules, parts: Readonly<Record<string, JsonValue>>, now = Date.now()): Promise<ActingSession | "ended" | undefined> {
  const marked = markOf(modules, parts)
  if (!marked) return undefined
  const { module, part, acting } = marked
  if (!(now < acting.endsAt)) return "ended"
  if (!module.actingHolds) return acting
  const holds = await guarded(modules, module.id, "`actingHolds` failed; the acting session ends", () => module.actingHolds!(part, modules.context))
  return holds === true ? acting : "ended"
}

/** The acting of the request's valid session, checked as every read checks it; undefined when there is none, or it is one of its own user. */
export async function currentActing(ctx: RequestContext): Promise<ActingSession | undefined> {
  return ctx.config.modules.actors.length > 0 ? ctx.config.sessionStrategy.acting(ctx) : undefined
}

/** The salt of the kept session's encryption: its cookie's role, so it opens as nothing else. */
const keptSalt = "sesame.kept-session"

/**
 * Starts a session for `user` on behalf of the request's user, with `module`'s part `part`, until
 * `endsAt`; the request's session cookie is kept aside, sealed, to come back to.
 */
export async function startActing(ctx: RequestContext, module: SesameModule, user: AdapterUser, part: JsonValue, endsAt: number): Promise<void> {
  const { config } = ctx
  const { sessionToken, keptSession } = ctx.cookieOptions
  const current = readChunkedCookie(ctx.cookies, sessionToken.name)
  if (!current) throw new TypeError(`Plugin "${module.id}": acting needs the actor's own session, which the request does not have.`)
  // Kept past `endsAt`, so that the way back works after the acting session ended by itself; the
  // session it holds is checked again when it comes back.
  const maxAge = Math.max(1, Math.ceil((endsAt - Date.now()) / 1000)) + config.session.maxAge
  const sealed = await encode({ token: { session: current }, secret: [...config.secrets], salt: keptSalt, maxAge })
  ctx.setCookies.push(...writeChunkedCookie(keptSession.name, sealed, { ...keptSession.options, maxAge }, ctx.cookies))
  await config.sessionStrategy.start(ctx, { user, account: null, isNewUser: false, parts: { [module.id]: part }, keepCurrent: true, endsAt })
}

/** Clears the kept session's cookie, when the request has one. */
export function forgetKeptSession(ctx: RequestContext): void {
  const { keptSession } = ctx.cookieOptions
  if (readChunkedCookie(ctx.cookies, keptSession.name) === undefined) return
  ctx.setCookies.push(...clearChunkedCookie(keptSession.name, keptSession.options, ctx.cookies))
}

/**
 * Ends the acting session and brings the kept one back: false when the request has no kept session
 * (it expired, or was never there), and the browser is then simply signed out.
 */
export async function stopActing(ctx: RequestContext): Promise<boolean> {
  const { config } = ctx
  const { sessionToken, keptSession } = ctx.cookieOptions
  const raw = readChunkedCookie(ctx.cookies, keptSession.name)
  let kept: string | undefined
  if (raw) {
    try {
      const opened = await decode<{ session?: unknown }>({ token: raw, secret: [...config.secrets], salt: keptSalt })
      if (typeof opened?.session === "string") kept = opened.session
    } catch {
      kept = undefined
    }
  }
  await config.sessionStrategy.end(ctx)
  forgetKeptSession(ctx)
  if (!kept) return false
  // The kept cookie, as it was: its next read checks it (it may have expired or been ended) and
  // renews it as any read does. Written after `end`, whose clearing it replaces.
  const cleared = new Set([sessionToken.name, ...[...ctx.cookies.keys()].filter((name) => name.startsWith(`${sessionToken.name}.`))])
  ctx.setCookies.splice(0, ctx.setCookies.length, ...ctx.setCookies.filter((cookie) => !cleared.has(cookie.name)))
  ctx.setCookies.push(...writeChunkedCookie(sessionToken.name, kept, { ...sessionToken.options, maxAge: config.session.maxAge }, ctx.cookies))
  return true
}
