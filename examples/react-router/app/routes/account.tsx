// app/routes/account.tsx, at /account
import { requireSession } from "@sesame/react-router"
import type { Route } from "./+types/account"

export const meta: Route.MetaFunction = () => [{ title: "Account · Sesame on React Router" }]

// Guarded here: without a session, `requireSession` throws the redirect to the sign-in page (and
// back), which React Router follows, for the document and a client-side navigation alike.
export async function loader(args: Route.LoaderArgs) {
  const { user } = await requireSession(args)
  return { user }
}

export default function Account({ loaderData: { user } }: Route.ComponentProps) {
  return (
    <>
      <h1>Account</h1>
      <p data-testid="account-user">
        {user.name ?? user.email} ({user.email})
      </p>
    </>
  )
}
