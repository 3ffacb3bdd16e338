// Server functions, called by the tests over HTTP as the browser calls them (x-tsr-serverFn).
import { getSession, requireSession, signOut } from "@sesame/tanstack-start"
import { createServerFn } from "@tanstack/react-start"

export const whoAmI = createServerFn({ method: "GET" }).handler(async () => (await getSession())?.user?.email ?? null)
export const mustBeSignedIn = createServerFn({ method: "GET" }).handler(async () => (await requireSession()).user.email)
export const leave = createServerFn({ method: "POST" }).handler(() => signOut({ redirectTo: "/" }))
