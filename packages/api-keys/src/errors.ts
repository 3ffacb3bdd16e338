/**
 * Why an action on keys was refused: one error class, a code per reason and the HTTP status the
 * endpoints answer. A key the caller may not manage is `NotFound`, as a key that does not exist:
 * nobody learns which ids are someone else's.
 *
 * @module
 */

export const apiKeyErrorStatus = {
  /** No one is signed in (an API key never counts as someone signed in here). */
  NotSignedIn: 401,
  /** The session acts on someone's behalf (an admin impersonating a user): it mints no credential of the user's. */
  Acting: 403,
  /** Not allowed to manage the organization's keys (not a member with the permission). */
  Forbidden: 403,
  /** No such key, or not one the caller may manage. */
  NotFound: 404,
  /** The input is not what the action takes (an unknown scope, an expiry beyond the maximum). */
  InvalidInput: 400,
  /** Organization keys need the `organizations` option. */
  NoOrganizations: 400,
  /** The owner has the most keys allowed (`maxKeys`). */
  TooManyKeys: 409,
} as const

export type ApiKeyErrorCode = keyof typeof apiKeyErrorStatus

/** An action refused, with its code and the status its endpoint answers. */
export class ApiKeyError extends Error {
  override readonly name = "ApiKeyError"
  readonly status: number
  constructor(
    readonly code: ApiKeyErrorCode,
    message: string,
  ) {
    super(message)
    this.status = apiKeyErrorStatus[code]
  }
}
