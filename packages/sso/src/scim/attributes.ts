/**
 * A user's attributes as identity providers send them: a resource's body (`POST`, `PUT`) or a
 * PatchOp (`PATCH`, RFC 7644 §3.5.2), read into the few this service keeps: `userName`,
 * `name.givenName`, `name.familyName`, `displayName`, `externalId`, `active`.
 *
 * Both shapes of each IdP are read: Okta's `{"op":"replace","value":{"active":false}}` (no path, an
 * object) and Entra ID's `{"op":"Replace","path":"active","value":"False"}` (the op capitalized, a
 * boolean as a string), paths with or without the schema's URN, `add` as `replace` for these
 * single-valued attributes. Attributes of the core or enterprise schema that are not kept here
 * (`title`, `phoneNumbers`, `emails`: the address is the account's and changes only there) are
 * ignored, so a default attribute mapping syncs; an attribute no schema has is `400 invalidPath`.
 *
 * @module
 */
import { normalizeEmail } from "@sesame/core/providers/email"
import { invalidSyntax, invalidValue, ScimError } from "./errors.js"
import { requireSchema, schemas } from "./http.js"

/** What a request changes of a user; a field left out stays as it is. */
export interface UserChanges {
  userName?: string
  givenName?: string | null
  familyName?: string | null
  displayName?: string | null
  externalId?: string | null
  active?: boolean
}

type Op = "add" | "replace" | "remove"

const userUrn = `${schemas.user.toLowerCase()}:`

/** Attributes of the core User schema (RFC 7643 §4.1) that this service does not keep: ignored. */
const notKept = new Set([
  "emails", "phonenumbers", "addresses", "ims", "photos", "roles", "entitlements", "x509certificates", "groups", "password",
  "title", "nickname", "profileurl", "usertype", "preferredlanguage", "locale", "timezone",
  "name.formatted", "name.middlename", "name.honorificprefix", "name.honorificsuffix",
])

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/** A short text: trimmed, 1 to 256 characters, no control characters. */
export function textOf(value: unknown, what: string): string {
  const text = typeof value === "string" ? value.trim() : ""
  // eslint-disable-next-line no-control-regex
  if (text.length === 0 || text.length > 256 || /[\u0000-\u001f\u007f]/.test(text)) throw invalidValue(`\`${what}\` must be a string of 1 to 256 characters.`)
  return text
}

/** As {@link textOf}; null or an empty string clear it. */
function optionalTextOf(value: unknown, what: string): string | null {
  return value === null || value === "" ? null : textOf(value, what)
}

/** `true`/`false`, or the strings Entra ID sends (`"True"`, `"False"`). */
function booleanOf(value: unknown, what: string): boolean {
  if (value === true || value === false) return value
  if (typeof value === "string" && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === "true"
  throw invalidValue(`\`${what}\` must be true or false.`)
}

/** Sets what `value` says of attribute `path` (as sent) on `changes`. `strict`: an attribute no schema has is refused. */
function apply(changes: UserChanges, path: string, value: unknown, op: Op, strict: boolean): void {
  let key = path.trim().toLowerCase()
  if (key.startsWith(userUrn)) key = key.slice(userUrn.length)
  const clear = op === "remove"
  switch (key) {
    case "active":
      if (clear) throw invalidValue("`active` cannot be removed.")
      changes.active = booleanOf(value, "active")
      return
    case "username":
      if (clear) throw new ScimError(400, "mutability", "`userName` cannot be removed.")
      changes.userName = textOf(value, "userName")
      return
    case "externalid":
      changes.externalId = clear ? null : optionalTextOf(value, "externalId")
      return
    case "displayname":
      changes.displayName = clear ? null : optionalTextOf(value, "displayName")
      return
    case "name.givenname":
      changes.givenName = clear ? null : optionalTextOf(value, "name.givenName")
      return
    case "name.familyname":
      changes.familyName = clear ? null : optionalTextOf(value, "name.familyName")
      return
    case "name":
      if (clear || value === null) {
        changes.givenName = null
        changes.familyName = null
        return
      }
      if (!isObject(value)) throw invalidValue("`name` must be an object.")
      for (const [sub, subValue] of Object.entries(value)) apply(changes, `name.${sub}`, subValue, op, strict)
      return
  }
  // `emails[type eq "work"].value` is about `emails`; an extension's attributes are not kept.
  const base = key.replace(/\[.*$/, "")
  if (notKept.has(base) || notKept.has(base.split(".")[0]!) || base.startsWith("urn:")) return
  if (strict) throw new ScimError(400, "invalidPath", `The attribute "${path.slice(0, 100)}" is not one of the User schema.`)
}

/** The attributes of a user's body (`POST`, `PUT`): those it has; the others are left as they are. */
export function userAttributes(body: Record<string, unknown>): UserChanges {
  requireSchema(body, schemas.user)
  const changes: UserChanges = {}
  for (const [key, value] of Object.entries(body)) {
    if (key === "schemas" || key === "id" || key === "meta") continue
    apply(changes, key, value, "replace", false)
  }
  return changes
}

/** What a PatchOp body changes of a user (see the module comment). */
export function userPatch(body: Record<string, unknown>): UserChanges {
  const changes: UserChanges = {}
  for (const { op, path, value } of patchOperations(body)) {
    if (path !== undefined) apply(changes, path, value, op, true)
    else if (op === "remove") throw new ScimError(400, "noTarget", "A `remove` needs a `path`.")
    else if (isObject(value)) for (const [key, inner] of Object.entries(value)) apply(changes, key, inner, op, true)
    else throw invalidValue("An operation without `path` needs an object as its `value`.")
  }
  return changes
}

/** The operations of a PatchOp body: 1 to 100, each `add`, `replace` or `remove` (in any case), with an optional string `path`. */
export function patchOperations(body: Record<string, unknown>): { op: Op; path?: string; value: unknown }[] {
  requireSchema(body, schemas.patchOp)
  const operations = body.Operations ?? body.operations
  if (!Array.isArray(operations) || operations.length === 0 || operations.length > 100) throw invalidSyntax("`Operations` must list 1 to 100 operations.")
  return operations.map((operation: unknown) => {
    if (!isObject(operation)) throw invalidSyntax("Each operation must be an object.")
    const op = typeof operation.op === "string" ? operation.op.toLowerCase() : ""
    if (op !== "add" && op !== "replace" && op !== "remove") throw invalidSyntax('`op` must be "add", "replace" or "remove".')
    const path = operation.path
    if (path !== undefined && (typeof path !== "string" || path.length === 0 || path.length > 300)) throw new ScimError(400, "invalidPath", "`path` must be a string.")
    return { op, ...(path === undefined ? {} : { path }), value: operation.value }
  })
}

/** The user's address: the primary (else the work, else the first) of `emails`, else `userName` when it is one. */
export function emailOf(body: Record<string, unknown>, userName: string): string {
  const emails = Array.isArray(body.emails) ? body.emails.filter(isObject) : []
  const chosen =
    emails.find((e) => e.primary === true || (typeof e.primary === "string" && e.primary.toLowerCase() === "true")) ??
    emails.find((e) => typeof e.type === "string" && e.type.toLowerCase() === "work") ??
    emails[0]
  const raw = typeof chosen?.value === "string" ? chosen.value : userName.includes("@") ? userName : undefined
  if (raw === undefined) throw invalidValue("The user needs an email address: `emails`, or a `userName` that is one.")
  try {
    return normalizeEmail(raw)
  } catch {
    throw invalidValue("The user's email address is not valid.")
  }
}
