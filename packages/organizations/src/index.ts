/**
 * Organizations for Sesame, as a feature module: organizations with members, several roles per
 * member, typed permissions, invitations by email, teams, verified domains, and the active organization in the session.
 *
 * ```ts
 * import { organizations } from "@sesame/organizations"
 *
 * export const orgs = organizations({
 *   statements: { project: ["create", "read", "delete"] },
 *   roles: { member: { project: ["read"] }, admin: { project: ["create", "read"] } },
 *   invitations: { send: ({ email, url }) => mailer.send(email, url), acceptUrl: "/invitations/accept" },
 * })
 * // plugins: [orgs] in the Sesame configuration
 * ```
 *
 * @module
 */
import type { ModuleContext, ModuleRequest, SesameModule } from "@sesame/core"
import type { Grants, Statements } from "@sesame/core/access"
import { activeSessionPart, activeTokenClaims, setActiveOrganization, type ActiveOrganization } from "./active.js"
import type { Deps } from "./context.js"
import {
  acceptInvitation,
  acceptReceivedInvitation,
  cancelInvitation,
  declineInvitation,
  declineReceivedInvitation,
  getInvitation,
  inviteMember,
  listInvitations,
  listReceivedInvitations,
  resendInvitation,
} from "./invitations.js"
import { join, refusedRoles, type JoinOutcome } from "./join.js"
import { organizationMessages } from "./messages.js"
import { aboutUser, accountSection, pageRoutes } from "./pages.js"
import { deprovision, forgetDeparture, provisionRoles, type DeprovisionOutcome, type ProvisioningInput, type ProvisionRolesOutcome } from "./provisioning.js"
import { listMembers, removeMember, setMemberRoles } from "./members.js"
import { organizationModels } from "./models.js"
import { resolveOptions, type OrganizationsOptions } from "./options.js"
import { createOrganization, deleteOrganization, getOrganization, leaveOrganization, listOrganizations, updateOrganization, type CreateOrganizationInput, type UpdateOrganizationInput } from "./organizations.js"
import { hasPermission } from "./permissions.js"
import { roleBook, type OrganizationStatements } from "./roles.js"
import { organizationRoutes } from "./routes.js"
import { teamApi, teamModels, teamRoutes } from "./teams.js"
import { domainApi, domainModel, domainRoutes, domainSignIn } from "./domains.js"
import { roleApi, roleRoutes } from "./custom-roles.js"
import { roleModel } from "./stored-roles.js"

export { OrganizationError, organizationErrorStatus, type OrganizationErrorCode } from "./errors.js"
export type { OrganizationEvent } from "./events.js"
export type { ActiveOrganization } from "./active.js"
export type { Organization, Membership } from "./context.js"
export type { Accepted, InvitationInfo, InvitationPreview } from "./invitations.js"
export type { JoinOutcome } from "./join.js"
export type { MemberInfo } from "./members.js"
export type { DeprovisionOutcome, ProvisioningInput, ProvisionRolesOutcome } from "./provisioning.js"
export type { InvitationMessage, OrganizationsOptions } from "./options.js"
export type { CreateOrganizationInput, OrganizationWithRoles, UpdateOrganizationInput } from "./organizations.js"
export { builtInRoles, organizationStatements, type OrganizationStatements } from "./roles.js"
export { departureModel, invitationModel, memberModel, organizationModel } from "./models.js"
export { domainModel, type DomainInfo, type DomainOptions } from "./domains.js"
export { roleModel } from "./stored-roles.js"
export type { RoleInfo } from "./custom-roles.js"
export { teamMemberModel, teamModel, teamRoles, type MyTeamInfo, type TeamInfo, type TeamMemberInfo, type TeamRole } from "./teams.js"

/**
 * The organizations module: add it to `plugins`. Its id, `organization`, is where its endpoints
 * live (`<basePath>/organization/…`) and the key of the active organization in the session
 * (`session.organization`).
 *
 * Throws a `TypeError` when an option is wrong: an app resource named like the module's own, a
 * role granting what the statements do not have, an invitation option out of range.
 */
export function organizations<const S extends Statements = {}, const R extends string = never>(options: OrganizationsOptions<S, R> = {}) {
  const resolved = resolveOptions(options as OrganizationsOptions<Statements, string>)
  const deps: Deps = { options: resolved, book: roleBook(options.statements, options.roles as Record<string, Grants<Statements>> | undefined) }
  type Wanted = Grants<OrganizationStatements & S>
  const api = {
    createOrganization: (request: ModuleRequest, input: CreateOrganizationInput) => createOrganization(deps, request, input),
    listOrganizations: (request: ModuleRequest) => listOrganizations(request),
    getOrganization: (request: ModuleRequest, which: { organizationId: string } | { slug: string }) => getOrganization(request, which),
    updateOrganization: (request: ModuleRequest, organizationId: string, input: UpdateOrganizationInput) => updateOrganization(deps, request, organizationId, input),
    deleteOrganization: (request: ModuleRequest, organizationId: string) => deleteOrganization(deps, request, organizationId),
    leaveOrganization: (request: ModuleRequest, organizationId: string) => leaveOrganization(deps, request, organizationId),
    setActiveOrganization: (request: ModuleRequest, organizationId: string | null): Promise<ActiveOrganization | null> => setActiveOrganization(request, organizationId),
    listMembers: (request: ModuleRequest, organizationId: string) => listMembers(request, organizationId),
    setMemberRoles: (request: ModuleRequest, organizationId: string, memberId: string, roles: string[]) => setMemberRoles(deps, request, organizationId, memberId, roles),
    removeMember: (request: ModuleRequest, organizationId: string, memberId: string) => removeMember(deps, request, organizationId, memberId),
    inviteMember: (request: ModuleRequest, organizationId: string, email: string, roles?: string[]) => inviteMember(deps, request, organizationId, email, roles),
    resendInvitation: (request: ModuleRequest, organizationId: string, invitationId: string) => resendInvitation(deps, request, organizationId, invitationId),
    cancelInvitation: (request: ModuleRequest, organizationId: string, invitationId: string) => cancelInvitation(deps, request, organizationId, invitationId),
    listInvitations: (request: ModuleRequest, organizationId: string) => listInvitations(deps, request, organizationId),
    listReceivedInvitations: (request: ModuleRequest) => listReceivedInvitations(request),
    getInvitation: (request: ModuleRequest, token: string) => getInvitation(request, token),
    acceptInvitation: (request: ModuleRequest, token: string) => acceptInvitation(deps, request, token),
    declineInvitation: (request: ModuleRequest, token: string) => declineInvitation(deps, request, token),
    /** Accepts one of `listReceivedInvitations` by its id: the same rules as the link's token. */
    acceptReceivedInvitation: (request: ModuleRequest, invitationId: string) => acceptReceivedInvitation(deps, request, invitationId),
    declineReceivedInvitation: (request: ModuleRequest, invitationId: string) => declineReceivedInvitation(deps, request, invitationId),
    /** Whether the signed-in user's roles in `organizationId` grant every action of `permissions`. */
    hasPermission: (request: ModuleRequest, organizationId: string, permissions: Wanted) => hasPermission(deps, request, organizationId, permissions as Grants<Statements>),
    ...teamApi(deps),
    ...domainApi(deps, options.domains),
    ...roleApi(deps),
  }
  const module = {
    id: "organization",
    models: [...organizationModels, ...teamModels, domainModel, roleModel],
    keepsSessionPart: true,
    session: activeSessionPart,
    tokenClaims: activeTokenClaims,
    routes: { ...organizationRoutes(deps), ...teamRoutes(deps), ...domainRoutes(deps, options.domains), ...roleRoutes(deps), ...pageRoutes(deps) },
    messages: organizationMessages,
    accountSection,
    aboutUser,
    events: { signIn: domainSignIn(deps) },
    api,
  } satisfies SesameModule
  const storeIn = (context: ModuleContext) => {
    if (!context.store) throw new TypeError("organizations: no store (the module is off without one).")
    return context.store
  }
  return Object.assign(module, {
    /**
     * For other modules, not the app's requests: makes a user a member on the word of a party the
     * organization trusts (its own identity provider), by the rules of a verified domain's
     * auto-join (`join.ts`): unknown roles and `owner` dropped, a member unchanged, someone who
     * left or was removed kept out. `member.added` names `actorId` as who made it (default: the
     * user; `scim:<connection id>` for an identity provider's SCIM provisioning).
     */
    join: (context: ModuleContext, input: { organizationId: string; userId: string; roles: readonly string[]; actorId?: string }): Promise<JoinOutcome> => join(deps, storeIn(context), context, input),
    /**
     * For other modules: removes a member their organization's identity provider deprovisions
     * (`provisioning.ts`), as an admin's removal does (the departure noted, so that auto-join does
     * not bring them back), and reports `member.removed` by `actorId`. Never an owner (`owner`);
     * `conflict` when the membership changed meanwhile. `removed` carries the departure's instant,
     * for {@link forgetDeparture}. Their sessions are the caller's to end.
     */
    deprovision: (context: ModuleContext, input: ProvisioningInput): Promise<DeprovisionOutcome> => deprovision(deps, storeIn(context), context, input),
    /**
     * For other modules: gives a member `add` and takes `remove` as their identity provider's
     * groups change (`provisioning.ts`), and reports `member.roles-changed` by `actorId` when the
     * roles change. Never `owner`, never a role the organization does not define, never the last
     * role; `conflict` when the membership kept changing meanwhile.
     */
    provisionRoles: (context: ModuleContext, input: ProvisioningInput & { add?: readonly string[]; remove?: readonly string[] }): Promise<ProvisionRolesOutcome> => provisionRoles(deps, storeIn(context), context, input),
    /**
     * For other modules: takes away a user's departure from an organization only when it is the
     * one noted at `at` (what {@link deprovision} answered), so that a reactivation lets them
     * {@link join} again while someone who left, or whom an admin removed, since stays out.
     */
    forgetDeparture: (context: ModuleContext, input: { organizationId: string; userId: string; at: Date }): Promise<boolean> => forgetDeparture(storeIn(context), input),
    /**
     * Why the request's user may not let another party give `roles` in `organizationId` (unknown
     * roles, `owner`, or roles beyond their own), or null when they may: what a module checks
     * before it stores roles that {@link join} will give later.
     */
    refusedRoles: (request: ModuleRequest, organizationId: string, roles: readonly string[]): Promise<string | null> => refusedRoles(deps, request, organizationId, roles),
  })
}
