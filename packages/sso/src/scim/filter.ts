/**
 * The filters identity providers send to find a resource before they create it (RFC 7644
 * §3.4.2.2), and only those: one attribute, the operator `eq`, a quoted string.
 *
 * - `userName eq "ada@acme.test"` (Okta, Entra ID), `externalId eq "00u1…"`, `id eq "…"`;
 * - `emails.value eq "…"` and `emails[type eq "work"].value eq "…"`;
 * - `displayName eq "Engineering"`, `externalId eq "…"` for groups.
 *
 * Attribute names and the operator are read without case, and may carry the schema's URN. Anything
 * else (another operator, `and`/`or`/`not`, an unquoted value, a value that does not end where its
 * quotes do) is `400 invalidFilter`: the filter is parsed whole, never passed on, and its value
 * only ever becomes an equality condition of the store.
 *
 * @module
 */
import type { Where } from "@sesame/core"
import { ScimError } from "./errors.js"
import { schemas } from "./http.js"

const quoted = String.raw`"(?:[^"\\\u0000-\u001f]|\\.)*"`
const grammar = new RegExp(String.raw`^\s*([A-Za-z][A-Za-z0-9._:-]*?)(?:\[\s*([A-Za-z]+)\s+([A-Za-z]+)\s+(${quoted})\s*\]\.([A-Za-z]+))?\s+([A-Za-z]+)\s+(${quoted})\s*$`)

const invalid = (detail: string) => new ScimError(400, "invalidFilter", detail)

/** What a filter selects: equality conditions, or nothing at all (an email type the service does not keep). */
export type Selection = { where: Where } | { none: true }

function stringOf(literal: string): string {
  let value: unknown
  try {
    value = JSON.parse(literal)
  } catch {
    throw invalid("The filter's value is not a valid string.")
  }
  if (typeof value !== "string" || value.length > 256) throw invalid("The filter's value must be a string of at most 256 characters.")
  return value
}

interface Parsed {
  /** The attribute's path, lower-cased, without the schema's URN; `emails[type eq "x"].value` as `emails.value`. */
  path: string
  /** The `type` an `emails[type eq "x"]` filter names. */
  type?: string
  value: string
}

function parse(filter: string, schema: string): Parsed {
  if (filter.length > 1000) throw invalid("The filter is too long.")
  const match = grammar.exec(filter)
  if (!match) throw invalid('Only `<attribute> eq "<value>"` filters are supported.')
  const [, attribute, subAttribute, subOperator, subValue, afterBracket, operator, value] = match
  if (operator!.toLowerCase() !== "eq") throw invalid("Only the `eq` operator is supported.")
  let path = attribute!.toLowerCase()
  const urn = `${schema.toLowerCase()}:`
  if (path.startsWith(urn)) path = path.slice(urn.length)
  if (subAttribute === undefined) return { path, value: stringOf(value!) }
  if (path !== "emails" || subAttribute.toLowerCase() !== "type" || subOperator!.toLowerCase() !== "eq" || afterBracket!.toLowerCase() !== "value") {
    throw invalid('The only value filter supported is `emails[type eq "<type>"].value`.')
  }
  return { path: "emails.value", type: stringOf(subValue!).toLowerCase(), value: stringOf(value!) }
}

/** The users `filter` selects (see the module comment). */
export function userSelection(filter: string): Selection {
  const { path, type, value } = parse(filter, schemas.user)
  switch (path) {
    case "username":
      return { where: { userNameKey: value.toLowerCase() } }
    case "externalid":
      return { where: { externalId: value } }
    case "id":
      return { where: { id: value } }
    case "emails.value":
    case "emails":
      // The one address a user has here is their work address.
      return type === undefined || type === "work" ? { where: { email: value.trim().toLowerCase() } } : { none: true }
    default:
      throw invalid("Users can be filtered by `userName`, `externalId`, `id` and `emails.value` only.")
  }
}

/** The groups `filter` selects (see the module comment). */
export function groupSelection(filter: string): Selection {
  const { path, type, value } = parse(filter, schemas.group)
  if (type !== undefined) throw invalid("Groups have no emails.")
  switch (path) {
    case "displayname":
      return { where: { displayNameKey: value.toLowerCase() } }
    case "externalid":
      return { where: { externalId: value } }
    case "id":
      return { where: { id: value } }
    default:
      throw invalid("Groups can be filtered by `displayName`, `externalId` and `id` only.")
  }
}
