/**
 * The module's options, checked when the configuration is written, with their defaults.
 *
 * @module
 */
import type { Grants, Statements } from "@sesame/core/access"
import type { DomainOptions } from "./domains.js"
import type { OrganizationEvent } from "./events.js"
import type { OrganizationStatements } from "./roles.js"

type Awaitable<T> = T | PromiseLike<T>

/** What `invitations.send` gets: everything an email needs. */
export interface InvitationMessage {
  /** The invited address. */
  email: string
  /** The link to accept: `acceptUrl` with `?token=…`. Single use; it expires at `expires`. */
  url: string
  organization: { id: string; name: string; slug: string }
  /** Who invited, as their account says. */
  invitedBy: { name: string | null; email: string | null }
  roles: string[]
  expires: Date
  /** 1 the first time, then 2, 3… for each resend. */
  send: number
}

/** The options of {@link organizations}. */
export interface OrganizationsOptions<S extends Statements = Statements, R extends string = string> {
  /**
   * Who may create an organization: every signed-in user (`true`, the default), nobody through the
   * endpoint (`false`: the app's server code creates them with the server function), or the answer
   * of a function of the user.
   */
  allowCreate?: boolean | ((user: { id: string; email: string | null; name: string | null }) => Awaitable<boolean>)
  /**
   * The app's own resources and their actions, checked with `hasPermission` alongside the
   * module's (`organization`, `member`, `invitation`), whose names they may not take.
   */
  statements?: S
  /**
   * Roles: grants added to the built-in `admin` and `member`, and roles of the app's own. `owner`
   * holds everything already. Types reject a resource or action the statements do not have.
   */
  roles?: { readonly [K in R]: Grants<OrganizationStatements & S> }
  /**
   * Roles an organization defines for itself: its admins (`organization: ["update"]`) write named
   * sets of grants, within what they hold themselves, beside the configuration's roles. Off by
   * default: then only the configuration's roles exist, and no check reads the store for roles.
   */
  dynamicRoles?: boolean
  /** Invitations by email; without `send`, inviting is off. */
  invitations?: {
    /** Sends the invitation (an email with `url`). A failure is the inviter's error; nothing is stored then. */
    send(message: InvitationMessage): Awaitable<void>
    /**
     * The app's page that accepts an invitation (a path on the app, or a URL on its origin), which
     * the link opens with `?token=…`: it shows `getInvitation(token)` and calls
     * `acceptInvitation(token)` once the invited user is signed in. Default `/accept-invitation`.
     */
    acceptUrl?: string
    /** How long a link works, in seconds. Default 7 days. */
    expiresIn?: number
    /** How many times one invitation may be sent, the first included. Default 3. */
    maxSends?: number
  }
  /** Verified domains: where their DNS is looked up, and the TXT record's name. */
  domains?: DomainOptions
  /** Called after every change (created, renamed, a member added…). A failure is logged and changes nothing. */
  onChange?(event: OrganizationEvent): Awaitable<void>
}

/** The options with their defaults. */
export interface ResolvedOptions {
  allowCreate: NonNullable<OrganizationsOptions["allowCreate"]>
  dynamicRoles: boolean
  invitations: { send: NonNullable<OrganizationsOptions["invitations"]>["send"]; acceptUrl: string; expiresIn: number; maxSends: number } | undefined
  onChange: OrganizationsOptions["onChange"]
}

const week = 7 * 24 * 3600

/** Checks `options`; throws a `TypeError` naming the option that is wrong. */
export function resolveOptions(options: OrganizationsOptions<Statements, string>): ResolvedOptions {
  if (options === null || typeof options !== "object") throw new TypeError("organizations: the options must be an object.")
  const { allowCreate = true, invitations, onChange, dynamicRoles = false } = options
  if (typeof dynamicRoles !== "boolean") throw new TypeError("organizations: `dynamicRoles` must be a boolean.")
  if (typeof allowCreate !== "boolean" && typeof allowCreate !== "function") throw new TypeError("organizations: `allowCreate` must be a boolean or a function.")
  if (onChange !== undefined && typeof onChange !== "function") throw new TypeError("organizations: `onChange` must be a function.")
  let resolvedInvitations: ResolvedOptions["invitations"]
  if (invitations !== undefined) {
    const { send, acceptUrl = "/accept-invitation", expiresIn = week, maxSends = 3 } = invitations
    if (typeof send !== "function") throw new TypeError("organizations: `invitations.send` must be a function.")
    if (typeof acceptUrl !== "string" || !(acceptUrl.startsWith("/") || URL.canParse(acceptUrl)) || acceptUrl.startsWith("//")) {
      throw new TypeError("organizations: `invitations.acceptUrl` must be a path on the app or a URL.")
    }
    if (!Number.isInteger(expiresIn) || expiresIn < 60 || expiresIn > 90 * 24 * 3600) throw new TypeError("organizations: `invitations.expiresIn` must be a whole number of seconds from 60 to 90 days.")
    if (!Number.isInteger(maxSends) || maxSends < 1 || maxSends > 20) throw new TypeError("organizations: `invitations.maxSends` must be a whole number from 1 to 20.")
    resolvedInvitations = { send, acceptUrl, expiresIn, maxSends }
  }
  return { allowCreate, dynamicRoles, invitations: resolvedInvitations, onChange }
}
