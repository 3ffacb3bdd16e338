import Link from "next/link"
import { redirect } from "next/navigation"
import { isStorageUnavailable } from "@sesame/next"
import { OrganizationError, type InvitationPreview } from "@sesame/organizations"
import { basePath, organizationsApi } from "../../../auth"
import { sessionOrOutage } from "../../../lib/session"
import { OrganizationNotice } from "../../components/organization-notice"
import { Unavailable } from "../../components/unavailable"
import { acceptInvitationAction } from "../actions"

export const dynamic = "force-dynamic"

/** Why the signed-in user may not accept, in words (`InvitationPreview.reason`). */
const reasons: Record<NonNullable<InvitationPreview["reason"]>, string> = {
  NotSignedIn: "You are not signed in.",
  WrongAccount: "This invitation is for another address. Sign out, then sign in with the address it was sent to.",
  EmailUnverified: "Your address is not confirmed yet. Confirm it (sign in with an emailed link), then come back to this link.",
  AlreadyMember: "You are a member of this organization already.",
}

/**
 * The invitation link (`acceptUrl`): visitors sign in first and come back; a signed-in user sees the
 * organization, the roles and whether they may accept, and an Accept button.
 */
export default async function AcceptInvitation({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token, notice } = await searchParams
  const here = `/organizations/accept?${new URLSearchParams({ token: typeof token === "string" ? token : "" })}`
  const session = await sessionOrOutage()
  if (isStorageUnavailable(session)) return <Unavailable error={session} retry={here} />
  if (!session?.user) redirect(`${basePath}/signin?callbackUrl=${encodeURIComponent(here)}`)

  let invitation: InvitationPreview | null = null
  if (typeof token === "string" && token) {
    try {
      invitation = await organizationsApi.getInvitation(token)
    } catch (error) {
      if (!(error instanceof OrganizationError)) throw error
    }
  }
  if (!invitation) {
    return (
      <>
        <h1>Invitation</h1>
        <p role="alert" className="error" data-testid="invitation">
          This invitation cannot be used: it may have expired, been used or been cancelled. Ask for a new one.
        </p>
        <p>
          <Link href="/organizations">Your organizations</Link>
        </p>
      </>
    )
  }
  return (
    <>
      <h1>Join {invitation.organization.name}</h1>
      <OrganizationNotice notice={notice} />
      <p data-testid="invitation">
        You are invited to <strong>{invitation.organization.name}</strong> as <strong>{invitation.roles.join(", ")}</strong>, at{" "}
        {invitation.email}.
      </p>
      {invitation.acceptable ? (
        <form action={acceptInvitationAction}>
          <input type="hidden" name="token" value={token as string} />
          <button type="submit">Accept the invitation</button>
        </form>
      ) : (
        <p role="alert" className="error" data-testid="invitation-reason">
          {reasons[invitation.reason ?? "NotSignedIn"]}
        </p>
      )}
    </>
  )
}
