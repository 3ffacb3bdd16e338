/**
 * The app's Sesame configuration: one object, given to every @sesame/express function.
 *
 * - Credentials: one fixed demo account, `demo@example.com` / `sesame-demo` (an app checks its own
 *   user store in `authorize`).
 * - OpenID Connect: the provider `dev-idp`, offered when there is one: `AUTH_DEV_IDP_ISSUER`,
 *   `AUTH_DEV_IDP_ID` and `AUTH_DEV_IDP_SECRET` in the environment (Sesame reads them), or the
 *   development IdP that `server.mjs` starts itself with `SESAME_DEV_IDP=1`.
 * - `pages.signIn`: the app's own `/login` page, where the guard sends visitors (through Sesame,
 *   which adds the way back).
 */
import { createHash, timingSafeEqual } from "node:crypto"
import Credentials from "@sesame/core/providers/credentials"

export const demoAccount = { email: "demo@example.com", password: "sesame-demo" }
const demoUser = { id: "demo-user", name: "Demo User", email: demoAccount.email }

const digest = (value) => createHash("sha256").update(String(value ?? "")).digest()

/** The demo user when both match, else null. Both are always compared, in constant time. */
function checkDemoAccount(email, password) {
  const emailMatches = timingSafeEqual(digest(String(email ?? "").trim().toLowerCase()), digest(demoAccount.email))
  const passwordMatches = timingSafeEqual(digest(password), digest(demoAccount.password))
  return emailMatches && passwordMatches ? demoUser : null
}

/**
 * The configuration. `devIdp` is a development IdP started by `server.mjs` (`{ issuer, clientId,
 * clientSecret }`); without it, the OpenID provider comes from the environment when set there.
 */
export function createAuthConfig({ devIdp } = {}) {
  const providers = [
    Credentials({
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      authorize: ({ email, password }) => checkDemoAccount(email, password),
    }),
  ]
  if (devIdp) providers.push({ id: "dev-idp", name: "Sesame Dev IdP", type: "oidc", ...devIdp })
  else if (process.env.AUTH_DEV_IDP_ISSUER) providers.push({ id: "dev-idp", name: "Sesame Dev IdP", type: "oidc" })
  return {
    providers,
    pages: { signIn: "/login" },
    callbacks: {
      // The user's id in the session (Sesame keeps it in the token's `sub`).
      session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }),
    },
  }
}
