import Link from "next/link"
import { redirect } from "next/navigation"
import { isStorageUnavailable } from "@sesame/next"
import { basePath, organizationsApi } from "../../../auth"
import { sessionOrOutage } from "../../../lib/session"
import { Unavailable } from "../../components/unavailable"

export const dynamic = "force-dynamic"

/**
 * The active organization's reports: only for members whose roles there grant `report: ["publish"]`
 * (admins and owners), asked of the module at every request (`hasPermission`, from the stored
 * roles, not the session's copy). Others get a message saying what they lack.
 */
export default async function Reports() {
  const session = await sessionOrOutage()
  if (isStorageUnavailable(session)) return <Unavailable error={session} retry="/organizations/reports" />
  if (!session?.user) redirect(`${basePath}/signin?callbackUrl=${encodeURIComponent("/organizations/reports")}`)
  const active = session.organization
  const allowed = active ? await organizationsApi.hasPermission(active.id, { report: ["publish"] }) : false
  if (!active || !allowed) {
    return (
      <>
        <h1>Reports</h1>
        <p role="alert" className="error" data-testid="reports-refused">
          {active ? (
            <>
              You need the admin role in <strong>{active.name}</strong> to see its reports.
            </>
          ) : (
            "You need the admin role in an organization, made active on the organizations page, to see its reports."
          )}
        </p>
        <p>
          <Link href="/organizations">Your organizations</Link>
        </p>
      </>
    )
  }
  return (
    <>
      <h1>Reports of {active.name}</h1>
      <p data-testid="reports">
        You may read and publish the reports of <strong>{active.name}</strong> (your roles: {active.roles.join(", ")}). There are none yet.
      </p>
    </>
  )
}
