/**
 * What the actions take from a request or the app's code, checked in one place: each function
 * returns the value as it is stored, or throws `InvalidInput` naming the field. A request's JSON
 * reaches the store only through these, so an object where a string goes never becomes a query.
 *
 * @module
 */
import { normalizeEmail } from "@sesame/core/providers/email"
import { OrganizationError } from "./errors.js"

const invalid = (message: string) => new OrganizationError("InvalidInput", message)

/** Whether `value` could be an id the module made (a UUID): anything else matches nothing. */
export function isId(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(value)
}

/** `value` as an id ({@link isId}), or `InvalidInput` naming `field`. */
export function idOf(value: unknown, field: string): string {
  if (!isId(value)) throw invalid(`\`${field}\` must be an id.`)
  return value
}

/** A display name: 1 to 100 characters once trimmed, no control characters. */
export function nameOf(value: unknown): string {
  const name = typeof value === "string" ? value.trim() : ""
  // eslint-disable-next-line no-control-regex
  if (name.length < 1 || name.length > 100 || /[\u0000-\u001f\u007f]/.test(name)) throw invalid("`name` must be 1 to 100 characters.")
  return name
}

const slugPattern = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/

/** A slug: lowercase letters, digits and inner hyphens, 1 to 48 characters (it goes in URLs). */
export function slugOf(value: unknown): string {
  if (typeof value !== "string" || !slugPattern.test(value)) throw invalid("`slug` must be 1 to 48 lowercase letters, digits and inner hyphens.")
  return value
}

/** A slug made from `name` (accents dropped, anything else a hyphen), or "organization" when nothing is left. */
export function slugFrom(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "")
  return base || "organization"
}

/** A logo: an https URL or a path on the app, at most 2,048 characters; null removes it. */
export function logoOf(value: unknown): string | null {
  if (value === null || value === "") return null
  if (typeof value !== "string" || value.length > 2048) throw invalid("`logo` must be an https URL or a path.")
  if (value.startsWith("/") && !value.startsWith("//")) return value
  if (URL.canParse(value) && new URL(value).protocol === "https:") return value
  throw invalid("`logo` must be an https URL or a path.")
}

/** The app's metadata: a plain JSON object of at most 8 KiB as text; null removes it. */
export function metadataOf(value: unknown): Record<string, unknown> | null {
  if (value === null) return null
  if (typeof value !== "object" || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) throw invalid("`metadata` must be a JSON object.")
  let text: string
  try {
    text = JSON.stringify(value)
  } catch {
    throw invalid("`metadata` must be a JSON object.")
  }
  if (text.length > 8192) throw invalid("`metadata` must be at most 8 KiB as JSON.")
  return JSON.parse(text) as Record<string, unknown>
}

/**
 * An email address as invitations keep it: the core's normalised form (`normalizeEmail`: trimmed,
 * NFKC, lowercased, one plain mailbox at a valid host name), the same form email sign-in uses.
 */
export function emailOf(value: unknown): string {
  try {
    return normalizeEmail(value as string)
  } catch {
    throw invalid("`email` must be an email address.")
  }
}

/** A user's stored address in the form of {@link emailOf}, or null when it is not one plain address (it then matches no invitation). */
export function userEmailOf(email: string | null): string | null {
  try {
    return email === null ? null : normalizeEmail(email)
  } catch {
    return null
  }
}

/** A list of role names (at least one, none twice); whether each is a role is the roles' to say. */
export function roleNamesOf(value: unknown): string[] {
  const list = typeof value === "string" ? [value] : value
  if (!Array.isArray(list) || list.length === 0 || list.length > 20 || !list.every((role) => typeof role === "string" && role.length > 0 && role.length <= 64)) {
    throw invalid("`roles` must be one role name or a list of them.")
  }
  return [...new Set(list as string[])]
}

/** An invitation's token as its link carries it: 43 base64url characters. */
export function tokenOf(value: unknown): string {
  if (typeof value !== "string" || !/^[A-Za-z0-9_-]{43}$/.test(value)) throw new OrganizationError("InvitationInvalid", "This invitation cannot be used.")
  return value
}
