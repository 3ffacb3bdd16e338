/**
 * The one interface both session strategies implement.
 *
 * @module
 */
import type { AdapterUser } from "../adapters/types.js"
import type { RequestContext } from "../http/context.js"
import type { ActingSession } from "./acting.js"
import type { JsonValue } from "../store/model.js"
import type { Account, AuthFactor, Profile, Session, User } from "../types.js"

/** Who signed in, as the sign-in decision left it. */
export interface SignInResult {
  user: User | AdapterUser
  account: Account | null
  profile?: Profile
  isNewUser: boolean
  /** How the user proved who they are, first factor first. */
  factors?: AuthFactor[]
  /**
   * Asked once the session is stored: false when the sign-in was undone meanwhile (its account was
   * unlinked, its password changed), and the session is then deleted before anything learns its
   * token.
   */
  recheck?: () => Promise<boolean>
  /**
   * Modules' parts the session starts with, by module id: a session a module starts on someone's
   * behalf (`session/acting.ts`). Each module must keep parts (`keepsSessionPart`).
   */
  parts?: Record<string, JsonValue>
  /**
   * Leaves the browser's current session as it is (kept aside to come back to) instead of ending
   * it: the new session acts on its behalf, and ends with it (`acting.ts`).
   */
  keepCurrent?: boolean
  /** The session ends at this instant (ms) at the latest, whatever its lifetime. */
  endsAt?: number
}

export interface SessionStrategy {
  /** `GET session` (and, with `update`, `POST session`). Queues cookie changes on the context. */
  read(ctx: RequestContext, update?: { data: unknown }): Promise<Session | null>
  /** Starts a session for a user who just signed in: sets the session cookie. */
  start(ctx: RequestContext, result: SignInResult): Promise<void>
  /** Ends the request's session (sign-out): removes it, clears the cookie, sends `signOut`. */
  end(ctx: RequestContext): Promise<void>
  /** The user of the request's valid session, if any (used to link accounts). */
  currentUser(ctx: RequestContext): Promise<User | AdapterUser | null>
  /**
   * The id of the user of the request's valid session, if any: a JWT's `sub`, a stored session's
   * user. Unlike `currentUser`, it needs no stored user (a credentials user of a JWT session).
   */
  userId(ctx: RequestContext): Promise<string | null>
  /**
   * What names the request's valid session when the user's other sessions end (a password change,
   * "sign out everywhere else"): a database session's stored hash, a JWT's `sid`. Undefined when
   * there is no valid session, or a JWT made before `sid` existed.
   */
  currentId(ctx: RequestContext): Promise<string | undefined>
  /**
   * When the request's valid session started (ms since the epoch): the sign-in it came from. Undefined
   * when there is no valid session or its start is not known (a JWT without `auth_time`, a stored
   * session without `createdAt`), and for an acting session (`acting.ts`), which no sign-in of its
   * user started: so no freshness check passes for it.
   */
  signedInAt(ctx: RequestContext): Promise<number | undefined>
  /**
   * The user of the request's valid session proved who they are again (step-up): from now on the
   * session counts as signed in now. Database sessions are replaced by a new one (a new token,
   * the old one deleted), JWT sessions get a new sign-in time. False when there is no valid session.
   */
  refreshSignIn(ctx: RequestContext): Promise<boolean>
  /**
   * Sets module `module`'s part of the request's valid session (`ModuleRequest.setSessionPart`):
   * a JWT is re-issued with it as the claim of the module's id, a database session keeps it in the
   * store. False when there is no valid session.
   */
  setModulePart(ctx: RequestContext, module: string, value: JsonValue | undefined): Promise<boolean>
  /**
   * The acting of the request's valid session (`acting.ts`), checked as every read checks it:
   * undefined when there is no valid session, or it is one of its own user.
   */
  acting(ctx: RequestContext): Promise<ActingSession | undefined>
}
