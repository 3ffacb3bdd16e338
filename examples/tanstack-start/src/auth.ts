// src/auth.ts: Sesame's configuration. Only server code imports it: src/start.ts, the server
// routes and the server functions' handlers (TanStack Start keeps those out of the browser's bundle).
import type { AuthConfig } from "@sesame/core"
import { MemoryAdapter } from "@sesame/core/adapters"
import Credentials from "@sesame/core/providers/credentials"
import Password from "@sesame/core/providers/password"

/** The demo account that `Credentials` checks below (an app checks its own user store). */
export const demoAccount = { email: "demo@example.com", password: "sesame-demo" }

/**
 * The OpenID Connect provider, offered when its issuer, client id and secret are in the
 * environment: AUTH_DEV_IDP_ISSUER, AUTH_DEV_IDP_ID, AUTH_DEV_IDP_SECRET (Sesame reads them; `npm
 * start` starts a local provider and sets them). Without them, `npm run dev` offers the other two.
 */
export const oidcProvider = process.env.AUTH_DEV_IDP_ISSUER ? ({ id: "dev-idp", name: "Sesame Dev IdP", type: "oidc" } as const) : undefined

/**
 * The configuration, given to the @sesame/tanstack-start functions that are made with it: the auth
 * server route (src/routes/auth/$.ts) and the request middleware (src/start.ts). The server
 * functions after that middleware (`getSession()`, `requireSession()`, `signIn()`) use it without
 * being given it.
 */
export const authConfig: AuthConfig = {
  // basePath: "/auth" is the default: the endpoints live under /auth, the server route auth/$.
  // Users, password hashes and sessions in memory, forgotten when the server stops.
  adapter: MemoryAdapter(),
  providers: [
    Credentials({
      name: "Demo account",
      credentials: {
        email: { label: "Email", type: "email", autocomplete: "username" },
        password: { label: "Password", type: "password", autocomplete: "current-password" },
      },
      async authorize({ email, password }) {
        // Check the password against your own store; return the user, or null to refuse.
        if (email === demoAccount.email && password === demoAccount.password) return { id: "demo", name: "Demo User", email: demoAccount.email }
        return null
      },
      // With an adapter, the user `authorize` returns must exist there: made at its first sign-in.
      createUser: true,
    }),
    // Accounts that visitors make on Sesame's built-in sign-up page (/auth/signup), with a password.
    Password({
      // A new account is signed in at once, its address not confirmed first (a demo).
      requireEmailVerification: false,
      // No mail server here: a password-reset link goes to the server's console.
      sendEmail: ({ kind, to, url }) => console.log(`Email (${kind}) to ${to}: ${url}`),
    }),
    ...(oidcProvider ? [oidcProvider] : []),
  ],
  // The app's own sign-in page (src/routes/signin.tsx): the guards send visitors there.
  pages: { signIn: "/signin" },
}
