import Link from "next/link"
import { redirect } from "next/navigation"
import { isStorageUnavailable } from "@sesame/next"
import { basePath, organizationsApi } from "../../auth"
import { sessionOrOutage } from "../../lib/session"
import { OrganizationNotice } from "../components/organization-notice"
import { Unavailable } from "../components/unavailable"
import { cancelInvitationAction, createOrganizationAction, inviteMemberAction, setActiveOrganizationAction } from "./actions"

export const dynamic = "force-dynamic"

const day = (date: Date) => new Date(date).toISOString().slice(0, 10)

/**
 * The user's organizations (`@sesame/organizations`): their roles in each, "Make active", a form to
 * create one; for the active organization, its members and, for those who may invite, the invite
 * form and the pending invitations; for its owners and admins, a link to its domains and single
 * sign-on (app/organizations/sso).
 */
export default async function Organizations({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await sessionOrOutage()
  if (isStorageUnavailable(session)) return <Unavailable error={session} retry="/organizations" />
  if (!session?.user) redirect(`${basePath}/signin?callbackUrl=${encodeURIComponent("/organizations")}`)
  const { notice } = await searchParams
  const active = session.organization
  const [organizations, members, mayInvite, mayUpdate] = await Promise.all([
    organizationsApi.listOrganizations(),
    active ? organizationsApi.listMembers(active.id) : Promise.resolve([]),
    active ? organizationsApi.hasPermission(active.id, { invitation: ["create"] }) : Promise.resolve(false),
    active ? organizationsApi.hasPermission(active.id, { organization: ["update"] }) : Promise.resolve(false),
  ])
  const invitations = active && mayInvite ? await organizationsApi.listInvitations(active.id) : []

  return (
    <>
      <h1>Organizations</h1>
      <OrganizationNotice notice={notice} />
      <p>
        This page is the app&apos;s own, built on the server functions. The plugin also brings{" "}
        <a href={`${basePath}/organization`} data-testid="built-in-organization-pages">
          built-in organization pages
        </a>{" "}
        (switcher, members and roles, invitations), in five languages.
      </p>

      <section aria-labelledby="yours-heading">
        <h2 id="yours-heading">Your organizations</h2>
        {organizations.length > 0 ? (
          <ul data-testid="organizations">
            {organizations.map((organization) => (
              <li key={organization.id} data-active={organization.id === active?.id ? "true" : "false"}>
                <strong>{organization.name}</strong> <span className="muted">({organization.roles.join(", ")})</span>{" "}
                {organization.id === active?.id ? (
                  <span className="badge">active</span>
                ) : (
                  <form action={setActiveOrganizationAction} className="inline-form">
                    <input type="hidden" name="organizationId" value={organization.id} />
                    <button type="submit" aria-label={`Make active: ${organization.name}`}>
                      Make active
                    </button>
                  </form>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">You belong to no organization yet.</p>
        )}
        <form action={createOrganizationAction} className="fields">
          <label htmlFor="organization-name">New organization’s name</label>
          <input id="organization-name" name="name" required maxLength={100} autoComplete="organization" />
          <p>
            <button type="submit">Create organization</button>
          </p>
        </form>
      </section>

      {active ? (
        <section aria-labelledby="active-heading">
          <h2 id="active-heading">{active.name}</h2>
          <p className="muted">
            Your active organization; your roles: {active.roles.join(", ")}. <Link href="/organizations/reports">Reports</Link> (admins
            and owners).
            {mayUpdate ? (
              <>
                {" "}
                <Link href="/organizations/sso">Domains and single sign-on</Link>.
              </>
            ) : null}
          </p>
          <h3 id="members-heading">Members</h3>
          <table data-testid="members" aria-labelledby="members-heading">
            <thead>
              <tr>
                <th>Name</th>
                <th>Address</th>
                <th>Roles</th>
              </tr>
            </thead>
            <tbody>
              {members.map((member) => (
                <tr key={member.id}>
                  <td>{member.user.name ?? "—"}</td>
                  <td>{member.user.email ?? "—"}</td>
                  <td>{member.roles.join(", ")}</td>
                </tr>
              ))}
            </tbody>
          </table>

          {mayInvite ? (
            <>
              <h3>Invite someone</h3>
              <form action={inviteMemberAction} className="fields" data-testid="invite">
                <input type="hidden" name="organizationId" value={active.id} />
                <label htmlFor="invite-email">Email address</label>
                <input id="invite-email" name="email" type="email" required autoComplete="off" />
                <label htmlFor="invite-role">Role</label>
                <select id="invite-role" name="role" defaultValue="member">
                  <option value="member">Member (reads reports)</option>
                  <option value="admin">Admin (publishes reports, invites)</option>
                </select>
                <p>
                  <button type="submit">Send invitation</button>
                </p>
              </form>
              <h3 id="invitations-heading">Pending invitations</h3>
              {invitations.length > 0 ? (
                <ul data-testid="invitations" aria-labelledby="invitations-heading">
                  {invitations.map((invitation) => (
                    <li key={invitation.id}>
                      {invitation.email} <span className="muted">({invitation.roles.join(", ")}, until {day(invitation.expires)})</span>{" "}
                      <form action={cancelInvitationAction} className="inline-form">
                        <input type="hidden" name="organizationId" value={active.id} />
                        <input type="hidden" name="invitationId" value={invitation.id} />
                        <button type="submit" aria-label={`Cancel the invitation of ${invitation.email}`}>
                          Cancel
                        </button>
                      </form>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="muted">None.</p>
              )}
            </>
          ) : null}
        </section>
      ) : organizations.length > 0 ? (
        <p className="muted">Make an organization active to see its members.</p>
      ) : null}
    </>
  )
}
