/**
 * Why an SSO action was refused: one error class, a code for each reason and the status the
 * endpoints answer. A connection of an organization the user cannot manage is `NotFound`, the
 * same as one that does not exist, so that nobody learns another organization's connection ids.
 *
 * @module
 */

/** The reasons, with the status each endpoint answers. */
export const ssoErrorStatus = {
  /** The request has no signed-in user. */
  NotSignedIn: 401,
  /** The input is not what the action takes. */
  InvalidInput: 400,
  /** No such connection or organization for this user, or they may not manage its connections. */
  NotFound: 404,
  /** No connection serves this address or organization. */
  NoConnection: 404,
} as const

export type SsoErrorCode = keyof typeof ssoErrorStatus

export class SsoError extends Error {
  override readonly name = "SsoError"
  readonly code: SsoErrorCode
  readonly status: number

  constructor(code: SsoErrorCode, message: string) {
    super(message)
    this.code = code
    this.status = ssoErrorStatus[code]
  }
}
