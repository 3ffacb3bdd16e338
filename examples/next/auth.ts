/**
 * The app's whole Sesame configuration.
 *
 * - Credentials: the demo account (`DEMO_EMAIL` / `DEMO_PASSWORD`).
 * - OpenID Connect: an identity provider with id `dev-idp`, offered when `AUTH_DEV_IDP_ISSUER` is
 *   set; its client comes from `AUTH_DEV_IDP_ID` and `AUTH_DEV_IDP_SECRET` (Sesame reads all three).
 *   `@sesame/dev-idp` is such a provider, for development.
 * - JWT sessions, so that the guard also runs as `middleware.ts` on the Edge runtime (Next.js 15).
 * - `/protected` needs a session; `callbacks.authorized` says so, and `proxy.ts` applies it.
 */
import type { Provider } from "@sesame/core"
import Credentials from "@sesame/core/providers/credentials"
import Sesame from "@sesame/next"
import { checkDemoAccount } from "./lib/demo-account"

export const basePath = "/api/auth"

const providers: Provider[] = [
  Credentials({
    name: "email and password",
    credentials: {
      email: { label: "Email", type: "email", autocomplete: "username" },
      password: { label: "Password", type: "password", autocomplete: "current-password" },
    },
    authorize: ({ email, password }) => checkDemoAccount(email, password),
  }),
]
if (process.env.AUTH_DEV_IDP_ISSUER) {
  providers.push({ id: "dev-idp", name: "Sesame Dev IdP", type: "oidc" })
}

export const { handlers, auth, signIn, signOut, unstable_update } = Sesame({
  basePath,
  providers,
  pages: { signIn: "/signin" },
  debug: process.env.SESAME_DEBUG === "1",
  callbacks: {
    authorized: ({ request, auth }) => {
      if (request.nextUrl.pathname.startsWith("/protected")) return !!auth?.user
      return true
    },
    jwt: ({ token, trigger, session }) => {
      // `update({ user: { name } })` from the browser or the server: the only field users may change.
      const name = (session as { user?: { name?: unknown } } | undefined)?.user?.name
      if (trigger === "update" && typeof name === "string" && name.trim()) token.name = name.trim().slice(0, 80)
      return token
    },
    session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }),
  },
})
