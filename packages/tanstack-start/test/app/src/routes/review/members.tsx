// A page guarded as the README shows: requireSession through a server function in beforeLoad.
import { createFileRoute } from "@tanstack/react-router"
import { requireUser } from "../../review"

export const Route = createFileRoute("/review/members")({
  beforeLoad: async ({ location }) => ({ member: await requireUser({ data: location.href }) }),
  component: () => <h1>The members page of {Route.useRouteContext().member}</h1>,
})
