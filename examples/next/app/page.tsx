import Link from "next/link"
import { auth } from "../auth"
import { SessionStatus } from "./components/session-status"

export default async function Home() {
  const session = await auth()
  return (
    <>
      <h1>Sesame on Next.js</h1>
      <section aria-labelledby="server-heading">
        <h2 id="server-heading">On the server</h2>
        {session?.user ? (
          <p data-testid="server-user">
            Signed in as <strong>{session.user.name}</strong> ({session.user.email})
          </p>
        ) : (
          <p data-testid="server-user">
            Not signed in. <Link href="/signin">Sign in</Link>
          </p>
        )}
      </section>
      <SessionStatus />
    </>
  )
}
