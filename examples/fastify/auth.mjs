/**
 * The app's Sesame configuration: one object, given to the plugin and to every @sesame/fastify
 * function.
 *
 * - Credentials: one fixed demo account, `demo@example.com` / `sesame-demo` (an app checks its own
 *   user store in `authorize`).
 * - Password(): accounts Sesame keeps, made on its built-in sign-up page; their emails (a reset
 *   link) go to the development mailbox that `server.mjs` starts, shown on `/dev/mailbox`.
 * - OpenID Connect: the provider `dev-idp`, offered when there is one: `AUTH_DEV_IDP_ISSUER`,
 *   `AUTH_DEV_IDP_ID` and `AUTH_DEV_IDP_SECRET` in the environment (Sesame reads them), or the
 *   development IdP that `server.mjs` starts itself with `SESAME_DEV_IDP=1`.
 * - `pages.signIn`: the app's own `/login` page, where the guard sends visitors (through Sesame,
 *   which adds the way back).
 * - MemoryAdapter: users, password hashes and sessions in memory, forgotten when the server stops.
 */
import { createHash, timingSafeEqual } from "node:crypto"
import { MemoryAdapter } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import { smtpSender } from "@sesame/core/providers/nodemailer"
import Password from "@sesame/core/providers/password"

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
 * `mailbox` is the development mailbox's SMTP URL, where the password accounts' emails go.
 */
export function createAuthConfig({ devIdp, mailbox } = {}) {
  const providers = [
    Credentials({
      name: "Demo account",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      authorize: ({ email, password }) => checkDemoAccount(email, password),
      // The user authorize returns is added to the adapter at its first sign-in.
      createUser: true,
    }),
    Password({
      // A new account is signed in at once; its address is not confirmed first (a demo).
      requireEmailVerification: false,
      sendEmail: mailbox
        ? smtpSender({ server: mailbox, from: "Sesame example <no-reply@example.com>" })
        : async ({ to, message }) => console.log(`Email to ${to}: ${message.subject}\n${message.text}`),
    }),
  ]
  if (devIdp) providers.push({ id: "dev-idp", name: "Sesame Dev IdP", type: "oidc", ...devIdp })
  else if (process.env.AUTH_DEV_IDP_ISSUER) providers.push({ id: "dev-idp", name: "Sesame Dev IdP", type: "oidc" })
  return { adapter: MemoryAdapter(), providers, pages: { signIn: "/login" } }
}
