/**
 * Why an admin action was refused: one error class, a code for each reason and the HTTP status the
 * endpoints answer. A user the caller may not act on is `Forbidden`; a user that does not exist is
 * `NotFound` (admins may know which ids exist).
 *
 * @module
 */

/** The reasons, with the status each endpoint answers. */
export const adminErrorStatus = {
  /** The request has no signed-in user. */
  NotSignedIn: 401,
  /** The signed-in user is not an admin, or is an admin acting as someone else. */
  NotAdmin: 403,
  /** The target is an admin (or the caller), and the options do not let admins act on admins. */
  Forbidden: 403,
  /** No such user. */
  NotFound: 404,
  /** The input is not what the action takes. */
  InvalidInput: 400,
  /** A user with that address exists already. */
  Conflict: 409,
  /** The configuration has no password provider to send a reset link from. */
  NoPasswordProvider: 409,
  /** The password provider's limit of emails to the address is reached for now. */
  TooManyEmails: 429,
  /** The email could not be sent (the reason is in the log). */
  EmailFailed: 502,
} as const

export type AdminErrorCode = keyof typeof adminErrorStatus

/** An admin action refused, with its code and the status its endpoint answers. */
export class AdminError extends Error {
  override readonly name = "AdminError"
  readonly status: number
  constructor(
    readonly code: AdminErrorCode,
    message: string,
  ) {
    super(message)
    this.status = adminErrorStatus[code]
  }
}
