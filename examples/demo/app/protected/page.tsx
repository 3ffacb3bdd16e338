import { redirect } from "next/navigation"
import { isStorageUnavailable } from "@sesame/next"
import { basePath } from "../../auth"
import { sessionOrOutage } from "../../lib/session"
import { Unavailable } from "../components/unavailable"

export const dynamic = "force-dynamic"

/**
 * Only signed-in visitors see this page; the others go to the sign-in page and come back. While
 * the database cannot be reached, nothing is known of the visitor's session: "try again", never
 * the sign-in page.
 */
export default async function Protected() {
  const session = await sessionOrOutage()
  if (isStorageUnavailable(session)) return <Unavailable error={session} retry="/protected" />
  if (!session?.user) redirect(`${basePath}/signin?callbackUrl=${encodeURIComponent("/protected")}`)
  return (
    <>
      <h1>Protected page</h1>
      <p data-testid="protected-user">
        Only signed-in users see this. Hello, <strong>{session.user.name ?? session.user.email}</strong>.
      </p>
    </>
  )
}
