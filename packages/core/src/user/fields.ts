/**
 * The app's own user fields (`user.fields`): a `role`, a `plan`, a `locale`, declared once in the
 * configuration and stored by the adapter as columns of the users table, as Auth.js apps on
 * Prisma keep them. What this file decides:
 * - which declarations are valid (names that clash with the user's own fields, with the session
 *   token's claims or with an object's properties are refused; a required field needs a default,
 *   since email, passkey and provider sign-ins create users that bring none);
 * - the values a new user is stored with: the declared fields only, each checked against its type,
 *   the defaults filling what was not given;
 * - what reaches the session (`session.user`, and the JWT's claims): the fields not declared
 *   `session: false`, dates as ISO strings (as a JWT carries them);
 * - what a user may set themselves (`input: true`; by default they may not).
 *
 * @module
 */
import type { FieldDeclaration, FieldType, JsonValue, ModelDeclaration } from "../store/model.js"
import { isJson } from "../store/json.js"
import { checkModel, userModelBrand } from "../store/model.js"

/** One of the app's user fields. */
export interface UserFieldDeclaration extends Omit<FieldDeclaration, "references"> {
  /**
   * Whether users may set it themselves: from a sign-up form (`POST signup/password`) and with
   * `updateUserFields`. Default false: only the app's code sets it (a provider's `profile()`,
   * `adapter.updateUser`, its own SQL). Leave it false for anything that grants something (a role).
   */
  input?: boolean
  /**
   * Whether it is in `session.user` (and so in the JWT, and in `GET session`'s answer to the
   * browser). Default true; false keeps it on the stored user only (`user` in the callbacks).
   */
  session?: boolean
}

/** The app's user fields, by name. */
export type UserFieldDeclarations = Readonly<Record<string, UserFieldDeclaration>>

/** `AuthConfig.user`. */
export interface UserOptions {
  /**
   * Extra fields of every user, stored by the adapter as columns of the users table (`sesame
   * migrate` adds them). Type them with `UserFieldsOf` (see the README's "User fields").
   *
   * @example
   * ```ts
   * user: { fields: { role: { type: "string", default: "member" }, locale: { type: "string", optional: true, input: true } } }
   * ```
   */
  fields?: UserFieldDeclarations
}

interface TypeOfField {
  string: string
  text: string
  integer: number
  boolean: boolean
  date: Date
  json: JsonValue
}

/**
 * The TypeScript type of declared user fields, for `User` by declaration merging:
 *
 * @example
 * ```ts
 * const fields = { role: { type: "string", default: "member" } } as const satisfies UserFieldDeclarations
 * declare module "@sesame/core" {
 *   interface User extends Partial<UserFieldsOf<typeof fields>> {}
 * }
 * ```
 */
export type UserFieldsOf<F extends UserFieldDeclarations> = {
  -readonly [K in keyof F]: TypeOfField[F[K]["type"]] | (F[K] extends { optional: true } ? null : never)
}

/** The user's own fields and the claims Sesame's session token uses: no user field may take one. */
const reservedNames: ReadonlySet<string> = new Set([
  "id",
  "name",
  "email",
  "emailVerified",
  "image",
  "picture",
  "sub",
  "iss",
  "aud",
  "exp",
  "nbf",
  "iat",
  "jti",
  "auth_time",
  "email_unverified",
  "factors",
])

/**
 * The keys of the session and the claims of its token that are taken: Sesame's own, and the user
 * fields' (each a claim of its name). A plugin's part of the session, under its id, may take none.
 */
export function takenSessionKeys(resolved: ResolvedUserFields): ReadonlySet<string> {
  return new Set([...reservedNames, "user", "expires", ...Object.keys(resolved.declarations)])
}

const fieldTypes: ReadonlySet<FieldType> = new Set(["string", "text", "integer", "boolean", "date", "json"])

/** The declarations, checked once per configuration. */
export interface ResolvedUserFields {
  readonly declarations: UserFieldDeclarations
  /** The fields as a model of the users table, for the adapter (`withUserFields`) and `sesame migrate`; null when none are declared. */
  readonly model: ModelDeclaration | null
  /** The names of the fields in the session. */
  readonly inSession: readonly string[]
  /** The names of the fields users may set. */
  readonly input: readonly string[]
}

/** No user fields: what a configuration without `user.fields` has. */
export const noUserFields: ResolvedUserFields = Object.freeze({ declarations: Object.freeze({}), model: null, inSession: Object.freeze([]), input: Object.freeze([]) })

/**
 * The user fields as a model of the users table: `id` and the declared fields. The adapter maps it
 * onto its users table (whatever the app named it); `sesame migrate` adds its missing columns and
 * never creates that table.
 */
export function userModel(fields: UserFieldDeclarations): ModelDeclaration {
  const stored = Object.fromEntries(
    Object.entries(fields).map(([name, { input: _input, session: _session, ...field }]) => [name, field as FieldDeclaration]),
  )
  return Object.freeze({ name: "users", table: "users", fields: Object.freeze({ id: { type: "string" as const }, ...stored }), primaryKey: "id", [userModelBrand]: true })
}

/** Checks `user.fields`; a `TypeError` names the first mistake. */
export function resolveUserFields(options: UserOptions | undefined): ResolvedUserFields {
  const fields = options?.fields
  if (fields === undefined) return noUserFields
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) throw new TypeError("`user.fields` must be an object of field declarations.")
  if (Object.keys(fields).length === 0) return noUserFields
  for (const [name, field] of Object.entries(fields)) {
    const where = `\`user.fields.${name}\``
    if (typeof field !== "object" || field === null) throw new TypeError(`${where}: a declaration is an object such as { type: "string", default: "member" }.`)
    if (!/^[A-Za-z][A-Za-z0-9_]{0,47}$/.test(name)) throw new TypeError(`${where}: a field's name must be a plain identifier of at most 48 characters.`)
    if (reservedNames.has(name) || name in Object.prototype) {
      throw new TypeError(`${where}: "${name}" is one of the user's own fields, a claim of the session token, or an object's property; choose another name.`)
    }
    if (!fieldTypes.has(field.type)) throw new TypeError(`${where}: type must be one of ${[...fieldTypes].join(", ")}.`)
    if ("references" in field) throw new TypeError(`${where}: a user field cannot reference another model.`)
    if (field.default !== undefined && !holdsType(field.type, field.default)) throw new TypeError(`${where}: the default is not a ${field.type}.`)
    if (!field.optional && field.default === undefined) {
      throw new TypeError(`${where}: a required field needs a \`default\`: email, passkey and provider sign-ins create users without it. Give it one, or make it optional.`)
    }
  }
  // The storage rules every model follows (a column's name, what may be indexed).
  const model = checkModel(userModel(fields))
  return Object.freeze({
    declarations: fields,
    model,
    inSession: Object.freeze(Object.keys(fields).filter((name) => fields[name]!.session !== false)),
    input: Object.freeze(Object.keys(fields).filter((name) => fields[name]!.input === true)),
  })
}

/**
 * Bounds on a value, whoever sets it: a `string` fits MySQL's `VARCHAR(255)`; a `text` or `json`
 * field is at most 64 KiB (as text), a JSON value at most 32 levels deep (`store/json.ts`: a deeper one
 * would exhaust the stack of whoever walks it); a date is a real
 * day of the years 1000 to 9999, which every SQL column holds.
 */
const maxString = 255
const maxText = 65_536
const isoDate = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/

/** Whether `value` is a value of a field of `type` within the bounds above (a date as a `Date`, or its ISO 8601 text). */
function holdsType(type: FieldType, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string" && value.length <= maxString
    case "text":
      return typeof value === "string" && value.length <= maxText
    case "integer":
      return Number.isSafeInteger(value)
    case "boolean":
      return typeof value === "boolean"
    case "date":
      return isDate(value)
    case "json":
      return value !== undefined && isJson(value) && JSON.stringify(value).length <= maxText
  }
}

function isDate(value: unknown): boolean {
  if (typeof value === "string") {
    const m = isoDate.exec(value)
    // The day as written, not one `Date` rolls over to (2021-02-29 is not 2021-03-01).
    if (!m || !isDate(new Date(value))) return false
    const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
    return day.getUTCFullYear() === Number(m[1]) && day.getUTCMonth() === Number(m[2]) - 1 && day.getUTCDate() === Number(m[3])
  }
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) return false
  const year = value.getUTCFullYear()
  return year >= 1000 && year <= 9999
}

/** A user field's value that does not fit its declaration. */
export class UserFieldValueError extends TypeError {
  constructor(readonly field: string) {
    super(`User field "${field}" got a value that does not fit its declaration.`)
  }
}

/** `value` as field `name` stores it, or a {@link UserFieldValueError}. */
function checkedValue(fields: UserFieldDeclarations, name: string, value: unknown): unknown {
  const field = fields[name]!
  if (value === null) {
    if (field.optional) return null
    throw new UserFieldValueError(name)
  }
  if (!holdsType(field.type, value)) throw new UserFieldValueError(name)
  return field.type === "date" ? new Date(value as string | Date) : value
}

/**
 * The declared fields of a new user: what `given` holds for each (checked), else its default, else
 * null. `given` is the app's (a provider's `profile()`, `createUser`) or, filtered to the input
 * fields, a sign-up form's; nothing else of it is kept.
 */
export function newUserFields(resolved: ResolvedUserFields, given: object): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(resolved.declarations)) {
    const value = Object.hasOwn(given, name) ? (given as Record<string, unknown>)[name] : undefined
    values[name] = value === undefined ? (field.default !== undefined ? checkedValue(resolved.declarations, name, field.default) : null) : checkedValue(resolved.declarations, name, value)
  }
  return values
}

/**
 * The fields `given` sets, checked: `by: "user"` (`updateUserFields`, a sign-up form) may set the
 * input fields only, `by: "app"` (`setUserFields`) any declared field. Any other name is a
 * {@link UserFieldValueError}: an update that tries is refused whole, rather than partly applied.
 */
export function userFieldUpdate(resolved: ResolvedUserFields, given: Readonly<Record<string, unknown>>, by: "user" | "app"): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined) continue
    const allowed = by === "user" ? resolved.input.includes(name) : Object.hasOwn(resolved.declarations, name)
    if (!allowed) throw new UserFieldValueError(name)
    values[name] = checkedValue(resolved.declarations, name, value)
  }
  return values
}

/**
 * A sign-up request's input fields: each one the body has, a form's text read by the field's type
 * (`"true"`/`"false"`, a decimal integer, an ISO 8601 date, JSON), a JSON body's value taken as it
 * is; then checked as any update by a user. A field left empty takes its default. Fields users may
 * not set are never read from a request.
 */
export function formUserFields(resolved: ResolvedUserFields, body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const given: Record<string, unknown> = {}
  for (const name of resolved.input) {
    const value = Object.hasOwn(body, name) ? body[name] : undefined
    if (value === undefined || value === "") continue
    given[name] = typeof value === "string" ? fromText(resolved.declarations[name]!.type, value, name) : value
  }
  return userFieldUpdate(resolved, given, "user")
}

function fromText(type: FieldType, text: string, name: string): unknown {
  switch (type) {
    case "string":
    case "text":
      return text
    case "integer":
      if (!/^-?\d{1,16}$/.test(text)) throw new UserFieldValueError(name)
      return Number(text)
    case "boolean":
      if (text === "true" || text === "on") return true
      if (text === "false") return false
      throw new UserFieldValueError(name)
    case "date":
      return text
    case "json":
      if (text.length > maxText) throw new UserFieldValueError(name)
      try {
        return JSON.parse(text) as unknown
      } catch {
        throw new UserFieldValueError(name)
      }
  }
}

/**
 * The session's view of `user`'s fields: those in the session that the user has (an adapter that
 * does not store them has none), dates as ISO text, as the JWT and `GET session` carry them.
 */
export function sessionUserFields(resolved: ResolvedUserFields, user: object): Record<string, unknown> {
  if (resolved.inSession.length === 0) return {}
  const values: Record<string, unknown> = {}
  for (const name of resolved.inSession) {
    if (!Object.hasOwn(user, name)) continue
    const value = (user as Record<string, unknown>)[name]
    if (value === undefined) continue
    values[name] = value instanceof Date ? value.toISOString() : value
  }
  return values
}
