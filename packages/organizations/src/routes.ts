/**
 * The module's endpoints, at `<basePath>/organization/…`: each reads its fields from the query (a
 * GET) or the form or JSON body (a POST, same-origin checked and with the CSRF token, as every
 * module POST), runs the same function as the server function of that name, and answers JSON. A
 * refusal is `{ error: code, message }` with its status ({@link OrganizationError}).
 *
 * @module
 */
import type { ModuleRequest, ModuleResponse, ModuleRoute } from "@sesame/core"
import type { Grants, Statements } from "@sesame/core/access"
import { setActiveOrganization } from "./active.js"
import type { Deps } from "./context.js"
import { OrganizationError } from "./errors.js"
import { acceptInvitation, cancelInvitation, declineInvitation, getInvitation, inviteMember, listInvitations, listReceivedInvitations, resendInvitation } from "./invitations.js"
import { listMembers, removeMember, setMemberRoles } from "./members.js"
import { createOrganization, deleteOrganization, getOrganization, leaveOrganization, listOrganizations, updateOrganization } from "./organizations.js"
import { hasPermission } from "./permissions.js"

/** A field as the action takes it: a string from a form or query, or any JSON value. */
const field = (request: ModuleRequest, name: string): unknown => (request.method === "GET" ? request.query[name] : request.body[name])

/** `roles`: one role name from a form, or a JSON list of them. */
const rolesField = (request: ModuleRequest): string[] => field(request, "roles") as string[]

/** The fields of `names` the request has. */
const present = (request: ModuleRequest, names: string[]) => Object.fromEntries(names.flatMap((name) => (field(request, name) === undefined ? [] : [[name, field(request, name)]])))

/** Runs `action` and answers its result as JSON, or its refusal. */
function route(action: (request: ModuleRequest) => Promise<unknown>): ModuleRoute {
  return {
    async run(request): Promise<ModuleResponse> {
      try {
        const result = await action(request)
        return result === undefined ? { status: 204 } : { body: result }
      } catch (error) {
        if (error instanceof OrganizationError) return { status: error.status, body: { error: error.code, message: error.message } }
        throw error
      }
    },
  }
}

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
    "POST organization/invitations/create": route((r) => inviteMember(deps, r, id(r), field(r, "email") as string, (field(r, "roles") ?? ["member"]) as string[])),
    "POST organization/invitations/resend": route((r) => resendInvitation(deps, r, id(r), field(r, "invitationId") as string)),
    "POST organization/invitations/cancel": route((r) => cancelInvitation(deps, r, id(r), field(r, "invitationId") as string)),
    "GET organization/invitations": route((r) => listInvitations(deps, r, id(r))),
    "GET organization/invitations/received": route((r) => listReceivedInvitations(r)),
    "GET organization/invitations/preview": route((r) => getInvitation(r, field(r, "token") as string)),
    "POST organization/invitations/accept": route((r) => acceptInvitation(deps, r, field(r, "token") as string)),
    "POST organization/invitations/decline": route((r) => declineInvitation(deps, r, field(r, "token") as string)),
    // A question, not a change: no CSRF token needed (a POST only because the permissions are JSON).
    "POST organization/has-permission": { ...route(async (r) => ({ allowed: await hasPermission(deps, r, id(r), field(r, "permissions") as Grants<Statements>) })), csrf: false },
  }
}
