/**
 * The app's whole Sesame configuration.
 *
 * - Credentials: the demo account (`DEMO_EMAIL` / `DEMO_PASSWORD`, by default demo@example.com /
 *   sesame-demo).
 * - OpenID Connect: a provider with id `dev-idp`, offered when `AUTH_DEV_IDP_ISSUER` is set; Sesame
 *   reads its client from `AUTH_DEV_IDP_ID` and `AUTH_DEV_IDP_SECRET`. `server.mjs` starts
 *   `@sesame/dev-idp` and sets all three when they are not set.
 * - JWT sessions (no adapter); the endpoints under `/auth`, the default.
 * - `pages.signIn`: the app's own sign-in page, where the guard sends signed-out visitors.
 */
import { createHash, timingSafeEqual } from "node:crypto"
import Credentials from "@sesame/core/providers/credentials"

const demoEmail = (process.env.DEMO_EMAIL ?? "demo@example.com").toLowerCase()
const demoPassword = process.env.DEMO_PASSWORD ?? "sesame-demo"
export const demoUser = { id: "demo-user", name: "Demo User", email: demoEmail }

/** Compares digests, so that the time taken says nothing about how much of the value matched. */
const same = (given, expected) => timingSafeEqual(createHash("sha256").update(String(given ?? "")).digest(), createHash("sha256").update(expected).digest())

const providers = [
  Credentials({
    name: "email and password",
    credentials: {
      email: { label: "Email", type: "email", autocomplete: "username" },
      password: { label: "Password", type: "password", autocomplete: "current-password" },
    },
    authorize({ email, password }) {
      // Both compared every time: a wrong address takes as long as a wrong password.
      const emailMatches = same(String(email ?? "").trim().toLowerCase(), demoEmail)
      const passwordMatches = same(password, demoPassword)
      return emailMatches && passwordMatches ? demoUser : null
    },
  }),
]
if (process.env.AUTH_DEV_IDP_ISSUER) providers.push({ id: "dev-idp", name: "Sesame Dev IdP", type: "oidc" })

/** @type {import("@sesame/hono").AuthConfig} */
export const authConfig = {
  providers,
  pages: { signIn: "/login" },
  callbacks: {
    session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }),
  },
}
