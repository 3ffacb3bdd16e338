/**
 * An admin's view of a user and the actions on the whole account: what the user is (their
 * accounts, live sessions, suspension, second factor, organizations), creating a user, sending a
 * password reset link, ending every session, deleting the user. Each action records a security
 * event naming the admin as its actor.
 *
 * @module
 */
import { op, type ModuleRequest, type PasswordResetOutcome } from "@sesame/core"
import { normalizeEmail } from "@sesame/core/providers/email"
import { adminOf, targetOf } from "./access.js"
import { banInfo, banRow, inForce, type BanInfo } from "./suspension.js"
import { AdminError, type AdminErrorCode } from "./errors.js"
import { banModel } from "./models.js"
import type { ResolvedAdminOptions } from "./options.js"

/** What an admin sees of a user: never a token, a hash or a secret. */
export interface UserDetails {
  user: { id: string; name: string | null; email: string; emailVerified: Date | null; image: string | null }
  /** Whether the user is an admin by the module's rule. */
  admin: boolean
  /** The suspension, in force or run out (`suspended` says which), or null. */
  ban: BanInfo | null
  suspended: boolean
  /** Provider accounts: OAuth/OIDC, email, passkeys (`webauthn`), password (`credentials`). */
  accounts: { provider: string; type: string; providerAccountId: string }[]
  /** Live database sessions, newest first (none with JWT sessions, which are not stored). */
  sessions: { createdAt: Date | null; lastUsedAt: Date | null; expires: Date; userAgent: string | null }[]
  /**
   * What the other capabilities keep for the user, in the request's language: the second factor
   * (which, since when, recovery codes left), the organizations and roles (with
   * `@sesame/organizations`), any plugin's `aboutUser`.
   */
  about: { source: string; title: string; items: string[] }[]
}

/** The user `userId` as an admin sees them (any user, admins included: seeing changes nothing). */
export async function userDetails(options: ResolvedAdminOptions, request: ModuleRequest, userId: unknown): Promise<UserDetails> {
  await adminOf(options, request)
  if (typeof userId !== "string" || userId.length === 0 || userId.length > 255) throw new AdminError("InvalidInput", "`userId` must be a user's id.")
  const users = request.users!
  const user = await users.get(userId)
  if (!user) throw new AdminError("NotFound", "No such user.")
  const [ban, accounts, sessions, admin, about] = await Promise.all([
    banRow(request.store!, user.id),
    users.accounts(user.id),
    users.sessions(user.id),
    options.isAdmin(user),
    request.aboutUser(user.id),
  ])
  return {
    user: { id: user.id, name: user.name ?? null, email: user.email, emailVerified: user.emailVerified ?? null, image: user.image ?? null },
    admin,
    ban,
    suspended: ban !== null && inForce(ban),
    accounts,
    sessions,
    about,
  }
}

/** What an admin gives to create a user. */
export interface NewUser {
  email: string
  name?: string | null
  /** Whether the address counts as proven (the admin vouches for it). Default false: the user proves it at their first email sign-in or reset. */
  emailVerified?: boolean
  /** Whether to email the user a link to set their password at once (needs a password provider). Default false. */
  sendPasswordReset?: boolean
}

const maxEmail = 320
const maxName = 200

/**
 * One plain address, folded as Sesame's providers fold the addresses they name users by (Unicode
 * NFKC, trimmed, lower case): a look-alike of a user's address is that user's, and nothing a mail
 * library could read as a display name or a second address gets in.
 */
function addressOf(value: unknown): string {
  if (typeof value !== "string" || value.length > maxEmail) throw new AdminError("InvalidInput", "`email` must be an email address.")
  try {
    return normalizeEmail(value)
  } catch (error) {
    throw new AdminError("InvalidInput", `\`email\` must be one plain email address: ${(error as Error).message}`)
  }
}

/**
 * Creates a user with the app's user fields' defaults (records `admin.user-created`), and with
 * `sendPasswordReset` emails them a link to set a password. `Conflict` when the address has a user.
 * Nobody is signed in: the user comes in through a provider of the configuration, by the address.
 */
export async function createUser(options: ResolvedAdminOptions, request: ModuleRequest, input: { email?: unknown; name?: unknown; emailVerified?: unknown; sendPasswordReset?: unknown } = {}): Promise<{ user: UserListing; passwordReset: PasswordResetOutcome | null }> {
  await adminOf(options, request)
  const email = addressOf(input.email)
  const name = input.name === undefined || input.name === null || input.name === "" ? null : input.name
  if (name !== null && (typeof name !== "string" || name.length > maxName)) throw new AdminError("InvalidInput", `\`name\` must be text of at most ${maxName} characters.`)
  for (const flag of ["emailVerified", "sendPasswordReset"] as const) {
    if (input[flag] !== undefined && typeof input[flag] !== "boolean") throw new AdminError("InvalidInput", `\`${flag}\` must be a boolean.`)
  }
  const users = request.users!
  if (await users.getByEmail(email)) throw new AdminError("Conflict", "A user with that address exists already.")
  const user = await users.create({ email, name: name as string | null, emailVerified: input.emailVerified === true ? new Date() : null })
  await request.securityEvent({ type: "admin.user-created", userId: user.id, details: { emailVerified: input.emailVerified === true } })
  const passwordReset = input.sendPasswordReset === true ? await resetFor(request, user.id) : null
  return { user: { id: user.id, email: user.email, name: user.name ?? null, admin: await options.isAdmin(user), suspended: false }, passwordReset }
}

/** Sends the reset link and records `admin.password-reset-sent` when it went. */
async function resetFor(request: ModuleRequest, userId: string): Promise<PasswordResetOutcome> {
  const outcome = await request.sendPasswordReset(userId)
  if (outcome === "sent") await request.securityEvent({ type: "admin.password-reset-sent", userId })
  return outcome
}

/** Each outcome of a reset link that did not go, as the refusal that says it (the pages say its code). */
export const resetRefusals: Record<Exclude<PasswordResetOutcome, "sent">, [AdminErrorCode, string]> = {
  unavailable: ["NoPasswordProvider", "The configuration has no password provider to send a reset link from."],
  limited: ["TooManyEmails", "The address got as many emails as the password provider allows for now: try again later."],
  failed: ["EmailFailed", "The email could not be sent: see the log."],
}

/**
 * Emails `userId` the password provider's reset link, with which they set a password of their own
 * (a user without one gets one): an admin never learns or chooses it. Records
 * `admin.password-reset-sent`. Refused for the admin themselves and for another admin unless
 * `actOnAdmins`, as the other actions are.
 */
export async function sendPasswordReset(options: ResolvedAdminOptions, request: ModuleRequest, userId: unknown): Promise<true> {
  const admin = await adminOf(options, request)
  const target = await targetOf(options, request, admin, userId)
  const outcome = await resetFor(request, target.id)
  if (outcome === "sent") return true
  const [code, message] = resetRefusals[outcome]
  throw new AdminError(code, message)
}

/** Ends every session of `userId` (records `admin.sessions-revoked`); how many database sessions ended. */
export async function revokeUserSessions(options: ResolvedAdminOptions, request: ModuleRequest, userId: unknown): Promise<number> {
  const admin = await adminOf(options, request)
  const target = await targetOf(options, request, admin, userId)
  const ended = await request.users!.endSessions(target.id)
  await request.securityEvent({ type: "admin.sessions-revoked", userId: target.id, details: { count: ended } })
  return ended
}

/** Deletes `userId` with everything stored for them (records `admin.user-deleted`); false when already gone. */
export async function deleteUserAsAdmin(options: ResolvedAdminOptions, request: ModuleRequest, userId: unknown): Promise<boolean> {
  const admin = await adminOf(options, request)
  const target = await targetOf(options, request, admin, userId)
  const deleted = await request.users!.delete(target.id)
  if (deleted) await request.securityEvent({ type: "admin.user-deleted", userId: target.id })
  return deleted
}

/** One user in the list: who they are, and whether an admin or suspended. */
export interface UserListing {
  id: string
  email: string
  name: string | null
  admin: boolean
  suspended: boolean
}

const maxLimit = 100

/**
 * The users, by address (then id), `limit` at a time (at most 100), whose address or name holds
 * `search` (any case); `next` is the cursor of the following page, null on the last. Needs the
 * adapter's `listUsers` (every Sesame adapter).
 */
export async function listUsers(options: ResolvedAdminOptions, request: ModuleRequest, query: { search?: unknown; limit?: unknown; cursor?: unknown } = {}): Promise<{ users: UserListing[]; next: string | null }> {
  await adminOf(options, request)
  const limit = query.limit === undefined ? 25 : query.limit
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > maxLimit) throw new AdminError("InvalidInput", `\`limit\` must be a whole number from 1 to ${maxLimit}.`)
  if (query.search !== undefined && (typeof query.search !== "string" || query.search.length > 200)) throw new AdminError("InvalidInput", "`search` must be text of at most 200 characters.")
  if (query.cursor !== undefined && (typeof query.cursor !== "string" || query.cursor.length > 1000)) throw new AdminError("InvalidInput", "`cursor` must be the `next` of an earlier page.")
  let page: Awaited<ReturnType<NonNullable<ModuleRequest["users"]>["list"]>>
  try {
    page = await request.users!.list({ limit, ...(query.search ? { search: query.search } : {}), ...(query.cursor ? { cursor: query.cursor as string } : {}) })
  } catch (error) {
    // The adapter's word for a query it cannot take (a cursor it did not give): the caller's mistake, not a fault.
    if (error instanceof TypeError) throw new AdminError("InvalidInput", "`cursor` must be the `next` of an earlier page, and `search` plain text.")
    throw error
  }
  const ids = page.users.map((user) => user.id)
  const bans = ids.length ? await request.store!.findMany(banModel, { where: { userId: op.in(ids) } }) : []
  const suspended = new Set(bans.map(banInfo).filter((ban) => inForce(ban)).map((ban) => ban.userId))
  const users = await Promise.all(
    page.users.map(async (user) => ({ id: user.id, email: user.email, name: user.name ?? null, admin: await options.isAdmin(user), suspended: suspended.has(user.id) })),
  )
  return { users, next: page.next }
}
