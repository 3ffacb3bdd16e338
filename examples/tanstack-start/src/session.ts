// src/session.ts: the server functions the pages call. Their handlers run on the server only (in
// the browser, a call is a request to the server), so they may use Sesame's server functions.
import { CredentialsSignin } from "@sesame/core/errors"
import { getSession, requireSession, signIn, signOut } from "@sesame/tanstack-start"
import { createServerFn } from "@tanstack/react-start"
import { oidcProvider } from "./auth"

/** The session, for the root route's `beforeLoad`: the header of every page shows it. */
export const fetchSession = createServerFn({ method: "GET" }).handler(async () => {
  const session = await getSession()
  return { user: session?.user ? { name: session.user.name ?? null, email: session.user.email ?? null } : null }
})

/** A route's guard: the signed-in user, or the redirect to the sign-in page and back to `returnTo`. */
export const requireUser = createServerFn({ method: "GET" })
  .validator((returnTo: string) => returnTo)
  .handler(async ({ data }) => {
    const session = await requireSession({ returnTo: data })
    return { name: session.user.name ?? null, email: session.user.email ?? null }
  })

/** What the sign-in page shows of the OpenID Connect provider (its configuration stays on the server). */
export const signInOptions = createServerFn({ method: "GET" }).handler(async () => ({
  oidc: oidcProvider ? { id: oidcProvider.id, name: oidcProvider.name } : null,
}))

/** Signs in with the demo account, a password account or the OpenID Connect provider. */
export const signInWith = createServerFn({ method: "POST" })
  .validator((data: { provider: string; email?: string; password?: string; redirectTo: string }) => data)
  .handler(async ({ data }) => {
    // To the provider's authorization page, and back through /auth/callback/dev-idp.
    if (oidcProvider && data.provider === oidcProvider.id) return { error: null, url: await signIn(oidcProvider.id, { redirectTo: data.redirectTo }) }
    try {
      // Only the fields meant for the provider; on success, signIn throws the redirect to `redirectTo`.
      const provider = data.provider === "password" ? "password" : "credentials"
      return { error: null, url: await signIn(provider, { email: data.email, password: data.password, redirectTo: data.redirectTo }) }
    } catch (error) {
      if (!(error instanceof CredentialsSignin)) throw error
      return { error: "Wrong email or password.", url: null }
    }
  })

/** Signs out, and back to the home page. */
export const signOutNow = createServerFn({ method: "POST" }).handler(() => signOut({ redirectTo: "/" }))
