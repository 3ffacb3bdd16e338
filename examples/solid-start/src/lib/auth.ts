/**
 * The app's Sesame configuration, shared by the auth route, the middleware and the server
 * functions. Server-only: it is imported only by server code (`"use server"` modules, the route,
 * the middleware), never by a component.
 *
 * The environment supplies the rest, read by Sesame itself: AUTH_SECRET, AUTH_URL or
 * AUTH_TRUST_HOST, and the OpenID Connect provider's AUTH_DEV_IDP_ISSUER, AUTH_DEV_IDP_ID and
 * AUTH_DEV_IDP_SECRET (the provider id `dev-idp` in upper snake case).
 */
import { createHash, timingSafeEqual } from "node:crypto"
import Credentials from "@sesame/core/providers/credentials"
import type { SolidAuthConfig } from "@sesame/solid-start"

/** The demo account; DEMO_PASSWORD replaces its password. */
export const demoUser = { id: "demo-user", name: "Demo User", email: "demo@example.com" }
const demoPassword = process.env.DEMO_PASSWORD ?? "sesame-demo"

/** Compares digests so that the time taken says nothing about the password. */
function passwordMatches(given: unknown): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest()
  return timingSafeEqual(digest(typeof given === "string" ? given : ""), digest(demoPassword))
}

export const authConfig: SolidAuthConfig = {
  providers: [
    Credentials({
      name: "email and password",
      credentials: {
        email: { label: "Email", type: "email", autocomplete: "username" },
        password: { label: "Password", type: "password", autocomplete: "current-password" },
      },
      async authorize({ email, password }) {
        const emailMatches = typeof email === "string" && email.trim().toLowerCase() === demoUser.email
        return passwordMatches(password) && emailMatches ? demoUser : null
      },
    }),
    // Offered when an OpenID Provider is configured (the tests start @sesame/dev-idp).
    ...(process.env.AUTH_DEV_IDP_ISSUER ? [{ id: "dev-idp", name: "Dev IdP", type: "oidc" as const }] : []),
  ],
  callbacks: {
    session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }),
  },
}
