/**
 * Why an organization action was refused: one error class, a code for each reason and the HTTP
 * status the endpoints answer. An organization the user is not a member of is `NotFound`, the same
 * as one that does not exist, so that nobody learns which ids or slugs exist elsewhere.
 *
 * @module
 */

/** The reasons, with the status each endpoint answers. */
export const organizationErrorStatus = {
  /** The request has no signed-in user. */
  NotSignedIn: 401,
  /** The input is not what the action takes (a missing name, a slug with spaces, an unknown role). */
  InvalidInput: 400,
  /** No such organization, member or invitation for this user: also one of another organization. */
  NotFound: 404,
  /** The user's roles do not grant the action, or it would give more than they hold. */
  Forbidden: 403,
  /** Creating organizations is not allowed for this user (`allowCreate`). */
  CreateNotAllowed: 403,
  /** The action needs a recent sign-in (`requireRecentSignIn` sends the browser to prove it again). */
  SignInTooOld: 403,
  /** Another organization has this slug. */
  SlugTaken: 409,
  /** The organization would be left without an owner. */
  LastOwner: 409,
  /** The user is a member already. */
  AlreadyMember: 409,
  /** What the action was decided on changed meanwhile (another admin's change): read again and retry. */
  Conflict: 409,
  /** Another organization has verified this domain. */
  DomainTaken: 409,
  /** The address has an invitation that is still pending: resend it instead. */
  AlreadyInvited: 409,
  /** The invitation cannot be used: unknown, expired, used, declined or cancelled. */
  InvitationInvalid: 404,
  /** The invitation is for another address than the signed-in user's. */
  WrongAccount: 403,
  /** The signed-in user's address is not proven yet: an invitation to it cannot be accepted. */
  EmailUnverified: 403,
  /** The invitation was sent as many times as `invitations.maxSends` allows. */
  TooManySends: 429,
  /** The app's `invitations.send` failed (logged): nothing was stored, and trying again may work. */
  SendFailed: 502,
} as const

export type OrganizationErrorCode = keyof typeof organizationErrorStatus

/**
 * An organization action refused. Endpoints answer it as `{ error: code, message }` with
 * {@link status}; server functions throw it.
 *
 * @example
 * ```ts
 * try {
 *   await auth.api.removeMember(organizationId, memberId)
 * } catch (error) {
 *   if (error instanceof OrganizationError && error.code === "LastOwner") return "Make someone else an owner first."
 *   throw error
 * }
 * ```
 */
export class OrganizationError extends Error {
  override readonly name = "OrganizationError"
  /** The HTTP status its endpoint answers. */
  readonly status: number
  constructor(
    readonly code: OrganizationErrorCode,
    message: string,
  ) {
    super(message)
    this.status = organizationErrorStatus[code]
  }
}
