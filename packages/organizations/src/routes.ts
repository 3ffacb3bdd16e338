/**
 * The module's endpoints, at `<basePath>/organization/…`: each reads its fields from the query (a
 * GET) or the form or JSON body (a POST, same-origin checked and with the CSRF token, as every
 * module POST), runs the same function as the server function of that name, and answers JSON. A
 * refusal is `{ error: code, message }` with its status ({@link OrganizationError}).
 *
 * @module
 */
import type { ModuleRequest, ModuleRoute } from "@sesame/core"
import type { Grants, Statements } from "@sesame/core/access"
import { setActiveOrganization } from "./active.js"
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
import { listMembers, removeMember, setMemberRoles } from "./members.js"
import { createOrganization, deleteOrganization, getOrganization, leaveOrganization, listOrganizations, updateOrganization } from "./organizations.js"
import { hasPermission } from "./permissions.js"
import { field, present, rolesField, route } from "./route.js"

/** The endpoints of the module for `deps`. */
export function organizationRoutes(deps: Deps): Record<string, ModuleRoute> {
  const id = (request: ModuleRequest) => field(request, "organizationId") as string
  return {
    "POST organization/create": route((r) => createOrganization(deps, r, present(r, ["name", "slug", "logo", "metadata"]) as never)),
    "GET organization/list": route((r) => listOrganizations(r)),
    "GET organization/get": route((r) => getOrganization(r, present(r, ["organizationId", "slug"]))),
    "POST organization/update": route((r) => updateOrganization(deps, r, id(r), present(r, ["name", "slug", "logo", "metadata"]) as never)),
    "POST organization/delete": route((r) => deleteOrganization(deps, r, id(r))),
    "POST organization/leave": route((r) => leaveOrganization(deps, r, id(r))),
    "POST organization/active": route((r) => setActiveOrganization(r, (field(r, "organizationId") ?? null) as string | null)),
    "GET organization/members": route((r) => listMembers(r, id(r))),
    "POST organization/members/roles": route((r) => setMemberRoles(deps, r, id(r), field(r, "memberId") as string, rolesField(r))),
    "POST organization/members/remove": route((r) => removeMember(deps, r, id(r), field(r, "memberId") as string)),
    // Each sends an email: counted as the core's emails are, per client.
    "POST organization/invitations/create": { ...route((r) => inviteMember(deps, r, id(r), field(r, "email") as string, (field(r, "roles") ?? ["member"]) as string[])), rateLimit: "email" },
    "POST organization/invitations/resend": { ...route((r) => resendInvitation(deps, r, id(r), field(r, "invitationId") as string)), rateLimit: "email" },
    "POST organization/invitations/cancel": route((r) => cancelInvitation(deps, r, id(r), field(r, "invitationId") as string)),
    "GET organization/invitations": route((r) => listInvitations(deps, r, id(r))),
    "GET organization/invitations/received": route((r) => listReceivedInvitations(r)),
    "GET organization/invitations/preview": route((r) => getInvitation(r, field(r, "token") as string)),
    "POST organization/invitations/accept": route((r) => acceptInvitation(deps, r, field(r, "token") as string)),
    "POST organization/invitations/decline": route((r) => declineInvitation(deps, r, field(r, "token") as string)),
    "POST organization/invitations/received/accept": route((r) => acceptReceivedInvitation(deps, r, field(r, "invitationId") as string)),
    "POST organization/invitations/received/decline": route((r) => declineReceivedInvitation(deps, r, field(r, "invitationId") as string)),
    // A question, not a change: no CSRF token needed (a POST only because the permissions are JSON).
    "POST organization/has-permission": { ...route(async (r) => ({ allowed: await hasPermission(deps, r, id(r), field(r, "permissions") as Grants<Statements>) })), csrf: false },
  }
}
