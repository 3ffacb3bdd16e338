/**
 * Why a SCIM request was refused, as RFC 7644 §3.12 says to answer it: the HTTP status, and for a
 * 400 or 409 the `scimType` that tells the identity provider what to fix. The service turns every
 * one into the SCIM Error body (`http.ts`); its `detail` never carries a token or another
 * organization's data.
 *
 * @module
 */

/** The `scimType`s of RFC 7644 §3.12 that this service answers. */
export type ScimType = "invalidFilter" | "tooMany" | "uniqueness" | "mutability" | "invalidSyntax" | "invalidPath" | "noTarget" | "invalidValue"

export class ScimError extends Error {
  override readonly name = "ScimError"

  constructor(
    readonly status: number,
    readonly scimType: ScimType | undefined,
    readonly detail: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(detail)
  }
}

export const notFound = (what: string) => new ScimError(404, undefined, `No such ${what}.`)
export const invalidValue = (detail: string) => new ScimError(400, "invalidValue", detail)
export const invalidSyntax = (detail: string) => new ScimError(400, "invalidSyntax", detail)
