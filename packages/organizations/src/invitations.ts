/**
 * Invitations by email. A member whose roles grant `invitation: ["create"]` invites an address
 * with roles within their own; the app's `send` mails a link to its accept page with a random
 * token, of which only the SHA-256 is stored. The link works once, until it expires, and not after
 * it is cancelled or sent again (a resend makes a new token). Accepting needs a signed-in user
 * whose proven address is the invited one: a user who signed up with it but has not proven it, or
 * who holds another address, cannot take the seat. Of two accepts at once, the one that deletes
 * the invitation wins; the other finds it gone.
 *
 * @module
 */
import { op, StoreConflict, type ModuleRequest, type StoredRow } from "@sesame/core"
import { actorOf, membershipOf, organizationFrom, rolesFrom, storeOf, withGrant, type Actor, type Deps } from "./context.js"
import { OrganizationError } from "./errors.js"
import { report } from "./events.js"
import { emailOf, idOf, roleNamesOf, tokenOf, userEmailOf } from "./input.js"
import { departureModel, invitationModel, memberModel, organizationModel } from "./models.js"
import { rolesIn } from "./stored-roles.js"

/** An invitation as the organization's members see it (never its token). */
export interface InvitationInfo {
  id: string
  organizationId: string
  email: string
  roles: string[]
  invitedBy: string | null
  sends: number
  createdAt: Date
  expires: Date
}

/** An invitation as its link shows it to whoever opens it. */
export interface InvitationPreview {
  organization: { id: string; name: string; slug: string; logo: string | null }
  email: string
  roles: string[]
  expires: Date
  /** Whether the signed-in user (if any) may accept it: signed in with this address, proven. */
  acceptable: boolean
  /** Why not, when they may not: `NotSignedIn`, `WrongAccount`, `EmailUnverified`, `AlreadyMember`. */
  reason?: "NotSignedIn" | "WrongAccount" | "EmailUnverified" | "AlreadyMember"
}

const invitationInvalid = () => new OrganizationError("InvitationInvalid", "This invitation cannot be used: it may have expired, been used or been cancelled.")

function infoFrom(row: StoredRow): InvitationInfo {
  return {
    id: String(row.id),
    organizationId: String(row.organizationId),
    email: String(row.email),
    roles: rolesFrom(row.roles),
    invitedBy: (row.invitedBy as string | null) ?? null,
    sends: Number(row.sends),
    createdAt: row.createdAt as Date,
    expires: row.expires as Date,
  }
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("")
}

/** A new token (32 random bytes, base64url) and its hash. */
async function newToken(): Promise<{ token: string; hash: string }> {
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")
  return { token, hash: await sha256(token) }
}

function invitationsOn(deps: Deps) {
  const { invitations } = deps.options
  if (!invitations) throw new OrganizationError("InvalidInput", "Invitations are off: the app's configuration sets `invitations.send` to turn them on.")
  return invitations
}

/** The link that accepts with `token`, at the app's origin. */
function acceptLink(request: ModuleRequest, acceptUrl: string, token: string): string {
  const url = new URL(acceptUrl, request.url.origin)
  url.searchParams.set("token", token)
  return url.href
}

/** Mails the invitation; a failure undoes what was stored (nothing half-made stays) and is `SendFailed`. */
async function mail(deps: Deps, request: ModuleRequest, actor: Actor, row: InvitationInfo, token: string, undo: () => Promise<unknown>): Promise<void> {
  const invitations = invitationsOn(deps)
  const organization = await storeOf(request).findOne(organizationModel, { id: row.organizationId })
  if (!organization) throw new OrganizationError("NotFound", "No such organization.")
  const { id, name, slug } = organizationFrom(organization)
  try {
    await invitations.send({
      email: row.email,
      url: acceptLink(request, invitations.acceptUrl, token),
      organization: { id, name, slug },
      invitedBy: { name: actor.name, email: actor.email },
      roles: row.roles,
      expires: row.expires,
      send: row.sends,
    })
  } catch (error) {
    await undo()
    request.logger.error(Object.assign(new Error("organizations: `invitations.send` failed; the invitation was not kept.", { cause: error }), { name: "SendFailed" }))
    throw new OrganizationError("SendFailed", "The invitation could not be sent. Try again in a moment.")
  }
}

/** Invites `email` with `roles` (default `["member"]`). */
export async function inviteMember(deps: Deps, request: ModuleRequest, organizationId: string, email: string, roles: string[] = ["member"]): Promise<InvitationInfo> {
  const invitations = invitationsOn(deps)
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  const { membership, book } = await withGrant(deps, store, actor, id, { invitation: ["create"] })
  const address = emailOf(email)
  const given = roleNamesOf(roles)
  const unknown = book.unknown(given)
  if (unknown.length > 0) throw new OrganizationError("InvalidInput", `No such role: ${unknown.join(", ")}.`)
  if (!book.mayGive(membership.roles, given)) throw new OrganizationError("Forbidden", "You cannot invite with roles beyond your own.")
  const existing = await request.users?.getByEmail(address)
  if (existing && (await membershipOf(store, id, existing.id))) throw new OrganizationError("AlreadyMember", "This address belongs to a member already.")
  const alreadyInvited = () => new OrganizationError("AlreadyInvited", "This address has a pending invitation: send it again instead.")
  if (await store.findOne(invitationModel, { organizationId: id, email: address })) throw alreadyInvited()
  const { token, hash } = await newToken()
  const now = new Date()
  const row = { id: crypto.randomUUID(), organizationId: id, email: address, roles: given, tokenHash: hash, invitedBy: actor.id, sends: 1, createdAt: now, expires: new Date(now.getTime() + invitations.expiresIn * 1000) }
  // An expired invitation of the address still holds its key until the store purges it.
  await store.delete(invitationModel, { organizationId: id, email: address, expires: op.lte(now) })
  try {
    await store.create(invitationModel, row)
  } catch (error) {
    // Invited by a concurrent request.
    if (error instanceof StoreConflict) throw alreadyInvited()
    throw error
  }
  const info = infoFrom(row)
  await mail(deps, request, actor, info, token, () => store.delete(invitationModel, { id: row.id }))
  await report(deps.options, request, { type: "invitation.created", organizationId: id, actorId: actor.id, invitationId: row.id, email: address, roles: given })
  return info
}

/** The pending invitation `invitationId` of `organizationId`, for a member whose roles grant `action`. */
async function pendingIn(deps: Deps, request: ModuleRequest, organizationId: string, invitationId: string, action: "create" | "cancel") {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  const { membership, book } = await withGrant(deps, store, actor, id, { invitation: [action] })
  const row = await store.findOne(invitationModel, { id: idOf(invitationId, "invitationId"), organizationId: id })
  if (!row) throw new OrganizationError("NotFound", "No such invitation.")
  const info = { ...infoFrom(row), tokenHash: String(row.tokenHash) }
  // Resending or cancelling an invitation with roles beyond one's own is acting with them too.
  if (!book.mayGive(membership.roles, info.roles)) throw new OrganizationError("Forbidden", "This invitation's roles are beyond your own.")
  return { actor, store, id, info }
}

/** Sends an invitation again with a new link (the old one stops working) and a new expiry, up to `maxSends` times in all. */
export async function resendInvitation(deps: Deps, request: ModuleRequest, organizationId: string, invitationId: string): Promise<InvitationInfo> {
  const invitations = invitationsOn(deps)
  const { actor, store, id, info } = await pendingIn(deps, request, organizationId, invitationId, "create")
  if (info.sends >= invitations.maxSends) throw new OrganizationError("TooManySends", "This invitation was sent as many times as allowed: cancel it and invite again.")
  const { token, hash } = await newToken()
  const expires = new Date(Date.now() + invitations.expiresIn * 1000)
  const sends = info.sends + 1
  // The resender vouches for it from now on (accepting checks that whoever invited may still give its roles).
  const changed = await store.update(invitationModel, { id: info.id, organizationId: id, sends: info.sends, tokenHash: info.tokenHash }, { tokenHash: hash, sends, expires, invitedBy: actor.id })
  // Accepted, cancelled or resent by someone else meanwhile.
  if (changed !== 1) throw new OrganizationError("NotFound", "No such invitation.")
  const resent = { ...info, sends, expires, invitedBy: actor.id }
  // Not sent: the old link works again, and the send is not counted.
  const undo = () => store.update(invitationModel, { id: info.id, tokenHash: hash }, { tokenHash: info.tokenHash, sends: info.sends, expires: info.expires, invitedBy: info.invitedBy })
  await mail(deps, request, actor, resent, token, undo)
  await report(deps.options, request, { type: "invitation.resent", organizationId: id, actorId: actor.id, invitationId: info.id, email: info.email, roles: info.roles })
  return resent
}

/** Cancels a pending invitation: its link stops working. */
export async function cancelInvitation(deps: Deps, request: ModuleRequest, organizationId: string, invitationId: string): Promise<void> {
  const { actor, store, id, info } = await pendingIn(deps, request, organizationId, invitationId, "cancel")
  // Accepted (or cancelled) meanwhile: nothing was cancelled.
  if ((await store.delete(invitationModel, { id: info.id, organizationId: id })) !== 1) throw new OrganizationError("NotFound", "No such invitation.")
  await report(deps.options, request, { type: "invitation.cancelled", organizationId: id, actorId: actor.id, invitationId: info.id, email: info.email })
}

/** The pending invitations of an organization, for its members whose roles grant `invitation: ["create"]`. */
export async function listInvitations(deps: Deps, request: ModuleRequest, organizationId: string): Promise<InvitationInfo[]> {
  const actor = await actorOf(request)
  const store = storeOf(request)
  const id = idOf(organizationId, "organizationId")
  await withGrant(deps, store, actor, id, { invitation: ["create"] })
  const rows = await store.findMany(invitationModel, { where: { organizationId: id }, orderBy: [{ field: "createdAt" }], limit: 1000 })
  return rows.map(infoFrom)
}

/** The pending invitations to the signed-in user's address, once it is proven. */
export async function listReceivedInvitations(request: ModuleRequest): Promise<(InvitationInfo & { organization: { id: string; name: string; slug: string } })[]> {
  const actor = await actorOf(request)
  const email = userEmailOf(actor.email)
  if (!email || !actor.emailVerified) return []
  const store = storeOf(request)
  const rows = await store.findMany(invitationModel, { where: { email }, orderBy: [{ field: "createdAt" }], limit: 100 })
  const out = []
  for (const row of rows) {
    const organization = await store.findOne(organizationModel, { id: String(row.organizationId) })
    if (organization) {
      const { id, name, slug } = organizationFrom(organization)
      out.push({ ...infoFrom(row), organization: { id, name, slug } })
    }
  }
  return out
}

/** The live invitation whose link carries `token`, or `InvitationInvalid`. */
async function byToken(request: ModuleRequest, token: unknown): Promise<StoredRow> {
  const row = await storeOf(request).findOne(invitationModel, { tokenHash: await sha256(tokenOf(token)) })
  if (!row) throw invitationInvalid()
  return row
}

/**
 * The live invitation `invitationId` to `actor`'s address, or `InvitationInvalid`: one to another
 * address is as unknown as one that does not exist (an id says nothing of whom it invites).
 */
async function receivedBy(request: ModuleRequest, actor: Actor, invitationId: unknown): Promise<StoredRow> {
  const row = await storeOf(request).findOne(invitationModel, { id: idOf(invitationId, "invitationId") })
  if (!row || row.email !== userEmailOf(actor.email)) throw invitationInvalid()
  return row
}

/** Why `actor` may not accept `row`, or undefined when they may. */
async function refusal(request: ModuleRequest, actor: Actor | null, row: StoredRow): Promise<InvitationPreview["reason"]> {
  if (!actor) return "NotSignedIn"
  const email = userEmailOf(actor.email)
  if (!email || email !== row.email) return "WrongAccount"
  if (!actor.emailVerified) return "EmailUnverified"
  if (await membershipOf(storeOf(request), String(row.organizationId), actor.id)) return "AlreadyMember"
  return undefined
}

/** What the link shows: the organization, the address and roles, and whether the signed-in user may accept. */
export async function getInvitation(request: ModuleRequest, token: string): Promise<InvitationPreview> {
  const row = await byToken(request, token)
  const organization = await storeOf(request).findOne(organizationModel, { id: String(row.organizationId) })
  if (!organization) throw invitationInvalid()
  const { id, name, slug, logo } = organizationFrom(organization)
  const actor = await actorOf(request).catch((error: unknown) => (error instanceof OrganizationError && error.code === "NotSignedIn" ? null : Promise.reject(error)))
  const reason = await refusal(request, actor, row)
  return { organization: { id, name, slug, logo }, email: String(row.email), roles: rolesFrom(row.roles), expires: row.expires as Date, acceptable: !reason, ...(reason ? { reason } : {}) }
}

/** Accepts the invitation: the signed-in user becomes a member with its roles. */
export async function acceptInvitation(deps: Deps, request: ModuleRequest, token: string): Promise<Accepted> {
  const actor = await actorOf(request)
  return accept(deps, request, actor, await byToken(request, token))
}

/**
 * Accepts an invitation the signed-in user received (one of `listReceivedInvitations`, by id): the
 * same rules as with the link's token, which proves no more than the signed-in, proven address does.
 */
export async function acceptReceivedInvitation(deps: Deps, request: ModuleRequest, invitationId: string): Promise<Accepted> {
  const actor = await actorOf(request)
  return accept(deps, request, actor, await receivedBy(request, actor, invitationId))
}

/** What accepting gives: the organization, the new membership and its roles. */
export interface Accepted {
  organizationId: string
  memberId: string
  roles: string[]
}

async function accept(deps: Deps, request: ModuleRequest, actor: Actor, row: StoredRow): Promise<Accepted> {
  const store = storeOf(request)
  const reason = await refusal(request, actor, row)
  if (reason === "WrongAccount") throw new OrganizationError("WrongAccount", "This invitation is for another address.")
  if (reason === "EmailUnverified") throw new OrganizationError("EmailUnverified", "Prove your address first: sign in with a link sent to it.")
  if (reason === "AlreadyMember") throw new OrganizationError("AlreadyMember", "You are a member already.")
  const organizationId = String(row.organizationId)
  const roles = rolesFrom(row.roles)
  // Whoever invited (or last resent it) must still be a member who may give its roles: an admin who
  // was removed or demoted cannot come back, or keep their rights, through a link to another address.
  const inviter = typeof row.invitedBy === "string" ? await membershipOf(store, organizationId, row.invitedBy) : null
  const book = await rolesIn(deps, store, organizationId)
  if (!inviter || !book.can(inviter.roles, { invitation: ["create"] }) || !book.mayGive(inviter.roles, roles)) throw invitationInvalid()
  // The claim: of two accepts (or an accept and a cancel) only one deletes it.
  if ((await store.delete(invitationModel, { id: String(row.id), tokenHash: String(row.tokenHash) })) !== 1) throw invitationInvalid()
  const memberId = crypto.randomUUID()
  try {
    await store.create(memberModel, { id: memberId, organizationId, userId: actor.id, roles, createdAt: new Date() })
    // Invited back: a departure noted earlier no longer keeps a domain's auto-join away.
    await store.delete(departureModel, { organizationId, userId: actor.id })
  } catch (error) {
    if (error instanceof StoreConflict) throw new OrganizationError("AlreadyMember", "You are a member already.")
    throw error
  }
  await report(deps.options, request, { type: "invitation.accepted", organizationId, actorId: actor.id, invitationId: String(row.id), email: String(row.email) })
  await report(deps.options, request, { type: "member.added", organizationId, actorId: actor.id, memberId, userId: actor.id, roles })
  return { organizationId, memberId, roles }
}

/** Declines the invitation: only its invitee (signed in with the invited, proven address) can. */
export async function declineInvitation(deps: Deps, request: ModuleRequest, token: string): Promise<void> {
  const actor = await actorOf(request)
  return decline(deps, request, actor, await byToken(request, token))
}

/** Declines an invitation the signed-in user received (by id), as {@link declineInvitation}. */
export async function declineReceivedInvitation(deps: Deps, request: ModuleRequest, invitationId: string): Promise<void> {
  const actor = await actorOf(request)
  return decline(deps, request, actor, await receivedBy(request, actor, invitationId))
}

async function decline(deps: Deps, request: ModuleRequest, actor: Actor, row: StoredRow): Promise<void> {
  const reason = await refusal(request, actor, row)
  if (reason === "WrongAccount" || reason === "EmailUnverified") throw new OrganizationError(reason, reason === "WrongAccount" ? "This invitation is for another address." : "Prove your address first.")
  if ((await storeOf(request).delete(invitationModel, { id: String(row.id), tokenHash: String(row.tokenHash) })) !== 1) throw invitationInvalid()
  await report(deps.options, request, { type: "invitation.declined", organizationId: String(row.organizationId), actorId: actor.id, invitationId: String(row.id), email: String(row.email) })
}
