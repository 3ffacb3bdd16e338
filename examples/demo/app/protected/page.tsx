import { redirect } from "next/navigation"
import { auth, basePath } from "../../auth"

export const dynamic = "force-dynamic"

/** Only signed-in visitors see this page; the others go to the sign-in page and come back. */
export default async function Protected() {
  const session = await auth()
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
