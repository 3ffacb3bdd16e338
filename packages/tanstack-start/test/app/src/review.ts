// Server functions of the review's attacks (../../review.test.ts), written as the README shows them.
import { requireSession, signIn } from "@sesame/tanstack-start"
import { createServerFn } from "@tanstack/react-start"

/** The README's password sign-in: the form's fields, the way back chosen by the caller. */
export const signInWith = createServerFn({ method: "POST" })
  .validator((data: { email: string; password: string; redirectTo?: string }) => data)
  .handler(({ data }) => signIn("credentials", data))

/** The README's route guard, for a route's beforeLoad: the session, or the redirect it throws. */
export const requireUser = createServerFn({ method: "GET" })
  .validator((returnTo: string) => returnTo)
  .handler(async ({ data }) => (await requireSession({ returnTo: data })).user.email)
