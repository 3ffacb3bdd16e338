import { auth } from "../auth.js"

/** The session as this component's auth() call sees it: `<name> #<read>`, or `signed out`. */
export async function SessionView({ id }: { id: string }) {
  const session = (await auth()) as { user?: { name?: string | null }; read?: number } | null
  return <p id={id}>{session ? `${session.user?.name ?? "no name"} #${session.read ?? "?"}` : "signed out"}</p>
}
